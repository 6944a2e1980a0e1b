// Owns the command shapes the engine accepts and their JSON codec. Commands are plain JSON: integer
// ticks and lots as numbers, money as decimal strings, time as epoch milliseconds from the sequencer.
// Must hold: decodeCommand(encodeCommand(c)) deep-equals c. Must not: read a clock or make up ids.

import type { InstrumentSpec } from './instrument.ts';
import type { PlatformAccountName, TransferCause, Wallet } from './ledger.ts';
import type { Side, StpMode } from './order-book.ts';

type CommandBase = {
  /** The idempotency key: a repeated id with the same body answers the first result again. */
  id: string;
  /** The sequencer's clock, in epoch milliseconds. */
  timeMs: number;
};

export type RegisterInstrument = CommandBase & { type: 'register_instrument'; instrument: InstrumentSpec };

/** Sets the reference price and, optionally, the band outside which limit prices are refused. */
export type SetReferencePrice = CommandBase & {
  type: 'set_reference_price';
  instrumentId: string;
  priceTicks: number;
  bandLoTicks?: number;
  bandHiTicks?: number;
};

/** An outside mark/last price (index, other venue) that fires `by: 'mark'` triggers. */
export type SetMarkPrice = CommandBase & { type: 'set_mark_price'; instrumentId: string; priceTicks: number };

/**
 * Halts or resumes continuous trading (the exchange's session closed or open). While halted nothing
 * trades: orders are accepted and their funds held, but they wait in arrival order (after-market
 * orders) and enter the book, in that order, when trading resumes; post-only orders, which can never
 * trade on arrival, rest in the book at once (a market maker's opening quotes); fill-or-kill orders are
 * refused. Triggers wait too.
 */
export type SetTradingStatus = CommandBase & { type: 'set_trading_status'; instrumentId: string; halted: boolean };

/**
 * Changes an instrument's maker and taker fees (whole bps, as register_instrument allows) for orders
 * placed from now on. An order pays the fees in force when it was placed (what the customer was shown):
 * live orders keep theirs, and so do their holds.
 */
export type SetInstrumentFees = CommandBase & {
  type: 'set_instrument_fees';
  instrumentId: string;
  makerFeeBps: number;
  takerFeeBps: number;
};

/** Platform account → user: a deposit through a rail, a paper-money grant, an allotment, an adjustment… */
export type Deposit = CommandBase & {
  type: 'deposit';
  userId: string;
  wallet: Wallet;
  asset: string;
  amount: string;
  from: PlatformAccountName;
  cause: TransferCause;
  link?: string;
};

/** Between two wallets of one user, same asset. */
export type WalletTransfer = CommandBase & {
  type: 'wallet_transfer';
  userId: string;
  asset: string;
  fromWallet: Wallet;
  toWallet: Wallet;
  amount: string;
};

/** Reserves user funds as a pending transfer (a withdrawal waiting for its rail); its id is the hold id. */
export type HoldFunds = CommandBase & {
  type: 'hold_funds';
  userId: string;
  wallet: Wallet;
  asset: string;
  amount: string;
  cause: TransferCause;
  link?: string;
};

/** Posts all or part of a funds hold to a platform account; what is not posted stays held. */
export type PostHold = CommandBase & {
  type: 'post_hold';
  holdId: string;
  to: PlatformAccountName;
  amount?: string;
};

export type VoidHold = CommandBase & { type: 'void_hold'; holdId: string };

/**
 * Releases the settlement holds of every trade of the instrument with trade id <= upToTradeId (the
 * host's calendar decides when a trade has settled). Repeating it, or nothing to release, is ok.
 */
export type SettleTrades = CommandBase & { type: 'settle_trades'; instrumentId: string; upToTradeId: number };

export type TimeInForce = 'gtc' | 'ioc' | 'fok';

/** Stop fires when the price moves against the position's direction; take_profit when it moves for it. */
export type TriggerSpec = { kind: 'stop' | 'take_profit'; priceTicks: number; by: 'last' | 'mark' };

export type PlaceOrder = CommandBase & {
  type: 'place_order';
  userId: string;
  instrumentId: string;
  side: Side;
  orderType: 'limit' | 'market';
  /** Limit price; absent for market orders. */
  priceTicks?: number;
  qtyLots: number;
  /** Limit orders: gtc (default), ioc or fok. Market orders are always ioc. */
  timeInForce?: TimeInForce;
  postOnly?: boolean;
  trigger?: TriggerSpec;
  stp?: StpMode;
};

export type CancelOrder = CommandBase & { type: 'cancel_order'; userId: string; orderId: number };

/** New limit price and/or new total quantity (including what has filled). */
export type AmendOrder = CommandBase & {
  type: 'amend_order';
  userId: string;
  orderId: number;
  priceTicks?: number;
  qtyLots?: number;
};

export type Command =
  | RegisterInstrument
  | SetReferencePrice
  | SetMarkPrice
  | SetTradingStatus
  | SetInstrumentFees
  | Deposit
  | WalletTransfer
  | HoldFunds
  | PostHold
  | VoidHold
  | SettleTrades
  | PlaceOrder
  | CancelOrder
  | AmendOrder;

export type CommandType = Command['type'];

export const COMMAND_TYPES: readonly CommandType[] = [
  'register_instrument',
  'set_reference_price',
  'set_mark_price',
  'set_trading_status',
  'set_instrument_fees',
  'deposit',
  'wallet_transfer',
  'hold_funds',
  'post_hold',
  'void_hold',
  'settle_trades',
  'place_order',
  'cancel_order',
  'amend_order',
];

/** Commands are JSON already; the codec exists so the journal has one place to change. */
export function encodeCommand(command: Command): string {
  return JSON.stringify(command);
}

/** Parses a journal line. Field-level validation happens in apply(), which answers invalid_command. */
export function decodeCommand(text: string): Command {
  const value: unknown = JSON.parse(text);
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { id?: unknown }).id !== 'string' ||
    typeof (value as { timeMs?: unknown }).timeMs !== 'number' ||
    !COMMAND_TYPES.includes((value as { type?: unknown }).type as CommandType)
  ) {
    throw new Error(`not an engine command: ${text.slice(0, 200)}`);
  }
  return value as Command;
}

/** A key-order-independent serialization, to compare two commands with the same id. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return typeof value === 'bigint' ? `"${value}"` : JSON.stringify(value);
}
