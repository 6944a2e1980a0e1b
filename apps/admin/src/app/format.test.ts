import { describe, expect, it } from 'vitest';
import {
  auditActionKey,
  detailLines,
  formatDateTime,
  formatDecimalText,
  isStaffDisabled,
  isUserBlocked,
  isZeroDecimal,
  kycState,
} from './format.ts';

describe('display helpers', () => {
  it('formats an ISO time in the chosen language and leaves bad input visible', () => {
    const iso = '2026-03-05T14:07:09.000Z';
    expect(formatDateTime(iso, 'en-US')).toMatch(/2026/);
    expect(formatDateTime(iso, 'pt-BR')).toMatch(/mar\.? de 2026/);
    expect(formatDateTime('not a date', 'en-US')).toBe('not a date');
    expect(formatDateTime(null, 'en-US')).toBe('—');
  });

  it('groups an exact decimal amount for the language, digit for digit, and tells zero', () => {
    expect(formatDecimalText('-2000000.00', 'en-US')).toBe('-2,000,000.00');
    expect(formatDecimalText('-2000000.00', 'pt-BR')).toBe('-2.000.000,00');
    // Past what a float carries: every digit kept.
    expect(formatDecimalText('27000000000000000001.000000000000000001', 'en-US')).toBe(
      '27,000,000,000,000,000,001.000000000000000001',
    );
    expect(formatDecimalText('-0.50', 'en-US')).toBe('-0.50');
    expect(formatDecimalText('12', 'pt-BR')).toBe('12');
    expect(formatDecimalText('n/a', 'en-US')).toBe('n/a');
    expect(['0', '0.00', '-0.000'].every(isZeroDecimal)).toBe(true);
    expect(['0.01', '-1', '10', '', '0.', '0.000000000000000001'].some(isZeroDecimal)).toBe(false);
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
