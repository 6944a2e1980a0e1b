// Binance's public market-data shapes, built from the platform's pairs, the engine's books and the
// market data (quotes, tape, candles). Decimals stay strings throughout; nothing here is a float.

import type { QuoteView, SpotPairView } from '@bourse/contract';
import type { Candle, Instrument, Interval } from '@bourse/market';
import { intervalMs, ticksToDecimal } from '@bourse/market';
import type { TapeEntry } from '../markets/service.ts';

/** Binance's kline intervals that the candles carry; the others (3m, 30m, 2h…) answer -1120. */
export const KLINE_INTERVALS: Readonly<Record<string, Interval>> = {
  '1m': '1m',
  '5m': '5m',
  '15m': '15m',
  '1h': '1h',
  '1d': '1d',
  '1w': '1w',
};

/** Binance's PRICE_FILTER ceiling and order-type list for every pair. */
const MAX_PRICE = '1000000000';
export const ORDER_TYPES = ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS_LIMIT'] as const;

/** The decimals a step such as "0.0001" has. */
export const decimalsOf = (step: string) => (step.includes('.') ? (step.split('.')[1] as string).length : 0);

export function symbolInfo(pair: SpotPairView) {
  return {
    symbol: pair.base + pair.quote,
    status: pair.trading && pair.listed ? 'TRADING' : 'BREAK',
    baseAsset: pair.base,
    baseAssetPrecision: 8,
    quoteAsset: pair.quote,
    quotePrecision: 8,
    quoteAssetPrecision: 8,
    baseCommissionPrecision: 8,
    quoteCommissionPrecision: 8,
    orderTypes: [...ORDER_TYPES],
    icebergAllowed: false,
    ocoAllowed: false,
    otoAllowed: false,
    quoteOrderQtyMarketAllowed: true,
    allowTrailingStop: false,
    cancelReplaceAllowed: false,
    amendAllowed: false,
    isSpotTradingAllowed: pair.trading && pair.listed,
    isMarginTradingAllowed: false,
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: pair.tickSize, maxPrice: MAX_PRICE, tickSize: pair.tickSize },
      { filterType: 'LOT_SIZE', minQty: pair.minQuantity, maxQty: pair.maxQuantity, stepSize: pair.lotSize },
      { filterType: 'MIN_NOTIONAL', minNotional: pair.minNotional, applyToMarket: true, avgPriceMins: 0 },
      {
        filterType: 'NOTIONAL',
        minNotional: pair.minNotional,
        applyMinToMarket: true,
        maxNotional: '9000000000',
        applyMaxToMarket: false,
        avgPriceMins: 0,
      },
      { filterType: 'MARKET_LOT_SIZE', minQty: pair.minQuantity, maxQty: pair.maxQuantity, stepSize: pair.lotSize },
    ],
    permissions: [],
    permissionSets: [['SPOT']],
    defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
    allowedSelfTradePreventionModes: ['EXPIRE_MAKER'],
  };
}

export function depthView(
  instrument: Instrument,
  seq: number,
  depth: { bids: [number, number][]; asks: [number, number][] },
) {
  const level = ([ticks, lots]: [number, number]): [string, string] => [
    ticksToDecimal(ticks, instrument.tickSize),
    ticksToDecimal(lots, instrument.lotSize),
  ];
  return { lastUpdateId: seq, bids: depth.bids.map(level), asks: depth.asks.map(level) };
}

/** A tape print as Binance's trade: the taker's side tells who was the maker. */
export function tradeView(instrument: Instrument, t: TapeEntry) {
  const price = ticksToDecimal(t.priceTicks, instrument.tickSize);
  const qty = ticksToDecimal(t.sizeLots, instrument.lotSize);
  return {
    id: t.id,
    price,
    qty,
    quoteQty: product(price, qty),
    time: t.timeMs,
    isBuyerMaker: t.side === 'sell',
    isBestMatch: true,
  };
}

/** [open time, open, high, low, close, volume, close time, quote volume, trades, taker buy base, taker buy quote, ignore]. */
export function klineView(instrument: Instrument, c: Candle) {
  const p = (ticks: number) => ticksToDecimal(ticks, instrument.tickSize);
  const length = intervalMs(c.interval) ?? (c.interval === '1w' ? 7 * 86_400_000 : 86_400_000);
  // Quote volume, trade counts and the taker split are not kept per candle: answered as "0" (decision 0023).
  return [
    c.startMs,
    p(c.open),
    p(c.high),
    p(c.low),
    p(c.close),
    ticksToDecimal(c.volumeLots, instrument.lotSize),
    c.startMs + length - 1,
    '0',
    0,
    '0',
    '0',
    '0',
  ];
}

export function bookTickerView(symbol: string, best: { bid: [string, string] | null; ask: [string, string] | null }) {
  return {
    symbol,
    bidPrice: best.bid?.[0] ?? '0',
    bidQty: best.bid?.[1] ?? '0',
    askPrice: best.ask?.[0] ?? '0',
    askQty: best.ask?.[1] ?? '0',
  };
}

/** The quote's day (UTC, the simulator's session for crypto) as Binance's 24-hour ticker. */
export function ticker24hView(
  symbol: string,
  q: QuoteView,
  best: { bid: [string, string] | null; ask: [string, string] | null },
  openTime: number,
) {
  const { symbol: _, ...book } = bookTickerView(symbol, best);
  return {
    symbol,
    priceChange: q.change,
    priceChangePercent: q.changePct,
    weightedAvgPrice: '0',
    prevClosePrice: q.prevClose,
    lastPrice: q.price,
    lastQty: '0',
    ...book,
    openPrice: q.open,
    highPrice: q.high,
    lowPrice: q.low,
    volume: q.volume,
    quoteVolume: '0',
    openTime,
    closeTime: q.time,
    firstId: -1,
    lastId: -1,
    count: 0,
  };
}

/** a × b of two decimal strings, exactly (scaled integers). */
export function product(a: string, b: string): string {
  const scale = decimalsOf(a) + decimalsOf(b);
  const value = BigInt(a.replace('.', '')) * BigInt(b.replace('.', ''));
  const digits = value.toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
