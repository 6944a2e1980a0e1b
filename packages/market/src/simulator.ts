// Owns the paper-mode market simulator: it advances every simulated instrument on a fixed time grid and
// returns the ticks since the last call, tracking previous close and the day's open/high/low/volume.
// Must hold: its only inputs are the seed and the times it is advanced to (same seed and calls → same ticks);
// prices move only in session and never leave the band. Must not: read orders, positions, the clock or env.

import { calendarOf, currentOrNextSession, type Session } from './calendar.ts';
import type { ExchangeId } from './calendar-data.ts';
import type { Quote, Tick } from './feed.ts';
import { INSTRUMENTS, type Instrument, instrumentById } from './instrument.ts';
import {
  initialModelState,
  type ModelParams,
  type ModelState,
  modelParamsOf,
  stepModel,
  stepVolumeLots,
} from './model.ts';
import { priceBand } from './price.ts';

/** An instrument's day statistics as the simulator keeps them (a quote without its id and band). */
export type QuoteState = {
  tradingDay: string | null;
  timeMs: number | null;
  lastTicks: number;
  prevCloseTicks: number;
  openTicks: number | null;
  highTicks: number | null;
  lowTicks: number | null;
  volumeLots: number;
};

export type SimulatorSnapshot = {
  readonly version: 1;
  readonly seed: string | number;
  readonly startMs: number;
  readonly stepMs: number;
  readonly timeMs: number;
  readonly emitted: readonly string[];
  readonly instruments: readonly { readonly id: string; readonly model: ModelState; readonly quote: QuoteState }[];
};

export type SimulatorOptions = {
  readonly seed: string | number;
  /** Where the simulation starts: prices are the catalogue's start prices at this time. */
  readonly startMs: number;
  /** Grid spacing; ticks happen at whole multiples of it. Default 1000. */
  readonly stepMs?: number;
  /** Instruments to publish ticks for (default: every listed one); their factors are simulated too. */
  readonly instrumentIds?: readonly string[];
  /** advanceTo refuses a span that could produce more ticks than this (use skipTo for long gaps). */
  readonly maxTicksPerAdvance?: number;
  /**
   * Day statistics to start with instead of a blank day at the start price (see last-session.ts): the
   * last session's figures of a market closed at startMs. Their lastTicks must be the start price.
   */
  readonly initialQuotes?: ReadonlyMap<string, QuoteState>;
};

export type MarketSimulator = {
  readonly seed: string | number;
  readonly startMs: number;
  readonly stepMs: number;
  /** The time the simulator has been advanced to. */
  readonly timeMs: number;
  /** Ids it publishes, in catalogue order. */
  readonly instrumentIds: readonly string[];
  /** Steps to `timeMs` and returns the ticks with time in (previous timeMs, timeMs], in time order. */
  advanceTo(timeMs: number): Tick[];
  /** Steps to `timeMs` on a coarse one-minute grid without returning ticks (catching up after downtime). */
  skipTo(timeMs: number): void;
  quote(instrumentId: string): Quote | undefined;
  quotes(): Quote[];
  /** Plain JSON state: restoreSimulator(snapshot) continues exactly where this one is. */
  snapshot(): SimulatorSnapshot;
};

const DEFAULT_STEP_MS = 1000;
const SKIP_STEP_MS = 60_000;
const DEFAULT_MAX_TICKS = 5_000_000;

type Slot = {
  readonly instrument: Instrument;
  readonly params: ModelParams;
  readonly model: ModelState;
  readonly quote: QuoteState;
  readonly factor: Slot | null;
  readonly emit: boolean;
};

export function createSimulator(options: SimulatorOptions): MarketSimulator {
  const stepMs = options.stepMs ?? DEFAULT_STEP_MS;
  if (!Number.isSafeInteger(stepMs) || stepMs <= 0 || SKIP_STEP_MS % stepMs !== 0) {
    throw new Error(`stepMs must divide ${SKIP_STEP_MS}: ${stepMs}`);
  }
  const requested = options.instrumentIds ?? INSTRUMENTS.filter((i) => i.listed).map((i) => i.id);
  for (const id of requested) {
    if (!instrumentById(id).listed) throw new Error(`${id} is not listed: it has no prices`);
  }
  const needed = new Set<string>();
  for (const id of requested) {
    for (
      let current: Instrument | undefined = instrumentById(id);
      current;
      current = current.factor ? instrumentById(current.factor.id) : undefined
    ) {
      needed.add(current.id);
    }
  }
  const emitted = new Set(requested);
  const slots = buildSlots(needed, emitted, (instrument, params) => ({
    model: initialModelState(params, options.seed),
    quote: structuredClone(options.initialQuotes?.get(instrument.id)) ?? {
      tradingDay: null,
      timeMs: null,
      lastTicks: params.startTicks,
      prevCloseTicks: params.startTicks,
      openTicks: null,
      highTicks: null,
      lowTicks: null,
      volumeLots: 0,
    },
  }));
  return makeSimulator(
    options.seed,
    options.startMs,
    stepMs,
    options.startMs,
    slots,
    options.maxTicksPerAdvance ?? DEFAULT_MAX_TICKS,
  );
}

/** Continues a simulator from its snapshot (e.g. after a restart). */
export function restoreSimulator(
  snapshot: SimulatorSnapshot,
  options: {
    maxTicksPerAdvance?: number;
    /**
     * Also publish every listed catalogue instrument the snapshot does not have (one added to the
     * catalogue since it was saved, such as FX:USDINR), started at its start price at the snapshot's time.
     */
    addNewInstruments?: boolean;
  } = {},
): MarketSimulator {
  if (snapshot.version !== 1) throw new Error(`unknown simulator snapshot version ${String(snapshot.version)}`);
  const saved = new Map(snapshot.instruments.map((entry) => [entry.id, entry]));
  const needed = new Set(saved.keys());
  const emitted = new Set(snapshot.emitted);
  if (options.addNewInstruments) {
    for (const instrument of INSTRUMENTS) {
      if (!instrument.listed || saved.has(instrument.id)) continue;
      // The new instrument and any factor it has (a factor the snapshot has keeps its saved state).
      for (let current: Instrument | undefined = instrument; current; ) {
        needed.add(current.id);
        current = current.factor ? instrumentById(current.factor.id) : undefined;
      }
      emitted.add(instrument.id);
    }
  }
  const slots = buildSlots(needed, emitted, (instrument, params) => {
    const entry = saved.get(instrument.id);
    if (entry) return { model: structuredClone(entry.model), quote: structuredClone(entry.quote) };
    if (!options.addNewInstruments) throw new Error(`snapshot misses ${instrument.id}`);
    return {
      model: initialModelState(params, snapshot.seed),
      quote: {
        tradingDay: null,
        timeMs: null,
        lastTicks: params.startTicks,
        prevCloseTicks: params.startTicks,
        openTicks: null,
        highTicks: null,
        lowTicks: null,
        volumeLots: 0,
      },
    };
  });
  return makeSimulator(
    snapshot.seed,
    snapshot.startMs,
    snapshot.stepMs,
    snapshot.timeMs,
    slots,
    options.maxTicksPerAdvance ?? DEFAULT_MAX_TICKS,
  );
}

function buildSlots(
  needed: ReadonlySet<string>,
  emitted: ReadonlySet<string>,
  initial: (instrument: Instrument, params: ModelParams) => { model: ModelState; quote: QuoteState },
): Slot[] {
  const slots: Slot[] = [];
  const byId = new Map<string, Slot>();
  // Catalogue order puts every factor before what it drives, so one pass steps factors first.
  for (const instrument of INSTRUMENTS) {
    if (!needed.has(instrument.id)) continue;
    const params = modelParamsOf(instrument);
    const factor = params.factorId ? byId.get(params.factorId) : null;
    if (factor === undefined) throw new Error(`factor of ${instrument.id} comes after it in the catalogue`);
    const slot: Slot = { instrument, params, ...initial(instrument, params), factor, emit: emitted.has(instrument.id) };
    slots.push(slot);
    byId.set(instrument.id, slot);
  }
  return slots;
}

function makeSimulator(
  seed: string | number,
  startMs: number,
  stepMs: number,
  initialTimeMs: number,
  slots: Slot[],
  maxTicks: number,
): MarketSimulator {
  let timeMs = initialTimeMs;
  const exchanges = [...new Set(slots.map((s) => s.instrument.exchange))];
  const sessions = new Map<ExchangeId, Session>();
  const emitCount = slots.filter((s) => s.emit).length;

  /** The session of each exchange open at t, refreshing the cached one when t has passed its close. */
  const sessionFor = (exchange: ExchangeId, t: number): Session => {
    let session = sessions.get(exchange);
    if (!session || t >= session.closeMs) {
      session = currentOrNextSession(exchange, t);
      sessions.set(exchange, session);
    }
    return session;
  };

  const run = (targetMs: number, gridMs: number, out: Tick[] | null): void => {
    if (!Number.isFinite(targetMs)) throw new Error(`bad time ${targetMs}`);
    if (targetMs < timeMs) throw new Error(`time went backwards: ${targetMs} < ${timeMs}`);
    let t = (Math.floor(timeMs / gridMs) + 1) * gridMs;
    while (t <= targetMs) {
      let anyOpen = false;
      let nextOpenMs = Number.POSITIVE_INFINITY;
      for (const exchange of exchanges) {
        const session = sessionFor(exchange, t);
        if (session.openMs <= t) anyOpen = true;
        else nextOpenMs = Math.min(nextOpenMs, session.openMs);
      }
      if (!anyOpen) {
        // Nothing trades until the next open: jump to the first grid time at or after it.
        t = Math.ceil(nextOpenMs / gridMs) * gridMs;
        continue;
      }
      for (const slot of slots) {
        const session = sessionFor(slot.instrument.exchange, t);
        if (session.openMs > t) continue;
        stepSlot(slot, t, gridMs, session, out);
      }
      t += gridMs;
    }
    timeMs = targetMs;
  };

  return {
    seed,
    startMs,
    stepMs,
    get timeMs() {
      return timeMs;
    },
    instrumentIds: slots.filter((s) => s.emit).map((s) => s.instrument.id),
    advanceTo(targetMs) {
      const estimate = Math.floor((targetMs - timeMs) / stepMs) * emitCount;
      if (estimate > maxTicks) {
        throw new RangeError(
          `advancing ${targetMs - timeMs} ms could produce ${estimate} ticks (limit ${maxTicks}): use skipTo`,
        );
      }
      const out: Tick[] = [];
      run(targetMs, stepMs, out);
      return out;
    },
    skipTo(targetMs) {
      run(targetMs, Math.max(stepMs, SKIP_STEP_MS), null);
    },
    quote(instrumentId) {
      const slot = slots.find((s) => s.emit && s.instrument.id === instrumentId);
      return slot ? toQuote(slot) : undefined;
    },
    quotes() {
      return slots.filter((s) => s.emit).map(toQuote);
    },
    snapshot() {
      return structuredClone({
        version: 1 as const,
        seed,
        startMs,
        stepMs,
        timeMs,
        emitted: slots.filter((s) => s.emit).map((s) => s.instrument.id),
        instruments: slots.map((s) => ({ id: s.instrument.id, model: s.model, quote: s.quote })),
      });
    },
  };
}

function stepSlot(slot: Slot, t: number, gridMs: number, session: Session, out: Tick[] | null): void {
  const { params, model, quote } = slot;
  stepModel(params, model, t, gridMs, session, slot.factor?.model ?? null);
  if (quote.tradingDay !== session.tradingDay) {
    if (quote.tradingDay !== null) quote.prevCloseTicks = quote.lastTicks;
    quote.tradingDay = session.tradingDay;
    quote.openTicks = null;
    quote.highTicks = null;
    quote.lowTicks = null;
    quote.volumeLots = 0;
  }
  let ticks = Math.max(1, Math.round(Math.exp(model.logPrice)));
  const band = priceBand(quote.prevCloseTicks, params.bandPct);
  if (band) ticks = Math.min(band.upperTicks, Math.max(band.lowerTicks, ticks));
  const sizeLots = stepVolumeLots(params, model, t, gridMs, session, model.rng);
  quote.lastTicks = ticks;
  quote.timeMs = t;
  quote.openTicks ??= ticks;
  quote.highTicks = Math.max(quote.highTicks ?? ticks, ticks);
  quote.lowTicks = Math.min(quote.lowTicks ?? ticks, ticks);
  quote.volumeLots += sizeLots;
  if (out && slot.emit) out.push({ instrumentId: params.id, timeMs: t, priceTicks: ticks, sizeLots });
}

function toQuote(slot: Slot): Quote {
  const q = slot.quote;
  return { instrumentId: slot.instrument.id, ...q, band: priceBand(q.prevCloseTicks, slot.params.bandPct) };
}

/** The calendar time zone an instrument's days and candles are aligned to. */
export function timeZoneOf(instrument: Instrument): string {
  return calendarOf(instrument.exchange).timeZone;
}
