import { STAFF_ROLES as CONTRACT_ROLES, STAFF_PERMISSIONS } from '@bourse/contract';
import { describe, expect, it } from 'vitest';
import {
  canOpenPath,
  hasPermission,
  PERMISSIONS,
  type Permission,
  SECTIONS,
  STAFF_ROLES,
  sectionsFor,
} from './roles.ts';

const keys = (role: (typeof STAFF_ROLES)[number]) => sectionsFor(role).map((section) => section.key);

describe('role matrix', () => {
  it('gives admin every permission and every section', () => {
    for (const permission of PERMISSIONS) expect(hasPermission('admin', permission)).toBe(true);
    expect(keys('admin')).toEqual(SECTIONS.map((section) => section.key));
  });

  it('lets support read users, answer chat, manage content (and the sentiment vote desk) and VIP, nothing else', () => {
    expect(keys('support')).toEqual(['dashboard', 'users', 'chat', 'content', 'vip', 'votes']);
    expect(hasPermission('support', 'content.manage')).toBe(true);
    expect(hasPermission('support', 'users.read')).toBe(true);
    expect(hasPermission('support', 'users.status')).toBe(false);
    expect(hasPermission('support', 'audit.read')).toBe(false);
  });

  it('lets compliance manage user status, review KYC (later) and read the audit log', () => {
    expect(keys('compliance')).toEqual(['dashboard', 'users', 'kyc', 'audit']);
    expect(hasPermission('compliance', 'users.status')).toBe(true);
  });

  it('gives finance the money sections (later) and user look-up, but no audit or staff', () => {
    expect(keys('finance')).toEqual([
      'dashboard',
      'users',
      'deposits',
      'withdrawals',
      'loans',
      'reconciliation',
      'liquidity',
      'perpetuals',
      'adjustments',
      'ipo',
      'options',
      'launchpad',
      'robots',
      'aiFunds',
    ]);
    expect(hasPermission('finance', 'users.status')).toBe(false);
  });

  it('agrees with the permissions the server enforces (@bourse/contract)', () => {
    expect([...STAFF_ROLES]).toEqual([...CONTRACT_ROLES]);
    for (const [permission, roles] of Object.entries(STAFF_PERMISSIONS)) {
      expect(PERMISSIONS as readonly string[], permission).toContain(permission);
      for (const role of STAFF_ROLES) {
        expect(hasPermission(role, permission as Permission), `${role} ${permission}`).toBe(
          (roles as readonly string[]).includes(role),
        );
      }
    }
  });

  it('keeps staff management to admin only', () => {
    for (const role of STAFF_ROLES) expect(hasPermission(role, 'staff.manage')).toBe(role === 'admin');
    expect(canOpenPath('compliance', '/staff')).toBe(false);
    expect(canOpenPath('admin', '/staff')).toBe(true);
  });

  it('lets every role open the dashboard and its own password page', () => {
    for (const role of STAFF_ROLES) {
      expect(canOpenPath(role, '/')).toBe(true);
      expect(canOpenPath(role, '/password')).toBe(true);
    }
    expect(canOpenPath('support', '/audit')).toBe(false);
    expect(canOpenPath('support', '/users/42')).toBe(true);
  });
});
