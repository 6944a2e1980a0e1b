// Owns candles (OHLCV) and their aggregation from ticks or from finer candles, as pure functions.
// Must hold: a bucket starts on its interval in the exchange's local time (days and weeks on the local trading
// day, weeks from Monday); high ≥ max(open, close), low ≤ min(open, close), volume = sum of sizes.
// Must not: keep state between calls, or read the clock.

import type { Tick } from './feed.ts';
import { addDays, localDateOf, offsetMs, weekdayOf, zonedTimeToMs } from './time-zone.ts';

export const INTERVALS = ['1m', '5m', '15m', '1h', '1d', '1w'] as const;
export type Interval = (typeof INTERVALS)[number];

const INTRADAY_MS: Readonly<Record<string, number>> = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '1h': 3_600_000 };

/** Prices in ticks of the instrument, volume in lots. */
export type Candle = {
  readonly instrumentId: string;
  readonly interval: Interval;
  /** Bucket start (UTC ms); for 1d/1w the local midnight that starts the trading day / Monday. */
  readonly startMs: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volumeLots: number;
};

export function isInterval(value: string): value is Interval {
  return (INTERVALS as readonly string[]).includes(value);
}

/** Length of an intraday interval in ms, or null for 1d/1w (their length follows the calendar). */
export function intervalMs(interval: Interval): number | null {
  return INTRADAY_MS[interval] ?? null;
}

/** Start of the bucket holding `atMs`, aligned to the local wall clock of `timeZone`. */
export function bucketStartMs(interval: Interval, atMs: number, timeZone: string): number {
  const ms = INTRADAY_MS[interval];
  if (ms !== undefined) {
    const offset = offsetMs(atMs, timeZone);
    const local = atMs + offset;
    return local - (((local % ms) + ms) % ms) - offset;
  }
  const day = localDateOf(atMs, timeZone);
  if (interval === '1d') return zonedTimeToMs(day, '00:00', timeZone);
  return zonedTimeToMs(addDays(day, 1 - weekdayOf(day)), '00:00', timeZone);
}

/** End (exclusive) of the bucket that starts at `startMs`. */
export function bucketEndMs(interval: Interval, startMs: number, timeZone: string): number {
  const ms = INTRADAY_MS[interval];
  if (ms !== undefined) return startMs + ms;
  const day = localDateOf(startMs, timeZone);
  return zonedTimeToMs(addDays(day, interval === '1d' ? 1 : 7), '00:00', timeZone);
}

/**
 * Adds one tick to the candle being built. When the tick falls in a later bucket, the current candle is
 * returned as `closed` and a new one starts. Ticks must come in time order (an earlier one is a bug).
 */
export function applyTick(
  current: Candle | null,
  tick: Tick,
  interval: Interval,
  timeZone: string,
): { closed: Candle | null; current: Candle } {
  if (current && tick.instrumentId !== current.instrumentId) throw new Error('ticks of another instrument');
  if (current && tick.timeMs < current.startMs) throw new Error('ticks out of order');
  if (current && tick.timeMs < bucketEndMs(interval, current.startMs, timeZone)) {
    return {
      closed: null,
      current: {
        ...current,
        high: Math.max(current.high, tick.priceTicks),
        low: Math.min(current.low, tick.priceTicks),
        close: tick.priceTicks,
        volumeLots: current.volumeLots + tick.sizeLots,
      },
    };
  }
  return {
    closed: current,
    current: {
      instrumentId: tick.instrumentId,
      interval,
      startMs: bucketStartMs(interval, tick.timeMs, timeZone),
      open: tick.priceTicks,
      high: tick.priceTicks,
      low: tick.priceTicks,
      close: tick.priceTicks,
      volumeLots: tick.sizeLots,
    },
  };
}

/** Candles of one instrument's ticks (in time order); buckets without ticks are absent. */
export function aggregateTicks(ticks: readonly Tick[], interval: Interval, timeZone: string): Candle[] {
  const candles: Candle[] = [];
  let current: Candle | null = null;
  for (const tick of ticks) {
    const result = applyTick(current, tick, interval, timeZone);
    if (result.closed) candles.push(result.closed);
    current = result.current;
  }
  if (current) candles.push(current);
  return candles;
}

/** Merges finer candles of one instrument (in time order) into a coarser interval whose buckets contain theirs. */
export function aggregateCandles(candles: readonly Candle[], interval: Interval, timeZone: string): Candle[] {
  const out: Candle[] = [];
  let current: Candle | null = null;
  let currentEndMs = Number.NEGATIVE_INFINITY;
  for (const candle of candles) {
    if (current && candle.instrumentId !== current.instrumentId) throw new Error('candles of another instrument');
    if (current && candle.startMs < currentEndMs) {
      if (candle.startMs < current.startMs) throw new Error('candles out of order');
      const merged: Candle = {
        ...current,
        high: Math.max(current.high, candle.high),
        low: Math.min(current.low, candle.low),
        close: candle.close,
        volumeLots: current.volumeLots + candle.volumeLots,
      };
      current = merged;
      continue;
    }
    if (current) out.push(current);
    const startMs = bucketStartMs(interval, candle.startMs, timeZone);
    currentEndMs = bucketEndMs(interval, startMs, timeZone);
    current = { ...candle, interval, startMs };
  }
  if (current) out.push(current);
  return out;
}
