// Owns the idempotency window: the last N command ids with their command and first result.
// Must hold: an id is found exactly while it is among the last N remembered; the oldest goes first;
// iteration is oldest first (the snapshot's order); a remembered result decodes to an object deep-equal
// (same keys, same order) to the one apply() returned. Must not: keep the result's event objects.
//
// Why not a Map<string, {command, result}>: at 100,000 entries, keeping every result's events (a dozen
// objects and bigints per fill) made the garbage collector copy and mark ~150 MB of live data, which
// cost more than the rest of apply(). Here the ring is plain arrays by slot (id, command, rejection),
// the index is an open-addressing table of slot numbers in an Int32Array keyed by a 32-bit hash of the
// id (backward-shift deletion, no tombstones), and successful results are encoded into two rings: the
// numbers of each event in a Float64Array (off the JS heap) and its strings and rare objects in an array
// of references to values the engine keeps anyway (user ids, account keys, instrument ids...).

import type { ApplyResult } from './engine-state.ts';
import type { EngineEvent, OrderPlaced, OrderUpdated, Trade, TransferPosted } from './events.ts';

export class CommandMemory {
  readonly max: number;
  private readonly ids: (string | undefined)[] = [];
  /** The commands themselves (the snapshot lists them, and a repeat is compared with them). */
  private readonly commands: unknown[] = [];
  /** Rejections as they were (shared frozen objects); undefined for a success, which is in `log`. */
  private readonly results: (ApplyResult | undefined)[] = [];
  private readonly log = new ResultLog();
  /** Each slot's segment of the log (logical positions): the events of a success, else empty. */
  private readonly numStart: Float64Array;
  private readonly numEnd: Float64Array;
  private readonly refStart: Float64Array;
  private readonly refEnd: Float64Array;
  /** Hash of the id in each slot, so deletion can find home positions without rehashing strings. */
  private readonly hashes: Int32Array;
  /** slot + 1 per table position; 0 is empty. */
  private readonly table: Int32Array;
  private readonly mask: number;
  /** Slots in use; once full, `oldest` is the slot evicted next. */
  private count = 0;
  private oldest = 0;
  private lastId: string | undefined;
  private lastHash = 0;

  constructor(max: number) {
    this.max = Math.max(0, Math.floor(max));
    let size = 16;
    while (size < this.max * 2) size *= 2;
    this.table = new Int32Array(this.max > 0 ? size : 1);
    this.mask = this.max > 0 ? size - 1 : 0;
    this.hashes = new Int32Array(this.max);
    this.numStart = new Float64Array(this.max);
    this.numEnd = new Float64Array(this.max);
    this.refStart = new Float64Array(this.max);
    this.refEnd = new Float64Array(this.max);
  }

  get size(): number {
    return this.count;
  }

  /** The remembered command and result for `id`, or undefined. */
  find(id: string): { command: unknown; result: ApplyResult } | undefined {
    const hash = hashOf(id);
    this.lastId = id;
    this.lastHash = hash;
    const slot = this.slotOf(id, hash);
    if (slot < 0) return undefined;
    return this.entryOf(slot);
  }

  private entryOf(slot: number): { command: unknown; result: ApplyResult } {
    const command = this.commands[slot];
    const rejection = this.results[slot];
    if (rejection !== undefined) return { command, result: rejection };
    const events = this.log.decode(
      this.numStart[slot] as number,
      this.numEnd[slot] as number,
      this.refStart[slot] as number,
    );
    return { command, result: { ok: true, events } };
  }

  /** Remembers a new id (the caller checked it is not remembered), forgetting the oldest when full. */
  add(id: string, command: unknown, result: ApplyResult): void {
    if (this.max === 0) return;
    let slot: number;
    if (this.count < this.max) {
      slot = this.count;
      this.count += 1;
    } else {
      slot = this.oldest;
      this.removeFromTable(slot);
      this.log.forget(this.numEnd[slot] as number, this.refEnd[slot] as number);
      this.oldest = slot + 1 === this.max ? 0 : slot + 1;
    }
    // apply() looks an id up just before it adds it: reuse that hash.
    const hash = id === this.lastId ? this.lastHash : hashOf(id);
    this.ids[slot] = id;
    this.numStart[slot] = this.log.numTail;
    this.refStart[slot] = this.log.refTail;
    this.commands[slot] = command;
    if (result.ok) {
      this.results[slot] = undefined;
      this.log.encode(result.events);
    } else {
      this.results[slot] = result;
    }
    this.numEnd[slot] = this.log.numTail;
    this.refEnd[slot] = this.log.refTail;
    this.hashes[slot] = hash;
    let at = hash & this.mask;
    while (this.table[at] !== 0) at = (at + 1) & this.mask;
    this.table[at] = slot + 1;
  }

  /** Every remembered entry, oldest first. */
  forEach(visit: (id: string, command: unknown, result: ApplyResult) => void): void {
    const start = this.count < this.max ? 0 : this.oldest;
    for (let k = 0; k < this.count; k++) {
      const slot = (start + k) % this.max;
      const { command, result } = this.entryOf(slot);
      visit(this.ids[slot] as string, command, result);
    }
  }

  private slotOf(id: string, hash: number): number {
    if (this.max === 0) return -1;
    let at = hash & this.mask;
    for (;;) {
      const entry = this.table[at] as number;
      if (entry === 0) return -1;
      const slot = entry - 1;
      if (this.hashes[slot] === hash && this.ids[slot] === id) return slot;
      at = (at + 1) & this.mask;
    }
  }

  /** Deletes `slot` from the table, shifting later entries of its probe run back (no tombstones). */
  private removeFromTable(slot: number): void {
    const mask = this.mask;
    let at = (this.hashes[slot] as number) & mask;
    while (this.table[at] !== slot + 1) {
      if (this.table[at] === 0) throw new Error(`command memory lost slot ${slot}`);
      at = (at + 1) & mask;
    }
    let hole = at;
    let next = (hole + 1) & mask;
    for (;;) {
      const entry = this.table[next] as number;
      if (entry === 0) break;
      const home = (this.hashes[entry - 1] as number) & mask;
      // Move the entry back into the hole unless its home lies cyclically in (hole, next].
      const stays = hole <= next ? hole < home && home <= next : hole < home || home <= next;
      if (!stays) {
        this.table[hole] = entry;
        hole = next;
      }
      next = (next + 1) & mask;
    }
    this.table[hole] = 0;
  }
}

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
/** Most numbers one event writes (a trade: code + 12). */
const MAX_NUMS_PER_EVENT = 16;
const MAX_REFS_PER_EVENT = 12;

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

  /** Drops everything before the given end positions (the oldest result's ends). */
  forget(numEnd: number, refEnd: number): void {
    const mask = this.refs.length - 1;
    for (let at = this.refHead; at < refEnd; at++) this.refs[at & mask] = undefined;
    this.numHead = numEnd;
    this.refHead = refEnd;
  }

  encode(events: readonly EngineEvent[]): void {
    this.reserve(events.length * MAX_NUMS_PER_EVENT, events.length * MAX_REFS_PER_EVENT);
    // Local cursors and masks: this runs for every successful command.
    const nums = this.nums;
    const nMask = nums.length - 1;
    const refs = this.refs;
    const rMask = refs.length - 1;
    let n = this.numTail;
    let r = this.refTail;
    for (let i = 0; i < events.length; i++) {
      const e = events[i] as EngineEvent;
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
        const holdAmount = Number(e.holdAmount);
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

  decode(numStart: number, numEnd: number, refStart: number): EngineEvent[] {
    const events: EngineEvent[] = [];
    const nums = this.nums;
    const nMask = nums.length - 1;
    const refs = this.refs;
    const rMask = refs.length - 1;
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
    return events;
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
