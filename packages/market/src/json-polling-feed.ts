// Owns the generic live adapter: polls a JSON endpoint returning trades in the "bourse-trades/v1" format and
// turns them into ticks. Must hold: each trade id is returned once, in time order, and never before its time;
// bad rows become FeedProblems. Must not: open sockets itself (the fetch function is injected) or read the clock.

import type { ExchangeId } from './calendar-data.ts';
import type { FeedProblem, FeedUpdate, PriceFeed, Tick } from './feed.ts';
import { findBySymbol, type Instrument } from './instrument.ts';
import { decimalToSteps, decimalToTicks } from './price.ts';

/**
 * The recorded response format (what a vendor bridge is expected to serve):
 * { "format": "bourse-trades/v1", "asOf": ISO-8601,
 *   "trades": [{ "id": string, "exchange": "NSE", "symbol": "RELIANCE", "price": "1502.35",
 *                "quantity": "120", "time": ISO-8601 }] }
 * Prices and quantities are decimal strings on the instrument's tick and lot grid.
 */
export const TRADES_FORMAT = 'bourse-trades/v1';

export type ParsedTrade = Tick & { readonly tradeId: string };
export type ParsedTrades = { readonly trades: readonly ParsedTrade[]; readonly problems: readonly FeedProblem[] };

/** A lookup from (exchange, ticker) to the catalogue; injectable so tests and vendors can map symbols. */
export type InstrumentLookup = (exchange: string, symbol: string) => Instrument | undefined;

const catalogueLookup: InstrumentLookup = (exchange, symbol) => findBySymbol(exchange as ExchangeId, symbol);
const MAX_TRADES_PER_RESPONSE = 10_000;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** Parses one response body. Never throws on vendor data: what cannot be used is reported as a problem. */
export function parseTradesResponse(body: unknown, lookup: InstrumentLookup = catalogueLookup): ParsedTrades {
  if (!isRecord(body) || body.format !== TRADES_FORMAT || !Array.isArray(body.trades)) {
    return { trades: [], problems: [{ code: 'malformed_response', detail: `not a ${TRADES_FORMAT} body` }] };
  }
  const problems: FeedProblem[] = [];
  const trades: ParsedTrade[] = [];
  const rows = body.trades.slice(0, MAX_TRADES_PER_RESPONSE);
  if (body.trades.length > rows.length) {
    problems.push({
      code: 'malformed_response',
      detail: `more than ${MAX_TRADES_PER_RESPONSE} trades; the rest were ignored`,
    });
  }
  for (const row of rows) {
    if (
      !isRecord(row) ||
      typeof row.id !== 'string' ||
      typeof row.exchange !== 'string' ||
      typeof row.symbol !== 'string' ||
      typeof row.price !== 'string' ||
      typeof row.quantity !== 'string' ||
      typeof row.time !== 'string'
    ) {
      problems.push({ code: 'malformed_response', detail: `bad trade row ${JSON.stringify(row).slice(0, 200)}` });
      continue;
    }
    const instrument = lookup(row.exchange, row.symbol);
    if (!instrument) {
      problems.push({ code: 'unknown_instrument', detail: `${row.exchange}:${row.symbol} (trade ${row.id})` });
      continue;
    }
    if (!instrument.listed) {
      problems.push({ code: 'instrument_not_listed', detail: `${instrument.id} (trade ${row.id})` });
      continue;
    }
    const priceTicks = decimalToTicks(row.price, instrument.tickSize);
    if (priceTicks === null || priceTicks <= 0) {
      problems.push({
        code: 'price_off_tick',
        detail: `${row.price} is not a multiple of ${instrument.tickSize} (trade ${row.id})`,
      });
      continue;
    }
    const sizeLots = decimalToSteps(row.quantity, instrument.lotSize);
    if (sizeLots === null) {
      problems.push({
        code: 'size_off_lot',
        detail: `${row.quantity} is not a multiple of ${instrument.lotSize} (trade ${row.id})`,
      });
      continue;
    }
    const timeMs = ISO_TIME.test(row.time) ? Date.parse(row.time) : Number.NaN;
    if (!Number.isFinite(timeMs)) {
      problems.push({ code: 'bad_time', detail: `${row.time} (trade ${row.id})` });
      continue;
    }
    trades.push({ tradeId: row.id, instrumentId: instrument.id, timeMs, priceTicks, sizeLots });
  }
  return { trades, problems };
}

export type JsonPollingFeedOptions = {
  readonly url: string;
  /** Injected transport (fetch + res.json() in production, recorded fixtures in tests). */
  readonly fetchJson: (url: string) => Promise<unknown>;
  readonly lookup?: InstrumentLookup;
  /** How many recent trade ids are remembered to drop repeats across overlapping polls. */
  readonly rememberIds?: number;
};

/** A live PriceFeed over a polled JSON endpoint. */
export function createJsonPollingFeed(options: JsonPollingFeedOptions): PriceFeed {
  const lookup = options.lookup ?? catalogueLookup;
  const limit = options.rememberIds ?? 50_000;
  const seen = new Set<string>();
  let pending: ParsedTrade[] = [];
  let lastTimeMs = Number.NEGATIVE_INFINITY;

  const remember = (id: string) => {
    seen.add(id);
    if (seen.size > limit) {
      const oldest = seen.values().next();
      if (!oldest.done) seen.delete(oldest.value);
    }
  };

  return {
    source: 'live',
    async advanceTo(timeMs: number): Promise<FeedUpdate> {
      const problems: FeedProblem[] = [];
      let body: unknown;
      try {
        body = await options.fetchJson(options.url);
      } catch (error) {
        // The network is outside our control: a failed poll is reported and the next poll tries again.
        return { ticks: takeDue(timeMs), problems: [{ code: 'fetch_failed', detail: String(error) }] };
      }
      const parsed = parseTradesResponse(body, lookup);
      problems.push(...parsed.problems);
      for (const trade of parsed.trades) {
        if (seen.has(trade.tradeId)) continue;
        remember(trade.tradeId);
        if (trade.timeMs < lastTimeMs) {
          problems.push({
            code: 'bad_time',
            detail: `trade ${trade.tradeId} arrived after later ticks were published`,
          });
          continue;
        }
        pending.push(trade);
      }
      return { ticks: takeDue(timeMs), problems };
    },
  };

  /** Trades up to timeMs leave in time order (ties by id); later ones wait for a later call. */
  function takeDue(timeMs: number): Tick[] {
    pending.sort((a, b) => a.timeMs - b.timeMs || (a.tradeId < b.tradeId ? -1 : a.tradeId > b.tradeId ? 1 : 0));
    const due = pending.filter((t) => t.timeMs <= timeMs);
    pending = pending.filter((t) => t.timeMs > timeMs);
    const last = due[due.length - 1];
    if (last) lastTimeMs = Math.max(lastTimeMs, last.timeMs);
    return due.map(({ instrumentId, timeMs: t, priceTicks, sizeLots }) => ({
      instrumentId,
      timeMs: t,
      priceTicks,
      sizeLots,
    }));
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
