// Owns the seeded order-book workload shared by the book benchmark: ~60% limit orders near the mid,
// ~25% cancels of resting orders, ~15% market orders, integer ticks and lots, as flat typed arrays.
// Must hold: the same seed gives the same operations. Must not: time anything.

import { BUY, NO_OWNER, OrderBook, SELL, STP_CANCEL_RESTING } from '@bourse/engine';
import { SeededRandom } from '@bourse/testkit';

export const OP_LIMIT = 0;
export const OP_CANCEL = 1;
export const OP_MARKET = 2;
export const MAX_TICK = 1_000_000;
export const MID_START = 500_000;

export type Workload = {
  count: number;
  kind: Uint8Array;
  side: Uint8Array;
  price: Int32Array;
  qty: Int32Array;
  /** Order id for limits (its own id) and cancels (the target). */
  id: Float64Array;
};

/** Generates operations by running them once on our book, so cancels target orders that still rest. */
export function generateWorkload(seed: number, count: number): Workload {
  const random = new SeededRandom(seed);
  const w: Workload = {
    count,
    kind: new Uint8Array(count),
    side: new Uint8Array(count),
    price: new Int32Array(count),
    qty: new Int32Array(count),
    id: new Float64Array(count),
  };
  const book = new OrderBook(MAX_TICK, 1 << 16);
  const live: number[] = [];
  let mid = MID_START;
  let nextId = 1;
  for (let i = 0; i < count; i++) {
    if (i % 64 === 0) mid = Math.min(MAX_TICK - 1000, Math.max(1000, mid + random.int(-2, 2)));
    const r = random.next();
    const side = random.chance(0.5) ? BUY : SELL;
    w.side[i] = side;
    let target = -1;
    if (r >= 0.6 && r < 0.85) {
      while (live.length > 0) {
        const at = random.int(0, live.length - 1);
        const candidate = live[at] as number;
        live[at] = live[live.length - 1] as number;
        live.pop();
        if (book.has(candidate)) {
          target = candidate;
          break;
        }
      }
    }
    if (target !== -1) {
      w.kind[i] = OP_CANCEL;
      w.id[i] = target;
      book.cancel(target);
    } else if (r >= 0.85) {
      w.kind[i] = OP_MARKET;
      w.qty[i] = random.int(1, 100);
      book.match(side, side === BUY ? MAX_TICK : 1, w.qty[i] as number, NO_OWNER, STP_CANCEL_RESTING);
    } else {
      // Mostly passive, one in eight crosses the spread by a few ticks.
      const offset = random.chance(0.125) ? -random.int(1, 5) : random.int(0, 40);
      const price = side === BUY ? mid - 1 - offset : mid + 1 + offset;
      const id = nextId++;
      w.kind[i] = OP_LIMIT;
      w.price[i] = price;
      w.qty[i] = random.int(1, 100);
      w.id[i] = id;
      const left = book.match(side, price, w.qty[i] as number, NO_OWNER, STP_CANCEL_RESTING);
      if (left > 0) {
        book.rest(id, side, price, left, NO_OWNER);
        live.push(id);
      }
    }
  }
  return w;
}
