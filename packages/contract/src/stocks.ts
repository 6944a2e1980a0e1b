// Shapes of the stock-trading calls (SPEC §7: /stock/order/*, /stock/hold/*, /stock/collect/*,
// /user/assets, /user/tx/record). Money and quantities are decimal strings at this edge.

import { z } from 'zod';
import { isPlainText, pageQuery, pin, recordId, text } from './fields.ts';

export const STOCK_ORDER_STATUSES = [
  'pending',
  'partial',
  'completed',
  'cancelled',
  'closed',
  'system_closed',
] as const;

export const placeStockOrderBody = z.object({
  symbol: text(40),
  orderType: z.enum(['market', 'limit'], { error: 'field_invalid' }).default('market'),
  /** A limit order's price. A market order takes none: the server refuses one (field_invalid). */
  price: z.string().trim().max(24).optional(),
  quantity: z
    .string({ error: (issue) => (issue.input === undefined ? 'quantity_required' : 'field_invalid') })
    .trim()
    .min(1, { error: 'quantity_required' })
    .max(24, { error: 'field_invalid' }),
  /**
   * The 6-digit transaction password. Optional here so that a customer without one is told to set it
   * (trade_password_not_set) rather than to enter it; anything sent must be six digits (pin_format).
   */
  password: pin().optional(),
  /** Idempotency key chosen by the client: a retry with the same key and body answers the first result. */
  clientOrderId: z.string().trim().min(8).max(64).refine(isPlainText, { error: 'field_invalid' }).optional(),
});

export const previewStockOrderBody = placeStockOrderBody
  .omit({ password: true, clientOrderId: true })
  .extend({ side: z.enum(['buy', 'sell'], { error: 'field_invalid' }) });

export const stockOrderView = z.object({
  id: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  side: z.enum(['buy', 'sell']),
  orderType: z.enum(['market', 'limit']),
  price: z.string(),
  quantity: z.string(),
  filledQuantity: z.string(),
  avgFillPrice: z.string().nullable(),
  amount: z.string(),
  fee: z.string(),
  currency: z.string(),
  status: z.enum(STOCK_ORDER_STATUSES),
  afterMarket: z.boolean(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type StockOrderView = z.infer<typeof stockOrderView>;

/** What placing or cancelling an order answers: the order as it stands after. */
export const stockOrderResult = z.object({ order: stockOrderView });
export type StockOrderResult = z.infer<typeof stockOrderResult>;

export const orderPreviewView = z.object({
  symbol: z.string(),
  side: z.enum(['buy', 'sell']),
  price: z.string(),
  quantity: z.string(),
  amount: z.string(),
  fee: z.string(),
  total: z.string(),
  currency: z.string(),
  available: z.string(),
  afterMarket: z.boolean(),
});
export type OrderPreviewView = z.infer<typeof orderPreviewView>;

export const holdingView = z.object({
  symbol: z.string(),
  name: z.string(),
  currency: z.string(),
  quantity: z.string(),
  sellable: z.string(),
  locked: z.string(),
  avgPrice: z.string(),
  lastPrice: z.string(),
  marketValue: z.string(),
  floatingPnl: z.string(),
  floatingPnlPct: z.string(),
  todayPnl: z.string(),
  realizedPnl: z.string(),
  /** When locked shares become sellable (epoch ms), or null when nothing is locked (or the stock is not listed yet). */
  unlocksAt: z.number().int().nullable(),
  /** False for shares allotted before their stock lists (an IPO before listing day): no market page yet. */
  listed: z.boolean(),
});
export type HoldingView = z.infer<typeof holdingView>;

export const orderListQuery = pageQuery.extend({ status: z.enum(['open', 'history', 'all']).default('all') });
export const orderIdQuery = z.object({ id: recordId() });

export const balanceView = z.object({
  wallet: z.string(),
  asset: z.string(),
  balance: z.string(),
  held: z.string(),
  available: z.string(),
});
export type BalanceView = z.infer<typeof balanceView>;

export const transferView = z.object({
  id: z.string(),
  at: z.number().int(),
  asset: z.string(),
  /** Signed from the user's side: positive in, negative out. */
  amount: z.string(),
  wallet: z.string(),
  cause: z.string(),
  link: z.string(),
  counterparty: z.string(),
  /** What the line's source says about it (an adjustment's written reason); absent when nothing. */
  note: z.string().optional(),
});
export type TransferView = z.infer<typeof transferView>;
export const txRecordQuery = pageQuery.extend({
  /** One wallet, or several separated by commas (`spot,contract`: the crypto records). */
  wallet: z.string().max(20).refine(isPlainText, { error: 'field_invalid' }).optional(),
  asset: z.string().max(20).refine(isPlainText, { error: 'field_invalid' }).optional(),
  /** Lines of one cause (trade, fee, deposit, convert, adjustment…). */
  cause: z
    .string()
    .regex(/^[a-z_]{1,30}$/, { error: 'field_invalid' })
    .optional(),
  /** One line by its transfer id (the record detail page); another customer's answers no line. */
  id: z.string().max(120).refine(isPlainText, { error: 'field_invalid' }).optional(),
});

export const orderStatisticsView = z.object({
  orders: z.number().int(),
  completed: z.number().int(),
  cancelled: z.number().int(),
  /** Traded value per currency, decimal strings. */
  turnover: z.record(z.string(), z.string()),
});
export type OrderStatisticsView = z.infer<typeof orderStatisticsView>;

// --- what the app sends (before the server's parsing) ---------------------------------------------

export type PlaceStockOrderInput = z.input<typeof placeStockOrderBody>;
export type PreviewStockOrderInput = z.input<typeof previewStockOrderBody>;
export type OrderListInput = z.input<typeof orderListQuery>;
export type OrderIdInput = z.input<typeof orderIdQuery>;
export type TxRecordInput = z.input<typeof txRecordQuery>;

// --- monthly statements (not in SPEC; PRODUCT.md rule 8) -------------------------------------------

export const STATEMENT_FORMATS = ['json', 'csv', 'pdf'] as const;
export const statementQuery = z.object({
  /** The calendar month in the deployment's market time zone, YYYY-MM. */
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'statement_month_invalid' }),
  format: z.enum(STATEMENT_FORMATS, { error: 'field_invalid' }).default('json'),
});
export type StatementInput = z.input<typeof statementQuery>;

export const statementAccountView = z.object({
  wallet: z.string(),
  asset: z.string(),
  opening: z.string(),
  credits: z.string(),
  debits: z.string(),
  closing: z.string(),
});
export const statementLineView = z.object({
  id: z.string(),
  at: z.number().int(),
  wallet: z.string(),
  asset: z.string(),
  /** Signed from the customer's side. */
  amount: z.string(),
  /** The account's balance after this line. */
  balance: z.string(),
  cause: z.string(),
  link: z.string(),
  /** What the line's source says about it (an adjustment's written reason), or ''. */
  note: z.string(),
});
export const statementView = z.object({
  userId: z.number().int(),
  month: z.string(),
  /** The IANA zone the month's bounds and the lines' times are in. */
  timeZone: z.string(),
  fromMs: z.number().int(),
  toMs: z.number().int(),
  virtual: z.boolean(),
  accounts: z.array(statementAccountView),
  lines: z.array(statementLineView),
});
export type StatementView = z.infer<typeof statementView>;
