// Shapes of the robots line (SPEC "MF" tab, /stock/ai/*; PRODUCT.md "Robots"): rule-based strategies a
// customer runs on a sub-account with their own money, trading as ordinary orders: a crypto pair on the
// spot books (USDT from the spot wallet) or a stock on the paper venue (INR, USD or BRL from the stock
// wallet; sessions, band and settlement locks apply).
// The list answers products of a `kind` ('robot' now; AI funds will join as another kind). Holds:
// amounts as decimal strings in the instrument's quote currency, rates as percent strings, times epoch milliseconds. Must not:
// carry a promised figure: a past daily rate is always a measured one with its period and its source
// (a back-test over the simulator's past prices, or finished runs).

import { z } from 'zod';
import { formBoolean, isPlainText, pageQuery, pin, recordId, text, wholeNumber } from './fields.ts';
import { fundListItem } from './funds.ts';
import { actionReason } from './staff.ts';

export const ROBOT_STRATEGIES = ['grid', 'dca', 'trend'] as const;
export type RobotStrategy = (typeof ROBOT_STRATEGIES)[number];

/** What /stock/ai/list lists: robots now; AI funds later (decision 0035). */
export const AI_PRODUCT_KINDS = ['robot'] as const;
export type AiProductKind = (typeof AI_PRODUCT_KINDS)[number];

/** A template's life in the console (robot_template_transitions). */
export const ROBOT_TEMPLATE_STATUSES = ['pending_approval', 'approved', 'rejected', 'retired'] as const;
export type RobotTemplateStatus = (typeof ROBOT_TEMPLATE_STATUSES)[number];

/** A run's life (robot_run_transitions): starting → running → stopping → stopped (early) or finished. */
export const ROBOT_RUN_STATUSES = ['starting', 'running', 'stopping', 'stopped', 'finished', 'failed'] as const;
export type RobotRunStatus = (typeof ROBOT_RUN_STATUSES)[number];

/** What a robot trades: a crypto pair on the spot books, or a stock through the paper venue. */
export const ROBOT_MARKETS = ['crypto', 'stock'] as const;
export type RobotMarket = (typeof ROBOT_MARKETS)[number];

/** A stock's exchange now: open, or closed until `nextOpenMs` (crypto: always open, `session` null). */
export const robotSessionView = z.object({ open: z.boolean(), nextOpenMs: z.number().int().nullable() });
export type RobotSessionView = z.infer<typeof robotSessionView>;

const decimalText = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'field_required' : 'field_invalid') })
    .trim()
    .min(1, { error: 'field_required' })
    .max(30, { error: 'field_invalid' })
    .regex(/^\d+(\.\d+)?$/, { error: 'field_invalid' });

/** A strategy's parameters as staff type them (prices and amounts in USDT). */
export const robotParams = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('grid'),
      lowPrice: decimalText(),
      highPrice: decimalText(),
      levels: wholeNumber(2, 50),
    }),
    z.object({ kind: z.literal('dca'), everyMinutes: wholeNumber(1, 10_080), buyAmount: decimalText() }),
    /** Averages of 1-minute closes. */
    z.object({ kind: z.literal('trend'), fastPeriod: wholeNumber(2, 50), slowPeriod: wholeNumber(3, 200) }),
  ],
  { error: 'field_invalid' },
);
export type RobotParams = z.infer<typeof robotParams>;

/** A measured past figure, never a forecast: its source and the period it was measured over. */
export const measuredReturn = z.object({
  source: z.enum(['backtest', 'realized']),
  /** Average daily rate over the period, percent with two decimals (may be negative). */
  dailyPercent: z.string(),
  /** Over the whole period. */
  totalPercent: z.string(),
  fromMs: z.number().int(),
  toMs: z.number().int(),
});
export type MeasuredReturn = z.infer<typeof measuredReturn>;

/** One product of /stock/ai/list. */
export const aiProductItem = z.object({
  kind: z.enum(AI_PRODUCT_KINDS),
  id: z.number().int(),
  name: z.string(),
  strategy: z.enum(ROBOT_STRATEGIES),
  /** A pair ("BTCUSDT") or a stock ("NSE:RELIANCE"). */
  symbol: z.string(),
  market: z.enum(ROBOT_MARKETS),
  /** Risk tier 1 (lowest) to 5. */
  level: z.number().int(),
  /** Run length in days. */
  periodDays: z.number().int(),
  /** Start-up capital (the least a run takes) and single limit (the most one run holds), in `currency`. */
  minAmount: z.string(),
  maxAmount: z.string(),
  currency: z.string(),
  /** The performance fee: this percent of realized profit above the high-water mark. */
  profitRatio: z.string(),
  /** The back-test's measured figure (labelled), or the realized one of finished runs; null if none. */
  past: measuredReturn.nullable(),
});
export type AiProductItem = z.infer<typeof aiProductItem>;
/** Robots (kind 'robot') and AI funds (kind 'fund', contract funds.ts) in one list. */
export const aiListView = z.object({ items: z.array(z.discriminatedUnion('kind', [aiProductItem, fundListItem])) });
export type AiListView = z.infer<typeof aiListView>;

/** Which product an /stock/ai/* call is about: a robot (the default) or an AI fund. */
export const aiKind = z.enum(['robot', 'fund'], { error: 'field_invalid' }).default('robot');
export const aiInfoBody = z.object({ id: recordId(), kind: aiKind });
export type AiInfoInput = z.input<typeof aiInfoBody>;

export const robotBacktestView = z.object({
  fromMs: z.number().int(),
  toMs: z.number().int(),
  start: z.string(),
  end: z.string(),
  totalPercent: z.string(),
  dailyPercent: z.string(),
  maxDrawdownPercent: z.string(),
  trades: z.number().int(),
  fees: z.string(),
});
export type RobotBacktestView = z.infer<typeof robotBacktestView>;

export const robotRealizedView = z.object({
  runs: z.number().int(),
  /** Net of every fee, across finished runs: capital in and money returned. */
  capital: z.string(),
  returned: z.string(),
  totalPercent: z.string(),
});
export type RobotRealizedView = z.infer<typeof robotRealizedView>;

/** One robot for its detail page: the terms, the back-test and any realized history. */
export const aiInfoView = aiProductItem.extend({
  params: robotParams,
  /** The pair's maker and taker fees (paid on each fill, like anyone's). */
  makerFeeBps: z.number().int(),
  takerFeeBps: z.number().int(),
  backtest: robotBacktestView.nullable(),
  realized: robotRealizedView.nullable(),
  /** The customer's available money to start with (spot USDT, or the stock wallet's currency); null signed out. */
  available: z.string().nullable(),
  session: robotSessionView.nullable(),
});
export type AiInfoView = z.infer<typeof aiInfoView>;

/**
 * `clientOrderId` (or the Idempotency-Key header, the same value when both are sent): a retry with it
 * answers the first request's result and moves nothing more; the same key for another amount is refused.
 */
export const aiBuyBody = z.object({
  id: recordId(),
  amount: decimalText(),
  password: pin(),
  clientOrderId: z.string().trim().min(8).max(64).refine(isPlainText, { error: 'field_invalid' }).optional(),
  kind: aiKind,
});
export type AiBuyInput = z.input<typeof aiBuyBody>;
export const aiAddAmountBody = aiBuyBody;
export type AiAddAmountInput = z.input<typeof aiAddAmountBody>;
export const aiStopBody = z.object({ id: recordId(), password: pin() });
export type AiStopInput = z.input<typeof aiStopBody>;

export const robotRunView = z.object({
  id: z.number().int(),
  templateId: z.number().int(),
  name: z.string(),
  strategy: z.enum(ROBOT_STRATEGIES),
  symbol: z.string(),
  market: z.enum(ROBOT_MARKETS),
  base: z.string(),
  currency: z.string(),
  status: z.enum(ROBOT_RUN_STATUSES),
  level: z.number().int(),
  periodDays: z.number().int(),
  profitRatio: z.string(),
  maxAmount: z.string(),
  /** Capital put in (start plus additions): also the high-water mark the fee is measured from. */
  capital: z.string(),
  /** USDT plus the coin at the last price, now (or at the end). */
  currentValue: z.string(),
  /** Sells against the average cost, net of fees; the coin held against its cost. */
  realizedPnl: z.string(),
  unrealizedPnl: z.string(),
  fees: z.string(),
  /** Charged at the end; while running, what it would be if stopped now. */
  performanceFee: z.string(),
  /** What came back to the spot wallet at the end (null while running). */
  returned: z.string().nullable(),
  quoteBalance: z.string(),
  baseQuantity: z.string(),
  /** Shares bought less than a settlement cycle ago: not sellable until `unlocksAt` (crypto: "0"). */
  lockedQuantity: z.string(),
  unlocksAt: z.number().int().nullable(),
  /** What came back as coin or shares at the end, not sold (null until the run has ended). */
  returnedQuantity: z.string().nullable(),
  /** A stock's exchange now (idle while closed); null for crypto and for an ended run. */
  session: robotSessionView.nullable(),
  trades: z.number().int(),
  startedAt: z.number().int(),
  endsAt: z.number().int(),
  endedAt: z.number().int().nullable(),
  /** Why it ended: the customer stopped it, or its period ended. */
  endReason: z.enum(['customer', 'period_end', '']),
});
export type RobotRunView = z.infer<typeof robotRunView>;

export const aiOrderListQuery = pageQuery.extend({
  status: z.enum(['running', 'ended', 'all'], { error: 'field_invalid' }).default('all'),
  kind: aiKind,
});
export type AiOrderListInput = z.input<typeof aiOrderListQuery>;
export const aiOrderListView = z.object({ items: z.array(robotRunView), total: z.number().int() });
export type AiOrderListView = z.infer<typeof aiOrderListView>;

export const robotTradeView = z.object({
  id: z.number().int(),
  orderId: z.number().int(),
  side: z.enum(['buy', 'sell']),
  price: z.string(),
  quantity: z.string(),
  amount: z.string(),
  fee: z.string(),
  liquidity: z.enum(['maker', 'taker']),
  time: z.number().int(),
});
export type RobotTradeView = z.infer<typeof robotTradeView>;

export const robotOrderView = z.object({
  id: z.number().int(),
  side: z.enum(['buy', 'sell']),
  price: z.string(),
  quantity: z.string(),
  filledQuantity: z.string(),
  status: z.string(),
  createdAt: z.number().int(),
});
export type RobotOrderView = z.infer<typeof robotOrderView>;

export const aiOrderDetailsBody = pageQuery.extend({ id: recordId(), kind: aiKind });
export type AiOrderDetailsInput = z.input<typeof aiOrderDetailsBody>;
export const aiOrderDetailsView = z.object({
  run: robotRunView,
  /** Every fill of the run, newest first (paged), and its open orders now. */
  trades: z.array(robotTradeView),
  totalTrades: z.number().int(),
  openOrders: z.array(robotOrderView),
});
export type AiOrderDetailsView = z.infer<typeof aiOrderDetailsView>;
export const aiRunResult = z.object({ run: robotRunView });
export type AiRunResult = z.infer<typeof aiRunResult>;

// --- the console ---

export const createRobotTemplateBody = z.object({
  name: text(80),
  symbol: text(40),
  params: robotParams,
  level: wholeNumber(1, 5),
  periodDays: wholeNumber(1, 365),
  minAmount: decimalText(),
  maxAmount: decimalText(),
  /** Percent of profit above the high-water mark, 0 to 50. */
  profitRatio: wholeNumber(0, 50),
  note: z.string().max(500).refine(isPlainText, { error: 'field_invalid' }).optional(),
  /** A change: the offered template this one replaces (retired when this one is approved). */
  replaces: recordId().optional(),
});
export type CreateRobotTemplateInput = z.input<typeof createRobotTemplateBody>;

export const reviewRobotTemplateBody = z.object({
  id: recordId(),
  approve: formBoolean(false),
  reason: actionReason(),
});
export type ReviewRobotTemplateInput = z.input<typeof reviewRobotTemplateBody>;
export const retireRobotTemplateBody = z.object({ id: recordId(), reason: actionReason() });
export type RetireRobotTemplateInput = z.input<typeof retireRobotTemplateBody>;

export const staffRobotTemplateView = aiProductItem.extend({
  params: robotParams,
  status: z.enum(ROBOT_TEMPLATE_STATUSES),
  createdBy: z.number().int(),
  approvedBy: z.number().int().nullable(),
  reviewReason: z.string(),
  note: z.string(),
  /** The template this one replaces (a change), if any. */
  replaces: z.number().int().nullable(),
  createdAt: z.number().int(),
  /** Runs started from it (all states) and running now. */
  runs: z.number().int(),
  running: z.number().int(),
});
export type StaffRobotTemplateView = z.infer<typeof staffRobotTemplateView>;
export const staffRobotTemplateListView = z.object({ items: z.array(staffRobotTemplateView) });
export type StaffRobotTemplateListView = z.infer<typeof staffRobotTemplateListView>;

export const staffRobotRunView = robotRunView.extend({ userId: z.number().int(), account: z.string() });
export type StaffRobotRunView = z.infer<typeof staffRobotRunView>;
export const staffRobotRunListQuery = pageQuery.extend({
  status: z.enum(['running', 'ended', 'all'], { error: 'field_invalid' }).default('running'),
});
export const staffRobotRunListView = z.object({ items: z.array(staffRobotRunView), total: z.number().int() });
export type StaffRobotRunListView = z.infer<typeof staffRobotRunListView>;
