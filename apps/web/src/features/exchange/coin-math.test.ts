import { describe, expect, it } from 'vitest';
import {
  coinDigits,
  isCoinAmount,
  newClientId,
  otherWallet,
  sendableCoins,
  trimAmount,
  typedAmount,
} from './coin-math.ts';

const balance = (asset: string, available: string) => ({
  wallet: 'spot' as const,
  asset,
  balance: available,
  held: '0',
  available,
  valueUsdt: '0.00',
});

describe('crypto convert and transfer helpers', () => {
  it('shows the decimals an amount has, between two and eight', () => {
    expect(coinDigits('0.01050526')).toBe(8);
    expect(coinDigits('4000.000000')).toBe(2);
    expect(coinDigits('0.500000000000000000')).toBe(2);
    expect(coinDigits('0.316208630000000000')).toBe(8);
    expect(coinDigits('12')).toBe(2);
  });

  it('takes positive decimals only, reading a comma as the point', () => {
    expect(isCoinAmount('0.00001')).toBe(true);
    expect(isCoinAmount('1000')).toBe(true);
    expect(isCoinAmount('0')).toBe(false);
    expect(isCoinAmount('0.000')).toBe(false);
    expect(isCoinAmount('1.')).toBe(false);
    expect(isCoinAmount('-1')).toBe(false);
    expect(typedAmount(' 0,5 ')).toBe('0.5');
  });

  it('switches wallets, lists what a wallet can send and fills "Max" without trailing zeros', () => {
    expect(otherWallet('spot')).toBe('contract');
    expect(otherWallet('contract')).toBe('spot');
    expect(sendableCoins([balance('USDT', '0.000000'), balance('BTC', '0.00000000'), balance('ETH', '0.5')])).toEqual([
      'USDT',
      'ETH',
    ]);
    expect(trimAmount('12.500000')).toBe('12.5');
    expect(trimAmount('4000.000000')).toBe('4000');
    expect(trimAmount('7')).toBe('7');
  });

  it('makes a different key each time', () => {
    expect(newClientId()).toMatch(/^web-[0-9a-f-]{36}$/);
    expect(newClientId()).not.toBe(newClientId());
  });
});
