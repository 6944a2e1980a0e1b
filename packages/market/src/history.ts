// Owns history generation at first start: candles back in time for one instrument, from the same model as the
// simulator, on a one-minute path that ends exactly at the catalogue's start price at `anchorMs`.
// Must hold: the path depends only on (seed, instrument, anchorMs), so every interval and window agrees with the
// others (1h candles aggregate to the 1d ones); prices stay in their band. Must not: read the clock.

import { calendarOf, type Session, sessionsBetween } from './calendar.ts';
import { type Candle, type Interval, intervalMs } from './candles.ts';
import { factorChain, instrumentById } from './instrument.ts';
import {
  initialModelState,
  type ModelParams,
  type ModelState,
  modelParamsOf,
  stepModel,
  stepVolumeLots,
} from './model.ts';
import { priceBand } from './price.ts';
import { nextUniform, rngFor } from './prng.ts';
import { addDays, offsetMs, weekdayOf, zonedTimeToMs } from './time-zone.ts';

/** The path starts this many days before the anchor; windows earlier than that are cut. */
export const HISTORY_SPAN_DAYS = 400;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export type HistoryWindow = { readonly interval: Interval; readonly fromMs: number; readonly toMs: number };

export type HistoryRequest = {
  readonly instrumentId: string;
  readonly seed: string | number;
  /** Where history ends and the live simulator starts (its startMs): the last close is the start price. */
  readonly anchorMs: number;
};

/** Candles whose bucket starts in [fromMs, toMs), complete buckets only, oldest first. */
export function generateHistory(request: HistoryRequest & HistoryWindow): Candle[] {
  const [candles] = generateHistories({ ...request, windows: [request] });
  return candles ?? [];
}

/** Several windows from one simulation of the path (cheaper than one call per window). */
export function generateHistories(
  request: HistoryRequest & { readonly windows: readonly HistoryWindow[] },
): Candle[][] {
  const instrument = instrumentById(request.instrumentId);
  const chain = factorChain(instrument.id).map(modelParamsOf);
  const target = chain[chain.length - 1];
  if (!target) throw new Error('empty factor chain');
  const anchorMs = Math.floor(request.anchorMs / MINUTE_MS) * MINUTE_MS;
  const originMs = anchorMs - HISTORY_SPAN_DAYS * DAY_MS;
  const sessions = sessionsBetween(instrument.exchange, originMs, anchorMs);
  const seed = `${String(request.seed)}#history`;

  // Pass 1 finds where the unshifted path ends; pass 2 replays it shifted so that it ends at the start price.
  const endLog = walk(chain, seed, sessions, originMs, anchorMs, null);
  const shift = Math.log(target.startTicks) - endLog;
  const builders = request.windows.map((w) => new WindowBuilder(instrument.id, w));
  const lastToMs = Math.min(anchorMs, Math.max(...request.windows.map((w) => w.toMs + 8 * DAY_MS)));
  walk(chain, seed, sessions, originMs, lastToMs, { shift, target, builders });
  return builders.map((b) => b.finish());
}

type Emit = { readonly shift: number; readonly target: ModelParams; readonly builders: readonly WindowBuilder[] };

/** Runs the chain minute by minute over the sessions; returns the target's final log price. */
function walk(
  chain: readonly ModelParams[],
  seed: string,
  sessions: readonly Session[],
  fromMs: number,
  toMs: number,
  emit: Emit | null,
): number {
  const states: ModelState[] = chain.map((params) => initialModelState(params, seed));
  const last = chain.length - 1;
  const targetState = states[last] as ModelState;
  const targetParams = chain[last] as ModelParams;
  // Candle detail (intra-minute extremes, volume) has its own stream, so a factor's path is the same whether
  // it is generated as the target or behind a stock.
  const detailRng = rngFor(seed, `${targetParams.id}#candle`);
  let prevCloseTicks = 0;
  let lastCloseTicks = 0;
  let day = '';
  for (const session of sessions) {
    const startMs = Math.max(session.openMs, Math.ceil(fromMs / MINUTE_MS) * MINUTE_MS);
    const endMs = Math.min(session.closeMs, toMs);
    const context = emit ? sessionContext(session) : null;
    for (let m = startMs; m + MINUTE_MS <= endMs; m += MINUTE_MS) {
      const openLog = targetState.logPrice;
      for (let i = 0; i <= last; i++) {
        stepModel(
          chain[i] as ModelParams,
          states[i] as ModelState,
          m,
          MINUTE_MS,
          session,
          i > 0 ? (states[i - 1] as ModelState) : null,
        );
      }
      // Both passes draw the same detail, so pass 2 replays pass 1 exactly.
      const closeLog = targetState.logPrice;
      const s2 = targetState.lastStepVariance;
      const gapOpenLog = openLog + targetState.lastGap;
      const range = (closeLog - gapOpenLog) ** 2;
      const highLog = (gapOpenLog + closeLog + Math.sqrt(range - 2 * s2 * Math.log(nextUniform(detailRng)))) / 2;
      const lowLog = (gapOpenLog + closeLog - Math.sqrt(range - 2 * s2 * Math.log(nextUniform(detailRng)))) / 2;
      const volumeLots = stepVolumeLots(targetParams, targetState, m, MINUTE_MS, session, detailRng);
      if (!emit || !context) continue;

      if (session.tradingDay !== day) {
        prevCloseTicks = day === '' ? toTicks(openLog, emit.shift) : lastCloseTicks;
        day = session.tradingDay;
      }
      const band = priceBand(prevCloseTicks, targetParams.bandPct);
      const clamp = (ticks: number) => (band ? Math.min(band.upperTicks, Math.max(band.lowerTicks, ticks)) : ticks);
      const open = clamp(toTicks(gapOpenLog, emit.shift));
      const close = clamp(toTicks(closeLog, emit.shift));
      const candle = {
        startMs: m,
        open,
        high: Math.max(open, close, clamp(toTicks(highLog, emit.shift))),
        low: Math.min(open, close, clamp(toTicks(lowLog, emit.shift))),
        close,
        volumeLots,
      };
      lastCloseTicks = close;
      for (const builder of emit.builders) builder.add(candle, context);
    }
  }
  return targetState.logPrice;
}

function toTicks(logPrice: number, shift: number): number {
  return Math.max(1, Math.round(Math.exp(logPrice + shift)));
}

type SessionContext = { readonly offsetMs: number; readonly dayStartMs: number; readonly weekStartMs: number };

function sessionContext(session: Session): SessionContext {
  const zone = calendarOf(session.exchange).timeZone;
  const monday = addDays(session.tradingDay, 1 - weekdayOf(session.tradingDay));
  return {
    offsetMs: offsetMs(session.openMs, zone),
    dayStartMs: zonedTimeToMs(session.tradingDay, '00:00', zone),
    weekStartMs: zonedTimeToMs(monday, '00:00', zone),
  };
}

type MinuteCandle = { startMs: number; open: number; high: number; low: number; close: number; volumeLots: number };

/** Streams minute candles into one window's interval (bucket starts computed from the session's offset). */
class WindowBuilder {
  private readonly out: Candle[] = [];
  private current: Candle | null = null;
  private readonly stepMs: number | null;
  private readonly instrumentId: string;
  private readonly window: HistoryWindow;

  constructor(instrumentId: string, window: HistoryWindow) {
    this.instrumentId = instrumentId;
    this.window = window;
    this.stepMs = intervalMs(window.interval);
  }

  add(minute: MinuteCandle, context: SessionContext): void {
    const startMs = this.bucketOf(minute.startMs, context);
    if (startMs < this.window.fromMs || startMs >= this.window.toMs) return;
    const c = this.current;
    if (c && c.startMs === startMs) {
      this.current = {
        ...c,
        high: Math.max(c.high, minute.high),
        low: Math.min(c.low, minute.low),
        close: minute.close,
        volumeLots: c.volumeLots + minute.volumeLots,
      };
      return;
    }
    if (c) this.out.push(c);
    this.current = { instrumentId: this.instrumentId, interval: this.window.interval, ...minute, startMs };
  }

  finish(): Candle[] {
    if (this.current) this.out.push(this.current);
    this.current = null;
    return this.out;
  }

  private bucketOf(atMs: number, context: SessionContext): number {
    if (this.stepMs !== null) {
      const local = atMs + context.offsetMs;
      return local - (local % this.stepMs) - context.offsetMs;
    }
    return this.window.interval === '1d' ? context.dayStartMs : context.weekStartMs;
  }
}
