// Stock orders as the customer sees them (SPEC §5 rules, §4 states): validation in the order SPEC's
// messages imply, the fee from the deployment's schedule shown before confirming, the transaction
// password, then one place_order command to the engine, which holds the funds. Reads come from the
// engine's read tables (orders, trades); nothing here moves money itself.

import { randomUUID } from 'node:crypto';
import type { ErrorCode, orderPreviewView, StockOrderView } from '@bourse/contract';
import type { Db } from '@bourse/db';
import {
  type EngineEvent,
  type Instrument as EngineInstrument,
  feeOf,
  isOutsideBand,
  type OrderPlaced,
  type OrderStatus,
  type OrderUpdated,
  priceToTicks,
  quantityToLots,
  ticksToPrice,
  tradeNotional,
} from '@bourse/engine';
import { calendarOf, type Instrument, isOpen } from '@bourse/market';
import { formatDecimal, parseDecimal } from '@bourse/money';
import type { z } from 'zod';
import type { PaperVenue } from '../../adapters/venue/paper/paper-venue.ts';
import type { StockSettings } from '../../config.ts';
import { findKeyed, keyedCommandId } from '../../engine-host/idempotency-keys.ts';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import type { UserRow } from '../accounts/repo.ts';
import type { MarketData } from '../markets/service.ts';
import type { OrderRow } from './repo.ts';
import * as repo from './repo.ts';
import { unlockAtMs } from './settlement-calendar.ts';
import { isStock } from './stock-instruments.ts';

export type Side = 'buy' | 'sell';
export type OrderInput = {
  symbol: string;
  orderType: 'market' | 'limit';
  price?: string | undefined;
  quantity: string;
};

type Fills = { notional: bigint; fee: bigint; lots: number };

/** An order that passed every rule check, with the figures shown before confirming. */
export type Checked = {
  side: Side;
  orderType: 'market' | 'limit';
  instrument: Instrument;
  spec: EngineInstrument;
  lots: number;
  limitTicks: number | null;
  afterMarket: boolean;
  /** The price the amount is estimated at (the limit, else the best opposite quote or the last price). */
  priceTicks: number;
  /** Its amount in the quote asset's minor units. */
  amount: bigint;
};

/** Engine status and reason → SPEC §4's states. */
export function customerStatus(status: OrderStatus, reason: string): StockOrderView['status'] {
  switch (status) {
    case 'pending':
      return 'pending';
    case 'partial':
      return 'partial';
    case 'filled':
      return 'completed';
    case 'cancelled':
      if (reason === 'cancelled_by_user') return 'cancelled';
      // The venue closed what could not fill (IOC remainder, market protection, no liquidity).
      return reason === 'self_trade_prevented' ? 'system_closed' : 'closed';
    default:
      return 'system_closed';
  }
}

const isZero = (text: string) => /^0*(\.0*)?$/.test(text.trim());

export class StockOrders {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #market: MarketData;
  readonly #venue: PaperVenue;
  readonly #clock: Clock;
  readonly #settings: StockSettings;

  constructor(deps: {
    db: Db;
    engine: TradingEngine;
    market: MarketData;
    venue: PaperVenue;
    clock: Clock;
    settings: StockSettings;
  }) {
    this.#db = deps.db;
    this.#engine = deps.engine;
    this.#market = deps.market;
    this.#venue = deps.venue;
    this.#clock = deps.clock;
    this.#settings = deps.settings;
  }

  /** The stock and its engine definition; unknown and unlisted stocks are refused. */
  resolve(symbol: string): { instrument: Instrument; spec: EngineInstrument } {
    const instrument = this.#market.instrument(symbol);
    if (!instrument || !isStock(instrument)) throw fieldError('symbol', 'unknown_instrument');
    const spec = this.#engine.state.instrument(instrument.id);
    if (!instrument.listed || !spec) throw fieldError('symbol', 'instrument_unlisted');
    return { instrument, spec };
  }

  /** Every SPEC §5 rule that does not need the engine (the figures to confirm with: preview()). */
  check(user: UserRow, side: Side, input: OrderInput): Checked {
    const { instrument, spec } = this.resolve(input.symbol);
    if (this.#settings.kycRequired && user.id_status !== 'succ') throw new AppError('kyc_required');
    if (isZero(input.quantity)) throw fieldError('quantity', 'amount_zero');
    const lots = quantityToLots(spec, input.quantity);
    if (!lots.ok) throw fieldError('quantity', lots.code);
    let limitTicks: number | null = null;
    if (input.orderType === 'limit') {
      if (!input.price?.trim()) throw fieldError('price', 'field_required');
      if (isZero(input.price)) throw fieldError('price', 'amount_zero');
      const ticks = priceToTicks(spec, input.price.trim());
      if (!ticks.ok) throw fieldError('price', ticks.code);
      limitTicks = ticks.value;
    } else if (input.price?.trim()) {
      // A market order trades at the book's prices: a price sent with it would be silently ignored,
      // so the customer is told instead (an empty form field is no price).
      throw fieldError('price', 'field_invalid');
    }
    const shares = BigInt(lots.value) * spec.lotMinor;
    if (shares < BigInt(this.#settings.minShares)) throw fieldError('quantity', 'quantity_below_minimum');
    if (shares > BigInt(this.#settings.maxShares)) throw fieldError('quantity', 'quantity_above_maximum');
    const raw = this.#market.lastTicks(instrument.id);
    const lastTicks = raw?.lastTicks ?? 0;
    if (side === 'buy' && raw?.band && lastTicks >= raw.band.upperTicks) throw new AppError('daily_limit_buy');
    const afterMarket = !isOpen(instrument.exchange, this.#clock.now());
    const view = this.#engine.state.market(instrument.id);
    // The engine's band (the day's, as the venue set it) refuses the order on placing: the preview too.
    if (limitTicks !== null && view && isOutsideBand(view, limitTicks)) throw fieldError('price', 'price_outside_band');
    // A market order is estimated at the best opposite quote while the market is open, else at the last price.
    const opposite = side === 'buy' ? view?.bestAskTicks : view?.bestBidTicks;
    const priceTicks = limitTicks ?? (!afterMarket && opposite != null ? opposite : lastTicks);
    const amount = tradeNotional(spec, priceTicks, lots.value);
    const currency = spec.quote.code;
    const min = this.#settings.minAmount[currency];
    const max = this.#settings.maxAmount[currency];
    if (min !== undefined && amount < parseDecimal(min, spec.quote.scale)) throw new AppError('amount_below_minimum');
    if (max !== undefined && amount > parseDecimal(max, spec.quote.scale)) throw new AppError('amount_above_maximum');
    if (afterMarket && this.#settings.afterMarket === 'refuse') throw new AppError('market_closed');
    return {
      side,
      orderType: input.orderType,
      instrument,
      spec,
      lots: lots.value,
      limitTicks,
      afterMarket,
      priceTicks,
      amount,
    };
  }

  /** The figures shown before confirming an order that passed check(). Placing does not need them. */
  preview(user: UserRow, checked: Checked): z.infer<typeof orderPreviewView> {
    const { side, spec, amount, afterMarket } = checked;
    const currency = spec.quote.code;
    const scale = spec.quote.scale;
    const fee = feeOf(amount, spec.spec.takerFeeBps);
    const debit = side === 'buy' ? currency : spec.base.code;
    const available = this.#engine.state.balance(String(user.id), 'stock', debit).available;
    return {
      symbol: checked.instrument.id,
      side,
      price: ticksToPrice(spec, checked.priceTicks),
      quantity: formatDecimal(BigInt(checked.lots) * spec.lotMinor, spec.base.scale),
      amount: formatDecimal(amount, scale),
      fee: formatDecimal(fee, scale),
      total: formatDecimal(side === 'buy' ? amount + fee : amount - fee, scale),
      currency,
      available: formatDecimal(available, side === 'buy' ? scale : spec.base.scale),
      afterMarket,
    };
  }

  /**
   * Places an order that passed check(); the caller has checked the transaction password.
   * `clientOrderId` makes a retry answer the first order instead of placing a second: for 24 hours from
   * the durable record of keys (engine-host/idempotency-keys.ts), and while the first is still being
   * committed from the engine's window of recent command ids.
   */
  async place(user: UserRow, checked: Checked, clientOrderId?: string): Promise<StockOrderView> {
    const { side, orderType } = checked;
    const command = {
      type: 'place_order' as const,
      id:
        clientOrderId === undefined
          ? `stock:${user.id}:${randomUUID()}`
          : keyedCommandId('stock', user.id, clientOrderId),
      userId: String(user.id),
      instrumentId: checked.instrument.id,
      side,
      orderType,
      ...(checked.limitTicks !== null ? { priceTicks: checked.limitTicks } : {}),
      qtyLots: checked.lots,
    };
    if (clientOrderId !== undefined) {
      const earlier = await findKeyed(this.#db, command);
      if (earlier === 'reused') throw new AppError('idempotency_key_reused');
      if (earlier !== undefined) {
        if (!earlier.ok) throw this.#refusal(earlier.code, side, user, checked);
        // The order as it stands now (it may have filled or been cancelled since the first answer).
        const view = earlier.orderId === null ? null : await this.info(user.id, earlier.orderId);
        if (!view) throw new Error(`keyed order ${command.id} has no order row`);
        return view;
      }
    }
    await this.#venue.prepare(checked.instrument);
    const result = await this.#engine.submit(command);
    if (!result.ok) throw this.#refusal(result.code, side, user, checked);
    const placed = result.events[0];
    if (placed?.type !== 'order_placed') throw new Error('place_order answered without order_placed');
    // The answer comes from the command's own events (committed, the same rows the read model got).
    return this.#viewFromEvents(placed, result.events);
  }

  /**
   * Why a sale found too few free shares: when the shares still locked until settlement (bought today,
   * T+1) would cover it, say so and on which day enough of them unlock; else there are not enough.
   */
  /** Every stock the venue trades, including any listed since start-up. */
  #stockIds(): string[] {
    return this.#venue.stocks.map((s) => s.id);
  }

  #sellRefusal(user: UserRow, checked: Checked): AppError {
    const { instrument, spec, lots } = checked;
    const owner = String(user.id);
    let lotsBy = this.#engine.state.balance(owner, 'stock', spec.base.code).available / spec.lotMinor;
    const locks = [...this.#engine.state.settlementLocks(owner, instrument.id)].sort((a, b) => a.timeMs - b.timeMs);
    for (const lock of locks) {
      lotsBy += BigInt(lock.qtyLots);
      if (lotsBy < BigInt(lots)) continue;
      const unlocksAt = unlockAtMs(instrument.exchange, lock.timeMs);
      const timeZone = calendarOf(instrument.exchange).timeZone;
      return fieldError('quantity', 'shares_locked_until_settlement', (lang) => ({
        date: new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone }).format(unlocksAt),
      }));
    }
    return fieldError('quantity', 'insufficient_quantity');
  }

  /** The customer's error for an engine rejection of a place_order. */
  #refusal(code: string, side: Side, user: UserRow, checked: Checked): AppError {
    if (code === 'command_id_reused') return new AppError('idempotency_key_reused');
    if (code === 'insufficient_balance' && side === 'sell') return this.#sellRefusal(user, checked);
    // A stored code is one the engine gave (EngineRejection, a subset of the catalogue).
    return new AppError(code as ErrorCode);
  }

  #viewFromEvents(placed: OrderPlaced, events: readonly EngineEvent[]): StockOrderView {
    const id = placed.orderId;
    let fills: Fills | undefined;
    let last: OrderUpdated | undefined;
    for (const e of events) {
      if (e.type === 'order_updated' && e.orderId === id) last = e;
      else if (e.type === 'trade' && (e.makerOrderId === id || e.takerOrderId === id)) {
        fills ??= { notional: 0n, fee: 0n, lots: 0 };
        fills.notional += e.notional;
        fills.fee += e.takerOrderId === id ? e.takerFee : e.makerFee;
        fills.lots += e.qtyLots;
      }
    }
    return this.#view(
      {
        id,
        command_id: placed.commandId,
        instrument_id: placed.instrumentId,
        side: placed.side,
        order_type: placed.orderType,
        price_ticks: last?.priceTicks ?? placed.priceTicks,
        qty_lots: last?.qtyLots ?? placed.qtyLots,
        filled_lots: last?.filledLots ?? 0,
        status: last?.status ?? 'pending',
        reason: last?.reason ?? '',
        created_at: placed.timeMs,
        updated_at: last?.timeMs ?? placed.timeMs,
        queued: placed.queued ? 1 : 0,
      },
      fills,
    );
  }

  /**
   * Cancels a live order of the user's. The command id is fixed (`cancel:<user>:<order>`), so a repeat
   * answers the first cancel again, and it carries the user, so another customer's attempt can never
   * stand in for the owner's. Only a cancel of a live order of the user's goes to the engine: the engine
   * remembers a refusal under its id too, so a cancel of an id not (yet) the user's would otherwise be
   * answered with that refusal once the user's order with that id exists.
   */
  async cancel(userId: number, orderId: number): Promise<StockOrderView> {
    const live = this.#engine.state.order(orderId);
    const mine = live?.userId === String(userId) ? live : undefined;
    // The read model is asked only when the engine knows no live order of the user's by this id (then the
    // answer is read back below); otherwise the read above and the cancel are one synchronous step.
    if (mine === undefined) {
      const view = await this.info(userId, orderId);
      if (!view) throw new AppError('order_not_found');
      // A repeat of the cancel that ended it: the order as it now stands.
      if (view.status === 'cancelled') return view;
      // Ended some other way (filled, closed by the venue, rejected): nothing left to cancel.
      if (view.status !== 'pending' && view.status !== 'partial') throw new AppError('order_not_amendable');
      // Still open in the read model while its end is being committed: the engine answers.
    }
    // An order with no fills is fully described by the engine's live order (after-market mark included)
    // and the cancel's own update, so it is answered without reading it back. One with fills needs its
    // trades: read below.
    const unfilled = mine !== undefined && mine.filledLots === 0 ? mine : undefined;
    const result = await this.#engine.submit({
      type: 'cancel_order',
      id: `cancel:${userId}:${orderId}`,
      userId: String(userId),
      orderId,
    });
    if (!result.ok) throw new AppError(result.code);
    const update = unfilled && result.events.find((e) => e.type === 'order_updated' && e.orderId === orderId);
    if (unfilled && update?.type === 'order_updated' && update.filledLots === 0) {
      return this.#view(
        {
          id: orderId,
          command_id: unfilled.commandId,
          instrument_id: unfilled.instrumentId,
          side: unfilled.side,
          order_type: unfilled.orderType,
          price_ticks: update.priceTicks,
          qty_lots: update.qtyLots,
          filled_lots: 0,
          status: update.status,
          reason: update.reason,
          created_at: unfilled.createdMs,
          updated_at: update.timeMs,
          queued: unfilled.afterMarket ? 1 : 0,
        },
        undefined,
      );
    }
    const view = await this.info(userId, orderId);
    if (!view) throw new AppError('order_not_found');
    return view;
  }

  async info(userId: number, orderId: number): Promise<StockOrderView | null> {
    const row = await this.#row(userId, orderId);
    if (!row) return null;
    const [view] = await this.#views([row]);
    return view ?? null;
  }

  async list(userId: number, q: { status: 'open' | 'history' | 'all'; page: number; limit: number }) {
    const { rows, total } = await repo.listOrders(
      this.#db,
      userId,
      this.#stockIds(),
      q.status,
      q.limit,
      (q.page - 1) * q.limit,
    );
    return { items: await this.#views(rows), total };
  }

  /** Counts and traded value per currency over all of the user's stock orders. */
  async statistics(userId: number) {
    const owner = String(userId);
    const counts = await repo.countOrdersByState(this.#db, owner, this.#stockIds());
    const count = (state: StockOrderView['status']) =>
      counts.reduce((sum, c) => sum + (customerStatus(c.status, c.reason) === state ? Number(c.n) : 0), 0);
    // Traded value: every fill the user took part in (never both sides: self-trades are prevented).
    const fills = await repo.listStockFillNotionals(this.#db, owner, this.#stockIds());
    const turnover = new Map<string, { minor: bigint; scale: number }>();
    for (const f of fills) {
      const quote = this.#engine.state.instrument(f.instrument_id)?.quote;
      if (!quote) continue;
      const sum = turnover.get(quote.code) ?? { minor: 0n, scale: quote.scale };
      sum.minor += BigInt(f.notional);
      turnover.set(quote.code, sum);
    }
    return {
      orders: counts.reduce((sum, c) => sum + Number(c.n), 0),
      completed: count('completed'),
      cancelled: count('cancelled'),
      turnover: Object.fromEntries([...turnover].map(([code, t]) => [code, formatDecimal(t.minor, t.scale)])),
    };
  }

  async #row(userId: number, orderId: number): Promise<OrderRow | undefined> {
    return repo.findOrder(this.#db, userId, orderId);
  }

  async #views(rows: OrderRow[]): Promise<StockOrderView[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => Number(r.id));
    const trades = await repo.listFillsOfOrders(this.#db, ids);
    const fills = new Map<number, Fills>();
    const add = (orderId: number, lots: number, notional: bigint, fee: bigint) => {
      const f = fills.get(orderId) ?? { notional: 0n, fee: 0n, lots: 0 };
      f.notional += notional;
      f.fee += fee;
      f.lots += lots;
      fills.set(orderId, f);
    };
    const wanted = new Set(ids);
    for (const t of trades) {
      if (wanted.has(Number(t.maker_order_id)))
        add(Number(t.maker_order_id), Number(t.qty_lots), BigInt(t.notional), BigInt(t.maker_fee));
      if (wanted.has(Number(t.taker_order_id)))
        add(Number(t.taker_order_id), Number(t.qty_lots), BigInt(t.notional), BigInt(t.taker_fee));
    }
    return rows.map((r) => this.#view(r, fills.get(Number(r.id))));
  }

  #view(r: OrderRow, f: Fills | undefined): StockOrderView {
    const spec = this.#engine.state.instrument(r.instrument_id)!;
    const instrument = this.#market.instrument(r.instrument_id);
    const scale = spec.quote.scale;
    const lots = Number(r.qty_lots);
    const filled = Number(r.filled_lots);
    const avg =
      f && f.lots > 0 ? formatDecimal((f.notional * spec.baseUnit) / (BigInt(f.lots) * spec.lotMinor), scale) : null;
    const amount =
      f && f.lots > 0 ? f.notional : r.order_type === 'limit' ? tradeNotional(spec, Number(r.price_ticks), lots) : 0n;
    return {
      id: Number(r.id),
      symbol: r.instrument_id,
      name: instrument?.name ?? r.instrument_id,
      side: r.side,
      orderType: r.order_type,
      price: r.order_type === 'limit' ? ticksToPrice(spec, Number(r.price_ticks)) : (avg ?? formatDecimal(0n, scale)),
      quantity: formatDecimal(BigInt(lots) * spec.lotMinor, spec.base.scale),
      filledQuantity: formatDecimal(BigInt(filled) * spec.lotMinor, spec.base.scale),
      avgFillPrice: avg,
      amount: formatDecimal(amount, scale),
      fee: formatDecimal(f?.fee ?? 0n, scale),
      currency: spec.quote.code,
      status: customerStatus(r.status, r.reason),
      afterMarket: Number(r.queued) === 1,
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
    };
  }
}
