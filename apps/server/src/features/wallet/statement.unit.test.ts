import { describe, expect, it } from 'vitest';
import { moneyText } from './statement.ts';

describe("a statement PDF's amounts", () => {
  it('carry the currency symbol and the language grouping, digit for digit', () => {
    expect(moneyText('-1234567.50', 'INR', 'en-US')).toBe('-₹1,234,567.50');
    expect(moneyText('1234567.50', 'BRL', 'pt-BR')).toBe('R$ 1.234.567,50');
    expect(moneyText('0.00', 'USD', 'en-US')).toBe('$0.00');
    expect(moneyText('12345678901234567.123456', 'USDT', 'en-US')).toBe('12,345,678,901,234,567.123456 USDT');
  });
});
