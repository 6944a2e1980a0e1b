// The paper venue (PRODUCT.md, "Stocks"): the engine's own book per stock, with a disclosed liquidity
// account per stock, marketMakerOf(id) ("mm:NSE:RELIANCE"), quoting a ladder around the simulated price. It never reads users' orders to set
// a price: the ladder comes from the simulator alone. It does read the book to *execute*: when the
// simulated price trades at or through a user's resting limit, the market maker fills it (at the
// user's limit price, up to a per-quote size), which is what "limit orders rest until the price reaches
// them" means on a real exchange. Quotes are refreshed lazily (before a user order, when the price
// reaches a customer's resting order, and while someone is watching the book, once the price has moved
// a ladder step), so the journal does not grow by thousands of commands a second for nobody.
//
// Sessions follow the exchange calendars: at the close the market maker withdraws and the instrument is
// halted (orders then queue as after-market orders); at the open the day's reference price and band are
// set, the ladder goes up, and trading resumes so queued orders meet it. Settlement (T+1, B3 D+2) is a
// journaled settle_trades command per instrument once the settlement day has begun.

import type { Db } from '@bourse/db';
import type { ApplyResult } from '@bourse/engine';
import { type ExchangeId, type Instrument, isOpen, priceBand, tradingDayOf } from '@bourse/market';
import { formatDecimal, parseDecimal } from '@bourse/money';
import type { StockSettings } from '../../../config.ts';
import type { CommandInput, TradingEngine } from '../../../engine-host/trading-engine.ts';
import type { MarketData } from '../../../features/markets/service.ts';
import { settledCutoffMs } from '../../../features/stocks/settlement-calendar.ts';
import { stockSpec, tradableStocks } from '../../../features/stocks/stock-instruments.ts';
import type { Clock } from '../../../platform/clock.ts';

/**
 * The disclosed liquidity account of one stock: an engine user funded from platform:liquidity. One per
 * stock keeps each within the engine's open-order limit and makes its books easy to audit.
 */
export const marketMakerOf = (instrumentId: string) => `mm:${instrumentId}`;
export const isMarketMaker = (userId: string) => userId.startsWith('mm:');

const LEVELS = 5;
/** Half-spread and level step, in basis points of the price (at least one tick). */
const SPREAD_BPS = 5;
/** Roughly what one ladder level is worth, per currency; level k shows (k + 1) × that. */
const LEVEL_VALUE: Record<string, number> = { INR: 500_000, USD: 20_000, BRL: 100_000 };
/** Cash a market maker keeps; topped up from platform:liquidity when below half. Shares: 100 levels' worth. */
const CASH_FLOAT: Record<string, string> = { INR: '50000000.00', USD: '2000000.00', BRL: '10000000.00' };
const SHARE_FLOAT_LEVELS = 100;
/** A watched book is requoted at most this often. */
const WATCHED_REQUOTE_MS = 3_000;
const WATCH_WINDOW_MS = 60_000;
const SETTLE_EVERY_MS = 60_000;

/** A ladder step, in ticks, at `lastTicks`: also the move that makes a watched ladder follow the price. */
export const requoteTicks = (lastTicks: number) => Math.max(1, Math.floor((lastTicks * SPREAD_BPS) / 10_000));

type Quoted = { lastTicks: number; atMs: number; orderIds: number[] };

export class PaperVenue {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #market: MarketData;
  readonly #clock: Clock;
  readonly #stocks: Instrument[];
  readonly #byExchange = new Map<ExchangeId, Instrument[]>();
  readonly #quoted = new Map<string, Quoted>();
  readonly #watched = new Map<string, number>();
  readonly #settledUpTo = new Map<string, number>();
  readonly #referenceDay = new Map<string, string>();
  #settledAt = 0;
  #pending: Promise<ApplyResult>[] = [];

  private constructor(db: Db, engine: TradingEngine, market: MarketData, clock: Clock) {
    this.#db = db;
    this.#engine = engine;
    this.#market = market;
    this.#clock = clock;
    this.#stocks = tradableStocks();
    for (const instrument of this.#stocks) {
      const list = this.#byExchange.get(instrument.exchange);
      if (list) list.push(instrument);
      else this.#byExchange.set(instrument.exchange, [instrument]);
    }
  }

  /** Registers every listed stock in the engine (once), funds the market maker and opens or halts each book. */
  static async open(
    db: Db,
    engine: TradingEngine,
    market: MarketData,
    clock: Clock,
    settings: StockSettings,
    warn: (message: string) => void = () => {},
  ) {
    const venue = new PaperVenue(db, engine, market, clock);
    const changed = new Set<string>();
    for (const instrument of venue.#stocks) {
      const spec = stockSpec(instrument, settings);
      const listed = engine.state.instrument(instrument.id)?.spec;
      if (!listed) venue.#send({ type: 'register_instrument', id: `instrument:${instrument.id}`, instrument: spec });
      else if (listed.takerFeeBps !== spec.takerFeeBps || listed.makerFeeBps !== spec.makerFeeBps) {
        // A new fee schedule applies to orders placed from now on; resting orders keep the fee they were shown.
        venue.#send({
          type: 'set_instrument_fees',
          id: `fees:${instrument.id}:${engine.seq}`,
          instrumentId: instrument.id,
          makerFeeBps: spec.makerFeeBps,
          takerFeeBps: spec.takerFeeBps,
        });
        changed.add(`${instrument.country}: ${listed.takerFeeBps} → ${spec.takerFeeBps} bp`);
      }
    }
    if (changed.size > 0) warn(`stock fee schedule changed (${[...changed].join(', ')}) for orders placed from now on`);
    await venue.#flush();
    for (const instrument of venue.#stocks) {
      const orderIds = engine.state.openOrders(marketMakerOf(instrument.id)).map((o) => o.orderId);
      if (orderIds.length > 0) venue.#quoted.set(instrument.id, { lastTicks: 0, atMs: 0, orderIds });
    }
    await venue.sync();
    return venue;
  }

  get stocks(): readonly Instrument[] {
    return this.#stocks;
  }

  /** Someone is looking at this book: keep its ladder fresh for a while. */
  watch(instrumentId: string): void {
    this.#watched.set(instrumentId, this.#clock.now());
  }

  /** Before a user's order: the ladder reflects the simulated price of this moment. */
  async prepare(instrument: Instrument): Promise<void> {
    const now = this.#clock.now();
    if (!isOpen(instrument.exchange, now)) return;
    const last = this.#market.lastTicks(instrument.id)?.lastTicks;
    if (last !== undefined && this.#isStale(instrument.id, last)) this.#requote(instrument, now);
    await this.#flush();
  }

  /** After the market moved: sessions, crossing orders, watched books, settlement. Called every pump. */
  async sync(): Promise<void> {
    const now = this.#clock.now();
    for (const [exchange, stocks] of this.#byExchange) {
      const open = isOpen(exchange, now);
      const today = tradingDayOf(exchange, now);
      for (const instrument of stocks) {
        const view = this.#engine.state.market(instrument.id);
        if (!view) continue;
        if (this.#referenceDay.get(instrument.id) !== today) {
          this.#setReference(instrument, today);
          this.#referenceDay.set(instrument.id, today);
          if (open && !view.halted) this.#requote(instrument, now);
        }
        if (open && view.halted) this.#openSession(instrument, today, now);
        else if (!open && !view.halted) this.#closeSession(instrument, today, now);
        else if (open) this.#maybeRequote(instrument, now);
      }
    }
    await this.#flush();
    if (now - this.#settledAt >= SETTLE_EVERY_MS) await this.settle(now);
  }

  /** Releases the settlement locks of every trade whose settlement day has begun (journaled, idempotent). */
  async settle(now = this.#clock.now()): Promise<void> {
    this.#settledAt = now;
    for (const [exchange, stocks] of this.#byExchange) {
      const ids = stocks.map((i) => i.id);
      const cutoff = settledCutoffMs(exchange, now);
      const rows = await this.#db.query<{ instrument_id: string; up_to: number }>(
        `SELECT instrument_id, MAX(id) AS up_to FROM trades WHERE at < $1 AND instrument_id IN (${ids
          .map((_, k) => `$${k + 2}`)
          .join(', ')}) GROUP BY instrument_id`,
        [cutoff, ...ids],
      );
      for (const row of rows) {
        const upTo = Number(row.up_to);
        if ((this.#settledUpTo.get(row.instrument_id) ?? 0) >= upTo) continue;
        this.#settledUpTo.set(row.instrument_id, upTo);
        this.#send({
          type: 'settle_trades',
          id: `settle:${row.instrument_id}:${upTo}`,
          instrumentId: row.instrument_id,
          upToTradeId: upTo,
        });
      }
    }
    await this.#flush();
  }

  /**
   * Between customers' orders the ladder follows the price only where it matters: a customer's resting
   * order the price has reached (it must fill), a book someone is watching, or no ladder yet. A watched
   * ladder moves once the price has moved by a ladder step (requoteTicks); a smaller move leaves every
   * bid below the price and every ask above it. An idle book is left alone, so the journal and the
   * tables grow with customers, not with the clock (docs/decisions/0015-bounded-growth.md).
   */
  #maybeRequote(instrument: Instrument, now: number) {
    const last = this.#market.lastTicks(instrument.id)?.lastTicks;
    if (last === undefined) return;
    const quoted = this.#quoted.get(instrument.id);
    if (!quoted) {
      this.#requote(instrument, now);
      return;
    }
    if (!this.#isStale(instrument.id, last)) return;
    if (this.#customerCrosses(instrument.id, last)) {
      this.#requote(instrument, now);
      return;
    }
    const watchedAt = this.#watched.get(instrument.id) ?? -Infinity;
    const watched = now - watchedAt < WATCH_WINDOW_MS && now - quoted.atMs >= WATCHED_REQUOTE_MS;
    if (watched && this.#movedEnough(quoted, last)) this.#requote(instrument, now);
  }

  /** The price moved by at least a ladder step since the ladder went up, or some of its quotes were taken. */
  #movedEnough(quoted: Quoted, lastTicks: number): boolean {
    if (Math.abs(lastTicks - quoted.lastTicks) >= requoteTicks(quoted.lastTicks)) return true;
    return quoted.orderIds.some((id) => this.#engine.state.order(id) === undefined);
  }

  /**
   * Whether a customer's resting order is at or through `lastTicks` (a bid at or above it, an ask at or
   * below it): the book's levels there hold more than the market maker's own quotes.
   */
  #customerCrosses(instrumentId: string, lastTicks: number): boolean {
    const view = this.#engine.state.market(instrumentId);
    if (!view) return false;
    const bidCrosses = view.bestBidTicks !== null && view.bestBidTicks >= lastTicks;
    const askCrosses = view.bestAskTicks !== null && view.bestAskTicks <= lastTicks;
    if (!bidCrosses && !askCrosses) return false;
    const own = new Map<string, number>();
    for (const id of this.#quoted.get(instrumentId)?.orderIds ?? []) {
      const o = this.#engine.state.order(id);
      if (o) own.set(`${o.side}:${o.priceTicks}`, (own.get(`${o.side}:${o.priceTicks}`) ?? 0) + o.remainingLots);
    }
    // More crossing levels than the market maker quotes are certain to include a customer's.
    const { bids, asks } = this.#engine.state.depth(instrumentId, LEVELS + 1);
    const crossing = (side: 'buy' | 'sell', levels: [number, number][], through: (ticks: number) => boolean) =>
      levels.some(([ticks, lots]) => through(ticks) && lots > (own.get(`${side}:${ticks}`) ?? 0));
    return (
      (bidCrosses && crossing('buy', bids, (t) => t >= lastTicks)) ||
      (askCrosses && crossing('sell', asks, (t) => t <= lastTicks))
    );
  }

  /** The price moved since the last quote, or some of the quotes were taken. */
  #isStale(instrumentId: string, lastTicks: number): boolean {
    const quoted = this.#quoted.get(instrumentId);
    if (!quoted || quoted.lastTicks !== lastTicks || quoted.orderIds.length === 0) return true;
    return quoted.orderIds.some((id) => this.#engine.state.order(id) === undefined);
  }

  #openSession(instrument: Instrument, day: string, now: number) {
    this.#requote(instrument, now, true);
    this.#send({
      type: 'set_trading_status',
      id: `open:${instrument.id}:${day}`,
      instrumentId: instrument.id,
      halted: false,
    });
  }

  #closeSession(instrument: Instrument, day: string, now: number) {
    this.#withdraw(instrument, now);
    this.#send({
      type: 'set_trading_status',
      id: `close:${instrument.id}:${day}`,
      instrumentId: instrument.id,
      halted: true,
    });
  }

  /** The day's reference price (the previous close) and band, from the simulator. */
  #setReference(instrument: Instrument, today: string) {
    const raw = this.#market.lastTicks(instrument.id);
    if (!raw) return;
    const prev = raw.tradingDay === today ? raw.prevCloseTicks : raw.lastTicks;
    const band = priceBand(prev, instrument.priceBandPct);
    this.#send({
      type: 'set_reference_price',
      id: `reference:${instrument.id}:${today}:${prev}`,
      instrumentId: instrument.id,
      priceTicks: prev,
      ...(band ? { bandLoTicks: Math.max(1, band.lowerTicks), bandHiTicks: band.upperTicks } : {}),
    });
  }

  #withdraw(instrument: Instrument, now: number) {
    const quoted = this.#quoted.get(instrument.id);
    if (!quoted) return;
    for (const orderId of quoted.orderIds) {
      this.#send({ type: 'cancel_order', id: `mm:cancel:${orderId}`, userId: marketMakerOf(instrument.id), orderId });
    }
    this.#quoted.set(instrument.id, { lastTicks: quoted.lastTicks, atMs: now, orderIds: [] });
  }

  /**
   * Cancel the old ladder; fill resting user orders the simulated price has reached; quote a new ladder
   * of post-only orders around the price (inside the band). All synchronous, so no command interleaves.
   */
  #requote(instrument: Instrument, now: number, opening = false) {
    const raw = this.#market.lastTicks(instrument.id);
    if (!raw) return;
    const last = raw.lastTicks;
    this.#withdraw(instrument, now);
    this.#fund(instrument, last);
    const view = this.#engine.state.market(instrument.id);
    if (!view) return;
    const lo = Math.max(1, view.bandLoTicks ?? 1);
    const hi = view.bandHiTicks ?? Number.MAX_SAFE_INTEGER;
    const step = requoteTicks(last);
    const baseLots = this.#levelLots(instrument, last);
    const orderIds: number[] = [];
    if (!opening) {
      // The simulated market traded at `last`: resting user orders at or through it execute there.
      const sweep = baseLots * 3;
      if (view.bestBidTicks !== null && view.bestBidTicks >= last) this.#place(instrument, 'sell', last, sweep, 'ioc');
      if (view.bestAskTicks !== null && view.bestAskTicks <= last) this.#place(instrument, 'buy', last, sweep, 'ioc');
    }
    for (let k = 0; k < LEVELS; k++) {
      const bid = last - step * (k + 1);
      const ask = last + step * (k + 1);
      const lots = baseLots * (k + 1);
      if (bid >= lo && bid <= hi) orderIds.push(...this.#place(instrument, 'buy', bid, lots, 'gtc'));
      if (ask >= lo && ask <= hi) orderIds.push(...this.#place(instrument, 'sell', ask, lots, 'gtc'));
    }
    this.#quoted.set(instrument.id, { lastTicks: last, atMs: now, orderIds });
  }

  #levelLots(instrument: Instrument, lastTicks: number): number {
    const price = Number(instrument.tickSize) * lastTicks;
    const value = LEVEL_VALUE[instrument.currency] ?? 10_000;
    return Math.max(1, Math.floor(value / Math.max(price, 0.01) / Number(instrument.lotSize)));
  }

  /** Places one market-maker order now (applied synchronously); answers the ids of what rests. */
  #place(
    instrument: Instrument,
    side: 'buy' | 'sell',
    priceTicks: number,
    qtyLots: number,
    tif: 'gtc' | 'ioc',
  ): number[] {
    // The engine's sequence number makes each quote's id new, across restarts too.
    const id = `mm:${instrument.id}:${this.#engine.seq}:${side}:${priceTicks}:${tif}`;
    const result = this.#send({
      type: 'place_order',
      id,
      userId: marketMakerOf(instrument.id),
      instrumentId: instrument.id,
      side,
      orderType: 'limit',
      priceTicks,
      qtyLots,
      timeInForce: tif,
      ...(tif === 'gtc' ? { postOnly: true } : {}),
    });
    const placed = result?.ok ? result.events[0] : undefined;
    // Only a resting quote (not a filled sweep) is withdrawn later; cancelling a finished one is harmless.
    return placed?.type === 'order_placed' && tif === 'gtc' ? [placed.orderId] : [];
  }

  /** Keeps the market maker's cash and shares above half their float, from platform:liquidity. */
  #fund(instrument: Instrument, lastTicks: number) {
    const spec = this.#engine.state.instrument(instrument.id);
    if (!spec) return;
    const mm = marketMakerOf(instrument.id);
    const cashText = CASH_FLOAT[instrument.currency] ?? '1000000.00';
    const cash = this.#engine.state.balance(mm, 'stock', instrument.currency);
    const floats: [string, string, bigint, bigint][] = [
      [instrument.currency, cashText, cash.available, parseDecimal(cashText, spec.quote.scale)],
    ];
    const shareLots = BigInt(this.#levelLots(instrument, lastTicks) * SHARE_FLOAT_LEVELS);
    const shares = this.#engine.state.balance(mm, 'stock', spec.base.code);
    const shareMinor = shareLots * spec.lotMinor;
    floats.push([spec.base.code, formatDecimal(shareMinor, spec.base.scale), shares.available, shareMinor]);
    for (const [asset, amount, available, target] of floats) {
      if (available * 2n >= target) continue;
      this.#send({
        type: 'deposit',
        id: `mm:fund:${instrument.id}:${asset}:${this.#engine.seq}`,
        userId: mm,
        wallet: 'stock',
        asset,
        amount,
        from: 'liquidity',
        cause: 'deposit',
        link: 'paper-venue',
      });
    }
  }

  #send(command: CommandInput): ApplyResult | undefined {
    const { result, committed } = this.#engine.apply(command);
    this.#pending.push(committed);
    return result;
  }

  /** Waits for the journal commit of everything sent so far. */
  async #flush(): Promise<void> {
    const pending = this.#pending;
    this.#pending = [];
    await Promise.all(pending);
  }
}
