// Proves history generation: it is deterministic, ends exactly at the start price at the anchor, fills every
// session, agrees across intervals (1m → 1h and 1h → 1d aggregate to the generated candles), keeps OHLC order and
// the band, and a stock's daily returns correlate with its index's.
import { describe, expect, it } from 'vitest';
import { isOpen, sessionsBetween } from './calendar.ts';
import { aggregateCandles, type Candle } from './candles.ts';
import { generateHistories, generateHistory } from './history.ts';
import { instrumentById } from './instrument.ts';
import { modelParamsOf } from './model.ts';
import { priceBand } from './price.ts';

const ANCHOR = Date.parse('2026-03-16T06:00:00Z'); // Monday, NSE in session
const DAY = 86_400_000;

describe('history', () => {
  it('is deterministic and ends at the catalogue start price at the anchor', () => {
    const request = {
      instrumentId: 'NSE:RELIANCE',
      seed: 'h1',
      anchorMs: ANCHOR,
      interval: '1d' as const,
      fromMs: ANCHOR - 365 * DAY,
      toMs: ANCHOR,
    };
    const a = generateHistory(request);
    expect(generateHistory(request)).toEqual(a);
    expect(generateHistory({ ...request, seed: 'h2' })).not.toEqual(a);
    expect(a.at(-1)?.close).toBe(modelParamsOf(instrumentById('NSE:RELIANCE')).startTicks);
    // One daily candle per session in the window (the anchor's own day is partly history).
    expect(a).toHaveLength(sessionsBetween('NSE', ANCHOR - 365 * DAY, ANCHOR).length);
  });

  it('agrees across intervals: minutes aggregate to the hours, hours to the days', () => {
    const fromMs = ANCHOR - 10 * DAY;
    const [minutes, hours, days] = generateHistories({
      instrumentId: 'NASDAQ:MSFT',
      seed: 'agree',
      anchorMs: ANCHOR,
      windows: [
        { interval: '1m', fromMs, toMs: ANCHOR },
        { interval: '1h', fromMs, toMs: ANCHOR },
        { interval: '1d', fromMs, toMs: ANCHOR },
      ],
    }) as [Candle[], Candle[], Candle[]];
    const zone = 'America/New_York';
    const fromMinutes = aggregateCandles(minutes, '1h', zone).filter((c) => c.startMs >= fromMs);
    expect(fromMinutes).toEqual(hours.filter((h) => h.startMs >= (fromMinutes[0]?.startMs ?? 0)));
    const dayFromHours = aggregateCandles(hours, '1d', zone);
    expect(dayFromHours.slice(1)).toEqual(days.filter((d) => d.startMs >= (dayFromHours[1]?.startMs ?? 0)));
    for (const m of minutes) expect(isOpen('NASDAQ', m.startMs)).toBe(true);
  });

  it('keeps OHLC order and the daily band, and fills a 24/7 market hour by hour', () => {
    const days = generateHistory({
      instrumentId: 'NSE:SUZLON',
      seed: 'band',
      anchorMs: ANCHOR,
      interval: '1d',
      fromMs: ANCHOR - 365 * DAY,
      toMs: ANCHOR,
    });
    for (let i = 0; i < days.length; i++) {
      const c = days[i] as Candle;
      expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
      expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
      if (i === 0) continue;
      const band = priceBand((days[i - 1] as Candle).close, 5);
      if (!band) throw new Error('band expected');
      expect(c.low).toBeGreaterThanOrEqual(band.lowerTicks);
      expect(c.high).toBeLessThanOrEqual(band.upperTicks);
    }
    const hours = generateHistory({
      instrumentId: 'CRYPTO:ETHUSDT',
      seed: 'x',
      anchorMs: Date.parse('2026-03-16T00:00:00Z'),
      interval: '1h',
      fromMs: Date.parse('2026-02-23T00:00:00Z'),
      toMs: Date.parse('2026-03-16T00:00:00Z'),
    });
    expect(hours).toHaveLength(21 * 24);
    expect(hours.every((h) => h.volumeLots > 0)).toBe(true);
  });

  it("moves a stock's daily closes with its index", () => {
    const window = {
      seed: 'corr',
      anchorMs: ANCHOR,
      interval: '1d' as const,
      fromMs: ANCHOR - 365 * DAY,
      toMs: ANCHOR,
    };
    const returns = (id: string) => {
      const c = generateHistory({ ...window, instrumentId: id });
      return c.slice(1).map((x, i) => Math.log(x.close / (c[i] as Candle).close));
    };
    const stock = returns('NSE:ICICIBANK');
    const index = returns('NSE:NIFTY50');
    expect(stock).toHaveLength(index.length);
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const ms = mean(stock);
    const mi = mean(index);
    let sxy = 0;
    let sxx = 0;
    let syy = 0;
    stock.forEach((s, i) => {
      const f = index[i] as number;
      sxy += (s - ms) * (f - mi);
      sxx += (s - ms) ** 2;
      syy += (f - mi) ** 2;
    });
    expect(sxy / Math.sqrt(sxx * syy)).toBeGreaterThan(0.3);
  });
});
