// Owns the shape of an option chain: which underlyings have options in each market (and their contract
// multiplier), the weekly and monthly expiries from the exchange calendar, the strikes around spot, and
// the series code that names one option ("NSE:NIFTY50/2026-12-04/C/25000").
// Must hold: an expiry is the session close of the last trading day of its week (Monday–Sunday, local
// dates) or month; a series code parses back to what made it. Must not: price anything (options-pricing.ts)
// or read the clock (the time comes in).

import { sessionOn } from './calendar.ts';
import type { ExchangeId } from './calendar-data.ts';
import type { Country } from './instrument.ts';
import type { OptionRight } from './options-pricing.ts';
import { addDays, weekdayOf } from './time-zone.ts';

/** An underlying with options: its instrument id and how many units of it one contract covers. */
export type OptionUnderlying = { readonly instrumentId: string; readonly multiplier: number };

/**
 * The underlyings per market: the main indices and a few of the most traded stocks, with contract sizes
 * in the spirit of each exchange's (NSE lots, the US and B3 100-share contract; index contracts smaller so
 * that one contract fits a paper account).
 */
export const OPTION_UNDERLYINGS: Readonly<Record<Country, readonly OptionUnderlying[]>> = {
  IN: [
    { instrumentId: 'NSE:NIFTY50', multiplier: 75 },
    { instrumentId: 'NSE:NIFTYBANK', multiplier: 35 },
    { instrumentId: 'NSE:RELIANCE', multiplier: 500 },
    { instrumentId: 'NSE:HDFCBANK', multiplier: 550 },
    { instrumentId: 'NSE:INFY', multiplier: 400 },
    { instrumentId: 'NSE:TCS', multiplier: 175 },
  ],
  US: [
    { instrumentId: 'NYSE:SPX', multiplier: 10 },
    { instrumentId: 'NASDAQ:NDX', multiplier: 2 },
    { instrumentId: 'NASDAQ:AAPL', multiplier: 100 },
    { instrumentId: 'NASDAQ:MSFT', multiplier: 100 },
    { instrumentId: 'NASDAQ:NVDA', multiplier: 100 },
  ],
  BR: [
    { instrumentId: 'B3:IBOV', multiplier: 1 },
    { instrumentId: 'B3:PETR4', multiplier: 100 },
    { instrumentId: 'B3:VALE3', multiplier: 100 },
    { instrumentId: 'B3:ITUB4', multiplier: 100 },
  ],
};

export type OptionExpiry = {
  /** The local trading day the option expires on. */
  readonly day: string;
  /** Its session's close: trading stops and the option settles against the close. */
  readonly closeMs: number;
  /** Monthly when it is the last trading day of its month (then also the week's last), else weekly. */
  readonly cycle: 'weekly' | 'monthly';
};

const SEARCH_DAYS = 120;

/** The last trading day in [from, to] (local dates), or null when none is. */
function lastTradingDayIn(exchange: ExchangeId, from: string, to: string): string | null {
  for (let day = to; day >= from; day = addDays(day, -1)) if (sessionOn(exchange, day) !== null) return day;
  return null;
}

/**
 * The next `weeks` weekly expiries and `months` monthly expiries whose close is after `atMs`, in date
 * order, without repeats (a month's last trading day is also its week's: it is listed once, as monthly).
 */
export function optionExpiries(
  exchange: ExchangeId,
  today: string,
  atMs: number,
  counts: { weeks: number; months: number } = { weeks: 4, months: 3 },
): OptionExpiry[] {
  const weekly: string[] = [];
  const monthly: string[] = [];
  // Walk week by week from this week's Monday.
  let monday = addDays(today, 1 - weekdayOf(today));
  for (let i = 0; i * 7 < SEARCH_DAYS && weekly.length < counts.weeks; i++, monday = addDays(monday, 7)) {
    const day = lastTradingDayIn(exchange, monday, addDays(monday, 6));
    const session = day === null ? null : sessionOn(exchange, day);
    if (day !== null && session !== null && session.closeMs > atMs) weekly.push(day);
  }
  let first = `${today.slice(0, 7)}-01`;
  for (let i = 0; i < 24 && monthly.length < counts.months; i++) {
    const next = nextMonth(first);
    const day = lastTradingDayIn(exchange, first, addDays(next, -1));
    const session = day === null ? null : sessionOn(exchange, day);
    if (day !== null && session !== null && session.closeMs > atMs) monthly.push(day);
    first = next;
  }
  const days = [...new Set([...weekly, ...monthly])].sort();
  return days.map((day) => ({
    day,
    closeMs: (sessionOn(exchange, day) as NonNullable<ReturnType<typeof sessionOn>>).closeMs,
    cycle: isLastTradingDayOfMonth(exchange, day) ? 'monthly' : 'weekly',
  }));
}

function nextMonth(first: string): string {
  const year = Number(first.slice(0, 4));
  const month = Number(first.slice(5, 7));
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
}

/** Whether `day` is the last trading day of its month. */
export function isLastTradingDayOfMonth(exchange: ExchangeId, day: string): boolean {
  const first = `${day.slice(0, 7)}-01`;
  return lastTradingDayIn(exchange, first, addDays(nextMonth(first), -1)) === day;
}

/** Whether `day` is a listed expiry: the last trading day of its week or of its month. */
export function isExpiryDay(exchange: ExchangeId, day: string): boolean {
  const monday = addDays(day, 1 - weekdayOf(day));
  return lastTradingDayIn(exchange, monday, addDays(monday, 6)) === day || isLastTradingDayOfMonth(exchange, day);
}

/**
 * The strike step for a spot price, in minor units: the 1-2-2.5-5 × 10^k value nearest 1% of spot
 * (NIFTY at 25,000 → 250; a ₹1,510 stock → 20; a $270 stock → 2.5).
 */
export function strikeStepMinor(spotMinor: bigint): bigint {
  const target = Number(spotMinor) / 100;
  if (target <= 1) return 1n;
  const magnitude = 10 ** Math.floor(Math.log10(target));
  let best = magnitude;
  for (const m of [1, 2, 2.5, 5, 10]) {
    const candidate = m * magnitude;
    if (Number.isInteger(candidate) && Math.abs(candidate - target) < Math.abs(best - target)) best = candidate;
  }
  return BigInt(best);
}

/** `count` strikes either side of the one nearest spot (2·count + 1 in all, each above zero), ascending. */
export function strikesAround(spotMinor: bigint, stepMinor: bigint, count: number): bigint[] {
  const atm = ((spotMinor + stepMinor / 2n) / stepMinor) * stepMinor;
  const strikes: bigint[] = [];
  for (let i = -count; i <= count; i++) {
    const strike = atm + BigInt(i) * stepMinor;
    if (strike > 0n) strikes.push(strike);
  }
  return strikes;
}

/** One option series: underlying, expiry day, right and strike (a decimal string). */
export type OptionSeries = { underlying: string; expiry: string; right: OptionRight; strike: string };

/** "NSE:NIFTY50/2026-12-04/C/25000". */
export function seriesCode(series: OptionSeries): string {
  return `${series.underlying}/${series.expiry}/${series.right === 'call' ? 'C' : 'P'}/${series.strike}`;
}

export function parseSeriesCode(code: string): OptionSeries | null {
  const m = /^([A-Z0-9]+:[A-Z0-9.&-]+)\/(\d{4}-\d{2}-\d{2})\/([CP])\/(\d{1,12}(?:\.\d{1,8})?)$/.exec(code);
  if (!m) return null;
  return {
    underlying: m[1] as string,
    expiry: m[2] as string,
    right: m[3] === 'C' ? 'call' : 'put',
    strike: m[4] as string,
  };
}
