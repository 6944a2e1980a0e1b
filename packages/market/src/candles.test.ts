// Proves candle building: buckets align to the exchange's local clock (days and Mondays in its time zone),
// and for any ticks high ≥ max(open, close), low ≤ min(open, close), volume = sum of sizes, and aggregating
// 1m candles into 5m (or 1h into 1d, 1d into 1w) equals aggregating the ticks directly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateCandles, aggregateTicks, applyTick, bucketStartMs, type Interval } from './candles.ts';
import type { Tick } from './feed.ts';

const utc = (iso: string) => Date.parse(iso);
const BASE = utc('2026-03-05T00:00:00Z');

const ticksArbitrary = fc
  .array(
    fc.record({
      dt: fc.integer({ min: 0, max: 40 * 60_000 }),
      price: fc.integer({ min: 1, max: 1_000_000 }),
      size: fc.integer({ min: 0, max: 10_000 }),
    }),
    { minLength: 1, maxLength: 300 },
  )
  .map((rows) => {
    let t = BASE;
    return rows.map((row): Tick => {
      t += row.dt;
      return { instrumentId: 'X', timeMs: t, priceTicks: row.price, sizeLots: row.size };
    });
  });

const ZONES = ['Asia/Kolkata', 'America/New_York', 'America/Sao_Paulo', 'UTC'];

describe('bucket alignment', () => {
  it('aligns intraday buckets to the local clock and days/weeks to local midnights', () => {
    // 10:20 IST = 04:50Z; the 1h bucket starts at 10:00 IST = 04:30Z, the 15m bucket at 10:15 IST.
    expect(bucketStartMs('1h', utc('2026-03-05T04:50:00Z'), 'Asia/Kolkata')).toBe(utc('2026-03-05T04:30:00Z'));
    expect(bucketStartMs('15m', utc('2026-03-05T04:50:00Z'), 'Asia/Kolkata')).toBe(utc('2026-03-05T04:45:00Z'));
    expect(bucketStartMs('1d', utc('2026-03-05T04:50:00Z'), 'Asia/Kolkata')).toBe(utc('2026-03-04T18:30:00Z'));
    // Thursday 5 March: the week starts Monday 2 March, local midnight.
    expect(bucketStartMs('1w', utc('2026-03-05T04:50:00Z'), 'Asia/Kolkata')).toBe(utc('2026-03-01T18:30:00Z'));
    // New York: the day bucket of a Monday after the DST switch starts at 04:00Z, the week's at 05:00Z (EST Monday).
    expect(bucketStartMs('1d', utc('2026-03-09T15:00:00Z'), 'America/New_York')).toBe(utc('2026-03-09T04:00:00Z'));
    expect(bucketStartMs('1w', utc('2026-03-10T15:00:00Z'), 'America/New_York')).toBe(utc('2026-03-09T04:00:00Z'));
    expect(bucketStartMs('1w', utc('2026-03-06T15:00:00Z'), 'America/New_York')).toBe(utc('2026-03-02T05:00:00Z'));
  });

  it('closes a candle when a tick falls into the next bucket', () => {
    const a = applyTick(
      null,
      { instrumentId: 'X', timeMs: utc('2026-03-05T10:00:10Z'), priceTicks: 100, sizeLots: 2 },
      '1m',
      'UTC',
    );
    const b = applyTick(
      a.current,
      { instrumentId: 'X', timeMs: utc('2026-03-05T10:00:50Z'), priceTicks: 90, sizeLots: 3 },
      '1m',
      'UTC',
    );
    const c = applyTick(
      b.current,
      { instrumentId: 'X', timeMs: utc('2026-03-05T10:01:00Z'), priceTicks: 95, sizeLots: 1 },
      '1m',
      'UTC',
    );
    expect(b.closed).toBeNull();
    expect(c.closed).toEqual({
      instrumentId: 'X',
      interval: '1m',
      startMs: utc('2026-03-05T10:00:00Z'),
      open: 100,
      high: 100,
      low: 90,
      close: 90,
      volumeLots: 5,
    });
    expect(c.current.open).toBe(95);
  });
});

describe('candle aggregation properties', () => {
  it('keeps high ≥ max(open, close), low ≤ min(open, close) and volume = sum of sizes', () => {
    fc.assert(
      fc.property(
        ticksArbitrary,
        fc.constantFrom<Interval>('1m', '5m', '15m', '1h', '1d', '1w'),
        fc.constantFrom(...ZONES),
        (ticks, interval, zone) => {
          const candles = aggregateTicks(ticks, interval, zone);
          for (const c of candles) {
            expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
            expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
          }
          expect(candles.reduce((s, c) => s + c.volumeLots, 0)).toBe(ticks.reduce((s, t) => s + t.sizeLots, 0));
          for (let i = 1; i < candles.length; i++)
            expect((candles[i] as { startMs: number }).startMs).toBeGreaterThan(
              (candles[i - 1] as { startMs: number }).startMs,
            );
          expect(candles[0]?.open).toBe(ticks[0]?.priceTicks);
          expect(candles.at(-1)?.close).toBe(ticks.at(-1)?.priceTicks);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('gives the same coarse candles from finer candles as from the ticks', () => {
    const pairs: [Interval, Interval][] = [
      ['1m', '5m'],
      ['5m', '15m'],
      ['15m', '1h'],
      ['1h', '1d'],
      ['1d', '1w'],
      ['1m', '1w'],
    ];
    fc.assert(
      fc.property(
        ticksArbitrary,
        fc.constantFrom(...pairs),
        fc.constantFrom(...ZONES),
        (ticks, [fine, coarse], zone) => {
          expect(aggregateCandles(aggregateTicks(ticks, fine, zone), coarse, zone)).toEqual(
            aggregateTicks(ticks, coarse, zone),
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});
