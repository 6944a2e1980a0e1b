import { describe, expect, it } from 'vitest';
import { allotNii, applicationRef, bidAmount, categoryShares, demandLots } from './allotment.ts';

const bid = (lots: number, price: string, cutOff = false) => ({ lots, priceMinor: price, cutOff });

describe('IPO allotment arithmetic', () => {
  it('splits the issue into whole lots per category, QIB taking the rest', () => {
    expect(categoryShares(600n, 100, { retailPct: 50, niiPct: 35, qibPct: 15 })).toEqual({
      retail: 300n,
      nii: 200n,
      qib: 100n,
    });
    expect(categoryShares(1_000n, 30, { retailPct: 35, niiPct: 15, qibPct: 50 })).toEqual({
      retail: 330n,
      nii: 150n,
      qib: 520n,
    });
  });

  // Scenario table (DOMAIN.md: up to 3 bids, the issue price is the cut-off = top of the band): which
  // lots count at the issue price of ₹100.00 (10,000 paise).
  const ISSUE = 10_000n;
  const cases: [string, ReturnType<typeof bid>[], number][] = [
    ['one cut-off bid', [bid(2, '10000', true)], 2],
    ['one bid at the top of the band', [bid(3, '10000')], 3],
    ['one bid below the issue price', [bid(5, '9600')], 0],
    [
      'several bids: the most lots among those at the issue price',
      [bid(2, '10000', true), bid(3, '9700'), bid(1, '10000')],
      2,
    ],
    ['several bids, all below', [bid(2, '9500'), bid(4, '9900')], 0],
    ['three bids at the top', [bid(1, '10000'), bid(4, '10000', true), bid(2, '10000')], 4],
  ];
  for (const [name, bids, lots] of cases) it(`demand: ${name}`, () => expect(demandLots(bids, ISSUE)).toBe(lots));

  it('costs a bid as lots × lot size × price, and gives refs that sort as ids', () => {
    expect(bidAmount({ lots: 3, priceMinor: 9_700n }, 100)).toBe(2_910_000n);
    expect(applicationRef(7)).toBe('A0000000007');
    expect(applicationRef(10) > applicationRef(9)).toBe(true);
  });

  it('allots NII pro-rata in whole lots (largest remainder), never more than asked', () => {
    expect(allotNii([25, 30], 200n, 100)).toEqual([100n, 100n]);
    expect(allotNii([10, 30], 2_000n, 100)).toEqual([500n, 1_500n]);
    expect(allotNii([1, 2], 10_000n, 100)).toEqual([100n, 200n]);
  });
});
