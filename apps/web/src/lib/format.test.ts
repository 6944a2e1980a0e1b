// Proves that money and numbers are formatted exactly from decimal strings, per market locale.
import { describe, expect, it } from 'vitest';
import { formatCompact, formatMoney, formatNumber, formatPercentChange, parseDecimal, roundDecimal } from './format.ts';

describe('parseDecimal and roundDecimal', () => {
  it('keeps every digit of long decimals', () => {
    expect(parseDecimal('123456789012345678901.123456789')).toEqual({
      isNegative: false,
      integer: '123456789012345678901',
      fraction: '123456789',
    });
    expect(parseDecimal('-0.50')).toEqual({ isNegative: true, integer: '0', fraction: '50' });
    expect(parseDecimal('-0.00')?.isNegative).toBe(false);
    expect(parseDecimal('1e3')).toBeNull();
    expect(parseDecimal('')).toBeNull();
    expect(parseDecimal('abc')).toBeNull();
  });

  it('rounds half away from zero on the digit string', () => {
    const round = (s: string, d: number) => {
      const r = roundDecimal(parseDecimal(s)!, d);
      return `${r.isNegative ? '-' : ''}${r.integer}${d ? `.${r.fraction}` : ''}`;
    };
    expect(round('1.005', 2)).toBe('1.01'); // a float would give 1.00
    expect(round('1.004', 2)).toBe('1.00');
    expect(round('9.995', 2)).toBe('10.00');
    expect(round('-2.675', 2)).toBe('-2.68');
    expect(round('0.5', 0)).toBe('1');
    expect(round('-0.004', 2)).toBe('0.00');
    expect(round('7', 2)).toBe('7.00');
  });
});

describe('formatMoney', () => {
  it('uses Indian grouping for India', () => {
    expect(formatMoney('123456.7', 'IN')).toBe('₹1,23,456.70');
    expect(formatMoney('12345678901234567890.129', 'IN')).toBe('₹1,23,45,67,89,01,23,45,67,890.13');
  });
  it('uses dollars for the US and reais for Brazil', () => {
    expect(formatMoney('123456.7', 'US')).toBe('$123,456.70');
    expect(formatMoney('123456.7', 'BR').replace(/\u00a0/g, ' ')).toBe('R$ 123.456,70');
  });
  it('shows the sign of small negative amounts', () => {
    expect(formatMoney('-0.5', 'US')).toBe('-$0.50');
    expect(formatMoney('-1234.5', 'IN')).toBe('-₹1,234.50');
  });
  it('shows "--" for missing values and, when asked, for zero', () => {
    expect(formatMoney(undefined, 'US')).toBe('--');
    expect(formatMoney('', 'US')).toBe('--');
    expect(formatMoney('0', 'US', { isZeroEmpty: true })).toBe('--');
    expect(formatMoney('0', 'US')).toBe('$0.00');
  });
});

describe('formatNumber and formatPercentChange', () => {
  it('groups and pads per locale', () => {
    expect(formatNumber('1234567.891', { locale: 'en-US', digits: 3 })).toBe('1,234,567.891');
    expect(formatNumber('1234567.891', { locale: 'pt-BR' })).toBe('1.234.567,89');
    expect(formatNumber('100', { locale: 'en-IN', digits: 0 })).toBe('100');
  });
  it('always shows the sign of a change', () => {
    expect(formatPercentChange('1.25', 'en-US')).toBe('+1.25%');
    expect(formatPercentChange('0.4', 'en-US')).toBe('+0.40%');
    expect(formatPercentChange('-0.4', 'en-US')).toBe('-0.40%');
    expect(formatPercentChange('0', 'en-US')).toBe('0.00%');
    expect(formatPercentChange('-1.5', 'pt-BR')).toBe('-1,50%');
  });
});

describe('formatCompact', () => {
  it('abbreviates with K, M, B, T', () => {
    expect(formatCompact('999', 'en-US')).toBe('999');
    expect(formatCompact('1500', 'en-US')).toBe('1.5K');
    expect(formatCompact('1234567', 'en-US')).toBe('1.23M');
    expect(formatCompact('1234567', 'pt-BR')).toBe('1,23M');
    expect(formatCompact('9876543210', 'en-US')).toBe('9.88B');
    expect(formatCompact('2000000000000', 'en-US')).toBe('2T');
  });
  it('uses lakh and crore in India', () => {
    expect(formatCompact('1234567', 'en-IN')).toBe('12.35L');
    expect(formatCompact('123456789', 'en-IN')).toBe('12.35Cr');
    expect(formatCompact('12345678901', 'en-IN')).toBe('1,234.57Cr');
    expect(formatCompact('45600', 'en-IN')).toBe('45.6K');
  });
  it('keeps negative values and rejects garbage', () => {
    expect(formatCompact('-1500000', 'en-US')).toBe('-1.5M');
    expect(formatCompact('x', 'en-US')).toBe('--');
  });
});
