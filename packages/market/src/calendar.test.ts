// Proves the exchange calendars: holidays close, DST moves the NYSE open in UTC and B3's close with it,
// next open skips weekends and holidays, and trading-day arithmetic gives T+1 / D+2 settlement dates.
import { describe, expect, it } from 'vitest';
import {
  addTradingDays,
  isOpen,
  nextClose,
  nextOpen,
  sessionAt,
  sessionOn,
  sessionsBetween,
  settlementDayOf,
  tradingDayOf,
} from './calendar.ts';

const utc = (iso: string) => Date.parse(iso);

describe('NSE / BSE', () => {
  it('is closed on a holiday and open the next day', () => {
    expect(sessionOn('NSE', '2026-01-26')).toBeNull();
    expect(isOpen('NSE', utc('2026-01-26T05:00:00Z'))).toBe(false);
    expect(isOpen('NSE', utc('2026-01-27T05:00:00Z'))).toBe(true);
    expect(isOpen('BSE', utc('2026-01-26T05:00:00Z'))).toBe(false);
  });

  it('has pre-open 09:00–09:15, the normal session 09:15–15:30 and the closing session 15:40–16:00 IST', () => {
    // 2026-03-02 is a Monday; IST = UTC+05:30.
    expect(sessionAt('NSE', utc('2026-03-02T03:29:59Z')).phase).toBe('closed');
    expect(sessionAt('NSE', utc('2026-03-02T03:30:00Z')).phase).toBe('pre_open');
    expect(sessionAt('NSE', utc('2026-03-02T03:45:00Z')).phase).toBe('open');
    expect(isOpen('NSE', utc('2026-03-02T09:59:59Z'))).toBe(true);
    expect(isOpen('NSE', utc('2026-03-02T10:00:00Z'))).toBe(false);
    expect(sessionAt('NSE', utc('2026-03-02T10:15:00Z')).phase).toBe('post_close');
  });

  it('finds the next open over a holiday and the trading day in local time', () => {
    // 26 March 2026 (Thursday) is Ram Navami.
    expect(nextOpen('NSE', utc('2026-03-25T11:00:00Z'))).toBe(utc('2026-03-27T03:45:00Z'));
    expect(tradingDayOf('NSE', utc('2026-03-02T20:00:00Z'))).toBe('2026-03-03');
    expect(nextClose('NSE', utc('2026-03-02T05:00:00Z'))).toBe(utc('2026-03-02T10:00:00Z'));
  });

  it('settles T+1 over the holiday', () => {
    expect(settlementDayOf('NSE', '2026-03-25')).toBe('2026-03-27');
    expect(addTradingDays('NSE', '2026-03-27', -1)).toBe('2026-03-25');
    expect(addTradingDays('NSE', '2026-03-28', 0)).toBe('2026-03-30');
    expect(addTradingDays('NSE', '2026-03-23', 5)).toBe('2026-04-01');
  });
});

describe('NYSE / Nasdaq', () => {
  it('opens at 14:30 UTC in winter and 13:30 UTC after the March daylight-saving switch', () => {
    expect(sessionOn('NYSE', '2026-03-06')?.openMs).toBe(utc('2026-03-06T14:30:00Z'));
    expect(sessionOn('NYSE', '2026-03-09')?.openMs).toBe(utc('2026-03-09T13:30:00Z'));
    expect(sessionOn('NASDAQ', '2026-10-30')?.closeMs).toBe(utc('2026-10-30T20:00:00Z'));
    expect(sessionOn('NASDAQ', '2026-11-02')?.closeMs).toBe(utc('2026-11-02T21:00:00Z'));
  });

  it('finds the next open over a weekend and over Good Friday', () => {
    expect(nextOpen('NYSE', utc('2026-03-06T21:30:00Z'))).toBe(utc('2026-03-09T13:30:00Z'));
    expect(sessionOn('NYSE', '2026-04-03')).toBeNull();
    expect(nextOpen('NYSE', utc('2026-04-02T21:00:00Z'))).toBe(utc('2026-04-06T13:30:00Z'));
    expect(settlementDayOf('NYSE', '2026-04-02')).toBe('2026-04-06');
  });

  it('closes early at 13:00 on the day after Thanksgiving', () => {
    const session = sessionOn('NYSE', '2026-11-27');
    expect(session?.closeMs).toBe(utc('2026-11-27T18:00:00Z'));
    expect(session?.isEarlyClose).toBe(true);
    expect(isOpen('NYSE', utc('2026-11-27T18:30:00Z'))).toBe(false);
  });

  it('counts the sessions of a month', () => {
    expect(sessionsBetween('NYSE', utc('2026-03-01T00:00:00Z'), utc('2026-04-01T00:00:00Z'))).toHaveLength(22);
    expect(sessionsBetween('NYSE', utc('2026-04-01T00:00:00Z'), utc('2026-05-01T00:00:00Z'))).toHaveLength(21);
  });
});

describe('B3', () => {
  it('opens at 10:00 São Paulo time and closes at 18:00 while New York is on standard time, 17:00 after', () => {
    const before = sessionOn('B3', '2026-03-06');
    const after = sessionOn('B3', '2026-03-09');
    expect(before?.openMs).toBe(utc('2026-03-06T13:00:00Z'));
    expect(before?.closeMs).toBe(utc('2026-03-06T21:00:00Z'));
    expect(after?.openMs).toBe(utc('2026-03-09T13:00:00Z'));
    expect(after?.closeMs).toBe(utc('2026-03-09T20:00:00Z'));
    expect(sessionAt('B3', utc('2026-03-09T19:57:00Z')).phase).toBe('closing_auction');
    expect(sessionAt('B3', utc('2026-03-09T12:50:00Z')).phase).toBe('pre_open');
    // November: New York leaves daylight time on 1 November 2026.
    expect(sessionOn('B3', '2026-10-30')?.closeMs).toBe(utc('2026-10-30T20:00:00Z'));
    expect(sessionOn('B3', '2026-11-03')?.closeMs).toBe(utc('2026-11-03T21:00:00Z'));
  });

  it('is closed for Carnival, opens at 13:00 on Ash Wednesday and settles D+2', () => {
    expect(sessionOn('B3', '2026-02-16')).toBeNull();
    expect(sessionOn('B3', '2026-02-17')).toBeNull();
    expect(sessionOn('B3', '2026-02-18')?.openMs).toBe(utc('2026-02-18T16:00:00Z'));
    expect(nextOpen('B3', utc('2026-02-13T22:00:00Z'))).toBe(utc('2026-02-18T16:00:00Z'));
    expect(settlementDayOf('B3', '2026-02-13')).toBe('2026-02-19');
  });
});

describe('crypto and FX', () => {
  it('crypto is always open, has no next open, and its trading day is the UTC date', () => {
    expect(isOpen('CRYPTO', utc('2026-01-01T00:00:00Z'))).toBe(true);
    expect(isOpen('CRYPTO', utc('2026-03-08T07:00:00Z'))).toBe(true);
    expect(nextOpen('CRYPTO', utc('2026-03-08T07:00:00Z'))).toBeNull();
    expect(tradingDayOf('CRYPTO', utc('2026-03-08T23:59:59Z'))).toBe('2026-03-08');
    expect(settlementDayOf('CRYPTO', '2026-03-08')).toBe('2026-03-08');
  });

  it('FX trades Monday to Friday UTC', () => {
    expect(isOpen('FX', utc('2026-03-06T23:00:00Z'))).toBe(true);
    expect(isOpen('FX', utc('2026-03-07T01:00:00Z'))).toBe(false);
    expect(nextOpen('FX', utc('2026-03-07T01:00:00Z'))).toBe(utc('2026-03-09T00:00:00Z'));
  });
});

describe('the local day', () => {
  it('is the zone’s date every 7 minutes around midnights and changes of clocks, asked in order and out of it', () => {
    const zones = { NSE: 'Asia/Kolkata', NYSE: 'America/New_York', B3: 'America/Sao_Paulo' } as const;
    const local = (at: number, timeZone: string) => new Date(at).toLocaleDateString('en-CA', { timeZone });
    // New York's clocks change on 2026-03-08 and 2026-11-01; every exchange crosses several midnights.
    for (const from of ['2026-03-07T00:00:00Z', '2026-10-31T00:00:00Z']) {
      for (const [exchange, zone] of Object.entries(zones)) {
        const start = utc(from);
        for (let at = start; at < start + 3 * 86_400_000; at += 7 * 60_000) {
          expect(tradingDayOf(exchange as keyof typeof zones, at)).toBe(local(at, zone));
          const back = at - 37 * 3_600_000; // a jump backwards
          expect(tradingDayOf(exchange as keyof typeof zones, back)).toBe(local(back, zone));
        }
      }
    }
  });
});
