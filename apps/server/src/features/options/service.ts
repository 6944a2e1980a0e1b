// Options (PRODUCT.md "Options", decision 0034): European, cash-settled options on the market's main
// indices and a few liquid stocks, quoted by the disclosed market maker (platform:options_maker) at
// Black–Scholes on the simulator's volatility and a configured rate, with its spread: bought at the ask,
// closed early at the bid, settled at expiry at intrinsic value against the underlying's closing price.
// Holds: every money move is an engine command (buy_option, close_option, settle_options: cause `option`,
// linked to the order "option:<id>") whose id derives from the row, so re-sending after a crash is
// harmless; each price that moves money is rounded to the currency's minor unit before it reaches the
// engine (ask up, bid down, options-pricing.ts); order states follow option_order_transitions; a refused
// request changes nothing. Must not: let anyone set a price or a result (no call takes one); promise a
// return.

import type {
  OptionChainView,
  OptionExpiryView,
  OptionGreeksView,
  OptionPositionView,
  OptionQuoteView,
  OptionRuleView,
  OptionStatisticsView,
  OptionUnderlyingView,
  StaffOptionsDeskView,
} from '@bourse/contract';
import type { Db } from '@bourse/db';
import { OPTION_SETTLEMENT_BATCH_MAX, OPTIONS_MAKER } from '@bourse/engine';
import {
  blackScholesPrice,
  greeks,
  type Instrument,
  isOpen,
  OPTION_UNDERLYINGS,
  type OptionExpiry,
  type OptionRight,
  optionExpiries,
  parseSeriesCode,
  quoteMinor,
  seriesCode,
  sessionOn,
  strikeStepMinor,
  strikesAround,
  ticksToDecimal,
  tradingDayOf,
  YEAR_MS,
} from '@bourse/market';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import type { UserRow } from '../accounts/repo.ts';
import type { MarketData } from '../markets/service.ts';
import * as repo from './repo.ts';

/** Premiums are paid from, and payouts go to, the stock wallet in the market's currency. */
const WALLET = 'stock';
/** INR, USD and BRL all have two decimals. */
const SCALE = 2;
const CURRENCY_OF = { IN: 'INR', US: 'USD', BR: 'BRL' } as const;
/** Settlement waits this long after the close, so the closing minute's candle is in. */
const SETTLE_AFTER_MS = 60_000;

export type OptionsSettings = {
  /** SPEC's "option purchase amount" minimum: the smallest premium one order may pay (decimal string). */
  minPurchaseAmount: string;
  /** The market maker's spread around the model price, in percent (half each side). */
  spreadPct: number;
  /** The risk-free rate the model uses, in percent a year (continuously compounded). */
  ratePct: number;
  /** SPEC §6: options for VIP members only (off until the VIP line lands; isVip answers then). */
  vipOnly: boolean;
  /** How often the expiry job runs (0: only when asked, as tests do). */
  jobEveryMs: number;
  weeks: number;
  months: number;
  strikesEachSide: number;
};

export type OptionsDeps = {
  db: Db;
  engine: TradingEngine;
  market: MarketData;
  clock: Clock;
  country: 'IN' | 'US' | 'BR';
  settings: OptionsSettings;
  /** The VIP line's answer (none yet: nobody is a VIP). */
  isVip: (userId: number) => Promise<boolean>;
  log: (message: string) => void;
};

type Underlying = { instrument: Instrument; multiplier: number };
type Priced = { model: number; bid: bigint; ask: bigint; greeks: ReturnType<typeof greeks>; spotMinor: bigint };

const fmt = (minor: bigint) => formatDecimal(minor, SCALE);
const parseMinor = (text: string): bigint => {
  const parsed = tryParseDecimal(text, SCALE);
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return parsed.minor;
};
const fixed = (x: number, digits: number) =>
  (Object.is(x, -0) || Math.abs(x) < 10 ** -digits / 2 ? 0 : x).toFixed(digits);
export const positionId = (orderId: number) => `option:${orderId}`;

export class Options {
  readonly #d: OptionsDeps;
  readonly #currency: string;
  #running: Promise<void> = Promise.resolve();

  constructor(deps: OptionsDeps) {
    this.#d = deps;
    this.#currency = CURRENCY_OF[deps.country];
  }

  get settings(): OptionsSettings {
    return this.#d.settings;
  }

  // --- the chain -------------------------------------------------------------------------------------------

  #underlyings(): Underlying[] {
    return OPTION_UNDERLYINGS[this.#d.country].flatMap((u) => {
      const instrument = this.#d.market.instrument(u.instrumentId);
      return instrument?.listed ? [{ instrument, multiplier: u.multiplier }] : [];
    });
  }

  #underlying(id: string): Underlying | undefined {
    return this.#underlyings().find((u) => u.instrument.id === id);
  }

  #spotMinor(instrument: Instrument): bigint {
    return parseMinor(this.#d.market.quote(instrument).price);
  }

  #underlyingView(u: Underlying): OptionUnderlyingView {
    const spot = this.#spotMinor(u.instrument);
    return {
      id: u.instrument.id,
      symbol: u.instrument.symbol,
      name: u.instrument.name,
      kind: u.instrument.kind === 'index' ? 'index' : 'stock',
      currency: u.instrument.currency,
      price: fmt(spot),
      multiplier: u.multiplier,
      volatilityPct: (u.instrument.annualVol * 100).toFixed(2),
      strikeStep: fmt(strikeStepMinor(spot)),
      isOpen: isOpen(u.instrument.exchange, this.#d.clock.now()),
    };
  }

  #expiries(u: Underlying, now = this.#d.clock.now()): OptionExpiry[] {
    const exchange = u.instrument.exchange;
    const { weeks, months } = this.#d.settings;
    return optionExpiries(exchange, tradingDayOf(exchange, now), now, { weeks, months });
  }

  #price(u: Underlying, right: OptionRight, strikeMinor: bigint, closeMs: number, now: number): Priced {
    const spotMinor = this.#spotMinor(u.instrument);
    const input = {
      right,
      spot: Number(spotMinor) / 100,
      strike: Number(strikeMinor) / 100,
      years: Math.max(0, closeMs - now) / YEAR_MS,
      vol: u.instrument.annualVol,
      rate: this.#d.settings.ratePct / 100,
    };
    const model = blackScholesPrice(input);
    const { bid, ask } = quoteMinor(model, SCALE, this.#d.settings.spreadPct / 100);
    return { model, bid, ask, greeks: greeks(input), spotMinor };
  }

  #greeksView(g: ReturnType<typeof greeks>, size = 1): OptionGreeksView {
    return {
      delta: fixed(g.delta * size, 4),
      gamma: fixed(g.gamma * size, 6),
      theta: fixed(g.theta * size, 4),
      vega: fixed(g.vega * size, 4),
    };
  }

  #quoteView(
    u: Underlying,
    right: OptionRight,
    strikeMinor: bigint,
    expiry: OptionExpiry,
    now: number,
  ): OptionQuoteView {
    const p = this.#price(u, right, strikeMinor, expiry.closeMs, now);
    return {
      series: seriesCode({ underlying: u.instrument.id, expiry: expiry.day, right, strike: fmt(strikeMinor) }),
      bid: fmt(p.bid),
      ask: fmt(p.ask),
      model: p.model.toFixed(4),
      premiumPerContract: fmt(p.ask * BigInt(u.multiplier)),
      breakeven: fmt(right === 'call' ? strikeMinor + p.ask : strikeMinor > p.ask ? strikeMinor - p.ask : 0n),
      greeks: this.#greeksView(p.greeks),
    };
  }

  #expiryView(e: OptionExpiry): OptionExpiryView {
    return { day: e.day, closesAt: e.closeMs, cycle: e.cycle };
  }

  chain(query: { underlying?: string | undefined; expiry?: string | undefined }): OptionChainView {
    const all = this.#underlyings();
    const u = query.underlying ? this.#underlying(query.underlying) : all[0];
    if (!u) throw new AppError('option_series_unknown');
    const now = this.#d.clock.now();
    const expiries = this.#expiries(u, now);
    const expiry = query.expiry ? expiries.find((e) => e.day === query.expiry) : expiries[0];
    if (!expiry) throw new AppError('option_series_unknown');
    const spot = this.#spotMinor(u.instrument);
    const strikes = strikesAround(spot, strikeStepMinor(spot), this.#d.settings.strikesEachSide);
    return {
      underlyings: all.map((x) => this.#underlyingView(x)),
      underlying: this.#underlyingView(u),
      expiries: expiries.map((e) => this.#expiryView(e)),
      expiry: this.#expiryView(expiry),
      years: (Math.max(0, expiry.closeMs - now) / YEAR_MS).toFixed(6),
      ratePct: this.#d.settings.ratePct.toFixed(2),
      rows: strikes.map((strike) => ({
        strike: fmt(strike),
        call: this.#quoteView(u, 'call', strike, expiry, now),
        put: this.#quoteView(u, 'put', strike, expiry, now),
      })),
      quotedAt: now,
    };
  }

  rule(): OptionRuleView {
    const s = this.#d.settings;
    return {
      currency: this.#currency,
      minPurchaseAmount: s.minPurchaseAmount,
      spreadPct: s.spreadPct.toFixed(2),
      ratePct: s.ratePct.toFixed(2),
      feePerOrder: fmt(0n),
      vipOnly: s.vipOnly,
      marketMaker: `platform:${OPTIONS_MAKER}`,
      underlyings: this.#underlyings().map((u) => this.#underlyingView(u)),
      weeklyExpiries: s.weeks,
      monthlyExpiries: s.months,
      strikesEachSide: s.strikesEachSide,
    };
  }

  // --- buying and closing ------------------------------------------------------------------------------------

  /** Buys at the current ask: checked in full, recorded as new, the premium moved by buy_option, then open. */
  async buy(
    user: UserRow,
    body: { series: string; contracts: number; maxPremium?: string | undefined; password?: string | undefined },
    checkPin: (pin: string | undefined) => Promise<void>,
    key?: string,
  ): Promise<OptionPositionView> {
    if (key !== undefined) {
      // A retry after a lost answer gets the first answer; the same key for another order is refused.
      const earlier = await repo.findOrderByKey(this.#d.db, user.id, key);
      if (earlier) {
        if (earlier.series !== body.series || earlier.contracts !== body.contracts)
          throw new AppError('idempotency_key_reused');
        if (earlier.status === 'new') throw new AppError('too_many_requests');
        if (earlier.status === 'rejected') throw new AppError('insufficient_balance');
        return this.#view(earlier);
      }
    }
    if (this.#d.settings.vipOnly && !(await this.#d.isVip(user.id))) throw new AppError('option_vip_only');
    const series = parseSeriesCode(body.series);
    const u = series ? this.#underlying(series.underlying) : undefined;
    const strikeMinor = series ? tryParseDecimal(series.strike, SCALE) : undefined;
    if (!series || !u || !strikeMinor?.ok) throw new AppError('option_series_unknown');
    const now = this.#d.clock.now();
    const expiry = this.#expiries(u, now).find((e) => e.day === series.expiry);
    if (!expiry) {
      const session = sessionOn(u.instrument.exchange, series.expiry);
      throw new AppError(session !== null && session.closeMs <= now ? 'option_expired' : 'option_series_unknown');
    }
    const spot = this.#spotMinor(u.instrument);
    const listed = strikesAround(spot, strikeStepMinor(spot), this.#d.settings.strikesEachSide);
    if (!listed.includes(strikeMinor.minor)) throw new AppError('option_series_unknown');
    if (!isOpen(u.instrument.exchange, now)) throw new AppError('option_market_closed');
    const p = this.#price(u, series.right, strikeMinor.minor, expiry.closeMs, now);
    const premium = p.ask * BigInt(u.multiplier) * BigInt(body.contracts);
    const min = parseMinor(this.#d.settings.minPurchaseAmount);
    if (premium < min) throw new AppError('option_min_amount', undefined, (lang) => ({ min: this.#shown(min, lang) }));
    if (body.maxPremium !== undefined && premium > parseMinor(body.maxPremium))
      throw new AppError('option_price_changed');
    await checkPin(body.password);
    if (this.#d.engine.state.balance(String(user.id), WALLET, this.#currency).available < premium)
      throw new AppError('insufficient_balance');

    const id = await this.#d.db.transaction((tx) =>
      repo.insertOrder(
        tx,
        {
          user_id: user.id,
          series: seriesCode({ ...series, strike: fmt(strikeMinor.minor) }),
          underlying: u.instrument.id,
          expiry: expiry.day,
          expires_at: expiry.closeMs,
          direction: series.right,
          strike: fmt(strikeMinor.minor),
          contracts: body.contracts,
          multiplier: u.multiplier,
          currency: this.#currency,
          premium_unit: fmt(p.ask),
          premium_minor: premium,
          fee_minor: 0n,
          open_price: fmt(p.spotMinor),
          client_key: key ?? null,
        },
        now,
      ),
    );
    const result = await this.#d.engine.submit({
      type: 'buy_option',
      id: `option-buy:${id}`,
      positionId: positionId(id),
      userId: String(user.id),
      wallet: WALLET,
      asset: this.#currency,
      amount: fmt(premium),
      series: seriesCode({ ...series, strike: fmt(strikeMinor.minor) }),
      contracts: body.contracts,
      expiresMs: expiry.closeMs,
    });
    if (!result.ok) {
      await this.#d.db.transaction((tx) => repo.moveOrder(tx, id, 'new', 'rejected', now, 'system', result.code));
      throw new AppError(result.code === 'insufficient_balance' ? 'insufficient_balance' : 'internal_error');
    }
    await this.#d.db.transaction((tx) => repo.moveOrder(tx, id, 'new', 'open', now, 'customer', ''));
    return this.#view((await repo.findOrder(this.#d.db, id)) as repo.OptionOrderRow);
  }

  /** Closes an open position early at the current bid, paid by the market maker (close_option). */
  async close(
    user: UserRow,
    body: { id: number; minValue?: string | undefined; password?: string | undefined },
    checkPin: (pin: string | undefined) => Promise<void>,
    key?: string,
  ): Promise<OptionPositionView> {
    const row = await repo.findOrder(this.#d.db, body.id);
    // Someone else's order is as unknown as one that never was.
    if (!row || row.user_id !== user.id || row.status === 'new' || row.status === 'rejected')
      throw new AppError('option_not_found');
    // A retry of this very close after a lost answer gets its answer.
    if (row.status === 'closed' && key !== undefined && row.close_key === key) return this.#view(row);
    if (row.status === 'closed') throw new AppError('option_closed');
    const now = this.#d.clock.now();
    if (now >= row.expires_at) throw new AppError('option_expired');
    const u = this.#underlying(row.underlying);
    if (!u) throw new AppError('option_series_unknown');
    if (!isOpen(u.instrument.exchange, now)) throw new AppError('option_market_closed');
    const p = this.#price(u, row.direction, parseMinor(row.strike), row.expires_at, now);
    const value = p.bid * BigInt(row.multiplier) * BigInt(row.contracts);
    if (body.minValue !== undefined && value < parseMinor(body.minValue)) throw new AppError('option_price_changed');
    await checkPin(body.password);
    if (!(await repo.setPending(this.#d.db, row.id, fmt(p.bid), value, now, key ?? null)))
      throw new AppError('option_closed');
    const result = await this.#d.engine.submit({
      type: 'close_option',
      id: `option-close:${row.id}`,
      positionId: positionId(row.id),
      userId: String(user.id),
      amount: fmt(value),
    });
    if (!result.ok) {
      await repo.clearPending(this.#d.db, row.id);
      throw new AppError(
        result.code === 'option_expired' || result.code === 'option_not_found' ? result.code : 'internal_error',
      );
    }
    await this.#d.db.transaction((tx) =>
      repo.moveOrder(tx, row.id, 'open', 'closed', now, 'customer', 'closed early', {
        reason: 'closed',
        unit: fmt(p.bid),
        proceedsMinor: value,
        expiryPrice: null,
      }),
    );
    return this.#view((await repo.findOrder(this.#d.db, row.id)) as repo.OptionOrderRow);
  }

  // --- reading -----------------------------------------------------------------------------------------------

  #shown(minor: bigint, lang: string): string {
    return new Intl.NumberFormat(lang, { style: 'currency', currency: this.#currency }).format(
      fmt(minor) as `${number}`,
    );
  }

  #view(row: repo.OptionOrderRow): OptionPositionView {
    const u = this.#underlying(row.underlying);
    const strike = parseMinor(row.strike);
    const unit = parseMinor(row.premium_unit);
    const size = BigInt(row.multiplier) * BigInt(row.contracts);
    const paid = row.premium_minor + row.fee_minor;
    let current: OptionPositionView['current'] = null;
    if (row.status === 'open' && u) {
      const now = this.#d.clock.now();
      const p = this.#price(u, row.direction, strike, row.expires_at, now);
      const value = p.bid * size;
      const pnl = value - paid;
      current = {
        underlyingPrice: fmt(p.spotMinor),
        bid: fmt(p.bid),
        value: fmt(value),
        pnl: fmt(pnl),
        pnlPct: paid > 0n ? ((Number(pnl) / Number(paid)) * 100).toFixed(2) : '0.00',
        greeks: this.#greeksView(p.greeks, Number(size)),
      };
    }
    return {
      id: row.id,
      series: row.series,
      underlying: row.underlying,
      symbol: u?.instrument.symbol ?? row.underlying.split(':')[1] ?? row.underlying,
      name: u?.instrument.name ?? row.underlying,
      direction: row.direction,
      strike: row.strike,
      expiry: row.expiry,
      expiresAt: row.expires_at,
      contracts: row.contracts,
      multiplier: row.multiplier,
      currency: row.currency,
      premiumPerUnit: row.premium_unit,
      buyingAmount: fmt(row.premium_minor),
      fee: fmt(row.fee_minor),
      openPrice: row.open_price,
      closePrice: row.close_unit,
      expiryPrice: row.expiry_price,
      proceeds: row.proceeds_minor === null ? null : fmt(row.proceeds_minor),
      status: row.status === 'closed' ? 'closed' : 'open',
      closeReason: row.close_reason,
      time: row.created_at,
      closedAt: row.closed_at,
      breakeven: fmt(breakevenMinor(row.direction, strike, unit)),
      current,
      realisedPnl: row.proceeds_minor === null ? null : fmt(row.proceeds_minor - paid),
    };
  }

  async list(
    userId: number,
    query: { status?: 'open' | 'closed' | undefined; page: number; limit: number },
  ): Promise<{ items: OptionPositionView[]; total: number }> {
    const { items, total } = await repo.listOrders(this.#d.db, userId, query.status, query);
    return { items: items.map((row) => this.#view(row)), total };
  }

  async statistics(userId: number): Promise<OptionStatisticsView> {
    const rows = await repo.ordersOf(this.#d.db, userId);
    let openPremium = 0n;
    let openValue = 0n;
    let realised = 0n;
    let openCount = 0;
    for (const row of rows) {
      const view = this.#view(row);
      if (row.status === 'open') {
        openCount += 1;
        openPremium += row.premium_minor + row.fee_minor;
        openValue += view.current ? parseMinor(view.current.value) : 0n;
      } else if (row.proceeds_minor !== null) {
        realised += row.proceeds_minor - row.premium_minor - row.fee_minor;
      }
    }
    return {
      currency: this.#currency,
      openCount,
      closedCount: rows.length - openCount,
      openPremium: fmt(openPremium),
      openValue: fmt(openValue),
      unrealisedPnl: fmt(openValue - openPremium),
      realisedPnl: fmt(realised),
    };
  }

  // --- expiry settlement -------------------------------------------------------------------------------------

  /**
   * The underlying's closing price for an expiry, in minor units: the close of the last one-minute candle
   * before the session's close. After a long downtime the simulator skips ahead without candles; the last
   * candle before the close is then the last price the market had, which is what it stood at (decision
   * 0034). Null only when the market has no price at all before the close (tried again at the next run).
   */
  async #closingPrice(u: Underlying, expiresAt: number): Promise<bigint | null> {
    const candles = await this.#d.market.candles(u.instrument, '1m', 1, expiresAt);
    const last = candles.at(-1);
    if (last) return parseMinor(ticksToDecimal(last.close, u.instrument.tickSize));
    const ticks = this.#d.market.lastTicks(u.instrument.id);
    if (ticks && ticks.tradingDay === tradingDayOf(u.instrument.exchange, expiresAt - 1))
      return parseMinor(ticksToDecimal(ticks.lastTicks, u.instrument.tickSize));
    return null;
  }

  /**
   * The expiry job: every open position whose expiry closed at least a minute ago is settled at intrinsic
   * value against the underlying's close (stored once per underlying and expiry), in batches. Safe to run
   * again at any point: a position the engine has settled already is only marked closed.
   */
  tick(): Promise<void> {
    const run = this.#running.then(() => this.#settleDue());
    this.#running = run.catch(() => undefined);
    return run;
  }

  async #settleDue(): Promise<void> {
    const now = this.#d.clock.now();
    const due = await repo.expiredOpen(this.#d.db, now - SETTLE_AFTER_MS);
    const groups = new Map<string, repo.OptionOrderRow[]>();
    for (const row of due) {
      const key = `${row.underlying}|${row.expiry}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    for (const rows of groups.values()) {
      const first = rows[0] as repo.OptionOrderRow;
      try {
        await this.#settleGroup(first.underlying, first.expiry, first.expires_at, rows, now);
      } catch (error) {
        this.#d.log(`options: settling ${first.underlying} ${first.expiry} failed: ${String(error)}`);
      }
    }
  }

  async #settleGroup(underlying: string, expiry: string, expiresAt: number, rows: repo.OptionOrderRow[], now: number) {
    let settlement = await repo.findSettlement(this.#d.db, underlying, expiry);
    if (!settlement) {
      const u = this.#underlying(underlying);
      const close = u ? await this.#closingPrice(u, expiresAt) : null;
      if (close === null) return; // tried again at the next run
      await repo.insertSettlement(this.#d.db, { underlying, expiry, expiresAt, expiryPrice: fmt(close) }, now);
      settlement = (await repo.findSettlement(this.#d.db, underlying, expiry)) as repo.SettlementRow;
    }
    const closeMinor = parseMinor(settlement.expiry_price);
    const payoutOf = (row: repo.OptionOrderRow) => {
      const strike = parseMinor(row.strike);
      const unit = row.direction === 'call' ? closeMinor - strike : strike - closeMinor;
      const intrinsic = unit > 0n ? unit : 0n;
      return { unit: intrinsic, total: intrinsic * BigInt(row.multiplier) * BigInt(row.contracts) };
    };
    // Positions the engine still has go into batches; one it settled already (a crash after the command)
    // is only marked.
    const live = rows.filter((row) => this.#d.engine.state.optionPosition(positionId(row.id)) !== undefined);
    const settledBefore = rows.filter((row) => !live.includes(row));
    for (let i = 0; i < live.length; i += OPTION_SETTLEMENT_BATCH_MAX) {
      const batch = live.slice(i, i + OPTION_SETTLEMENT_BATCH_MAX);
      const first = batch[0] as repo.OptionOrderRow;
      const result = await this.#d.engine.submit({
        type: 'settle_options',
        id: `option-expiry:${first.id}:${batch.length}`,
        entries: batch.map((row) => [positionId(row.id), fmt(payoutOf(row).total)] as const),
        link: `option-expiry:${underlying}:${expiry}`,
      });
      if (!result.ok) throw new Error(`settle_options refused: ${result.code}`);
      settledBefore.push(...batch);
    }
    let paid = 0n;
    for (const row of settledBefore) {
      const payout = payoutOf(row);
      const moved = await this.#d.db.transaction((tx) =>
        repo.moveOrder(tx, row.id, 'open', 'closed', now, 'system', 'expired', {
          reason: 'expired',
          unit: fmt(payout.unit),
          proceedsMinor: payout.total,
          expiryPrice: settlement.expiry_price,
        }),
      );
      if (moved) paid += payout.total;
    }
    await repo.addSettled(this.#d.db, underlying, expiry, settledBefore.length, paid, now);
  }

  /**
   * After a restart: orders left `new` become open (the engine took the premium) or rejected (it did not);
   * an early close written but not finished is finished (the engine closed it) or undone; then the expiry
   * job catches up with what expired while the server was down.
   */
  async resume(): Promise<void> {
    const now = this.#d.clock.now();
    for (const row of await repo.ordersIn(this.#d.db, 'new')) {
      const taken = this.#d.engine.state.transferPosted(`${positionId(row.id)}:premium`);
      await this.#d.db.transaction((tx) =>
        repo.moveOrder(tx, row.id, 'new', taken ? 'open' : 'rejected', now, 'system', 'recovered after a restart'),
      );
    }
    for (const row of await repo.ordersIn(this.#d.db, 'open')) {
      if (row.pending_minor === null || row.pending_unit === null) continue;
      if (this.#d.engine.state.optionPosition(positionId(row.id)) !== undefined) {
        await repo.clearPending(this.#d.db, row.id);
        continue;
      }
      const { pending_unit: unit, pending_minor: proceedsMinor } = row;
      await this.#d.db.transaction((tx) =>
        repo.moveOrder(tx, row.id, 'open', 'closed', now, 'system', 'closed early (finished after a restart)', {
          reason: 'closed',
          unit,
          proceedsMinor,
          expiryPrice: null,
        }),
      );
    }
    await this.tick();
  }

  stop(): Promise<void> {
    return this.#running;
  }

  // --- the console -------------------------------------------------------------------------------------------

  async desk(): Promise<StaffOptionsDeskView> {
    const now = this.#d.clock.now();
    const open = await repo.ordersIn(this.#d.db, 'open');
    let modelLiability = 0n;
    let intrinsicLiability = 0n;
    let openContracts = 0;
    const openViews: StaffOptionsDeskView['open'] = [];
    const byUnderlying = new Map<string, { positions: number; contracts: number }>();
    for (const row of open) {
      const u = this.#underlying(row.underlying);
      const size = BigInt(row.multiplier) * BigInt(row.contracts);
      let value = 0n;
      if (u) {
        const strike = parseMinor(row.strike);
        const p = this.#price(u, row.direction, strike, row.expires_at, now);
        value = BigInt(Math.round(p.model * 100)) * size;
        const unit = row.direction === 'call' ? p.spotMinor - strike : strike - p.spotMinor;
        intrinsicLiability += (unit > 0n ? unit : 0n) * size;
      }
      modelLiability += value;
      openContracts += row.contracts;
      const seen = byUnderlying.get(row.underlying) ?? { positions: 0, contracts: 0 };
      byUnderlying.set(row.underlying, { positions: seen.positions + 1, contracts: seen.contracts + row.contracts });
      openViews.push({
        id: row.id,
        userId: row.user_id,
        series: row.series,
        contracts: row.contracts,
        buyingAmount: fmt(row.premium_minor),
        value: fmt(value),
        expiresAt: row.expires_at,
      });
    }
    const maker = this.#d.engine.state.balance(`platform:${OPTIONS_MAKER}`, 'platform', this.#currency).balance;
    const settlements: StaffOptionsDeskView['settlements'] = (await repo.listSettlements(this.#d.db, 50)).map((s) => ({
      underlying: s.underlying,
      expiry: s.expiry,
      expiryPrice: s.expiry_price,
      positions: s.positions,
      paid: fmt(s.paid_minor),
      settledAt: s.settled_at,
      due: false,
    }));
    // Expiries with open positions still to settle (due once their close has passed).
    const pending = new Map<string, { underlying: string; expiry: string; at: number; n: number }>();
    for (const row of open) {
      const key = `${row.underlying}|${row.expiry}`;
      const seen = pending.get(key);
      pending.set(key, { underlying: row.underlying, expiry: row.expiry, at: row.expires_at, n: (seen?.n ?? 0) + 1 });
    }
    const dueRows = [...pending.values()]
      .sort((a, b) => a.at - b.at)
      .map((p) => ({
        underlying: p.underlying,
        expiry: p.expiry,
        expiryPrice: null,
        positions: p.n,
        paid: fmt(0n),
        settledAt: null,
        due: true,
      }));
    return {
      currency: this.#currency,
      marketMaker: {
        account: `platform:${OPTIONS_MAKER}`,
        balance: fmt(maker),
        openLiability: fmt(modelLiability),
        intrinsicLiability: fmt(intrinsicLiability),
        openContracts,
      },
      underlyings: this.#underlyings().map((u) => ({
        ...this.#underlyingView(u),
        openPositions: byUnderlying.get(u.instrument.id)?.positions ?? 0,
        openContracts: byUnderlying.get(u.instrument.id)?.contracts ?? 0,
        expiries: this.#expiries(u, now).map((e) => this.#expiryView(e)),
      })),
      open: openViews,
      settlements: [...dueRows, ...settlements],
    };
  }
}

/** The breakeven at expiry for a buyer who paid `unit` per unit (a put's is never below zero). */
function breakevenMinor(right: OptionRight, strike: bigint, unit: bigint): bigint {
  if (right === 'call') return strike + unit;
  return strike > unit ? strike - unit : 0n;
}
