// Owns the snapshot: the whole engine state as JSON-safe data (bigints as decimal strings), and back.
// Must hold: restore(snapshot(s)) behaves exactly like s for every later command, and snapshotting it
// again gives the same JSON: lists come in a canonical order (account index, book priority, trigger order).
// Must not: include derived caches (they are rebuilt on restore).
//
// One format (SNAPSHOT_VERSION; nothing is deployed, so no older one is read: issue 22). The idempotency
// window (`window`, the last key) is stored in the command memory's own form: the commands and ids as
// JSON, the results' numbers and reference indexes as base64 of little-endian typed arrays, and the
// distinct references once each (see StoredWindow in command-memory.ts). At 100,000 remembered commands
// that is ~45 MB of JSON, and nothing is decoded to write it.

import { type AssetKind, customAsset } from '@bourse/money';
import type { AssetRegistry } from './assets.ts';
import { CommandMemory, type StoredWindow } from './command-memory.ts';
import type { TimeInForce, TriggerSpec } from './commands.ts';
import {
  type EngineConfig,
  type EngineState,
  FinishedOrders,
  findUser,
  isValidUserId,
  listOrder,
  newOrderRecord,
  type OrderRecord,
  rejected,
  restInSlot,
  restingRecord,
  settlementAccounts,
  type TriggerLists,
  UserNumbers,
  userOf,
} from './engine-state.ts';
import type { OrderStatus } from './events.ts';
import { FAMILIES } from './families.ts';
import type { InstrumentSpec } from './instrument.ts';
import { fromJsonSafe, type JsonValue, toJsonSafe } from './json-codec.ts';
import { type Account, Hold, Ledger, type TransferCause, type TransferPosted, type Wallet } from './ledger.ts';
import { BUY, SELL, type StpCode } from './order-book.ts';
import { OrderMap } from './order-map.ts';
import type { PositionsSnapshot } from './positions.ts';
import { addInstrument } from './reference-data.ts';
import { isEngineRejection } from './rejections.ts';
import { MIN_RESULT_RETENTION, ResultLog } from './result-log.ts';
import { addLock, liveLocks, settlementHoldId } from './settlement-locks.ts';
import { UserIndex } from './user-index.ts';

/** The format snapshot() writes and restore() reads (3: the asset list, issue 22); any other is refused. */
export const SNAPSHOT_VERSION = 3;

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
  /** Present (true) only for an order placed while trading was halted (OrderRecord.afterMarket). */
  afterMarket?: true;
  /** Present (true) only for a reduce-only order (a perpetual's TP/SL waiting for its trigger). */
  reduceOnly?: true;
};

/** Every key of a snapshot but the window, in order. */
export type SnapshotBody = {
  version: number;
  config: EngineConfig;
  nextOrderId: number;
  nextTradeId: number;
  /** Registered assets, [code, scale, kind] in registration order (built-in ones first). */
  assets: [string, number, AssetKind][];
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
  /**
   * Perpetual positions and leverages, the `positions` family's section (positions.ts; families' sections
   * follow the keys above, in FAMILIES order); absent when there are none, as for locks.
   */
  positions?: PositionsSnapshot;
};

/** The idempotency window: a StoredWindow (command-memory.ts) made JSON-safe. */
export type WindowSnapshot = {
  /** Command ids, oldest first. */
  ids: string[];
  /** The commands, JSON-safe (bigints as {"$bigint": decimal}). */
  commands: JsonValue[];
  /** Base64 of the per-entry counts (Int32, little-endian): numbers, then references. */
  counts: string;
  /** Base64 of the results' numbers (Float64, little-endian), entry after entry. */
  nums: string;
  /** The distinct references, JSON-safe; 0 stands for undefined (a reference is never a number). */
  values: JsonValue[];
  /** Base64 of the results' references as indexes into `values` (Int32, little-endian). */
  refs: string;
};

/** A snapshot as snapshot() takes it. `window` is the last key. */
export type EngineSnapshot = SnapshotBody & { window: WindowSnapshot };

/**
 * A snapshot as the text pieces and arrays it is written from: what snapshotState() joins into the
 * snapshot's JSON (jsonOfParts) and the state hash reads (state-hash.ts). Built from the state
 * (snapshotParts) or from a snapshot (partsOfSnapshot), they are equal.
 */
export type SnapshotParts = {
  /** The JSON of the snapshot without its window. */
  body: string;
  /** The JSON of the window's ids, commands and values. */
  ids: string;
  commands: string;
  values: string;
  counts: Int32Array;
  nums: Float64Array;
  refs: Int32Array;
};

export function takeSnapshot(state: EngineState): EngineSnapshot {
  const snapshot = snapshotWithoutWindow(state) as EngineSnapshot;
  const stored = state.memory.exportWindow();
  // Added last, so it is the snapshot's last key (jsonOfParts relies on that).
  snapshot.window = {
    ids: stored.ids,
    // Parsed back from the text jsonOfParts writes, so both forms say the same.
    commands: JSON.parse(commandsJson(stored.commands)) as JsonValue[],
    counts: base64Of(stored.counts),
    nums: base64Of(stored.nums),
    values: stored.values.map(storedValue),
    refs: base64Of(stored.refs),
  };
  return snapshot;
}

/** The state's snapshot as parts (see SnapshotParts), without building the window's JSON-safe copy. */
export function snapshotParts(state: EngineState): SnapshotParts {
  const stored = state.memory.exportWindow();
  return {
    body: JSON.stringify(snapshotWithoutWindow(state)),
    ids: JSON.stringify(stored.ids),
    commands: commandsJson(stored.commands),
    values: JSON.stringify(stored.values.map(storedValue)),
    counts: stored.counts,
    nums: stored.nums,
    refs: stored.refs,
  };
}

/** A snapshot (as taken, or parsed back from its JSON) as parts (see SnapshotParts). */
export function partsOfSnapshot(snapshot: EngineSnapshot): SnapshotParts {
  const { window: stored, ...body } = snapshot;
  return {
    body: JSON.stringify(body),
    ids: JSON.stringify(stored.ids),
    commands: JSON.stringify(stored.commands),
    values: JSON.stringify(stored.values),
    counts: int32sOf(stored.counts),
    nums: float64sOf(stored.nums),
    refs: int32sOf(stored.refs),
  };
}

/** The snapshot's JSON, as JSON.stringify(takeSnapshot(state)) writes it, joined from its parts. */
export function jsonOfParts(parts: SnapshotParts): string {
  return (
    `${parts.body.slice(0, -1)},"window":{"ids":${parts.ids},"commands":${parts.commands},` +
    `"counts":"${base64Of(parts.counts)}","nums":"${base64Of(parts.nums)}","values":${parts.values},` +
    `"refs":"${base64Of(parts.refs)}"}}`
  );
}

/**
 * The commands' JSON, bigints as {"$bigint": decimal} (what toJsonSafe makes of them). Commands arrive
 * as JSON, so the plain call almost always does; the replacer (slower) is for commands with bigints.
 */
function commandsJson(commands: readonly unknown[]): string {
  try {
    return JSON.stringify(commands);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(commands, (_key, value: unknown) =>
      typeof value === 'bigint' ? { $bigint: value.toString() } : value,
    );
  }
}

/** A window reference as `values` holds it: JSON-safe, undefined as 0 (no reference is a number). */
function storedValue(value: unknown): JsonValue {
  return value === undefined ? 0 : toJsonSafe(value);
}

/** storedValue's inverse; a plain rejection becomes the engine's shared frozen one, as apply() answers. */
function restoredValue(value: JsonValue): unknown {
  if (value === 0) return undefined;
  if (typeof value !== 'object' || value === null) return value;
  const restored = fromJsonSafe(value);
  if (Array.isArray(restored)) return restored;
  const record = restored as Record<string, unknown>;
  const keys = Object.keys(record);
  if (
    keys.length === 2 &&
    keys[0] === 'ok' &&
    keys[1] === 'code' &&
    record.ok === false &&
    typeof record.code === 'string' &&
    isEngineRejection(record.code)
  ) {
    return rejected(record.code);
  }
  return restored;
}

function storedWindowOf(window: WindowSnapshot): StoredWindow {
  if (typeof window !== 'object' || window === null || !Array.isArray(window.ids) || !Array.isArray(window.commands))
    throw new Error('snapshot window is malformed');
  if (!Array.isArray(window.values)) throw new Error('snapshot window is malformed');
  return {
    ids: window.ids,
    // Kept as parsed unless a bigint is encoded in one (a copy of 100,000 commands costs ~0.1 s).
    commands: window.commands.map((command) => (hasBigintTag(command) ? fromJsonSafe(command) : command)),
    counts: int32sOf(window.counts),
    nums: float64sOf(window.nums),
    values: window.values.map(restoredValue),
    refs: int32sOf(window.refs),
  };
}

/** Whether fromJsonSafe would change `value`: it holds an object {"$bigint": string}. */
function hasBigintTag(value: JsonValue): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (hasBigintTag(item)) return true;
    return false;
  }
  let keys = 0;
  for (const key in value) {
    keys += 1;
    if (hasBigintTag(value[key] as JsonValue)) return true;
  }
  return keys === 1 && typeof value.$bigint === 'string';
}

/** Whether this platform stores typed arrays little-endian (the snapshot's byte order). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Base64 of the array's bytes in little-endian order. */
function base64Of(array: Int32Array | Float64Array): string {
  const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  if (LITTLE_ENDIAN) return bytes.toString('base64');
  const copy = Buffer.from(bytes);
  if (array instanceof Float64Array) copy.swap64();
  else copy.swap32();
  return copy.toString('base64');
}

/** The little-endian bytes of base64 `text`, copied into fresh memory (aligned for a typed array). */
function bytesOf(text: unknown, size: number): Uint8Array<ArrayBuffer> {
  if (typeof text !== 'string') throw new Error('snapshot window is malformed');
  const decoded = Buffer.from(text, 'base64');
  if (decoded.length % size !== 0) throw new Error('snapshot window is malformed');
  const bytes = new Uint8Array(decoded.length);
  bytes.set(decoded);
  if (!LITTLE_ENDIAN) {
    const view = Buffer.from(bytes.buffer, 0, bytes.length);
    if (size === 8) view.swap64();
    else view.swap32();
  }
  return bytes;
}

function int32sOf(text: unknown): Int32Array {
  return new Int32Array(bytesOf(text, 4).buffer);
}

function float64sOf(text: unknown): Float64Array {
  return new Float64Array(bytesOf(text, 8).buffer);
}

/** The snapshot without its idempotency window, every other key in the same order. */
export function snapshotWithoutWindow(state: EngineState): SnapshotBody {
  const ledger = state.ledger;
  const orders: OrderSnapshot[] = [];
  forEachLiveOrder(state, (order, where) => orders.push(orderSnapshot(order, where)));
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
  const sections: Record<string, unknown> = {};
  for (const family of FAMILIES) {
    const saved = family.section?.save(state);
    if (family.section !== undefined && saved !== undefined) sections[family.section.key] = saved;
  }
  return {
    version: SNAPSHOT_VERSION,
    config: { ...state.config },
    nextOrderId: state.nextOrderId,
    nextTradeId: state.nextTradeId,
    assets: [...state.assets.values()].map((a) => [a.code, a.scale, a.kind]),
    accounts: ledger.accounts.map((a) => [
      a.owner,
      a.wallet,
      a.asset.code,
      a.asset.scale,
      a.balance.toString(),
      a.held.toString(),
    ]),
    holds,
    usedIds: [...ledger.usedIds].map(([id, used]) => [id, used.fingerprint, postedJsonSafe(used.posted)]),
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
    ...sections,
  };
}

/**
 * toJsonSafe(posted), built as a literal for the ledger's own shape (its keys in its order): twice as
 * fast as the generic walk over 20,000 deposits' ids.
 */
function postedJsonSafe(posted: TransferPosted | null): JsonValue {
  if (
    posted === null ||
    typeof posted.amount !== 'bigint' ||
    typeof posted.timeMs !== 'number' ||
    Object.keys(posted).join(',') !== POSTED_KEYS
  )
    return toJsonSafe(posted);
  return {
    type: posted.type,
    transferId: posted.transferId,
    debit: posted.debit,
    credit: posted.credit,
    asset: posted.asset,
    amount: { $bigint: posted.amount.toString() },
    cause: posted.cause,
    link: posted.link,
    timeMs: posted.timeMs,
  };
}

/** The keys of a posted transfer as the ledger makes them, in order. */
const POSTED_KEYS = 'type,transferId,debit,credit,asset,amount,cause,link,timeMs';

/** Live orders in the snapshot's order: per instrument, the book by priority, each trigger list, the queue. */
export function forEachLiveOrder(state: EngineState, visit: (order: OrderRecord, where: Where) => void): void {
  for (const instrument of state.instrumentList) {
    // A resting order's record is the one in its book slot (no lookup by id), as matching finds makers.
    instrument.book.forEachOrder((id, _side, _tick, _qty, _owner, slot) =>
      visit(restingRecord(instrument, slot, id), 'book'),
    );
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

/** hold.remaining's decimal digits, from its number when it has one (no bigint made). */
function remainingText(hold: Hold): string {
  const n = hold.remainingNumber();
  return n !== -1 ? `${n}` : hold.remaining.toString();
}

function orderSnapshot(order: OrderRecord, where: Where): OrderSnapshot {
  const spec = order.instrument.def.spec;
  const saved: OrderSnapshot = {
    id: order.id,
    commandId: order.commandId,
    userId: order.userId,
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
    holdRemaining: remainingText(order.hold),
    createdMs: order.createdMs,
    where,
  };
  if (order.makerFeeBps !== spec.makerFeeBps) saved.makerFeeBps = order.makerFeeBps;
  if (order.takerFeeBps !== spec.takerFeeBps) saved.takerFeeBps = order.takerFeeBps;
  if (order.afterMarket) saved.afterMarket = true;
  if (order.reduceOnly) saved.reduceOnly = true;
  return saved;
}

export function restoreState(snapshot: EngineSnapshot): EngineState {
  if (snapshot.version !== SNAPSHOT_VERSION)
    throw new Error(`snapshot format ${snapshot.version} is not this engine's (${SNAPSHOT_VERSION})`);
  const ledger = new Ledger();
  const log = new ResultLog(Math.max(snapshot.config.rememberedCommandsMax, MIN_RESULT_RETENTION));
  const memory = new CommandMemory(snapshot.config.rememberedCommandsMax, log);
  const state: EngineState = {
    config: { ...snapshot.config },
    ledger,
    assets: assetsOf(snapshot.assets),
    instruments: new Map(),
    instrumentList: [],
    userIndexes: new UserIndex(),
    userList: [],
    userNumbers: new UserNumbers(),
    orders: new OrderMap(),
    nextOrderId: snapshot.nextOrderId,
    nextTradeId: snapshot.nextTradeId,
    memory,
    log,
    finishedOrders: new FinishedOrders(),
    orderPool: [],
    quiet: false,
    perpetuals: new Map(),
    liquidating: null,
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
  for (const [id, openOrders] of snapshot.users) {
    // As every command that makes a user checks (the engine skips the check for users it knows).
    if (!isValidUserId(id)) throw new Error(`snapshot user ${JSON.stringify(id)} is not a valid user id`);
    userOf(state, id).openOrders = openOrders;
  }
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
  for (const family of FAMILIES) {
    const section = family.section;
    if (section !== undefined) section.restore(state, (snapshot as Record<string, unknown>)[section.key]);
  }
  state.memory.loadWindow(storedWindowOf(snapshot.window));
  return state;
}

function assetsOf(saved: [string, number, AssetKind][]): AssetRegistry {
  return new Map(saved.map(([code, scale, kind]) => [code, { code, scale, kind }]));
}

function restoreOrder(state: EngineState, saved: OrderSnapshot): void {
  const instrument = state.instruments.get(saved.instrumentId);
  const user = findUser(state, saved.userId);
  if (instrument === undefined || user === undefined) throw new Error(`snapshot order ${saved.id} is orphaned`);
  const [baseAccount, quoteAccount] = settlementAccounts(state, user, instrument);
  const hold = new Hold(
    '',
    'order',
    // A perpetual holds its collateral on either side.
    saved.side === 'buy' || instrument.def.perpetual !== null ? quoteAccount : baseAccount,
    BigInt(saved.holdRemaining),
    'trade',
    '',
  );
  const order = newOrderRecord(
    state,
    saved.id,
    saved.commandId,
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
    baseAccount.index,
    quoteAccount.index,
    saved.createdMs,
    saved.makerFeeBps ?? instrument.def.spec.makerFeeBps,
    saved.takerFeeBps ?? instrument.def.spec.takerFeeBps,
    saved.afterMarket === true,
    saved.reduceOnly === true,
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
