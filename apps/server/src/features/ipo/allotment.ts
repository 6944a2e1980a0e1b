// Owns the arithmetic of an IPO's allotment on the server side: the shares of each category, what a bid
// costs, which lots of an application count at the issue price, the anonymised reference an application
// carries in the public record, and the NII (offline) proportionate allotment. The retail draw itself is
// @bourse/contract/ipo-draw (one pure function shared with the web page and the CLI: decision 0031).
// Must hold: integer arithmetic only; whole lots; the issue price is the top of the band (cut-off).

import { allocateProRata } from '@bourse/money';
import type { StoredBid } from './repo.ts';

export type Split = { retailPct: number; niiPct: number; qibPct: number };

/** Shares reserved per category: whole lots of the percentage, rounded down; QIB gets the rest. */
export function categoryShares(
  totalShares: bigint,
  lotSize: number,
  split: Split,
): { retail: bigint; nii: bigint; qib: bigint } {
  const lot = BigInt(lotSize);
  const wholeLots = (pct: number) => ((totalShares * BigInt(pct)) / 100n / lot) * lot;
  const retail = wholeLots(split.retailPct);
  const nii = wholeLots(split.niiPct);
  return { retail, nii, qib: totalShares - retail - nii };
}

/** A bid's cost in minor units: lots × lot size × price. */
export const bidAmount = (bid: { lots: number; priceMinor: bigint }, lotSize: number): bigint =>
  BigInt(bid.lots) * BigInt(lotSize) * bid.priceMinor;

/**
 * The lots that count at the issue price: the most lots among the bids at or above it (a cut-off bid is
 * at it). 0 when every bid is below the issue price: such an application cannot be allotted.
 */
export function demandLots(bids: readonly StoredBid[], issuePriceMinor: bigint): number {
  return bids.reduce((most, bid) => (BigInt(bid.priceMinor) >= issuePriceMinor ? Math.max(most, bid.lots) : most), 0);
}

/** The reference an application carries in the public draw record: fixed width, so text order is id order. */
export const applicationRef = (id: number) => `A${String(id).padStart(10, '0')}`;

/** NII allotment: proportionate in whole lots to the lots each asked for at the issue price. */
export function allotNii(demands: readonly number[], niiShares: bigint, lotSize: number): bigint[] {
  const lot = BigInt(lotSize);
  return allocateProRata(
    demands.map((lots) => BigInt(lots) * lot),
    niiShares,
    lot,
  );
}
