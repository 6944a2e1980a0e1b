import { describe, expect, it } from 'vitest';
import {
  BUY,
  FILL_STP_CANCEL,
  FILL_TRADE,
  OrderBook,
  SELL,
  STP_CANCEL_BOTH,
  STP_CANCEL_RESTING,
  STP_CANCEL_TAKER,
} from './order-book.ts';

function fills(book: OrderBook): [number, number, number, number][] {
  const rows: [number, number, number, number][] = [];
  for (let i = 0; i < book.fillCount; i++) {
    rows.push([
      book.fillKind[i] as number,
      book.fillMakerId[i] as number,
      book.fillTick[i] as number,
      book.fillQty[i] as number,
    ]);
  }
  return rows;
}

describe('OrderBook', () => {
  it('matches in price then time order and leaves the rest of a partly filled maker at the front', () => {
    const book = new OrderBook(10_000);
    book.rest(1, SELL, 101, 5, 10);
    book.rest(2, SELL, 100, 3, 11);
    book.rest(3, SELL, 100, 4, 12);
    book.rest(4, BUY, 98, 2, 13);
    const left = book.match(BUY, 101, 9, 20, STP_CANCEL_RESTING);
    expect(left).toBe(0);
    expect(fills(book)).toEqual([
      [FILL_TRADE, 2, 100, 3],
      [FILL_TRADE, 3, 100, 4],
      [FILL_TRADE, 1, 101, 2],
    ]);
    expect(book.depth('sell', 5)).toEqual([[101, 3]]);
    expect(book.depth('buy', 5)).toEqual([[98, 2]]);
    expect(book.bestAsk).toBe(101);
    expect(book.remainingOf(1)).toBe(3);
  });

  it('stops at the limit price and reports the unfilled quantity', () => {
    const book = new OrderBook(1_000);
    book.rest(1, BUY, 50, 2, 1);
    book.rest(2, BUY, 49, 2, 1);
    expect(book.match(SELL, 50, 5, 2, STP_CANCEL_RESTING)).toBe(3);
    expect(book.bestBid).toBe(49);
  });

  it('keeps queue position when a quantity is reduced, and loses nothing when orders are cancelled', () => {
    const book = new OrderBook(1_000);
    book.rest(1, BUY, 50, 5, 1);
    book.rest(2, BUY, 50, 5, 2);
    book.reduce(1, 1);
    book.match(SELL, 50, 1, 3, STP_CANCEL_RESTING);
    expect(fills(book)).toEqual([[FILL_TRADE, 1, 50, 1]]);
    expect(book.cancel(2)).toBe(5);
    expect(book.cancel(2)).toBe(-1);
    expect(book.bestBid).toBe(-1);
    expect(book.restingCount).toBe(0);
  });

  it('applies each self-trade prevention mode to an order meeting its own owner', () => {
    const setup = () => {
      const book = new OrderBook(1_000);
      book.rest(1, SELL, 10, 1, 7);
      book.rest(2, SELL, 10, 1, 8);
      return book;
    };
    const resting = setup();
    expect(resting.match(BUY, 10, 2, 7, STP_CANCEL_RESTING)).toBe(1);
    expect(fills(resting)).toEqual([
      [FILL_STP_CANCEL, 1, 10, 1],
      [FILL_TRADE, 2, 10, 1],
    ]);
    const taker = setup();
    expect(taker.match(BUY, 10, 2, 7, STP_CANCEL_TAKER)).toBe(2);
    expect(taker.takerStopped).toBe(true);
    expect(taker.restingCount).toBe(2);
    const both = setup();
    expect(both.match(BUY, 10, 2, 7, STP_CANCEL_BOTH)).toBe(2);
    expect(fills(both)).toEqual([[FILL_STP_CANCEL, 1, 10, 1]]);
    expect(both.restingCount).toBe(1);
  });

  it('counts fill-or-kill liquidity the way matching would, own orders included', () => {
    const book = new OrderBook(1_000);
    book.rest(1, SELL, 10, 2, 7);
    book.rest(2, SELL, 11, 2, 8);
    expect(book.fillableQty(BUY, 11, 5, 9, STP_CANCEL_RESTING)).toBe(4);
    expect(book.fillableQty(BUY, 11, 3, 9, STP_CANCEL_RESTING)).toBe(3);
    expect(book.fillableQty(BUY, 11, 3, 7, STP_CANCEL_RESTING)).toBe(2);
    expect(book.fillableQty(BUY, 11, 3, 7, STP_CANCEL_TAKER)).toBe(0);
  });

  it('refuses to rest an order that would cross the book', () => {
    const book = new OrderBook(1_000);
    book.rest(1, SELL, 10, 2, 7);
    expect(() => book.rest(2, BUY, 10, 1, 8)).toThrow();
    expect(book.crosses(BUY, 10)).toBe(true);
    expect(book.crosses(BUY, 9)).toBe(false);
  });

  it('reports every fill of a taker that meets more makers than its fill rows start with', () => {
    const book = new OrderBook(10_000);
    // 150 makers of 1-3 lots on 50 levels, every fifth one the taker's own (cancelled by STP, a row too).
    let lots = 0;
    for (let id = 1; id <= 150; id++) {
      const owner = id % 5 === 0 ? 7 : 100 + id;
      book.rest(id, SELL, 1_000 + (id % 50), 1 + (id % 3), owner);
      if (owner !== 7) lots += 1 + (id % 3);
    }
    const left = book.match(BUY, 2_000, lots + 10, 7, STP_CANCEL_RESTING);
    expect(left).toBe(10);
    const rows = fills(book);
    expect(rows).toHaveLength(150);
    expect(book.fillCount).toBeGreaterThan(64);
    // Price, then time: by level, and within a level in the order they rested.
    const expected = Array.from({ length: 150 }, (_, k) => k + 1)
      .sort((a, b) => (a % 50) - (b % 50) || a - b)
      .map((id) => [id % 5 === 0 ? FILL_STP_CANCEL : FILL_TRADE, id, 1_000 + (id % 50), 1 + (id % 3)]);
    expect(rows).toEqual(expected);
    expect(book.depth('sell', 5)).toEqual([]);
  });

  it('grows its slots past the initial capacity and reuses freed ones', () => {
    const book = new OrderBook(100_000, 16);
    for (let i = 0; i < 1000; i++) book.rest(i, BUY, 1 + (i % 5000), 1, i);
    for (let i = 0; i < 1000; i += 2) book.cancel(i);
    for (let i = 1000; i < 1500; i++) book.rest(i, SELL, 60_000 + i, 1, i);
    expect(book.restingCount).toBe(1000);
    expect(book.bestBid).toBe(1000);
    expect(book.bestAsk).toBe(61_000);
  });
});
