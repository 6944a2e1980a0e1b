// Owns the PriceFeed port: how the server pulls market data, from the simulator (paper) or a live adapter.
// Must hold: a feed returns each tick once, in time order, never later than the time it is advanced to;
// problems in vendor data are values, not exceptions. Must not: see users, orders or positions.

import type { PriceBand } from './price.ts';
import type { MarketSimulator } from './simulator.ts';

/** One price print: `priceTicks` in the instrument's tick size, `sizeLots` in its lot size (0 for indices/FX). */
export type Tick = {
  readonly instrumentId: string;
  readonly timeMs: number;
  readonly priceTicks: number;
  readonly sizeLots: number;
};

/** The day's statistics of an instrument, as of its last tick. */
export type Quote = {
  readonly instrumentId: string;
  /** Local date of the session the statistics belong to; null before the first tick. */
  readonly tradingDay: string | null;
  readonly timeMs: number | null;
  readonly lastTicks: number;
  readonly prevCloseTicks: number;
  readonly openTicks: number | null;
  readonly highTicks: number | null;
  readonly lowTicks: number | null;
  readonly volumeLots: number;
  /** The band the day's prices stay in (from the previous close), or null. */
  readonly band: PriceBand | null;
};

/** Closed list of what can be wrong with a live feed's data. */
export type FeedProblemCode =
  | 'malformed_response'
  | 'unknown_instrument'
  | 'instrument_not_listed'
  | 'price_off_tick'
  | 'size_off_lot'
  | 'bad_time'
  | 'fetch_failed';

export type FeedProblem = { readonly code: FeedProblemCode; readonly detail: string };

export type FeedUpdate = { readonly ticks: readonly Tick[]; readonly problems: readonly FeedProblem[] };

/**
 * The market-data port. The server drives it with its own clock: every call returns what happened since the
 * previous call up to `timeMs`. The simulator answers synchronously; a live adapter may wait on the network.
 */
export type PriceFeed = {
  readonly source: 'simulator' | 'live';
  advanceTo(timeMs: number): Promise<FeedUpdate>;
};

/** The simulator as a PriceFeed (paper mode). */
export function simulatorFeed(simulator: MarketSimulator): PriceFeed {
  return {
    source: 'simulator',
    advanceTo: (timeMs) => Promise.resolve({ ticks: simulator.advanceTo(timeMs), problems: [] }),
  };
}
