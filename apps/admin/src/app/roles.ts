// The role matrix of the staff console: which sections a role sees and which actions it may start.
// It only shapes the UI; the server checks every call against @bourse/contract's STAFF_PERMISSIONS
// and writes the audit log. For the permissions the server already knows, this copy must equal the
// contract's (roles.test.ts compares them); the others belong to sections still to come. The copy
// exists because importing the contract's values would bundle zod and the phone metadata into the console;
// its types cost nothing, so the role type is the contract's.
// `admin` sees everything.

import type { StaffRole } from '@bourse/contract';

export type { StaffRole };
export const STAFF_ROLES = ['support', 'compliance', 'finance', 'admin'] as const satisfies readonly StaffRole[];

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
}

export const PERMISSIONS = [
  'users.read',
  'users.status', // block / unblock a customer
  'audit.read',
  'staff.manage', // list, create and disable staff members
  'chat.reply',
  'kyc.review',
  'deposits.confirm',
  'withdrawals.review',
  'loans.review',
  'reconciliation.read',
  'listings.manage',
  'content.manage', // news, notices, ads and personal messages to customers
  'adjustments.manage', // propose manual adjustments; approve or reject another staff member's
  'ipo.manage', // create IPO listings; approve another staff member's; run listing day
  'launchpad.manage', // create coin offerings; approve or reject another staff member's
  'robots.manage', // robot templates: create, approve or reject another staff member's, retire; see runs
  'funds.manage', // AI funds: create, change, approve or reject another staff member's, retire; see valuations
  'vip.manage', // VIP members and periods, the stock-strategy switch, trading-advice posts
  'options.read', // the options desk: underlyings, the market maker's exposure, positions, settlements
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ROLE_PERMISSIONS: Readonly<Record<Exclude<StaffRole, 'admin'>, readonly Permission[]>> = {
  support: ['users.read', 'chat.reply', 'content.manage', 'vip.manage'],
  compliance: ['users.read', 'users.status', 'kyc.review', 'audit.read'],
  finance: [
    'users.read',
    'deposits.confirm',
    'withdrawals.review',
    'loans.review',
    'reconciliation.read',
    'adjustments.manage',
    'ipo.manage',
    'launchpad.manage',
    'robots.manage',
    'funds.manage',
    'options.read',
  ],
};

export function hasPermission(role: StaffRole, permission: Permission): boolean {
  if (role === 'admin') return true;
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** A place in the side menu. */
export interface ConsoleSection {
  key: string;
  path: string;
  /** Who sees it; null means every signed-in staff member. */
  permission: Permission | null;
}

export const SECTIONS: readonly ConsoleSection[] = [
  { key: 'dashboard', path: '/', permission: null },
  { key: 'users', path: '/users', permission: 'users.read' },
  { key: 'kyc', path: '/kyc', permission: 'kyc.review' },
  { key: 'chat', path: '/chat', permission: 'chat.reply' },
  { key: 'deposits', path: '/deposits', permission: 'deposits.confirm' },
  { key: 'withdrawals', path: '/withdrawals', permission: 'withdrawals.review' },
  { key: 'loans', path: '/loans', permission: 'loans.review' },
  { key: 'reconciliation', path: '/reconciliation', permission: 'reconciliation.read' },
  { key: 'liquidity', path: '/liquidity', permission: 'reconciliation.read' },
  { key: 'perpetuals', path: '/perpetuals', permission: 'reconciliation.read' },
  { key: 'adjustments', path: '/adjustments', permission: 'adjustments.manage' },
  { key: 'ipo', path: '/ipo', permission: 'ipo.manage' },
  { key: 'options', path: '/options', permission: 'options.read' },
  { key: 'blockTrades', path: '/block-trades', permission: 'listings.manage' },
  { key: 'launchpad', path: '/launchpad', permission: 'launchpad.manage' },
  { key: 'robots', path: '/robots', permission: 'robots.manage' },
  { key: 'aiFunds', path: '/ai-funds', permission: 'funds.manage' },
  { key: 'listings', path: '/listings', permission: 'listings.manage' },
  { key: 'content', path: '/content', permission: 'content.manage' },
  { key: 'vip', path: '/vip', permission: 'vip.manage' },
  { key: 'votes', path: '/votes', permission: 'content.manage' },
  { key: 'audit', path: '/audit', permission: 'audit.read' },
  { key: 'staff', path: '/staff', permission: 'staff.manage' },
];

export function sectionsFor(role: StaffRole): ConsoleSection[] {
  return SECTIONS.filter((section) => section.permission === null || hasPermission(role, section.permission));
}

/** The section a path belongs to (`/users?x` → users), or undefined for pages outside the menu. */
export function sectionForPath(pathname: string): ConsoleSection | undefined {
  const first = `/${pathname.split('?')[0]?.split('/').filter(Boolean)[0] ?? ''}`;
  return SECTIONS.find((section) => section.path === first);
}

export function canOpenPath(role: StaffRole, pathname: string): boolean {
  const section = sectionForPath(pathname);
  if (section === undefined) return true; // e.g. the own-password page: every staff member
  return section.permission === null || hasPermission(role, section.permission);
}
