import { describe, expect, it } from 'vitest';
import { allocateProRata } from './pro-rata.ts';

describe('allocateProRata', () => {
  it('gives everyone what they asked when the supply covers it', () => {
    expect(allocateProRata([100n, 250n, 0n], 1_000n)).toEqual([100n, 250n, 0n]);
  });

  it('splits an oversubscribed supply in proportion, whole lots, largest remainders first', () => {
    // 3x oversubscribed: 300 of 900 asked, lots of 10. Exact shares 33.3, 66.6, 200 → 30, 60, 200, then
    // the 10 left goes to the largest remainder (66.6).
    expect(allocateProRata([100n, 200n, 600n], 300n, 10n)).toEqual([30n, 70n, 200n]);
  });

  it('breaks a tie in favour of the earlier request, and never rounds above the supply', () => {
    expect(allocateProRata([10n, 10n, 10n], 20n, 1n)).toEqual([7n, 7n, 6n]);
    expect(allocateProRata([5n, 5n], 1n)).toEqual([1n, 0n]);
    const given = allocateProRata([7n, 13n, 29n, 31n], 53n, 1n);
    expect(given.reduce((a, b) => a + b, 0n)).toBe(53n);
  });

  it('leaves a supply that is not a whole lot unallotted beyond the last whole lot', () => {
    const given = allocateProRata([100n, 100n], 55n, 10n);
    expect(given).toEqual([30n, 20n]);
  });

  it('handles amounts past 2^53 exactly', () => {
    const big = 10n ** 30n;
    expect(allocateProRata([big, big * 3n], big, 1n)).toEqual([big / 4n, (big * 3n) / 4n]);
  });

  it('refuses a request that is not a multiple of the lot', () => {
    expect(() => allocateProRata([15n], 10n, 10n)).toThrow(RangeError);
  });
});
