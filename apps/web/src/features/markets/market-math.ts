// Pure helpers of the market screens: sorting quote lists, moving averages for the K-line, order-book
// rows with depth bars, and the local search history. No React, no I/O: every function is tested.
import type { CandleView, QuoteView } from '@bourse/contract';
import { compareDecimal, decimalPlaces, signOfDecimal, subtractDecimals, tryParseDecimal } from '@bourse/money';

export type QuoteSort = '-changePct' | 'changePct' | '-volume' | 'volume' | 'symbol';
export const quoteSorts: readonly QuoteSort[] = ['-changePct', 'changePct', '-volume', 'volume', 'symbol'];

export function isQuoteSort(value: unknown): value is QuoteSort {
  return typeof value === 'string' && (quoteSorts as readonly string[]).includes(value);
}

/** Sorts quotes like the server does: by change % or volume (descending with "-"), or by symbol. Stable. */
export function sortQuotes(items: readonly QuoteView[], sort: QuoteSort): QuoteView[] {
  const indexed = items.map((item, index) => ({ item, index }));
  indexed.sort((a, b) => {
    let result: number;
    if (sort === 'symbol') result = a.item.symbol.localeCompare(b.item.symbol, 'en');
    else {
      const field = sort.replace('-', '') as 'changePct' | 'volume';
      result = compareDecimal(a.item[field], b.item[field]);
      if (sort.startsWith('-')) result = -result;
    }
    return result || a.index - b.index;
  });
  return indexed.map((entry) => entry.item);
}

export type Direction = 'up' | 'down' | 'flat';

/** Up, down or flat from a signed decimal change. */
export function directionOf(change: string | null | undefined): Direction {
  const sign = signOfDecimal(change);
  return sign > 0 ? 'up' : sign < 0 ? 'down' : 'flat';
}

/** Digits to show for prices of an instrument: the tick's decimals, at least 2. */
export function priceDigits(tickSize: string | null | undefined): number {
  return Math.max(2, decimalPlaces(tickSize ?? ''));
}

export interface LinePoint {
  time: number;
  value: number;
}

/**
 * Simple moving average of the closes over `period` candles (the chart draws it, so numbers are fine
 * here). The first point is at the period-th candle.
 */
export function simpleMovingAverage(
  candles: readonly Pick<CandleView, 'time' | 'close'>[],
  period: number,
): LinePoint[] {
  if (period < 1) return [];
  const out: LinePoint[] = [];
  let sum = 0;
  const closes = candles.map((c) => Number(c.close));
  for (let i = 0; i < closes.length; i += 1) {
    sum += closes[i] ?? 0;
    if (i >= period) sum -= closes[i - period] ?? 0;
    if (i >= period - 1) {
      const candle = candles[i];
      if (candle) out.push({ time: candle.time, value: Number((sum / period).toFixed(8)) });
    }
  }
  return out;
}

/** Merges a live candle into a list ordered by time: replaces the same time, appends a newer one. */
export function mergeCandle<T extends { time: number }>(candles: readonly T[], next: T): T[] {
  const last = candles[candles.length - 1];
  if (!last || next.time > last.time) return [...candles, next];
  if (next.time === last.time) return [...candles.slice(0, -1), next];
  const index = candles.findIndex((c) => c.time === next.time);
  if (index < 0) return [...candles]; // older than the window and unknown: ignore
  const copy = [...candles];
  copy[index] = next;
  return copy;
}

export interface BookLevel {
  price: string;
  quantity: string;
  /** Width of the depth bar behind the row, 0–100 (cumulative quantity from the best price). */
  depthPct: number;
}

export interface BookRows {
  /** Highest price first, so the best ask sits just above the spread. */
  asks: BookLevel[];
  /** Highest (best) price first. */
  bids: BookLevel[];
  spread: string | null;
}

/**
 * Up to `depth` levels per side with cumulative depth bars scaled to the larger side's total.
 * Input levels may come in any order.
 */
export function bookRows(
  book: { asks: readonly (readonly [string, string])[]; bids: readonly (readonly [string, string])[] },
  depth: number,
): BookRows {
  const asksBest = [...book.asks].sort((a, b) => compareDecimal(a[0], b[0])).slice(0, depth);
  const bidsBest = [...book.bids].sort((a, b) => compareDecimal(b[0], a[0])).slice(0, depth);
  // Every quantity at the largest scale among them, so that none is cut short.
  const scale = [...asksBest, ...bidsBest].reduce((most, [, qty]) => Math.max(most, decimalPlaces(qty)), 0);
  const cumulative = (levels: (readonly [string, string])[]) => {
    let total = 0n;
    return levels.map(([, qty]) => {
      const parsed = tryParseDecimal(qty, scale);
      total += parsed.ok ? parsed.minor : 0n;
      return total;
    });
  };
  const askCum = cumulative(asksBest);
  const bidCum = cumulative(bidsBest);
  const max = [...askCum, ...bidCum].reduce((m, v) => (v > m ? v : m), 0n);
  const pct = (v: bigint) => (max === 0n ? 0 : Number((v * 10000n) / max) / 100);
  const asks = asksBest.map(([price, quantity], i) => ({ price, quantity, depthPct: pct(askCum[i] ?? 0n) })).reverse();
  const bids = bidsBest.map(([price, quantity], i) => ({ price, quantity, depthPct: pct(bidCum[i] ?? 0n) }));
  let spread: string | null = null;
  const bestAsk = asksBest[0]?.[0];
  const bestBid = bidsBest[0]?.[0];
  if (bestAsk && bestBid) spread = subtractDecimals(bestAsk, bestBid);
  return { asks, bids, spread };
}

export const searchHistoryKey = 'searchHistory';
export const searchHistoryMax = 10;

/** Puts `keyword` first (case-insensitive de-duplication), keeping at most `max` entries. */
export function pushSearchHistory(history: readonly string[], keyword: string, max = searchHistoryMax): string[] {
  const word = keyword.trim();
  if (!word) return [...history];
  const rest = history.filter((entry) => entry.toLowerCase() !== word.toLowerCase());
  return [word, ...rest].slice(0, max);
}

export function readSearchHistory(storage: Pick<Storage, 'getItem'> | undefined): string[] {
  try {
    const raw = storage?.getItem(searchHistoryKey);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed)
      ? parsed.filter((v): v is string => typeof v === 'string').slice(0, searchHistoryMax)
      : [];
  } catch {
    return [];
  }
}
