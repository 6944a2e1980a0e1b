// A block offer's allotment as a scenario table: undersubscribed (everyone gets what they bid), exactly
// subscribed, oversubscribed pro-rata in whole lots (largest remainder, ties to the earlier bid), a bid
// too small for a lot of its share (not allotted), and the payment at the offer price.

import { describe, expect, it } from 'vitest';
import { allotBlock } from './allocation.ts';

const PRICE = 250n; // minor units per share
const priceOf = (q: bigint) => q * PRICE;

type Row = { name: string; supply: bigint; lot: bigint; bids: bigint[]; allotted: bigint[] };

const SCENARIOS: Row[] = [
  { name: 'undersubscribed: every bid in full', supply: 1000n, lot: 10n, bids: [100n, 200n], allotted: [100n, 200n] },
  { name: 'exactly subscribed', supply: 300n, lot: 10n, bids: [100n, 200n], allotted: [100n, 200n] },
  { name: 'twice oversubscribed: half each', supply: 150n, lot: 10n, bids: [100n, 200n], allotted: [50n, 100n] },
  // 3 equal bids share 100 in lots of 10: 30 each, the last lot to the earliest bid.
  { name: 'a tie goes to the earlier bid', supply: 100n, lot: 10n, bids: [50n, 50n, 50n], allotted: [40n, 30n, 30n] },
  // Shares 198.0 and 1.98 round down to 190 and 0; the last lot goes to the larger remainder (the first
  // bid's 8.1 against 1.98 shares): the small bid is not allotted.
  {
    name: 'a bid whose share is under one lot may get nothing',
    supply: 200n,
    lot: 10n,
    bids: [1000n, 10n],
    allotted: [200n, 0n],
  },
  {
    name: 'supply not a whole number of lots: the rest is not allotted',
    supply: 105n,
    lot: 10n,
    bids: [100n, 100n],
    allotted: [50n, 50n],
  },
  { name: 'no bids', supply: 100n, lot: 10n, bids: [], allotted: [] },
];

describe('block allotment', () => {
  it.each(SCENARIOS)('$name', ({ supply, lot, bids, allotted }) => {
    const result = allotBlock(
      bids.map((quantity, i) => ({ id: i + 1, quantity, heldMinor: priceOf(quantity) })),
      supply,
      lot,
      priceOf,
    );
    expect(result.map((r) => r.allotted)).toEqual(allotted);
    expect(result.map((r) => r.payMinor)).toEqual(allotted.map(priceOf));
    const total = result.reduce((sum, r) => sum + r.allotted, 0n);
    expect(total <= supply).toBe(true);
    for (const r of result) expect(r.allotted % lot).toBe(0n);
  });

  it('refuses an allocation a hold would not cover (a bug, never a customer error)', () => {
    expect(() => allotBlock([{ id: 1, quantity: 10n, heldMinor: 1n }], 10n, 10n, priceOf)).toThrow(/pays/);
  });
});
