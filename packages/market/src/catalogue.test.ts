// Proves the catalogue is consistent: unique ids, the required coverage per market, start prices on the tick
// grid, factors that exist and come first, feasible volatilities, and crypto tick × lot worth at least 1e-6 USDT.
import { describe, expect, it } from 'vitest';
import { calendarOf } from './calendar.ts';
import { factorChain, findBySymbol, INSTRUMENTS, indexMembers, instrumentById, listInstruments } from './instrument.ts';
import { decimalToTicks, parseStep } from './price.ts';

describe('instrument catalogue', () => {
  it('has unique ids made of exchange and symbol', () => {
    const ids = INSTRUMENTS.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const i of INSTRUMENTS) expect(i.id).toBe(`${i.exchange}:${i.symbol}`);
    expect(findBySymbol('NSE', 'RELIANCE')?.name).toBe('Reliance Industries Ltd');
  });

  it('covers the NIFTY 50, NIFTY BANK, SENSEX, US large caps and indices, B3, crypto and BRL/USD', () => {
    expect(indexMembers('NSE:NIFTY50')).toHaveLength(50);
    expect(indexMembers('NSE:NIFTYBANK').length).toBeGreaterThanOrEqual(12);
    expect(indexMembers('BSE:SENSEX').length).toBeGreaterThanOrEqual(10);
    expect(listInstruments({ country: 'US', kind: 'stock' }).length).toBeGreaterThanOrEqual(30);
    for (const id of ['NYSE:SPX', 'NASDAQ:NDX', 'NYSE:DJI', 'B3:IBOV', 'BSE:SENSEX', 'NSE:NIFTYBANK']) {
      expect(instrumentById(id).kind).toBe('index');
    }
    expect(listInstruments({ exchange: 'B3', kind: 'stock' }).length).toBeGreaterThanOrEqual(20);
    for (const base of ['BTC', 'ETH', 'SOL', 'BNB', 'XRP', 'DOGE', 'ADA', 'TRX']) {
      const pair = instrumentById(`CRYPTO:${base}USDT`);
      expect(pair.currency).toBe('USDT');
      expect(pair.country).toBeNull();
    }
    expect(instrumentById('FX:USDBRL').kind).toBe('fx');
    expect(instrumentById('FX:BRLUSD').factor).toEqual({ id: 'FX:USDBRL', beta: -1 });
    expect(listInstruments({ listed: false }).length).toBeGreaterThanOrEqual(1);
  });

  it('puts start prices on the tick grid and uses the market tick sizes, currencies and bands', () => {
    for (const i of INSTRUMENTS) {
      expect(decimalToTicks(i.startPrice, i.tickSize), i.id).not.toBeNull();
      expect(i.annualVol, i.id).toBeGreaterThan(0);
      if (i.kind === 'stock' && (i.exchange === 'NSE' || i.exchange === 'BSE')) {
        expect(i.tickSize).toBe('0.05');
        expect(i.currency).toBe('INR');
        expect([2, 5, 10, 20]).toContain(i.priceBandPct);
      }
      if (i.kind === 'stock' && i.country !== 'IN') {
        expect(i.tickSize).toBe('0.01');
        expect(i.priceBandPct).toBeNull();
      }
      if (i.kind === 'stock') expect(i.lotSize).toBe('1');
    }
    const bands = new Set(listInstruments({ exchange: 'NSE', kind: 'stock' }).map((i) => i.priceBandPct));
    expect([...bands].map(Number).sort((a, b) => a - b)).toEqual([2, 5, 10, 20]);
  });

  it('lists every factor before what it drives, with a feasible own variance, and indices that exist', () => {
    const position = new Map(INSTRUMENTS.map((i, n) => [i.id, n]));
    for (const i of INSTRUMENTS) {
      expect(calendarOf(i.exchange).exchange).toBe(i.exchange);
      for (const index of i.indices) expect(instrumentById(index).kind).toBe('index');
      if (!i.factor) continue;
      const factor = instrumentById(i.factor.id);
      expect(factor.listed).toBe(true);
      expect(position.get(factor.id) ?? Infinity).toBeLessThan(position.get(i.id) ?? -1);
      expect(Math.abs(i.factor.beta) * factor.annualVol, i.id).toBeLessThanOrEqual(i.annualVol + 1e-12);
      expect(calendarOf(factor.exchange).timeZone).toBe(calendarOf(i.exchange).timeZone);
      expect(factorChain(i.id).at(-1)).toBe(i);
    }
  });

  it('keeps one tick × one lot of a crypto pair worth at least one USDT minor unit (1e-6)', () => {
    for (const pair of listInstruments({ kind: 'crypto' })) {
      const tick = parseStep(pair.tickSize);
      const lot = parseStep(pair.lotSize);
      // tick × lot ≥ 10^-6  ⇔  tick.units × lot.units × 10^6 ≥ 10^(tick.scale + lot.scale)
      expect(tick.units * lot.units * 10n ** 6n >= 10n ** BigInt(tick.scale + lot.scale), pair.id).toBe(true);
    }
  });
});
