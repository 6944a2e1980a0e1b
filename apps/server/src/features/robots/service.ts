// The robots line (PRODUCT.md "Robots", decision 0035): staff templates approved by a second staff
// member; customers' runs, each trading the crypto spot books through its own engine account
// `robot:<run>` with the customer's capital. Every money move is an engine command with a cause and the
// run's link: capital goes in as hold → post to the run's pass-through account `exchange:robot-<run>` →
// deposit to the sub-account, and comes back the same way at the end, the performance fee (a share of
// the profit above the high-water mark only) posted to platform:fees in the same step. The strategies
// (strategies.ts) decide; this service only turns decisions into ordinary place/cancel commands, which
// match like anyone's (same fees, same self-trade rule). Command ids derive from rows and the tick's
// number, so a repeated tick or a restart re-sends nothing twice.

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
  priceToTicks,
  tradeNotional,
} from '@bourse/engine';
import { ticksToDecimal } from '@bourse/market';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import type { MarketData } from '../markets/service.ts';
import type { LiquidityBot } from '../spot/liquidity-bot.ts';
import * as spotRepo from '../spot/repo.ts';
import { appendAudit } from '../staff/audit.ts';
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
const WALLET = 'spot' as const;

export const robotAccount = (runId: number) => `robot:${runId}`;
/** The run's pass-through platform account: nets to zero once each move in or out is complete. */
export const robotClearing = (runId: number) => `exchange:robot-${runId}` as const;
const runLink = (runId: number) => `robot-run:${runId}`;

type Pair = { id: string; symbol: string; spec: EngineInstrument };

export type RobotsDeps = {
  db: Db;
  engine: TradingEngine;
  market: MarketData;
  bot: LiquidityBot;
  clock: Clock;
  /** The smallest order a customer may place on the spot books (a robot's orders keep it too). */
  minNotional: string;
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
    if (instrument?.kind !== 'crypto' || !this.#d.bot.pairs.some((p) => p.id === instrument.id)) return undefined;
    const spec = this.#d.engine.state.instrument(instrument.id);
    return spec ? { id: instrument.id, symbol: instrument.symbol, spec } : undefined;
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

  /** Paper mode: one approved template per strategy on BTCUSDT, once (the system creates and approves). */
  async seedDemo(): Promise<void> {
    if ((await repo.countDemoTemplates(this.#d.db)) > 0) return;
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
      const candles = (await this.#d.market.candles(instrument, '1h', row.period_days * 24 + 1, before)).map((c) => ({
        startMs: c.startMs,
        high: c.high,
        low: c.low,
        close: c.close,
      }));
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
          : this.#fmt(pair, this.#d.engine.state.balance(String(userId), WALLET, pair.spec.quote.code).available),
    };
  }

  // --- starting, adding, stopping -------------------------------------------------------------------

  /** Starts a run: checks, then capital moved into the run's sub-account (hold → post → deposit). */
  async buy(userId: number, id: number, amount: string, checkPin: () => Promise<void>): Promise<RobotRunView> {
    const row = await repo.findTemplate(this.#d.db, id);
    if (!row || (row.status !== 'approved' && row.status !== 'retired')) throw new AppError('robot_not_found');
    if (row.status === 'retired') throw new AppError('robot_retired');
    const pair = this.#pair(row.instrument_id);
    if (!pair) throw new AppError('robot_not_found');
    const minor = this.#money(pair, amount);
    if (minor === null) throw fieldError('amount', 'field_invalid');
    if (minor < row.min_minor)
      throw fieldError('amount', 'robot_amount_below_minimum', () => ({
        min: `${this.#fmt(pair, row.min_minor)} ${pair.spec.quote.code}`,
      }));
    if (minor > row.max_minor)
      throw fieldError('amount', 'robot_amount_above_limit', () => ({
        max: `${this.#fmt(pair, row.max_minor)} ${pair.spec.quote.code}`,
      }));
    await checkPin();
    return this.#serial(async () => {
      if (this.#d.engine.state.balance(String(userId), WALLET, pair.spec.quote.code).available < minor)
        throw new AppError('insufficient_balance');
      const now = this.#d.clock.now();
      const { runId, capitalId } = await this.#d.db.transaction((tx) =>
        repo.insertRun(tx, {
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
          capital_minor: minor,
          seed: this.#d.randomSeed(),
          started_at: now,
          ends_at: now + row.period_days * DAY_MS,
        }),
      );
      const moved = await this.#moveIn(runId, userId, capitalId, pair, minor);
      if (!moved) {
        await repo.moveRun(this.#d.db, runId, 'starting', 'failed', this.#d.clock.now(), 'system');
        throw new AppError('insufficient_balance');
      }
      await repo.moveRun(this.#d.db, runId, 'starting', 'running', this.#d.clock.now(), 'system');
      const run = (await repo.findRun(this.#d.db, runId)) as repo.RunRow;
      // Its first decision now (a grid's opening buy, DCA's first buy), not at the next tick.
      await this.#step(run, this.#d.clock.now()).catch((error) => this.#d.log(`robot ${runId}: ${String(error)}`));
      return this.#runView((await repo.findRun(this.#d.db, runId)) as repo.RunRow);
    });
  }

  /** The customer's money into the sub-account; false when the hold is refused (nothing moved). */
  async #moveIn(runId: number, userId: number, capitalId: number, pair: Pair, minor: bigint): Promise<boolean> {
    const e = this.#d.engine;
    const amount = this.#fmt(pair, minor);
    const asset = pair.spec.quote.code;
    const hold = `robot-in:${capitalId}`;
    const held = await e.submit({
      type: 'hold_funds',
      id: hold,
      userId: String(userId),
      wallet: WALLET,
      asset,
      amount,
      cause: 'wallet_transfer',
      link: runLink(runId),
    });
    if (!held.ok && held.code !== 'transfer_id_reused' && held.code !== 'command_id_reused') return false;
    if (held.ok || e.state.fundsHold(hold) !== undefined) {
      const posted = await e.submit({ type: 'post_hold', id: `${hold}:post`, holdId: hold, to: robotClearing(runId) });
      if (!posted.ok && posted.code !== 'hold_not_found')
        throw new Error(`robot ${runId}: post refused (${posted.code})`);
    }
    const credited = await e.submit({
      type: 'deposit',
      id: `${hold}:credit`,
      userId: robotAccount(runId),
      wallet: WALLET,
      asset,
      amount,
      from: robotClearing(runId),
      cause: 'wallet_transfer',
      link: runLink(runId),
    });
    if (!credited.ok) throw new Error(`robot ${runId}: credit refused (${credited.code})`);
    return true;
  }

  async #ownRun(userId: number, id: number): Promise<repo.RunRow> {
    const run = await repo.findRun(this.#d.db, id);
    if (!run || run.user_id !== userId) throw new AppError('robot_run_not_found');
    return run;
  }

  async addAmount(userId: number, id: number, amount: string, checkPin: () => Promise<void>): Promise<RobotRunView> {
    const run = await this.#ownRun(userId, id);
    if (run.status !== 'running') throw new AppError('robot_not_running');
    const pair = this.#pairOf(run.instrument_id);
    const minor = this.#money(pair, amount);
    if (minor === null) throw fieldError('amount', 'field_invalid');
    if (run.capital_minor + minor > run.max_minor)
      throw fieldError('amount', 'robot_amount_above_limit', () => ({
        max: `${this.#fmt(pair, run.max_minor)} ${pair.spec.quote.code}`,
      }));
    await checkPin();
    return this.#serial(async () => {
      if (this.#d.engine.state.balance(String(userId), WALLET, pair.spec.quote.code).available < minor)
        throw new AppError('insufficient_balance');
      const now = this.#d.clock.now();
      const capitalId = await this.#d.db.transaction(async (tx) => {
        if (!(await repo.addCapital(tx, run.id, minor))) throw new AppError('robot_not_running');
        return repo.insertCapital(tx, run.id, minor, now);
      });
      if (!(await this.#moveIn(run.id, userId, capitalId, pair, minor))) {
        // Refused by the engine (the balance changed meanwhile): the addition is undone, nothing moved.
        await this.#d.db.transaction(async (tx) => {
          await repo.addCapital(tx, run.id, -minor);
          await tx.run('DELETE FROM robot_capital WHERE id = $1', [capitalId]);
        });
        throw new AppError('insufficient_balance');
      }
      return this.#runView((await repo.findRun(this.#d.db, run.id)) as repo.RunRow);
    });
  }

  async stop(userId: number, id: number, checkPin: () => Promise<void>): Promise<RobotRunView> {
    const run = await this.#ownRun(userId, id);
    if (run.status !== 'running') throw new AppError('robot_not_running');
    await checkPin();
    return this.#serial(async () => {
      const now = this.#d.clock.now();
      if (!(await repo.moveRun(this.#d.db, run.id, 'running', 'stopping', now, 'customer', { end_reason: 'customer' })))
        throw new AppError('robot_not_running');
      await this.#finish(run.id);
      return this.#runView((await repo.findRun(this.#d.db, run.id)) as repo.RunRow);
    });
  }

  /**
   * The end of a run (stopped early or at its period's end): its orders cancelled, its coin sold at
   * market, the end's figures written once, then its USDT back to the customer less the performance
   * fee, and any coin left (less than a lot, or what the book could not take) back as coin.
   */
  async #finish(runId: number): Promise<void> {
    const run = (await repo.findRun(this.#d.db, runId)) as repo.RunRow;
    if (run.status !== 'stopping') return;
    const e = this.#d.engine;
    const pair = this.#pairOf(run.instrument_id);
    const account = robotAccount(run.id);
    for (const order of e.state.openOrders(account)) {
      await e.submit({
        type: 'cancel_order',
        id: `robot-cancel:${run.id}:${order.orderId}`,
        userId: account,
        orderId: order.orderId,
      });
    }
    const base = pair.spec.base.code;
    const lots = Number(e.state.balance(account, WALLET, base).available / pair.spec.lotMinor);
    const last = this.#d.market.lastTicks(pair.id)?.lastTicks;
    if (lots > 0 && last !== undefined) {
      const instrument = this.#d.market.instrument(pair.id);
      if (instrument) await this.#d.bot.prepare(instrument);
      await e.submit({
        type: 'place_order',
        id: `robot-close:${run.id}`,
        userId: account,
        instrumentId: pair.id,
        side: 'sell',
        orderType: 'limit',
        priceTicks: marketLimitTicks('sell', last),
        qtyLots: lots,
        timeInForce: 'ioc',
      });
    }
    const quote = pair.spec.quote.code;
    let fresh = (await repo.findRun(this.#d.db, run.id)) as repo.RunRow;
    if (fresh.final_minor === null) {
      const final = e.state.balance(account, WALLET, quote).balance;
      await repo.saveFinal(
        this.#d.db,
        run.id,
        final,
        performanceFee(final, run.capital_minor, run.profit_ratio_pct * 100),
      );
      fresh = (await repo.findRun(this.#d.db, run.id)) as repo.RunRow;
    }
    const final = fresh.final_minor as bigint;
    const fee = fresh.fee_minor as bigint;
    if (final > 0n) await this.#moveOut(run, pair, quote, final, fee);
    const coin = e.state.balance(account, WALLET, base).balance;
    if (coin > 0n) await this.#moveOut(run, pair, base, coin, 0n);
    await repo.saveReturned(this.#d.db, run.id, final - fee);
    const at = this.#d.clock.now();
    const to = fresh.end_reason === 'period_end' ? 'finished' : 'stopped';
    await repo.moveRun(this.#d.db, run.id, 'stopping', to, at, 'system', { ended_at: at });
  }

  /** From the sub-account back to the customer's spot wallet (hold → post with the fee → deposit). */
  async #moveOut(run: repo.RunRow, pair: Pair, asset: string, minor: bigint, fee: bigint): Promise<void> {
    const e = this.#d.engine;
    const scale = asset === pair.spec.quote.code ? pair.spec.quote.scale : pair.spec.base.scale;
    const fmt = (m: bigint) => formatDecimal(m, scale);
    const hold = `robot-out:${run.id}:${asset}`;
    const held = await e.submit({
      type: 'hold_funds',
      id: hold,
      userId: robotAccount(run.id),
      wallet: WALLET,
      asset,
      amount: fmt(minor),
      cause: 'wallet_transfer',
      link: runLink(run.id),
    });
    if (!held.ok && e.state.fundsHold(hold) === undefined && !e.state.transferPosted(`${hold}:post`))
      throw new Error(`robot ${run.id}: hold of ${asset} refused (${held.code})`);
    if (e.state.fundsHold(hold) !== undefined) {
      const posted = await e.submit({
        type: 'post_hold',
        id: `${hold}:post`,
        holdId: hold,
        to: robotClearing(run.id),
        ...(fee > 0n ? { fee: fmt(fee) } : {}),
      });
      if (!posted.ok) throw new Error(`robot ${run.id}: post of ${asset} refused (${posted.code})`);
    }
    const credited = await e.submit({
      type: 'deposit',
      id: `${hold}:credit`,
      userId: String(run.user_id),
      wallet: WALLET,
      asset,
      amount: fmt(minor - fee),
      from: robotClearing(run.id),
      cause: 'wallet_transfer',
      link: runLink(run.id),
    });
    if (!credited.ok) throw new Error(`robot ${run.id}: credit of ${asset} refused (${credited.code})`);
  }

  // --- the scheduled job ----------------------------------------------------------------------------

  /** Every running run: ended at its period's end, or asked for its orders (once per tick number). */
  tick(): Promise<void> {
    return this.#serial(async () => {
      const now = this.#d.clock.now();
      for (const run of await repo.runsIn(this.#d.db, ['running'])) {
        try {
          if (now >= run.ends_at) {
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
    return this.#serial(async () => {
      for (const run of await repo.runsIn(this.#d.db, ['starting'])) {
        const pair = this.#pair(run.instrument_id);
        const [first] = await repo.capitalOf(this.#d.db, run.id);
        if (!pair || !first) continue;
        const now = this.#d.clock.now();
        if (await this.#moveIn(run.id, run.user_id, first.id, pair, first.amount))
          await repo.moveRun(this.#d.db, run.id, 'starting', 'running', now, 'system');
        else await repo.moveRun(this.#d.db, run.id, 'starting', 'failed', now, 'system');
      }
      for (const run of await repo.runsIn(this.#d.db, ['stopping'])) {
        await this.#finish(run.id).catch((error) => this.#d.log(`robot ${run.id}: ${String(error)}`));
      }
    });
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
      params.kind === 'trend'
        ? (await this.#d.market.candles(instrument, '1m', params.slowPeriod + 1)).map((c) => c.close)
        : [];
    const decision = decide({
      params,
      market: { nowMs: now, lastTicks: last, closes },
      wallet: {
        quoteMinor: e.state.balance(account, WALLET, pair.spec.quote.code).balance,
        baseLots: Number(e.state.balance(account, WALLET, pair.spec.base.code).balance / pair.spec.lotMinor),
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
    await this.#d.bot.prepare(instrument);
    const minNotional = this.#money(pair, this.#d.minNotional) ?? 0n;
    for (const p of decision.place) {
      // The smallest order anyone may place holds for robots too.
      if (tradeNotional(pair.spec, p.priceTicks, p.qtyLots) < minNotional) continue;
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

  async #runView(run: repo.RunRow): Promise<RobotRunView> {
    const pair = this.#pairOf(run.instrument_id);
    const account = robotAccount(run.id);
    const e = this.#d.engine;
    const { rows } = await spotRepo.listUserTrades(this.#d.db, account, [pair.id], undefined, 10_000, 0);
    // Average cost: a buy adds its notional to the cost, a sell realizes its notional less the cost of
    // what it sold; fees (maker or taker, as paid) are counted apart and taken from the realized P&L.
    let lots = 0;
    let cost = 0n;
    let realized = 0n;
    let fees = 0n;
    for (const t of [...rows].reverse()) {
      const taker = t.taker_user_id === account;
      const side = taker ? t.taker_side : t.taker_side === 'buy' ? 'sell' : 'buy';
      const q = Number(t.qty_lots);
      const notional = BigInt(t.notional);
      fees += BigInt(taker ? t.taker_fee : t.maker_fee);
      if (side === 'buy') {
        lots += q;
        cost += notional;
      } else if (lots > 0) {
        const sold = (cost * BigInt(Math.min(q, lots))) / BigInt(lots);
        realized += notional - sold;
        cost -= sold;
        lots -= Math.min(q, lots);
      }
    }
    const last = this.#d.market.lastTicks(pair.id)?.lastTicks ?? 0;
    const quote = e.state.balance(account, WALLET, pair.spec.quote.code).balance;
    const baseMinor = e.state.balance(account, WALLET, pair.spec.base.code).balance;
    const heldLots = Number(baseMinor / pair.spec.lotMinor);
    const ended = run.final_minor !== null;
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
      trades: rows.length,
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
