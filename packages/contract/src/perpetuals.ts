// Shapes of the perpetual contracts' calls (SPEC §7: /coin/contract/order/*): USDT-margined perpetuals,
// one-way positions, isolated margin, leverage ("multiple") per customer and contract.
// Holds: prices, sizes and amounts as decimal strings (USDT at its own scale, sizes in the base coin);
// rates as decimal fractions ("0.0001" = 0.01%); times as epoch milliseconds.
// Must not: compute margins, liquidation prices or P&L (the server answers them from the engine).

import { z } from 'zod';
import { isPlainText, pageQuery, pin, recordId } from './fields.ts';
import { pairSymbol } from './spot.ts';

/** long profits when the price rises, short when it falls. One-way mode: one position per contract. */
export const POSITION_SIDES = ['long', 'short'] as const;
export type PositionSide = (typeof POSITION_SIDES)[number];

/** limit rests until filled; market walks the book within the contract's price protection. */
export const PERP_ORDER_TYPES = ['limit', 'market'] as const;
export type PerpOrderType = (typeof PERP_ORDER_TYPES)[number];

/**
 * What an order did: open (adds to or opens a position), close (reduce-only: closing one position, or a
 * TP/SL that fired), take_profit / stop_loss (fired by the mark), liquidation (the engine's own order).
 */
export const PERP_ORDER_PURPOSES = ['open', 'close', 'take_profit', 'stop_loss', 'liquidation'] as const;
export type PerpOrderPurpose = (typeof PERP_ORDER_PURPOSES)[number];

/** As spot: pending resting, partial, completed, cancelled by the customer, closed by the engine. */
export const PERP_ORDER_STATUSES = ['pending', 'partial', 'completed', 'cancelled', 'closed'] as const;
export type PerpOrderStatus = (typeof PERP_ORDER_STATUSES)[number];

const decimalText = (missing: 'quantity_required' | 'field_required' = 'field_required') =>
  z
    .string({ error: (issue) => (issue.input === undefined ? missing : 'field_invalid') })
    .trim()
    .min(1, { error: missing })
    .max(30, { error: 'field_invalid' })
    .regex(/^\d+(\.\d+)?$/, { error: 'field_invalid' });

const idempotencyKey = () => z.string().trim().min(8).max(64).refine(isPlainText, { error: 'field_invalid' });

/** A contract by its symbol: `BTCUSDT`, `BTC-USDT`, `BTCUSDT-PERP` or its catalogue id (`PERP:BTCUSDT`). */
export const contractSymbol = () => pairSymbol();

/** One maintenance tier (Binance's bracket): from `floor` notional, this MMR and max leverage. */
export const perpTierView = z.object({
  /** Notional (USDT) from which the tier applies. */
  floor: z.string(),
  /** Maintenance margin rate as a fraction ("0.004" = 0.4%). */
  maintenanceMarginRate: z.string(),
  /** Maintenance amount of the tier (USDT), DOMAIN.md's cum. */
  maintenanceAmount: z.string(),
  maxLeverage: z.number().int(),
});
export type PerpTierView = z.infer<typeof perpTierView>;

/** One contract as the Trade tab lists it. */
export const perpContractView = z.object({
  id: z.string(),
  symbol: z.string(),
  base: z.string(),
  /** The margin coin (USDT). */
  quote: z.string(),
  tickSize: z.string(),
  lotSize: z.string(),
  minQuantity: z.string(),
  /** The highest leverage of the first tier. */
  maxLeverage: z.number().int(),
  /** What this customer may choose (new accounts are capped; signed out: the contract's max). */
  allowedMaxLeverage: z.number().int(),
  defaultLeverage: z.number().int(),
  tiers: z.array(perpTierView),
  makerFeeBps: z.number().int(),
  takerFeeBps: z.number().int(),
  marketProtectionBps: z.number().int(),
  /** The simulator's index price, null before the market has a price. */
  indexPrice: z.string().nullable(),
  /** Index + bounded premium: what liquidation, TP/SL and funding use. */
  markPrice: z.string().nullable(),
  /** The rate the next funding would apply now, a signed fraction. */
  fundingRate: z.string(),
  nextFundingTime: z.number().int(),
  /** Σ long sizes (= Σ short sizes), in the base coin. */
  openInterest: z.string(),
  liquidityAccount: z.string(),
});
export type PerpContractView = z.infer<typeof perpContractView>;

/** POST /coin/contract/order/multiple: `leverage` absent reads, present sets (the contract's, this customer's). */
export const perpLeverageBody = z.object({
  symbol: contractSymbol(),
  leverage: z
    .union(
      [
        z.number().int(),
        z
          .string()
          .regex(/^[1-9]\d{0,2}$/)
          .transform(Number),
      ],
      { error: 'field_invalid' },
    )
    .pipe(z.number().int().min(1, { error: 'invalid_leverage' }).max(125, { error: 'invalid_leverage' }))
    .optional(),
});
export type PerpLeverageInput = z.input<typeof perpLeverageBody>;

export const perpLeverageView = z.object({
  symbol: z.string(),
  leverage: z.number().int(),
  /** The most this customer may choose on this contract now (tier of the position, new-account cap). */
  maxLeverage: z.number().int(),
});
export type PerpLeverageView = z.infer<typeof perpLeverageView>;

/**
 * POST /coin/contract/order/add: open or add to a position (one-way: an opposite order first reduces the
 * position). `quantity` is in the base coin; a limit needs `price`. TP/SL may be given with it: they are
 * kept for the position once it exists, on the right side of the entry (trigger_wrong_side).
 */
export const placePerpOrderBody = z.object({
  symbol: contractSymbol(),
  side: z.enum(POSITION_SIDES, { error: 'field_invalid' }),
  type: z.enum(PERP_ORDER_TYPES, { error: 'field_invalid' }).default('market'),
  price: decimalText().optional(),
  quantity: decimalText('quantity_required'),
  /** Set leverage first when given (as /multiple would). */
  leverage: perpLeverageBody.shape.leverage,
  takeProfit: decimalText().optional(),
  stopLoss: decimalText().optional(),
  /** The 6-digit transaction password, as spot orders. */
  password: pin().optional(),
  clientOrderId: idempotencyKey().optional(),
});
export type PlacePerpOrderInput = z.input<typeof placePerpOrderBody>;
export type PlacePerpOrder = z.output<typeof placePerpOrderBody>;

export const perpOrderView = z.object({
  id: z.number().int(),
  clientOrderId: z.string().nullable(),
  symbol: z.string(),
  /** buy opens/adds a long or reduces a short; sell the other way. */
  side: z.enum(['buy', 'sell']),
  /** The position side this order was for (a close of a long is a sell for "long"). */
  positionSide: z.enum(POSITION_SIDES),
  type: z.enum(PERP_ORDER_TYPES),
  purpose: z.enum(PERP_ORDER_PURPOSES),
  reduceOnly: z.boolean(),
  /** Limit price ("" for market). */
  price: z.string(),
  quantity: z.string(),
  filledQuantity: z.string(),
  avgPrice: z.string().nullable(),
  fee: z.string(),
  leverage: z.number().int(),
  status: z.enum(PERP_ORDER_STATUSES),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type PerpOrderView = z.infer<typeof perpOrderView>;

/** POST /coin/contract/order/list: order history (status open = resting). */
export const perpOrderListBody = pageQuery.extend({
  symbol: contractSymbol().optional(),
  status: z.enum(['open', 'history', 'all']).default('all'),
});
export type PerpOrderListInput = z.input<typeof perpOrderListBody>;

/** POST /coin/contract/order/query: one of the customer's orders. /close: cancel a resting one. */
export const perpOrderIdBody = z.object({ id: recordId() });
export type PerpOrderIdInput = z.input<typeof perpOrderIdBody>;

/**
 * An open position. `id` is stable for the position's life (the customer may name it in /set/profit,
 * /set/loss, /add/mgn and /liquidate); it is the customer's position on that contract.
 */
export const perpPositionView = z.object({
  id: z.string(),
  symbol: z.string(),
  side: z.enum(POSITION_SIDES),
  /** Absolute size in the base coin. */
  size: z.string(),
  entryPrice: z.string(),
  markPrice: z.string().nullable(),
  /** Isolated margin held for it (USDT). */
  margin: z.string(),
  /** Maintenance margin ÷ (margin + unrealised P&L), a fraction ("0.0123"); 100%+ is liquidation. */
  marginRatio: z.string().nullable(),
  maintenanceMargin: z.string(),
  unrealizedPnl: z.string(),
  /** unrealised P&L ÷ margin, a signed fraction. */
  roe: z.string(),
  realizedPnl: z.string(),
  /** null shows "--" (no price can liquidate it). */
  liquidationPrice: z.string().nullable(),
  bankruptcyPrice: z.string().nullable(),
  leverage: z.number().int(),
  takeProfit: z.string().nullable(),
  stopLoss: z.string().nullable(),
  notional: z.string(),
});
export type PerpPositionView = z.infer<typeof perpPositionView>;

/** What /add answers: the order, and the position after it (null when flat, or a resting limit opened none). */
export const perpOrderResult = z.object({ order: perpOrderView, position: perpPositionView.nullable() });
export type PerpOrderResult = z.infer<typeof perpOrderResult>;

/** POST /coin/contract/order/list/active: open positions (optionally one contract's). */
export const perpPositionListBody = z.object({ symbol: contractSymbol().optional() });
export type PerpPositionListInput = z.input<typeof perpPositionListBody>;

export const perpPositionListView = z.object({
  positions: z.array(perpPositionView),
  /** Contract wallet USDT: balance, available (free), Σ margins, Σ unrealised P&L. */
  balance: z.string(),
  available: z.string(),
  margin: z.string(),
  unrealizedPnl: z.string(),
});
export type PerpPositionListView = z.infer<typeof perpPositionListView>;

/**
 * POST /coin/contract/order/set/profit and /set/loss: the take-profit or stop-loss trigger (mark price)
 * of a position; `price` absent or "" clears it. A long's TP above the entry, SL below (a short the
 * other way), else trigger_wrong_side.
 */
export const perpTriggerBody = z.object({
  id: z.string().trim().min(1, { error: 'field_required' }).max(80, { error: 'field_invalid' }),
  price: z.union([z.literal(''), decimalText()]).optional(),
});
export type PerpTriggerInput = z.input<typeof perpTriggerBody>;

/** POST /coin/contract/order/add/mgn: add isolated margin to a position from the contract wallet. */
export const perpAddMarginBody = z.object({
  id: z.string().trim().min(1, { error: 'field_required' }).max(80, { error: 'field_invalid' }),
  amount: decimalText(),
  clientId: idempotencyKey().optional(),
});
export type PerpAddMarginInput = z.input<typeof perpAddMarginBody>;

/** POST /coin/contract/order/liquidate: close one position at market (the customer's own close). */
export const perpClosePositionBody = z.object({
  id: z.string().trim().min(1, { error: 'field_required' }).max(80, { error: 'field_invalid' }),
});
export type PerpClosePositionInput = z.input<typeof perpClosePositionBody>;

/** What /set/profit, /set/loss, /add/mgn answer: the position after. */
export const perpPositionResult = z.object({ position: perpPositionView });
export type PerpPositionResult = z.infer<typeof perpPositionResult>;

/** /liquidate and /liquidate/all: the reduce-only market orders sent (no_closable_orders when none). */
export const perpCloseResult = z.object({ orders: z.array(perpOrderView) });
export type PerpCloseResult = z.infer<typeof perpCloseResult>;

/** A funding payment: negative paid, positive received. */
export const perpFundingView = z.object({
  id: z.string(),
  symbol: z.string(),
  side: z.enum(POSITION_SIDES),
  size: z.string(),
  rate: z.string(),
  markPrice: z.string(),
  amount: z.string(),
  at: z.number().int(),
});
export type PerpFundingView = z.infer<typeof perpFundingView>;

/** Why a position ended other than by the customer: liquidated at the mark, or auto-deleveraged. */
export const PERP_CLOSE_REASONS = ['liquidation', 'auto_deleverage'] as const;
export type PerpCloseReason = (typeof PERP_CLOSE_REASONS)[number];

/** A liquidation or ADL as the customer (and the console) sees it. */
export const perpLiquidationView = z.object({
  id: z.string(),
  symbol: z.string(),
  reason: z.enum(PERP_CLOSE_REASONS),
  side: z.enum(POSITION_SIDES),
  size: z.string(),
  markPrice: z.string(),
  /** The price the position was taken over at. */
  bankruptcyPrice: z.string(),
  /** Margin lost (liquidation), or P&L realised (ADL). */
  amount: z.string(),
  /** Liquidation: paid into (+) or out of (−) the insurance fund. ADL: "0". */
  insuranceFund: z.string(),
  at: z.number().int(),
});
export type PerpLiquidationView = z.infer<typeof perpLiquidationView>;

/** Why a closed position ended: the customer's (or a TP/SL's) close, a liquidation, or auto-deleveraging. */
export const PERP_POSITION_ENDS = ['closed', 'liquidated', 'adl'] as const;
export type PerpPositionEnd = (typeof PERP_POSITION_ENDS)[number];

/** A closed position, for the history tab: its life from the first fill that opened it to the one that closed it. */
export const perpClosedPositionView = z.object({
  id: z.string(),
  symbol: z.string(),
  side: z.enum(POSITION_SIDES),
  /** The largest size it reached. */
  size: z.string(),
  /** Average price of what opened it, and of what closed it (to the tick). */
  entryPrice: z.string(),
  exitPrice: z.string(),
  realizedPnl: z.string(),
  /** Trading fees paid on the fills that changed it (a positive amount paid). */
  fees: z.string(),
  /** Funding received (+) or paid (−) while it was open. */
  funding: z.string(),
  /** Realised P&L − fees + funding. */
  netPnl: z.string(),
  openedAt: z.number().int(),
  closedAt: z.number().int(),
  reason: z.enum(PERP_POSITION_ENDS),
});
export type PerpClosedPositionView = z.infer<typeof perpClosedPositionView>;

/**
 * POST /coin/contract/records/funding, /liquidations and /positions: the customer's funding payments,
 * liquidations and ADL (each with its reason), and closed positions, newest first.
 */
export const perpRecordListBody = pageQuery.extend({ symbol: contractSymbol().optional() });
export type PerpRecordListInput = z.input<typeof perpRecordListBody>;

/** For the staff console (read only): open interest per contract and the insurance fund. */
export const perpDeskView = z.object({
  insuranceFund: z.string(),
  contracts: z.array(
    z.object({
      symbol: z.string(),
      openInterest: z.string(),
      longs: z.number().int(),
      shorts: z.number().int(),
      markPrice: z.string().nullable(),
    }),
  ),
});
export type PerpDeskView = z.infer<typeof perpDeskView>;
