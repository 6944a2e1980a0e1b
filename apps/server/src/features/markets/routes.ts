// Market-data calls of SPEC §7: /stock/index/* for stocks and indices, /coin/* for crypto pairs.
// Prices come from MarketData (the simulator in paper mode); the order book is the engine's own.

import {
  type BookView,
  type CandleView,
  type CountryView,
  candlesBody,
  type Items,
  type Paged,
  type QuoteView,
  searchQuery,
  stockListQuery,
  symbolQuery,
  type TradeView,
} from '@bourse/contract';
import { type Candle, type Instrument, listInstruments, ticksToDecimal } from '@bourse/market';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import type { MarketData } from './service.ts';

const BOOK_LEVELS = 10;

export function toCandleView(instrument: Instrument, c: Candle): CandleView {
  return {
    time: Math.floor(c.startMs / 1000),
    open: ticksToDecimal(c.open, instrument.tickSize),
    high: ticksToDecimal(c.high, instrument.tickSize),
    low: ticksToDecimal(c.low, instrument.tickSize),
    close: ticksToDecimal(c.close, instrument.tickSize),
    volume: ticksToDecimal(c.volumeLots, instrument.lotSize),
  };
}

/**
 * The engine's book of an instrument, best levels first; empty until the venue registers it. `onView`
 * tells the venue someone is watching, so it keeps that book's quotes fresh.
 */
export function bookView(engine: TradingEngine, onView?: (instrumentId: string) => void) {
  return (instrument: Instrument): BookView => {
    onView?.(instrument.id);
    const depth = engine.state.instrument(instrument.id)
      ? engine.state.depth(instrument.id, BOOK_LEVELS)
      : { bids: [], asks: [] };
    const level = ([ticks, lots]: [number, number]): [string, string] => [
      ticksToDecimal(ticks, instrument.tickSize),
      ticksToDecimal(lots, instrument.lotSize),
    ];
    return { symbol: instrument.id, seq: engine.seq, bids: depth.bids.map(level), asks: depth.asks.map(level) };
  };
}

const SORTERS: Record<string, (a: { changePct: string; volume: string; symbol: string }, b: typeof a) => number> = {
  changePct: (a, b) => Number(a.changePct) - Number(b.changePct),
  '-changePct': (a, b) => Number(b.changePct) - Number(a.changePct),
  volume: (a, b) => Number(a.volume) - Number(b.volume),
  '-volume': (a, b) => Number(b.volume) - Number(a.volume),
  symbol: (a, b) => a.symbol.localeCompare(b.symbol),
};

export function marketDataRoutes(
  app: FastifyInstance,
  market: MarketData,
  engine: TradingEngine,
  onBookView?: (instrumentId: string) => void,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['market data'];
  const find = (symbol: string, kinds: readonly Instrument['kind'][]) => {
    const instrument = market.instrument(symbol);
    if (!instrument || !kinds.includes(instrument.kind)) throw new AppError('unknown_instrument');
    return instrument;
  };
  const quotes = (list: Instrument[]) => list.map((i) => market.quote(i));
  const book = bookView(engine, onBookView);
  const tape = (instrument: Instrument): TradeView[] =>
    market.tape(instrument.id).map((t) => ({
      id: t.id,
      price: ticksToDecimal(t.priceTicks, instrument.tickSize),
      quantity: ticksToDecimal(t.sizeLots, instrument.lotSize),
      side: t.side,
      time: t.timeMs,
    }));
  const candles = async (instrument: Instrument, body: z.output<typeof candlesBody>): Promise<Items<CandleView>> => ({
    items: (
      await market.candles(instrument, body.interval, body.limit, body.before ? body.before * 1000 : undefined)
    ).map((c) => toCandleView(instrument, c)),
  });

  // --- stocks and indices ---
  r.get(
    '/stock/index/indices/list',
    { schema: { tags, querystring: stockListQuery.pick({ country: true }) } },
    async (req) =>
      ok<Items<QuoteView>>({ items: quotes(listInstruments({ country: req.query.country, kind: 'index' })) }),
  );
  r.get('/stock/index/country/list', { schema: { tags } }, async () =>
    ok<Items<CountryView>>({ items: market.countries() }),
  );
  r.get('/stock/index/list', { schema: { tags, querystring: stockListQuery } }, async (req) => {
    const all = quotes(listInstruments({ country: req.query.country, kind: 'stock' }));
    if (req.query.sort) all.sort(SORTERS[req.query.sort]);
    const start = (req.query.page - 1) * req.query.limit;
    return ok<Paged<QuoteView>>({ items: all.slice(start, start + req.query.limit), total: all.length });
  });
  r.get(
    '/stock/index/list/hot',
    { schema: { tags, querystring: stockListQuery.pick({ country: true }) } },
    async (req) => {
      const all = quotes(listInstruments({ country: req.query.country, kind: 'stock', listed: true }));
      // "Hot" is what moves most today, either way: a measured fact, not a recommendation.
      all.sort((a, b) => Math.abs(Number(b.changePct)) - Math.abs(Number(a.changePct)));
      return ok<Items<QuoteView>>({ items: all.slice(0, 10) });
    },
  );
  r.get('/stock/index/search', { schema: { tags, querystring: searchQuery } }, async (req) => {
    const k = req.query.keyword.toLowerCase();
    const hits = listInstruments({})
      .filter((i) => i.kind === 'stock' || i.kind === 'index')
      .filter((i) => i.symbol.toLowerCase().includes(k) || i.name.toLowerCase().includes(k))
      .slice(0, 30);
    return ok<Items<QuoteView>>({ items: quotes(hits) });
  });
  r.get('/stock/index/info', { schema: { tags, querystring: symbolQuery } }, async (req) =>
    ok<QuoteView>(market.quote(find(req.query.symbol, ['stock', 'index']))),
  );
  r.post('/stock/index/candles', { schema: { tags, body: candlesBody } }, async (req) =>
    ok(await candles(find(req.body.symbol, ['stock', 'index']), req.body)),
  );
  r.post('/stock/index/trades', { schema: { tags, body: symbolQuery } }, async (req) =>
    ok<Items<TradeView>>({ items: tape(find(req.body.symbol, ['stock', 'index'])) }),
  );
  r.post('/stock/index/books', { schema: { tags, body: symbolQuery } }, async (req) =>
    ok(book(find(req.body.symbol, ['stock']))),
  );

  // --- crypto (and the BRL/USD rate) ---
  const coins = () => listInstruments({ kind: 'crypto' });
  r.post('/coin/tickers', { schema: { tags } }, async () => ok<Items<QuoteView>>({ items: quotes(coins()) }));
  r.post('/coin/ticker', { schema: { tags, body: symbolQuery } }, async (req) =>
    ok<QuoteView>(market.quote(find(req.body.symbol, ['crypto', 'fx']))),
  );
  r.post('/coin/candles', { schema: { tags, body: candlesBody } }, async (req) =>
    ok(await candles(find(req.body.symbol, ['crypto', 'fx']), req.body)),
  );
  r.post('/coin/trades', { schema: { tags, body: symbolQuery } }, async (req) =>
    ok<Items<TradeView>>({ items: tape(find(req.body.symbol, ['crypto'])) }),
  );
  r.post('/coin/books', { schema: { tags, body: symbolQuery } }, async (req) =>
    ok(book(find(req.body.symbol, ['crypto']))),
  );
}
