// Proves the simulator: the same seed and times give the same ticks however the calls are sliced, other seeds
// differ, snapshots resume exactly, prices move only in session and inside their band, returns are fat-tailed,
// stocks move with their index, volume is U-shaped, and the day's statistics are tracked.
import { describe, expect, it } from 'vitest';
import { isOpen, sessionOn } from './calendar.ts';
import type { Tick } from './feed.ts';
import { instrumentById, listInstruments } from './instrument.ts';
import { modelParamsOf } from './model.ts';
import { priceBand } from './price.ts';
import { createSimulator, restoreSimulator } from './simulator.ts';

const START = Date.parse('2026-03-02T00:00:00Z');
const DAY = 86_400_000;
const MINUTE = 60_000;

function run(seed: string, ids: readonly string[], days: number, stepMs = MINUTE, sliceMs = DAY): Tick[] {
  const sim = createSimulator({ seed, startMs: START, stepMs, instrumentIds: ids });
  const ticks: Tick[] = [];
  for (let t = START + sliceMs; t <= START + days * DAY; t += sliceMs) {
    for (const tick of sim.advanceTo(t)) ticks.push(tick);
  }
  return ticks;
}

const byInstrument = (ticks: readonly Tick[], id: string) => ticks.filter((t) => t.instrumentId === id);

function logReturnsWithinDays(ticks: readonly Tick[], exchange: 'NSE' | 'CRYPTO'): Map<number, number> {
  // Keyed by time so two instruments can be paired; the first tick of each day (overnight gap) is left out.
  const out = new Map<number, number>();
  for (let i = 1; i < ticks.length; i++) {
    const a = ticks[i - 1] as Tick;
    const b = ticks[i] as Tick;
    if (exchange === 'NSE' && b.timeMs - a.timeMs > MINUTE) continue;
    out.set(b.timeMs, Math.log(b.priceTicks / a.priceTicks));
  }
  return out;
}

function kurtosis(xs: readonly number[]): number {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  let m2 = 0;
  let m4 = 0;
  for (const x of xs) {
    m2 += (x - mean) ** 2;
    m4 += (x - mean) ** 4;
  }
  m2 /= xs.length;
  m4 /= xs.length;
  return m4 / (m2 * m2);
}

function correlation(pairs: readonly [number, number][]): number {
  const n = pairs.length;
  const mx = pairs.reduce((s, p) => s + p[0], 0) / n;
  const my = pairs.reduce((s, p) => s + p[1], 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of pairs) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

describe('market simulator', () => {
  const ids = ['NSE:NIFTY50', 'NSE:RELIANCE', 'NASDAQ:AAPL', 'CRYPTO:BTCUSDT', 'CRYPTO:ETHUSDT'];

  it('gives the same ticks for the same seed, however advanceTo is sliced, and other ticks for another seed', () => {
    const whole = run('seed-1', ids, 4, 5000, 4 * DAY);
    const sliced = run('seed-1', ids, 4, 5000, 3_600_000);
    expect(whole.length).toBeGreaterThan(10_000);
    expect(sliced).toEqual(whole);
    // A factor's path does not depend on which instruments are published.
    const alone = run('seed-1', ['NSE:NIFTY50'], 4, 5000, 4 * DAY);
    expect(alone).toEqual(byInstrument(whole, 'NSE:NIFTY50'));
    const other = run('seed-2', ids, 4, 5000, 4 * DAY);
    expect(other.map((t) => t.priceTicks)).not.toEqual(whole.map((t) => t.priceTicks));
  });

  it('resumes from a JSON snapshot exactly where it stopped', () => {
    const straight = createSimulator({ seed: 's', startMs: START, stepMs: 5000, instrumentIds: ids });
    const first = straight.advanceTo(START + 2 * DAY);
    const snapshot = JSON.parse(JSON.stringify(straight.snapshot()));
    const rest = straight.advanceTo(START + 3 * DAY);
    const resumed = restoreSimulator(snapshot);
    expect(first.length).toBeGreaterThan(0);
    expect(resumed.advanceTo(START + 3 * DAY)).toEqual(rest);
    expect(resumed.quotes()).toEqual(straight.quotes());
  });

  it('on request, starts the catalogue instruments a saved snapshot lacks, keeping the saved ones as they were', () => {
    // A deployment saved before FX:USDINR joined the catalogue (here: one that published only USD/BRL).
    const old = createSimulator({ seed: 's', startMs: START, stepMs: 5000, instrumentIds: ['FX:USDBRL'] });
    old.advanceTo(START + DAY);
    const snapshot = JSON.parse(JSON.stringify(old.snapshot()));
    expect(restoreSimulator(snapshot).quote('FX:USDINR')).toBeUndefined();
    const upgraded = restoreSimulator(snapshot, { addNewInstruments: true });
    expect(upgraded.quote('FX:USDINR')?.lastTicks).toBe(33_800); // 84.5000 at a tick of 0.0025
    expect(upgraded.quote('FX:USDBRL')).toEqual(old.quote('FX:USDBRL'));
    // Deterministic: the same snapshot upgraded twice moves the same way.
    const again = restoreSimulator(snapshot, { addNewInstruments: true });
    expect(again.advanceTo(START + 2 * DAY)).toEqual(upgraded.advanceTo(START + 2 * DAY));
  });

  it('prints only inside sessions, so nothing moves over a weekend or a holiday', () => {
    // 2026-03-23 .. 2026-04-06 holds a weekend, Ram Navami, Mahavir Jayanti and Good Friday.
    const sim = createSimulator({
      seed: 'h',
      startMs: Date.parse('2026-03-23T00:00:00Z'),
      stepMs: MINUTE,
      instrumentIds: ['NSE:TCS', 'NYSE:JPM', 'B3:VALE3', 'FX:USDBRL'],
    });
    const ticks = sim.advanceTo(Date.parse('2026-04-07T00:00:00Z'));
    for (const tick of ticks) expect(isOpen(instrumentById(tick.instrumentId).exchange, tick.timeMs)).toBe(true);
    const days = new Set(
      byInstrument(ticks, 'NSE:TCS').map((t) => new Date(t.timeMs + 19_800_000).toISOString().slice(0, 10)),
    );
    expect(days.has('2026-03-26')).toBe(false);
    expect(days.has('2026-04-03')).toBe(false);
    expect(days.has('2026-03-27')).toBe(true);
    // Between two sessions the quote keeps its last price.
    const before = sim.quote('NYSE:JPM');
    sim.advanceTo(Date.parse('2026-04-07T13:00:00Z'));
    expect(sim.quote('NYSE:JPM')).toEqual(before);
  });

  it('never prints outside the band around the previous close, whatever the seed', () => {
    const banded = listInstruments({ exchange: 'NSE', kind: 'stock', listed: true })
      .filter((i) => i.priceBandPct !== 10)
      .map((i) => i.id);
    expect(banded.length).toBeGreaterThanOrEqual(3);
    let touchedEdge = 0;
    for (const seed of ['band-1', 'band-2', 'band-3']) {
      const ticks = run(seed, [...banded, 'NSE:ADANIENT'], 40);
      for (const id of [...banded, 'NSE:ADANIENT']) {
        const own = byInstrument(ticks, id);
        const params = modelParamsOf(instrumentById(id));
        let prevClose = params.startTicks;
        let day = '';
        let last = prevClose;
        for (const tick of own) {
          const tickDay = new Date(tick.timeMs + 19_800_000).toISOString().slice(0, 10);
          if (tickDay !== day) {
            if (day !== '') prevClose = last;
            day = tickDay;
          }
          const band = priceBand(prevClose, params.bandPct);
          if (!band) throw new Error('NSE stocks have a band');
          expect(tick.priceTicks >= band.lowerTicks && tick.priceTicks <= band.upperTicks, `${id} ${tick.timeMs}`).toBe(
            true,
          );
          if (id !== 'NSE:GTLINFRA' && (tick.priceTicks === band.lowerTicks || tick.priceTicks === band.upperTicks))
            touchedEdge++;
          last = tick.priceTicks;
        }
      }
    }
    // The band really binds sometimes (a circuit is hit), so the check above is not vacuous.
    expect(touchedEdge).toBeGreaterThan(0);
  });

  it('has fat-tailed returns (kurtosis above 3) and stocks that move with their index', () => {
    const ticks = run('tails', ['NSE:NIFTY50', 'NSE:RELIANCE', 'NSE:HDFCBANK', 'CRYPTO:BTCUSDT', 'CRYPTO:ETHUSDT'], 60);
    const index = logReturnsWithinDays(byInstrument(ticks, 'NSE:NIFTY50'), 'NSE');
    const btc = logReturnsWithinDays(byInstrument(ticks, 'CRYPTO:BTCUSDT'), 'CRYPTO');
    expect(index.size).toBeGreaterThan(10_000);
    expect(kurtosis([...index.values()])).toBeGreaterThan(3);
    expect(kurtosis([...btc.values()])).toBeGreaterThan(3);
    for (const [stockId, indexReturns] of [
      ['NSE:RELIANCE', index],
      ['NSE:HDFCBANK', index],
      ['CRYPTO:ETHUSDT', btc],
    ] as const) {
      const stock = logReturnsWithinDays(byInstrument(ticks, stockId), stockId.startsWith('NSE') ? 'NSE' : 'CRYPTO');
      const pairs: [number, number][] = [];
      for (const [time, r] of stock) {
        const f = indexReturns.get(time);
        if (f !== undefined) pairs.push([r, f]);
      }
      expect(correlation(pairs), stockId).toBeGreaterThan(0.3);
    }
  });

  it('trades more near the open and the close than at midday (U-shaped volume)', () => {
    const ticks = byInstrument(run('volume', ['NSE:INFY'], 20), 'NSE:INFY');
    const sums = { edge: 0, edgeN: 0, middle: 0, middleN: 0 };
    for (const tick of ticks) {
      const session = sessionOn('NSE', new Date(tick.timeMs + 19_800_000).toISOString().slice(0, 10));
      if (!session) throw new Error('tick outside a trading day');
      const x = (tick.timeMs - session.openMs) / (session.closeMs - session.openMs);
      if (x < 0.1 || x > 0.9) {
        sums.edge += tick.sizeLots;
        sums.edgeN++;
      } else if (x > 0.4 && x < 0.6) {
        sums.middle += tick.sizeLots;
        sums.middleN++;
      }
    }
    expect(sums.edge / sums.edgeN).toBeGreaterThan((2 * sums.middle) / sums.middleN);
  });

  it("tracks the previous close and the day's open, high, low and volume", () => {
    // Monday 9 and Tuesday 10 March 2026 (3 March is Holi, a holiday).
    const monday = Date.parse('2026-03-09T00:00:00Z');
    const sim = createSimulator({
      seed: 'q',
      startMs: monday,
      stepMs: MINUTE,
      instrumentIds: ['NSE:SBIN', 'BSE:SBIN'],
    });
    const day1 = sim.advanceTo(monday + DAY);
    const day2 = sim.advanceTo(monday + 2 * DAY).filter((t) => t.instrumentId === 'NSE:SBIN');
    expect(day2.length).toBe(375);
    const quote = sim.quote('NSE:SBIN');
    const lastOfDay1 = byInstrument(day1, 'NSE:SBIN').at(-1);
    expect(quote?.prevCloseTicks).toBe(lastOfDay1?.priceTicks);
    expect(quote?.openTicks).toBe(day2[0]?.priceTicks);
    expect(quote?.highTicks).toBe(Math.max(...day2.map((t) => t.priceTicks)));
    expect(quote?.lowTicks).toBe(Math.min(...day2.map((t) => t.priceTicks)));
    expect(quote?.volumeLots).toBe(day2.reduce((s, t) => s + t.sizeLots, 0));
    expect(quote?.tradingDay).toBe('2026-03-10');
    // The BSE listing mirrors the NSE one.
    expect(sim.quote('BSE:SBIN')?.lastTicks).toBe(quote?.lastTicks);
  });

  it('starts at the catalogue price, refuses unlisted instruments and time going backwards, and can skip a gap', () => {
    const sim = createSimulator({
      seed: 'x',
      startMs: START,
      instrumentIds: ['CRYPTO:SOLUSDT'],
      maxTicksPerAdvance: 100_000,
    });
    expect(sim.quote('CRYPTO:SOLUSDT')?.lastTicks).toBe(14_000);
    expect(() => createSimulator({ seed: 'x', startMs: START, instrumentIds: ['NSE:JETAIRWAYS'] })).toThrow(
      /not listed/,
    );
    expect(createSimulator({ seed: 'x', startMs: START }).instrumentIds).not.toContain('NSE:JETAIRWAYS');
    sim.advanceTo(START + 10_000);
    expect(() => sim.advanceTo(START)).toThrow(/backwards/);
    expect(() => sim.advanceTo(START + 30 * DAY)).toThrow(RangeError);
    sim.skipTo(START + 30 * DAY);
    const after = sim.advanceTo(START + 30 * DAY + 10_000);
    expect(after).toHaveLength(10);
    expect(sim.quote('CRYPTO:SOLUSDT')?.tradingDay).toBe('2026-04-01');
  });
});
