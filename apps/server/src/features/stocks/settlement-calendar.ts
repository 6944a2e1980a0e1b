// When bought shares become sellable: a trade on trading day D settles on D's settlement day S (T+1 on
// NSE/BSE/NYSE/Nasdaq, D+2 on B3, from the exchange calendars) and its shares unlock at the start of S
// in the exchange's time zone. The settlement job releases, per instrument, every trade before the
// cut-off: the end of the last trading day whose settlement day has begun.

import {
  addDays,
  addTradingDays,
  calendarOf,
  type ExchangeId,
  settlementDayOf,
  tradingDayOf,
  zonedTimeToMs,
} from '@bourse/market';

const startOfDay = (exchange: ExchangeId, day: string) => zonedTimeToMs(day, '00:00', calendarOf(exchange).timeZone);

/** When shares bought at `tradeMs` become sellable. */
export function unlockAtMs(exchange: ExchangeId, tradeMs: number): number {
  return startOfDay(exchange, settlementDayOf(exchange, tradingDayOf(exchange, tradeMs)));
}

/** Trades before this instant have settled at `nowMs`. */
export function settledCutoffMs(exchange: ExchangeId, nowMs: number): number {
  const today = tradingDayOf(exchange, nowMs);
  let day = addTradingDays(exchange, today, -Math.max(1, calendarOf(exchange).settlementDays));
  while (settlementDayOf(exchange, day) > today) day = addTradingDays(exchange, day, -1);
  return startOfDay(exchange, addDays(day, 1));
}
