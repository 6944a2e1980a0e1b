// Owns the figures a newly started simulator shows for markets that are closed at its start: the last
// session's close, change, range and volume, so that a fresh deployment on a weekend is not all 0.00%.
// Must hold: deterministic in (seed, atMs); each figure's last price is the instrument's start price (where
// the live simulator and history meet). Must not: read the clock or touch an existing simulator's state.

import { currentOrNextSession, type Session, sessionsBetween } from './calendar.ts';
import type { ExchangeId } from './calendar-data.ts';
import { INSTRUMENTS, instrumentById } from './instrument.ts';
import { modelParamsOf } from './model.ts';
import { createSimulator, type QuoteState } from './simulator.ts';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** A closed market's last session is looked for this far back (long holidays included). */
const LOOK_BACK_DAYS = 14;

/** The last finished session of `exchange` before `atMs` when it is closed at `atMs`, else null. */
export function lastSessionIfClosed(exchange: ExchangeId, atMs: number): Session | null {
  if (currentOrNextSession(exchange, atMs).openMs <= atMs) return null;
  const past = sessionsBetween(exchange, atMs - LOOK_BACK_DAYS * DAY_MS, atMs).filter((s) => s.closeMs <= atMs);
  return past[past.length - 1] ?? null;
}

/**
 * Day statistics for every listed instrument (or those asked for) whose market is closed at `atMs`: a
 * simulation of their last session on the one-minute grid, scaled so that it closes at the start price.
 * Instruments of markets open at `atMs` are left out (their day starts with the simulator).
 */
export function lastSessionQuotes(options: {
  readonly seed: string | number;
  readonly atMs: number;
  readonly instrumentIds?: readonly string[];
}): Map<string, QuoteState> {
  const ids = options.instrumentIds ?? INSTRUMENTS.filter((i) => i.listed).map((i) => i.id);
  const lastSessions = new Map<ExchangeId, Session | null>();
  const sessionOf = (exchange: ExchangeId) => {
    if (!lastSessions.has(exchange)) lastSessions.set(exchange, lastSessionIfClosed(exchange, options.atMs));
    return lastSessions.get(exchange) ?? null;
  };
  const closed = ids.filter((id) => sessionOf(instrumentById(id).exchange) !== null);
  const out = new Map<string, QuoteState>();
  if (closed.length === 0) return out;
  const fromMs = Math.min(...closed.map((id) => (sessionOf(instrumentById(id).exchange) as Session).openMs));
  // Its own seed (and one per start), so the live simulator's path after the start does not repeat it.
  const sim = createSimulator({
    seed: `${String(options.seed)}#last-session#${fromMs}`,
    startMs: Math.floor(fromMs / MINUTE_MS) * MINUTE_MS - MINUTE_MS,
    instrumentIds: closed,
  });
  sim.skipTo(options.atMs);
  for (const id of closed) {
    const q = sim.quote(id);
    const session = sessionOf(instrumentById(id).exchange);
    if (!q || !session || q.tradingDay !== session.tradingDay || q.lastTicks <= 0) continue;
    const startTicks = modelParamsOf(instrumentById(id)).startTicks;
    // Ratios are what the session says; the level is where the live simulator starts.
    const scale = (ticks: number) => Math.max(1, Math.round((ticks * startTicks) / q.lastTicks));
    out.set(id, {
      tradingDay: q.tradingDay,
      timeMs: q.timeMs,
      lastTicks: startTicks,
      prevCloseTicks: scale(q.prevCloseTicks),
      openTicks: q.openTicks === null ? startTicks : scale(q.openTicks),
      highTicks: Math.max(startTicks, q.highTicks === null ? startTicks : scale(q.highTicks)),
      lowTicks: Math.min(startTicks, q.lowTicks === null ? startTicks : scale(q.lowTicks)),
      volumeLots: q.volumeLots,
    });
  }
  return out;
}
