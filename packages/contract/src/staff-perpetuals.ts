// Shape of the staff console's perpetuals desk (issue 25 item 6): the insurance fund with its ledger lines,
// open interest per contract, and the liquidations (with their auto-deleveraging) read from the ledger.
// Holds: amounts and prices as decimal strings, times as epoch milliseconds. Read only: no call here sets
// a price or closes a position.

import { z } from 'zod';

/** One ledger line of platform:insurance_fund: positive in (a liquidation's remainder), negative out. */
export const insuranceFundLine = z.object({
  transferId: z.string(),
  at: z.number().int(),
  amount: z.string(),
  cause: z.string(),
  link: z.string(),
  /** The other account's owner (a customer, or a platform account). */
  counterparty: z.string(),
});

/** A perpetual's open interest: Σ long and Σ short size (equal in a one-way book) and notional at the mark. */
export const openInterestView = z.object({
  instrumentId: z.string(),
  base: z.string(),
  quote: z.string(),
  positions: z.number().int(),
  longSize: z.string(),
  shortSize: z.string(),
  markPrice: z.string().nullable(),
  /** Σ |size| × mark of the longs (one side; null without a mark). */
  notionalAtMark: z.string().nullable(),
});

/** One liquidation as the ledger recorded it: the customer, what the fund got (+) or paid (−), whom ADL closed. */
export const liquidationRecord = z.object({
  link: z.string(),
  at: z.number().int(),
  userId: z.string(),
  asset: z.string(),
  insuranceFund: z.string(),
  adlCounterparties: z.array(z.string()),
});

/** GET /admin/perpetuals/desk */
export const staffPerpetualsDesk = z.object({
  insuranceFund: z.object({ asset: z.string(), balance: z.string(), lines: z.array(insuranceFundLine) }),
  openInterest: z.array(openInterestView),
  liquidations: z.array(liquidationRecord),
});
export type StaffPerpetualsDesk = z.infer<typeof staffPerpetualsDesk>;
export type InsuranceFundLine = z.infer<typeof insuranceFundLine>;
export type OpenInterestView = z.infer<typeof openInterestView>;
export type LiquidationRecord = z.infer<typeof liquidationRecord>;
