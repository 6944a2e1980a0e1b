import { describe, expect, it } from 'vitest';
import { compareDecimal, fromScaled, isMultipleOf, signOf, stepDecimal, sumDecimals, toScaled } from './decimal.ts';

describe('exact decimals', () => {
  it('scales and unscales without floats', () => {
    expect(toScaled('12.345', 4)).toBe(123450n);
    expect(toScaled('-0.5', 2)).toBe(-50n);
    expect(toScaled('1.2300', 2)).toBe(123n);
    expect(toScaled('1.234', 2)).toBeNull();
    expect(toScaled('abc', 2)).toBeNull();
    expect(fromScaled(123450n, 4)).toBe('12.345');
    expect(fromScaled(100n, 2, 2)).toBe('1.00');
    expect(fromScaled(-5n, 2)).toBe('-0.05');
  });
  it('compares, signs and sums', () => {
    expect(compareDecimal('10.5', '9.99')).toBe(1);
    expect(compareDecimal('-1', '0')).toBe(-1);
    expect(compareDecimal('2.50', '2.5')).toBe(0);
    expect(signOf('-0.00')).toBe(0);
    expect(signOf('+1.2')).toBe(1);
    expect(signOf('-0.01')).toBe(-1);
    expect(sumDecimals(['0.1', '0.2', null, '-0.05'])).toBe('0.25');
    expect(sumDecimals(['1', '2'])).toBe('3');
  });
  it('checks multiples of a tick or lot', () => {
    expect(isMultipleOf('2945.15', '0.05')).toBe(true);
    expect(isMultipleOf('2945.13', '0.05')).toBe(false);
    expect(isMultipleOf('100', '25')).toBe(true);
    expect(isMultipleOf('1.5', '0')).toBe(true);
  });
  it('steps to the next multiple of the step', () => {
    expect(stepDecimal('2945.13', '0.05', 1)).toBe('2945.15');
    expect(stepDecimal('2945.13', '0.05', -1)).toBe('2945.10');
    expect(stepDecimal('2945.10', '0.05', 1)).toBe('2945.15');
    expect(stepDecimal('0.05', '0.05', -1)).toBe('0.05');
    expect(stepDecimal('', '1', 1)).toBe('1');
    expect(stepDecimal('', '0.05', 1, '12.3')).toBe('12.30');
    expect(stepDecimal('7', '5', 1)).toBe('10');
  });
});
