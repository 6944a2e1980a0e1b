// The arithmetic and rules the IPO screens show before the server is asked: what a bid costs (lots ×
// lot size × price, exact in paise), what will be held (the highest bid: ASBA blocks only that one),
// whether a bid is valid (whole lots, a price inside the band or cut-off, the retail ceiling), which
// channel an amount belongs to (above the retail ceiling is an offline/NII application), and which
// tab of the IPO list an issue sits in. The server checks all of it again; these only spare a refusal.

import type { IpoApplicationView, IpoView } from '@bourse/contract';
import { compareDecimal, formatDecimal, tryParseDecimal } from '@bourse/money';

/** Prices and amounts of an issue are in rupees with 2 decimals. */
const SCALE = 2;

export interface BidDraft {
  lots: string;
  price: string;
  cutOff: boolean;
}

export type BidError =
  | 'lots_required'
  | 'lots_whole'
  | 'lots_below_min'
  | 'price_required'
  | 'price_invalid'
  | 'price_outside_band'
  | 'amount_above_retail';

/** Whole lots typed in a field ("3"), or null when it is not a positive whole number. */
export function parseLots(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,7}$/.test(trimmed)) return null;
  const lots = Number(trimmed);
  return lots > 0 ? lots : null;
}

/** The price a bid is held at: the top of the band for cut-off, else the typed price. */
export function bidPrice(bid: BidDraft, ipo: Pick<IpoView, 'priceHigh'>): string {
  return bid.cutOff ? ipo.priceHigh : bid.price.trim();
}

/** lots × lot size × price, exactly, as a 2-decimal string; null when the price is not a decimal. */
export function bidAmount(price: string, lots: number, lotSize: number): string | null {
  const parsed = tryParseDecimal(price, SCALE);
  if (!parsed.ok) return null;
  return formatDecimal(parsed.minor * BigInt(lots) * BigInt(lotSize), SCALE);
}

/** One lot at the top of the band: the least a minimum bid can hold. */
export function lotCost(ipo: Pick<IpoView, 'priceHigh' | 'lotSize'>): string {
  return bidAmount(ipo.priceHigh, 1, ipo.lotSize) ?? '0.00';
}

/** What a draft bid would hold, or null while it is incomplete or invalid. */
export function draftAmount(bid: BidDraft, ipo: Pick<IpoView, 'priceHigh' | 'lotSize'>): string | null {
  const lots = parseLots(bid.lots);
  if (lots === null) return null;
  return bidAmount(bidPrice(bid, ipo), lots, ipo.lotSize);
}

/** The amount held for an application: only its highest bid is blocked. */
export function heldForBids(amounts: readonly (string | null)[]): string {
  return amounts.reduce<string>((most, amount) => (amount && compareDecimal(amount, most) > 0 ? amount : most), '0.00');
}

type BidRules = Pick<IpoView, 'priceLow' | 'priceHigh' | 'lotSize' | 'minLots' | 'retailMaxAmount'>;

/** The first problem of an online (retail) bid, or null when it can be sent. */
export function validateRetailBid(bid: BidDraft, ipo: BidRules): BidError | null {
  const lotsError = validateLots(bid.lots, ipo.minLots);
  if (lotsError) return lotsError;
  if (!bid.cutOff) {
    const priceError = validatePrice(bid.price, ipo);
    if (priceError) return priceError;
  }
  const amount = draftAmount(bid, ipo);
  if (amount && compareDecimal(amount, ipo.retailMaxAmount) > 0) return 'amount_above_retail';
  return null;
}

/** The first problem of an offline (NII) bid's lots or price (no cut-off for NII), or null. */
export function validateOfflineBid(lots: string, price: string, ipo: BidRules): BidError | null {
  return validateLots(lots, 1) ?? validatePrice(price, ipo);
}

function validateLots(text: string, minLots: number): BidError | null {
  if (text.trim() === '') return 'lots_required';
  const lots = parseLots(text);
  if (lots === null) return 'lots_whole';
  return lots < minLots ? 'lots_below_min' : null;
}

function validatePrice(text: string, ipo: Pick<IpoView, 'priceLow' | 'priceHigh'>): BidError | null {
  const price = text.trim();
  if (price === '') return 'price_required';
  if (!tryParseDecimal(price, SCALE).ok) return 'price_invalid';
  if (compareDecimal(price, ipo.priceLow) < 0 || compareDecimal(price, ipo.priceHigh) > 0) return 'price_outside_band';
  return null;
}

/** Whether an amount is too large for an online application, so it belongs on the offline (NII) form. */
export function isAboveRetail(amount: string | null, ipo: Pick<IpoView, 'retailMaxAmount'>): boolean {
  return amount !== null && compareDecimal(amount, ipo.retailMaxAmount) > 0;
}

export type IpoTab = 'open' | 'upcoming' | 'closed';

/** The IPO list's tab for an issue's state (drafts and refused issues are never shown to customers). */
export function tabOfIpo(status: IpoView['status']): IpoTab | null {
  if (status === 'open') return 'open';
  if (status === 'upcoming') return 'upcoming';
  if (status === 'closed' || status === 'allotted' || status === 'listed') return 'closed';
  return null;
}

/** Whether an application's funds are held now (until the draw); afterwards they were paid or released. */
export function isHoldingFunds(application: Pick<IpoApplicationView, 'channel' | 'status'>): boolean {
  return (
    application.channel === 'online' &&
    (application.status === 'applying' || application.status === 'waiting_allocated')
  );
}

/** An application can be withdrawn while it is still being taken and its issue is open. */
export function canCancel(application: Pick<IpoApplicationView, 'status'>, ipo?: Pick<IpoView, 'status'>): boolean {
  return application.status === 'applying' && (ipo === undefined || ipo.status === 'open');
}
