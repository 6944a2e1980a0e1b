// Request and response schemas of the staff console calls: sign-in with TOTP, staff management,
// customer status and the audit log. Every staff action that changes something carries a written reason.

import { z } from 'zod';
import { deploymentMode, idStatus } from './accounts.ts';
import { isPlainText, loginPassword, pageQuery, recordId, text, totpCode } from './fields.ts';

export const STAFF_ROLES = ['support', 'compliance', 'finance', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const staffLoginBody = z.object({
  username: text(64),
  password: z.string({ error: 'field_required' }).min(1, { error: 'field_required' }).max(128),
  totpCode: totpCode(),
});

export const staffPasswordBody = z.object({
  oldPassword: z.string({ error: 'field_required' }).min(1, { error: 'field_required' }).max(128),
  password: loginPassword(),
});

/** The written reason of a staff action, kept in its audit row: 3 to 500 characters after trimming. */
export const actionReason = () =>
  z
    .string({ error: 'reason_required' })
    .trim()
    .min(3, { error: 'reason_required' })
    .max(500, { error: 'reason_too_long' })
    .refine(isPlainText, { error: 'field_invalid' });

export const staffCreateBody = z.object({
  username: z
    .string({ error: 'field_required' })
    .trim()
    .regex(/^[a-z][a-z0-9._-]{2,31}$/, { error: 'field_invalid' }),
  role: z.enum(STAFF_ROLES, { error: 'field_invalid' }),
  reason: actionReason(),
});

export const staffDisableBody = z.object({ id: recordId(), reason: actionReason() });

export const userStatusBody = z.object({
  userId: recordId(),
  /** 0 blocks, 1 unblocks; as a number or a form field's digit, nothing else. */
  status: z
    .union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], { error: 'field_invalid' })
    .transform((v) => Number(v) as 0 | 1),
  reason: actionReason(),
});

export const auditQuery = pageQuery.extend({
  action: z.string().max(64).refine(isPlainText, { error: 'field_invalid' }).optional(),
  staffId: recordId().optional(),
});

export const usersQuery = pageQuery.extend({
  keyword: z.string().trim().max(64).refine(isPlainText, { error: 'field_invalid' }).optional(),
});

/** What each staff role may do. The server enforces it; the console uses it to show its menu. */
export const STAFF_PERMISSIONS = {
  'users.read': ['support', 'compliance', 'finance', 'admin'],
  'users.status': ['compliance', 'admin'],
  'audit.read': ['compliance', 'admin'],
  'staff.manage': ['admin'],
  /** News, notices, ads and personal messages to customers. */
  'content.manage': ['support', 'admin'],
  /** Ledger totals per asset and the checks of the read tables and the audit chain against them. */
  'reconciliation.read': ['finance', 'admin'],
  /** Reviewing customers' KYC submissions and their photos. */
  'kyc.review': ['compliance', 'admin'],
  /** Confirming or rejecting customers' bank and offline deposits, and reading their proofs. */
  'deposits.confirm': ['finance', 'admin'],
  /** Approving or rejecting withdrawals above the review threshold; seeing paying and failed ones. */
  'withdrawals.review': ['finance', 'admin'],
  /** Proposing manual adjustments and approving another staff member's (never one's own). */
  'adjustments.manage': ['finance', 'admin'],
  /** Creating IPO listings, approving another staff member's (never one's own), running listing day. */
  'ipo.manage': ['finance', 'admin'],
  /** Block offers: create, and approve another staff member's (never one's own); mark customers HNI. */
  'listings.manage': ['admin'],
  /** Creating coin offerings (launchpad) and approving another staff member's (never one's own). */
  'launchpad.manage': ['finance', 'admin'],
  /** Robot templates: create, approve another staff member's (never one's own), retire; see runs. */
  'robots.manage': ['finance', 'admin'],
  /** AI funds: create, change, approve another staff member's (never one's own), retire; see valuations. */
  'funds.manage': ['finance', 'admin'],
  /** VIP: the members list, a customer's stock-strategy switch, and the trading-advice posts. */
  'vip.manage': ['support', 'admin'],
  /** Reading the options desk: underlyings, the market maker's exposure, open positions, expiry settlements. */
  'options.read': ['finance', 'admin'],
  /** Support chat: the queues, taking and releasing a conversation, replying and closing. */
  'chat.reply': ['support', 'admin'],
  /** Loans: review (approve, a second approval above the threshold, reject) and confirm repayments. */
  'loans.review': ['finance', 'admin'],
} as const satisfies Record<string, readonly StaffRole[]>;
export type StaffPermission = keyof typeof STAFF_PERMISSIONS;

export function staffCan(role: StaffRole, permission: StaffPermission): boolean {
  return (STAFF_PERMISSIONS[permission] as readonly StaffRole[]).includes(role);
}

// --- what the console reads ----------------------------------------------------------------------

export const staffIdentity = z.object({ id: z.number().int(), username: z.string(), role: z.enum(STAFF_ROLES) });
export type StaffIdentity = z.infer<typeof staffIdentity>;

export const staffLoginResult = z.object({ token: z.string(), staff: staffIdentity });
export type StaffLoginResult = z.infer<typeof staffLoginResult>;

/** The signed-in staff member, and whether this deployment trades on paper or for real. */
export const staffMeView = z.object({ staff: staffIdentity, mode: deploymentMode });
export type StaffMeView = z.infer<typeof staffMeView>;

/** A staff member as the staff desk lists them; status 1 is active, 0 disabled. Times are ISO. */
export const staffMemberView = staffIdentity.extend({ status: z.number().int(), createdAt: z.string() });
export type StaffMemberView = z.infer<typeof staffMemberView>;

/** A new staff member with the initial password and TOTP secret, shown this once and never again. */
export const createdStaffView = staffIdentity.extend({
  initialPassword: z.string(),
  totpSecret: z.string(),
  otpauthUrl: z.string(),
});
export type CreatedStaffView = z.infer<typeof createdStaffView>;

/** A customer as the users desk lists them; status 0 is blocked. */
export const customerUserView = z.object({
  id: z.number().int(),
  account: z.string(),
  status: z.number().int(),
  idStatus,
  createdAt: z.string(),
});
export type CustomerUserView = z.infer<typeof customerUserView>;

/** One audit-log entry; `at` is ISO, `detail` the action's own facts. */
export const auditEntryView = z.object({
  id: z.number().int(),
  at: z.string(),
  staffId: z.number().int().nullable(),
  staffUsername: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  reason: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type AuditEntryView = z.infer<typeof auditEntryView>;

// --- what the console sends (before the server's parsing: ids as numbers or digits) ---------------

export type StaffLoginInput = z.input<typeof staffLoginBody>;
export type StaffPasswordInput = z.input<typeof staffPasswordBody>;
export type StaffCreateInput = z.input<typeof staffCreateBody>;
export type StaffDisableInput = z.input<typeof staffDisableBody>;
export type UserStatusInput = z.input<typeof userStatusBody>;
export type AuditQueryInput = z.input<typeof auditQuery>;
export type UsersQueryInput = z.input<typeof usersQuery>;
