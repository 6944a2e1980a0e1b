// The strategies as pure functions: the same input and seed give the same orders (replayed ticks and
// the back-test rely on it); the grid, DCA and trend rules place what they claim; the performance fee is
// taken only from profit above the high-water mark; the back-test is deterministic and accounts exactly.
// Stock variants (per seed): nothing while the exchange is closed, whole shares only, prices kept inside
// the day's band, and shares still locked until settlement never sold.

import { describe, expect, it } from 'vitest';
import {
  backtest,
  type Candle,
  decide,
  gridLines,
  insideBand,
  lotsFor,
  marketLimitTicks,
  performanceFee,
  type Sizing,
  type StrategyInput,
} from './strategies.ts';

/** One lot at `ticks` is worth `ticks` minor units (a tick of 1 minor unit, a lot of one coin). */
const sizing: Sizing = { notional: (ticks, lots) => BigInt(ticks) * BigInt(lots), feeBps: 10 };

const input = (over: Partial<StrategyInput>): StrategyInput => ({
  params: { kind: 'grid', lowTicks: 900, highTicks: 1100, levels: 4 },
  market: { nowMs: 1_000, lastTicks: 1_000, closes: [] },
  wallet: { quoteMinor: 100_000n, baseLots: 0 },
  open: [],
  memo: {},
  capitalMinor: 100_000n,
  sizing,
  seed: 7,
  ...over,
});

describe('grid', () => {
  it('draws levels + 1 lines from low to high', () => {
    expect(gridLines({ kind: 'grid', lowTicks: 900, highTicks: 1100, levels: 4 })).toEqual([
      900, 950, 1000, 1050, 1100,
    ]);
  });

  it('buys the parts above the price at the start, then keeps one buy below and one sell above', () => {
    const first = decide(input({}));
    // 100,000 / 4 levels = 25,000 a level; at the middle (1,000) with a 0.1% fee: 24 lots a level.
    expect(first.place).toEqual([
      { tag: 'g:open', side: 'buy', type: 'market', priceTicks: marketLimitTicks('buy', 1_000), qtyLots: 48 },
    ]);
    expect(first.memo.init).toBe(true);
    const second = decide(input({ memo: first.memo, wallet: { quoteMinor: 51_000n, baseLots: 48 } }));
    expect(second.cancel).toEqual([]);
    expect(second.place).toEqual([
      { tag: 'g:b:950', side: 'buy', type: 'limit', priceTicks: 950, qtyLots: 24 },
      { tag: 'g:s:1050', side: 'sell', type: 'limit', priceTicks: 1050, qtyLots: 24 },
    ]);
    // Nothing changes while the price stays between the lines: no churn.
    const open = second.place.map(({ tag, side, priceTicks, qtyLots }) => ({ tag, side, priceTicks, qtyLots }));
    const idle = decide(input({ memo: first.memo, open, wallet: { quoteMinor: 51_000n, baseLots: 48 } }));
    expect(idle).toEqual({ cancel: [], place: [], memo: first.memo });
    // The price fell through 950 (the buy filled): the pair moves one line down.
    const moved = decide(
      input({
        memo: first.memo,
        open: open.filter((o) => o.side === 'sell'),
        market: { nowMs: 2_000, lastTicks: 940, closes: [] },
        wallet: { quoteMinor: 28_000n, baseLots: 72 },
      }),
    );
    expect(moved.cancel).toEqual(['g:s:1050']);
    expect(moved.place.map((p) => p.tag)).toEqual(['g:b:900', 'g:s:950']);
  });

  it('places no sell without a part to sell, and nothing when a level buys less than a lot', () => {
    const d = decide(input({ memo: { init: true }, wallet: { quoteMinor: 100_000n, baseLots: 0 } }));
    expect(d.place.map((p) => p.side)).toEqual(['buy']);
    expect(decide(input({ capitalMinor: 100n })).place).toEqual([]);
  });
});

describe('DCA', () => {
  const params = { kind: 'dca' as const, everyMs: 60_000, buyMinor: 10_000n };
  it('buys at the start and then once per interval, moved by the seed', () => {
    const first = decide(input({ params }));
    expect(first.place).toHaveLength(1);
    expect(first.place[0]).toMatchObject({ tag: 'd:0', side: 'buy', type: 'market', qtyLots: 9 });
    const next = first.memo.next as number;
    expect(next).toBeGreaterThanOrEqual(61_000);
    expect(next).toBeLessThan(61_000 + 6_000);
    expect(
      decide(input({ params, memo: first.memo, market: { nowMs: next - 1, lastTicks: 1_000, closes: [] } })).place,
    ).toEqual([]);
    expect(
      decide(input({ params, memo: first.memo, market: { nowMs: next, lastTicks: 1_000, closes: [] } })).place[0]?.tag,
    ).toBe('d:1');
  });

  it('after missed ticks buys once and schedules from now, never a burst making up the gap', () => {
    const first = decide(input({ params }));
    // The job was away for ten intervals: one buy now, and the next is a full interval (plus the seed's
    // move) from now, so the tick right after buys nothing.
    const late = (first.memo.next as number) + 10 * 60_000;
    const resumed = decide(input({ params, memo: first.memo, market: { nowMs: late, lastTicks: 1_000, closes: [] } }));
    expect(resumed.place).toHaveLength(1);
    expect(resumed.memo.next as number).toBeGreaterThanOrEqual(late + 60_000);
    expect(resumed.memo.next as number).toBeLessThan(late + 66_000);
    const after = decide(
      input({ params, memo: resumed.memo, market: { nowMs: late + 5_000, lastTicks: 1_000, closes: [] } }),
    );
    expect(after.place).toEqual([]);
  });

  it('is deterministic under a seed, and another seed moves the schedule', () => {
    const a = decide(input({ params, seed: 1 }));
    expect(decide(input({ params, seed: 1 }))).toEqual(a);
    const schedules = new Set([1, 2, 3, 4, 5].map((seed) => decide(input({ params, seed })).memo.next));
    expect(schedules.size).toBeGreaterThan(1);
  });
});

describe('trend', () => {
  const params = { kind: 'trend' as const, fastPeriod: 2, slowPeriod: 4 };
  const at = (closes: number[], wallet = { quoteMinor: 100_000n, baseLots: 0 }) =>
    decide(input({ params, wallet, market: { nowMs: 0, lastTicks: closes.at(-1) as number, closes } }));
  it('buys when the fast average crosses above the slow one and sells all when it falls below', () => {
    expect(at([1000, 1000, 1000]).place).toEqual([]); // not enough closes yet
    const up = at([1000, 1000, 1010, 1020]);
    expect(up.place[0]).toMatchObject({ side: 'buy', type: 'market' });
    expect(at([1000, 1000, 1010, 1020], { quoteMinor: 0n, baseLots: 90 }).place).toEqual([]); // already in
    const down = at([1020, 1010, 1000, 990], { quoteMinor: 0n, baseLots: 90 });
    expect(down.place).toEqual([
      { tag: 't:0', side: 'sell', type: 'market', priceTicks: marketLimitTicks('sell', 990), qtyLots: 90 },
    ]);
  });
});

describe('sizing', () => {
  it('leaves room for the fee', () => {
    expect(lotsFor(10_010n, 1_000, sizing)).toBe(10);
    expect(lotsFor(10_009n, 1_000, sizing)).toBe(9);
  });
});

describe('performance fee (high-water mark)', () => {
  it('is the ratio of the profit above the mark only, rounded down', () => {
    expect(performanceFee(110_000n, 100_000n, 2_000)).toBe(2_000n);
    expect(performanceFee(100_001n, 100_000n, 2_000)).toBe(0n); // 0.2 rounds down
    expect(performanceFee(100_000n, 100_000n, 2_000)).toBe(0n);
    expect(performanceFee(90_000n, 100_000n, 2_000)).toBe(0n); // a loss pays nothing
    // Capital added raises the mark: winning back to it is no profit.
    expect(performanceFee(150_000n, 150_000n, 2_000)).toBe(0n);
  });
});

describe('back-test', () => {
  const candles: Candle[] = Array.from({ length: 48 }, (_, i) => {
    const close = 1_000 + Math.round(60 * Math.sin(i / 3));
    return { startMs: i * 3_600_000, high: close + 10, low: close - 10, close };
  });
  it('is deterministic, trades, and accounts for what it did', () => {
    const params = { kind: 'grid' as const, lowTicks: 920, highTicks: 1080, levels: 4 };
    const a = backtest({ params, candles, capitalMinor: 100_000n, sizing, seed: 3 });
    expect(a).not.toBeNull();
    expect(backtest({ params, candles, capitalMinor: 100_000n, sizing, seed: 3 })).toEqual(a);
    expect(a?.trades).toBeGreaterThan(2);
    expect(a?.feesMinor).toBeGreaterThan(0n);
    expect(a?.startMinor).toBe(100_000n);
    expect(a?.fromMs).toBe(0);
    expect(a?.toMs).toBe(47 * 3_600_000);
  });
  it('needs at least two candles', () => {
    expect(
      backtest({
        params: { kind: 'trend', fastPeriod: 2, slowPeriod: 4 },
        candles: [],
        capitalMinor: 1n,
        sizing,
        seed: 0,
      }),
    ).toBeNull();
  });
});

describe('stocks through the paper venue', () => {
  // NSE:RELIANCE-like: a tick of 0.05 INR (5 paise), a lot of one share; so a price of 1,510.00 is 30,200
  // ticks and a share costs 151,000 paise. The fee is 3 bp.
  const stock: Sizing = { notional: (ticks, lots) => BigInt(ticks) * 5n * BigInt(lots), feeBps: 3 };
  const strategies = [
    { kind: 'grid', lowTicks: 29_000, highTicks: 31_400, levels: 4 },
    { kind: 'dca', everyMs: 86_400_000, buyMinor: 500_000n },
    { kind: 'trend', fastPeriod: 2, slowPeriod: 4 },
  ] as const;
  const stockInput = (over: Partial<StrategyInput>, seed: number): StrategyInput =>
    input({
      market: { nowMs: 1_000, lastTicks: 30_200, closes: [30_000, 30_000, 30_100, 30_400], open: true },
      wallet: { quoteMinor: 10_000_000n, baseLots: 0 },
      capitalMinor: 10_000_000n,
      sizing: stock,
      seed,
      ...over,
    });

  for (const seed of [1, 7, 42, 2_026]) {
    describe(`seed ${seed}`, () => {
      it('places and cancels nothing while the exchange is closed, and keeps its memo', () => {
        for (const params of strategies) {
          const openNow = decide(stockInput({ params }, seed));
          expect(openNow.place.length, params.kind).toBeGreaterThan(0);
          const memo = { init: true, n: 3, next: 500 };
          const resting = [{ tag: 'g:b:29600', side: 'buy' as const, priceTicks: 29_600, qtyLots: 8 }];
          const closed = decide(
            stockInput(
              {
                params,
                memo,
                open: resting,
                market: { nowMs: 2_000, lastTicks: 30_200, closes: [30_000, 30_000, 30_100, 30_400], open: false },
              },
              seed,
            ),
          );
          expect(closed, params.kind).toEqual({ cancel: [], place: [], memo });
        }
      });

      it('buys whole shares only: the budget rounds down to a lot, fee included', () => {
        const first = decide(stockInput({ params: strategies[1] }, seed));
        // 5,000.00 INR at the buy limit (1,517.55 = 30,351 ticks) with 3 bp: 3 shares, never 3.29.
        expect(first.place).toEqual([
          { tag: 'd:0', side: 'buy', type: 'market', priceTicks: marketLimitTicks('buy', 30_200), qtyLots: 3 },
        ]);
        expect(marketLimitTicks('buy', 30_200)).toBe(30_351);
        expect(lotsFor(500_000n, 30_351, stock)).toBe(3);
        expect(lotsFor(455_000n, 30_351, stock)).toBe(2);
        // The same input, the same orders (replayed ticks).
        expect(decide(stockInput({ params: strategies[1] }, seed))).toEqual(first);
      });

      it('never sells shares still locked until settlement', () => {
        const falling = [30_400, 30_300, 30_000, 29_900];
        const market = { nowMs: 5_000, lastTicks: 29_900, closes: falling, open: true };
        const trend = strategies[2];
        // Everything bought today is locked (T+1): no sale, and the next tick may try again.
        const locked = decide(
          stockInput({ params: trend, market, wallet: { quoteMinor: 0n, baseLots: 10, lockedLots: 10 } }, seed),
        );
        expect(locked).toEqual({ cancel: [], place: [], memo: {} });
        // Part of it settled: only the settled part is sold.
        const part = decide(
          stockInput({ params: trend, market, wallet: { quoteMinor: 0n, baseLots: 10, lockedLots: 4 } }, seed),
        );
        expect(part.place).toEqual([
          { tag: 't:0', side: 'sell', type: 'market', priceTicks: marketLimitTicks('sell', 29_900), qtyLots: 6 },
        ]);
        // The grid puts up no sell while its part to sell is locked, only the buy below.
        const grid = strategies[0];
        const lotsPerLevel = lotsFor(10_000_000n / 4n, 30_200, stock);
        const gridLocked = decide(
          stockInput(
            {
              params: grid,
              memo: { init: true },
              wallet: { quoteMinor: 5_000_000n, baseLots: lotsPerLevel, lockedLots: lotsPerLevel },
            },
            seed,
          ),
        );
        expect(gridLocked.place.map((p) => p.side)).toEqual(['buy']);
        const gridSettled = decide(
          stockInput(
            { params: grid, memo: { init: true }, wallet: { quoteMinor: 5_000_000n, baseLots: lotsPerLevel } },
            seed,
          ),
        );
        expect(gridSettled.place.map((p) => p.side)).toEqual(['buy', 'sell']);
      });

      it("keeps prices inside the day's band", () => {
        const band = { loTicks: 29_800, hiTicks: 30_250 };
        const market = { nowMs: 1_000, lastTicks: 30_200, closes: [], open: true, band };
        // A market buy's limit (0.5% above) is held at the band's top; the grid's lines outside it wait.
        const dca = decide(stockInput({ params: strategies[1], market }, seed));
        expect(dca.place[0]?.priceTicks).toBe(30_250);
        const grid = decide(
          stockInput(
            {
              params: { kind: 'grid', lowTicks: 29_000, highTicks: 31_400, levels: 4 },
              market,
              memo: { init: true },
              wallet: { quoteMinor: 5_000_000n, baseLots: 100 },
            },
            seed,
          ),
        );
        // Lines 29,000 / 29,600 / 30,200 / 30,800 / 31,400: 29,600 is below the band, 30,800 above it.
        expect(grid.place).toEqual([]);
        expect(insideBand(29_600, band)).toBe(false);
        expect(marketLimitTicks('sell', 29_850, band)).toBe(29_800);
      });
    });
  }
});
