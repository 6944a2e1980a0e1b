// Owns the idempotency window: the last N command ids with their command and first result.
// Must hold: an id is found exactly while it is among the last N remembered; the oldest goes first;
// iteration is oldest first (the snapshot's order); a remembered result decodes to an object deep-equal
// (same keys, same order) to the one apply() returned. Must not: keep the result's event objects.
// A snapshot stores the window in this memory's own form (exportWindow / loadWindow: the
// log's live segments, the references once each), so taking and restoring one decodes no result.
//
// Why not a Map<string, {command, result}>: at 100,000 entries, keeping every result's events (a dozen
// objects and bigints per fill) made the garbage collector copy and mark ~150 MB of live data, which
// cost more than the rest of apply(). Here the ring is one array of [id, command] by slot plus one
// Float64Array of per-slot positions, the index is an open-addressing table of [slot, hash] pairs in an
// Int32Array (backward-shift deletion, no tombstones), and a result is the segment of the engine's
// result log (result-log.ts) its command wrote: the window adds no copy of it.

import type { ApplyResult } from './engine-state.ts';
import type { EngineEvent, Trade } from './events.ts';
import {
  FILL_BUYER_FEE,
  FILL_SELLER_FEE,
  type LoggedResult,
  MIN_RESULT_RETENTION,
  ResultLog,
  transfer,
} from './result-log.ts';

export class CommandMemory {
  readonly max: number;
  /** [id, command] per slot, side by side (the snapshot lists the commands; a repeat is compared with them). */
  private readonly entries: unknown[] = [];
  /** Where the results are: the engine's result log (one of its own without an engine). */
  readonly log: ResultLog;
  /**
   * Per slot, side by side (one stream when the ring advances): the slot's segment of the log
   * (logical positions: num start, num end, ref start, ref end) and the hash of its id (so eviction
   * need not rehash the id).
   */
  private readonly meta: Float64Array;
  /**
   * The index: per table position, slot + 1 (0 is empty) at 2 × position and the id's hash at
   * 2 × position + 1, side by side so a probe reads one cache line and deletion can find home
   * positions without rehashing strings.
   */
  private readonly table: Int32Array;
  private readonly mask: number;
  /** Slots in use; once full, `oldest` is the slot evicted next. */
  private count = 0;
  private oldest = 0;
  private lastId: string | undefined;
  private lastHash = 0;
  /** A table entry read early on purpose (see find); the value itself is not used. */
  touched = 0;
  /** Where the last unsuccessful find() stopped (an empty position), or -1: add() inserts there. */
  private lastEmpty = -1;

  constructor(max: number, log?: ResultLog) {
    this.max = Math.max(0, Math.floor(max));
    if (log !== undefined && log.retention < this.max) throw new Error('command memory: the log keeps fewer results');
    this.log = log ?? new ResultLog(Math.max(this.max, MIN_RESULT_RETENTION));
    let size = 16;
    while (size < this.max * 2) size *= 2;
    this.table = new Int32Array(this.max > 0 ? 2 * size : 2);
    this.mask = this.max > 0 ? size - 1 : 0;
    this.meta = new Float64Array(META * this.max);
  }

  get size(): number {
    return this.count;
  }

  /**
   * Forgets every entry (a replay of marked journal lines that will have pushed them all out, see
   * Engine.replay). Their results stay in the log until it moves on, unread.
   */
  clear(): void {
    this.table.fill(0);
    this.entries.length = 0;
    this.count = 0;
    this.oldest = 0;
    this.lastId = undefined;
    this.lastEmpty = -1;
  }

  /** The remembered command and result for `id`, or undefined. */
  find(id: string): { command: unknown; result: ApplyResult } | undefined {
    const hash = hashOf(id);
    this.lastId = id;
    this.lastHash = hash;
    if (this.count === this.max && this.max > 0) {
      // add() will evict the oldest id next and must find it in the table: read that position now, so
      // its cache miss overlaps the lookup's own instead of coming on its own later.
      const oldHash = this.meta[META * this.oldest + HASH] as number;
      this.touched = this.table[2 * (oldHash & this.mask)] as number;
    }
    const slot = this.slotOf(id, hash);
    if (slot < 0) return undefined;
    this.lastEmpty = -1;
    return this.entryOf(slot);
  }

  /**
   * Whether `id` is remembered, without reading its entry; like find(), it
   * prepares add() to insert where the lookup stopped.
   */
  knows(id: string): boolean {
    const hash = hashOf(id);
    this.lastId = id;
    this.lastHash = hash;
    const slot = this.slotOf(id, hash);
    if (slot < 0) return false;
    this.lastEmpty = -1;
    return true;
  }

  private entryOf(slot: number): { command: unknown; result: ApplyResult } {
    const at = META * slot;
    const meta = this.meta;
    const command = this.entries[2 * slot + 1];
    const result = this.log.decode(
      meta[at + NUM_START] as number,
      meta[at + NUM_END] as number,
      meta[at + REF_START] as number,
    );
    return { command, result };
  }

  /**
   * Takes the next slot for an id whose hash goes at table position `at` (empty), forgetting the
   * oldest entry when the window is full; answers the slot. Inserting before the eviction is safe:
   * the new entry names the same slot, and removeFromTable tells them apart by the old id's hash.
   */
  private claim(at: number, hash: number): number {
    const slot = this.count < this.max ? this.count : this.oldest;
    this.lastId = undefined;
    this.lastEmpty = -1;
    const table = this.table;
    table[2 * at] = slot + 1;
    table[2 * at + 1] = hash;
    if (this.count < this.max) {
      this.count += 1;
    } else {
      const meta = this.meta;
      const m = META * slot;
      this.removeFromTable(slot, meta[m + HASH] as number);
      this.oldest = slot + 1 === this.max ? 0 : slot + 1;
    }
    return slot;
  }

  /**
   * Remembers a new id (the caller checked it is not remembered) with a result made elsewhere, written
   * to the log now: a rejection, or events given as objects, `fills` naming the fills among them as
   * ResultLog.pushAll takes them. Forgets the oldest entry when full.
   */
  add(id: string, command: unknown, result: ApplyResult, fills?: readonly number[]): void {
    if (this.max === 0) return;
    const log = this.log;
    log.begin();
    if (result.ok) log.pushAll(result.events, fills);
    else log.rejection(result);
    const numStart = log.currentNum;
    const refStart = log.currentRef;
    const numEnd = log.numTail;
    const refEnd = log.refTail;
    log.finish();
    this.remember(id, command, numStart, numEnd, refStart, refEnd);
  }

  /** Remembers a new id whose result the engine wrote to this memory's log itself (see add). */
  addWritten(id: string, command: unknown, result: LoggedResult): void {
    if (this.max === 0) return;
    this.remember(id, command, result.numStart, result.numEnd, result.refStart, result.refEnd);
  }

  private remember(id: string, command: unknown, numStart: number, numEnd: number, refStart: number, refEnd: number) {
    // apply() looks an id up just before it adds it: reuse that hash, and insert where that lookup
    // stopped (nothing changed the table in between).
    const known = id === this.lastId;
    const hash = known ? this.lastHash : hashOf(id);
    const table = this.table;
    let at = known ? this.lastEmpty : -1;
    if (at === -1 || table[2 * at] !== 0) {
      at = hash & this.mask;
      while (table[2 * at] !== 0) at = (at + 1) & this.mask;
    }
    const slot = this.claim(at, hash);
    const meta = this.meta;
    const m = META * slot;
    this.entries[2 * slot] = id;
    this.entries[2 * slot + 1] = command;
    meta[m + NUM_START] = numStart;
    meta[m + NUM_END] = numEnd;
    meta[m + REF_START] = refStart;
    meta[m + REF_END] = refEnd;
    meta[m + HASH] = hash;
  }

  /**
   * Remembers a result given decoded exactly as the engine wrote it when apply() made the result, so
   * the stored form (which the snapshot and the state hash take as it is) does not depend on how the
   * result was reached (a test encodes every window entry again this way and compares). Settlement writes every fill whose four amounts are
   * safe integers as one record, so a trade followed by exactly the transfers it posts, as decode()
   * rebuilds a fill record, with such amounts, is written as one here too.
   */
  addDecoded(id: string, command: unknown, result: ApplyResult): void {
    if (this.max === 0) return;
    if (this.knows(id)) throw new Error(`snapshot remembers command ${id} twice`);
    const fills: number[] = [];
    if (result.ok) {
      const events = result.events;
      for (let i = 0; i < events.length; i++) {
        const flags = fillFlags(events, i);
        if (flags === -1) continue;
        fills.push(i, flags);
        i += 2 + (flags & FILL_BUYER_FEE ? 1 : 0) + (flags & FILL_SELLER_FEE ? 1 : 0);
      }
    }
    this.add(id, command, result, fills);
  }

  /**
   * The window as a snapshot stores it (see StoredWindow), read from the rings as they are: no result
   * is decoded.
   */
  exportWindow(): StoredWindow {
    const n = this.count;
    const ids: string[] = new Array(n);
    const commands: unknown[] = new Array(n);
    const counts = new Int32Array(2 * n);
    const meta = this.meta;
    let slot = n < this.max ? 0 : this.oldest;
    for (let k = 0; k < n; k++) {
      const command = this.entries[2 * slot + 1];
      ids[k] = this.entries[2 * slot] as string;
      commands[k] = command;
      const m = META * slot;
      counts[2 * k] = (meta[m + NUM_END] as number) - (meta[m + NUM_START] as number);
      counts[2 * k + 1] = (meta[m + REF_END] as number) - (meta[m + REF_START] as number);
      slot = slot + 1 === this.max ? 0 : slot + 1;
    }
    // The log may keep older results than the window's (it keeps at least MIN_RESULT_RETENTION).
    const first = META * (n < this.max ? 0 : this.oldest);
    const numFrom = n === 0 ? this.log.numTail : (meta[first + NUM_START] as number);
    const refFrom = n === 0 ? this.log.refTail : (meta[first + REF_START] as number);
    const { nums, values, refs } = this.log.export(numFrom, refFrom, ids, counts);
    return { ids, commands, counts, nums, values, refs };
  }

  /**
   * Fills an empty memory with a window exportWindow() gave (after a snapshot's round trip): the same
   * entries in the same order, each result stored as it was. Throws if the parts do not fit together.
   */
  loadWindow(window: StoredWindow): void {
    const { ids, commands, counts, nums, values, refs } = window;
    const n = ids.length;
    if (this.count !== 0) throw new Error('command memory: load into a used memory');
    if (n > this.max || commands.length !== n || counts.length !== 2 * n) {
      throw new Error(`snapshot window of ${n} commands does not fit a window of ${this.max}`);
    }
    let numCount = 0;
    let refCount = 0;
    for (let k = 0; k < n; k++) {
      const nc = counts[2 * k] as number;
      const rc = counts[2 * k + 1] as number;
      if (nc < 0 || rc < 0) throw new Error('snapshot window: negative count');
      numCount += nc;
      refCount += rc;
    }
    if (numCount !== nums.length || refCount !== refs.length) throw new Error('snapshot window: counts do not add up');
    if (n === 0) return;
    this.log.load(nums, values, refs, ids, counts);
    const meta = this.meta;
    const table = this.table;
    let numAt = 0;
    let refAt = 0;
    for (let k = 0; k < n; k++) {
      const id = ids[k];
      if (typeof id !== 'string') throw new Error('snapshot window: a command id is not a string');
      const hash = hashOf(id);
      if (this.slotOf(id, hash) !== -1) throw new Error(`snapshot remembers command ${id} twice`);
      const at = this.lastEmpty;
      table[2 * at] = k + 1;
      table[2 * at + 1] = hash;
      this.entries[2 * k] = id;
      this.entries[2 * k + 1] = commands[k];
      const m = META * k;
      meta[m + NUM_START] = numAt;
      numAt += counts[2 * k] as number;
      meta[m + NUM_END] = numAt;
      meta[m + REF_START] = refAt;
      refAt += counts[2 * k + 1] as number;
      meta[m + REF_END] = refAt;
      meta[m + HASH] = hash;
      // Counted as it goes, so a failure part way leaves a memory that lists what it holds.
      this.count = k + 1;
    }
    this.oldest = 0;
    this.lastId = undefined;
    this.lastEmpty = -1;
  }

  /** Every remembered entry, oldest first. */
  forEach(visit: (id: string, command: unknown, result: ApplyResult) => void): void {
    const start = this.count < this.max ? 0 : this.oldest;
    for (let k = 0; k < this.count; k++) {
      const slot = (start + k) % this.max;
      const { command, result } = this.entryOf(slot);
      visit(this.entries[2 * slot] as string, command, result);
    }
  }

  private slotOf(id: string, hash: number): number {
    if (this.max === 0) return -1;
    const table = this.table;
    let at = hash & this.mask;
    for (;;) {
      const entry = table[2 * at] as number;
      if (entry === 0) {
        this.lastEmpty = at;
        return -1;
      }
      if (table[2 * at + 1] === hash && this.entries[2 * (entry - 1)] === id) return entry - 1;
      at = (at + 1) & this.mask;
    }
  }

  /** Deletes `slot` from the table, shifting later entries of its probe run back (no tombstones). */
  private removeFromTable(slot: number, hash: number): void {
    const mask = this.mask;
    const table = this.table;
    let at = hash & mask;
    // Both the evicted id and the new one (added just before) name `slot`: match the hash too. Should
    // they share it, the two entries are identical and removing either leaves the right one.
    while (table[2 * at] !== slot + 1 || table[2 * at + 1] !== hash) {
      if (table[2 * at] === 0) throw new Error(`command memory lost slot ${slot}`);
      at = (at + 1) & mask;
    }
    let hole = at;
    let next = (hole + 1) & mask;
    for (;;) {
      const entry = table[2 * next] as number;
      if (entry === 0) break;
      const entryHash = table[2 * next + 1] as number;
      const home = entryHash & mask;
      // Move the entry back into the hole unless its home lies cyclically in (hole, next].
      const stays = hole <= next ? hole < home && home <= next : hole < home || home <= next;
      if (!stays) {
        table[2 * hole] = entry;
        table[2 * hole + 1] = entryHash;
        hole = next;
      }
      next = (next + 1) & mask;
    }
    table[2 * hole] = 0;
    table[2 * hole + 1] = 0;
  }
}

/**
 * The window as format-2 snapshots store it: the memory's own form, oldest entry first. Results are the
 * numbers and references add() wrote, entry after entry; the references are given as indexes into
 * `values`, where each string, null, undefined and bigint appears once (first use first) and each object
 * (a whole event or result kept by reference) once per use, so the form depends on the values alone;
 * -1 stands for the entry's own command id (an order_placed's commandId), which is in `ids` already.
 */
export type StoredWindow = {
  ids: string[];
  commands: unknown[];
  /** Per entry: how many numbers, then how many references its result takes. */
  counts: Int32Array;
  nums: Float64Array;
  values: unknown[];
  refs: Int32Array;
};

/**
 * When events[i] is a trade followed by exactly the transfers settlement posts for it (as decode()
 * rebuilds a fill record: ids, links, causes, accounts, amounts and key order) and its notional, fees
 * and base quantity are safe integers: its FILL flags (as settlement writes the fill). Else -1.
 */
function fillFlags(events: readonly EngineEvent[], i: number): number {
  const trade = events[i];
  const quote = events[i + 1];
  const base = events[i + 2];
  if (trade?.type !== 'trade' || quote?.type !== 'transfer_posted' || base?.type !== 'transfer_posted') return -1;
  const { notional, makerFee, takerFee, timeMs } = trade;
  if (!isSafeBigint(notional) || !isSafeBigint(makerFee) || !isSafeBigint(takerFee) || !isSafeBigint(base.amount))
    return -1;
  const link = `trade:${trade.tradeId}`;
  const rebuilt: Trade = {
    type: 'trade',
    tradeId: trade.tradeId,
    instrumentId: trade.instrumentId,
    priceTicks: trade.priceTicks,
    qtyLots: trade.qtyLots,
    takerSide: trade.takerSide,
    makerOrderId: trade.makerOrderId,
    takerOrderId: trade.takerOrderId,
    makerUserId: trade.makerUserId,
    takerUserId: trade.takerUserId,
    notional,
    makerFee,
    takerFee,
    timeMs,
  };
  if (
    !sameRecord(trade, rebuilt) ||
    !sameRecord(
      quote,
      transfer(`${link}:quote`, quote.debit, quote.credit, quote.asset, notional, 'trade', link, timeMs),
    ) ||
    !sameRecord(base, transfer(`${link}:base`, base.debit, base.credit, base.asset, base.amount, 'trade', link, timeMs))
  )
    return -1;
  const takerBuys = trade.takerSide === 'buy';
  const buyerFee = takerBuys ? takerFee : makerFee;
  const sellerFee = takerBuys ? makerFee : takerFee;
  let flags = 0;
  let next = i + 3;
  if (buyerFee > 0n) {
    const fee = events[next++];
    if (
      fee?.type !== 'transfer_posted' ||
      !sameRecord(
        fee,
        transfer(`${link}:buyer_fee`, quote.debit, fee.credit, quote.asset, buyerFee, 'fee', link, timeMs),
      )
    )
      return -1;
    flags |= FILL_BUYER_FEE;
  }
  if (sellerFee > 0n) {
    const fee = events[next];
    if (
      fee?.type !== 'transfer_posted' ||
      !sameRecord(
        fee,
        transfer(`${link}:seller_fee`, quote.credit, fee.credit, quote.asset, sellerFee, 'fee', link, timeMs),
      )
    )
      return -1;
    flags |= FILL_SELLER_FEE;
  }
  return flags;
}

function isSafeBigint(value: unknown): boolean {
  return typeof value === 'bigint' && Number.isSafeInteger(Number(value));
}

/** The same own keys in the same order, with identical (===) values. */
function sameRecord(a: object, b: object): boolean {
  const keys = Object.keys(a);
  const other = Object.keys(b);
  if (keys.length !== other.length) return false;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    if (key !== other[k] || (a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false;
  }
  return true;
}

/** Per-slot metadata layout (see CommandMemory.meta). */
const META = 5;
const NUM_START = 0;
const NUM_END = 1;
const REF_START = 2;
const REF_END = 3;
const HASH = 4;

/**
 * FNV-1a 32 over UTF-16 code units, then murmur3's finalizer so the low bits (the table index) depend
 * on every character: ids like `c1`, `c2`… otherwise cluster. Collisions only cost a string comparison.
 */
function hashOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash | 0;
}
