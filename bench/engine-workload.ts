// Owns the engine benchmarks' seeded workload: one BTC/USDT instrument, 10,000 users with deposits, then
// a 60/25/15 mix of limit orders (7/8 passive within 40 ticks, 1/8 crossing by 1-5), cancels of orders
// that still rest, and market orders, quantities 1-100 lots, around a random-walking mid.
// Must hold: the same seed, the same chunking and the same results observed give the same commands.
// Must not: apply anything itself (the caller applies and reports each result through observe()).

import {
  type ApplyResult,
  type Command,
  EventReader,
  RECORD_EVENT,
  RECORD_FILL,
  RECORD_ORDER_PLACED,
  RECORD_ORDER_UPDATED,
  RECORD_TRADE,
} from '@bourse/engine';
import { btcUsdt, SeededRandom } from '@bourse/testkit';

export class EngineWorkload {
  static readonly DEFAULT_USERS = 10_000;
  readonly userCount: number;
  readonly #random: SeededRandom;
  readonly #users: string[];
  #n = 0;
  /** Live orders as [orderId, user index]; stale entries (filled since) are skipped lazily. */
  readonly #liveIds: number[] = [];
  readonly #liveUsers: number[] = [];
  #mid = 6_000_000;
  readonly #reader = new EventReader();

  constructor(seed: number, userCount = EngineWorkload.DEFAULT_USERS) {
    this.userCount = userCount;
    this.#random = new SeededRandom(seed);
    this.#users = Array.from({ length: userCount }, (_, i) => `user${i}`);
  }

  #base() {
    return { id: `b${this.#n++}`, timeMs: 1_700_000_000_000 + this.#n };
  }

  /** The instrument registration, then a USDT and a BTC deposit per user (1 + 2 × users commands). */
  setup(): Command[] {
    const commands: Command[] = [
      { ...this.#base(), type: 'register_instrument', instrument: btcUsdt({ maxPriceTicks: 20_000_000 }) },
    ];
    for (const userId of this.#users) {
      for (const [asset, amount] of [
        ['USDT', '10000000'],
        ['BTC', '100'],
      ] as const) {
        commands.push({
          ...this.#base(),
          type: 'deposit',
          userId,
          wallet: 'spot',
          asset,
          amount,
          from: 'faucet',
          cause: 'paper_grant',
        });
      }
    }
    return commands;
  }

  /** The `index`-th trading command (0-based); the mid moves every 64 commands. */
  next(index: number): Command {
    const random = this.#random;
    if (index % 64 === 0) this.#mid += random.int(-2, 2);
    const r = random.next();
    const u = random.int(0, this.userCount - 1);
    const userId = this.#users[u] as string;
    const liveIds = this.#liveIds;
    const liveUsers = this.#liveUsers;
    if (r >= 0.6 && r < 0.85 && liveIds.length > 0) {
      const at = random.int(0, liveIds.length - 1);
      const orderId = liveIds[at] as number;
      const owner = this.#users[liveUsers[at] as number] as string;
      liveIds[at] = liveIds[liveIds.length - 1] as number;
      liveUsers[at] = liveUsers[liveUsers.length - 1] as number;
      liveIds.pop();
      liveUsers.pop();
      return { ...this.#base(), type: 'cancel_order', userId: owner, orderId };
    }
    const side = random.chance(0.5) ? 'buy' : 'sell';
    if (r >= 0.85)
      return {
        ...this.#base(),
        type: 'place_order',
        userId,
        instrumentId: 'BTC-USDT',
        side,
        orderType: 'market',
        qtyLots: random.int(1, 100),
      };
    const offset = random.chance(0.125) ? -random.int(1, 5) : random.int(0, 40);
    const priceTicks = side === 'buy' ? this.#mid - 1 - offset : this.#mid + 1 + offset;
    return {
      ...this.#base(),
      type: 'place_order',
      userId,
      instrumentId: 'BTC-USDT',
      side,
      orderType: 'limit',
      priceTicks,
      qtyLots: random.int(1, 100),
    };
  }

  /**
   * Tells the workload a command's result (an order that still rests may be cancelled later) and
   * answers how many trades it made. The events are read in place (EventReader), as the host's
   * projection reads them: a success is not made into event objects.
   */
  observe(result: ApplyResult): number {
    if (!result.ok) return 0;
    const reader = this.#reader.read(result);
    let trades = 0;
    let placedId = -1;
    let placedUser = '';
    let first = true;
    let lastUpdated = -1;
    while (reader.next()) {
      let kind = reader.kind;
      let orderId = reader.orderId;
      let userId = reader.userId;
      if (kind === RECORD_EVENT) {
        // Events made elsewhere (the floor's answers).
        const e = reader.event as { type: string; orderId?: number; userId?: string };
        kind =
          e.type === 'order_placed'
            ? RECORD_ORDER_PLACED
            : e.type === 'order_updated'
              ? RECORD_ORDER_UPDATED
              : e.type === 'trade'
                ? RECORD_TRADE
                : RECORD_EVENT;
        orderId = e.orderId ?? -1;
        userId = e.userId ?? '';
      }
      if (kind === RECORD_FILL || kind === RECORD_TRADE) trades += 1;
      if (first && kind === RECORD_ORDER_PLACED) {
        placedId = orderId;
        placedUser = userId;
      }
      first = false;
      lastUpdated = kind === RECORD_ORDER_UPDATED ? orderId : -1;
    }
    // Placed, and its last event is not an update of it (that would say it finished): it rests.
    if (placedId !== -1 && lastUpdated !== placedId) {
      this.#liveIds.push(placedId);
      this.#liveUsers.push(Number(placedUser.slice(4)));
    }
    return trades;
  }
}
