// Holdings (SPEC §3 order/position fields): quantity from the ledger, locked-until-settlement from the
// engine's settlement locks (sellable = what is free of locks and open sell orders), average price and
// realized P&L from the user's own trades and allotments (IPO, block trade: bought at what was paid) by the
// average-cost method with fees in the cost (bought fees raise the cost, sold fees lower the proceeds), and
// market value, floating and today's P&L at the simulated price. Locked is everything held on the shares
// but open sell orders: T+1 settlement locks and allotted shares waiting for their listing or settlement.
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
import type { AllotmentRow, RobotReturnRow, TradeRow } from './repo.ts';
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
    const [trades, allotments, robotReturns] = await Promise.all([
      repo.listUserTrades(this.#db, owner),
      repo.listUserAllotments(this.#db, owner),
      repo.listUserRobotReturns(this.#db, owner),
    ]);
    return this.#views(owner, this.#stocks, trades, allotments, robotReturns, now);
  }

  async info(userId: number, instrumentId: string, now: number): Promise<HoldingView | null> {
    const owner = String(userId);
    const instrument = this.#stocks.find((i) => i.id === instrumentId);
    if (!instrument) return null;
    const [trades, allotments, robotReturns] = await Promise.all([
      repo.listUserTradesIn(this.#db, owner, instrumentId),
      repo.listUserAllotments(this.#db, owner),
      repo.listUserRobotReturns(this.#db, owner),
    ]);
    return this.#views(owner, [instrument], trades, allotments, robotReturns, now)[0] ?? null;
  }

  /** A holding for each stock the user holds or has traded (trades in id order). */
  #views(
    owner: string,
    stocks: readonly Instrument[],
    trades: TradeRow[],
    allotments: AllotmentRow[],
    robotReturns: RobotReturnRow[],
    now: number,
  ): HoldingView[] {
    const byInstrument = new Map<string, Flow[]>();
    const add = (instrumentId: string, flow: Flow) => {
      const rows = byInstrument.get(instrumentId);
      if (rows) rows.push(flow);
      else byInstrument.set(instrumentId, [flow]);
    };
    for (const t of trades) add(t.instrument_id, flowOfTrade(t, owner));
    // Allotted shares of a stock not listed yet (no engine instrument) are shown apart (#unlistedView).
    const unlisted = new Map<string, AllotmentRow[]>();
    for (const a of allotments) {
      const spec = this.#engine.state.instrument(instrumentIdOfShare(a.asset));
      if (!spec) {
        unlisted.set(a.asset, [...(unlisted.get(a.asset) ?? []), a]);
        continue;
      }
      const lots = BigInt(a.qty) / spec.lotMinor;
      add(spec.id, { side: 'buy', lots, notional: BigInt(a.paid ?? '0'), fee: 0n, at: Number(a.at) });
    }
    // Shares a robot run gave back: at the run's average cost of what it still held (its fills, not free).
    for (const r of robotReturns) {
      const spec = this.#engine.state.instrument(instrumentIdOfShare(r.asset));
      if (!spec) continue;
      const lots = BigInt(r.qty) / spec.lotMinor;
      const runLots = BigInt(String(r.run_lots));
      const cost = runLots > 0n ? (BigInt(String(r.run_cost)) * lots) / runLots : 0n;
      add(spec.id, { side: 'buy', lots, notional: cost, fee: 0n, at: Number(r.at) });
    }
    for (const rows of byInstrument.values()) rows.sort((x, y) => x.at - y.at);
    const out: HoldingView[] = [];
    for (const instrument of stocks) {
      const spec = this.#engine.state.instrument(instrument.id);
      if (!spec) continue;
      const shares = this.#engine.state.balance(owner, 'stock', spec.base.code);
      const rows = byInstrument.get(instrument.id) ?? [];
      if (shares.balance === 0n && rows.length === 0) continue;
      out.push(this.#view(owner, instrument, spec, rows, now));
    }
    if (stocks.length === this.#stocks.length) {
      for (const [asset, rows] of unlisted) {
        const view = this.#unlistedView(owner, asset, rows);
        if (view) out.push(view);
      }
    }
    return out;
  }

  /**
   * Shares allotted before their stock lists (an IPO between its draw and listing day): held, not
   * sellable, valued at what was paid for them (the issue price) until the market prices them.
   */
  #unlistedView(owner: string, asset: string, rows: AllotmentRow[]): HoldingView | undefined {
    const shares = this.#engine.state.balance(owner, 'stock', asset);
    const currency = rows.find((r) => r.paid_asset)?.paid_asset;
    const quote = currency ? this.#engine.state.asset(currency) : undefined;
    const shareAsset = this.#engine.state.asset(asset);
    if (shares.balance === 0n || !quote || !shareAsset) return undefined;
    const qty = rows.reduce((sum, r) => sum + BigInt(r.qty), 0n);
    const paid = rows.reduce((sum, r) => sum + BigInt(r.paid ?? '0'), 0n);
    const unit = 10n ** BigInt(shareAsset.scale);
    const price = qty > 0n ? (paid * unit) / qty : 0n;
    const value = (price * shares.balance) / unit;
    const symbol = instrumentIdOfShare(asset);
    const zero = formatDecimal(0n, quote.scale);
    return {
      symbol,
      name: symbol.split(':')[1] ?? symbol,
      currency: quote.code,
      quantity: formatDecimal(shares.balance, shareAsset.scale),
      sellable: formatDecimal(shares.available, shareAsset.scale),
      locked: formatDecimal(shares.balance - shares.available, shareAsset.scale),
      avgPrice: formatDecimal(price, quote.scale),
      lastPrice: formatDecimal(price, quote.scale),
      marketValue: formatDecimal(value, quote.scale),
      floatingPnl: zero,
      floatingPnlPct: formatDecimal(0n, 2),
      todayPnl: zero,
      realizedPnl: zero,
      unlocksAt: null,
      listed: false,
    };
  }

  #view(owner: string, instrument: Instrument, spec: EngineInstrument, rows: Flow[], now: number): HoldingView {
    const today = tradingDayOf(instrument.exchange, now);
    const b: Book = { lots: 0n, cost: 0n, realized: 0n, todayLots: 0n, todayCash: 0n };
    for (const { side, lots, notional, fee, at } of rows) {
      const isToday = tradingDayOf(instrument.exchange, at) === today;
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
    const heldForSale = this.#engine.state
      .openOrders(owner)
      .filter((o) => o.instrumentId === instrument.id && o.side === 'sell')
      .reduce((sum, o) => sum + o.holdAmount, 0n);
    const locked = shares.balance - shares.available - heldForSale;
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
      locked: formatDecimal(locked > 0n ? locked : 0n, spec.base.scale),
      avgPrice: formatDecimal(lots > 0n ? (b.cost * spec.baseUnit) / (lots * spec.lotMinor) : 0n, scale),
      lastPrice: quote.price,
      marketValue: formatDecimal(marketValue, scale),
      floatingPnl: formatDecimal(floating, scale),
      floatingPnlPct: formatDecimal(pct, 2),
      todayPnl: formatDecimal(lots > 0n || b.todayLots !== 0n ? todayPnl : 0n, scale),
      realizedPnl: formatDecimal(b.realized, scale),
      unlocksAt: first ? unlockAtMs(instrument.exchange, first.timeMs) : null,
      listed: true,
    };
  }
}

/** One change of a holding: a trade's side of it, or an allotment (a buy at what was paid, no fee). */
type Flow = { side: 'buy' | 'sell'; lots: bigint; notional: bigint; fee: bigint; at: number };

function flowOfTrade(t: TradeRow, owner: string): Flow {
  const isMaker = t.maker_user_id === owner;
  return {
    side: isMaker ? (t.taker_side === 'buy' ? 'sell' : 'buy') : t.taker_side,
    lots: BigInt(t.qty_lots),
    notional: BigInt(t.notional),
    fee: BigInt(isMaker ? t.maker_fee : t.taker_fee),
    at: Number(t.at),
  };
}

/** The stock instrument of a share asset: SHARE:NSE:TCS → NSE:TCS. */
function instrumentIdOfShare(asset: string): string {
  return asset.slice('SHARE:'.length);
}
