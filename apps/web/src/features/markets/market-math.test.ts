import type { QuoteView } from '@bourse/contract';
import { describe, expect, it } from 'vitest';
import {
  bookRows,
  directionOf,
  mergeCandle,
  priceDigits,
  pushSearchHistory,
  readSearchHistory,
  simpleMovingAverage,
  sortQuotes,
} from './market-math.ts';

function quote(symbol: string, changePct: string, volume: string): QuoteView {
  return {
    id: `NSE:${symbol}`,
    symbol,
    name: symbol,
    exchange: 'NSE',
    country: 'IN',
    kind: 'stock',
    currency: 'INR',
    price: '100',
    change: '0',
    changePct,
    open: '100',
    high: '100',
    low: '100',
    prevClose: '100',
    volume,
    time: 0,
    isOpen: true,
    listed: true,
    tickSize: '0.05',
    lot: 1,
    bandLo: null,
    bandHi: null,
  };
}

describe('sortQuotes', () => {
  const items = [
    quote('TCS', '-0.40', '900'),
    quote('INFY', '1.25', '12000'),
    quote('HDFC', '1.25', '50'),
    quote('ITC', '10.5', '9'),
  ];
  it('sorts by change % descending and ascending, exactly and stably', () => {
    expect(sortQuotes(items, '-changePct').map((q) => q.symbol)).toEqual(['ITC', 'INFY', 'HDFC', 'TCS']);
    expect(sortQuotes(items, 'changePct').map((q) => q.symbol)).toEqual(['TCS', 'INFY', 'HDFC', 'ITC']);
  });
  it('sorts by volume and by symbol', () => {
    expect(sortQuotes(items, '-volume').map((q) => q.symbol)).toEqual(['INFY', 'TCS', 'HDFC', 'ITC']);
    expect(sortQuotes(items, 'symbol').map((q) => q.symbol)).toEqual(['HDFC', 'INFY', 'ITC', 'TCS']);
  });
  it('does not change the input', () => {
    sortQuotes(items, 'symbol');
    expect(items[0]?.symbol).toBe('TCS');
  });
});

describe('directions and digits', () => {
  it('reads the sign of a change', () => {
    expect(directionOf('1.2')).toBe('up');
    expect(directionOf('-0.01')).toBe('down');
    expect(directionOf('0.00')).toBe('flat');
  });
  it('shows at least 2 digits, more when the tick needs them', () => {
    expect(priceDigits('0.05')).toBe(2);
    expect(priceDigits('1')).toBe(2);
    expect(priceDigits('0.0001')).toBe(4);
  });
});

describe('simpleMovingAverage', () => {
  const candles = [1, 2, 3, 4, 5, 6].map((close, i) => ({ time: i + 1, close: String(close) }));
  it('averages the last n closes, starting at the n-th candle', () => {
    expect(simpleMovingAverage(candles, 3)).toEqual([
      { time: 3, value: 2 },
      { time: 4, value: 3 },
      { time: 5, value: 4 },
      { time: 6, value: 5 },
    ]);
  });
  it('is empty when there are fewer candles than the period', () => {
    expect(simpleMovingAverage(candles.slice(0, 2), 3)).toEqual([]);
    expect(simpleMovingAverage(candles, 0)).toEqual([]);
  });
  it('matches a direct average', () => {
    const closes = Array.from({ length: 40 }, (_, i) => ({ time: i, close: (100 + Math.sin(i) * 7).toFixed(2) }));
    const sma = simpleMovingAverage(closes, 20);
    const direct = closes.slice(20, 40).reduce((s, c) => s + Number(c.close), 0) / 20;
    expect(sma[sma.length - 1]?.value).toBeCloseTo(direct, 6);
  });
});

describe('mergeCandle', () => {
  const candles = [
    { time: 60, close: '1' },
    { time: 120, close: '2' },
  ];
  it('replaces the current candle and appends a new one', () => {
    expect(mergeCandle(candles, { time: 120, close: '3' })).toEqual([candles[0], { time: 120, close: '3' }]);
    expect(mergeCandle(candles, { time: 180, close: '4' })).toHaveLength(3);
    expect(mergeCandle([], { time: 1, close: '1' })).toHaveLength(1);
  });
  it('updates an older known candle and ignores an unknown older one', () => {
    expect(mergeCandle(candles, { time: 60, close: '9' })[0]).toEqual({ time: 60, close: '9' });
    expect(mergeCandle(candles, { time: 30, close: '9' })).toEqual(candles);
  });
});

describe('bookRows', () => {
  const book = {
    asks: [
      ['101.00', '5'],
      ['100.50', '10'],
      ['102.00', '5'],
    ] as [string, string][],
    bids: [
      ['100.00', '20'],
      ['99.50', '20'],
    ] as [string, string][],
  };
  it('puts the best ask just above the spread and the best bid first', () => {
    const rows = bookRows(book, 5);
    expect(rows.asks.map((l) => l.price)).toEqual(['102.00', '101.00', '100.50']);
    expect(rows.bids.map((l) => l.price)).toEqual(['100.00', '99.50']);
    expect(rows.spread).toBe('0.50');
  });
  it('scales cumulative depth bars to the deeper side', () => {
    const rows = bookRows(book, 5);
    expect(rows.bids.map((l) => l.depthPct)).toEqual([50, 100]);
    expect(rows.asks.map((l) => l.depthPct)).toEqual([50, 37.5, 25]);
  });
  it('counts quantities finer than 8 decimals (an 18-decimal coin) in the depth bars', () => {
    const fine = {
      asks: [
        ['2001.5', '0.0000000005'],
        ['2002', '0.0000000005'],
      ] as [string, string][],
      bids: [['2000', '0.000000001']] as [string, string][],
    };
    const rows = bookRows(fine, 5);
    expect(rows.asks.map((l) => l.depthPct)).toEqual([100, 50]);
    expect(rows.bids.map((l) => l.depthPct)).toEqual([100]);
    expect(rows.spread).toBe('1.5');
  });
  it('limits levels and handles an empty book', () => {
    expect(bookRows(book, 1).asks).toHaveLength(1);
    expect(bookRows({ asks: [], bids: [] }, 5)).toEqual({ asks: [], bids: [], spread: null });
  });
});

describe('search history', () => {
  it('puts the newest first, without duplicates, up to the maximum', () => {
    expect(pushSearchHistory(['infy', 'tcs'], 'TCS')).toEqual(['TCS', 'infy']);
    expect(pushSearchHistory(['a'], '  ')).toEqual(['a']);
    expect(pushSearchHistory(['a', 'b', 'c'], 'd', 3)).toEqual(['d', 'a', 'b']);
  });
  it('reads only valid stored histories', () => {
    expect(readSearchHistory({ getItem: () => '["rel",1,"tcs"]' })).toEqual(['rel', 'tcs']);
    expect(readSearchHistory({ getItem: () => '{bad' })).toEqual([]);
    expect(readSearchHistory(undefined)).toEqual([]);
  });
});
