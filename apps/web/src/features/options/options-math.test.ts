// Proves the order sheet's exact arithmetic: premium = ask × multiplier × contracts to the paisa, the
// price protection's bound rounded outward to the cent (up for a payment cap, down for a floor).
import { describe, expect, it } from 'vitest';
import { atLeast, atMost, isAtLeast, parseContracts, premiumOf, seriesParts } from './options-math.ts';

describe('options order arithmetic', () => {
  it('multiplies the ask exactly', () => {
    expect(premiumOf('204.37', 75, 3)).toBe('45983.25');
    expect(premiumOf('0.01', 75, 1)).toBe('0.75');
    expect(premiumOf('abc', 75, 1)).toBeNull();
    expect(parseContracts('12')).toBe(12);
    expect(parseContracts('0')).toBeNull();
    expect(parseContracts('1.5')).toBeNull();
  });

  it('bounds the price at 5% and rounds the bound outward to the cent', () => {
    expect(atMost('10000.00')).toBe('10500.00');
    expect(atMost('0.75')).toBe('0.79'); // 0.7875 up
    expect(atLeast('0.75')).toBe('0.71'); // 0.7125 down
    expect(atLeast('10000.00')).toBe('9500.00');
    expect(isAtLeast('100.00', '99.99')).toBe(true);
  });

  it('reads a series code', () => {
    expect(seriesParts('NSE:NIFTY50/2026-01-09/C/26000.00')).toEqual({
      underlying: 'NSE:NIFTY50',
      expiry: '2026-01-09',
      right: 'call',
      strike: '26000.00',
    });
    expect(seriesParts('x')).toBeNull();
  });
});
