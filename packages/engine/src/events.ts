// Owns the event shapes the engine emits: plain data that the host turns into read-model rows.
// Must hold: events describe what changed, in the order it changed; money is bigint minor units.
// Must not: carry references into engine state (events outlive the command that made them).

import type { AssetKind } from '@bourse/money';
import type { TimeInForce, TriggerSpec } from './commands.ts';
import type { InstrumentSpec } from './instrument.ts';
import type { TransferPosted } from './ledger.ts';
import type { Side } from './order-book.ts';

export type { TransferPosted } from './ledger.ts';

export type OrderStatus = 'pending' | 'partial' | 'filled' | 'cancelled' | 'rejected';

export type OrderUpdateReason =
  | 'fill'
  | 'cancelled_by_user'
  | 'unfilled_ioc'
  | 'market_protection'
  | 'self_trade_prevented'
  | 'fok_not_fillable'
  | 'price_outside_band'
  | 'amended'
  | 'triggered'
  | 'no_liquidity'
  /** A reduce-only order with no position left to reduce when it came to execute. */
  | 'reduce_only'
  /** Cancelled because the customer's position on the contract was liquidated. */
  | 'liquidation';

export type OrderPlaced = {
  readonly type: 'order_placed';
  readonly orderId: number;
  readonly commandId: string;
  readonly userId: string;
  readonly instrumentId: string;
  readonly side: Side;
  readonly orderType: 'limit' | 'market';
  /** Limit price, or for a market order the protection price it will not trade beyond. */
  readonly priceTicks: number;
  readonly qtyLots: number;
  readonly timeInForce: TimeInForce;
  readonly postOnly: boolean;
  readonly trigger: TriggerSpec | null;
  readonly status: 'pending';
  readonly holdAsset: string;
  readonly holdAmount: bigint;
  /** Placed while trading was halted: it waits for the session to open (absent when false). */
  readonly queued?: true;
  readonly timeMs: number;
};

export type OrderUpdated = {
  readonly type: 'order_updated';
  readonly orderId: number;
  readonly userId: string;
  readonly instrumentId: string;
  readonly status: OrderStatus;
  readonly priceTicks: number;
  readonly qtyLots: number;
  readonly filledLots: number;
  readonly remainingLots: number;
  readonly reason: OrderUpdateReason;
  readonly timeMs: number;
};

export type Trade = {
  readonly type: 'trade';
  readonly tradeId: number;
  readonly instrumentId: string;
  readonly priceTicks: number;
  readonly qtyLots: number;
  readonly takerSide: Side;
  readonly makerOrderId: number;
  readonly takerOrderId: number;
  readonly makerUserId: string;
  readonly takerUserId: string;
  /** Quote minor units paid by the buyer and received by the seller (rounded down). */
  readonly notional: bigint;
  readonly makerFee: bigint;
  readonly takerFee: bigint;
  readonly timeMs: number;
};

export type HoldPlaced = {
  readonly type: 'hold_placed';
  readonly holdId: string;
  readonly account: string;
  readonly amount: bigint;
  readonly timeMs: number;
};

export type HoldReleased = {
  readonly type: 'hold_released';
  readonly holdId: string;
  readonly account: string;
  readonly amount: bigint;
  readonly timeMs: number;
};

export type InstrumentRegistered = {
  readonly type: 'instrument_registered';
  readonly instrument: InstrumentSpec;
  readonly timeMs: number;
};

/** An asset the engine knows from now on (register_asset). */
export type AssetRegistered = {
  readonly type: 'asset_registered';
  readonly asset: string;
  readonly scale: number;
  readonly kind: AssetKind;
  readonly timeMs: number;
};

export type PriceSet = {
  readonly type: 'reference_price_set' | 'mark_price_set';
  readonly instrumentId: string;
  readonly priceTicks: number;
  readonly bandLoTicks: number | null;
  readonly bandHiTicks: number | null;
  readonly timeMs: number;
};

export type TradingStatusSet = {
  readonly type: 'trading_status_set';
  readonly instrumentId: string;
  readonly halted: boolean;
  readonly timeMs: number;
};

/** The instrument's fees for orders placed from now on (live orders keep the fees they were placed with). */
export type InstrumentFeesSet = {
  readonly type: 'instrument_fees_set';
  readonly instrumentId: string;
  readonly makerFeeBps: number;
  readonly takerFeeBps: number;
  readonly timeMs: number;
};

/** Why a perpetual position changed (position_changed). */
export type PositionChangeReason = 'trade' | 'liquidation' | 'adl' | 'margin' | 'leverage' | 'funding';

/** A perpetual position after a change; sizeLots 0 means it closed. */
export type PositionChanged = {
  readonly type: 'position_changed';
  readonly instrumentId: string;
  readonly userId: string;
  readonly sizeLots: number;
  readonly entryNotional: bigint;
  readonly margin: bigint;
  readonly realisedPnl: bigint;
  readonly leverage: number;
  readonly reason: PositionChangeReason;
  readonly timeMs: number;
};

export type LeverageSet = {
  readonly type: 'leverage_set';
  readonly instrumentId: string;
  readonly userId: string;
  readonly leverage: number;
  readonly timeMs: number;
};

/**
 * A position liquidated at the mark: `bookLots` closed in the book, `adlLots` against opposite positions
 * at the bankruptcy price; `insuranceFund` is what the fund received (positive) or paid (negative);
 * `marginLost` the position's margin when it was liquidated (the customer loses that, and no more).
 */
export type PositionLiquidated = {
  readonly type: 'position_liquidated';
  readonly instrumentId: string;
  readonly userId: string;
  readonly sizeLots: number;
  readonly marginLost: bigint;
  readonly markTicks: number;
  readonly bankruptcyTicks: number;
  readonly bookLots: number;
  readonly adlLots: number;
  readonly insuranceFund: bigint;
  readonly timeMs: number;
};

/**
 * An opposite position closed by auto-deleveraging, and why (shown to its customer): `sizeLots` its signed
 * size before, `pnl` what closing `lots` of it at `priceTicks` realised.
 */
export type AutoDeleveraged = {
  readonly type: 'auto_deleveraged';
  readonly instrumentId: string;
  readonly userId: string;
  readonly liquidatedUserId: string;
  readonly sizeLots: number;
  readonly lots: number;
  readonly priceTicks: number;
  readonly pnl: bigint;
  readonly reason: 'insurance_fund_short';
  readonly timeMs: number;
};

/** One funding interval applied: holders paid `paid` in total to the others at `markTicks`. */
export type FundingApplied = {
  readonly type: 'funding_applied';
  readonly instrumentId: string;
  readonly ratePpm: number;
  readonly markTicks: number;
  readonly paid: bigint;
  readonly timeMs: number;
};

export type EngineEvent =
  | OrderPlaced
  | OrderUpdated
  | Trade
  | TransferPosted
  | HoldPlaced
  | HoldReleased
  | AssetRegistered
  | InstrumentRegistered
  | PriceSet
  | TradingStatusSet
  | InstrumentFeesSet
  | PositionChanged
  | LeverageSet
  | PositionLiquidated
  | AutoDeleveraged
  | FundingApplied;

/** Events as JSON-safe values: bigints become decimal strings of minor units. */
export function eventToJson(event: EngineEvent): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) out[key] = typeof value === 'bigint' ? value.toString() : value;
  return out;
}
