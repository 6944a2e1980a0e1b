// Owns the shape of everything the engine remembers between commands, and small lookups over it.
// Must hold: every live order (resting or waiting for its trigger) is in `orders` and in exactly one
// place: its book or its trigger list. An order that finishes within its own command never enters it.
// Must not: change state; the command handlers do that.

import type { CommandMemory } from './command-memory.ts';
import type { TimeInForce, TriggerSpec } from './commands.ts';
import type { EngineEvent, OrderStatus } from './events.ts';
import type { Instrument } from './instrument.ts';
import type { Account, Hold, Ledger } from './ledger.ts';
import type { OrderBook, Side, SideCode, StpCode } from './order-book.ts';
import { ENGINE_REJECTIONS, type EngineRejection } from './rejections.ts';

export type EngineConfig = {
  /** Open orders (resting or waiting for a trigger) per user, over all instruments. */
  maxOpenOrdersPerUser: number;
  /** How many command ids are remembered for idempotency (oldest forgotten first). */
  rememberedCommandsMax: number;
  /** Waiting trigger orders per instrument. */
  maxTriggerOrdersPerInstrument: number;
};

export const DEFAULT_CONFIG: EngineConfig = {
  maxOpenOrdersPerUser: 200,
  rememberedCommandsMax: 100_000,
  maxTriggerOrdersPerInstrument: 100_000,
};

export type ApplyResult = { ok: true; events: EngineEvent[] } | { ok: false; code: EngineRejection };

const REJECTED = new Map<string, ApplyResult>(
  ENGINE_REJECTIONS.map((code) => [code, Object.freeze({ ok: false as const, code })]),
);

/** The result for a rejection: one frozen object per code, so refusing allocates nothing. */
export function rejected(code: EngineRejection): ApplyResult {
  return REJECTED.get(code) as ApplyResult;
}

export type UserState = {
  readonly index: number;
  readonly id: string;
  openOrders: number;
  /** [base, quote] settlement accounts per instrument index, opened on first order. */
  readonly accountsByInstrument: ([Account, Account] | undefined)[];
  /** Unsettled buys per instrument index, oldest (lowest trade id) first. */
  readonly locksByInstrument: (SettlementLock[] | undefined)[];
};

/** Base quantity bought in one trade, held on the buyer's base account until `settle_trades`. */
export type SettlementLock = {
  readonly tradeId: number;
  readonly user: UserState;
  readonly qtyLots: number;
  readonly timeMs: number;
  readonly hold: Hold;
};

/** Trigger orders waiting per price source, sorted so the next to fire is first. */
export type TriggerLists = {
  /** Fire when the price rises to or above the trigger: ascending. */
  risesLast: OrderRecord[];
  /** Fire when the price falls to or below the trigger: descending. */
  fallsLast: OrderRecord[];
  risesMark: OrderRecord[];
  fallsMark: OrderRecord[];
};

export type InstrumentState = {
  readonly index: number;
  readonly def: Instrument;
  readonly book: OrderBook;
  readonly feeAccount: Account;
  referenceTicks: number | null;
  bandLoTicks: number | null;
  bandHiTicks: number | null;
  markTicks: number | null;
  lastTradeTicks: number | null;
  readonly triggers: TriggerLists;
  triggerCount: number;
  /** Continuous trading is halted (session closed): orders queue instead of matching. */
  halted: boolean;
  /** Orders placed while halted, in arrival order, waiting for trading to resume. */
  readonly queued: OrderRecord[];
  /** Unsettled buys of every user, in trade id order; entries before settledHead are released. */
  readonly settlementLocks: SettlementLock[];
  settledHead: number;
};

export type OrderRecord = {
  readonly id: number;
  readonly commandId: string;
  readonly user: UserState;
  readonly instrument: InstrumentState;
  readonly side: Side;
  readonly sideCode: SideCode;
  readonly orderType: 'limit' | 'market';
  readonly timeInForce: TimeInForce;
  readonly postOnly: boolean;
  readonly stp: StpCode;
  readonly trigger: TriggerSpec | null;
  /** Limit price, or the protection price of a market order. */
  priceTicks: number;
  qtyLots: number;
  filledLots: number;
  status: OrderStatus;
  readonly hold: Hold;
  readonly baseAccount: Account;
  readonly quoteAccount: Account;
  readonly createdMs: number;
};

export type EngineState = {
  readonly config: EngineConfig;
  readonly ledger: Ledger;
  readonly instruments: Map<string, InstrumentState>;
  readonly instrumentList: InstrumentState[];
  readonly users: Map<string, UserState>;
  readonly userList: UserState[];
  readonly orders: Map<number, OrderRecord>;
  nextOrderId: number;
  nextTradeId: number;
  /** The idempotency window: the last rememberedCommandsMax command ids, commands and results. */
  readonly memory: CommandMemory;
};

export function isValidUserId(id: unknown): id is string {
  return typeof id === 'string' && id.length > 0 && id.length <= 64 && !id.includes('/') && !id.startsWith('platform:');
}

export function userOf(state: EngineState, id: string): UserState {
  let user = state.users.get(id);
  if (user === undefined) {
    user = { index: state.userList.length, id, openOrders: 0, accountsByInstrument: [], locksByInstrument: [] };
    state.users.set(id, user);
    state.userList.push(user);
  }
  return user;
}

export function settlementAccounts(
  state: EngineState,
  user: UserState,
  instrument: InstrumentState,
): [Account, Account] {
  let pair = user.accountsByInstrument[instrument.index];
  if (pair === undefined) {
    const { base, quote } = instrument.def;
    const wallet = instrument.def.spec.wallet;
    pair = [state.ledger.account(user.id, wallet, base), state.ledger.account(user.id, wallet, quote)];
    user.accountsByInstrument[instrument.index] = pair;
  }
  return pair;
}

export function remainingLots(order: OrderRecord): number {
  return order.qtyLots - order.filledLots;
}
