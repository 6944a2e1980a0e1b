// The shapes of run-time listings (ticks, lots, bands, factors) and that the simulator prices a listed
// instrument the same way every time: its path depends only on the seed, its id and when it was added.

import { describe, expect, it } from 'vitest';
import { addInstrument, findInstrument } from './instrument.ts';
import { magnitudeOf, newCoinInstrument, newStockInstrument } from './listing.ts';
import { createSimulator, restoreSimulator } from './simulator.ts';

describe('runtime listing', () => {
  it('shapes a stock like its exchange: NSE tick, 20% band, market factor; US without a band', () => {
    expect(
      newStockInstrument({ exchange: 'NSE', symbol: 'NOVAIND', name: 'Nova', issuePrice: '120.00' }),
    ).toMatchObject({
      id: 'NSE:NOVAIND',
      currency: 'INR',
      tickSize: '0.05',
      lotSize: '1',
      priceBandPct: 20,
      factor: { id: 'NSE:NIFTY50' },
      indices: [],
      startPrice: '120.00',
    });
    expect(newStockInstrument({ exchange: 'NASDAQ', symbol: 'NOVA', name: 'Nova', issuePrice: '18.00' })).toMatchObject(
      {
        currency: 'USD',
        priceBandPct: null,
      },
    );
    expect(() => newStockInstrument({ exchange: 'NSE', symbol: 'NOVA', name: 'Nova', issuePrice: '120.03' })).toThrow(
      /multiple/,
    );
    expect(() => newStockInstrument({ exchange: 'NSE', symbol: 'nova', name: 'Nova', issuePrice: '120' })).toThrow(
      /symbol/,
    );
  });

  it.each([
    ['95000', 8, '0.1', '0.00001'],
    ['0.1000', 8, '0.000001', '1'],
    ['0.16', 8, '0.000001', '1'],
    ['2.5', 2, '0.00001', '0.1'],
    ['0.004', 0, '0.00000001', '100'],
  ])('a coin at %s with scale %i: tick %s, lot %s', (price, scale, tick, lot) => {
    const coin = newCoinInstrument({ symbol: 'NOVA', name: 'Nova', scale, startPrice: price });
    expect(coin).toMatchObject({ id: 'CRYPTO:NOVAUSDT', baseAsset: 'NOVA', tickSize: tick, lotSize: lot });
  });

  it('reads a price magnitude exactly', () => {
    expect([magnitudeOf('95000'), magnitudeOf('0.16'), magnitudeOf('0.004'), magnitudeOf('7')]).toEqual([4, -1, -3, 0]);
  });

  it('adds to the catalogue once; the simulator prices the new instrument deterministically from its id', () => {
    const startMs = Date.UTC(2026, 0, 5, 4, 0);
    const coin = newCoinInstrument({ symbol: 'DETX', name: 'Det', scale: 8, startPrice: '2.000' });
    const run = () => {
      const sim = createSimulator({ seed: 'listing', startMs, instrumentIds: ['CRYPTO:BTCUSDT'] });
      sim.advanceTo(startMs + 60_000);
      const listed = restoreSimulator(sim.snapshot(), { addNewInstruments: true });
      expect(listed.quote(coin.id)?.lastTicks).toBe(200_000);
      return listed.advanceTo(startMs + 120_000).filter((tick) => tick.instrumentId === coin.id);
    };
    addInstrument(coin);
    addInstrument(coin);
    expect(findInstrument(coin.id)).toBe(coin);
    expect(() => addInstrument({ ...coin, startPrice: '3.000' })).toThrow(/already/);
    const first = run();
    expect(first.length).toBe(60);
    expect(run()).toEqual(first);
  });
});
