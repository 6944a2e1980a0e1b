// Owns one instrument's resting orders: struct-of-arrays slots with a free list, an intrusive FIFO per
// price level, and price-time matching into a reusable fill buffer. Integer ticks and lots only.
// Must hold: best bid < best ask after every call; a level's quantity is the sum of its orders.
// Must not: know about money, users' balances or events; allocate per operation on the hot path.

import { IdIndex } from './id-index.ts';
import { type LevelPage, PAGE_SIZE, PriceLevels } from './price-levels.ts';

export type Side = 'buy' | 'sell';
export const BUY = 0;
export const SELL = 1;
export type SideCode = typeof BUY | typeof SELL;

/** Self-trade prevention: which side of a would-be self trade is cancelled. */
export type StpMode = 'cancel_resting' | 'cancel_taker' | 'cancel_both';
export const STP_CANCEL_RESTING = 0;
export const STP_CANCEL_TAKER = 1;
export const STP_CANCEL_BOTH = 2;
export type StpCode = 0 | 1 | 2;

export function stpCode(mode: StpMode): StpCode {
  return mode === 'cancel_resting' ? STP_CANCEL_RESTING : mode === 'cancel_taker' ? STP_CANCEL_TAKER : STP_CANCEL_BOTH;
}

/** A fill-buffer row is a trade with a resting order, or that order's cancellation by STP. */
export const FILL_TRADE = 0;
export const FILL_STP_CANCEL = 1;

/** Owner -1 never self-trades (anonymous flow in benchmarks). */
export const NO_OWNER = -1;

export class OrderBook {
  readonly levels: PriceLevels;
  private capacity: number;
  private orderId: Float64Array;
  private qty: Float64Array;
  private tick: Int32Array;
  private next: Int32Array;
  private prev: Int32Array;
  private owner: Int32Array;
  private side: Uint8Array;
  private freeHead = -1;
  private used = 0;
  private readonly slotById: IdIndex;
  private bestBidTick = -1;
  private bestAskTick = -1;

  /** Fill buffer of the last match(): rows 0..fillCount-1. */
  fillCount = 0;
  fillKind: Uint8Array = new Uint8Array(64);
  fillMakerId: Float64Array = new Float64Array(64);
  fillMakerSlot: Int32Array = new Int32Array(64);
  fillMakerOwner: Int32Array = new Int32Array(64);
  fillTick: Int32Array = new Int32Array(64);
  fillQty: Float64Array = new Float64Array(64);
  fillMakerLeft: Float64Array = new Float64Array(64);
  /** True when the last match() stopped because STP cancelled the taker. */
  takerStopped = false;

  constructor(maxTick: number, initialCapacity = 1024) {
    this.levels = new PriceLevels(maxTick);
    this.capacity = Math.max(16, initialCapacity);
    this.slotById = new IdIndex(this.capacity);
    this.orderId = new Float64Array(this.capacity);
    this.qty = new Float64Array(this.capacity);
    this.tick = new Int32Array(this.capacity);
    this.next = new Int32Array(this.capacity);
    this.prev = new Int32Array(this.capacity);
    this.owner = new Int32Array(this.capacity);
    this.side = new Uint8Array(this.capacity);
  }

  get maxTick(): number {
    return this.levels.maxTick;
  }

  get bestBid(): number {
    return this.bestBidTick;
  }

  get bestAsk(): number {
    return this.bestAskTick;
  }

  get restingCount(): number {
    return this.slotById.size;
  }

  has(id: number): boolean {
    return this.slotById.has(id);
  }

  slotOf(id: number): number {
    return this.slotById.get(id);
  }

  remainingOf(id: number): number {
    const slot = this.slotById.get(id);
    return slot === -1 ? 0 : (this.qty[slot] as number);
  }

  /** Would an order on `side` at `tick` trade against the other side? */
  crosses(side: SideCode, tick: number): boolean {
    return side === BUY
      ? this.bestAskTick !== -1 && tick >= this.bestAskTick
      : this.bestBidTick !== -1 && tick <= this.bestBidTick;
  }

  /** Appends an order at the tail of its level. The caller has matched first: it must not cross. */
  rest(id: number, side: SideCode, tick: number, qty: number, owner: number): number {
    if (this.crosses(side, tick)) throw new Error(`book would cross: ${side} at ${tick}`);
    if (tick < 0 || tick > this.levels.maxTick || !(qty > 0)) throw new Error(`bad resting order ${tick} x ${qty}`);
    if (this.slotById.has(id)) throw new Error(`order ${id} already resting`);
    const slot = this.allocate();
    this.orderId[slot] = id;
    this.qty[slot] = qty;
    this.tick[slot] = tick;
    this.owner[slot] = owner;
    this.side[slot] = side;
    this.next[slot] = -1;
    const page = this.levels.pageOf(tick);
    const i = tick & (PAGE_SIZE - 1);
    const tail = page.tail[i] as number;
    this.prev[slot] = tail;
    if (tail === -1) {
      page.head[i] = slot;
      this.levels.markOccupied(page, tick);
    } else {
      this.next[tail] = slot;
    }
    page.tail[i] = slot;
    page.qty[i] = (page.qty[i] as number) + qty;
    this.slotById.set(id, slot);
    if (side === BUY) {
      if (tick > this.bestBidTick) this.bestBidTick = tick;
    } else if (this.bestAskTick === -1 || tick < this.bestAskTick) {
      this.bestAskTick = tick;
    }
    return slot;
  }

  /** Removes a resting order; returns its remaining quantity, or -1 if it is not resting. */
  cancel(id: number): number {
    const slot = this.slotById.get(id);
    if (slot === -1) return -1;
    const left = this.qty[slot] as number;
    this.removeSlot(slot);
    return left;
  }

  /** Lowers a resting order's quantity in place: it keeps its place in the queue. */
  reduce(id: number, newQty: number): void {
    const slot = this.slotById.get(id);
    if (slot === -1) throw new Error(`order ${id} not resting`);
    const old = this.qty[slot] as number;
    if (!(newQty > 0 && newQty < old)) throw new Error(`reduce must lower the quantity: ${old} -> ${newQty}`);
    const tick = this.tick[slot] as number;
    const page = this.levels.pageOf(tick);
    const i = tick & (PAGE_SIZE - 1);
    page.qty[i] = (page.qty[i] as number) - (old - newQty);
    this.qty[slot] = newQty;
  }

  /**
   * Quantity a taker could fill now up to `qty`, walking the book as match() would (for FOK).
   * Own orders are skipped under cancel_resting and end the walk under the other STP modes.
   */
  fillableQty(side: SideCode, limitTick: number, qty: number, owner: number, stp: StpCode): number {
    let found = 0;
    let tick = side === BUY ? this.bestAskTick : this.bestBidTick;
    while (tick !== -1 && (side === BUY ? tick <= limitTick : tick >= limitTick)) {
      const page = this.levels.pageOf(tick);
      let slot = page.head[tick & (PAGE_SIZE - 1)] as number;
      while (slot !== -1) {
        if (owner !== NO_OWNER && this.owner[slot] === owner) {
          if (stp !== STP_CANCEL_RESTING) return found;
        } else {
          found += this.qty[slot] as number;
          if (found >= qty) return qty;
        }
        slot = this.next[slot] as number;
      }
      tick = side === BUY ? this.levels.lowestAtOrAbove(tick + 1) : this.levels.highestAtOrBelow(tick - 1);
    }
    return found;
  }

  /**
   * Matches a taker against the other side at prices no worse than `limitTick`, in price-time order.
   * Writes one fill-buffer row per trade or STP cancellation; returns the taker's unfilled quantity.
   */
  match(side: SideCode, limitTick: number, qty: number, owner: number, stp: StpCode): number {
    this.fillCount = 0;
    this.takerStopped = false;
    let remaining = qty;
    while (remaining > 0) {
      const tick = side === BUY ? this.bestAskTick : this.bestBidTick;
      if (tick === -1 || (side === BUY ? tick > limitTick : tick < limitTick)) break;
      const page = this.levels.pageOf(tick);
      const i = tick & (PAGE_SIZE - 1);
      let slot = page.head[i] as number;
      while (slot !== -1 && remaining > 0) {
        const nextSlot = this.next[slot] as number;
        const restingQty = this.qty[slot] as number;
        if (owner !== NO_OWNER && this.owner[slot] === owner) {
          if (stp === STP_CANCEL_TAKER) {
            this.takerStopped = true;
            return remaining;
          }
          this.pushFill(FILL_STP_CANCEL, slot, tick, restingQty, 0);
          this.removeSlot(slot);
          if (stp === STP_CANCEL_BOTH) {
            this.takerStopped = true;
            return remaining;
          }
        } else if (restingQty <= remaining) {
          remaining -= restingQty;
          this.pushFill(FILL_TRADE, slot, tick, restingQty, 0);
          this.removeSlot(slot);
        } else {
          this.qty[slot] = restingQty - remaining;
          page.qty[i] = (page.qty[i] as number) - remaining;
          this.pushFill(FILL_TRADE, slot, tick, remaining, restingQty - remaining);
          remaining = 0;
        }
        slot = nextSlot;
      }
    }
    return remaining;
  }

  /** [tick, quantity] of the best `maxLevels` levels of one side, best first. */
  depth(side: Side, maxLevels: number): [number, number][] {
    const rows: [number, number][] = [];
    let tick = side === 'buy' ? this.bestBidTick : this.bestAskTick;
    while (tick !== -1 && rows.length < maxLevels) {
      const page = this.levels.pageOf(tick);
      rows.push([tick, page.qty[tick & (PAGE_SIZE - 1)] as number]);
      tick = side === 'buy' ? this.levels.highestAtOrBelow(tick - 1) : this.levels.lowestAtOrAbove(tick + 1);
    }
    return rows;
  }

  /** Visits resting orders side by side, best level first, queue order within a level. */
  forEachOrder(
    visit: (id: number, side: SideCode, tick: number, qty: number, owner: number, slot: number) => void,
  ): void {
    for (const side of [BUY, SELL] as const) {
      let tick = side === BUY ? this.bestBidTick : this.bestAskTick;
      while (tick !== -1) {
        let slot = this.levels.pageOf(tick).head[tick & (PAGE_SIZE - 1)] as number;
        while (slot !== -1) {
          visit(this.orderId[slot] as number, side, tick, this.qty[slot] as number, this.owner[slot] as number, slot);
          slot = this.next[slot] as number;
        }
        tick = side === BUY ? this.levels.highestAtOrBelow(tick - 1) : this.levels.lowestAtOrAbove(tick + 1);
      }
    }
  }

  /** Bytes held by the order slots and fill buffer (the level pages are counted by the caller). */
  slotBytes(): number {
    return this.capacity * (8 + 8 + 4 + 4 + 4 + 4 + 1);
  }

  private removeSlot(slot: number): void {
    const tick = this.tick[slot] as number;
    const page: LevelPage = this.levels.pageOf(tick);
    const i = tick & (PAGE_SIZE - 1);
    const prev = this.prev[slot] as number;
    const next = this.next[slot] as number;
    if (prev === -1) page.head[i] = next;
    else this.next[prev] = next;
    if (next === -1) page.tail[i] = prev;
    else this.prev[next] = prev;
    page.qty[i] = (page.qty[i] as number) - (this.qty[slot] as number);
    this.slotById.delete(this.orderId[slot] as number);
    this.qty[slot] = 0;
    this.next[slot] = this.freeHead;
    this.freeHead = slot;
    this.used -= 1;
    if (page.head[i] === -1) {
      page.qty[i] = 0;
      this.levels.markEmpty(page, tick);
      if (tick === this.bestBidTick) this.bestBidTick = this.levels.highestAtOrBelow(tick - 1);
      else if (tick === this.bestAskTick) this.bestAskTick = this.levels.lowestAtOrAbove(tick + 1);
    }
  }

  private allocate(): number {
    if (this.freeHead !== -1) {
      const slot = this.freeHead;
      this.freeHead = this.next[slot] as number;
      this.used += 1;
      return slot;
    }
    if (this.used === this.capacity) this.grow();
    const slot = this.used;
    this.used += 1;
    return slot;
  }

  private grow(): void {
    const size = this.capacity * 2;
    this.orderId = growFloat(this.orderId, size);
    this.qty = growFloat(this.qty, size);
    this.tick = growInt(this.tick, size);
    this.next = growInt(this.next, size);
    this.prev = growInt(this.prev, size);
    this.owner = growInt(this.owner, size);
    const side = new Uint8Array(size);
    side.set(this.side);
    this.side = side;
    this.capacity = size;
  }

  private pushFill(kind: number, slot: number, tick: number, qty: number, makerLeft: number): void {
    const n = this.fillCount;
    if (n === this.fillKind.length) this.growFills();
    this.fillKind[n] = kind;
    this.fillMakerId[n] = this.orderId[slot] as number;
    this.fillMakerSlot[n] = slot;
    this.fillMakerOwner[n] = this.owner[slot] as number;
    this.fillTick[n] = tick;
    this.fillQty[n] = qty;
    this.fillMakerLeft[n] = makerLeft;
    this.fillCount = n + 1;
  }

  private growFills(): void {
    const size = this.fillKind.length * 2;
    const kind = new Uint8Array(size);
    kind.set(this.fillKind);
    this.fillKind = kind;
    this.fillMakerId = growFloat(this.fillMakerId, size);
    this.fillMakerSlot = growInt(this.fillMakerSlot, size);
    this.fillMakerOwner = growInt(this.fillMakerOwner, size);
    this.fillTick = growInt(this.fillTick, size);
    this.fillQty = growFloat(this.fillQty, size);
    this.fillMakerLeft = growFloat(this.fillMakerLeft, size);
  }
}

function growFloat(from: Float64Array, size: number): Float64Array {
  const to = new Float64Array(size);
  to.set(from);
  return to;
}

function growInt(from: Int32Array, size: number): Int32Array {
  const to = new Int32Array(size);
  to.set(from);
  return to;
}
