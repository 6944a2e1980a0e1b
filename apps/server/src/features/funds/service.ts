// The AI funds line (PRODUCT.md "AI funds are model portfolios rebalanced on a schedule", decision 0040).
// A fund is a model portfolio over one market's stocks, held by its own engine account `fund:<id>` in the
// stock wallet. Once per trading day while its market is open, the job rebalances it to its rule's pick
// (rules.ts, pure) with ordinary IOC limit orders on the paper venue's books, the path customers' stock
// orders take, so its results are its fills. After the market's close the job values it (cash plus
// shares at the last price), and converts the orders waiting for that valuation at its NAV: a
// subscription's held cash becomes units, a redemption's units become cash paid from the fund. Each
// money move is an engine command named after its order row (hold → post to the pass-through account
// `exchange:fund-<id>` → deposit), so a restart finishes a half-done move and re-sends nothing twice.
// The console creates, changes and retires funds with a second approval; nothing in it sets a figure.

import type {
  CreateFundInput,
  FundHoldingView,
  FundInfoView,
  FundListItem,
  FundOrderView,
  FundValuationView,
  StaffFundView,
} from '@bourse/contract';
import type { Db, Sql } from '@bourse/db';
import { type Instrument as EngineInstrument, tradeNotional } from '@bourse/engine';
import { currentOrNextSession, type Instrument, isOpen, sessionsBetween, ticksToDecimal } from '@bourse/market';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { PaperVenue } from '../../adapters/venue/paper/paper-venue.ts';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import type { MarketData } from '../markets/service.ts';
import { marketLimitTicks } from '../robots/strategies.ts';
import { appendAudit } from '../staff/audit.ts';
import { tradableStocks } from '../stocks/stock-instruments.ts';
import * as repo from './repo.ts';
import {
  cashFor,
  type FundRuleName,
  navScaled,
  type Position,
  pick,
  rebalanceTrades,
  targetLots,
  UNIT,
  unitsFor,
} from './rules.ts';

const DAY_MS = 86_400_000;
const WALLET = 'stock' as const;
/** The share of the fund kept in cash at a rebalance (fees, rounding to lots, small redemptions). */
const CASH_RESERVE_BPS = 200n;
const HISTORY_SHOWN = 120;

export const fundAccount = (id: number) => `fund:${id}`;
/** The fund's pass-through platform account: nets to zero once each move in or out is complete. */
export const fundClearing = (id: number) => `exchange:fund-${id}` as const;
const orderLink = (orderId: number) => `fund-order:${orderId}`;

export type FundsDeps = {
  db: Db;
  engine: TradingEngine;
  market: MarketData;
  venue: PaperVenue;
  clock: Clock;
  log: (message: string) => void;
};

type Stock = { instrument: Instrument; spec: EngineInstrument };

export class Funds {
  readonly #d: FundsDeps;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(deps: FundsDeps) {
    this.#d = deps;
  }

  /** Subscriptions, redemptions and the job one at a time (they read and move the same accounts). */
  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  // --- markets -------------------------------------------------------------------------------------

  #stocks(market: string): Stock[] {
    const out: Stock[] = [];
    for (const instrument of tradableStocks()) {
      if (instrument.exchange !== market) continue;
      const spec = this.#d.engine.state.instrument(instrument.id);
      if (spec) out.push({ instrument, spec });
    }
    return out.sort((a, b) => (a.instrument.id < b.instrument.id ? -1 : 1));
  }

  #scale(market: string): number {
    return this.#stocks(market)[0]?.spec.quote.scale ?? 2;
  }

  #last(stock: Stock): number {
    return this.#d.market.lastTicks(stock.instrument.id)?.lastTicks ?? 0;
  }

  /** The fund's cash, the value of its shares at their last prices, and its positions. */
  #holdings(fund: repo.FundRow) {
    const account = fundAccount(fund.id);
    const cash = this.#d.engine.state.balance(account, WALLET, fund.currency).balance;
    let shares = 0n;
    const positions: (Position & { stock: Stock; free: bigint; last: number })[] = [];
    for (const stock of this.#stocks(fund.market)) {
      const held = this.#d.engine.state.balance(account, WALLET, stock.spec.base.code);
      if (held.balance <= 0n) continue;
      const last = this.#last(stock);
      const lots = held.balance / stock.spec.lotMinor;
      const value = tradeNotional(stock.spec, last, Number(lots));
      shares += value;
      positions.push({
        id: stock.instrument.id,
        lots,
        lotPrice: tradeNotional(stock.spec, last, 1),
        stock,
        free: held.available / stock.spec.lotMinor,
        last,
      });
    }
    return { cash, shares, positions };
  }

  /** Cash the fund owes to redemptions priced but not paid yet (it is not the unit holders' any more). */
  async #owed(fundId: number): Promise<bigint> {
    let owed = 0n;
    for (const o of await repo.ordersOfFund(this.#d.db, fundId, 'priced'))
      if (o.side === 'redeem') owed += o.amount_minor ?? 0n;
    return owed;
  }

  // --- the console ---------------------------------------------------------------------------------

  async create(staffId: number, body: CreateFundInput, demo = false): Promise<StaffFundView> {
    const stocks = this.#stocks(body.market);
    if (stocks.length < Number(body.size)) throw fieldError('size', 'fund_params_invalid');
    const scale = this.#scale(body.market);
    const min = tryParseDecimal(String(body.minAmount), scale);
    if (!min.ok || min.minor <= 0n) throw fieldError('minAmount', 'field_invalid');
    const changes = body.changes === undefined ? null : Number(body.changes);
    if (changes !== null) {
      const target = await repo.findFund(this.#d.db, changes);
      if (target?.status !== 'approved' || target.changes_id !== null || target.market !== body.market)
        throw fieldError('changes', 'fund_not_changeable');
    }
    const at = this.#d.clock.now();
    const id = await this.#d.db.transaction(async (tx) => {
      const id = await repo.insertFund(
        tx,
        {
          name: body.name,
          rule: body.rule,
          market: body.market,
          size: Number(body.size),
          lookback_days: Number(body.lookbackDays),
          currency: stocks[0]?.spec.quote.code ?? '',
          min_minor: min.minor,
          note: body.note ?? '',
          demo,
          changes_id: changes,
          created_by: staffId,
        },
        at,
      );
      await audit(tx, staffId, changes === null ? 'fund.create' : 'fund.change', id, body.note ?? '', { ...body }, at);
      return id;
    });
    return this.staffFund(id);
  }

  async review(staffId: number, id: number, approve: boolean, reason: string, system = false) {
    const row = await repo.findFund(this.#d.db, id);
    if (!row) throw new AppError('fund_not_found');
    if (row.status !== 'pending_approval') throw new AppError('fund_not_reviewable');
    if (row.created_by === staffId && !system) throw new AppError('fund_second_approver');
    const at = this.#d.clock.now();
    await this.#d.db.transaction(async (tx) => {
      const to = approve ? 'approved' : 'rejected';
      if (!(await repo.moveFund(tx, id, 'pending_approval', to, at, { approved_by: staffId, review_reason: reason })))
        throw new AppError('fund_not_reviewable');
      // A change approved: its parameters apply to the fund it names from the next rebalance on.
      if (approve && row.changes_id !== null) await repo.applyChange(tx, row, at);
      await audit(tx, staffId, approve ? 'fund.approve' : 'fund.reject', id, reason, { name: row.name }, at);
    });
    return this.staffFund(id);
  }

  /** Retired: no new subscriptions; it keeps valuing, and its holders may still redeem. */
  async retire(staffId: number, id: number, reason: string) {
    const row = await repo.findFund(this.#d.db, id);
    if (!row) throw new AppError('fund_not_found');
    const at = this.#d.clock.now();
    await this.#d.db.transaction(async (tx) => {
      if (row.changes_id !== null || !(await repo.moveFund(tx, id, 'approved', 'retired', at)))
        throw new AppError('fund_not_retirable');
      await audit(tx, staffId, 'fund.retire', id, reason, { name: row.name }, at);
    });
    return this.staffFund(id);
  }

  async staffFunds(): Promise<StaffFundView[]> {
    return Promise.all((await repo.allFunds(this.#d.db)).map((r) => this.#staffView(r)));
  }

  async staffFund(id: number): Promise<StaffFundView> {
    const row = await repo.findFund(this.#d.db, id);
    if (!row) throw new AppError('fund_not_found');
    return this.#staffView(row);
  }

  async #staffView(row: repo.FundRow): Promise<StaffFundView> {
    const last = (await repo.valuations(this.#d.db, row.id, 1))[0];
    return {
      id: row.id,
      name: row.name,
      rule: row.rule,
      market: row.market,
      size: row.size,
      lookbackDays: row.lookback_days,
      currency: row.currency,
      minAmount: formatDecimal(row.min_minor, this.#scale(row.market)),
      status: row.status,
      changes: row.changes_id,
      note: row.note,
      createdBy: row.created_by,
      approvedBy: row.approved_by,
      reviewReason: row.review_reason,
      createdAt: row.created_at,
      last: last ? this.#valuationView(row, last) : null,
      valuations: await repo.countValuations(this.#d.db, row.id),
    };
  }

  /**
   * Paper mode's demo fund: momentum over BSE's stocks (ten, so the first rebalance generates ten stocks'
   * past candles, not NSE's sixty), approved by the system (staff id 0).
   */
  async seedDemo(): Promise<void> {
    if ((await repo.countDemoFunds(this.#d.db)) > 0) return;
    try {
      const created = await this.create(
        0,
        {
          name: 'BSE momentum 3',
          rule: 'momentum',
          market: 'BSE',
          size: 3,
          lookbackDays: 20,
          minAmount: '1000',
          note: 'paper mode demo',
        },
        true,
      );
      await this.review(0, created.id, true, 'paper mode demo', true);
    } catch (error) {
      this.#d.log(`demo fund not seeded: ${String(error)}`);
    }
  }

  // --- the customer's side -------------------------------------------------------------------------

  #valuationView(fund: repo.FundRow, v: repo.ValuationRow): FundValuationView {
    const scale = this.#scale(fund.market);
    return {
      day: v.day,
      time: v.time,
      nav: formatDecimal(navScaled(v.equity_minor, v.units_minor, scale), scale + 4),
      equity: formatDecimal(v.equity_after_minor, scale),
      units: formatDecimal(v.units_after_minor, 4),
    };
  }

  async #item(fund: repo.FundRow): Promise<FundListItem> {
    const last = (await repo.valuations(this.#d.db, fund.id, 1))[0];
    const first = await repo.firstValuation(this.#d.db, fund.id);
    return {
      kind: 'fund',
      id: fund.id,
      name: fund.name,
      rule: fund.rule,
      market: fund.market,
      size: fund.size,
      lookbackDays: fund.lookback_days,
      currency: fund.currency,
      minAmount: formatDecimal(fund.min_minor, this.#scale(fund.market)),
      last: last ? this.#valuationView(fund, last) : null,
      since: first ? this.#valuationView(fund, first) : null,
    };
  }

  /** Funds open to subscriptions, for /stock/ai/list. */
  async list(): Promise<FundListItem[]> {
    return Promise.all((await repo.listFunds(this.#d.db, ['approved'])).map((f) => this.#item(f)));
  }

  /** A fund customers may see (approved or retired, not a pending change). */
  async #visible(id: number): Promise<repo.FundRow> {
    const fund = await repo.findFund(this.#d.db, id);
    if (!fund || fund.changes_id !== null || (fund.status !== 'approved' && fund.status !== 'retired'))
      throw new AppError('fund_not_found');
    return fund;
  }

  async info(id: number, userId: number | null): Promise<FundInfoView> {
    const fund = await this.#visible(id);
    const scale = this.#scale(fund.market);
    const { cash, shares, positions } = this.#holdings(fund);
    const holdings: FundHoldingView[] = positions.map((p) => ({
      symbol: p.stock.instrument.symbol,
      name: p.stock.instrument.name,
      quantity: formatDecimal(p.lots * p.stock.spec.lotMinor, p.stock.spec.base.scale),
      price: ticksToDecimal(p.last, p.stock.instrument.tickSize),
      value: formatDecimal(p.lots * p.lotPrice, scale),
    }));
    const history = (await repo.valuations(this.#d.db, fund.id, HISTORY_SHOWN)).map((v) =>
      this.#valuationView(fund, v),
    );
    const now = this.#d.clock.now();
    const session = currentOrNextSession(fund.market, now);
    let mine: Pick<FundInfoView, 'myUnits' | 'myValue' | 'available' | 'pending'> = {
      myUnits: null,
      myValue: null,
      available: null,
      pending: [],
    };
    if (userId !== null) {
      const units = await repo.unitsOf(this.#d.db, fund.id, userId);
      const last = (await repo.valuations(this.#d.db, fund.id, 1))[0];
      const { rows } = await repo.ordersOfUser(this.#d.db, userId, 1, 100, fund.id);
      mine = {
        myUnits: formatDecimal(units, 4),
        // Units × the last NAV (rounded down), the NAV the last valuation converted orders at.
        myValue: last
          ? formatDecimal((units * navScaled(last.equity_minor, last.units_minor, scale)) / (UNIT * UNIT), scale)
          : null,
        available: formatDecimal(this.#d.engine.state.balance(String(userId), WALLET, fund.currency).available, scale),
        pending: rows
          .filter((o) => o.status === 'pending' || o.status === 'priced')
          .map((o) => this.#orderView(fund, o)),
      };
    }
    return {
      ...(await this.#item(fund)),
      cash: formatDecimal(cash, scale),
      equity: formatDecimal(cash + shares, scale),
      holdings,
      history,
      nextValuationDay: session.tradingDay,
      ...mine,
    };
  }

  /**
   * Holds `amount` of the customer's stock-wallet cash now; it becomes units at the next valuation. With a
   * key (clientOrderId / Idempotency-Key), a retry answers the first order and holds nothing more.
   */
  async subscribe(userId: number, id: number, amountText: string, checkPin: () => Promise<void>, key?: string) {
    const fund = await this.#visible(id);
    const scale = this.#scale(fund.market);
    const parsed = tryParseDecimal(amountText, scale);
    if (!parsed.ok) throw fieldError('amount', 'field_invalid');
    // A retry is answered as the first request was, even if the fund retired meanwhile.
    const earlier = key === undefined ? undefined : await repo.orderByKey(this.#d.db, userId, key);
    if (!earlier) {
      if (fund.status !== 'approved') throw new AppError('fund_retired');
      if (parsed.minor <= 0n) throw fieldError('amount', 'amount_zero');
      if (parsed.minor < fund.min_minor)
        throw fieldError('amount', 'fund_amount_below_minimum', () => ({
          min: `${formatDecimal(fund.min_minor, scale)} ${fund.currency}`,
        }));
    }
    await checkPin();
    return this.#serial(async () => {
      // Looked up again inside the serial section: a concurrent retry waits for the first and answers it.
      const first = key === undefined ? undefined : await repo.orderByKey(this.#d.db, userId, key);
      if (first) return this.#replay(first, fund.id, 'subscribe', parsed.minor);
      if (this.#d.engine.state.balance(String(userId), WALLET, fund.currency).available < parsed.minor)
        throw new AppError('insufficient_balance');
      const now = this.#d.clock.now();
      const orderId = await repo.insertOrder(
        this.#d.db,
        {
          fund_id: fund.id,
          user_id: userId,
          side: 'subscribe',
          amount_minor: parsed.minor,
          units_minor: null,
          client_key: key ?? null,
        },
        now,
      );
      const held = await this.#d.engine.submit({
        type: 'hold_funds',
        id: `fund-sub:${orderId}`,
        userId: String(userId),
        wallet: WALLET,
        asset: fund.currency,
        amount: formatDecimal(parsed.minor, scale),
        cause: 'wallet_transfer',
        link: orderLink(orderId),
      });
      if (!held.ok) {
        await repo.moveOrder(this.#d.db, orderId, 'pending', 'failed', this.#d.clock.now());
        throw new AppError('insufficient_balance');
      }
      return this.#orderView(fund, (await repo.findOrder(this.#d.db, orderId)) as repo.OrderRow);
    });
  }

  /**
   * Asks to redeem `units`; they are paid at the next valuation's NAV from the fund's cash. With a key, a
   * retry answers the first order and redeems nothing more.
   */
  async redeem(userId: number, id: number, unitsText: string, checkPin: () => Promise<void>, key?: string) {
    const fund = await this.#visible(id);
    const parsed = tryParseDecimal(unitsText, 4);
    if (!parsed.ok) throw fieldError('units', 'field_invalid');
    if (parsed.minor <= 0n) throw fieldError('units', 'amount_zero');
    await checkPin();
    return this.#serial(async () => {
      const first = key === undefined ? undefined : await repo.orderByKey(this.#d.db, userId, key);
      if (first) return this.#replay(first, fund.id, 'redeem', parsed.minor);
      const free =
        (await repo.unitsOf(this.#d.db, fund.id, userId)) -
        (await repo.pendingRedeemUnits(this.#d.db, fund.id, userId));
      if (parsed.minor > free) throw fieldError('units', 'fund_units_insufficient');
      const orderId = await repo.insertOrder(
        this.#d.db,
        {
          fund_id: fund.id,
          user_id: userId,
          side: 'redeem',
          amount_minor: null,
          units_minor: parsed.minor,
          client_key: key ?? null,
        },
        this.#d.clock.now(),
      );
      return this.#orderView(fund, (await repo.findOrder(this.#d.db, orderId)) as repo.OrderRow);
    });
  }

  /**
   * A request retried with its key: the first order as it is now (pending, priced or done), or its refusal
   * when its cash could not be held. The key sent with another fund, side or figure is refused. A
   * subscription is compared on its amount, a redemption on its units (the figures the customer sent;
   * the other one is fixed later, at the valuation).
   */
  async #replay(first: repo.OrderRow, fundId: number, side: 'subscribe' | 'redeem', minor: bigint) {
    const sent = side === 'subscribe' ? first.amount_minor : first.units_minor;
    if (first.fund_id !== fundId || first.side !== side || sent !== minor) throw new AppError('idempotency_key_reused');
    if (first.status === 'failed') throw new AppError('insufficient_balance');
    return this.#orderViewOf(first);
  }

  #orderView(fund: repo.FundRow, o: repo.OrderRow, v?: repo.ValuationRow): FundOrderView {
    const scale = this.#scale(fund.market);
    return {
      id: o.id,
      fundId: fund.id,
      name: fund.name,
      currency: fund.currency,
      side: o.side,
      status: o.status,
      amount: o.amount_minor === null ? null : formatDecimal(o.amount_minor, scale),
      units: o.units_minor === null ? null : formatDecimal(o.units_minor, 4),
      nav: v ? formatDecimal(navScaled(v.equity_minor, v.units_minor, scale), scale + 4) : null,
      createdAt: o.created_at,
      valuedAt: o.valued_at,
    };
  }

  async #orderViewOf(o: repo.OrderRow): Promise<FundOrderView> {
    const fund = (await repo.findFund(this.#d.db, o.fund_id)) as repo.FundRow;
    const v = o.valuation_id === null ? undefined : await repo.findValuation(this.#d.db, o.valuation_id);
    return this.#orderView(fund, o, v);
  }

  async orders(userId: number, q: { page: number; limit: number }) {
    const { rows, total } = await repo.ordersOfUser(this.#d.db, userId, q.page, q.limit);
    return { items: await Promise.all(rows.map((o) => this.#orderViewOf(o))), total };
  }

  async orderDetails(userId: number, id: number) {
    const o = await repo.findOrder(this.#d.db, id);
    if (!o || o.user_id !== userId) throw new AppError('fund_order_not_found');
    const fund = (await repo.findFund(this.#d.db, o.fund_id)) as repo.FundRow;
    const v = o.valuation_id === null ? undefined : await repo.findValuation(this.#d.db, o.valuation_id);
    return { order: this.#orderView(fund, o, v), valuation: v ? this.#valuationView(fund, v) : null };
  }

  // --- the job -------------------------------------------------------------------------------------

  /**
   * For each fund: finish money moves of priced orders; rebalance once per trading day while its market
   * is open; value it once after each session's close, while the market is closed (the latest closed
   * session: a restart catches up with the last one, at its closing prices, never a price of its own).
   */
  async tick(): Promise<void> {
    await this.#serial(async () => {
      for (const fund of await repo.listFunds(this.#d.db, ['approved', 'retired'])) {
        try {
          await this.#settle(fund);
          // A rebalance's sales may have raised the cash a priced redemption waits for.
          if (await this.#maybeRebalance(fund)) await this.#settle(fund);
          await this.#maybeValue(fund);
        } catch (error) {
          this.#d.log(`fund ${fund.id}: ${String(error)}`);
        }
      }
    });
  }

  /** Priced orders' cash: a subscription's hold into the fund; a redemption's pay-out from it, when the cash is there. */
  async #settle(fund: repo.FundRow): Promise<void> {
    const e = this.#d.engine;
    const scale = this.#scale(fund.market);
    for (const o of await repo.ordersOfFund(this.#d.db, fund.id, 'priced')) {
      const amount = formatDecimal(o.amount_minor ?? 0n, scale);
      const base = o.side === 'subscribe' ? `fund-sub:${o.id}` : `fund-red:${o.id}`;
      if (o.side === 'redeem' && (o.amount_minor ?? 0n) > 0n) {
        if (e.state.fundsHold(base) === undefined && !e.state.transferPosted(`${base}:post`)) {
          if (e.state.balance(fundAccount(fund.id), WALLET, fund.currency).available < (o.amount_minor ?? 0n)) continue;
          const held = await e.submit({
            type: 'hold_funds',
            id: base,
            userId: fundAccount(fund.id),
            wallet: WALLET,
            asset: fund.currency,
            amount,
            cause: 'wallet_transfer',
            link: orderLink(o.id),
          });
          if (!held.ok && e.state.fundsHold(base) === undefined) continue;
        }
      }
      if ((o.amount_minor ?? 0n) > 0n) {
        if (e.state.fundsHold(base) !== undefined) {
          const posted = await e.submit({
            type: 'post_hold',
            id: `${base}:post`,
            holdId: base,
            to: fundClearing(fund.id),
          });
          if (!posted.ok && posted.code !== 'hold_not_found') throw new Error(`post ${base} refused (${posted.code})`);
        }
        const credited = await e.submit({
          type: 'deposit',
          id: `${base}:credit`,
          userId: o.side === 'subscribe' ? fundAccount(fund.id) : String(o.user_id),
          wallet: WALLET,
          asset: fund.currency,
          amount,
          from: fundClearing(fund.id),
          cause: 'wallet_transfer',
          link: orderLink(o.id),
        });
        if (!credited.ok && credited.code !== 'command_id_reused' && credited.code !== 'transfer_id_reused')
          throw new Error(`credit ${base} refused (${credited.code})`);
      }
      await repo.moveOrder(this.#d.db, o.id, 'priced', 'done', this.#d.clock.now());
    }
  }

  /** True when it rebalanced now. */
  async #maybeRebalance(fund: repo.FundRow): Promise<boolean> {
    const now = this.#d.clock.now();
    if (fund.status !== 'approved' || !isOpen(fund.market, now)) return false;
    const day = currentOrNextSession(fund.market, now).tradingDay;
    if (fund.rebalanced_day === day) return false;
    // The day is written first: a crash mid-way skips the rest of today's trades rather than sending twice.
    await repo.setRebalanced(this.#d.db, fund.id, day, now);
    const stocks = this.#stocks(fund.market);
    const candidates = await Promise.all(
      stocks.map(async (s) => ({
        id: s.instrument.id,
        closes: (await this.#d.market.candles(s.instrument, '1d', fund.lookback_days + 1, now)).map((c) => c.close),
      })),
    );
    const chosen = pick(fund.rule as FundRuleName, candidates, fund.size, fund.lookback_days);
    const { cash, shares, positions } = this.#holdings(fund);
    const equity = cash + shares - (await this.#owed(fund.id));
    const investable = (equity * (10_000n - CASH_RESERVE_BPS)) / 10_000n;
    const byId = new Map(stocks.map((s) => [s.instrument.id, s]));
    // A lot's cost at the order's limit (0.5% beyond the last) with the taker fee on top.
    const lotCost = new Map<string, bigint>();
    for (const id of chosen) {
      const s = byId.get(id) as Stock;
      const notional = tradeNotional(s.spec, marketLimitTicks('buy', this.#last(s)), 1);
      lotCost.set(id, notional + (notional * BigInt(s.spec.spec.takerFeeBps) + 9_999n) / 10_000n);
    }
    const trades = rebalanceTrades(positions, targetLots(chosen, lotCost, investable));
    const free = new Map(positions.map((p) => [p.id, p.free]));
    for (const t of trades) {
      const s = byId.get(t.id);
      if (!s) continue;
      // Shares bought less than a settlement cycle ago are locked: only free lots are sold.
      const lots = t.side === 'sell' ? (t.lots < (free.get(t.id) ?? 0n) ? t.lots : (free.get(t.id) ?? 0n)) : t.lots;
      if (lots <= 0n) continue;
      await this.#d.venue.prepare(s.instrument);
      const result = await this.#d.engine.submit({
        type: 'place_order',
        id: `fund:${fund.id}:${day}:${t.side}:${t.id}`,
        userId: fundAccount(fund.id),
        instrumentId: t.id,
        side: t.side,
        orderType: 'limit',
        priceTicks: marketLimitTicks(t.side, this.#last(s)),
        qtyLots: Number(lots),
        timeInForce: 'ioc',
      });
      if (!result.ok) this.#d.log(`fund ${fund.id}: ${t.side} ${t.id} refused (${result.code})`);
    }
    return true;
  }

  async #maybeValue(fund: repo.FundRow): Promise<void> {
    const now = this.#d.clock.now();
    // Only while the market is closed are the last prices the session's closing prices: a server that
    // comes back during the next session waits for that session's close (the missed day has no valuation).
    if (isOpen(fund.market, now)) return;
    const closed = sessionsBetween(fund.market, now - 14 * DAY_MS, now).filter((s) => s.closeMs <= now);
    const session = closed[closed.length - 1];
    // Only sessions that closed after the fund was approved are its valuations.
    if (!session || session.closeMs < fund.created_at) return;
    const last = (await repo.valuations(this.#d.db, fund.id, 1))[0];
    if (last && last.day >= session.tradingDay) return;
    const { cash, shares } = this.#holdings(fund);
    const owed = await this.#owed(fund.id);
    const equity = cash + shares - owed;
    const units = fund.units_minor;
    const scale = this.#scale(fund.market);
    await this.#d.db.transaction(async (tx) => {
      // Every order waiting converts at this one NAV (equity / units before any of them).
      const orders = (await repo.ordersOfFund(tx, fund.id, 'pending')).map((o) =>
        o.side === 'subscribe'
          ? { o, units: unitsFor(o.amount_minor ?? 0n, equity, units, scale), cash: o.amount_minor ?? 0n }
          : { o, units: -(o.units_minor ?? 0n), cash: -cashFor(o.units_minor ?? 0n, equity, units) },
      );
      const valuationId = await repo.insertValuation(tx, {
        fund_id: fund.id,
        day: session.tradingDay,
        time: now,
        cash_minor: cash - owed,
        equity_minor: equity,
        units_minor: units,
        equity_after_minor: orders.reduce((sum, x) => sum + x.cash, equity),
        units_after_minor: orders.reduce((sum, x) => sum + x.units, units),
      });
      for (const { o, units: delta, cash: moved } of orders) {
        await repo.addUnits(tx, fund.id, o.user_id, delta);
        await repo.moveOrder(
          tx,
          o.id,
          'pending',
          'priced',
          now,
          o.side === 'subscribe'
            ? { units_minor: delta, valuation_id: valuationId }
            : { amount_minor: -moved, valuation_id: valuationId },
        );
      }
    });
    await this.#settle((await repo.findFund(this.#d.db, fund.id)) as repo.FundRow);
  }
}

/** One audit line per console action (the chain in staff/audit.ts). */
function audit(
  tx: Sql,
  staffId: number,
  action: string,
  fundId: number,
  reason: string,
  detail: Record<string, unknown>,
  at: number,
) {
  return appendAudit(
    tx,
    { staffId: staffId || null, action, targetType: 'fund', targetId: String(fundId), reason, detail },
    at,
  );
}
