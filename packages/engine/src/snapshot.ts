// Owns the snapshot: the whole engine state as JSON-safe data (bigints as decimal strings), and back.
// Must hold: restore(snapshot(s)) behaves exactly like s for every later command, and snapshotting it
// again gives the same JSON: lists come in a canonical order (account index, book priority, trigger order).
// Must not: include derived caches (they are rebuilt on restore).

import { customAsset } from '@bourse/money';
import { CommandMemory } from './command-memory.ts';
import type { TimeInForce, TriggerSpec } from './commands.ts';
import {
  type ApplyResult,
  type EngineConfig,
  type EngineState,
  findUser,
  listOrder,
  newOrderRecord,
  type OrderRecord,
  restInSlot,
  settlementAccounts,
  type TriggerLists,
  UserNumbers,
  userOf,
} from './engine-state.ts';
import type { OrderStatus } from './events.ts';
import type { InstrumentSpec } from './instrument.ts';
import { fromJsonSafe, type JsonValue, toJsonSafe } from './json-codec.ts';
import { type Account, Hold, Ledger, type TransferCause, type TransferPosted, type Wallet } from './ledger.ts';
import { BUY, SELL, type StpCode } from './order-book.ts';
import { OrderMap } from './order-map.ts';
import { addInstrument } from './reference-data.ts';
import { addLock, liveLocks, settlementHoldId } from './settlement-locks.ts';

export const SNAPSHOT_VERSION = 1;

export type Where = 'book' | 'queued' | keyof TriggerLists;

export type OrderSnapshot = {
  id: number;
  commandId: string;
  userId: string;
  instrumentId: string;
  side: 'buy' | 'sell';
  orderType: 'limit' | 'market';
  timeInForce: TimeInForce;
  postOnly: boolean;
  stp: StpCode;
  trigger: TriggerSpec | null;
  priceTicks: number;
  qtyLots: number;
  filledLots: number;
  status: OrderStatus;
  holdRemaining: string;
  createdMs: number;
  where: Where;
  /**
   * The fees the order captured when placed, present only where they differ from the instrument's
   * current spec (after a set_instrument_fees), so states without fee changes keep their hashes.
   * Restore takes the spec's fee for an absent one.
   */
  makerFeeBps?: number;
  takerFeeBps?: number;
};

export type EngineSnapshot = {
  version: number;
  config: EngineConfig;
  nextOrderId: number;
  nextTradeId: number;
  /** [owner, wallet, asset, scale, balance, held] in account-index order. */
  accounts: [string, Wallet, string, number, string, string][];
  /** Funds holds: [id, account index, remaining, cause, link]. */
  holds: [string, number, string, TransferCause, string][];
  /** Idempotency ids: [id, fingerprint, posted transfer or null]. */
  usedIds: [string, string, JsonValue][];
  instruments: {
    spec: InstrumentSpec;
    referenceTicks: number | null;
    bandLoTicks: number | null;
    bandHiTicks: number | null;
    markTicks: number | null;
    lastTradeTicks: number | null;
    /** Present (true) only while trading is halted, so older states keep their hashes. */
    halted?: true;
  }[];
  users: [string, number][];
  orders: OrderSnapshot[];
  /**
   * Unsettled buys: [instrument id, trade id, user id, lots, time] by instrument, then trade id.
   * Absent when there are none, so states without locks keep the hash they had before locks existed.
   */
  settlementLocks?: [string, number, string, number, number][];
  /** [command id, command, result]: the idempotency window, oldest first. */
  remembered: [string, JsonValue, JsonValue][];
};

export function takeSnapshot(state: EngineState): EngineSnapshot {
  const snapshot = snapshotWithoutWindow(state) as EngineSnapshot;
  const remembered: EngineSnapshot['remembered'] = [];
  state.memory.forEach((id, command, result) => {
    remembered.push([id, toJsonSafe(command), toJsonSafe(result)]);
  });
  // Added last, so it is the snapshot's last key (state-hash.ts relies on that).
  snapshot.remembered = remembered;
  return snapshot;
}

/**
 * The snapshot without its idempotency window (`remembered`), every other key in the same order. For
 * the state hash (`forHash`), `orders` is left empty (the hash reads them from the state, see
 * forEachLiveOrder) and the used ids' transfers are not made JSON-safe (the hash encodes a bigint as its
 * JSON-safe form).
 */
export function snapshotWithoutWindow(state: EngineState, forHash = false): Omit<EngineSnapshot, 'remembered'> {
  const ledger = state.ledger;
  const orders: OrderSnapshot[] = [];
  if (!forHash) forEachLiveOrder(state, (order, where) => orders.push(orderSnapshot(order, where)));
  const holds: EngineSnapshot['holds'] = [];
  for (const hold of ledger.holds.values()) {
    if (hold.kind === 'funds')
      holds.push([hold.id, hold.account.index, hold.remaining.toString(), hold.cause, hold.link]);
  }
  const locks: NonNullable<EngineSnapshot['settlementLocks']> = [];
  for (const instrument of state.instrumentList) {
    for (const lock of liveLocks(instrument)) {
      locks.push([instrument.def.id, lock.tradeId, lock.user.id, lock.qtyLots, lock.timeMs]);
    }
  }
  return {
    version: SNAPSHOT_VERSION,
    config: { ...state.config },
    nextOrderId: state.nextOrderId,
    nextTradeId: state.nextTradeId,
    accounts: ledger.accounts.map((a) => [
      a.owner,
      a.wallet,
      a.asset.code,
      a.asset.scale,
      a.balance.toString(),
      a.held.toString(),
    ]),
    holds,
    usedIds: [...ledger.usedIds].map(([id, used]) => [
      id,
      used.fingerprint,
      forHash ? (used.posted as unknown as JsonValue) : toJsonSafe(used.posted),
    ]),
    instruments: state.instrumentList.map((i) => ({
      spec: i.def.spec,
      referenceTicks: i.referenceTicks,
      bandLoTicks: i.bandLoTicks,
      bandHiTicks: i.bandHiTicks,
      markTicks: i.markTicks,
      lastTradeTicks: i.lastTradeTicks,
      ...(i.halted ? { halted: true as const } : {}),
    })),
    users: state.userList.map((u) => [u.id, u.openOrders]),
    orders,
    ...(locks.length > 0 ? { settlementLocks: locks } : {}),
  };
}

/** Live orders in the snapshot's order: per instrument, the book by priority, each trigger list, the queue. */
export function forEachLiveOrder(state: EngineState, visit: (order: OrderRecord, where: Where) => void): void {
  for (const instrument of state.instrumentList) {
    instrument.book.forEachOrder((id) => visit(state.orders.get(id) as OrderRecord, 'book'));
    for (const where of ['risesLast', 'fallsLast', 'risesMark', 'fallsMark'] as const) {
      for (const order of instrument.triggers[where]) visit(order, where);
    }
    for (const order of instrument.queued) visit(order, 'queued');
  }
}

/** How many orders forEachLiveOrder visits. */
export function countLiveOrders(state: EngineState): number {
  let count = 0;
  for (const instrument of state.instrumentList) {
    const { triggers } = instrument;
    count += instrument.book.restingCount + instrument.queued.length;
    count +=
      triggers.risesLast.length + triggers.fallsLast.length + triggers.risesMark.length + triggers.fallsMark.length;
  }
  return count;
}

function orderSnapshot(order: OrderRecord, where: Where): OrderSnapshot {
  const spec = order.instrument.def.spec;
  const saved: OrderSnapshot = {
    id: order.id,
    commandId: order.commandId,
    userId: order.user.id,
    instrumentId: order.instrument.def.id,
    side: order.side,
    orderType: order.orderType,
    timeInForce: order.timeInForce,
    postOnly: order.postOnly,
    stp: order.stp,
    trigger: order.trigger,
    priceTicks: order.priceTicks,
    qtyLots: order.qtyLots,
    filledLots: order.filledLots,
    status: order.status,
    holdRemaining: order.hold.remaining.toString(),
    createdMs: order.createdMs,
    where,
  };
  if (order.makerFeeBps !== spec.makerFeeBps) saved.makerFeeBps = order.makerFeeBps;
  if (order.takerFeeBps !== spec.takerFeeBps) saved.takerFeeBps = order.takerFeeBps;
  return saved;
}

export function restoreState(snapshot: EngineSnapshot): EngineState {
  if (snapshot.version !== SNAPSHOT_VERSION) throw new Error(`unsupported snapshot version ${snapshot.version}`);
  const ledger = new Ledger();
  const state: EngineState = {
    config: { ...snapshot.config },
    ledger,
    instruments: new Map(),
    instrumentList: [],
    userIndexes: new Map(),
    userList: [],
    userNumbers: new UserNumbers(),
    orders: new OrderMap(),
    nextOrderId: snapshot.nextOrderId,
    nextTradeId: snapshot.nextTradeId,
    memory: new CommandMemory(snapshot.config.rememberedCommandsMax),
    finishedOrders: [],
    orderPool: [],
    quiet: false,
  };
  for (const [owner, wallet, asset, scale, balance, held] of snapshot.accounts) {
    ledger.restoreAccount(owner, wallet, customAsset(asset, scale), BigInt(balance), BigInt(held));
  }
  for (const [id, accountIndex, remaining, cause, link] of snapshot.holds) {
    ledger.restoreHold(new Hold(id, 'funds', ledger.accounts[accountIndex] as Account, BigInt(remaining), cause, link));
  }
  for (const [id, fingerprint, posted] of snapshot.usedIds) {
    ledger.recordUsedId(id, fingerprint, fromJsonSafe(posted) as TransferPosted | null);
  }
  for (const saved of snapshot.instruments) {
    const instrument = addInstrument(state, saved.spec);
    if (instrument === undefined) throw new Error(`snapshot instrument ${saved.spec.id} is invalid`);
    instrument.referenceTicks = saved.referenceTicks;
    instrument.bandLoTicks = saved.bandLoTicks;
    instrument.bandHiTicks = saved.bandHiTicks;
    instrument.markTicks = saved.markTicks;
    instrument.lastTradeTicks = saved.lastTradeTicks;
    instrument.halted = saved.halted === true;
  }
  for (const [id, openOrders] of snapshot.users) userOf(state, id).openOrders = openOrders;
  for (const saved of snapshot.orders) restoreOrder(state, saved);
  for (const [instrumentId, tradeId, userId, qtyLots, timeMs] of snapshot.settlementLocks ?? []) {
    const instrument = state.instruments.get(instrumentId);
    const user = findUser(state, userId);
    if (instrument === undefined || user === undefined) throw new Error(`snapshot lock ${tradeId} is orphaned`);
    const [baseAccount] = settlementAccounts(state, user, instrument);
    const hold = new Hold(
      settlementHoldId(instrumentId, tradeId),
      'settlement',
      baseAccount,
      BigInt(qtyLots) * instrument.def.lotMinor,
      'trade',
      `trade:${tradeId}`,
    );
    state.ledger.restoreHold(hold);
    addLock(instrument, { tradeId, user, qtyLots, timeMs, hold });
  }
  for (const [id, command, result] of snapshot.remembered) {
    state.memory.add(id, fromJsonSafe(command), fromJsonSafe(result) as ApplyResult);
  }
  return state;
}

function restoreOrder(state: EngineState, saved: OrderSnapshot): void {
  const instrument = state.instruments.get(saved.instrumentId);
  const user = findUser(state, saved.userId);
  if (instrument === undefined || user === undefined) throw new Error(`snapshot order ${saved.id} is orphaned`);
  const [baseAccount, quoteAccount] = settlementAccounts(state, user, instrument);
  const hold = new Hold(
    '',
    'order',
    saved.side === 'buy' ? quoteAccount : baseAccount,
    BigInt(saved.holdRemaining),
    'trade',
    '',
  );
  const order = newOrderRecord(
    state,
    saved.id,
    saved.commandId,
    user,
    user.id,
    user.index,
    instrument,
    saved.side,
    saved.side === 'buy' ? BUY : SELL,
    saved.orderType,
    saved.timeInForce,
    saved.postOnly,
    saved.stp,
    saved.trigger,
    saved.priceTicks,
    saved.qtyLots,
    saved.filledLots,
    saved.status,
    hold,
    baseAccount,
    quoteAccount,
    baseAccount.index,
    quoteAccount.index,
    saved.createdMs,
    saved.makerFeeBps ?? instrument.def.spec.makerFeeBps,
    saved.takerFeeBps ?? instrument.def.spec.takerFeeBps,
  );
  listOrder(state, order);
  if (saved.where === 'book') {
    const slot = instrument.book.rest(
      order.id,
      order.sideCode,
      order.priceTicks,
      order.qtyLots - order.filledLots,
      user.index,
    );
    restInSlot(instrument, slot, order);
  } else if (saved.where === 'queued') {
    instrument.queued.push(order);
  } else {
    instrument.triggers[saved.where].push(order);
    instrument.triggerCount += 1;
  }
}
