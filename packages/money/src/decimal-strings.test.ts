import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDecimal } from './decimal.ts';
import {
  compareDecimal,
  decimalPlaces,
  isMultipleOf,
  signOfDecimal,
  stepDecimal,
  subtractDecimals,
  sumDecimals,
} from './decimal-strings.ts';

/** A decimal string of 0 to 20 decimals, and its value as a fraction (minor units, scale). */
const decimalText = fc
  .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 20 }))
  .map(([minor, scale]) => ({ text: formatDecimal(minor, scale), minor, scale }));

describe('decimal strings of mixed scales', () => {
  it('counts decimals', () => {
    expect(decimalPlaces('0.05')).toBe(2);
    expect(decimalPlaces('1')).toBe(0);
    expect(decimalPlaces(undefined)).toBe(0);
  });

  it('compares, signs, sums and subtracts exactly', () => {
    expect(compareDecimal('10.5', '9.99')).toBe(1);
    expect(compareDecimal('-1', '0')).toBe(-1);
    expect(compareDecimal('2.50', '2.5')).toBe(0);
    // Past 2^53 minor units, where a float would call these equal.
    expect(compareDecimal('9007199254740993.000000000000000001', '9007199254740993')).toBe(1);
    expect(compareDecimal(null, '0')).toBe(0);
    expect(signOfDecimal('-0.00')).toBe(0);
    expect(signOfDecimal('-0.01')).toBe(-1);
    expect(signOfDecimal('0.000000000000000001')).toBe(1);
    expect(signOfDecimal('abc')).toBe(0);
    expect(sumDecimals(['0.1', '0.2', null, '-0.05'])).toBe('0.25');
    expect(sumDecimals(['1', '2'])).toBe('3');
    expect(sumDecimals(['1000000.00', '0.50'])).toBe('1000000.50');
    expect(sumDecimals([])).toBe('0');
    expect(subtractDecimals('100.10', '100.05')).toBe('0.05');
    expect(subtractDecimals('1', '1.5')).toBe('-0.5');
  });

  it('compares as the values do, at any two scales', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        // a.minor / 10^a.scale against b.minor / 10^b.scale, cross-multiplied.
        const x = a.minor * 10n ** BigInt(b.scale);
        const y = b.minor * 10n ** BigInt(a.scale);
        expect(compareDecimal(a.text, b.text)).toBe(x < y ? -1 : x > y ? 1 : 0);
        expect(compareDecimal(subtractDecimals(sumDecimals([a.text, b.text]), b.text), a.text)).toBe(0);
      }),
    );
  });

  it('checks multiples of a tick or lot', () => {
    expect(isMultipleOf('2945.15', '0.05')).toBe(true);
    expect(isMultipleOf('2945.13', '0.05')).toBe(false);
    expect(isMultipleOf('100', '25')).toBe(true);
    expect(isMultipleOf('1.5', '0')).toBe(true);
    expect(isMultipleOf('1.5.', '0.5')).toBe(false);
  });

  it('steps to the next multiple of the step', () => {
    expect(stepDecimal('2945.13', '0.05', 1)).toBe('2945.15');
    expect(stepDecimal('2945.13', '0.05', -1)).toBe('2945.10');
    expect(stepDecimal('2945.10', '0.05', 1)).toBe('2945.15');
    expect(stepDecimal('0.05', '0.05', -1)).toBe('0.05');
    expect(stepDecimal('', '1', 1)).toBe('1');
    expect(stepDecimal('', '0.05', 1, '12.3')).toBe('12.30');
    expect(stepDecimal('', '0.05', 1, '12.345')).toBe('12.345');
    expect(stepDecimal('7', '5', 1)).toBe('10');
    expect(stepDecimal('1.234', '0.05', 1)).toBe('1.25');
    expect(stepDecimal('9', '1', -1)).toBe('8');
  });
});
