// Proves the JSON polling adapter on recorded responses (no network): trades become ticks in time order,
// each trade id once, none before its time, and bad rows come back as named problems instead of exceptions.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createJsonPollingFeed, parseTradesResponse } from './json-polling-feed.ts';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const at = (iso: string) => Date.parse(iso);

describe('bourse-trades/v1 parser', () => {
  it('turns valid rows into ticks and reports every bad one by code', () => {
    const parsed = parseTradesResponse(fixture('trades-v1-page1.json'));
    expect(parsed.trades.map((t) => t.tradeId)).toEqual(['NSE-1001', 'NSE-1000', 'CRY-77', 'NSE-1007']);
    expect(parsed.trades[0]).toEqual({
      tradeId: 'NSE-1001',
      instrumentId: 'NSE:RELIANCE',
      timeMs: at('2026-03-09T04:00:01.004Z'),
      priceTicks: 30047,
      sizeLots: 120,
    });
    expect(parsed.trades[2]).toMatchObject({ instrumentId: 'CRYPTO:BTCUSDT', priceTicks: 9_501_237, sizeLots: 150 });
    expect(parsed.problems.map((p) => p.code)).toEqual([
      'price_off_tick',
      'unknown_instrument',
      'instrument_not_listed',
      'size_off_lot',
      'bad_time',
      'malformed_response',
    ]);
    expect(parseTradesResponse({ hello: 1 }).problems[0]?.code).toBe('malformed_response');
    expect(parseTradesResponse(null).trades).toEqual([]);
  });
});

describe('JSON polling feed', () => {
  it('returns each trade once, in time order, holding back those later than the time asked for', async () => {
    const pages = [fixture('trades-v1-page1.json'), fixture('trades-v1-page2.json')];
    const urls: string[] = [];
    const feed = createJsonPollingFeed({
      url: 'https://vendor.example/trades',
      fetchJson: async (url) => {
        urls.push(url);
        return pages.shift();
      },
    });
    expect(feed.source).toBe('live');
    const first = await feed.advanceTo(at('2026-03-09T04:00:05.000Z'));
    expect(first.ticks.map((t) => t.timeMs)).toEqual([
      at('2026-03-09T04:00:00.512Z'),
      at('2026-03-09T04:00:01.004Z'),
      at('2026-03-09T04:00:02.000Z'),
    ]);
    expect(first.problems).toHaveLength(6);
    const second = await feed.advanceTo(at('2026-03-09T04:00:10.000Z'));
    expect(second.ticks.map((t) => [t.instrumentId, t.priceTicks])).toEqual([
      ['NSE:INFY', 30900],
      ['NSE:RELIANCE', 30060],
    ]);
    expect(second.problems).toEqual([]);
    expect(urls).toEqual(['https://vendor.example/trades', 'https://vendor.example/trades']);
  });

  it('reports a failed poll as a problem and keeps going', async () => {
    const feed = createJsonPollingFeed({
      url: 'u',
      fetchJson: async () => {
        throw new Error('ECONNRESET');
      },
    });
    const update = await feed.advanceTo(0);
    expect(update.ticks).toEqual([]);
    expect(update.problems[0]?.code).toBe('fetch_failed');
  });
});
