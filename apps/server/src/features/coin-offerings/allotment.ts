// The launchpad's allotment arithmetic, apart from any database or engine: what each commitment asks for in
// coin units, what pro-rata gives it (allocateProRata in whole allotment units), what it pays and what is
// refunded. Must hold: exact integers; nobody pays more than they committed; the coins allotted never
// exceed the cap; paid + refunded = committed for every commitment.

import { allocateProRata, pow10 } from '@bourse/money';

export type AllotmentTerms = {
  /** Price of one whole coin in USDT minor units (10^-6). */
  readonly priceMinor: bigint;
  /** Coins for sale, in the coin's minor units. */
  readonly capMinor: bigint;
  /** The allotment unit (a lot), in the coin's minor units. */
  readonly unitMinor: bigint;
  /** The coin's scale (decimals of its minor unit). */
  readonly scale: number;
};

export type Allotment = { readonly coins: bigint; readonly pay: bigint; readonly refund: bigint };

/** Whether one unit costs an exact number of USDT minor units (so every payment is exact). */
export function unitPriceIsExact(terms: Omit<AllotmentTerms, 'capMinor'>): boolean {
  return (terms.unitMinor * terms.priceMinor) % pow10(terms.scale) === 0n;
}

/** The cost in USDT minor units of `coins` coin minor units (exact when unitPriceIsExact and coins are whole units). */
export function costOf(coins: bigint, terms: AllotmentTerms): bigint {
  return (coins * terms.priceMinor) / pow10(terms.scale);
}

/**
 * Each commitment (USDT minor units, in the order made) asks for as many whole units as it pays for;
 * pro-rata over the cap when oversubscribed (ties to the earlier); it pays for what it gets and the rest
 * is refunded.
 */
export function allot(commitments: readonly bigint[], terms: AllotmentTerms): Allotment[] {
  const unitCost = costOf(terms.unitMinor, terms);
  const requests = commitments.map((usdt) => (unitCost > 0n ? (usdt / unitCost) * terms.unitMinor : 0n));
  const given = allocateProRata(requests, terms.capMinor, terms.unitMinor);
  return commitments.map((usdt, k) => {
    const coins = given[k] as bigint;
    const pay = costOf(coins, terms);
    return { coins, pay, refund: usdt - pay };
  });
}
