// The paper venue (PRODUCT.md, "Stocks"): the engine's own book per stock, with a disclosed liquidity
// account per stock, marketMakerOf(id) ("mm:NSE:RELIANCE"), quoting a ladder around the simulated price. It never reads users' orders to set
// a price: the ladder comes from the simulator alone. It does read the book to *execute*: when the
// simulated price trades at or through a user's resting limit, the market maker fills it (at the
// user's limit price, up to a per-quote size), which is what "limit orders rest until the price reaches
// them" means on a real exchange. Quotes are refreshed lazily (before a user order, when the price
// reaches a customer's resting order, and while someone is watching the book, once the price has moved
// a ladder step), so the journal does not grow by thousands of commands a second for nobody. The ladder
// and when to move it are ../quote-ladder.ts, shared with the crypto exchange's liquidity bot.
//
// Sessions follow the exchange calendars: at the close the market maker withdraws and the instrument is
// halted (orders then queue as after-market orders); at the open the day's reference price and band are
// set, the ladder goes up, and trading resumes so queued orders meet it. Settlement (T+1, B3 D+2) is a
// journaled settle_trades command per instrument once the settlement day has begun.

import type { Db } from '@bourse/db';
import { type ExchangeId, type Instrument, isOpen, priceBand, tradingDayOf } from '@bourse/market';
import { formatDecimal, parseDecimal } from '@bourse/money';
import type { StockSettings } from '../../../config.ts';
import type { CommandInput, TradingEngine } from '../../../engine-host/trading-engine.ts';
import type { MarketData } from '../../../features/markets/service.ts';
import { settledCutoffMs } from '../../../features/stocks/settlement-calendar.ts';
import { stockSpec, tradableStocks } from '../../../features/stocks/stock-instruments.ts';
import type { Clock } from '../../../platform/clock.ts';
import { marketMakerOf, QuoteLadder } from '../quote-ladder.ts';

export { isMarketMaker, marketMakerOf } from '../quote-ladder.ts';

// The disclosed liquidity account of one stock is an engine user funded from platform:liquidity
// (marketMakerOf). One per stock keeps each within the engine's open-order limit and makes its books
// easy to audit.

/** Five levels a side, 5 bp apart; a watched book is requoted at most every 3 s, for a minute after a look. */
const SHAPE = { levels: 5, spreadBps: 5, watchedRequoteMs: 3_000, watchWindowMs: 60_000 };
/** Roughly what one ladder level is worth, per currency; level k shows (k + 1) × that. */
const LEVEL_VALUE: Record<string, number> = { INR: 500_000, USD: 20_000, BRL: 100_000 };
/** Cash a market maker keeps; topped up from platform:liquidity when below half. Shares: 100 levels' worth. */
const CASH_FLOAT: Record<string, string> = { INR: '50000000.00', USD: '2000000.00', BRL: '10000000.00' };
const SHARE_FLOAT_LEVELS = 100;
const SETTLE_EVERY_MS = 60_000;

export class PaperVenue {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #market: MarketData;
  readonly #clock: Clock;
  readonly #stocks: Instrument[];
  readonly #byExchange = new Map<ExchangeId, Instrument[]>();
  readonly #ladder: QuoteLadder;
  readonly #settledUpTo = new Map<string, number>();
  readonly #referenceDay = new Map<string, string>();
  #settledAt = 0;

  private constructor(db: Db, engine: TradingEngine, market: MarketData, clock: Clock) {
    this.#db = db;
    this.#engine = engine;
    this.#market = market;
    this.#clock = clock;
    this.#stocks = tradableStocks();
    this.#ladder = new QuoteLadder(engine, SHAPE);
    for (const instrument of this.#stocks) this.#index(instrument);
  }

  #index(instrument: Instrument) {
    const list = this.#byExchange.get(instrument.exchange);
    if (list) list.push(instrument);
    else this.#byExchange.set(instrument.exchange, [instrument]);
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
    for (const instrument of venue.#stocks) venue.#ladder.adopt(instrument.id);
    await venue.sync();
    return venue;
  }

  get stocks(): readonly Instrument[] {
    return this.#stocks;
  }

  /**
   * A stock listed at run time (features/listings): registered in the engine (journaled; the id makes a
   * repeat after a restart a no-op), then quoted and sessioned like the others from the next sync.
   */
  async addStock(instrument: Instrument, settings: StockSettings): Promise<void> {
    if (this.#stocks.some((s) => s.id === instrument.id)) return;
    if (!this.#engine.state.instrument(instrument.id)) {
      this.#send({
        type: 'register_instrument',
        id: `instrument:${instrument.id}`,
        instrument: stockSpec(instrument, settings),
      });
      await this.#flush();
    }
    this.#stocks.push(instrument);
    this.#index(instrument);
    this.#ladder.adopt(instrument.id);
    await this.sync();
  }

  /** Someone is looking at this book: keep its ladder fresh for a while. */
  watch(instrumentId: string): void {
    this.#ladder.watch(instrumentId, this.#clock.now());
  }

  /** Before a user's order: the ladder reflects the simulated price of this moment. */
  async prepare(instrument: Instrument): Promise<void> {
    const now = this.#clock.now();
    if (!isOpen(instrument.exchange, now)) return;
    const last = this.#market.lastTicks(instrument.id)?.lastTicks;
    if (last !== undefined && this.#ladder.isStale(instrument.id, last)) this.#requote(instrument, now);
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

  /** A customer's crossed order, a watched book that moved, or no ladder yet (QuoteLadder.wantsRequote). */
  #maybeRequote(instrument: Instrument, now: number) {
    const last = this.#market.lastTicks(instrument.id)?.lastTicks;
    if (last !== undefined && this.#ladder.wantsRequote(instrument.id, last, now)) this.#requote(instrument, now);
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
    this.#ladder.withdraw(instrument.id, now);
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

  /**
   * A new ladder around the simulated price, inside the day's band; before it, resting customer orders
   * the price has reached are filled (not at the open: queued orders meet the new ladder instead).
   */
  #requote(instrument: Instrument, now: number, opening = false) {
    const raw = this.#market.lastTicks(instrument.id);
    if (!raw) return;
    const last = raw.lastTicks;
    // Withdrawn first, so the float is counted without what the old quotes held.
    this.#ladder.withdraw(instrument.id, now);
    this.#fund(instrument, last);
    const view = this.#engine.state.market(instrument.id);
    if (!view) return;
    const baseLots = this.#levelLots(instrument, last);
    this.#ladder.requote(
      instrument.id,
      {
        lastTicks: last,
        baseLots,
        loTicks: Math.max(1, view.bandLoTicks ?? 1),
        hiTicks: view.bandHiTicks ?? Number.MAX_SAFE_INTEGER,
        sweepLots: opening ? 0 : baseLots * 3,
      },
      now,
    );
  }

  #levelLots(instrument: Instrument, lastTicks: number): number {
    const price = Number(instrument.tickSize) * lastTicks;
    const value = LEVEL_VALUE[instrument.currency] ?? 10_000;
    return Math.max(1, Math.floor(value / Math.max(price, 0.01) / Number(instrument.lotSize)));
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

  #send(command: CommandInput) {
    return this.#ladder.send(command);
  }

  #flush(): Promise<void> {
    return this.#ladder.flush();
  }
}
