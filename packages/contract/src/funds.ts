// Shapes of the AI funds line (PRODUCT.md "AI funds are model portfolios rebalanced on a schedule",
// decision 0040): a fund is a model portfolio over one market's stocks (momentum or low volatility,
// equal-weighted, whole lots), its own engine account; customers hold units priced at net asset value,
// subscribing and redeeming at the next valuation. Served in the MF tab next to robots (/stock/ai/*,
// items of kind 'fund'). Holds: amounts as decimal strings in the market's currency, units as decimal
// strings (4 decimals), times epoch milliseconds. Must not: carry any figure but the fund's realized
// valuations (no forecast, no back-test).

import { z } from 'zod';
import { formBoolean, isPlainText, pin, recordId, text, wholeNumber } from './fields.ts';
import { actionReason } from './staff.ts';

export const FUND_RULES = ['momentum', 'low_volatility'] as const;
export type FundRule = (typeof FUND_RULES)[number];
/** The markets a fund may hold (one each): their stocks and currency. */
export const FUND_MARKETS = ['NSE', 'BSE', 'NYSE', 'NASDAQ', 'B3'] as const;
export type FundMarket = (typeof FUND_MARKETS)[number];
/** Decimals of a unit (units are exact integers of 1/10 000 unit). */
export const FUND_UNIT_SCALE = 4;

/** A fund's life (fund_transitions): pending_approval → approved | rejected; approved → retired. */
export const FUND_STATUSES = ['pending_approval', 'approved', 'rejected', 'retired'] as const;
export type FundStatus = (typeof FUND_STATUSES)[number];
/** An order's life (fund_order_transitions): pending → priced (at a valuation's NAV) → done (cash moved); failed when the cash could not be held. */
export const FUND_ORDER_STATUSES = ['pending', 'priced', 'done', 'failed'] as const;
export type FundOrderStatus = (typeof FUND_ORDER_STATUSES)[number];

const decimalText = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'field_required' : 'field_invalid') })
    .trim()
    .min(1, { error: 'field_required' })
    .max(30, { error: 'field_invalid' })
    .regex(/^\d+(\.\d+)?$/, { error: 'field_invalid' });

/** The portfolio rule: the top (momentum) or bottom (low volatility) `size` stocks over `lookbackDays`. */
export const fundRuleView = z.object({
  rule: z.enum(FUND_RULES),
  market: z.enum(FUND_MARKETS),
  size: z.number().int(),
  lookbackDays: z.number().int(),
});
export type FundRuleView = z.infer<typeof fundRuleView>;

/**
 * One realized valuation: the net asset value per unit the waiting orders converted at, and the fund's
 * net assets and units after those orders.
 */
export const fundValuationView = z.object({
  day: z.string(),
  time: z.number().int(),
  nav: z.string(),
  equity: z.string(),
  units: z.string(),
});
export type FundValuationView = z.infer<typeof fundValuationView>;

/** A fund in /stock/ai/list (kind 'fund'). */
export const fundListItem = fundRuleView.extend({
  kind: z.literal('fund'),
  id: z.number().int(),
  name: z.string(),
  currency: z.string(),
  /** The least one subscription takes, in `currency`. */
  minAmount: z.string(),
  /** The last valuation (null before the first). */
  last: fundValuationView.nullable(),
  /** The first valuation's time and NAV (the realized history starts there); null before it. */
  since: fundValuationView.nullable(),
});
export type FundListItem = z.infer<typeof fundListItem>;

export const fundHoldingView = z.object({
  symbol: z.string(),
  name: z.string(),
  quantity: z.string(),
  price: z.string(),
  value: z.string(),
});
export type FundHoldingView = z.infer<typeof fundHoldingView>;

export const fundOrderView = z.object({
  id: z.number().int(),
  fundId: z.number().int(),
  name: z.string(),
  currency: z.string(),
  side: z.enum(['subscribe', 'redeem']),
  status: z.enum(FUND_ORDER_STATUSES),
  /** A subscription's cash (held until the valuation); a redemption's payment once priced. */
  amount: z.string().nullable(),
  /** Units issued (subscription, once valued) or given back (redemption). */
  units: z.string().nullable(),
  /** The NAV per unit it was converted at (null while pending). */
  nav: z.string().nullable(),
  createdAt: z.number().int(),
  valuedAt: z.number().int().nullable(),
});
export type FundOrderView = z.infer<typeof fundOrderView>;

/** One fund for its detail page: rule, holdings now, the realized NAV history, the customer's units. */
export const fundInfoView = fundListItem.extend({
  cash: z.string(),
  /** Cash plus every holding at its last price, now (not a valuation). */
  equity: z.string(),
  holdings: z.array(fundHoldingView),
  /** Past valuations, oldest first (at most 120). */
  history: z.array(fundValuationView),
  /** The next valuation: after the market's close on this day. */
  nextValuationDay: z.string(),
  /** The signed-in customer's units, their value at the last NAV, their cash available; null if signed out. */
  myUnits: z.string().nullable(),
  myValue: z.string().nullable(),
  available: z.string().nullable(),
  pending: z.array(fundOrderView),
});
export type FundInfoView = z.infer<typeof fundInfoView>;

/**
 * `clientOrderId` (or the Idempotency-Key header, the same value when both are sent): a retry answers the
 * first order and redeems nothing more; the same key for another fund, side or number of units is refused.
 */
export const fundRedeemBody = z.object({
  id: recordId(),
  units: decimalText(),
  password: pin(),
  clientOrderId: z.string().trim().min(8).max(64).refine(isPlainText, { error: 'field_invalid' }).optional(),
});
export type FundRedeemInput = z.input<typeof fundRedeemBody>;
export const fundOrderResult = z.object({ order: fundOrderView });
export type FundOrderResult = z.infer<typeof fundOrderResult>;
export const fundOrderListView = z.object({ items: z.array(fundOrderView), total: z.number().int() });
export type FundOrderListView = z.infer<typeof fundOrderListView>;
export const fundOrderDetailsView = z.object({ order: fundOrderView, valuation: fundValuationView.nullable() });
export type FundOrderDetailsView = z.infer<typeof fundOrderDetailsView>;

// --- the console ---

export const createFundBody = z.object({
  name: text(80),
  rule: z.enum(FUND_RULES, { error: 'field_invalid' }),
  market: z.enum(FUND_MARKETS, { error: 'field_invalid' }),
  size: wholeNumber(2, 10),
  lookbackDays: wholeNumber(5, 120),
  minAmount: decimalText(),
  note: z.string().max(500).refine(isPlainText, { error: 'field_invalid' }).optional(),
  /** A change of parameters: the approved fund this applies to from its next rebalance. */
  changes: recordId().optional(),
});
export type CreateFundInput = z.input<typeof createFundBody>;
export const reviewFundBody = z.object({ id: recordId(), approve: formBoolean(false), reason: actionReason() });
export type ReviewFundInput = z.input<typeof reviewFundBody>;
export const retireFundBody = z.object({ id: recordId(), reason: actionReason() });
export type RetireFundInput = z.input<typeof retireFundBody>;

export const staffFundView = fundRuleView.extend({
  id: z.number().int(),
  name: z.string(),
  currency: z.string(),
  minAmount: z.string(),
  status: z.enum(FUND_STATUSES),
  /** A parameter change waits here for approval, then applies to the fund it names. */
  changes: z.number().int().nullable(),
  note: z.string(),
  createdBy: z.number().int(),
  approvedBy: z.number().int().nullable(),
  reviewReason: z.string(),
  createdAt: z.number().int(),
  last: fundValuationView.nullable(),
  valuations: z.number().int(),
});
export type StaffFundView = z.infer<typeof staffFundView>;
export const staffFundListView = z.object({ items: z.array(staffFundView) });
export type StaffFundListView = z.infer<typeof staffFundListView>;
