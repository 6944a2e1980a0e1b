// Proves the client-side phone checks for the three markets' country codes.
import { describe, expect, it } from 'vitest';
import { isPhoneValid } from './phone.ts';

describe('isPhoneValid', () => {
  it('accepts Indian mobile numbers and refuses short or malformed ones', () => {
    expect(isPhoneValid('91', '9876543210')).toBe(true);
    expect(isPhoneValid('91', '12345')).toBe(false);
    expect(isPhoneValid('91', '1876543210')).toBe(false);
    expect(isPhoneValid('91', '98765a3210')).toBe(false);
  });
  it('accepts Brazilian and US numbers', () => {
    expect(isPhoneValid('55', '11987654321')).toBe(true);
    expect(isPhoneValid('1', '2125550123')).toBe(true);
    expect(isPhoneValid('44', '7911123456')).toBe(true);
  });
});
