// Where and when block trades happen, as data: the exchanges that have block-deal windows, their windows
// in the exchange's local time (DOMAIN.md: NSE/BSE 08:45–09:00 and 14:05–14:20 Asia/Kolkata) on its
// trading days (the exchange calendar), and the band around the reference price an offer's price must be
// in (NSE: ±1%). Must not: read the clock (times come in).

import { addDays, calendarOf, type ExchangeId, isTradingDay, localDateOf, zonedTimeToMs } from '@bourse/market';

export type BlockMarket = { windows: readonly (readonly [open: string, close: string])[]; bandBps: number };

export const BLOCK_MARKETS: Partial<Record<ExchangeId, BlockMarket>> = {
  NSE: {
    windows: [
      ['08:45', '09:00'],
      ['14:05', '14:20'],
    ],
    bandBps: 100,
  },
  BSE: {
    windows: [
      ['08:45', '09:00'],
      ['14:05', '14:20'],
    ],
    bandBps: 100,
  },
};

export type BlockWindow = { exchange: ExchangeId; opensAt: number; closesAt: number };

/**
 * The block windows of `exchange` that have not closed at `fromMs`, in time order, up to `count` of them
 * (the one open now first, if any). Empty for an exchange without block windows.
 */
export function blockWindowsFrom(exchange: ExchangeId, fromMs: number, count: number): BlockWindow[] {
  const market = BLOCK_MARKETS[exchange];
  if (!market) return [];
  const zone = calendarOf(exchange).timeZone;
  const out: BlockWindow[] = [];
  let day = localDateOf(fromMs, zone);
  // Two weeks of days always holds a trading day (holiday runs are shorter).
  for (let n = 0; n < 14 && out.length < count; n++, day = addDays(day, 1)) {
    if (!isTradingDay(exchange, day)) continue;
    for (const [open, close] of market.windows) {
      const window = { exchange, opensAt: zonedTimeToMs(day, open, zone), closesAt: zonedTimeToMs(day, close, zone) };
      if (window.closesAt > fromMs && out.length < count) out.push(window);
    }
  }
  return out;
}

/** The block window of `exchange` that opens exactly at `opensAt`, if there is one on a trading day. */
export function blockWindowAt(exchange: ExchangeId, opensAt: number): BlockWindow | undefined {
  return blockWindowsFrom(exchange, opensAt, 1).find((w) => w.opensAt === opensAt);
}

/** The lowest and highest price (in ticks) within `bandBps` of `referenceTicks`, on the tick grid. */
export function blockBand(referenceTicks: number, bandBps: number): { low: number; high: number } {
  const ref = BigInt(referenceTicks);
  const bps = BigInt(bandBps);
  const low = (ref * (10_000n - bps) + 9_999n) / 10_000n; // rounded up: never below the band
  const high = (ref * (10_000n + bps)) / 10_000n; // rounded down: never above it
  return { low: Number(low), high: Number(high) };
}
