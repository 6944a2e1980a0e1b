// Owns the idempotency window: the last N command ids with their command and first result.
// Must hold: an id is found exactly while it is among the last N remembered; the oldest goes first;
// iteration is oldest first (the snapshot's order); a remembered result decodes to an object deep-equal
// (same keys, same order) to the one apply() returned. Must not: keep the result's event objects.
// A replay may remember an id alone (addIdOnly: a command that will have left the window before the
// replay ends); such an entry finds its id like any other, but reading its command or result throws.
// A snapshot (format 2) stores the window in this memory's own form (exportWindow / loadWindow: the
// rings' live segments, the references once each), so taking and restoring one decodes no result.
//
// Why not a Map<string, {command, result}>: at 100,000 entries, keeping every result's events (a dozen
// objects and bigints per fill) made the garbage collector copy and mark ~150 MB of live data, which
// cost more than the rest of apply(). Here the ring is one array of [id, command] by slot plus one
// Float64Array of per-slot positions, the index is an open-addressing table of [slot, hash] pairs in an
// Int32Array (backward-shift deletion, no tombstones), and results are encoded into two rings: the
// numbers of each event in a Float64Array (off the JS heap) and its strings and rare objects in an array
// of references to values the engine keeps anyway (user ids, account keys, instrument ids, the shared
// rejection objects...). A fill that settlement marks (markFill) is stored as one record: the trade and
// its two to four transfers, whose ids, links and causes follow from the trade id and whose amounts
// are the trade's, so no per-fill string is kept and no bigint is converted back to a number.

import type { ApplyResult } from './engine-state.ts';
import type { EngineEvent, OrderPlaced, OrderUpdated, Trade, TransferPosted } from './events.ts';

export class CommandMemory {
  readonly max: number;
  /** [id, command] per slot, side by side (the snapshot lists the commands; a repeat is compared with them). */
  private readonly entries: unknown[] = [];
  private readonly log = new ResultLog();
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
  /** Fills marked during the current command: event index, flags and amounts (see markFill). */
  private markAt = new Int32Array(16);
  private markFlags = new Int32Array(16);
  private markAmounts = new Float64Array(64);
  private markCount = 0;
  /** The order_placed event marked during the current command (see markPlaced), or -1. */
  private placedAt = -1;
  private placedHold = 0;
  /** Slots in use; once full, `oldest` is the slot evicted next. */
  private count = 0;
  /** Entries remembered by id only (addIdOnly) still in the window. */
  private idOnly = 0;
  private oldest = 0;
  private lastId: string | undefined;
  private lastHash = 0;
  /** A table entry read early on purpose (see find); the value itself is not used. */
  touched = 0;
  /** Where the last unsuccessful find() stopped (an empty position), or -1: add() inserts there. */
  private lastEmpty = -1;

  constructor(max: number) {
    this.max = Math.max(0, Math.floor(max));
    let size = 16;
    while (size < this.max * 2) size *= 2;
    this.table = new Int32Array(this.max > 0 ? 2 * size : 2);
    this.mask = this.max > 0 ? size - 1 : 0;
    this.meta = new Float64Array(META * this.max);
  }

  get size(): number {
    return this.count;
  }

  /** Entries in the window remembered by their id only (see addIdOnly). */
  get idOnlyCount(): number {
    return this.idOnly;
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
   * Whether `id` is remembered (in full or by id only), without reading its entry; like find(), it
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
    if (command === ID_ONLY) throw new Error(`command ${this.entries[2 * slot]} is remembered by its id only`);
    const result = this.log.decode(
      meta[at + NUM_START] as number,
      meta[at + NUM_END] as number,
      meta[at + REF_START] as number,
    );
    return { command, result };
  }

  /**
   * Settlement says: events[eventIndex] is a trade followed by its `${link}:quote` and `${link}:base`
   * transfers, then `${link}:buyer_fee` if flags & FILL_BUYER_FEE, then `${link}:seller_fee` if
   * flags & FILL_SELLER_FEE (link = `trade:<trade id>`), exactly as settleFill builds them, and the
   * trade's notional, maker fee, taker fee and base quantity (minor units) are these safe integers.
   * Marks belong to the command being applied: add() consumes them, forgetMarks() drops them.
   */
  markFill(
    eventIndex: number,
    flags: number,
    notional: number,
    makerFee: number,
    takerFee: number,
    qtyMinor: number,
  ): void {
    if (this.max === 0) return;
    const n = this.markCount;
    if (n === this.markAt.length) {
      const at = new Int32Array(n * 2);
      at.set(this.markAt);
      const fl = new Int32Array(n * 2);
      fl.set(this.markFlags);
      const amounts = new Float64Array(n * 8);
      amounts.set(this.markAmounts);
      this.markAt = at;
      this.markFlags = fl;
      this.markAmounts = amounts;
    }
    this.markAt[n] = eventIndex;
    this.markFlags[n] = flags;
    const amounts = this.markAmounts;
    amounts[4 * n] = notional;
    amounts[4 * n + 1] = makerFee;
    amounts[4 * n + 2] = takerFee;
    amounts[4 * n + 3] = qtyMinor;
    this.markCount = n + 1;
  }

  /** Placing says: events[eventIndex] is its order_placed, whose holdAmount is the safe integer `hold`. */
  markPlaced(eventIndex: number, hold: number): void {
    this.placedAt = eventIndex;
    this.placedHold = hold;
  }

  forgetMarks(): void {
    this.markCount = 0;
    this.placedAt = -1;
  }

  /**
   * For a replay: remembers `id` without its command and result, unless it is remembered already (then
   * it answers false and changes nothing). For a command that more than `max` later ones will push out
   * of the window before the replay ends: repeats of it are recognised as with add(); reading it throws.
   */
  addIdOnly(id: string): boolean {
    if (this.max === 0) return true;
    const hash = hashOf(id);
    const table = this.table;
    // One probe run finds the id or the empty position it would take.
    let at = hash & this.mask;
    for (;;) {
      const entry = table[2 * at] as number;
      if (entry === 0) break;
      if (table[2 * at + 1] === hash && this.entries[2 * (entry - 1)] === id) return false;
      at = (at + 1) & this.mask;
    }
    const slot = this.claim(at, hash);
    const meta = this.meta;
    const m = META * slot;
    this.idOnly += 1;
    this.entries[2 * slot] = id;
    this.entries[2 * slot + 1] = ID_ONLY;
    // An empty segment of the log: forgetting up to it later forgets what came before, as for any entry.
    meta[m + NUM_START] = this.log.numTail;
    meta[m + NUM_END] = this.log.numTail;
    meta[m + REF_START] = this.log.refTail;
    meta[m + REF_END] = this.log.refTail;
    meta[m + HASH] = hash;
    return true;
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
      this.log.forget(meta[m + NUM_END] as number, meta[m + REF_END] as number);
      if (this.entries[2 * slot + 1] === ID_ONLY) this.idOnly -= 1;
      this.oldest = slot + 1 === this.max ? 0 : slot + 1;
    }
    return slot;
  }

  /** Remembers a new id (the caller checked it is not remembered), forgetting the oldest when full. */
  add(id: string, command: unknown, result: ApplyResult): void {
    if (this.max === 0) return;
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
    meta[m + NUM_START] = this.log.numTail;
    meta[m + REF_START] = this.log.refTail;
    if (result.ok) {
      this.log.encode(
        result.events,
        this.markAt,
        this.markFlags,
        this.markAmounts,
        this.markCount,
        this.placedAt,
        this.placedHold,
      );
    } else {
      this.log.encodeRejection(result);
    }
    this.markCount = 0;
    this.placedAt = -1;
    meta[m + NUM_END] = this.log.numTail;
    meta[m + REF_END] = this.log.refTail;
    meta[m + HASH] = hash;
  }

  /**
   * For a snapshot that lists results decoded (format 1): remembers the entry exactly as add() did when
   * apply() made the result, so the stored form (which format 2 and the v3 state hash take as it is) does
   * not depend on how the state was reached. Settlement marks every fill whose four amounts are safe
   * integers (settleFill), so a trade followed by exactly the transfers it posts, as decode() rebuilds a
   * fill record, with such amounts, is marked here too.
   */
  addDecoded(id: string, command: unknown, result: ApplyResult): void {
    if (this.max === 0) return;
    if (this.knows(id)) throw new Error(`snapshot remembers command ${id} twice`);
    this.forgetMarks();
    if (result.ok) {
      const events = result.events;
      for (let i = 0; i < events.length; i++) {
        const flags = fillFlags(events, i);
        if (flags === -1) continue;
        const trade = events[i] as Trade;
        const base = events[i + 2] as TransferPosted;
        this.markFill(
          i,
          flags,
          Number(trade.notional),
          Number(trade.makerFee),
          Number(trade.takerFee),
          Number(base.amount),
        );
        i += 2 + (flags & FILL_BUYER_FEE ? 1 : 0) + (flags & FILL_SELLER_FEE ? 1 : 0);
      }
    }
    this.add(id, command, result);
  }

  /**
   * The window as a snapshot stores it (format 2, see StoredWindow), read from the rings as they are:
   * no result is decoded. Throws if an entry is remembered by its id only (its command and result are
   * not kept, see addIdOnly), as reading it would.
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
      if (command === ID_ONLY) throw new Error(`command ${this.entries[2 * slot]} is remembered by its id only`);
      ids[k] = this.entries[2 * slot] as string;
      commands[k] = command;
      const m = META * slot;
      counts[2 * k] = (meta[m + NUM_END] as number) - (meta[m + NUM_START] as number);
      counts[2 * k + 1] = (meta[m + REF_END] as number) - (meta[m + REF_START] as number);
      slot = slot + 1 === this.max ? 0 : slot + 1;
    }
    const { nums, values, refs } = this.log.export(ids, counts);
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
 * and base quantity are safe integers: the fill's markFill flags. Else -1.
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

/** The command of an entry remembered by its id only (addIdOnly). */
const ID_ONLY: unknown = Symbol('id only');

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

// A bigint is stored as a number when Number() of it is a safe integer (then it is exact: any bigint
// beyond ±(2^53 - 1) converts to at least 2^53 in magnitude); otherwise as NaN plus the bigint itself.

const REF = 0;
const ORDER_PLACED = 1;
const ORDER_UPDATED = 2;
const TRADE = 3;
const TRANSFER = 4;
/** A marked fill: the trade and its transfers as one record. */
const FILL = 5;
/** A rejected command: the result object is the one reference. */
const REJECTION = 6;
/** markFill flags: the fill has a buyer fee transfer / a seller fee transfer. */
export const FILL_BUYER_FEE = 1;
export const FILL_SELLER_FEE = 2;
/** Most numbers one event writes (a trade: code + 12; a fill of 3-5 events writes at most 15). */
const MAX_NUMS_PER_EVENT = 16;
const MAX_REFS_PER_EVENT = 12;

function transfer(
  transferId: string,
  debit: string,
  credit: string,
  asset: string,
  amount: bigint,
  cause: TransferPosted['cause'],
  link: string,
  timeMs: number,
): TransferPosted {
  return { type: 'transfer_posted', transferId, debit, credit, asset, amount, cause, link, timeMs };
}

/**
 * Events of remembered results, oldest first, in two growable rings addressed by logical positions
 * (ever-increasing; physical index = position & mask). Results leave in the order they came.
 */
class ResultLog {
  private nums = new Float64Array(1 << 16);
  private refs: unknown[] = new Array(1 << 14);
  private numHead = 0;
  numTail = 0;
  private refHead = 0;
  refTail = 0;

  /**
   * Drops everything before the given end positions (the oldest result's ends). The references are
   * not cleared: they are overwritten when the ring comes round, so a forgotten result's strings stay
   * reachable at most one ring length longer (clearing them cost a write per reference).
   */
  forget(numEnd: number, refEnd: number): void {
    this.numHead = numEnd;
    this.refHead = refEnd;
  }

  /** A rejection: its code and the result object itself (shared frozen objects, so nothing new is kept). */
  encodeRejection(result: ApplyResult): void {
    this.reserve(1, 1);
    this.nums[this.numTail & (this.nums.length - 1)] = REJECTION;
    this.refs[this.refTail & (this.refs.length - 1)] = result;
    this.numTail += 1;
    this.refTail += 1;
  }

  encode(
    events: readonly EngineEvent[],
    markAt: Int32Array,
    markFlags: Int32Array,
    markAmounts: Float64Array,
    markCount: number,
    placedAt: number,
    placedHold: number,
  ): void {
    this.reserve(events.length * MAX_NUMS_PER_EVENT, events.length * MAX_REFS_PER_EVENT);
    // Local cursors and masks: this runs for every successful command.
    const nums = this.nums;
    const nMask = nums.length - 1;
    const refs = this.refs;
    const rMask = refs.length - 1;
    let n = this.numTail;
    let r = this.refTail;
    let mark = 0;
    for (let i = 0; i < events.length; i++) {
      const e = events[i] as EngineEvent;
      while (mark < markCount && (markAt[mark] as number) < i) mark += 1;
      if (mark < markCount && markAt[mark] === i && e.type === 'trade') {
        // A fill: the trade's fields, then what its transfers do not share with it (their amounts are
        // the trade's notional and fees and the base quantity; ids, links and causes follow from the
        // trade id; the fee transfers move between the quote transfer's accounts and the fee account).
        const flags = markFlags[mark] as number;
        const amounts = 4 * mark;
        mark += 1;
        const quote = events[i + 1] as TransferPosted;
        const base = events[i + 2] as TransferPosted;
        nums[n++ & nMask] = FILL;
        nums[n++ & nMask] = flags;
        nums[n++ & nMask] = e.tradeId;
        refs[r++ & rMask] = e.instrumentId;
        nums[n++ & nMask] = e.priceTicks;
        nums[n++ & nMask] = e.qtyLots;
        refs[r++ & rMask] = e.takerSide;
        nums[n++ & nMask] = e.makerOrderId;
        nums[n++ & nMask] = e.takerOrderId;
        refs[r++ & rMask] = e.makerUserId;
        refs[r++ & rMask] = e.takerUserId;
        nums[n++ & nMask] = markAmounts[amounts + 0] as number;
        nums[n++ & nMask] = markAmounts[amounts + 1] as number;
        nums[n++ & nMask] = markAmounts[amounts + 2] as number;
        nums[n++ & nMask] = e.timeMs;
        refs[r++ & rMask] = quote.debit;
        refs[r++ & rMask] = quote.credit;
        refs[r++ & rMask] = quote.asset;
        refs[r++ & rMask] = base.debit;
        refs[r++ & rMask] = base.credit;
        refs[r++ & rMask] = base.asset;
        nums[n++ & nMask] = markAmounts[amounts + 3] as number;
        i += 2;
        if ((flags & FILL_BUYER_FEE) !== 0) {
          i += 1;
          refs[r++ & rMask] = (events[i] as TransferPosted).credit;
        }
        if ((flags & FILL_SELLER_FEE) !== 0) {
          i += 1;
          refs[r++ & rMask] = (events[i] as TransferPosted).credit;
        }
        continue;
      }
      // Each case writes fields in the order decode() reads them back.
      if (e.type === 'order_updated') {
        nums[n++ & nMask] = ORDER_UPDATED;
        nums[n++ & nMask] = e.orderId;
        refs[r++ & rMask] = e.userId;
        refs[r++ & rMask] = e.instrumentId;
        refs[r++ & rMask] = e.status;
        nums[n++ & nMask] = e.priceTicks;
        nums[n++ & nMask] = e.qtyLots;
        nums[n++ & nMask] = e.filledLots;
        nums[n++ & nMask] = e.remainingLots;
        refs[r++ & rMask] = e.reason;
        nums[n++ & nMask] = e.timeMs;
      } else if (e.type === 'transfer_posted') {
        nums[n++ & nMask] = TRANSFER;
        refs[r++ & rMask] = e.transferId;
        refs[r++ & rMask] = e.debit;
        refs[r++ & rMask] = e.credit;
        refs[r++ & rMask] = e.asset;
        const amount = Number(e.amount);
        nums[n++ & nMask] = Number.isSafeInteger(amount) ? amount : Number.NaN;
        if (!Number.isSafeInteger(amount)) refs[r++ & rMask] = e.amount;
        refs[r++ & rMask] = e.cause;
        refs[r++ & rMask] = e.link;
        nums[n++ & nMask] = e.timeMs;
      } else if (e.type === 'trade') {
        nums[n++ & nMask] = TRADE;
        nums[n++ & nMask] = e.tradeId;
        refs[r++ & rMask] = e.instrumentId;
        nums[n++ & nMask] = e.priceTicks;
        nums[n++ & nMask] = e.qtyLots;
        refs[r++ & rMask] = e.takerSide;
        nums[n++ & nMask] = e.makerOrderId;
        nums[n++ & nMask] = e.takerOrderId;
        refs[r++ & rMask] = e.makerUserId;
        refs[r++ & rMask] = e.takerUserId;
        const notional = Number(e.notional);
        nums[n++ & nMask] = Number.isSafeInteger(notional) ? notional : Number.NaN;
        if (!Number.isSafeInteger(notional)) refs[r++ & rMask] = e.notional;
        const makerFee = Number(e.makerFee);
        nums[n++ & nMask] = Number.isSafeInteger(makerFee) ? makerFee : Number.NaN;
        if (!Number.isSafeInteger(makerFee)) refs[r++ & rMask] = e.makerFee;
        const takerFee = Number(e.takerFee);
        nums[n++ & nMask] = Number.isSafeInteger(takerFee) ? takerFee : Number.NaN;
        if (!Number.isSafeInteger(takerFee)) refs[r++ & rMask] = e.takerFee;
        nums[n++ & nMask] = e.timeMs;
      } else if (e.type === 'order_placed') {
        nums[n++ & nMask] = ORDER_PLACED;
        nums[n++ & nMask] = e.orderId;
        refs[r++ & rMask] = e.commandId;
        refs[r++ & rMask] = e.userId;
        refs[r++ & rMask] = e.instrumentId;
        refs[r++ & rMask] = e.side;
        refs[r++ & rMask] = e.orderType;
        nums[n++ & nMask] = e.priceTicks;
        nums[n++ & nMask] = e.qtyLots;
        refs[r++ & rMask] = e.timeInForce;
        // Flags: 1 post-only, 2 queued (placed while halted; the key is absent when false).
        nums[n++ & nMask] = (e.postOnly ? 1 : 0) | (e.queued === true ? 2 : 0);
        refs[r++ & rMask] = e.trigger;
        refs[r++ & rMask] = e.holdAsset;
        // Placing marked the amount as a number (no bigint conversion); otherwise convert.
        const holdAmount = i === placedAt ? placedHold : Number(e.holdAmount);
        nums[n++ & nMask] = Number.isSafeInteger(holdAmount) ? holdAmount : Number.NaN;
        if (!Number.isSafeInteger(holdAmount)) refs[r++ & rMask] = e.holdAmount;
        nums[n++ & nMask] = e.timeMs;
      } else {
        nums[n++ & nMask] = REF;
        refs[r++ & rMask] = e;
      }
    }
    this.numTail = n;
    this.refTail = r;
  }

  /** The result stored from these positions: a rejection, or a success with its events rebuilt. */
  decode(numStart: number, numEnd: number, refStart: number): ApplyResult {
    const nums = this.nums;
    const nMask = nums.length - 1;
    const refs = this.refs;
    const rMask = refs.length - 1;
    if (numEnd - numStart === 1 && nums[numStart & nMask] === REJECTION) return refs[refStart & rMask] as ApplyResult;
    const events: EngineEvent[] = [];
    let n = numStart;
    let r = refStart;
    const num = () => nums[n++ & nMask] as number;
    const ref = () => refs[r++ & rMask];
    const big = () => {
      const value = num();
      return Number.isNaN(value) ? (ref() as bigint) : BigInt(value);
    };
    while (n < numEnd) {
      const code = num();
      if (code === ORDER_PLACED) {
        const orderId = num();
        const commandId = ref() as string;
        const userId = ref() as string;
        const instrumentId = ref() as string;
        const side = ref() as OrderPlaced['side'];
        const orderType = ref() as OrderPlaced['orderType'];
        const priceTicks = num();
        const qtyLots = num();
        const timeInForce = ref() as OrderPlaced['timeInForce'];
        const flags = num();
        const postOnly = (flags & 1) === 1;
        const trigger = ref() as OrderPlaced['trigger'];
        const holdAsset = ref() as string;
        const holdAmount = big();
        const timeMs = num();
        events.push({
          type: 'order_placed',
          orderId,
          commandId,
          userId,
          instrumentId,
          side,
          orderType,
          priceTicks,
          qtyLots,
          timeInForce,
          postOnly,
          trigger,
          status: 'pending',
          holdAsset,
          holdAmount,
          ...((flags & 2) === 2 ? { queued: true as const } : {}),
          timeMs,
        });
      } else if (code === ORDER_UPDATED) {
        events.push({
          type: 'order_updated',
          orderId: num(),
          userId: ref() as string,
          instrumentId: ref() as string,
          status: ref() as OrderUpdated['status'],
          priceTicks: num(),
          qtyLots: num(),
          filledLots: num(),
          remainingLots: num(),
          reason: ref() as OrderUpdated['reason'],
          timeMs: num(),
        });
      } else if (code === TRADE) {
        events.push({
          type: 'trade',
          tradeId: num(),
          instrumentId: ref() as string,
          priceTicks: num(),
          qtyLots: num(),
          takerSide: ref() as Trade['takerSide'],
          makerOrderId: num(),
          takerOrderId: num(),
          makerUserId: ref() as string,
          takerUserId: ref() as string,
          notional: big(),
          makerFee: big(),
          takerFee: big(),
          timeMs: num(),
        });
      } else if (code === FILL) {
        const flags = num();
        const tradeId = num();
        const instrumentId = ref() as string;
        const priceTicks = num();
        const qtyLots = num();
        const takerSide = ref() as Trade['takerSide'];
        const makerOrderId = num();
        const takerOrderId = num();
        const makerUserId = ref() as string;
        const takerUserId = ref() as string;
        const notional = big();
        const makerFee = big();
        const takerFee = big();
        const timeMs = num();
        const quoteDebit = ref() as string;
        const quoteCredit = ref() as string;
        const quoteAsset = ref() as string;
        const baseDebit = ref() as string;
        const baseCredit = ref() as string;
        const baseAsset = ref() as string;
        const qtyMinor = big();
        const link = `trade:${tradeId}`;
        events.push(
          {
            type: 'trade',
            tradeId,
            instrumentId,
            priceTicks,
            qtyLots,
            takerSide,
            makerOrderId,
            takerOrderId,
            makerUserId,
            takerUserId,
            notional,
            makerFee,
            takerFee,
            timeMs,
          },
          transfer(`${link}:quote`, quoteDebit, quoteCredit, quoteAsset, notional, 'trade', link, timeMs),
          transfer(`${link}:base`, baseDebit, baseCredit, baseAsset, qtyMinor, 'trade', link, timeMs),
        );
        const takerBuys = takerSide === 'buy';
        if ((flags & FILL_BUYER_FEE) !== 0) {
          const fee = takerBuys ? takerFee : makerFee;
          events.push(transfer(`${link}:buyer_fee`, quoteDebit, ref() as string, quoteAsset, fee, 'fee', link, timeMs));
        }
        if ((flags & FILL_SELLER_FEE) !== 0) {
          const fee = takerBuys ? makerFee : takerFee;
          events.push(
            transfer(`${link}:seller_fee`, quoteCredit, ref() as string, quoteAsset, fee, 'fee', link, timeMs),
          );
        }
      } else if (code === TRANSFER) {
        events.push({
          type: 'transfer_posted',
          transferId: ref() as string,
          debit: ref() as string,
          credit: ref() as string,
          asset: ref() as string,
          amount: big(),
          cause: ref() as TransferPosted['cause'],
          link: ref() as string,
          timeMs: num(),
        });
      } else {
        events.push(ref() as EngineEvent);
      }
    }
    return { ok: true, events };
  }

  /**
   * The live numbers (copied, oldest first) and references as indexes into `values` (see StoredWindow),
   * for the entries `ids` whose reference counts are every other number of `counts`.
   */
  export(ids: readonly string[], counts: Int32Array): { nums: Float64Array; values: unknown[]; refs: Int32Array } {
    const nums = new Float64Array(this.numTail - this.numHead);
    const ring = this.nums;
    for (let at = this.numHead; at < this.numTail; ) {
      const from = at & (ring.length - 1);
      const run = Math.min(this.numTail - at, ring.length - from);
      nums.set(ring.subarray(from, from + run), at - this.numHead);
      at += run;
    }
    const refs = new Int32Array(this.refTail - this.refHead);
    const values: unknown[] = [];
    // Strings by value: the engine's own ids and account keys come back tens of thousands of times.
    const seen = new Map<unknown, number>();
    const all = this.refs;
    const mask = all.length - 1;
    let at = this.refHead;
    let k = 0;
    for (let entry = 0; entry < ids.length; entry++) {
      const id = ids[entry];
      const end = at + (counts[2 * entry + 1] as number);
      for (; at < end; at++, k++) {
        const value = all[at & mask];
        if (value === id) {
          refs[k] = -1;
        } else if (typeof value === 'object' && value !== null) {
          refs[k] = values.length;
          values.push(value);
        } else {
          let index = seen.get(value);
          if (index === undefined) {
            index = values.length;
            seen.set(value, index);
            values.push(value);
          }
          refs[k] = index;
        }
      }
    }
    if (at !== this.refTail) throw new Error('command memory: the window does not cover its references');
    return { nums, values, refs };
  }

  /** Replaces an empty log with the given numbers and references (see export), from position 0. */
  load(
    nums: Float64Array,
    values: readonly unknown[],
    refs: Int32Array,
    ids: readonly string[],
    counts: Int32Array,
  ): void {
    let numSize = 1 << 16;
    while (numSize < nums.length) numSize *= 2;
    let refSize = 1 << 14;
    while (refSize < refs.length) refSize *= 2;
    const numRing = new Float64Array(numSize);
    numRing.set(nums);
    const refRing: unknown[] = new Array(refSize);
    const valueCount = values.length;
    let k = 0;
    for (let entry = 0; entry < ids.length; entry++) {
      const id = ids[entry];
      const end = k + (counts[2 * entry + 1] as number);
      for (; k < end; k++) {
        const index = refs[k] as number;
        if (index === -1) refRing[k] = id;
        else if (index >= 0 && index < valueCount) refRing[k] = values[index];
        else throw new Error('snapshot window: a reference is out of range');
      }
    }
    this.nums = numRing;
    this.refs = refRing;
    this.numHead = 0;
    this.numTail = nums.length;
    this.refHead = 0;
    this.refTail = refs.length;
  }

  /** Grows a ring (doubling, keeping logical positions) when `nums`/`refs` more would overrun its head. */
  private reserve(nums: number, refs: number): void {
    while (this.numTail + nums - this.numHead > this.nums.length) {
      const old = this.nums;
      const next = new Float64Array(old.length * 2);
      // Copy the live positions in contiguous runs (memcpy), keeping each at position & newMask.
      for (let at = this.numHead; at < this.numTail; ) {
        const from = at & (old.length - 1);
        const to = at & (next.length - 1);
        const run = Math.min(this.numTail - at, old.length - from, next.length - to);
        next.set(old.subarray(from, from + run), to);
        at += run;
      }
      this.nums = next;
    }
    while (this.refTail + refs - this.refHead > this.refs.length) {
      const next: unknown[] = new Array(this.refs.length * 2);
      const oldMask = this.refs.length - 1;
      const newMask = next.length - 1;
      for (let at = this.refHead; at < this.refTail; at++) next[at & newMask] = this.refs[at & oldMask];
      this.refs = next;
    }
  }
}
