import { describe, expect, it } from 'vitest';
import { auditActionKey, detailLines, formatDateTime, isStaffDisabled, isUserBlocked, kycState } from './format.ts';

describe('display helpers', () => {
  it('formats an ISO time in the chosen language and leaves bad input visible', () => {
    const iso = '2026-03-05T14:07:09.000Z';
    expect(formatDateTime(iso, 'en-US')).toMatch(/2026/);
    expect(formatDateTime(iso, 'pt-BR')).toMatch(/mar\.? de 2026/);
    expect(formatDateTime('not a date', 'en-US')).toBe('not a date');
    expect(formatDateTime(null, 'en-US')).toBe('—');
  });

  it('reads statuses whether they come as numbers or words', () => {
    expect(isUserBlocked(0)).toBe(true);
    expect(isUserBlocked(1)).toBe(false);
    expect(isStaffDisabled(0)).toBe(true);
    expect(isStaffDisabled('disabled')).toBe(true);
    expect(isStaffDisabled('active')).toBe(false);
    expect(isStaffDisabled(1)).toBe(false);
    expect(kycState('pending')).toBe('pending');
    expect(kycState(2)).toBeNull();
  });

  it('turns an audit action code into a translation key and detail into lines', () => {
    expect(auditActionKey('user.status')).toBe('auditActions.user_status');
    expect(detailLines({ from: 1, to: 0, note: 'x', ids: [1, 2] })).toEqual([
      'from: 1',
      'to: 0',
      'note: x',
      'ids: [1,2]',
    ]);
    expect(detailLines(null)).toEqual([]);
  });
});
