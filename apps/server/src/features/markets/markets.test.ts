// Market-data calls through the HTTP stack: quotes that move with the simulator while the market is
// open and stand still while it is closed, candles with generated history and live ones, the tape,
// search, and translated errors for unknown symbols; a first start on a weekend shows Friday's session.
// Runs on the embedded database.

import { openDb } from '@bourse/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../testing.ts';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp(await openDb({ dataDir: null }));
});
afterAll(() => t.close());

describe('market data', () => {
  it('lists Indian stocks and indices with prices that move while NSE is open', async () => {
    const before = (await t.call('GET', '/stock/index/info?symbol=NSE:RELIANCE')).body.data;
    expect(before).toMatchObject({ symbol: 'RELIANCE', exchange: 'NSE', currency: 'INR', isOpen: true, listed: true });
    t.clock.advance(5 * 60_000);
    await t.app.market.pump();
    const after = (await t.call('GET', '/stock/index/info?symbol=RELIANCE')).body.data;
    expect(after.time).toBeGreaterThan(before.time);
    expect(Number(after.high)).toBeGreaterThanOrEqual(Number(after.low));
    expect(Number(after.price)).toBeLessThanOrEqual(Number(after.bandHi));
    expect(Number(after.price)).toBeGreaterThanOrEqual(Number(after.bandLo));

    const indices = (await t.call('GET', '/stock/index/indices/list?country=IN')).body.data.items;
    expect(indices.length).toBeGreaterThanOrEqual(3);
    expect(indices.every((i: { kind: string; country: string }) => i.kind === 'index' && i.country === 'IN')).toBe(
      true,
    );
    const list = (await t.call('GET', '/stock/index/list?country=IN&limit=5&sort=-changePct')).body.data;
    expect(list.items).toHaveLength(5);
    expect(list.total).toBeGreaterThanOrEqual(50);
    const pcts = list.items.map((q: { changePct: string }) => Number(q.changePct));
    expect([...pcts].sort((a, b) => b - a)).toEqual(pcts);
  });

  it('gives daily candles back a year, and live minute candles since the start', async () => {
    const daily = (
      await t.call('POST', '/stock/index/candles', { json: { symbol: 'NSE:TCS', interval: '1d', limit: 300 } })
    ).body.data.items;
    expect(daily.length).toBeGreaterThan(200);
    for (const c of daily) expect(Number(c.high)).toBeGreaterThanOrEqual(Math.max(Number(c.open), Number(c.close)));
    expect(daily.map((c: { time: number }) => c.time)).toEqual(
      [...daily.map((c: { time: number }) => c.time)].sort((a, b) => a - b),
    );
    const minutes = (
      await t.call('POST', '/stock/index/candles', { body: { symbol: 'NSE:TCS', interval: '1m', limit: '50' } })
    ).body.data.items;
    expect(minutes).toHaveLength(50);
    const tape = (await t.call('POST', '/stock/index/trades', { json: { symbol: 'NSE:TCS' } })).body.data.items;
    expect(tape.length).toBeGreaterThan(0);
  });

  it('keeps US prices still while New York is closed', async () => {
    const a = (await t.call('GET', '/stock/index/info?symbol=AAPL')).body.data;
    expect(a.isOpen).toBe(false);
    t.clock.advance(60_000);
    await t.app.market.pump();
    const b = (await t.call('GET', '/stock/index/info?symbol=AAPL')).body.data;
    expect(b.price).toBe(a.price);
  });

  it('searches by symbol or name, lists crypto tickers, and refuses unknown symbols in both languages', async () => {
    const hits = (await t.call('GET', '/stock/index/search?keyword=petro')).body.data.items;
    expect(hits.some((q: { exchange: string }) => q.exchange === 'B3')).toBe(true);
    const coins = (await t.call('POST', '/coin/tickers')).body.data.items;
    expect(coins.map((c: { symbol: string }) => c.symbol)).toEqual(
      expect.arrayContaining(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']),
    );
    const en = await t.call('GET', '/stock/index/info?symbol=NOPE');
    const pt = await t.call('GET', '/stock/index/info?symbol=NOPE', { lang: 'pt-BR' });
    expect(en.body).toMatchObject({ code: -1001, error: 'unknown_instrument', msg: 'Unknown instrument' });
    expect(pt.body.msg).toBe('Instrumento desconhecido');
    const countries = (await t.call('GET', '/stock/index/country/list')).body.data.items;
    expect(countries.map((c: { code: string }) => c.code)).toEqual(['IN', 'US', 'BR']);
  });
});

describe('market data first started on a Saturday', () => {
  const SATURDAY = Date.UTC(2026, 0, 10, 12, 0);
  type Row = { symbol: string; changePct: string; volume: string; isOpen: boolean; kind: string; time: number };
  let s: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    s = await testApp(await openDb({ dataDir: null }), {}, SATURDAY);
  });
  afterAll(() => s.close());

  it("carries the previous session's close, change and volume of stocks and indices until the next open", async () => {
    for (const country of ['IN', 'US', 'BR']) {
      const stocks = (await s.call('GET', `/stock/index/list?country=${country}&limit=20`)).body.data.items as Row[];
      expect(stocks.length).toBeGreaterThan(0);
      expect(stocks.every((q) => !q.isOpen)).toBe(true);
      // Not a dead market: most stocks moved on Friday, and every one traded.
      expect(stocks.filter((q) => q.changePct !== '0.00').length).toBeGreaterThan(stocks.length / 2);
      expect(stocks.every((q) => Number(q.volume) > 0)).toBe(true);
      const indices = (await s.call('GET', `/stock/index/indices/list?country=${country}`)).body.data.items as Row[];
      expect(indices.some((q) => q.changePct !== '0.00')).toBe(true);
    }
    const reliance = (await s.call('GET', '/stock/index/info?symbol=NSE:RELIANCE')).body.data;
    // The figures are Friday's session (time inside it), and they stand still over the weekend.
    expect(new Date(reliance.time).toISOString().slice(0, 10)).toBe('2026-01-09');
    expect(Number(reliance.high)).toBeGreaterThanOrEqual(Number(reliance.price));
    expect(Number(reliance.low)).toBeLessThanOrEqual(Number(reliance.price));
    expect(reliance.change).not.toBe('0.00');
    s.clock.advance(3_600_000);
    await s.app.market.pump();
    expect((await s.call('GET', '/stock/index/info?symbol=NSE:RELIANCE')).body.data).toEqual(reliance);
  });

  it("starts Monday's session from Friday's close, with a new day's volume", async () => {
    const friday = (await s.call('GET', '/stock/index/info?symbol=NSE:RELIANCE')).body.data;
    // Monday 12 January, 04:00 UTC: NSE has been open for 15 minutes.
    s.clock.set(Date.UTC(2026, 0, 12, 4, 0));
    await s.app.market.pump();
    const monday = (await s.call('GET', '/stock/index/info?symbol=NSE:RELIANCE')).body.data;
    expect(monday.isOpen).toBe(true);
    expect(monday.prevClose).toBe(friday.price);
    expect(Number(monday.volume)).toBeLessThan(Number(friday.volume));
  });
});
