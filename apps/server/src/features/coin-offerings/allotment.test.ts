// The launchpad's pro-rata allotment with its refund as a scenario table: undersubscribed (everyone gets
// what they paid for), oversubscribed (pro rata in whole units, largest remainder, ties to the earlier),
// amounts that are not a whole number of units, and the invariants on every row.

import { describe, expect, it } from 'vitest';
import { allot, unitPriceIsExact } from './allotment.ts';

const USDT = 1_000_000n;
/** A coin of scale 8 at 0.10 USDT, allotted in whole coins, 1,000 coins for sale. */
const terms = { priceMinor: 100_000n, capMinor: 1_000n * 10n ** 8n, unitMinor: 10n ** 8n, scale: 8 };
const coins = (n: bigint) => n * 10n ** 8n;

describe('coin offering allotment', () => {
  it.each([
    {
      name: 'undersubscribed: each gets what it paid for, nothing refunded',
      committed: [10n * USDT, 25n * USDT],
      expected: [
        [coins(100n), 10n * USDT, 0n],
        [coins(250n), 25n * USDT, 0n],
      ],
    },
    {
      name: 'not a whole number of units: the remainder is refunded',
      committed: [10_050_000n],
      expected: [[coins(100n), 10n * USDT, 50_000n]],
    },
    {
      name: 'exactly subscribed: all sold, nothing refunded',
      committed: [60n * USDT, 40n * USDT],
      expected: [
        [coins(600n), 60n * USDT, 0n],
        [coins(400n), 40n * USDT, 0n],
      ],
    },
    {
      name: 'twice oversubscribed: half each, half refunded',
      committed: [100n * USDT, 100n * USDT],
      expected: [
        [coins(500n), 50n * USDT, 50n * USDT],
        [coins(500n), 50n * USDT, 50n * USDT],
      ],
    },
    {
      name: 'three equal asks for 1,000: the leftover unit goes to the earliest',
      committed: [100n * USDT, 100n * USDT, 100n * USDT],
      expected: [
        [coins(334n), 33_400_000n, 66_600_000n],
        [coins(333n), 33_300_000n, 66_700_000n],
        [coins(333n), 33_300_000n, 66_700_000n],
      ],
    },
    {
      name: 'a commitment below one unit gets nothing and everything back',
      committed: [50_000n, 200n * USDT],
      expected: [
        [0n, 0n, 50_000n],
        [coins(1_000n), 100n * USDT, 100n * USDT],
      ],
    },
  ])('$name', ({ committed, expected }) => {
    const result = allot(committed, terms);
    expect(result.map((r) => [r.coins, r.pay, r.refund])).toEqual(expected);
    for (const [k, r] of result.entries()) expect(r.pay + r.refund).toBe(committed[k]);
    expect(result.reduce((sum, r) => sum + r.coins, 0n) <= terms.capMinor).toBe(true);
  });

  it('accepts terms only when one unit costs an exact USDT amount', () => {
    expect(unitPriceIsExact(terms)).toBe(true);
    // 0.0000001 coin (scale 8, unit of 10 minor units) at 0.10 USDT costs 0.00000001 USDT: not exact.
    expect(unitPriceIsExact({ ...terms, unitMinor: 10n })).toBe(false);
  });
});
