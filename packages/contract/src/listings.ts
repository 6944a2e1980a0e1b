// The console's listings desk (GET /admin/listings, listings.manage): every instrument in the catalogue,
// where it came from (the built-in catalogue, or a runtime listing: an IPO's listing day, a coin offering's
// close) and its trading state now. Read only: nothing here lists, halts or prices an instrument.
import { z } from 'zod';

export const LISTING_KINDS = ['stock', 'index', 'crypto', 'fx'] as const;

export const staffListingView = z.object({
  id: z.string(),
  symbol: z.string(),
  name: z.string(),
  kind: z.enum(LISTING_KINDS),
  exchange: z.string(),
  currency: z.string(),
  /** False when trading is suspended (the instrument stays in the catalogue but gets no prices). */
  listed: z.boolean(),
  /** In session now (crypto: always). */
  isOpen: z.boolean(),
  /** Last price from the market data (decimal string), and its change against the previous close. */
  price: z.string(),
  changePct: z.string(),
  tickSize: z.string(),
  lot: z.number().int(),
  /** The static daily band in percent (NSE/BSE stocks), else null. */
  bandPct: z.number().int().nullable(),
  /** 'catalogue', or what listed it at run time (e.g. "ipo:7", "coin-offering:3"). */
  source: z.string(),
  /** Epoch ms of a runtime listing; null for the built-in catalogue. */
  listedAt: z.number().int().nullable(),
});
export type StaffListingView = z.infer<typeof staffListingView>;

export const staffListingsView = z.object({
  items: z.array(staffListingView),
  /** How many instruments of each kind, and how many were listed at run time. */
  counts: z.object({
    stock: z.number().int(),
    index: z.number().int(),
    crypto: z.number().int(),
    fx: z.number().int(),
    runtime: z.number().int(),
  }),
});
export type StaffListingsView = z.infer<typeof staffListingsView>;
