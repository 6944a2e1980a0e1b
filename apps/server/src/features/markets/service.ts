// Market data for every screen that shows a price. In paper mode the simulator (@bourse/market) is
// driven by the server's clock: pump() advances it to now, folds its ticks into candles, keeps a short
// tape per instrument and tells subscribers. It never sees users, orders or positions (PRODUCT.md
// rule 1). History before the deployment's first start is generated deterministically from the seed
// on demand; candles made since are stored. The simulator's state is saved so a restart continues it.

import type { CountryView, QuoteView } from '@bourse/contract';
import type { Db } from '@bourse/db';
import {
  applyTick,
  type Candle,
  createSimulator,
  findInstrument,
  generateHistories,
  HISTORY_SPAN_DAYS,
  INSTRUMENTS,
  INTERVALS,
  type Instrument,
  type Interval,
  isAddedAtRunTime,
  isOpen,
  lastSessionQuotes,
  type MarketSimulator,
  nextClose,
  nextOpen,
  priceBand,
  restoreSimulator,
  type SimulatorSnapshot,
  type Tick,
  ticksToDecimal,
  timeZoneOf,
} from '@bourse/market';
import type { Clock } from '../../platform/clock.ts';
import * as repo from './repo.ts';

const DAY_MS = 86_400_000;
const TAPE_LENGTH = 50;
const SAVE_EVERY_MS = 60_000;
const CATCH_UP_MS = 10 * 60_000;
/** How far back generated history reaches per interval (the path itself spans HISTORY_SPAN_DAYS). */
const HISTORY_DAYS: Record<Interval, number> = {
  '1m': 3,
  '5m': 10,
  '15m': 30,
  '1h': 90,
  '1d': HISTORY_SPAN_DAYS,
  '1w': HISTORY_SPAN_DAYS,
};

export type TapeEntry = { id: number; priceTicks: number; sizeLots: number; timeMs: number; side: 'buy' | 'sell' };
export type MarketEvent =
  | { kind: 'ticker'; instrumentId: string }
  | { kind: 'trade'; instrumentId: string; entry: TapeEntry }
  | { kind: 'candle'; instrumentId: string; candle: Candle };

export class MarketData {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #seed: string;
  readonly #anchorMs: number;
  #sim: MarketSimulator;
  readonly #current = new Map<string, Candle>();
  readonly #closed: Candle[] = [];
  readonly #tape = new Map<string, TapeEntry[]>();
  readonly #history = new Map<string, Map<Interval, Candle[]>>();
  readonly #listeners = new Set<(e: MarketEvent) => void>();
  #tapeSeq = 0;
  #savedAt = 0;

  private constructor(db: Db, clock: Clock, seed: string, anchorMs: number, sim: MarketSimulator) {
    this.#db = db;
    this.#clock = clock;
    this.#seed = seed;
    this.#anchorMs = anchorMs;
    this.#sim = sim;
  }

  /** Continues the saved simulator (catching up over downtime) or starts one anchored at now. */
  static async open(db: Db, clock: Clock, seed: string): Promise<MarketData> {
    const row = await repo.findSimulatorState(db);
    const now = clock.now();
    let sim: MarketSimulator;
    let anchorMs: number;
    if (row) {
      const saved = JSON.parse(row.state) as { anchorMs: number; seed: string; snapshot: SimulatorSnapshot };
      // Instruments added to the catalogue since the state was saved (FX:USDINR) start publishing too.
      sim = restoreSimulator(saved.snapshot, { addNewInstruments: true });
      anchorMs = saved.anchorMs;
      seed = saved.seed;
      if (now - sim.timeMs > CATCH_UP_MS) sim.skipTo(now - 60_000);
    } else {
      anchorMs = Math.floor(now / 60_000) * 60_000;
      // Markets closed at the first start show their last session (close, change, volume) until they open,
      // not a blank 0.00% day.
      sim = createSimulator({ seed, startMs: anchorMs, initialQuotes: lastSessionQuotes({ seed, atMs: anchorMs }) });
    }
    const market = new MarketData(db, clock, seed, anchorMs, sim);
    await market.pump();
    await market.save();
    return market;
  }

  get seed(): string {
    return this.#seed;
  }

  /**
   * Starts publishing instruments added to the catalogue since the simulator started (a runtime listing):
   * each begins at its start price now and moves on its own seeded stream (derived from its id).
   */
  async publishNewInstruments(): Promise<void> {
    this.#sim = restoreSimulator(this.#sim.snapshot(), { addNewInstruments: true });
    await this.save();
  }

  onEvent(listener: (e: MarketEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Advances the market to the clock's now; called every second by the server (by hand in tests). */
  async pump(): Promise<Tick[]> {
    const now = this.#clock.now();
    if (now <= this.#sim.timeMs) return [];
    // A long gap (a stalled process, a test moving the clock by hours) is crossed on the coarse grid.
    if (now - this.#sim.timeMs > CATCH_UP_MS) this.#sim.skipTo(now - 60_000);
    const ticks = this.#sim.advanceTo(now);
    const touched = new Set<string>();
    for (const tick of ticks) {
      touched.add(tick.instrumentId);
      this.#record(tick);
    }
    for (const id of touched) this.#emit({ kind: 'ticker', instrumentId: id });
    if (this.#closed.length > 0) await this.#flushCandles();
    if (now - this.#savedAt >= SAVE_EVERY_MS) await this.save();
    return ticks;
  }

  #record(tick: Tick) {
    const instrument = findInstrument(tick.instrumentId);
    if (!instrument) return;
    const zone = timeZoneOf(instrument);
    for (const interval of INTERVALS) {
      const key = `${tick.instrumentId}|${interval}`;
      const { closed, current } = applyTick(this.#current.get(key) ?? null, tick, interval, zone);
      if (closed) this.#closed.push(closed);
      this.#current.set(key, current);
      this.#emit({ kind: 'candle', instrumentId: tick.instrumentId, candle: current });
    }
    const tape = this.#tape.get(tick.instrumentId) ?? [];
    const previous = tape[tape.length - 1];
    const entry: TapeEntry = {
      id: ++this.#tapeSeq,
      priceTicks: tick.priceTicks,
      sizeLots: tick.sizeLots,
      timeMs: tick.timeMs,
      side: previous && tick.priceTicks < previous.priceTicks ? 'sell' : 'buy',
    };
    tape.push(entry);
    if (tape.length > TAPE_LENGTH) tape.shift();
    this.#tape.set(tick.instrumentId, tape);
    this.#emit({ kind: 'trade', instrumentId: tick.instrumentId, entry });
  }

  #emit(event: MarketEvent) {
    for (const listener of this.#listeners) listener(event);
  }

  async #flushCandles() {
    const batch = this.#closed.splice(0);
    await this.#db.transaction(async (tx) => {
      for (let i = 0; i < batch.length; i += 200) {
        const chunk = batch.slice(i, i + 200);
        await repo.insertCandles(tx, chunk);
      }
    });
  }

  async save(): Promise<void> {
    const now = this.#clock.now();
    const state = JSON.stringify({ anchorMs: this.#anchorMs, seed: this.#seed, snapshot: this.#sim.snapshot() });
    await repo.saveSimulatorState(this.#db, state, now);
    this.#savedAt = now;
  }

  instrument(idOrSymbol: string): Instrument | undefined {
    const direct = findInstrument(idOrSymbol);
    if (direct) return direct;
    const upper = idOrSymbol.toUpperCase();
    return INSTRUMENTS.find((i) => i.symbol === upper || i.id === upper);
  }

  quote(instrument: Instrument): QuoteView {
    const q = this.#sim.quote(instrument.id);
    const tick = instrument.tickSize;
    const last = q?.lastTicks ?? 0;
    const prev = q?.prevCloseTicks ?? last;
    const band = q?.band ?? (instrument.priceBandPct && prev > 0 ? priceBand(prev, instrument.priceBandPct) : null);
    const changeTicks = last - prev;
    // Percent with two decimals, from integers: round half away from zero.
    const bp = prev > 0 ? Math.round((changeTicks * 10_000) / prev) : 0;
    const lotDecimals = instrument.lotSize;
    return {
      id: instrument.id,
      symbol: instrument.symbol,
      name: instrument.name,
      exchange: instrument.exchange,
      country: instrument.country,
      kind: instrument.kind,
      currency: instrument.currency,
      price: ticksToDecimal(last, tick),
      change: ticksToDecimal(changeTicks, tick),
      changePct: (bp / 100).toFixed(2),
      open: ticksToDecimal(q?.openTicks ?? last, tick),
      high: ticksToDecimal(q?.highTicks ?? last, tick),
      low: ticksToDecimal(q?.lowTicks ?? last, tick),
      prevClose: ticksToDecimal(prev, tick),
      volume: ticksToDecimal(q?.volumeLots ?? 0, lotDecimals),
      time: q?.timeMs ?? this.#sim.timeMs,
      isOpen: instrument.listed && isOpen(instrument.exchange, this.#clock.now()),
      listed: instrument.listed,
      tickSize: tick,
      lot: Math.max(1, Math.trunc(Number(instrument.lotSize))),
      bandLo: band ? ticksToDecimal(band.lowerTicks, tick) : null,
      bandHi: band ? ticksToDecimal(band.upperTicks, tick) : null,
    };
  }

  /** Raw state for the trading side: last price, previous close and band in ticks, the session day. */
  lastTicks(instrumentId: string): {
    lastTicks: number;
    prevCloseTicks: number;
    tradingDay: string | null;
    band: { lowerTicks: number; upperTicks: number } | null;
  } | null {
    const q = this.#sim.quote(instrumentId);
    return q
      ? { lastTicks: q.lastTicks, prevCloseTicks: q.prevCloseTicks, tradingDay: q.tradingDay, band: q.band }
      : null;
  }

  tape(instrumentId: string): TapeEntry[] {
    return [...(this.#tape.get(instrumentId) ?? [])].reverse();
  }

  countries(now = this.#clock.now()): CountryView[] {
    const markets = [
      { code: 'IN' as const, name: 'India', currency: 'INR', exchanges: ['NSE', 'BSE'], calendar: 'NSE' as const },
      {
        code: 'US' as const,
        name: 'United States',
        currency: 'USD',
        exchanges: ['NYSE', 'NASDAQ'],
        calendar: 'NYSE' as const,
      },
      { code: 'BR' as const, name: 'Brazil', currency: 'BRL', exchanges: ['B3'], calendar: 'B3' as const },
    ];
    return markets.map((m) => ({
      code: m.code,
      name: m.name,
      currency: m.currency,
      exchanges: m.exchanges,
      isOpen: isOpen(m.calendar, now),
      nextOpen: nextOpen(m.calendar, now),
      nextClose: nextClose(m.calendar, now),
    }));
  }

  /** The last `limit` candles before `beforeMs`: generated history, stored live candles, the one in progress. */
  async candles(
    instrument: Instrument,
    interval: Interval,
    limit: number,
    beforeMs = Number.POSITIVE_INFINITY,
  ): Promise<Candle[]> {
    const live = (
      await repo.listCandlesBefore(
        this.#db,
        instrument.id,
        interval,
        Number.isFinite(beforeMs) ? beforeMs : Number.MAX_SAFE_INTEGER,
        limit,
      )
    )
      .reverse()
      .map((r) => ({
        instrumentId: instrument.id,
        interval,
        startMs: Number(r.start_ms),
        open: Number(r.open_ticks),
        high: Number(r.high_ticks),
        low: Number(r.low_ticks),
        close: Number(r.close_ticks),
        volumeLots: Number(r.volume_lots),
      }));
    const current = this.#current.get(`${instrument.id}|${interval}`);
    if (current && current.startMs < beforeMs) live.push(current);
    // A runtime listing has no past before its listing: nothing is generated for it.
    const history =
      instrument.listed && !isAddedAtRunTime(instrument.id)
        ? this.#historyOf(instrument, interval).filter((c) => c.startMs < beforeMs)
        : [];
    const firstLive = live[0]?.startMs ?? Number.POSITIVE_INFINITY;
    const merged = [...history.filter((c) => c.startMs < firstLive), ...live];
    return merged.slice(-limit);
  }

  #historyOf(instrument: Instrument, interval: Interval): Candle[] {
    let cached = this.#history.get(instrument.id);
    if (!cached) {
      const windows = INTERVALS.map((i) => ({
        interval: i,
        fromMs: this.#anchorMs - HISTORY_DAYS[i] * DAY_MS,
        toMs: this.#anchorMs,
      }));
      const all = generateHistories({
        instrumentId: instrument.id,
        seed: this.#seed,
        anchorMs: this.#anchorMs,
        windows,
      });
      cached = new Map(INTERVALS.map((i, k) => [i, all[k] ?? []]));
      this.#history.set(instrument.id, cached);
    }
    return cached.get(interval) ?? [];
  }
}
