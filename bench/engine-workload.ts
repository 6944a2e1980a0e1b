// Owns the engine benchmarks' seeded workload: one BTC/USDT instrument, 10,000 users with deposits, then
// a 60/25/15 mix of limit orders (7/8 passive within 40 ticks, 1/8 crossing by 1-5), cancels of orders
// that still rest, and market orders, quantities 1-100 lots, around a random-walking mid.
// Must hold: the same seed, the same chunking and the same results observed give the same commands.
// Must not: apply anything itself (the caller applies and reports each result through observe()).

import type { ApplyResult, Command } from '@bourse/engine';
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

  /** Tells the workload a command's result: an order that still rests may be cancelled later. */
  observe(result: ApplyResult): void {
    if (!result.ok) return;
    const first = result.events[0];
    if (first !== undefined && first.type === 'order_placed') {
      const last = result.events[result.events.length - 1];
      if (last === undefined || last.type !== 'order_updated' || last.orderId !== first.orderId) {
        this.#liveIds.push(first.orderId);
        this.#liveUsers.push(Number(first.userId.slice(4)));
      }
    }
  }
}
