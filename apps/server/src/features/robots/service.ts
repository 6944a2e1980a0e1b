// The robots line (PRODUCT.md "Robots", decision 0035): staff templates approved by a second staff
// member; customers' runs, each trading the crypto spot books through its own engine account
// `robot:<run>` with the customer's capital. Every money move is an engine command with a cause and the
// run's link: capital goes in as hold → post to the run's pass-through account `exchange:robot-<run>` →
// deposit to the sub-account, and comes back the same way at the end, the performance fee (a share of
// the profit above the high-water mark only) posted to platform:fees in the same step. The strategies
// (strategies.ts) decide; this service only turns decisions into ordinary place/cancel commands, which
// match like anyone's (same fees, same self-trade rule). Command ids derive from rows and the tick's
// number, so a repeated tick or a restart re-sends nothing twice.
// A template's instrument is a crypto pair (the spot books, the spot wallet's USDT) or a stock (the paper
// venue's book, the stock wallet's INR, USD or BRL): the same run, with the exchange's sessions, the
// day's band and settlement locks given to the strategies (decision 0035, "Stock robots").

import type {
  AiInfoView,
  AiListView,
  AiOrderDetailsView,
  AiProductItem,
  CreateRobotTemplateInput,
  MeasuredReturn,
  RobotBacktestView,
  RobotParams,
  RobotRunView,
  StaffRobotRunView,
  StaffRobotTemplateView,
} from '@bourse/contract';
import type { Db, Sql } from '@bourse/db';
import {
  type Instrument as EngineInstrument,
  lotsToQuantity,
  type OrderView,
  platformOwner,
  priceToTicks,
  tradeNotional,
} from '@bourse/engine';
import { calendarOf, type ExchangeId, isOpen, nextOpen, ticksToDecimal } from '@bourse/market';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { PaperVenue } from '../../adapters/venue/paper/paper-venue.ts';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import type { MarketData } from '../markets/service.ts';
import type { LiquidityBot } from '../spot/liquidity-bot.ts';
import * as spotRepo from '../spot/repo.ts';
import { appendAudit } from '../staff/audit.ts';
import { unlockAtMs } from '../stocks/settlement-calendar.ts';
import { isStock } from '../stocks/stock-instruments.ts';
import * as repo from './repo.ts';
import {
  backtest,
  decide,
  type Memo,
  marketLimitTicks,
  type OpenOrder,
  performanceFee,
  type Sizing,
  type StrategyParams,
} from './strategies.ts';

const DAY_MS = 86_400_000;
/** The strategies are asked at most once per this many ms (a tick's number names its commands). */
export const ROBOT_TICK_MS = 5_000;

export const robotAccount = (runId: number) => `robot:${runId}`;
/** The run's pass-through platform account: nets to zero once each move in or out is complete. */
export const robotClearing = (runId: number) => `exchange:robot-${runId}` as const;
const runLink = (runId: number) => `robot-run:${runId}`;

/**
 * The instrument a run trades: a crypto pair (spot wallet, the spot books) or a stock (stock wallet, the
 * paper venue's book; `exchange` names its calendar).
 */
type Pair = {
  id: string;
  symbol: string;
  spec: EngineInstrument;
  market: 'crypto' | 'stock';
  wallet: 'spot' | 'stock';
  exchange: ExchangeId | null;
};

export type RobotsDeps = {
  db: Db;
  engine: TradingEngine;
  market: MarketData;
  bot: LiquidityBot;
  venue: PaperVenue;
  clock: Clock;
  /** The smallest order a customer may place on the spot books (a robot's orders keep it too). */
  minNotional: string;
  /** The smallest stock order a customer may place, per currency (a stock robot's orders keep it too). */
  stockMinAmount: Readonly<Record<string, string>>;
  randomSeed: () => number;
  log: (message: string) => void;
};

const pct2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '0.00');

/**
 * A measured figure: the change from `start` to `end` in all, and as the average daily rate (geometric)
 * over `days` (by default the days from `fromMs` to `toMs`).
 */
function measured(
  source: 'backtest' | 'realized',
  start: bigint,
  end: bigint,
  fromMs: number,
  toMs: number,
  overDays?: number,
) {
  const ratio = start > 0n ? Number(end) / Number(start) : 1;
  const days = Math.max(1, overDays ?? (toMs - fromMs) / DAY_MS);
  return {
    source,
    totalPercent: pct2((ratio - 1) * 100),
    dailyPercent: pct2((ratio > 0 ? ratio ** (1 / days) - 1 : -1) * 100),
    fromMs,
    toMs,
  } satisfies MeasuredReturn;
}

export class Robots {
  readonly #d: RobotsDeps;
  /** Ticks, starts, additions and stops one at a time (they read and move the same sub-accounts). */
  #queue: Promise<unknown> = Promise.resolve();
  readonly #backtests = new Map<string, RobotBacktestView | null>();

  constructor(deps: RobotsDeps) {
    this.#d = deps;
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  // --- pairs and parameters ------------------------------------------------------------------------

  #pair(idOrSymbol: string): Pair | undefined {
    const text = idOrSymbol.trim();
    const instrument = this.#d.market.instrument(text) ?? this.#d.market.instrument(text.replace(/[-/_]/g, ''));
    if (!instrument) return undefined;
    const spec = this.#d.engine.state.instrument(instrument.id);
    if (!spec) return undefined;
    if (instrument.kind === 'crypto' && this.#d.bot.pairs.some((p) => p.id === instrument.id))
      return { id: instrument.id, symbol: instrument.symbol, spec, market: 'crypto', wallet: 'spot', exchange: null };
    // A stock the paper venue trades (its book, its market maker, its sessions).
    if (isStock(instrument) && instrument.listed && this.#d.venue.stocks.some((s) => s.id === instrument.id))
      return {
        id: instrument.id,
        symbol: instrument.id,
        spec,
        market: 'stock',
        wallet: 'stock',
        exchange: instrument.exchange,
      };
    return undefined;
  }

  /** Whether the pair's market is in session now (crypto always is) and, when closed, its next open. */
  #session(pair: Pair, now: number): { open: boolean; nextOpenMs: number | null } {
    if (pair.exchange === null) return { open: true, nextOpenMs: null };
    // Open by the calendar *and* in the engine: the paper venue lifts the book's halt on its own beat, so
    // for a moment after the open an order would still queue (an IOC waits for the halt to lift) and fill
    // after the run had read its result.
    const bell = isOpen(pair.exchange, now);
    const open = bell && this.#d.engine.state.market(pair.id)?.halted === false;
    return { open, nextOpenMs: open ? null : bell ? now : nextOpen(pair.exchange, now) };
  }

  /** Before a robot's orders: the book's liquidity reflects this moment's price (as before a customer's). */
  async #prepare(pair: Pair): Promise<void> {
    const instrument = this.#d.market.instrument(pair.id);
    if (!instrument) return;
    if (pair.market === 'stock') await this.#d.venue.prepare(instrument);
    else await this.#d.bot.prepare(instrument);
  }

  /** The smallest order a customer may place on this market, in minor units of its quote. */
  #minOrder(pair: Pair): bigint {
    const text = pair.market === 'stock' ? this.#d.stockMinAmount[pair.spec.quote.code] : this.#d.minNotional;
    return text === undefined ? 0n : (this.#money(pair, text) ?? 0n);
  }

  /** Lots of the run's account still locked until settlement (stocks bought less than a cycle ago). */
  #lockedLots(pair: Pair, account: string): number {
    if (pair.market !== 'stock') return 0;
    return this.#d.engine.state.settlementLocks(account, pair.id).reduce((sum, l) => sum + l.qtyLots, 0);
  }

  #pairOf(id: string): Pair {
    const pair = this.#pair(id);
    if (!pair) throw new Error(`robot pair ${id} is not traded`);
    return pair;
  }

  #sizing(pair: Pair): Sizing {
    return {
      notional: (ticks, lots) => tradeNotional(pair.spec, ticks, lots),
      feeBps: Math.max(pair.spec.spec.makerFeeBps, pair.spec.spec.takerFeeBps),
    };
  }

  #money(pair: Pair, text: string): bigint | null {
    const parsed = tryParseDecimal(text, pair.spec.quote.scale);
    return parsed.ok && parsed.minor > 0n ? parsed.minor : null;
  }

  #fmt(pair: Pair, minor: bigint): string {
    return formatDecimal(minor, pair.spec.quote.scale);
  }

  /** The strategy's parameters in engine units; null when they do not fit the pair. */
  #strategyParams(pair: Pair, params: RobotParams): StrategyParams | null {
    switch (params.kind) {
      case 'grid': {
        const low = priceToTicks(pair.spec, params.lowPrice);
        const high = priceToTicks(pair.spec, params.highPrice);
        if (!low.ok || !high.ok || low.value >= high.value) return null;
        return { kind: 'grid', lowTicks: low.value, highTicks: high.value, levels: params.levels };
      }
      case 'dca': {
        const buy = this.#money(pair, params.buyAmount);
        return buy === null ? null : { kind: 'dca', everyMs: params.everyMinutes * 60_000, buyMinor: buy };
      }
      case 'trend':
        return params.fastPeriod < params.slowPeriod ? params : null;
    }
  }

  // --- the console ---------------------------------------------------------------------------------

  async createTemplate(staffId: number, body: CreateRobotTemplateInput & { params: RobotParams }, demo = false) {
    const pair = this.#pair(body.symbol);
    if (!pair) throw fieldError('symbol', 'unknown_instrument');
    const min = this.#money(pair, String(body.minAmount));
    const max = this.#money(pair, String(body.maxAmount));
    if (min === null || max === null || min > max) throw fieldError('minAmount', 'robot_limits_invalid');
    const params = this.#strategyParams(pair, body.params);
    if (params === null) throw fieldError('params', 'robot_params_invalid');
    if (params.kind === 'dca' && params.buyMinor > min) throw fieldError('params', 'robot_params_invalid');
    if (params.kind === 'grid') {
      // The least capital must buy at least a lot per level at the top of the range.
      const perLevel = min / BigInt(params.levels);
      if (perLevel < tradeNotional(pair.spec, params.highTicks, 1) * 2n)
        throw fieldError('params', 'robot_params_invalid');
    }
    const replaces = body.replaces === undefined ? null : Number(body.replaces);
    if (replaces !== null && (await repo.findTemplate(this.#d.db, replaces))?.status !== 'approved')
      throw fieldError('replaces', 'robot_template_not_changeable');
    const now = this.#d.clock.now();
    const id = await this.#d.db.transaction(async (tx) => {
      const id = await repo.insertTemplate(
        tx,
        {
          name: body.name,
          instrument_id: pair.id,
          strategy: body.params.kind,
          params: JSON.stringify(body.params),
          level: Number(body.level),
          period_days: Number(body.periodDays),
          min_minor: min,
          max_minor: max,
          profit_ratio_pct: Number(body.profitRatio),
          note: body.note ?? '',
          demo,
          replaces_id: replaces,
          created_by: staffId,
        },
        now,
      );
      await audit(
        tx,
        staffId,
        'robot.create',
        id,
        body.note || 'created',
        { name: body.name, symbol: pair.symbol, replaces },
        now,
      );
      return id;
    });
    return this.staffTemplate(id);
  }

  async review(staffId: number, id: number, approve: boolean, reason: string, system = false) {
    const row = await repo.findTemplate(this.#d.db, id);
    if (!row) throw new AppError('robot_not_found');
    if (row.status !== 'pending_approval') throw new AppError('robot_template_not_reviewable');
    if (row.created_by === staffId && !system) throw new AppError('robot_template_second_approver');
    const at = this.#d.clock.now();
    await this.#d.db.transaction(async (tx) => {
      const to = approve ? 'approved' : 'rejected';
      if (
        !(await repo.moveTemplate(tx, id, 'pending_approval', to, at, { approved_by: staffId, review_reason: reason }))
      )
        throw new AppError('robot_template_not_reviewable');
      await audit(tx, staffId, approve ? 'robot.approve' : 'robot.reject', id, reason, { name: row.name }, at);
      // A change approved: the template it replaces takes no new runs (its runs keep their terms).
      const old = row.replaces_id;
      if (approve && old !== null && (await repo.moveTemplate(tx, old, 'approved', 'retired', at)))
        await audit(tx, staffId, 'robot.retire', old, `replaced by template ${id}`, { name: row.name }, at);
    });
    return this.staffTemplate(id);
  }

  /** Retired: no new runs; runs already started keep their terms until they end. */
  async retire(staffId: number, id: number, reason: string) {
    const row = await repo.findTemplate(this.#d.db, id);
    if (!row) throw new AppError('robot_not_found');
    const at = this.#d.clock.now();
    await this.#d.db.transaction(async (tx) => {
      if (row.status !== 'approved' || !(await repo.moveTemplate(tx, id, 'approved', 'retired', at)))
        throw new AppError('robot_template_not_retirable');
      await audit(tx, staffId, 'robot.retire', id, reason, { name: row.name }, at);
    });
    return this.staffTemplate(id);
  }

  async staffTemplates(): Promise<StaffRobotTemplateView[]> {
    const counts = await repo.templateRunCounts(this.#d.db);
    const rows = await repo.listTemplates(this.#d.db);
    return Promise.all(rows.map((r) => this.#staffTemplateView(r, counts.get(r.id))));
  }

  async staffTemplate(id: number): Promise<StaffRobotTemplateView> {
    const row = await repo.findTemplate(this.#d.db, id);
    if (!row) throw new AppError('robot_not_found');
    return this.#staffTemplateView(row, (await repo.templateRunCounts(this.#d.db)).get(id));
  }

  async #staffTemplateView(row: repo.TemplateRow, counts?: { runs: number; running: number }) {
    return {
      ...(await this.#item(row)),
      params: JSON.parse(row.params) as RobotParams,
      status: row.status,
      createdBy: row.created_by,
      approvedBy: row.approved_by,
      reviewReason: row.review_reason,
      note: row.note,
      replaces: row.replaces_id,
      createdAt: row.created_at,
      runs: counts?.runs ?? 0,
      running: counts?.running ?? 0,
    };
  }

  async staffRuns(q: { status: 'running' | 'ended' | 'all'; page: number; limit: number }) {
    const { rows, total } = await repo.listRuns(this.#d.db, {
      group: q.status,
      limit: q.limit,
      offset: (q.page - 1) * q.limit,
    });
    const items: StaffRobotRunView[] = [];
    for (const r of rows) items.push({ ...(await this.#runView(r)), userId: r.user_id, account: robotAccount(r.id) });
    return { items, total };
  }

  /**
   * Paper mode: one approved template per strategy on BTCUSDT and a daily DCA on NSE:RELIANCE through the
   * paper venue, each set once (the system creates and approves).
   */
  async seedDemo(): Promise<void> {
    if ((await repo.countDemoTemplates(this.#d.db, 'crypto')) === 0) await this.#seedCryptoDemo();
    if ((await repo.countDemoTemplates(this.#d.db, 'stock')) === 0)
      await this.#seedDemos([
        {
          name: 'RELIANCE daily DCA',
          symbol: 'NSE:RELIANCE',
          params: { kind: 'dca', everyMinutes: 1_440, buyAmount: '5000' },
          level: 2,
          periodDays: 30,
          minAmount: '20000',
          maxAmount: '500000',
          profitRatio: 10,
          note: 'paper mode demo',
        },
      ]);
  }

  async #seedCryptoDemo(): Promise<void> {
    const pair = this.#pair('CRYPTO:BTCUSDT');
    if (!pair) return;
    const last = this.#d.market.lastTicks(pair.id)?.lastTicks;
    if (last === undefined) return;
    const price = (bps: number) => ticksToDecimal(Math.round((last * bps) / 10_000), pair.spec.spec.tickSize);
    const demos: (CreateRobotTemplateInput & { params: RobotParams })[] = [
      {
        name: 'BTC grid',
        symbol: pair.id,
        params: { kind: 'grid', lowPrice: price(9_700), highPrice: price(10_300), levels: 6 },
        level: 3,
        periodDays: 7,
        minAmount: '200',
        maxAmount: '50000',
        profitRatio: 20,
        note: 'paper mode demo',
      },
      {
        name: 'BTC daily DCA',
        symbol: pair.id,
        params: { kind: 'dca', everyMinutes: 1_440, buyAmount: '50' },
        level: 2,
        periodDays: 30,
        minAmount: '100',
        maxAmount: '20000',
        profitRatio: 10,
        note: 'paper mode demo',
      },
      {
        name: 'BTC trend follower',
        symbol: pair.id,
        params: { kind: 'trend', fastPeriod: 10, slowPeriod: 30 },
        level: 4,
        periodDays: 14,
        minAmount: '100',
        maxAmount: '30000',
        profitRatio: 20,
        note: 'paper mode demo',
      },
    ];
    await this.#seedDemos(demos);
  }

  async #seedDemos(demos: (CreateRobotTemplateInput & { params: RobotParams })[]): Promise<void> {
    for (const demo of demos) {
      // A demo that does not fit the market of the day is left out, never a reason not to start.
      try {
        const created = await this.createTemplate(0, demo, true);
        await this.review(0, created.id, true, 'paper mode demo', true);
      } catch (error) {
        this.#d.log(`demo robot ${demo.name} not seeded: ${String(error)}`);
      }
    }
  }

  // --- the customer's list and detail ---------------------------------------------------------------

  async list(): Promise<AiListView> {
    const rows = await repo.listTemplates(this.#d.db, ['approved']);
    const items: AiProductItem[] = [];
    for (const row of rows) if (this.#pair(row.instrument_id)) items.push(await this.#item(row));
    return { items };
  }

  async #item(row: repo.TemplateRow): Promise<AiProductItem> {
    const pair = this.#pairOf(row.instrument_id);
    const realized = await repo.realizedOf(this.#d.db, row.id);
    // Finished runs speak for the template once they have run a day on average (a daily rate over
    // minutes would say nothing); until then the back-test does, labelled as such.
    const averageDays = realized.runs > 0 ? realized.runMs / realized.runs / DAY_MS : 0;
    const useRealized = averageDays >= 1;
    const test = useRealized ? null : await this.#backtest(row, pair);
    return {
      kind: 'robot',
      id: row.id,
      name: row.name,
      strategy: row.strategy,
      symbol: pair.symbol,
      market: pair.market,
      level: row.level,
      periodDays: row.period_days,
      minAmount: this.#fmt(pair, row.min_minor),
      maxAmount: this.#fmt(pair, row.max_minor),
      currency: pair.spec.quote.code,
      profitRatio: String(row.profit_ratio_pct),
      past: useRealized
        ? measured('realized', realized.capital, realized.returned, realized.from, realized.to, averageDays)
        : test
          ? {
              source: 'backtest',
              dailyPercent: test.dailyPercent,
              totalPercent: test.totalPercent,
              fromMs: test.fromMs,
              toMs: test.toMs,
            }
          : null,
    };
  }

  /** The template's rules over the simulator's past hourly prices for its period (cached per day). */
  async #backtest(row: repo.TemplateRow, pair: Pair): Promise<RobotBacktestView | null> {
    const key = `${row.id}:${Math.floor(this.#d.clock.now() / DAY_MS)}`;
    if (this.#backtests.has(key)) return this.#backtests.get(key) ?? null;
    const instrument = this.#d.market.instrument(pair.id);
    const params = this.#strategyParams(pair, JSON.parse(row.params) as RobotParams);
    let view: RobotBacktestView | null = null;
    if (instrument && params) {
      const before = this.#d.clock.now();
      // The period's hourly candles (a stock's only come from its sessions, so fewer than 24 a day).
      const since = before - row.period_days * DAY_MS - 3_600_000;
      const candles = (await this.#d.market.candles(instrument, '1h', row.period_days * 24 + 1, before))
        .filter((c) => c.startMs >= since)
        .map((c) => ({ startMs: c.startMs, high: c.high, low: c.low, close: c.close }));
      const result = backtest({
        params,
        candles,
        capitalMinor: row.min_minor,
        sizing: this.#sizing(pair),
        seed: row.id,
      });
      if (result) {
        const m = measured('backtest', result.startMinor, result.endMinor, result.fromMs, result.toMs);
        view = {
          fromMs: result.fromMs,
          toMs: result.toMs,
          start: this.#fmt(pair, result.startMinor),
          end: this.#fmt(pair, result.endMinor),
          totalPercent: m.totalPercent,
          dailyPercent: m.dailyPercent,
          maxDrawdownPercent: pct2(result.maxDrawdownBps / 100),
          trades: result.trades,
          fees: this.#fmt(pair, result.feesMinor),
        };
      }
    }
    this.#backtests.set(key, view);
    return view;
  }

  async info(id: number, userId: number | null): Promise<AiInfoView> {
    const row = await repo.findTemplate(this.#d.db, id);
    if (!row || (row.status !== 'approved' && row.status !== 'retired')) throw new AppError('robot_not_found');
    const pair = this.#pair(row.instrument_id);
    if (!pair) throw new AppError('robot_not_found');
    const item = await this.#item(row);
    const realized = await repo.realizedOf(this.#d.db, row.id);
    return {
      ...item,
      params: JSON.parse(row.params) as RobotParams,
      makerFeeBps: pair.spec.spec.makerFeeBps,
      takerFeeBps: pair.spec.spec.takerFeeBps,
      backtest: await this.#backtest(row, pair),
      realized:
        realized.runs > 0
          ? {
              runs: realized.runs,
              capital: this.#fmt(pair, realized.capital),
              returned: this.#fmt(pair, realized.returned),
              totalPercent: measured('realized', realized.capital, realized.returned, 0, DAY_MS).totalPercent,
            }
          : null,
      available:
        userId === null
          ? null
          : this.#fmt(pair, this.#d.engine.state.balance(String(userId), pair.wallet, pair.spec.quote.code).available),
      session: pair.market === 'stock' ? this.#session(pair, this.#d.clock.now()) : null,
    };
  }

  // --- starting, adding, stopping -------------------------------------------------------------------

  /**
   * Starts a run: checks, then capital moved into the run's sub-account (hold → post → deposit). With a
   * key (clientOrderId / Idempotency-Key), a retry answers the first request's run and starts nothing more.
   */
  async buy(
    userId: number,
    id: number,
    amount: string,
    checkPin: () => Promise<void>,
    key?: string,
  ): Promise<RobotRunView> {
    const row = await repo.findTemplate(this.#d.db, id);
    if (!row || (row.status !== 'approved' && row.status !== 'retired')) throw new AppError('robot_not_found');
    const pair = this.#pair(row.instrument_id);
    if (!pair) throw new AppError('robot_not_found');
    const minor = this.#money(pair, amount);
    if (minor === null) throw fieldError('amount', 'field_invalid');
    const earlier = key === undefined ? undefined : await repo.findRunByKey(this.#d.db, userId, key);
    if (!earlier) {
      if (row.status === 'retired') throw new AppError('robot_retired');
      if (minor < row.min_minor)
        throw fieldError('amount', 'robot_amount_below_minimum', () => ({
          min: `${this.#fmt(pair, row.min_minor)} ${pair.spec.quote.code}`,
        }));
      if (minor > row.max_minor)
        throw fieldError('amount', 'robot_amount_above_limit', () => ({
          max: `${this.#fmt(pair, row.max_minor)} ${pair.spec.quote.code}`,
        }));
    }
    await checkPin();
    return this.#serial(async () => {
      // Looked up again inside the serial section: a concurrent retry waits for the first and answers it.
      const first = key === undefined ? undefined : await repo.findRunByKey(this.#d.db, userId, key);
      if (first) return this.#replayStart(first, row.id, minor);
      if (this.#d.engine.state.balance(String(userId), pair.wallet, pair.spec.quote.code).available < minor)
        throw new AppError('insufficient_balance');
      const now = this.#d.clock.now();
      const { runId, capitalId } = await this.#d.db.transaction((tx) =>
        repo.insertRun(
          tx,
          {
            user_id: userId,
            template_id: row.id,
            name: row.name,
            instrument_id: row.instrument_id,
            strategy: row.strategy,
            params: row.params,
            level: row.level,
            period_days: row.period_days,
            min_minor: row.min_minor,
            max_minor: row.max_minor,
            profit_ratio_pct: row.profit_ratio_pct,
            client_key: key ?? null,
            seed: this.#d.randomSeed(),
            started_at: now,
            ends_at: now + row.period_days * DAY_MS,
          },
          minor,
        ),
      );
      const capital: repo.CapitalRow = {
        id: capitalId,
        run_id: runId,
        user_id: userId,
        instrument_id: row.instrument_id,
        amount: minor,
        status: 'pending',
      };
      // Refused by the engine (the balance changed meanwhile): the run fails with nothing moved.
      await this.#settleOrPending(capital);
      if (!(await this.#startOrFail(runId))) throw new AppError('insufficient_balance');
      const run = (await repo.findRun(this.#d.db, runId)) as repo.RunRow;
      // Its first decision now (a grid's opening buy, DCA's first buy), not at the next tick.
      await this.#step(run, this.#d.clock.now()).catch((error) => this.#d.log(`robot ${runId}: ${String(error)}`));
      return this.#runView((await repo.findRun(this.#d.db, runId)) as repo.RunRow);
    });
  }

  /** A start retried with its key: the first request's answer (the same key for another start is refused). */
  async #replayStart(run: repo.RunRow, templateId: number, minor: bigint): Promise<RobotRunView> {
    const [first] = await repo.capitalOf(this.#d.db, run.id);
    if (run.template_id !== templateId || first?.amount !== minor) throw new AppError('idempotency_key_reused');
    if (run.status === 'failed') throw new AppError('insufficient_balance');
    if (run.status === 'starting') throw new AppError('robot_move_pending');
    return this.#runView(run);
  }

  /**
   * One capital row settled in a request: true when moved, false when refused (nothing moved). An
   * exception (the engine unreachable, a step refused half-way) leaves the row pending for the job, which
   * finishes it with the same command ids; the customer is told the work is under way, not a bare 500.
   */
  async #settleOrPending(row: repo.CapitalRow): Promise<boolean> {
    try {
      return await this.#settle(row);
    } catch (error) {
      this.#d.log(`robot ${row.run_id}: capital ${row.id} left pending: ${String(error)}`);
      throw new AppError('robot_move_pending');
    }
  }

  /** A pending capital row's money moved (or its hold refused) and the row settled to match. */
  async #settle(row: repo.CapitalRow): Promise<boolean> {
    const pair = this.#pairOf(row.instrument_id);
    const moved = await this.#moveIn(row.run_id, row.user_id, row.id, pair, row.amount);
    await this.#d.db.transaction((tx) => repo.settleCapital(tx, row, moved ? 'moved' : 'refused'));
    return moved;
  }

  /**
   * A starting run whose first capital row is settled: running when it moved, failed when it was refused.
   * Answers whether it runs; a row still pending leaves it starting (and answers true).
   */
  async #startOrFail(runId: number): Promise<boolean> {
    const rows = await repo.capitalOf(this.#d.db, runId);
    if (rows.some((r) => r.status === 'pending')) return true;
    const now = this.#d.clock.now();
    if (rows.some((r) => r.status === 'moved')) {
      await repo.moveRun(this.#d.db, runId, 'starting', 'running', now, 'system');
      return true;
    }
    await repo.moveRun(this.#d.db, runId, 'starting', 'failed', now, 'system');
    return false;
  }

  /**
   * The customer's money into the sub-account; false when the hold is refused (nothing moved). Each step
   * is skipped when the engine already has it (its id is fixed), so a retry after a crash or an exception
   * finishes the chain without moving anything twice.
   */
  async #moveIn(runId: number, userId: number, capitalId: number, pair: Pair, minor: bigint): Promise<boolean> {
    const e = this.#d.engine;
    const amount = this.#fmt(pair, minor);
    const asset = pair.spec.quote.code;
    const hold = `robot-in:${capitalId}`;
    const post = `${hold}:post`;
    const credit = `${hold}:credit`;
    if (e.state.transferPosted(credit)) return true;
    if (!e.state.transferPosted(post)) {
      if (e.state.fundsHold(hold) === undefined) {
        const held = await e.submit({
          type: 'hold_funds',
          id: hold,
          userId: String(userId),
          wallet: pair.wallet,
          asset,
          amount,
          cause: 'wallet_transfer',
          link: runLink(runId),
        });
        if (!held.ok && e.state.fundsHold(hold) === undefined && !e.state.transferPosted(post)) return false;
      }
      if (e.state.fundsHold(hold) !== undefined) {
        const posted = await e.submit({ type: 'post_hold', id: post, holdId: hold, to: robotClearing(runId) });
        if (!posted.ok && !e.state.transferPosted(post))
          throw new Error(`robot ${runId}: post refused (${posted.code})`);
      }
    }
    const credited = await e.submit({
      type: 'deposit',
      id: credit,
      userId: robotAccount(runId),
      wallet: pair.wallet,
      asset,
      amount,
      from: robotClearing(runId),
      cause: 'wallet_transfer',
      link: runLink(runId),
    });
    if (!credited.ok && !e.state.transferPosted(credit))
      throw new Error(`robot ${runId}: credit refused (${credited.code})`);
    return true;
  }

  async #ownRun(userId: number, id: number): Promise<repo.RunRow> {
    const run = await repo.findRun(this.#d.db, id);
    if (!run || run.user_id !== userId) throw new AppError('robot_run_not_found');
    return run;
  }

  /**
   * Adds capital to a running run, up to the single limit (reserved in one statement with any addition
   * still moving). With a key, a retry answers the first addition's result and adds nothing more.
   */
  async addAmount(
    userId: number,
    id: number,
    amount: string,
    checkPin: () => Promise<void>,
    key?: string,
  ): Promise<RobotRunView> {
    const run = await this.#ownRun(userId, id);
    const pair = this.#pairOf(run.instrument_id);
    const minor = this.#money(pair, amount);
    if (minor === null) throw fieldError('amount', 'field_invalid');
    const overLimit = () =>
      fieldError('amount', 'robot_amount_above_limit', () => ({
        max: `${this.#fmt(pair, run.max_minor)} ${pair.spec.quote.code}`,
      }));
    const earlier = key === undefined ? undefined : await repo.capitalByKey(this.#d.db, run.id, key);
    if (!earlier) {
      if (run.status !== 'running') throw new AppError('robot_not_running');
      if (run.capital_minor + run.pending_minor + minor > run.max_minor) throw overLimit();
    }
    await checkPin();
    return this.#serial(async () => {
      const first = key === undefined ? undefined : await repo.capitalByKey(this.#d.db, run.id, key);
      if (first) {
        if (first.amount !== minor) throw new AppError('idempotency_key_reused');
        if (first.status === 'refused') throw new AppError('insufficient_balance');
        if (first.status === 'pending') throw new AppError('robot_move_pending');
        return this.#runView((await repo.findRun(this.#d.db, run.id)) as repo.RunRow);
      }
      if (this.#d.engine.state.balance(String(userId), pair.wallet, pair.spec.quote.code).available < minor)
        throw new AppError('insufficient_balance');
      const now = this.#d.clock.now();
      const capitalId = await this.#d.db.transaction(async (tx) => {
        if (!(await repo.reserveCapital(tx, run.id, minor))) {
          const fresh = await repo.findRun(tx, run.id);
          throw fresh?.status === 'running' ? overLimit() : new AppError('robot_not_running');
        }
        return repo.insertCapital(tx, run.id, minor, now, key ?? null);
      });
      const row: repo.CapitalRow = {
        id: capitalId,
        run_id: run.id,
        user_id: userId,
        instrument_id: run.instrument_id,
        amount: minor,
        status: 'pending',
      };
      // Refused by the engine (the balance changed meanwhile): the row is refused, its reservation released.
      if (!(await this.#settleOrPending(row))) throw new AppError('insufficient_balance');
      return this.#runView((await repo.findRun(this.#d.db, run.id)) as repo.RunRow);
    });
  }

  async stop(userId: number, id: number, checkPin: () => Promise<void>): Promise<RobotRunView> {
    const run = await this.#ownRun(userId, id);
    if (run.status !== 'running') throw new AppError('robot_not_running');
    // A stock run is stopped by a sale at market: taken only while its exchange is open, so the customer
    // never waits hours for a sale at a price nobody has seen yet.
    const pair = this.#pairOf(run.instrument_id);
    const session = this.#session(pair, this.#d.clock.now());
    if (!session.open && pair.exchange !== null) {
      const zone = calendarOf(pair.exchange).timeZone;
      throw new AppError('robot_market_closed', undefined, (lang) => ({
        open: new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(
          session.nextOpenMs ?? 0,
        ),
      }));
    }
    await checkPin();
    return this.#serial(async () => {
      const now = this.#d.clock.now();
      if (!(await repo.moveRun(this.#d.db, run.id, 'running', 'stopping', now, 'customer', { end_reason: 'customer' })))
        throw new AppError('robot_not_running');
      try {
        await this.#finish(run.id);
      } catch (error) {
        // The run stays stopping; the job finishes it with the same command ids.
        this.#d.log(`robot ${run.id}: stop left to the job: ${String(error)}`);
        throw new AppError('robot_move_pending');
      }
      return this.#runView((await repo.findRun(this.#d.db, run.id)) as repo.RunRow);
    });
  }

  /**
   * The end of a run (stopped early or at its period's end): any capital still moving in finished first
   * (it is part of the high-water mark), its orders cancelled, its coin sold at market — once, before the
   * end's figures are written, never after — then its money back to the customer less the performance fee,
   * and any coin left (less than a lot, or what the book could not take) back as coin. A stock run sells
   * only while its exchange is open and only settled shares; shares still locked come back as shares
   * once they settle (the run is stopping until then).
   */
  /** Cancels every order of the run still on the book (each cancel's id fixed by the order, so a retry is a no-op). */
  async #cancelAll(runId: number): Promise<void> {
    const account = robotAccount(runId);
    for (const order of this.#d.engine.state.openOrders(account)) {
      await this.#d.engine.submit({
        type: 'cancel_order',
        id: `robot-cancel:${runId}:${order.orderId}`,
        userId: account,
        orderId: order.orderId,
      });
    }
  }

  async #finish(runId: number): Promise<void> {
    for (const row of await repo.pendingCapital(this.#d.db, runId)) await this.#settle(row);
    const run = (await repo.findRun(this.#d.db, runId)) as repo.RunRow;
    if (run.status !== 'stopping') return;
    const e = this.#d.engine;
    const pair = this.#pairOf(run.instrument_id);
    const account = robotAccount(run.id);
    await this.#cancelAll(run.id);
    const base = pair.spec.base.code;
    const quote = pair.spec.quote.code;
    if (run.final_minor === null) {
      // A stock's closing sale waits for its exchange's next session (a stop is only taken while it is
      // open; this is a stop cut short by a restart, or a period that ended while it was closed).
      if (!this.#session(pair, this.#d.clock.now()).open) return;
      // The closing sale only while the figures are open: once they are written, a sale would leave its
      // money behind in the sub-account (the amount to return is fixed). Only settled shares can be sold
      // (`available` leaves out the settlement locks); locked ones come back as shares.
      const lots = Number(e.state.balance(account, pair.wallet, base).available / pair.spec.lotMinor);
      const last = this.#d.market.lastTicks(pair.id)?.lastTicks;
      if (lots > 0 && last !== undefined) {
        await this.#prepare(pair);
        const view = e.state.market(pair.id);
        const band = { loTicks: view?.bandLoTicks ?? null, hiTicks: view?.bandHiTicks ?? null };
        await e.submit({
          type: 'place_order',
          id: `robot-close:${run.id}`,
          userId: account,
          instrumentId: pair.id,
          side: 'sell',
          orderType: 'limit',
          priceTicks: marketLimitTicks('sell', last, band),
          qtyLots: lots,
          timeInForce: 'ioc',
        });
      }
      // Nothing of the run may still be on the book when its figures are written: a sale that did not
      // execute at once (an IOC queued by a halt) is cancelled, so no money reaches the sub-account later.
      await this.#cancelAll(run.id);
      const final = e.state.balance(account, pair.wallet, quote).balance;
      await repo.saveFinal(
        this.#d.db,
        run.id,
        final,
        performanceFee(final, run.capital_minor, run.profit_ratio_pct * 100),
      );
    }
    const fresh = (await repo.findRun(this.#d.db, run.id)) as repo.RunRow;
    const final = fresh.final_minor as bigint;
    const fee = fresh.fee_minor as bigint;
    if (final > 0n) await this.#moveOut(run, pair, quote, final, fee);
    if (fresh.returned_minor === null) await repo.saveReturned(this.#d.db, run.id, final - fee);
    // Shares still locked until settlement cannot move yet: the run stays stopping (its money is back,
    // and shown as returned) and the job returns them as shares once the venue's settlement released them.
    if (this.#lockedLots(pair, account) > 0) return;
    // The coin (or shares): what the sub-account holds, or what a move cut short left in the pass-through account.
    const coinHeld = e.state.balance(account, pair.wallet, base).balance;
    const coin =
      coinHeld > 0n ? coinHeld : e.state.balance(platformOwner(robotClearing(run.id)), 'platform', base).balance;
    if (coin > 0n) {
      // Every fill folded first: a stock holding takes returned shares at the run's average cost (stocks/holdings.ts).
      if (pair.market === 'stock') await this.#pnl((await repo.findRun(this.#d.db, run.id)) as repo.RunRow, pair);
      await this.#moveOut(run, pair, base, coin, 0n);
    }
    const at = this.#d.clock.now();
    const to = fresh.end_reason === 'period_end' ? 'finished' : 'stopped';
    await repo.moveRun(this.#d.db, run.id, 'stopping', to, at, 'system', { ended_at: at });
  }

  /**
   * From the sub-account back to the customer's spot wallet (hold → post with the fee → deposit), each
   * step skipped when the engine already has it, so a retry completes a move cut short.
   */
  async #moveOut(run: repo.RunRow, pair: Pair, asset: string, minor: bigint, fee: bigint): Promise<void> {
    const e = this.#d.engine;
    const scale = asset === pair.spec.quote.code ? pair.spec.quote.scale : pair.spec.base.scale;
    const fmt = (m: bigint) => formatDecimal(m, scale);
    const hold = `robot-out:${run.id}:${asset}`;
    const post = `${hold}:post`;
    const credit = `${hold}:credit`;
    if (e.state.transferPosted(credit)) return;
    if (!e.state.transferPosted(post)) {
      if (e.state.fundsHold(hold) === undefined) {
        const held = await e.submit({
          type: 'hold_funds',
          id: hold,
          userId: robotAccount(run.id),
          wallet: pair.wallet,
          asset,
          amount: fmt(minor),
          cause: 'wallet_transfer',
          link: runLink(run.id),
        });
        if (!held.ok && e.state.fundsHold(hold) === undefined && !e.state.transferPosted(post))
          throw new Error(`robot ${run.id}: hold of ${asset} refused (${held.code})`);
      }
      if (e.state.fundsHold(hold) !== undefined) {
        const posted = await e.submit({
          type: 'post_hold',
          id: post,
          holdId: hold,
          to: robotClearing(run.id),
          ...(fee > 0n ? { fee: fmt(fee) } : {}),
        });
        if (!posted.ok && !e.state.transferPosted(post))
          throw new Error(`robot ${run.id}: post of ${asset} refused (${posted.code})`);
      }
    }
    const credited = await e.submit({
      type: 'deposit',
      id: credit,
      userId: String(run.user_id),
      wallet: pair.wallet,
      asset,
      amount: fmt(minor - fee),
      from: robotClearing(run.id),
      cause: 'wallet_transfer',
      link: runLink(run.id),
    });
    if (!credited.ok && !e.state.transferPosted(credit))
      throw new Error(`robot ${run.id}: credit of ${asset} refused (${credited.code})`);
  }

  // --- the scheduled job ----------------------------------------------------------------------------

  /**
   * Every running run: ended at its period's end, or asked for its orders (once per tick number). First,
   * whatever a crash or an exception left half-done is completed (see #recover), at every tick, not only
   * at start-up.
   */
  tick(): Promise<void> {
    return this.#serial(async () => {
      await this.#recover();
      const now = this.#d.clock.now();
      for (const run of await repo.runsIn(this.#d.db, ['running'])) {
        try {
          if (now >= run.ends_at) {
            // A stock run's period ends while its exchange is closed: it stays idle and ends at the next
            // open, when its shares can be sold.
            if (!this.#session(this.#pairOf(run.instrument_id), now).open) continue;
            if (
              await repo.moveRun(this.#d.db, run.id, 'running', 'stopping', now, 'system', { end_reason: 'period_end' })
            )
              await this.#finish(run.id);
          } else await this.#step(run, now);
        } catch (error) {
          this.#d.log(`robot ${run.id}: ${String(error)}`);
        }
      }
    });
  }

  /** Start-up: moves a crash interrupted are completed (every command id is fixed, so none repeats). */
  resume(): Promise<void> {
    return this.#serial(() => this.#recover());
  }

  /**
   * Completes what was cut short: every pending capital row (its hold → post → deposit chain, by its fixed
   * ids), then each starting run (running once its first row moved, failed if it was refused), then each
   * stopping run's end. A failure is logged and tried again at the next tick.
   */
  async #recover(): Promise<void> {
    for (const row of await repo.pendingCapital(this.#d.db)) {
      await this.#settle(row).catch((error) => this.#d.log(`robot ${row.run_id}: capital ${row.id}: ${String(error)}`));
    }
    for (const run of await repo.runsIn(this.#d.db, ['starting'])) {
      await this.#startOrFail(run.id).catch((error) => this.#d.log(`robot ${run.id}: ${String(error)}`));
    }
    for (const run of await repo.runsIn(this.#d.db, ['stopping'])) {
      await this.#finish(run.id).catch((error) => this.#d.log(`robot ${run.id}: ${String(error)}`));
    }
  }

  async #step(run: repo.RunRow, now: number): Promise<void> {
    const tick = Math.floor(now / ROBOT_TICK_MS);
    if (tick <= run.last_tick) return;
    const pair = this.#pairOf(run.instrument_id);
    const params = this.#strategyParams(pair, JSON.parse(run.params) as RobotParams);
    const last = this.#d.market.lastTicks(pair.id)?.lastTicks;
    const instrument = this.#d.market.instrument(pair.id);
    if (!params || last === undefined || !instrument) return;
    const e = this.#d.engine;
    const account = robotAccount(run.id);
    const live = e.state.openOrders(account);
    const tagOf = (o: OrderView) => o.commandId.split(':').slice(3).join(':');
    const open: OpenOrder[] = live.map((o) => ({
      tag: tagOf(o),
      side: o.side,
      priceTicks: o.priceTicks,
      qtyLots: o.remainingLots,
    }));
    const closes =
      params.kind === 'trend' && this.#session(pair, now).open
        ? (await this.#d.market.candles(instrument, '1m', params.slowPeriod + 1)).map((c) => c.close)
        : [];
    const view = e.state.market(pair.id);
    const decision = decide({
      params,
      market: {
        nowMs: now,
        lastTicks: last,
        closes,
        open: this.#session(pair, now).open,
        band: { loTicks: view?.bandLoTicks ?? null, hiTicks: view?.bandHiTicks ?? null },
      },
      wallet: {
        quoteMinor: e.state.balance(account, pair.wallet, pair.spec.quote.code).balance,
        baseLots: Number(e.state.balance(account, pair.wallet, pair.spec.base.code).balance / pair.spec.lotMinor),
        lockedLots: this.#lockedLots(pair, account),
      },
      open,
      memo: JSON.parse(run.memo) as Memo,
      capitalMinor: run.capital_minor,
      sizing: this.#sizing(pair),
      seed: run.seed,
    });
    // Written first: a crash after it skips this tick's orders rather than sending them twice.
    await repo.saveTick(this.#d.db, run.id, tick, JSON.stringify(decision.memo));
    if (decision.cancel.length === 0 && decision.place.length === 0) return;
    for (const tag of decision.cancel) {
      const order = live.find((o) => tagOf(o) === tag);
      if (order)
        await e.submit({
          type: 'cancel_order',
          id: `rb:${run.id}:${tick}:x${order.orderId}`,
          userId: account,
          orderId: order.orderId,
        });
    }
    await this.#prepare(pair);
    const minOrder = this.#minOrder(pair);
    for (const p of decision.place) {
      // The smallest order anyone may place holds for robots too.
      if (tradeNotional(pair.spec, p.priceTicks, p.qtyLots) < minOrder) continue;
      const result = await e.submit({
        type: 'place_order',
        id: `rb:${run.id}:${tick}:${p.tag}`,
        userId: account,
        instrumentId: pair.id,
        side: p.side,
        orderType: 'limit',
        priceTicks: p.priceTicks,
        qtyLots: p.qtyLots,
        timeInForce: p.type === 'market' ? 'ioc' : 'gtc',
      });
      if (!result.ok) this.#d.log(`robot ${run.id}: ${p.tag} refused (${result.code})`);
    }
  }

  // --- the customer's runs --------------------------------------------------------------------------

  async runs(userId: number, q: { status: 'running' | 'ended' | 'all'; page: number; limit: number }) {
    const { rows, total } = await repo.listRuns(this.#d.db, {
      userId,
      group: q.status,
      limit: q.limit,
      offset: (q.page - 1) * q.limit,
    });
    const items: RobotRunView[] = [];
    for (const r of rows) items.push(await this.#runView(r));
    return { items, total };
  }

  async details(userId: number, q: { id: number; page: number; limit: number }): Promise<AiOrderDetailsView> {
    const run = await this.#ownRun(userId, q.id);
    const pair = this.#pairOf(run.instrument_id);
    const account = robotAccount(run.id);
    const { rows, total } = await spotRepo.listUserTrades(
      this.#d.db,
      account,
      [pair.id],
      undefined,
      q.limit,
      (q.page - 1) * q.limit,
    );
    const qty = (lots: number) => lotsToQuantity(pair.spec, lots);
    const price = (ticks: number) => ticksToDecimal(ticks, pair.spec.spec.tickSize);
    return {
      run: await this.#runView(run),
      trades: rows.map((t) => {
        const taker = t.taker_user_id === account;
        return {
          id: Number(t.id),
          orderId: Number(taker ? t.taker_order_id : t.maker_order_id),
          side: taker ? t.taker_side : t.taker_side === 'buy' ? 'sell' : 'buy',
          price: price(Number(t.price_ticks)),
          quantity: qty(Number(t.qty_lots)),
          amount: this.#fmt(pair, BigInt(t.notional)),
          fee: this.#fmt(pair, BigInt(taker ? t.taker_fee : t.maker_fee)),
          liquidity: taker ? 'taker' : 'maker',
          time: Number(t.at),
        };
      }),
      totalTrades: total,
      openOrders: this.#d.engine.state.openOrders(account).map((o) => ({
        id: o.orderId,
        side: o.side,
        price: price(o.priceTicks),
        quantity: qty(o.qtyLots),
        filledQuantity: qty(o.filledLots),
        status: o.status,
        createdAt: o.createdMs,
      })),
    };
  }

  /**
   * The run's P&L by average cost over all its fills: a buy adds its notional to the cost, a sell realizes
   * its notional less the cost of what it sold; fees (maker or taker, as paid) are counted apart and taken
   * from the realized P&L. Folded in trade id order from where the run's saved totals stop, so each fill
   * is read once whatever the number of fills (the totals are saved for the next read).
   */
  async #pnl(run: repo.RunRow, pair: Pair) {
    const account = robotAccount(run.id);
    const t: repo.PnlTotals = {
      pnl_cursor: run.pnl_cursor,
      pnl_lots: run.pnl_lots,
      pnl_cost: run.pnl_cost,
      pnl_realized: run.pnl_realized,
      pnl_fees: run.pnl_fees,
      pnl_trades: run.pnl_trades,
    };
    const PAGE = 1_000;
    for (;;) {
      const page = await repo.fillsAfter(this.#d.db, account, pair.id, t.pnl_cursor, PAGE);
      for (const f of page) {
        const taker = f.taker_user_id === account;
        const side = taker ? f.taker_side : f.taker_side === 'buy' ? 'sell' : 'buy';
        const q = BigInt(String(f.qty_lots));
        const notional = BigInt(String(f.notional));
        t.pnl_fees += BigInt(String(taker ? f.taker_fee : f.maker_fee));
        t.pnl_trades += 1;
        if (side === 'buy') {
          t.pnl_lots += q;
          t.pnl_cost += notional;
        } else if (t.pnl_lots > 0n) {
          const sold = q < t.pnl_lots ? q : t.pnl_lots;
          const soldCost = (t.pnl_cost * sold) / t.pnl_lots;
          t.pnl_realized += notional - soldCost;
          t.pnl_cost -= soldCost;
          t.pnl_lots -= sold;
        }
        t.pnl_cursor = BigInt(String(f.id));
      }
      if (page.length < PAGE) break;
    }
    if (t.pnl_cursor !== run.pnl_cursor) await repo.savePnl(this.#d.db, run.id, run.pnl_cursor, t);
    return {
      lots: Number(t.pnl_lots),
      cost: t.pnl_cost,
      realized: t.pnl_realized,
      fees: t.pnl_fees,
      trades: t.pnl_trades,
    };
  }

  async #runView(run: repo.RunRow): Promise<RobotRunView> {
    const pair = this.#pairOf(run.instrument_id);
    const account = robotAccount(run.id);
    const e = this.#d.engine;
    const { lots, cost, realized, fees, trades } = await this.#pnl(run, pair);
    const last = this.#d.market.lastTicks(pair.id)?.lastTicks ?? 0;
    const quote = e.state.balance(account, pair.wallet, pair.spec.quote.code).balance;
    const baseMinor = e.state.balance(account, pair.wallet, pair.spec.base.code).balance;
    const heldLots = Number(baseMinor / pair.spec.lotMinor);
    const ended = run.final_minor !== null;
    const locks = pair.market === 'stock' ? e.state.settlementLocks(account, pair.id) : [];
    const lockedLots = locks.reduce((sum, l) => sum + l.qtyLots, 0);
    const newest = locks.at(-1);
    const over = run.status === 'stopped' || run.status === 'finished';
    const value = ended ? (run.final_minor as bigint) : quote + tradeNotional(pair.spec, last, heldLots);
    const unrealized = ended || lots === 0 ? 0n : tradeNotional(pair.spec, last, Math.min(lots, heldLots)) - cost;
    const feeNow = ended
      ? (run.fee_minor as bigint)
      : performanceFee(value, run.capital_minor, run.profit_ratio_pct * 100);
    return {
      id: run.id,
      templateId: run.template_id,
      name: run.name,
      strategy: run.strategy,
      symbol: pair.symbol,
      market: pair.market,
      base: pair.spec.base.code,
      currency: pair.spec.quote.code,
      status: run.status,
      level: run.level,
      periodDays: run.period_days,
      profitRatio: String(run.profit_ratio_pct),
      maxAmount: this.#fmt(pair, run.max_minor),
      capital: this.#fmt(pair, run.capital_minor),
      currentValue: this.#fmt(pair, value),
      realizedPnl: this.#fmt(pair, realized - fees),
      unrealizedPnl: this.#fmt(pair, unrealized),
      fees: this.#fmt(pair, fees),
      performanceFee: this.#fmt(pair, feeNow),
      returned: run.returned_minor === null ? null : this.#fmt(pair, run.returned_minor),
      quoteBalance: this.#fmt(pair, quote),
      baseQuantity: formatDecimal(baseMinor, pair.spec.base.scale),
      lockedQuantity: formatDecimal(BigInt(lockedLots) * pair.spec.lotMinor, pair.spec.base.scale),
      unlocksAt: newest && pair.exchange !== null ? unlockAtMs(pair.exchange, newest.timeMs) : null,
      // After the end, the position the fills left is what came back unsold (the sub-account holds none).
      returnedQuantity: over ? formatDecimal(BigInt(lots) * pair.spec.lotMinor, pair.spec.base.scale) : null,
      session: pair.market === 'stock' && !over ? this.#session(pair, this.#d.clock.now()) : null,
      trades,
      startedAt: run.started_at,
      endsAt: run.ends_at,
      endedAt: run.ended_at,
      endReason: run.end_reason,
    };
  }
}

function audit(
  tx: Sql,
  staffId: number,
  action: string,
  templateId: number,
  reason: string,
  detail: Record<string, unknown>,
  at: number,
): Promise<void> {
  // Staff id 0 is the system (paper mode's demo templates): the audit log records it as no staff member.
  return appendAudit(
    tx,
    { staffId: staffId || null, action, targetType: 'robot_template', targetId: String(templateId), reason, detail },
    at,
  );
}
