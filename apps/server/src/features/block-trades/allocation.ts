// A block offer's allotment: the applied bids in arrival order share the offered quantity pro-rata in the
// offer's lots (allocateProRata: largest remainder, ties to the earlier bid); each pays its allotted
// quantity at the offer price and is released the rest of its hold. Pure: the service sends the result
// as settle_allotment batches.

import { allocateProRata } from '@bourse/money';

export type Bid = { id: number; quantity: bigint; heldMinor: bigint };
export type Allotment = { id: number; allotted: bigint; payMinor: bigint };

/** `priceOf(q)`: what `q` shares cost at the offer price, in the currency's minor units. */
export function allotBlock(
  bids: readonly Bid[],
  supply: bigint,
  lot: bigint,
  priceOf: (quantity: bigint) => bigint,
): Allotment[] {
  const given = allocateProRata(
    bids.map((b) => b.quantity),
    supply,
    lot,
  );
  return bids.map((bid, i) => {
    const allotted = given[i] as bigint;
    const payMinor = priceOf(allotted);
    // The hold was the full quantity at the same price: it always covers the allotted part.
    if (payMinor > bid.heldMinor) throw new Error(`block bid ${bid.id}: pays ${payMinor} > held ${bid.heldMinor}`);
    return { id: bid.id, allotted, payMinor };
  });
}
