// The funds' rules: each pick is deterministic (same closes, same stocks, ties by id), momentum takes the
// best past returns and low volatility the calmest; targets are whole lots, equal parts; units and cash
// round down so a subscribe-then-redeem never returns more than was put in.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cashFor,
  navScaled,
  pastReturn,
  pick,
  realisedVolatility,
  rebalanceTrades,
  targetLots,
  unitsFor,
} from './rules.ts';

const c = (id: string, closes: number[]) => ({ id, closes });

describe('fund rules', () => {
  const stocks = [
    c('A', [100, 101, 102, 103, 104, 110]), // +10%, steady
    c('B', [100, 90, 110, 95, 120, 105]), // +5%, jumpy
    c('C', [100, 100, 100, 100, 100, 100]), // 0%, flat
    c('D', [100, 99, 98, 97, 96, 95]), // −5%, steady
    c('E', [100, 120]), // too short for a 5-day lookback
  ];

  it('momentum takes the highest past returns, low volatility the calmest; short histories are skipped', () => {
    expect(pick('momentum', stocks, 2, 5)).toEqual(['A', 'B']);
    expect(pick('low_volatility', stocks, 2, 5)).toEqual(['C', 'D']);
    expect(pick('momentum', stocks, 10, 5)).toEqual(['A', 'B', 'C', 'D']);
  });

  it('is deterministic, ties go by id, and order of input does not matter', () => {
    const tied = [c('Z', [1, 2]), c('Y', [1, 2]), c('X', [1, 2])];
    expect(pick('momentum', tied, 2, 1)).toEqual(['X', 'Y']);
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 4, maxLength: 8 }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.integer({ min: 1, max: 5 }),
        (series, size) => {
          const list = series.map((closes, i) => c(`S${i}`, closes));
          for (const rule of ['momentum', 'low_volatility'] as const) {
            const once = pick(rule, list, size, 3);
            expect(pick(rule, [...list].reverse(), size, 3)).toEqual(once);
          }
        },
      ),
    );
  });

  it('measures return and volatility', () => {
    expect(pastReturn([100, 110])).toBeCloseTo(0.1);
    expect(realisedVolatility([100, 100, 100])).toBe(0);
    expect(realisedVolatility([100])).toBe(Number.POSITIVE_INFINITY);
  });

  it('targets whole lots of equal parts and trades sells before buys', () => {
    const target = targetLots(
      ['A', 'B'],
      new Map([
        ['A', 3_000n],
        ['B', 7_000n],
      ]),
      100_000n,
    );
    expect(target).toEqual(
      new Map([
        ['A', 16n],
        ['B', 7n],
      ]),
    );
    const trades = rebalanceTrades(
      [
        { id: 'A', lots: 20n, lotPrice: 3_000n },
        { id: 'C', lots: 5n, lotPrice: 1_000n },
      ],
      target,
    );
    expect(trades).toEqual([
      { id: 'A', side: 'sell', lots: 4n },
      { id: 'C', side: 'sell', lots: 5n },
      { id: 'B', side: 'buy', lots: 7n },
    ]);
  });

  it('prices units at NAV, rounding down both ways', () => {
    // The first subscription: 1 unit per 1.00 of the currency.
    expect(unitsFor(150_000n, 0n, 0n, 2)).toBe(15_000_000n);
    expect(navScaled(0n, 0n, 2)).toBe(1_000_000n);
    // NAV 1.2345…: equity 123 456.78, 100 000 units.
    const equity = 12_345_678n;
    const units = 1_000_000_000n;
    expect(navScaled(equity, units, 2)).toBe(1_234_567n);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        (cash, e, u) => {
          const got = unitsFor(cash, e, u, 2);
          // Redeeming them at the same NAV never pays more than was paid in.
          expect(cashFor(got, e, u)).toBeLessThanOrEqual(cash);
        },
      ),
    );
  });
});
