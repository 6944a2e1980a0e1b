// Holdings (SPEC §3 order/position fields): quantity from the ledger, locked-until-settlement from the
// engine's settlement locks (sellable = what is free of locks and open sell orders), average price and
// realized P&L from the user's own trades by the average-cost method with fees in the cost (bought
// fees raise the cost, sold fees lower the proceeds), and market value, floating and today's P&L at the
// simulated price.
//
// SPEC §4's "locked t+1 positions are sold under separate handling" is read as: locked shares cannot be
// sold at all until settlement; the holding shows them apart (locked, with the time they unlock), and a
// sell larger than the sellable quantity is refused with "Not enough quantity".

import type { HoldingView } from '@bourse/contract';
import type { Db } from '@bourse/db';
import type { Instrument as EngineInstrument } from '@bourse/engine';
import { decimalToTicks, type Instrument, tradingDayOf } from '@bourse/market';
import { formatDecimal } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import type { MarketData } from '../markets/service.ts';
import type { TradeRow } from './repo.ts';
import * as repo from './repo.ts';
import { unlockAtMs } from './settlement-calendar.ts';

type Book = {
  lots: bigint;
  cost: bigint;
  realized: bigint;
  /** Today's flows, for today's P&L: lots bought minus sold, cash paid minus received. */
  todayLots: bigint;
  todayCash: bigint;
};

export class Holdings {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #market: MarketData;
  readonly #stocks: readonly Instrument[];

  constructor(db: Db, engine: TradingEngine, market: MarketData, stocks: readonly Instrument[]) {
    this.#db = db;
    this.#engine = engine;
    this.#market = market;
    this.#stocks = stocks;
  }

  async list(userId: number, now: number): Promise<HoldingView[]> {
    const owner = String(userId);
    const trades = await repo.listUserTrades(this.#db, owner);
    return this.#views(owner, this.#stocks, trades, now);
  }

  async info(userId: number, instrumentId: string, now: number): Promise<HoldingView | null> {
    const owner = String(userId);
    const instrument = this.#stocks.find((i) => i.id === instrumentId);
    if (!instrument) return null;
    const trades = await repo.listUserTradesIn(this.#db, owner, instrumentId);
    return this.#views(owner, [instrument], trades, now)[0] ?? null;
  }

  /** A holding for each stock the user holds or has traded (trades in id order). */
  #views(owner: string, stocks: readonly Instrument[], trades: TradeRow[], now: number): HoldingView[] {
    const byInstrument = new Map<string, TradeRow[]>();
    for (const t of trades) {
      const rows = byInstrument.get(t.instrument_id);
      if (rows) rows.push(t);
      else byInstrument.set(t.instrument_id, [t]);
    }
    const out: HoldingView[] = [];
    for (const instrument of stocks) {
      const spec = this.#engine.state.instrument(instrument.id);
      if (!spec) continue;
      const shares = this.#engine.state.balance(owner, 'stock', spec.base.code);
      const rows = byInstrument.get(instrument.id) ?? [];
      if (shares.balance === 0n && rows.length === 0) continue;
      out.push(this.#view(owner, instrument, spec, rows, now));
    }
    return out;
  }

  #view(owner: string, instrument: Instrument, spec: EngineInstrument, rows: TradeRow[], now: number): HoldingView {
    const today = tradingDayOf(instrument.exchange, now);
    const b: Book = { lots: 0n, cost: 0n, realized: 0n, todayLots: 0n, todayCash: 0n };
    for (const t of rows) {
      const isMaker = t.maker_user_id === owner;
      const side = isMaker ? (t.taker_side === 'buy' ? 'sell' : 'buy') : t.taker_side;
      const lots = BigInt(t.qty_lots);
      const notional = BigInt(t.notional);
      const fee = BigInt(isMaker ? t.maker_fee : t.taker_fee);
      const isToday = tradingDayOf(instrument.exchange, Number(t.at)) === today;
      if (side === 'buy') {
        b.lots += lots;
        b.cost += notional + fee;
        if (isToday) {
          b.todayLots += lots;
          b.todayCash += notional + fee;
        }
      } else {
        const costOut = b.lots > 0n ? (b.cost * lots) / b.lots : 0n;
        b.realized += notional - fee - costOut;
        b.cost -= costOut;
        b.lots -= lots;
        if (isToday) {
          b.todayLots -= lots;
          b.todayCash -= notional - fee;
        }
      }
    }
    const quote = this.#market.quote(instrument);
    const lastTicks = decimalToTicks(quote.price, instrument.tickSize) ?? 0;
    const prevTicks = decimalToTicks(quote.prevClose, instrument.tickSize) ?? lastTicks;
    const shares = this.#engine.state.balance(owner, 'stock', spec.base.code);
    const locks = this.#engine.state.settlementLocks(owner, instrument.id);
    const lockedLots = locks.reduce((sum, l) => sum + l.qtyLots, 0);
    const lots = shares.balance / spec.lotMinor;
    const value = (ticks: number, n: bigint) => (BigInt(ticks) * spec.tickMinor * n * spec.lotMinor) / spec.baseUnit;
    const marketValue = value(lastTicks, lots);
    const floating = marketValue - b.cost;
    const startLots = lots - b.todayLots;
    const todayPnl = marketValue - value(prevTicks, startLots) - b.todayCash;
    const scale = spec.quote.scale;
    const pct = b.cost > 0n ? (floating * 10_000n) / b.cost : 0n;
    const first = locks[0];
    return {
      symbol: instrument.id,
      name: instrument.name,
      currency: spec.quote.code,
      quantity: formatDecimal(shares.balance, spec.base.scale),
      sellable: formatDecimal(shares.available, spec.base.scale),
      locked: formatDecimal(BigInt(lockedLots) * spec.lotMinor, spec.base.scale),
      avgPrice: formatDecimal(lots > 0n ? (b.cost * spec.baseUnit) / (lots * spec.lotMinor) : 0n, scale),
      lastPrice: quote.price,
      marketValue: formatDecimal(marketValue, scale),
      floatingPnl: formatDecimal(floating, scale),
      floatingPnlPct: formatDecimal(pct, 2),
      todayPnl: formatDecimal(lots > 0n || b.todayLots !== 0n ? todayPnl : 0n, scale),
      realizedPnl: formatDecimal(b.realized, scale),
      unlocksAt: first ? unlockAtMs(instrument.exchange, first.timeMs) : null,
    };
  }
}
