// Proves the chain's expiries follow the calendar (last trading day of the week and month, holidays
// moving it earlier), the strike grid, and that series codes round-trip.
import { describe, expect, it } from 'vitest';
import { sessionOn } from './calendar.ts';
import { findInstrument } from './instrument.ts';
import {
  isExpiryDay,
  OPTION_UNDERLYINGS,
  optionExpiries,
  parseSeriesCode,
  seriesCode,
  strikeStepMinor,
  strikesAround,
} from './options-chain.ts';

describe('option expiries', () => {
  it('lists weekly and monthly expiries at the session close, in order, once each', () => {
    // Monday 2026-11-23, 09:00 IST.
    const at = Date.UTC(2026, 10, 23, 3, 30);
    const list = optionExpiries('NSE', '2026-11-23', at, { weeks: 3, months: 2 });
    const days = list.map((e) => e.day);
    expect(days).toEqual([...new Set(days)].sort());
    for (const e of list) {
      expect(e.closeMs).toBe(sessionOn('NSE', e.day)?.closeMs);
      expect(isExpiryDay('NSE', e.day)).toBe(true);
    }
    // Friday 27 November is the week's last trading day; Monday 30 November is November's (a month end
    // on a Monday: the monthly expiry is the last trading day of the month, not a Friday).
    expect(days[0]).toBe('2026-11-27');
    expect(list.find((e) => e.day === '2026-11-30')?.cycle).toBe('monthly');
    expect(list.filter((e) => e.cycle === 'monthly')).toHaveLength(2);
  });

  it('drops an expiry whose close has passed', () => {
    const close = sessionOn('NSE', '2026-11-27')?.closeMs as number;
    expect(optionExpiries('NSE', '2026-11-27', close)[0]?.day).not.toBe('2026-11-27');
    expect(optionExpiries('NSE', '2026-11-27', close - 1)[0]?.day).toBe('2026-11-27');
  });

  it('moves a week’s expiry to the day before a Friday holiday', () => {
    // Christmas 2026 is a Friday: NYSE is closed, so the week's last trading day is Thursday 24 December.
    expect(sessionOn('NYSE', '2026-12-25')).toBeNull();
    expect(isExpiryDay('NYSE', '2026-12-24')).toBe(true);
  });
});

describe('strikes and series', () => {
  it('steps strikes at about 1% of spot', () => {
    expect(strikeStepMinor(25_000_00n)).toBe(250_00n);
    expect(strikeStepMinor(1_510_00n)).toBe(20_00n);
    expect(strikeStepMinor(270_00n)).toBe(2_50n);
    expect(strikesAround(25_010_00n, 250_00n, 2)).toEqual([24_500_00n, 24_750_00n, 25_000_00n, 25_250_00n, 25_500_00n]);
  });

  it('round-trips a series code', () => {
    const s = { underlying: 'NSE:NIFTY50', expiry: '2026-12-04', right: 'call' as const, strike: '25000' };
    expect(seriesCode(s)).toBe('NSE:NIFTY50/2026-12-04/C/25000');
    expect(parseSeriesCode(seriesCode(s))).toEqual(s);
    expect(parseSeriesCode('NYSE:BRK.B/2026-12-04/P/512.5')?.right).toBe('put');
    expect(parseSeriesCode('nonsense')).toBeNull();
  });

  it('names underlyings the catalogue has', () => {
    for (const list of Object.values(OPTION_UNDERLYINGS))
      for (const u of list) expect(findInstrument(u.instrumentId)?.annualVol, u.instrumentId).toBeGreaterThan(0);
  });
});
