import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDecimal, parseDecimal, tryParseDecimal } from './decimal.ts';
import { ROUNDING_MODES } from './rounding.ts';

describe('decimal codec', () => {
  it('parses and formats the everyday shapes exactly', () => {
    expect(parseDecimal('1234.5', 2)).toBe(123450n);
    expect(formatDecimal(123450n, 2)).toBe('1234.50');
    expect(formatDecimal(-5n, 2)).toBe('-0.05');
    expect(formatDecimal(7n, 0)).toBe('7');
    expect(parseDecimal('-0.000000000000000001', 18)).toBe(-1n);
    expect(formatDecimal(10n ** 18n + 1n, 18)).toBe('1.000000000000000001');
  });

  it('refuses malformed text and too many decimals unless a rounding mode is named', () => {
    for (const bad of ['', '.5', '5.', '+1', '1e3', ' 1', '1,5', '--1', 'NaN']) {
      expect(tryParseDecimal(bad, 2)).toEqual({ ok: false, code: 'invalid_decimal' });
    }
    expect(tryParseDecimal('1.005', 2)).toEqual({ ok: false, code: 'too_many_decimals' });
    expect(tryParseDecimal('1.005', 2, 'half_even')).toEqual({ ok: true, minor: 100n });
    expect(tryParseDecimal('1.015', 2, 'half_even')).toEqual({ ok: true, minor: 102n });
    expect(tryParseDecimal('1.005', 2, 'up')).toEqual({ ok: true, minor: 101n });
    expect(tryParseDecimal('-1.005', 2, 'half_up')).toEqual({ ok: true, minor: -101n });
  });

  it('formats with fewer decimals only when told how to round', () => {
    expect(() => formatDecimal(12345n, 3, { decimals: 2 })).toThrow();
    expect(formatDecimal(12345n, 3, { decimals: 2, rounding: 'half_even' })).toBe('12.34');
    expect(formatDecimal(12345n, 3, { decimals: 2, rounding: 'half_up' })).toBe('12.35');
    expect(formatDecimal(12n, 1, { decimals: 3 })).toBe('1.200');
  });

  it('round-trips any amount at any scale up to 18 through format and parse', () => {
    fc.assert(
      fc.property(fc.bigInt(-(10n ** 40n), 10n ** 40n), fc.integer({ min: 0, max: 18 }), (minor, scale) => {
        expect(parseDecimal(formatDecimal(minor, scale), scale)).toBe(minor);
      }),
      { numRuns: 2000 },
    );
  });

  it('loses nothing at 18 decimals: any written decimal survives parse then format', () => {
    const digits = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }).map((d) => d.join(''));
    fc.assert(
      fc.property(fc.boolean(), fc.bigInt(0n, 10n ** 30n), digits, (negative, whole, fraction) => {
        const text = `${negative && (whole > 0n || /[1-9]/.test(fraction)) ? '-' : ''}${whole}.${fraction}`;
        expect(formatDecimal(parseDecimal(text, 18), 18)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('rounds parse results to within one minor unit of the exact value, in the named direction', () => {
    fc.assert(
      fc.property(fc.bigInt(0n, 10n ** 24n), fc.constantFrom(...ROUNDING_MODES), (raw, mode) => {
        const text = formatDecimal(raw, 6);
        const down = parseDecimal(text, 2, 'down');
        const rounded = parseDecimal(text, 2, mode);
        expect(rounded - down === 0n || rounded - down === 1n).toBe(true);
        expect(down).toBe(raw / 10_000n);
      }),
    );
  });
});
