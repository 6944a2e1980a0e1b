import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  formatAmountCompact,
  formatChange,
  formatPercentChange,
  marketOfCurrency,
  quoteLocale,
} from './market-format.ts';

describe('market formatting', () => {
  it('shows money in the market of its currency', () => {
    expect(formatAmount('123456.7', 'INR', 'en-US')).toBe('₹1,23,456.70');
    expect(formatAmount('123456.7', 'USD', 'pt-BR')).toBe('$123,456.70');
    // Shares in the ledger: a count and the ticker, never a currency.
    expect(formatAmount('5', 'SHARE:NSE:RELIANCE', 'en-US', { signDisplay: 'exceptZero' })).toBe('+5 RELIANCE');
    expect(formatAmount('-1200', 'SHARE:B3:PETR4', 'pt-BR', { signDisplay: 'exceptZero' })).toMatch(/^-1\.200 PETR4$/);
    expect(formatAmount('123456.7', 'BRL', 'en-US')).toMatch(/^R\$\s123\.456,70$/);
    expect(formatAmount('-12.5', 'INR', 'en-US', { signDisplay: 'exceptZero' })).toBe('-₹12.50');
    expect(formatAmount('1234.5', 'USDT', 'en-US')).toBe('1,234.50 USDT');
  });
  it('abbreviates money that does not fit, keeping its sign and symbol', () => {
    expect(formatAmountCompact('1000000.00', 'INR', 'pt-BR')).toBe('₹10L');
    expect(formatAmountCompact('123456789.50', 'INR', 'en-US')).toBe('₹12.35Cr');
    expect(formatAmountCompact('50000.00', 'BRL', 'en-US')).toMatch(/^R\$\s50K$/);
    expect(formatAmountCompact('-1500000', 'BRL', 'pt-BR', { signDisplay: 'exceptZero' })).toMatch(/^-R\$\s1,5M$/);
    expect(formatAmountCompact('1250000', 'USD', 'en-US', { signDisplay: 'exceptZero' })).toBe('+$1.25M');
    expect(formatAmountCompact('0.00', 'USD', 'en-US', { signDisplay: 'exceptZero' })).toBe('$0.00');
    expect(formatAmountCompact('999.5', 'USD', 'en-US')).toBe('$999.50');
    expect(formatAmountCompact('1234.5', 'USDT', 'en-US')).toBe('1.23K USDT');
    expect(formatAmountCompact('25000', 'SHARE:NSE:RELIANCE', 'en-US', { signDisplay: 'exceptZero' })).toBe(
      '+25K RELIANCE',
    );
    expect(formatAmountCompact(null, 'INR', 'en-US')).toBe('--');
  });
  it('always signs changes', () => {
    expect(formatPercentChange('1.25', 'en-IN')).toBe('+1.25%');
    expect(formatPercentChange('-0.4', 'pt-BR')).toBe('-0,40%');
    expect(formatChange('12.4', 'en-US')).toBe('+12.40');
  });
  it('chooses the locale of the instrument', () => {
    expect(quoteLocale({ country: 'IN', currency: 'INR', kind: 'stock' }, 'pt-BR')).toBe('en-IN');
    expect(quoteLocale({ country: null, currency: 'USDT', kind: 'crypto' }, 'pt-BR')).toBe('pt-BR');
    expect(marketOfCurrency('BRL')).toBe('BR');
    expect(marketOfCurrency('USDT')).toBeNull();
  });
});
