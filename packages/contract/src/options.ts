// Shapes of the options line (SPEC §3 "Option", §7 /stock/order/option/*, /stock/index/option/rule;
// PRODUCT.md "Options"; decision 0034): the chain (underlyings, expiries, strikes, the market maker's bid
// and ask with the model's Greeks), buying and closing early, the customer's positions and history, their
// statistics, the rule page and the console's desk.
// Holds: money and prices are decimal strings at this edge (the stock market's currency); Greeks are
// model figures as decimal strings; times are epoch milliseconds, expiry days local dates. Must not: price
// anything (the server's options feature does, with @bourse/market's Black–Scholes).

import { z } from 'zod';
import { pageQuery, pin, recordId, wholeNumber } from './fields.ts';

export const OPTION_RIGHTS = ['call', 'put'] as const;
export type OptionRightName = (typeof OPTION_RIGHTS)[number];
/** SPEC §4: open, then closed (by an early close or by expiry settlement: closeReason says which). */
export const OPTION_STATUSES = ['open', 'closed'] as const;
export type OptionStatus = (typeof OPTION_STATUSES)[number];
export const OPTION_CLOSE_REASONS = ['closed', 'expired'] as const;
export type OptionCloseReason = (typeof OPTION_CLOSE_REASONS)[number];

const decimal = z.string();

/** The model's sensitivities per unit of the underlying: theta per calendar day, vega per volatility point. */
export const optionGreeksView = z.object({ delta: decimal, gamma: decimal, theta: decimal, vega: decimal });
export type OptionGreeksView = z.infer<typeof optionGreeksView>;

/** One side of one strike: the series code, the market maker's bid and ask per unit, the model price and Greeks. */
export const optionQuoteView = z.object({
  series: z.string(),
  bid: decimal,
  ask: decimal,
  /** The Black–Scholes price per unit, unrounded to the minor unit's half (shown for transparency). */
  model: decimal,
  /** ask × multiplier: what one contract costs. */
  premiumPerContract: decimal,
  /** The underlying's price at expiry where a buyer at the ask neither gains nor loses. */
  breakeven: decimal,
  greeks: optionGreeksView,
});
export type OptionQuoteView = z.infer<typeof optionQuoteView>;

export const optionUnderlyingView = z.object({
  id: z.string(),
  symbol: z.string(),
  name: z.string(),
  kind: z.enum(['index', 'stock']),
  currency: z.string(),
  price: decimal,
  /** Units of the underlying one contract covers. */
  multiplier: z.number().int(),
  /** Annualised volatility the simulator uses, in percent (the model's σ). */
  volatilityPct: decimal,
  strikeStep: decimal,
  isOpen: z.boolean(),
});
export type OptionUnderlyingView = z.infer<typeof optionUnderlyingView>;

export const optionExpiryView = z.object({
  day: z.string(),
  /** The session close of that day: the option stops trading and settles against the close. */
  closesAt: z.number().int(),
  cycle: z.enum(['weekly', 'monthly']),
});
export type OptionExpiryView = z.infer<typeof optionExpiryView>;

export const optionChainQuery = z.object({
  underlying: z.string().max(40).optional(),
  expiry: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});
export type OptionChainInput = z.input<typeof optionChainQuery>;

export const optionChainView = z.object({
  underlyings: z.array(optionUnderlyingView),
  underlying: optionUnderlyingView,
  expiries: z.array(optionExpiryView),
  expiry: optionExpiryView,
  /** Time to expiry in years as the model uses it. */
  years: decimal,
  ratePct: decimal,
  rows: z.array(z.object({ strike: decimal, call: optionQuoteView, put: optionQuoteView })),
  /** When the quotes were made (they move with the underlying: refetch before ordering). */
  quotedAt: z.number().int(),
});
export type OptionChainView = z.infer<typeof optionChainView>;

/** Buys `contracts` of a series at the current ask. `maxPremium`: refuse if the total went above what was shown. */
export const applyOptionBody = z.object({
  series: z.string().min(1).max(80),
  contracts: wholeNumber(1, 1_000),
  maxPremium: z
    .string()
    .regex(/^\d{1,15}(\.\d{1,8})?$/)
    .optional(),
  password: pin().optional(),
});
export type ApplyOptionInput = z.input<typeof applyOptionBody>;

/** Closes an open position early at the current bid. `minValue`: refuse if the bid value fell below it. */
export const closeOptionBody = z.object({
  id: recordId(),
  minValue: z
    .string()
    .regex(/^\d{1,15}(\.\d{1,8})?$/)
    .optional(),
  password: pin().optional(),
});
export type CloseOptionInput = z.input<typeof closeOptionBody>;

export const optionListQuery = pageQuery.extend({ status: z.enum(OPTION_STATUSES).optional() });
export type OptionListInput = z.input<typeof optionListQuery>;

/** A position (SPEC §3's option: strike, expiry price, direction, time, buying amount, open and close price). */
export const optionPositionView = z.object({
  id: z.number().int(),
  series: z.string(),
  underlying: z.string(),
  symbol: z.string(),
  name: z.string(),
  direction: z.enum(OPTION_RIGHTS),
  strike: decimal,
  expiry: z.string(),
  expiresAt: z.number().int(),
  contracts: z.number().int(),
  multiplier: z.number().int(),
  currency: z.string(),
  /** The ask per unit paid. */
  premiumPerUnit: decimal,
  /** SPEC's buying amount: the premium paid in all (the most the buyer can lose). */
  buyingAmount: decimal,
  fee: decimal,
  /** The underlying's price when bought. */
  openPrice: decimal,
  /** The bid per unit received on an early close, or the intrinsic value per unit at expiry; null while open. */
  closePrice: decimal.nullable(),
  /** The underlying's closing price on the expiry day; null until settled (or when closed early). */
  expiryPrice: decimal.nullable(),
  /** What was paid back in all (close or settlement); null while open. */
  proceeds: decimal.nullable(),
  status: z.enum(OPTION_STATUSES),
  closeReason: z.enum(OPTION_CLOSE_REASONS).nullable(),
  time: z.number().int(),
  closedAt: z.number().int().nullable(),
  breakeven: decimal,
  /** Open positions: the underlying now, the bid per unit, the value at the bid, P&L and the Greeks × size. */
  current: z
    .object({
      underlyingPrice: decimal,
      bid: decimal,
      value: decimal,
      pnl: decimal,
      pnlPct: decimal,
      greeks: optionGreeksView,
    })
    .nullable(),
  /** Closed positions: proceeds − buying amount. */
  realisedPnl: decimal.nullable(),
});
export type OptionPositionView = z.infer<typeof optionPositionView>;

export const optionListView = z.object({ items: z.array(optionPositionView), total: z.number().int() });
export type OptionListView = z.infer<typeof optionListView>;

export const optionResult = z.object({ option: optionPositionView });
export type OptionResult = z.infer<typeof optionResult>;

export const optionStatisticsView = z.object({
  currency: z.string(),
  openCount: z.number().int(),
  closedCount: z.number().int(),
  /** Premium paid for the open positions. */
  openPremium: decimal,
  /** The open positions at the bid. */
  openValue: decimal,
  unrealisedPnl: decimal,
  realisedPnl: decimal,
});
export type OptionStatisticsView = z.infer<typeof optionStatisticsView>;

/** The rule page's figures (its texts are the app's). */
export const optionRuleView = z.object({
  currency: z.string(),
  minPurchaseAmount: decimal,
  /** The market maker's spread around the model, in percent of the model price (bid and ask each half). */
  spreadPct: decimal,
  ratePct: decimal,
  feePerOrder: decimal,
  vipOnly: z.boolean(),
  marketMaker: z.string(),
  underlyings: z.array(optionUnderlyingView),
  weeklyExpiries: z.number().int(),
  monthlyExpiries: z.number().int(),
  strikesEachSide: z.number().int(),
});
export type OptionRuleView = z.infer<typeof optionRuleView>;

// --- the console's desk -----------------------------------------------------------------------------------

export const staffOptionsDeskView = z.object({
  currency: z.string(),
  marketMaker: z.object({
    account: z.string(),
    /** The market maker's balance: premiums in minus payouts out (negative: it has paid out more). */
    balance: decimal,
    /** Open positions valued at the model (what it would owe if all closed now at the model). */
    openLiability: decimal,
    /** Open positions' intrinsic value now (what it would owe if all expired now). */
    intrinsicLiability: decimal,
    openContracts: z.number().int(),
  }),
  underlyings: z.array(
    optionUnderlyingView.extend({
      openPositions: z.number().int(),
      openContracts: z.number().int(),
      expiries: z.array(optionExpiryView),
    }),
  ),
  open: z.array(
    z.object({
      id: z.number().int(),
      userId: z.number().int(),
      series: z.string(),
      contracts: z.number().int(),
      buyingAmount: decimal,
      value: decimal,
      expiresAt: z.number().int(),
    }),
  ),
  settlements: z.array(
    z.object({
      underlying: z.string(),
      expiry: z.string(),
      expiryPrice: decimal.nullable(),
      positions: z.number().int(),
      paid: decimal,
      settledAt: z.number().int().nullable(),
      due: z.boolean(),
    }),
  ),
});
export type StaffOptionsDeskView = z.infer<typeof staffOptionsDeskView>;
