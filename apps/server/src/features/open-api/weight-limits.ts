// Request weight per minute, Binance's way: each call costs a weight; a caller (an API key, or the
// address of an unsigned call) spends at most `limit` per clock minute, then gets 429 with Retry-After
// until the next minute. Memory holds only the current minute's callers.

import type { Clock } from '../../platform/clock.ts';

const MINUTE_MS = 60_000;

export class WeightLimits {
  readonly #limit: number;
  readonly #clock: Clock;
  #minute = -1;
  #used = new Map<string, number>();
  constructor(limit: number, clock: Clock) {
    this.#limit = limit;
    this.#clock = clock;
  }

  get limit(): number {
    return this.#limit;
  }

  /** Spends `weight` for `caller`: the weight used this minute, or the seconds to wait if over. */
  spend(
    caller: string,
    weight: number,
  ): { ok: true; used: number } | { ok: false; used: number; retryAfterSec: number } {
    const now = this.#clock.now();
    const minute = Math.floor(now / MINUTE_MS);
    if (minute !== this.#minute) {
      this.#minute = minute;
      this.#used = new Map();
    }
    const used = (this.#used.get(caller) ?? 0) + weight;
    this.#used.set(caller, used);
    if (used > this.#limit) {
      return { ok: false, used, retryAfterSec: Math.max(1, Math.ceil(((minute + 1) * MINUTE_MS - now) / 1000)) };
    }
    return { ok: true, used };
  }
}
