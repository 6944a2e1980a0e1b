import type { BalanceView } from '@bourse/contract';
import { describe, expect, it } from 'vitest';
import { byWallet, totalsByCurrency } from './funds-math.ts';

const line = (wallet: string, asset: string, balance: string, held = '0.00'): BalanceView => ({
  wallet,
  asset,
  balance,
  held,
  available: (Number(balance) - Number(held)).toFixed(2),
});

describe('totalsByCurrency', () => {
  it('sums each currency exactly over every wallet, leaves shares out, INR/USD/BRL first', () => {
    const totals = totalsByCurrency([
      line('stock', 'BRL', '0.10'),
      line('cash', 'BRL', '0.20', '0.05'),
      line('stock', 'USDT', '1.00'),
      line('stock', 'INR', '1000000.00'),
      line('stock', 'SHARE:NSE:INFY', '10'),
    ]);
    expect(totals).toEqual([
      { currency: 'INR', balance: '1000000.00', available: '1000000.00', held: '0.00' },
      // 0.1 + 0.2 is 0.3 here, not 0.30000000000000004.
      { currency: 'BRL', balance: '0.30', available: '0.25', held: '0.05' },
      { currency: 'USDT', balance: '1.00', available: '1.00', held: '0.00' },
    ]);
  });
});

describe('byWallet', () => {
  it('groups by wallet, cash before shares', () => {
    const groups = byWallet([
      line('stock', 'SHARE:NSE:INFY', '10'),
      line('stock', 'USD', '1.00'),
      line('cash', 'INR', '2.00'),
    ]);
    expect(groups.map((g) => [g.wallet, g.items.map((i) => i.asset)])).toEqual([
      ['cash', ['INR']],
      ['stock', ['USD', 'SHARE:NSE:INFY']],
    ]);
  });
});
