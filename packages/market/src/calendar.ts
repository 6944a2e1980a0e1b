// Owns the questions asked of exchange calendars: is it open, which session, next open/close, trading days.
// Must hold: sessions are computed from calendar-data.ts in the exchange's own time zone (DST through Intl);
// a holiday or weekend has no session. Must not: read the clock; the time is always an argument.

import { CALENDARS, type ExchangeCalendar, type ExchangeId } from './calendar-data.ts';
import { addDays, localDateOf, offsetMs, weekdayOf, zonedTimeToMs } from './time-zone.ts';

export type Session = {
  readonly exchange: ExchangeId;
  /** The local date of the session in the exchange's time zone. */
  readonly tradingDay: string;
  /** The regular session is [openMs, closeMs): prices move only inside it. */
  readonly openMs: number;
  readonly closeMs: number;
  /** Start of the pre-open call auction (it ends at openMs), or null. */
  readonly preOpenMs: number | null;
  /** Start of the closing call (it ends at closeMs), or null. */
  readonly closingAuctionMs: number | null;
  readonly postClose: { readonly startMs: number; readonly endMs: number } | null;
  readonly isEarlyClose: boolean;
  readonly isLateOpen: boolean;
};

export type SessionPhase = 'pre_open' | 'open' | 'closing_auction' | 'post_close' | 'closed';

const MAX_SEARCH_DAYS = 31;
const NEW_YORK = 'America/New_York';
const cache = new Map<string, Session | null>();
const CACHE_LIMIT = 50_000;

export function calendarOf(exchange: ExchangeId): ExchangeCalendar {
  const calendar = CALENDARS[exchange];
  if (!calendar) throw new Error(`unknown exchange ${exchange}`);
  return calendar;
}

export function isTradingDay(exchange: ExchangeId, day: string): boolean {
  const calendar = calendarOf(exchange);
  return calendar.weekdays.includes(weekdayOf(day)) && calendar.holidays[day] === undefined;
}

/** True when `day`'s year has holiday data (outside it only weekends close the exchange). */
export function hasHolidayData(exchange: ExchangeId, day: string): boolean {
  const calendar = calendarOf(exchange);
  return calendar.alwaysOpen || calendar.holidayYears.includes(Number(day.slice(0, 4)));
}

/** The session on a local date, or null on a weekend or holiday. */
export function sessionOn(exchange: ExchangeId, day: string): Session | null {
  const key = `${exchange}|${day}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const session = isTradingDay(exchange, day) ? buildSession(calendarOf(exchange), day) : null;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, session);
  return session;
}

function buildSession(calendar: ExchangeCalendar, day: string): Session {
  const zone = calendar.timeZone;
  const lateOpen = calendar.lateOpens[day];
  const earlyClose = calendar.earlyCloses[day];
  let close = calendar.close;
  if (calendar.closeWhileNewYorkOnStandardTime !== null && !isNewYorkOnDaylightTime(day)) {
    close = calendar.closeWhileNewYorkOnStandardTime;
  }
  const openMs = zonedTimeToMs(day, lateOpen ?? calendar.open, zone);
  const closeMs = zonedTimeToMs(day, earlyClose ?? close, zone);
  return {
    exchange: calendar.exchange,
    tradingDay: day,
    openMs,
    closeMs,
    preOpenMs: calendar.preOpenMinutes > 0 ? openMs - calendar.preOpenMinutes * 60_000 : null,
    closingAuctionMs: calendar.closingAuctionMinutes > 0 ? closeMs - calendar.closingAuctionMinutes * 60_000 : null,
    postClose:
      calendar.postClose && earlyClose === undefined
        ? {
            startMs: zonedTimeToMs(day, calendar.postClose.start, zone),
            endMs: zonedTimeToMs(day, calendar.postClose.end, zone),
          }
        : null,
    isEarlyClose: earlyClose !== undefined,
    isLateOpen: lateOpen !== undefined,
  };
}

/** Whether New York keeps daylight saving time at noon of that date (B3 moves its close with it). */
export function isNewYorkOnDaylightTime(day: string): boolean {
  const noon = zonedTimeToMs(day, '12:00', NEW_YORK);
  return offsetMs(noon, NEW_YORK) === -4 * 3_600_000;
}

/** The local day last asked for per exchange, as [startMs, endMs): every order asks, Intl is slow. */
const lastDay = new Map<ExchangeId, { day: string; startMs: number; endMs: number }>();

/** The local date in the exchange's time zone (a calendar date, not necessarily a trading day). */
export function tradingDayOf(exchange: ExchangeId, atMs: number): string {
  const last = lastDay.get(exchange);
  if (last && atMs >= last.startMs && atMs < last.endMs) return last.day;
  const zone = calendarOf(exchange).timeZone;
  const day = localDateOf(atMs, zone);
  const startMs = zonedTimeToMs(day, '00:00', zone);
  const endMs = zonedTimeToMs(addDays(day, 1), '00:00', zone);
  // Kept only when the bounds check out (a change of clocks at midnight could move them).
  if (
    startMs <= atMs &&
    atMs < endMs &&
    localDateOf(startMs, zone) === day &&
    localDateOf(startMs - 1, zone) !== day &&
    localDateOf(endMs - 1, zone) === day &&
    localDateOf(endMs, zone) !== day
  )
    lastDay.set(exchange, { day, startMs, endMs });
  return day;
}

/** The phase at `atMs` and the session of that local date, if it is a trading day. */
export function sessionAt(exchange: ExchangeId, atMs: number): { phase: SessionPhase; session: Session | null } {
  const session = sessionOn(exchange, tradingDayOf(exchange, atMs));
  return { phase: session ? phaseOf(session, atMs) : 'closed', session };
}

function phaseOf(session: Session, atMs: number): SessionPhase {
  if (atMs >= session.openMs && atMs < session.closeMs) {
    return session.closingAuctionMs !== null && atMs >= session.closingAuctionMs ? 'closing_auction' : 'open';
  }
  if (session.preOpenMs !== null && atMs >= session.preOpenMs && atMs < session.openMs) return 'pre_open';
  if (session.postClose && atMs >= session.postClose.startMs && atMs < session.postClose.endMs) return 'post_close';
  return 'closed';
}

/** Inside the regular session (the closing call included). Crypto is always open. */
export function isOpen(exchange: ExchangeId, atMs: number): boolean {
  const session = sessionOn(exchange, tradingDayOf(exchange, atMs));
  return session !== null && atMs >= session.openMs && atMs < session.closeMs;
}

/** The first session that opens strictly after `atMs`; null for an exchange that never closes. */
export function nextOpen(exchange: ExchangeId, atMs: number): number | null {
  if (calendarOf(exchange).alwaysOpen) return null;
  const session = findSession(exchange, atMs, (s) => s.openMs > atMs);
  return session.openMs;
}

/** The close of the session open at `atMs`, else of the next session; null for an exchange that never closes. */
export function nextClose(exchange: ExchangeId, atMs: number): number | null {
  if (calendarOf(exchange).alwaysOpen) return null;
  return findSession(exchange, atMs, (s) => s.closeMs > atMs).closeMs;
}

/** The session open at `atMs`, else the next one to open (the simulator's view of "current"). */
export function currentOrNextSession(exchange: ExchangeId, atMs: number): Session {
  return findSession(exchange, atMs, (s) => s.closeMs > atMs);
}

function findSession(exchange: ExchangeId, atMs: number, accept: (s: Session) => boolean): Session {
  let day = addDays(tradingDayOf(exchange, atMs), -1);
  for (let i = 0; i <= MAX_SEARCH_DAYS; i++) {
    const session = sessionOn(exchange, day);
    if (session && accept(session)) return session;
    day = addDays(day, 1);
  }
  throw new Error(`no session of ${exchange} within ${MAX_SEARCH_DAYS} days of ${atMs}`);
}

/**
 * The n-th trading day after `day` (n > 0) or before it (n < 0); n = 0 gives `day` itself when it is a
 * trading day, else the next one. `day` need not be a trading day. T+1 is addTradingDays(ex, tradeDay, 1).
 */
export function addTradingDays(exchange: ExchangeId, day: string, n: number): string {
  if (!Number.isInteger(n)) throw new Error(`bad day count ${n}`);
  if (n === 0) return isTradingDay(exchange, day) ? day : addTradingDays(exchange, day, 1);
  const direction = n > 0 ? 1 : -1;
  let remaining = Math.abs(n);
  let current = day;
  let guard = remaining * 7 + MAX_SEARCH_DAYS;
  while (remaining > 0) {
    current = addDays(current, direction);
    if (isTradingDay(exchange, current)) remaining--;
    if (--guard < 0) throw new Error(`no trading days found for ${exchange} from ${day}`);
  }
  return current;
}

/** The settlement date of a trade done on `tradeDay` (T+1 NSE/BSE/NYSE/Nasdaq, D+2 B3, same day crypto). */
export function settlementDayOf(exchange: ExchangeId, tradeDay: string): string {
  const lag = calendarOf(exchange).settlementDays;
  return lag === 0 ? tradeDay : addTradingDays(exchange, tradeDay, lag);
}

/** Sessions overlapping [fromMs, toMs), in time order. */
export function sessionsBetween(exchange: ExchangeId, fromMs: number, toMs: number): Session[] {
  const sessions: Session[] = [];
  if (toMs <= fromMs) return sessions;
  let day = addDays(tradingDayOf(exchange, fromMs), -1);
  const lastDay = addDays(tradingDayOf(exchange, toMs), 1);
  while (day <= lastDay) {
    const session = sessionOn(exchange, day);
    if (session && session.closeMs > fromMs && session.openMs < toMs) sessions.push(session);
    day = addDays(day, 1);
  }
  return sessions;
}
