// Owns the engine's results in their compact form: each successful command's events written as numbers
// (a Float64Array ring, off the JS heap) and references (an array ring of values the engine keeps anyway:
// user ids, account keys, instrument ids, shared constants), made into event objects only where they are
// read (LoggedResult.events), or read in place (EventReader). The idempotency window (command-memory.ts)
// keeps its results here too: a window entry is the segment its command wrote.
// Must hold: the records a command writes decode to exactly the events (same keys, same order, same
// values) the engine answers for it, whether written directly (the order life cycle and fills) or
// encoded from event objects (everything else), so the stored form depends on the events alone; the
// last `retention` results stay readable; reading an older one throws instead of answering garbage.
// Must not: keep event objects of the hot path (that was the point: at 100,000 remembered commands a
// dozen objects and bigints per fill made the garbage collector copy and mark ~150 MB of live data).
//
// A fill that settlement writes as one FILL record stands for the trade and its two to four transfers:
// their ids, links and causes follow from the trade id and their amounts are the trade's, so no per-fill
// string is kept and no bigint is made until the events are read.

import type { ApplyResult, OrderRecord } from './engine-state.ts';
import type { EngineEvent, OrderPlaced, OrderUpdated, OrderUpdateReason, Trade, TransferPosted } from './events.ts';

// Record codes (the first number of each record).
/** Any other event, kept whole as one reference. */
export const RECORD_EVENT = 0;
export const RECORD_ORDER_PLACED = 1;
export const RECORD_ORDER_UPDATED = 2;
export const RECORD_TRADE = 3;
export const RECORD_TRANSFER = 4;
/** A fill: the trade and its transfers as one record. */
export const RECORD_FILL = 5;
/** A rejected command (window entries only): the result object is the one reference. */
const REJECTION = 6;
/** FILL flags: the fill has a buyer fee transfer / a seller fee transfer. */
export const FILL_BUYER_FEE = 1;
export const FILL_SELLER_FEE = 2;
/** Most numbers / references one record writes (a fill: 12 numbers, 12 references with both fees). */
const MAX_NUMS_PER_RECORD = 16;
const MAX_REFS_PER_RECORD = 16;
/** Results stay readable at least this many commands after they were answered (see ResultLog). */
export const MIN_RESULT_RETENTION = 65_536;

// A bigint is stored as a number when Number() of it is a safe integer (then it is exact: any bigint
// beyond ±(2^53 - 1) converts to at least 2^53 in magnitude); otherwise as NaN plus the bigint itself.

export class ResultLog {
  private nums = new Float64Array(1 << 12);
  private refs: unknown[] = new Array(1 << 11);
  private numHead = 0;
  numTail = 0;
  private refHead = 0;
  refTail = 0;
  /** Where the result being written (begin) starts; a write after a throw starts again from here. */
  private startNum = 0;
  private startRef = 0;
  /** How many results were ever finished; results numbered below `forgotten` are gone. */
  private finished = 0;
  private forgotten = 0;
  /** The last `retention` finished results' end positions [num end, ref end], oldest at `endsOldest`. */
  readonly retention: number;
  private ends = new Float64Array(2 * 256);
  private endsOldest = 0;
  private endsCount = 0;

  constructor(retention: number) {
    this.retention = Math.max(1, Math.floor(retention));
  }

  /** Starts a command's result at the end of the last one (dropping whatever a command that threw wrote). */
  begin(): void {
    this.numTail = this.startNum;
    this.refTail = this.startRef;
  }

  /** Drops what was written since begin(): a rejection, or a replayed command whose result is not read. */
  abort(): void {
    this.numTail = this.startNum;
    this.refTail = this.startRef;
  }

  /** Ends the result written since begin(): it is readable until `retention` more have been finished. */
  finish(): void {
    if (this.endsCount === this.retention) {
      // Forget the oldest: its end is where the log now starts.
      const at = 2 * this.endsOldest;
      this.numHead = this.ends[at] as number;
      this.refHead = this.ends[at + 1] as number;
      this.forgotten += 1;
      this.endsOldest = this.endsOldest + 1 === this.ends.length / 2 ? 0 : this.endsOldest + 1;
      this.endsCount -= 1;
    } else if (2 * this.endsCount === this.ends.length) {
      this.growEnds();
    }
    let slot = this.endsOldest + this.endsCount;
    if (slot >= this.ends.length / 2) slot -= this.ends.length / 2;
    this.ends[2 * slot] = this.numTail;
    this.ends[2 * slot + 1] = this.refTail;
    this.endsCount += 1;
    this.finished += 1;
    this.startNum = this.numTail;
    this.startRef = this.refTail;
  }

  /** Ends the result written since begin() (finish) and answers it as the engine does. */
  finishResult(): LoggedResult {
    const result = new LoggedResult(this, this.finished, this.startNum, this.numTail, this.startRef, this.refTail);
    this.finish();
    return result;
  }

  /** Whether the result numbered `serial` can still be read. */
  holds(serial: number): boolean {
    return serial >= this.forgotten && serial < this.finished;
  }

  /** The start positions of the result being written (numbers, references). */
  get currentNum(): number {
    return this.startNum;
  }

  get currentRef(): number {
    return this.startRef;
  }

  /** Whether nothing was written since begin(). */
  get isEmpty(): boolean {
    return this.numTail === this.startNum;
  }

  private growEnds(): void {
    const old = this.ends;
    const size = old.length / 2;
    const next = new Float64Array(Math.min(2 * size, this.retention) * 2);
    for (let k = 0; k < this.endsCount; k++) {
      const from = (this.endsOldest + k) % size;
      next[2 * k] = old[2 * from] as number;
      next[2 * k + 1] = old[2 * from + 1] as number;
    }
    this.ends = next;
    this.endsOldest = 0;
  }

  // Writers. Each writes one record, numbers and references in the order decode() reads them back.

  orderPlaced(
    orderId: number,
    commandId: string,
    userId: string,
    instrumentId: string,
    side: OrderPlaced['side'],
    orderType: OrderPlaced['orderType'],
    priceTicks: number,
    qtyLots: number,
    timeInForce: OrderPlaced['timeInForce'],
    postOnly: boolean,
    queued: boolean,
    trigger: OrderPlaced['trigger'],
    holdAsset: string,
    /** The hold as a safe integer, or NaN (then `holdBig`). */
    holdN: number,
    holdBig: bigint,
    timeMs: number,
  ): void {
    this.reserve(MAX_NUMS_PER_RECORD, MAX_REFS_PER_RECORD);
    const nums = this.nums;
    const nMask = nums.length - 1;
    const refs = this.refs;
    const rMask = refs.length - 1;
    let n = this.numTail;
    let r = this.refTail;
    nums[n++ & nMask] = RECORD_ORDER_PLACED;
    nums[n++ & nMask] = orderId;
    refs[r++ & rMask] = commandId;
    refs[r++ & rMask] = userId;
    refs[r++ & rMask] = instrumentId;
    refs[r++ & rMask] = side;
    refs[r++ & rMask] = orderType;
    nums[n++ & nMask] = priceTicks;
    nums[n++ & nMask] = qtyLots;
    refs[r++ & rMask] = timeInForce;
    // Flags: 1 post-only, 2 queued (placed while halted; the key is absent when false).
    nums[n++ & nMask] = (postOnly ? 1 : 0) | (queued ? 2 : 0);
    refs[r++ & rMask] = trigger;
    refs[r++ & rMask] = holdAsset;
    nums[n++ & nMask] = holdN;
    if (Number.isNaN(holdN)) refs[r++ & rMask] = holdBig;
    nums[n++ & nMask] = timeMs;
    this.numTail = n;
    this.refTail = r;
  }

  /** An order_updated event of `order` as it is now. */
  orderUpdated(order: OrderRecord, reason: OrderUpdateReason, timeMs: number): void {
    const status = order.status;
    this.orderUpdatedOf(
      order.id,
      order.userId,
      order.instrument.def.id,
      status,
      order.priceTicks,
      order.qtyLots,
      order.filledLots,
      status === 'pending' || status === 'partial' ? order.qtyLots - order.filledLots : 0,
      reason,
      timeMs,
    );
  }

  private orderUpdatedOf(
    orderId: number,
    userId: string,
    instrumentId: string,
    status: OrderUpdated['status'],
    priceTicks: number,
    qtyLots: number,
    filledLots: number,
    remainingLots: number,
    reason: OrderUpdateReason,
    timeMs: number,
  ): void {
    this.reserve(MAX_NUMS_PER_RECORD, MAX_REFS_PER_RECORD);
    const nums = this.nums;
    const nMask = nums.length - 1;
    const refs = this.refs;
    const rMask = refs.length - 1;
    let n = this.numTail;
    let r = this.refTail;
    nums[n++ & nMask] = RECORD_ORDER_UPDATED;
    nums[n++ & nMask] = orderId;
    refs[r++ & rMask] = userId;
    refs[r++ & rMask] = instrumentId;
    refs[r++ & rMask] = status;
    nums[n++ & nMask] = priceTicks;
    nums[n++ & nMask] = qtyLots;
    nums[n++ & nMask] = filledLots;
    nums[n++ & nMask] = remainingLots;
    refs[r++ & rMask] = reason;
    nums[n++ & nMask] = timeMs;
    this.numTail = n;
    this.refTail = r;
  }

  /**
   * A fill settled by moving `notional` from the buyer's quote account (`quoteDebit`) to the seller's
   * (`quoteCredit`), `qtyMinor` from the seller's base account to the buyer's, and each non-zero fee to
   * a fee account: the trade event and its `trade:<id>:quote`, `:base`, `:buyer_fee` and `:seller_fee`
   * transfers. Amounts are safe integers.
   */
  fill(
    tradeId: number,
    instrumentId: string,
    priceTicks: number,
    qtyLots: number,
    takerSide: Trade['takerSide'],
    makerOrderId: number,
    takerOrderId: number,
    makerUserId: string,
    takerUserId: string,
    notional: number,
    makerFee: number,
    takerFee: number,
    timeMs: number,
    quoteDebit: string,
    quoteCredit: string,
    quoteAsset: string,
    baseDebit: string,
    baseCredit: string,
    baseAsset: string,
    qtyMinor: number,
    /** Where the buyer's / the seller's fee goes (an account key), or undefined when that fee is 0. */
    buyerFeeCredit: string | undefined,
    sellerFeeCredit: string | undefined,
  ): void {
    this.reserve(MAX_NUMS_PER_RECORD, MAX_REFS_PER_RECORD);
    const nums = this.nums;
    const nMask = nums.length - 1;
    const refs = this.refs;
    const rMask = refs.length - 1;
    let n = this.numTail;
    let r = this.refTail;
    nums[n++ & nMask] = RECORD_FILL;
    nums[n++ & nMask] =
      (buyerFeeCredit !== undefined ? FILL_BUYER_FEE : 0) | (sellerFeeCredit !== undefined ? FILL_SELLER_FEE : 0);
    nums[n++ & nMask] = tradeId;
    refs[r++ & rMask] = instrumentId;
    nums[n++ & nMask] = priceTicks;
    nums[n++ & nMask] = qtyLots;
    refs[r++ & rMask] = takerSide;
    nums[n++ & nMask] = makerOrderId;
    nums[n++ & nMask] = takerOrderId;
    refs[r++ & rMask] = makerUserId;
    refs[r++ & rMask] = takerUserId;
    nums[n++ & nMask] = notional;
    nums[n++ & nMask] = makerFee;
    nums[n++ & nMask] = takerFee;
    nums[n++ & nMask] = timeMs;
    refs[r++ & rMask] = quoteDebit;
    refs[r++ & rMask] = quoteCredit;
    refs[r++ & rMask] = quoteAsset;
    refs[r++ & rMask] = baseDebit;
    refs[r++ & rMask] = baseCredit;
    refs[r++ & rMask] = baseAsset;
    nums[n++ & nMask] = qtyMinor;
    if (buyerFeeCredit !== undefined) refs[r++ & rMask] = buyerFeeCredit;
    if (sellerFeeCredit !== undefined) refs[r++ & rMask] = sellerFeeCredit;
    this.numTail = n;
    this.refTail = r;
  }

  /**
   * Any event as an object: written as the record the direct writers would write for it where there is
   * one (so the stored form depends on the event alone), else kept whole. A trade and its transfers
   * pushed one by one are not joined into a FILL: settlement writes its fills with fill().
   */
  push(e: EngineEvent): void {
    if (e.type === 'order_updated') {
      this.orderUpdatedOf(
        e.orderId,
        e.userId,
        e.instrumentId,
        e.status,
        e.priceTicks,
        e.qtyLots,
        e.filledLots,
        e.remainingLots,
        e.reason,
        e.timeMs,
      );
      return;
    }
    if (e.type === 'order_placed') {
      const hold = Number(e.holdAmount);
      this.orderPlaced(
        e.orderId,
        e.commandId,
        e.userId,
        e.instrumentId,
        e.side,
        e.orderType,
        e.priceTicks,
        e.qtyLots,
        e.timeInForce,
        e.postOnly,
        e.queued === true,
        e.trigger,
        e.holdAsset,
        Number.isSafeInteger(hold) ? hold : Number.NaN,
        e.holdAmount,
        e.timeMs,
      );
      return;
    }
    this.reserve(MAX_NUMS_PER_RECORD, MAX_REFS_PER_RECORD);
    const nums = this.nums;
    const nMask = nums.length - 1;
    const refs = this.refs;
    const rMask = refs.length - 1;
    let n = this.numTail;
    let r = this.refTail;
    if (e.type === 'transfer_posted') {
      nums[n++ & nMask] = RECORD_TRANSFER;
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
      nums[n++ & nMask] = RECORD_TRADE;
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
    } else {
      nums[n++ & nMask] = RECORD_EVENT;
      refs[r++ & rMask] = e;
    }
    this.numTail = n;
    this.refTail = r;
  }

  /**
   * Events of a result built elsewhere (the rarer handlers, CommandMemory.addDecoded), with the fills
   * `fills` names: per fill, the index of its trade in `events` and its flags (FILL_BUYER_FEE,
   * FILL_SELLER_FEE); the trade and the transfers after it are written as one FILL record, as
   * settlement would have.
   */
  pushAll(events: readonly EngineEvent[], fills: readonly number[] = []): void {
    let f = 0;
    for (let i = 0; i < events.length; i++) {
      const e = events[i] as EngineEvent;
      if (f < fills.length && fills[f] === i && e.type === 'trade') {
        const flags = fills[f + 1] as number;
        f += 2;
        const quote = events[i + 1] as TransferPosted;
        const base = events[i + 2] as TransferPosted;
        i += 2;
        const buyerFee = (flags & FILL_BUYER_FEE) !== 0 ? (events[++i] as TransferPosted).credit : undefined;
        const sellerFee = (flags & FILL_SELLER_FEE) !== 0 ? (events[++i] as TransferPosted).credit : undefined;
        this.fill(
          e.tradeId,
          e.instrumentId,
          e.priceTicks,
          e.qtyLots,
          e.takerSide,
          e.makerOrderId,
          e.takerOrderId,
          e.makerUserId,
          e.takerUserId,
          Number(e.notional),
          Number(e.makerFee),
          Number(e.takerFee),
          e.timeMs,
          quote.debit,
          quote.credit,
          quote.asset,
          base.debit,
          base.credit,
          base.asset,
          Number(base.amount),
          buyerFee,
          sellerFee,
        );
        continue;
      }
      this.push(e);
    }
  }

  /** A rejection (window entries only): its code and the result object itself (shared frozen objects). */
  rejection(result: ApplyResult): void {
    this.reserve(1, 1);
    this.nums[this.numTail & (this.nums.length - 1)] = REJECTION;
    this.refs[this.refTail & (this.refs.length - 1)] = result;
    this.numTail += 1;
    this.refTail += 1;
  }

  /** The result stored from these positions: a rejection, or a success with its events rebuilt. */
  decode(numStart: number, numEnd: number, refStart: number): ApplyResult {
    if (numEnd - numStart === 1 && this.nums[numStart & (this.nums.length - 1)] === REJECTION) {
      return this.refs[refStart & (this.refs.length - 1)] as ApplyResult;
    }
    return { ok: true, events: this.decodeEvents(numStart, numEnd, refStart) };
  }

  /** The events of the records from these positions, as objects. */
  decodeEvents(numStart: number, numEnd: number, refStart: number): EngineEvent[] {
    const nums = this.nums;
    const nMask = nums.length - 1;
    const refs = this.refs;
    const rMask = refs.length - 1;
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
      if (code === RECORD_ORDER_PLACED) {
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
      } else if (code === RECORD_ORDER_UPDATED) {
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
      } else if (code === RECORD_TRADE) {
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
      } else if (code === RECORD_FILL) {
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
      } else if (code === RECORD_TRANSFER) {
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

  /** The rings as they are now (EventReader reads positions & (length - 1) of them). */
  get numRing(): Float64Array {
    return this.nums;
  }

  get refRing(): unknown[] {
    return this.refs;
  }

  /**
   * The numbers from `numFrom` and references from `refFrom` up to the tails (copied, oldest first),
   * the references as indexes into `values` (see StoredWindow in command-memory.ts), for the entries
   * `ids` whose reference counts are every other number of `counts`.
   */
  export(
    numFrom: number,
    refFrom: number,
    ids: readonly string[],
    counts: Int32Array,
  ): { nums: Float64Array; values: unknown[]; refs: Int32Array } {
    const nums = new Float64Array(this.numTail - numFrom);
    const ring = this.nums;
    for (let at = numFrom; at < this.numTail; ) {
      const from = at & (ring.length - 1);
      const run = Math.min(this.numTail - at, ring.length - from);
      nums.set(ring.subarray(from, from + run), at - numFrom);
      at += run;
    }
    const refs = new Int32Array(this.refTail - refFrom);
    const values: unknown[] = [];
    // Strings by value: the engine's own ids and account keys come back tens of thousands of times.
    const seen = new Map<unknown, number>();
    const all = this.refs;
    const mask = all.length - 1;
    let at = refFrom;
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

  /**
   * Replaces an empty log with the given numbers and references (see export), from position 0: one
   * finished result per entry, `counts` giving each one's numbers and references.
   */
  load(
    nums: Float64Array,
    values: readonly unknown[],
    refs: Int32Array,
    ids: readonly string[],
    counts: Int32Array,
  ): void {
    if (this.finished !== 0) throw new Error('result log: load into a used log');
    if (ids.length > this.retention) throw new Error('result log: more results than it keeps');
    let numSize = 1 << 12;
    while (numSize < nums.length) numSize *= 2;
    let refSize = 1 << 11;
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
    this.refHead = 0;
    this.startNum = 0;
    this.startRef = 0;
    let numAt = 0;
    let refAt = 0;
    for (let entry = 0; entry < ids.length; entry++) {
      this.numTail = numAt += counts[2 * entry] as number;
      this.refTail = refAt += counts[2 * entry + 1] as number;
      this.finish();
    }
    this.numTail = nums.length;
    this.refTail = refs.length;
    this.startNum = this.numTail;
    this.startRef = this.refTail;
  }

  /** Grows a ring (doubling, keeping logical positions) when `nums`/`refs` more would overrun its head. */
  private reserve(nums: number, refs: number): void {
    if (this.numTail + nums - this.numHead > this.nums.length) this.growNums(nums);
    if (this.refTail + refs - this.refHead > this.refs.length) this.growRefs(refs);
  }

  private growNums(nums: number): void {
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
  }

  /**
   * Doubles the reference ring as the old ring twice over: whichever half a live position falls in
   * under the doubled mask holds its value. concat copies natively; copyWithin, which this used before,
   * takes V8's generic path (a property lookup per element): ~40 ns an element, a 57 ms stall when a
   * 2,097,152-entry ring grew wrapped in the engine bench, against ~20 ms now (mostly touching the new
   * memory). The copies in the half a position does not use are stale, like any forgotten reference
   * (overwritten when the ring comes round).
   */
  private growRefs(refs: number): void {
    while (this.refTail + refs - this.refHead > this.refs.length) this.refs = this.refs.concat(this.refs);
  }
}

/**
 * A successful command's result as the engine answers it: its events stay in the log, compact, until
 * `events` is read (then they are made once and kept) or an EventReader reads them in place. Readable
 * while the log holds it: for the last MIN_RESULT_RETENTION (or more) commands; later, reading throws.
 */
export class LoggedResult {
  readonly ok = true as const;
  readonly #log: ResultLog;
  readonly #serial: number;
  // Where its records start and end in the log (logical positions). Private, so that the only own key
  // is `ok`: compare results by their events.
  readonly #numStart: number;
  readonly #numEnd: number;
  readonly #refStart: number;
  readonly #refEnd: number;
  #events: EngineEvent[] | undefined;

  constructor(log: ResultLog, serial: number, numStart: number, numEnd: number, refStart: number, refEnd: number) {
    this.#log = log;
    this.#serial = serial;
    this.#numStart = numStart;
    this.#numEnd = numEnd;
    this.#refStart = refStart;
    this.#refEnd = refEnd;
    this.#events = undefined;
  }

  get numStart(): number {
    return this.#numStart;
  }

  get numEnd(): number {
    return this.#numEnd;
  }

  get refStart(): number {
    return this.#refStart;
  }

  get refEnd(): number {
    return this.#refEnd;
  }

  get events(): EngineEvent[] {
    if (this.#events === undefined) {
      this.#events = this.#log.decodeEvents(this.#numStart, this.#numEnd, this.#checked());
    }
    return this.#events;
  }

  /**
   * Makes the events now and keeps them: the result no longer depends on the log (for a holder that
   * may read it after the log has moved on, such as a commit that takes long).
   */
  keep(): void {
    this.events;
  }

  /** Whether the events were made (read or kept): then they are read from here, not from the log. */
  get made(): boolean {
    return this.#events !== undefined;
  }

  /** As JSON.stringify would give a plain result: `{"ok":true,"events":[...]}`. */
  toJSON(): { ok: true; events: EngineEvent[] } {
    return { ok: true, events: this.events };
  }

  /** The log, for an EventReader (throws if the result has left it). */
  logFor(): ResultLog {
    this.#checked();
    return this.#log;
  }

  #checked(): number {
    if (!this.#log.holds(this.#serial)) {
      throw new Error(`the result of command ${this.#serial} has left the result log: read results when they come`);
    }
    return this.#refStart;
  }
}

/**
 * Reads a result's events in place, record by record, without making event objects: the host's
 * projection and the benchmarks read results this way. One reader is reused for any number of results.
 * next() only finds where the next record is; each field is read from the log when asked for, and only
 * the fields of the current record's kind (see `kind`) are meaningful. Amounts are numbers when they are
 * safe integers, else NaN with the bigint in the `...Big` field.
 */
export class EventReader {
  /** The current record: a RECORD_* code, or -1 before the first and after the last. */
  kind = -1;
  /** RECORD_EVENT: the event itself (also every event of a result that is not a LoggedResult). */
  event: EngineEvent | undefined = undefined;
  #nums: Float64Array = new Float64Array(1);
  #refs: unknown[] = [];
  #nMask = 0;
  #rMask = 0;
  /** The current record's first number (its code) and first reference. */
  #n0 = 0;
  #r0 = 0;
  /** The next record's; `#end` ends the result. */
  #n = 0;
  #r = 0;
  #end = 0;
  /** A result that is not a LoggedResult: its events, one RECORD_EVENT each. */
  #events: readonly EngineEvent[] | undefined = undefined;
  #at = 0;

  /** Starts reading `result` (a rejection has no records). */
  read(result: ApplyResult): this {
    this.kind = -1;
    this.event = undefined;
    this.#events = undefined;
    this.#n = 0;
    this.#end = 0;
    this.#at = 0;
    if (!result.ok) return this;
    if (result instanceof LoggedResult && !result.made) {
      const log = result.logFor();
      // Reading comes after the command that wrote the result: the rings hold it as they are now.
      this.#nums = log.numRing;
      this.#refs = log.refRing;
      this.#nMask = this.#nums.length - 1;
      this.#rMask = this.#refs.length - 1;
      this.#n = result.numStart;
      this.#end = result.numEnd;
      this.#r = result.refStart;
    } else {
      this.#events = result.events;
    }
    return this;
  }

  /** Moves to the next record: false after the last. */
  next(): boolean {
    const events = this.#events;
    if (events !== undefined) {
      if (this.#at >= events.length) {
        this.kind = -1;
        return false;
      }
      this.kind = RECORD_EVENT;
      this.event = events[this.#at++];
      return true;
    }
    const n0 = this.#n;
    if (n0 >= this.#end) {
      this.kind = -1;
      return false;
    }
    const nums = this.#nums;
    const m = this.#nMask;
    const r0 = this.#r;
    const code = nums[n0 & m] as number;
    let numCount: number;
    let refCount: number;
    if (code === RECORD_ORDER_PLACED) {
      numCount = 7;
      refCount = Number.isNaN(nums[(n0 + 5) & m]) ? 9 : 8;
    } else if (code === RECORD_ORDER_UPDATED) {
      numCount = 7;
      refCount = 4;
    } else if (code === RECORD_FILL) {
      const flags = nums[(n0 + 1) & m] as number;
      numCount = 12;
      refCount = 10 + (flags & FILL_BUYER_FEE ? 1 : 0) + (flags & FILL_SELLER_FEE ? 1 : 0);
    } else if (code === RECORD_TRADE) {
      numCount = 10;
      refCount =
        4 +
        (Number.isNaN(nums[(n0 + 6) & m]) ? 1 : 0) +
        (Number.isNaN(nums[(n0 + 7) & m]) ? 1 : 0) +
        (Number.isNaN(nums[(n0 + 8) & m]) ? 1 : 0);
    } else if (code === RECORD_TRANSFER) {
      numCount = 3;
      refCount = Number.isNaN(nums[(n0 + 1) & m]) ? 7 : 6;
    } else if (code === RECORD_EVENT) {
      numCount = 1;
      refCount = 1;
      this.event = this.#refs[r0 & this.#rMask] as EngineEvent;
    } else {
      throw new Error(`result log: record ${code} is not an event`);
    }
    this.kind = code;
    this.#n0 = n0;
    this.#r0 = r0;
    this.#n = n0 + numCount;
    this.#r = r0 + refCount;
    return true;
  }

  /** The current record's `k`-th number / reference. */
  #num(k: number): number {
    return this.#nums[(this.#n0 + k) & this.#nMask] as number;
  }

  #ref(k: number): unknown {
    return this.#refs[(this.#r0 + k) & this.#rMask];
  }

  #isPlaced(): boolean {
    return this.kind === RECORD_ORDER_PLACED;
  }

  #isFill(): boolean {
    return this.kind === RECORD_FILL;
  }

  // order_placed and order_updated.
  get orderId(): number {
    return this.#num(1);
  }

  get userId(): string {
    return this.#ref(this.#isPlaced() ? 1 : 0) as string;
  }

  get instrumentId(): string {
    return this.#ref(this.#isPlaced() ? 2 : this.kind === RECORD_ORDER_UPDATED ? 1 : 0) as string;
  }

  get priceTicks(): number {
    return this.#num(this.#isFill() ? 3 : 2);
  }

  get qtyLots(): number {
    return this.#num(this.#isFill() ? 4 : 3);
  }

  get timeMs(): number {
    const kind = this.kind;
    return this.#num(kind === RECORD_TRANSFER ? 2 : kind === RECORD_TRADE ? 9 : kind === RECORD_FILL ? 10 : 6);
  }

  // order_placed.
  get commandId(): string {
    return this.#ref(0) as string;
  }

  get side(): OrderPlaced['side'] {
    return this.#ref(3) as OrderPlaced['side'];
  }

  get orderType(): OrderPlaced['orderType'] {
    return this.#ref(4) as OrderPlaced['orderType'];
  }

  get timeInForce(): OrderPlaced['timeInForce'] {
    return this.#ref(5) as OrderPlaced['timeInForce'];
  }

  get trigger(): OrderPlaced['trigger'] {
    return this.#ref(6) as OrderPlaced['trigger'];
  }

  get holdAsset(): string {
    return this.#ref(7) as string;
  }

  get postOnly(): boolean {
    return (this.#num(4) & 1) === 1;
  }

  /** Placed while trading was halted. */
  get queued(): boolean {
    return (this.#num(4) & 2) === 2;
  }

  get holdAmount(): number {
    return this.#num(5);
  }

  get holdAmountBig(): bigint | undefined {
    return Number.isNaN(this.#num(5)) ? (this.#ref(8) as bigint) : undefined;
  }

  // order_updated.
  get status(): OrderUpdated['status'] {
    return this.#isPlaced() ? 'pending' : (this.#ref(2) as OrderUpdated['status']);
  }

  get filledLots(): number {
    return this.#num(4);
  }

  get remainingLots(): number {
    return this.#num(5);
  }

  get reason(): OrderUpdateReason {
    return this.#ref(3) as OrderUpdateReason;
  }

  // trade (and a fill's trade).
  get tradeId(): number {
    return this.#num(this.#isFill() ? 2 : 1);
  }

  get takerSide(): Trade['takerSide'] {
    return this.#ref(1) as Trade['takerSide'];
  }

  get makerOrderId(): number {
    return this.#num(this.#isFill() ? 5 : 4);
  }

  get takerOrderId(): number {
    return this.#num(this.#isFill() ? 6 : 5);
  }

  get makerUserId(): string {
    return this.#ref(2) as string;
  }

  get takerUserId(): string {
    return this.#ref(3) as string;
  }

  get notional(): number {
    return this.#num(this.#isFill() ? 7 : 6);
  }

  get makerFee(): number {
    return this.#num(this.#isFill() ? 8 : 7);
  }

  get takerFee(): number {
    return this.#num(this.#isFill() ? 9 : 8);
  }

  // A trade's amounts beyond the safe range (a fill's never are); their references follow the four fixed ones.
  get notionalBig(): bigint | undefined {
    return this.#tradeBig(0);
  }

  get makerFeeBig(): bigint | undefined {
    return this.#tradeBig(1);
  }

  get takerFeeBig(): bigint | undefined {
    return this.#tradeBig(2);
  }

  #tradeBig(which: number): bigint | undefined {
    if (this.kind !== RECORD_TRADE || !Number.isNaN(this.#num(6 + which))) return undefined;
    let at = 4;
    for (let k = 0; k < which; k++) if (Number.isNaN(this.#num(6 + k))) at += 1;
    return this.#ref(at) as bigint;
  }

  // A fill's transfers.
  get quoteDebit(): string {
    return this.#ref(4) as string;
  }

  get quoteCredit(): string {
    return this.#ref(5) as string;
  }

  get quoteAsset(): string {
    return this.#ref(6) as string;
  }

  get baseDebit(): string {
    return this.#ref(7) as string;
  }

  get baseCredit(): string {
    return this.#ref(8) as string;
  }

  get baseAsset(): string {
    return this.#ref(9) as string;
  }

  get qtyMinor(): number {
    return this.#num(11);
  }

  /** Where the buyer's fee went (an account key), or undefined when there was none. */
  get buyerFeeCredit(): string | undefined {
    return (this.#num(1) & FILL_BUYER_FEE) !== 0 ? (this.#ref(10) as string) : undefined;
  }

  get sellerFeeCredit(): string | undefined {
    const flags = this.#num(1);
    if ((flags & FILL_SELLER_FEE) === 0) return undefined;
    return this.#ref((flags & FILL_BUYER_FEE) !== 0 ? 11 : 10) as string;
  }

  // transfer_posted.
  get transferId(): string {
    return this.#ref(0) as string;
  }

  get debit(): string {
    return this.#ref(1) as string;
  }

  get credit(): string {
    return this.#ref(2) as string;
  }

  get asset(): string {
    return this.#ref(3) as string;
  }

  get amount(): number {
    return this.#num(1);
  }

  get amountBig(): bigint | undefined {
    return Number.isNaN(this.#num(1)) ? (this.#ref(4) as bigint) : undefined;
  }

  get cause(): TransferPosted['cause'] {
    return this.#ref(Number.isNaN(this.#num(1)) ? 5 : 4) as TransferPosted['cause'];
  }

  get link(): string {
    return this.#ref(Number.isNaN(this.#num(1)) ? 6 : 5) as string;
  }
}

/** A safe-integer amount with its bigint fallback (EventReader's fields) as decimal minor units. */
export function minorText(amount: number, big: bigint | undefined): string {
  return big !== undefined ? big.toString() : String(amount);
}

/** A transfer_posted event (the fields in the order the ledger makes them). */
export function transfer(
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
