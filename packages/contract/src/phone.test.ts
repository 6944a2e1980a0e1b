import { describe, expect, it } from 'vitest';
import { normalizePhone } from './phone.ts';

describe('normalizePhone', () => {
  it('accepts Indian, Brazilian and US mobiles and returns E.164', () => {
    expect(normalizePhone('91', '9876543210')).toBe('+919876543210');
    expect(normalizePhone('+55', '11943214321')).toBe('+5511943214321');
    expect(normalizePhone('1', '2015550123')).toBe('+12015550123');
  });
  it('refuses numbers that are too short, not mobile in India, or not digits', () => {
    expect(normalizePhone('91', '12345')).toBeNull();
    expect(normalizePhone('91', '5876543210')).toBeNull();
    expect(normalizePhone('91', '98765x3210')).toBeNull();
    expect(normalizePhone('abc', '9876543210')).toBeNull();
  });
});
