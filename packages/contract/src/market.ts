// Shapes of the market-data calls (SPEC §7: /stock/index/*, /coin/*, /index/*). Prices and amounts are
// decimal strings; times are epoch milliseconds (candles: seconds, as charting libraries expect).

import { z } from 'zod';
import { pageQuery, text, wholeNumber } from './fields.ts';

export const COUNTRIES = ['IN', 'US', 'BR'] as const;
export const CANDLE_INTERVALS = ['1m', '5m', '15m', '1h', '1d', '1w'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);

export const quoteView = z.object({
  id: z.string(),
  symbol: z.string(),
  name: z.string(),
  exchange: z.string(),
  country: z.enum(COUNTRIES).nullable(),
  kind: z.enum(['stock', 'index', 'crypto', 'fx']),
  currency: z.string(),
  price: decimal,
  change: decimal,
  changePct: decimal,
  open: decimal,
  high: decimal,
  low: decimal,
  prevClose: decimal,
  volume: decimal,
  time: z.number().int(),
  isOpen: z.boolean(),
  listed: z.boolean(),
  tickSize: decimal,
  lot: z.number().int(),
  bandLo: decimal.nullable(),
  bandHi: decimal.nullable(),
});
export type QuoteView = z.infer<typeof quoteView>;

export const candleView = z.object({
  time: z.number().int(),
  open: decimal,
  high: decimal,
  low: decimal,
  close: decimal,
  volume: decimal,
});
export type CandleView = z.infer<typeof candleView>;

export const bookView = z.object({
  symbol: z.string(),
  seq: z.number().int(),
  asks: z.array(z.tuple([decimal, decimal])),
  bids: z.array(z.tuple([decimal, decimal])),
});
export type BookView = z.infer<typeof bookView>;

export const tradeView = z.object({
  id: z.number().int(),
  price: decimal,
  quantity: decimal,
  side: z.enum(['buy', 'sell']),
  time: z.number().int(),
});
export type TradeView = z.infer<typeof tradeView>;

/** A stock market of /stock/index/country/list: its session state now, and when it next opens and closes. */
export const countryView = z.object({
  code: z.enum(COUNTRIES),
  name: z.string(),
  currency: z.string(),
  exchanges: z.array(z.string()),
  isOpen: z.boolean(),
  /** Epoch ms; null when the calendar has none ahead. */
  nextOpen: z.number().int().nullable(),
  nextClose: z.number().int().nullable(),
});
export type CountryView = z.infer<typeof countryView>;

export const stockListQuery = pageQuery.extend({
  country: z.enum(COUNTRIES, { error: 'field_invalid' }).default('IN'),
  sort: z.enum(['changePct', '-changePct', 'volume', '-volume', 'symbol']).optional(),
});
export const symbolQuery = z.object({ symbol: text(40) });
export const searchQuery = z.object({ keyword: text(40) });
export const candlesBody = z.object({
  symbol: text(40),
  interval: z.enum(CANDLE_INTERVALS, { error: 'field_invalid' }).default('1d'),
  limit: wholeNumber(1, 1000).default(300),
  /** Candles strictly before this time (seconds), for paging back. */
  before: wholeNumber(0).optional(),
});

// --- what the app sends (before the server's parsing) ---------------------------------------------

export type StockListInput = z.input<typeof stockListQuery>;
export type SymbolInput = z.input<typeof symbolQuery>;
export type SearchInput = z.input<typeof searchQuery>;
export type CandlesInput = z.input<typeof candlesBody>;
