// The crypto exchange's orders as customers (and the Binance-shaped API) see them: the rules checked in
// the order SPEC §5's messages imply, the fee shown before confirming, the transaction password, then
// one place_order command (limit, market, IOC, FOK, post-only, stop-limit through the engine's trigger).
// Live state comes from the engine, history from the read tables its projector writes (orders, trades).
// Nothing here moves money itself.
//
// What the orders table does not keep is carried by the command id's scope (the part before the first
// colon, written once with the order and never changed): `spot` plain, `spot-po` post-only, `spot-mq` a
// market buy by quote amount (placed as an IOC limit at the last level it may reach, so its hold never
// exceeds the amount). A client's idempotency key follows `:key:` (keyedCommandId).

import { randomUUID } from 'node:crypto';
import type {
  PlaceSpotOrder,
  SpotLiquidityView,
  SpotOrderPreviewView,
  SpotOrderView,
  SpotPairView,
  SpotTradeView,
} from '@bourse/contract';
import type { Db } from '@bourse/db';
import {
  buyHoldFor,
  type Instrument as EngineInstrument,
  feeOf,
  lotsToQuantity,
  type OrderStatus,
  priceToTicks,
  quantityToLots,
  tradeNotional,
} from '@bourse/engine';
import { type Instrument, ticksToDecimal } from '@bourse/market';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { SpotSettings } from '../../config.ts';
import { commandBody, keyedCommandId } from '../../engine-host/idempotency-keys.ts';
import type { CommandInput, TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import * as accountsRepo from '../accounts/repo.ts';
import type { Accounts } from '../accounts/service.ts';
import type { MarketData } from '../markets/service.ts';
import type { Watchlist } from '../stocks/watchlist.ts';
import { type LiquidityBot, liquidityAccountOf } from './liquidity-bot.ts';
import { MARKET_PROTECTION_BPS } from './pairs.ts';
import type { SpotOrderRow, SpotTradeRow } from './repo.ts';
import * as repo from './repo.ts';

export type SpotPair = { instrument: Instrument; spec: EngineInstrument };

type Scope = 'spot' | 'spot-po' | 'spot-mq';
const SCOPES: readonly Scope[] = ['spot', 'spot-po', 'spot-mq'];
const scopeOf = (commandId: string) => commandId.slice(0, commandId.indexOf(':'));

/** An order that passed every rule that needs no fresh book. */
type Checked = {
  pair: SpotPair;
  input: PlaceSpotOrder;
  /** Base lots; null for a market buy by quote amount (counted on the book when placed). */
  lots: number | null;
  /** A market buy's budget in USDT minor units. */
  quoteMinor: bigint | null;
  limitTicks: number | null;
  stopTicks: number | null;
};

type Fills = repo.OrderFills;

/** A price as the book shows it: to the pair's tick ("95047.50"), not the quote coin's six decimals. */
const priceText = (spec: EngineInstrument, ticks: number) => ticksToDecimal(ticks, spec.spec.tickSize);

/**
 * A quantity in lots as the contract shows it: the coin's scale up to 8 decimals (ETH's 18 would show ten
 * zeros more). Exact: every pair's lot has at most 8 decimals, so the digits cut are zeros.
 */
function quantityText(spec: EngineInstrument, lots: number): string {
  const text = lotsToQuantity(spec, lots);
  const point = text.indexOf('.');
  return point >= 0 && text.length - point - 1 > 8 ? text.slice(0, point + 9) : text;
}

/** An average price (quote minor units per whole coin), to the tick's decimals or more where it has them. */
function averageText(spec: EngineInstrument, minor: bigint): string {
  const text = formatDecimal(minor, spec.quote.scale);
  const keep = spec.spec.tickSize.split('.')[1]?.length ?? 0;
  const [whole, frac = ''] = text.split('.');
  const trimmed = frac.replace(/0+$/, '').padEnd(keep, '0');
  return trimmed ? `${whole}.${trimmed}` : (whole as string);
}

const isZero = (text: string) => /^0*(\.0*)?$/.test(text.trim());

/** Engine status and reason → SPOT_ORDER_STATUSES. */
export function spotStatus(row: Pick<SpotOrderRow, 'status' | 'reason' | 'trigger_spec' | 'filled_lots'>) {
  const status: OrderStatus = row.status;
  switch (status) {
    case 'pending':
      return row.trigger_spec !== null && row.reason === '' ? 'untriggered' : 'pending';
    case 'partial':
      return 'partial';
    case 'filled':
      return 'completed';
    case 'cancelled':
      if (row.reason === 'cancelled_by_user' || row.reason === 'self_trade_prevented') return 'cancelled';
      // The engine closed what could not fill now (IOC or market remainder, FOK, protection).
      return Number(row.filled_lots) > 0 ? 'partial' : 'closed';
    default:
      return 'closed';
  }
}

export class SpotExchange {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #market: MarketData;
  readonly #bot: LiquidityBot;
  readonly #clock: Clock;
  readonly #settings: SpotSettings;
  readonly #accounts: Accounts;
  readonly #watchlist: Watchlist;

  constructor(deps: {
    db: Db;
    engine: TradingEngine;
    market: MarketData;
    bot: LiquidityBot;
    clock: Clock;
    settings: SpotSettings;
    accounts: Accounts;
    watchlist: Watchlist;
  }) {
    this.#db = deps.db;
    this.#engine = deps.engine;
    this.#market = deps.market;
    this.#bot = deps.bot;
    this.#clock = deps.clock;
    this.#settings = deps.settings;
    this.#accounts = deps.accounts;
    this.#watchlist = deps.watchlist;
  }

  // --- pairs ---------------------------------------------------------------------------------------

  /** Every pair the bot quotes, including any listed since start-up. */
  #pairIds(): string[] {
    return this.#bot.pairs.map((p) => p.id);
  }

  /** A pair by `BTCUSDT`, `BTC-USDT`, `BTC/USDT` or `CRYPTO:BTCUSDT`; undefined if not traded here. */
  findPair(symbol: string): SpotPair | undefined {
    const text = symbol.trim();
    const instrument = this.#market.instrument(text) ?? this.#market.instrument(text.replace(/[-/_]/g, ''));
    if (!instrument || !this.#pairIds().includes(instrument.id)) return undefined;
    const spec = this.#engine.state.instrument(instrument.id);
    return spec ? { instrument, spec } : undefined;
  }

  pair(symbol: string): SpotPair {
    const pair = this.findPair(symbol);
    if (!pair) throw fieldError('symbol', 'unknown_instrument');
    return pair;
  }

  /** Every pair with its filters and fees; `userId` marks the customer's favourites. */
  async pairs(userId?: number): Promise<SpotPairView[]> {
    const favourites = new Set(userId === undefined ? [] : await this.favourites(userId));
    return this.#bot.pairs.flatMap((instrument) => {
      const pair = this.findPair(instrument.id);
      return pair ? [this.#pairView(pair, favourites.has(instrument.id))] : [];
    });
  }

  #pairView({ instrument, spec }: SpotPair, favourite: boolean): SpotPairView {
    return {
      id: instrument.id,
      symbol: instrument.symbol,
      name: instrument.name,
      base: spec.base.code,
      quote: spec.quote.code,
      tickSize: instrument.tickSize,
      lotSize: instrument.lotSize,
      minQuantity: quantityText(spec, spec.spec.minQtyLots),
      maxQuantity: quantityText(spec, spec.spec.maxQtyLots),
      minNotional: this.#settings.minNotional,
      makerFeeBps: spec.spec.makerFeeBps,
      takerFeeBps: spec.spec.takerFeeBps,
      marketProtectionBps: spec.spec.marketProtectionBps,
      trading: this.#engine.state.market(instrument.id)?.halted === false,
      listed: instrument.listed,
      liquidityAccount: liquidityAccountOf(instrument.id),
      favourite,
    };
  }

  /** Each pair's liquidity account: balances, what its quotes hold, open orders (the staff console). */
  liquidity(): SpotLiquidityView[] {
    return this.#bot.pairs.flatMap((instrument) => {
      const pair = this.findPair(instrument.id);
      if (!pair) return [];
      const { spec } = pair;
      const account = liquidityAccountOf(instrument.id);
      const coin = this.#engine.state.balance(account, 'spot', spec.base.code);
      const usdt = this.#engine.state.balance(account, 'spot', spec.quote.code);
      const view = this.#engine.state.market(instrument.id);
      const last = this.#market.lastTicks(instrument.id)?.lastTicks;
      const price = (ticks: number | null | undefined) => (ticks == null ? null : priceText(spec, ticks));
      return [
        {
          symbol: instrument.symbol,
          liquidityAccount: account,
          base: spec.base.code,
          quote: spec.quote.code,
          baseBalance: formatDecimal(coin.balance, spec.base.scale),
          baseHeld: formatDecimal(coin.held, spec.base.scale),
          quoteBalance: formatDecimal(usdt.balance, spec.quote.scale),
          quoteHeld: formatDecimal(usdt.held, spec.quote.scale),
          openOrders: this.#engine.state.openOrders(account).length,
          bestBid: price(view?.bestBidTicks),
          bestAsk: price(view?.bestAskTicks),
          referencePrice: price(last),
        },
      ];
    });
  }

  // --- favourites ----------------------------------------------------------------------------------

  async addFavourite(userId: number, symbol: string): Promise<void> {
    await this.#watchlist.add(userId, this.pair(symbol).instrument.id, this.#clock.now());
  }

  async removeFavourite(userId: number, symbol: string): Promise<void> {
    const pair = this.findPair(symbol);
    if (pair) await this.#watchlist.remove(userId, pair.instrument.id);
  }

  /** The customer's favourite pairs' ids, newest first. */
  favourites(userId: number): Promise<string[]> {
    return repo.listFavourites(this.#db, userId, this.#pairIds());
  }

  // --- orders --------------------------------------------------------------------------------------

  /** Every rule that needs no fresh book, in the order the customer fixes them. */
  check(input: PlaceSpotOrder): Checked {
    const pair = this.pair(input.symbol);
    const { spec } = pair;
    const { type, side } = input;
    if (type === 'market') {
      if (input.price !== undefined) throw fieldError('price', 'field_invalid');
      if (input.stopPrice !== undefined) throw fieldError('stopPrice', 'field_invalid');
      if (input.postOnly) throw fieldError('postOnly', 'field_invalid');
      if (input.timeInForce === 'fok') throw fieldError('timeInForce', 'field_invalid');
    } else {
      if (input.quoteAmount !== undefined) throw fieldError('quoteAmount', 'field_invalid');
      if (type === 'limit' && input.stopPrice !== undefined) throw fieldError('stopPrice', 'field_invalid');
      if (input.postOnly && (type !== 'limit' || input.timeInForce !== 'gtc'))
        throw fieldError('postOnly', 'field_invalid');
    }
    let quoteMinor: bigint | null = null;
    let lots: number | null = null;
    if (input.quoteAmount !== undefined) {
      if (side !== 'buy' || input.quantity !== undefined) throw fieldError('quoteAmount', 'field_invalid');
      if (isZero(input.quoteAmount)) throw fieldError('quoteAmount', 'amount_zero');
      const parsed = tryParseDecimal(input.quoteAmount, spec.quote.scale);
      if (!parsed.ok) throw fieldError('quoteAmount', 'field_invalid');
      quoteMinor = parsed.minor;
    } else {
      if (input.quantity === undefined) throw fieldError('quantity', 'quantity_required');
      if (isZero(input.quantity)) throw fieldError('quantity', 'amount_zero');
      const parsed = quantityToLots(spec, input.quantity);
      if (!parsed.ok) throw fieldError('quantity', parsed.code);
      if (parsed.value > spec.spec.maxQtyLots) throw fieldError('quantity', 'quantity_above_maximum');
      lots = parsed.value;
    }
    const limitTicks = type === 'market' ? null : this.#ticks('price', input.price, spec);
    const stopTicks = type === 'stop_limit' ? this.#ticks('stopPrice', input.stopPrice, spec) : null;
    const checked: Checked = { pair, input, lots, quoteMinor, limitTicks, stopTicks };
    const amount = quoteMinor ?? tradeNotional(spec, this.#estimateTicks(checked), lots ?? 0);
    if (amount < this.#minNotionalMinor(spec)) {
      throw new AppError('notional_below_minimum', undefined, () => ({
        min: `${this.#settings.minNotional} ${spec.quote.code}`,
      }));
    }
    return checked;
  }

  #ticks(field: string, text: string | undefined, spec: EngineInstrument): number {
    if (text === undefined) throw fieldError(field, 'field_required');
    if (isZero(text)) throw fieldError(field, 'amount_zero');
    const ticks = priceToTicks(spec, text);
    if (!ticks.ok) throw fieldError(field, ticks.code);
    return ticks.value;
  }

  #minNotionalMinor(spec: EngineInstrument): bigint {
    const parsed = tryParseDecimal(this.#settings.minNotional, spec.quote.scale);
    return parsed.ok ? parsed.minor : 0n;
  }

  /** The limit price, or for a market order the best opposite price now (else the reference price). */
  #estimateTicks({ pair, input, limitTicks }: Checked): number {
    if (limitTicks !== null) return limitTicks;
    const view = this.#engine.state.market(pair.instrument.id);
    const opposite = input.side === 'buy' ? view?.bestAskTicks : view?.bestBidTicks;
    return opposite ?? this.#market.lastTicks(pair.instrument.id)?.lastTicks ?? 0;
  }

  /**
   * A market buy by quote amount: the lots the book offers within the budget and the price protection,
   * and the last level it reaches. Counted so that what the order holds (every lot at that level, plus
   * the fee) stays within the budget.
   */
  #lotsForBudget(pair: SpotPair, budget: bigint): { lots: number; priceTicks: number } {
    const { asks } = this.#engine.state.depth(pair.instrument.id, 100);
    const best = asks[0]?.[0];
    if (best === undefined) throw new AppError('no_liquidity');
    const worst = Math.floor((best * (10_000 + MARKET_PROTECTION_BPS)) / 10_000);
    const fits = (ticks: number, lots: number) => buyHoldFor(pair.spec, ticks, lots) <= budget;
    let lots = 0;
    let priceTicks = best;
    for (const [ticks, offered] of asks) {
      if (ticks > worst) break;
      let lo = 0;
      let hi = offered;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (fits(ticks, lots + mid)) lo = mid;
        else hi = mid - 1;
      }
      if (lo === 0) break;
      lots += lo;
      priceTicks = ticks;
      if (lo < offered) break;
    }
    if (lots === 0) throw new AppError('no_liquidity');
    return { lots, priceTicks };
  }

  /** What the order would cost, with the fee rates, before confirming. */
  async preview(userId: number, input: PlaceSpotOrder): Promise<SpotOrderPreviewView> {
    const checked = this.check(input);
    const { spec } = checked.pair;
    let lots = checked.lots ?? 0;
    let priceTicks = this.#estimateTicks(checked);
    if (checked.quoteMinor !== null) ({ lots, priceTicks } = this.#lotsForBudget(checked.pair, checked.quoteMinor));
    const amount = tradeNotional(spec, priceTicks, lots);
    const feeBps = Math.max(spec.spec.makerFeeBps, spec.spec.takerFeeBps);
    const fee = feeOf(amount, feeBps);
    const buy = input.side === 'buy';
    const debit = buy ? spec.quote : spec.base;
    const available = this.#engine.state.balance(String(userId), 'spot', debit.code).available;
    const quote = (minor: bigint) => formatDecimal(minor, spec.quote.scale);
    return {
      symbol: checked.pair.instrument.symbol,
      side: input.side,
      type: input.type,
      price: priceText(spec, priceTicks),
      quantity: quantityText(spec, lots),
      amount: quote(amount),
      fee: quote(fee),
      feeAsset: spec.quote.code,
      makerFeeBps: spec.spec.makerFeeBps,
      takerFeeBps: spec.spec.takerFeeBps,
      total: quote(buy ? amount + fee : amount - fee),
      available: formatDecimal(available, debit.scale),
      availableAsset: debit.code,
    };
  }

  /**
   * Places an order. The transaction password is checked unless `skipPassword` (an API key's signed
   * call). `clientOrderId` makes a retry answer the first order (for 24 hours: idempotency-keys.ts).
   */
  async placeOrder(
    userId: number,
    input: PlaceSpotOrder,
    opts: { skipPassword?: boolean } = {},
  ): Promise<SpotOrderView> {
    const checked = this.check(input);
    if (!opts.skipPassword) {
      const user = await accountsRepo.findUserById(this.#db, userId);
      if (!user) throw new AppError('session_invalid');
      await this.#accounts.checkPin(user, 'trade', input.password);
    }
    const scope: Scope = checked.quoteMinor !== null ? 'spot-mq' : input.postOnly ? 'spot-po' : 'spot';
    const key = input.clientOrderId;
    const id = key === undefined ? `${scope}:${userId}:${randomUUID()}` : keyedCommandId(scope, userId, key);
    if (key !== undefined) {
      const earlier = await this.#earlier(userId, key, scope, checked);
      if (earlier) return earlier;
    }
    const { instrument } = checked.pair;
    await this.#bot.prepare(instrument, checked.stopTicks !== null);
    const command = this.#command(id, userId, checked);
    // The stop is noted before the command is sent, so a market move while it commits cannot pass it by
    // (a refused order's note is harmless: the bot only moves the mark when the price reaches it).
    if (checked.stopTicks !== null) this.#bot.noteStop(instrument.id, input.side, checked.stopTicks);
    const result = await this.#engine.submit(command);
    if (!result.ok) throw new AppError(result.code === 'command_id_reused' ? 'idempotency_key_reused' : result.code);
    const placed = result.events[0];
    if (placed?.type !== 'order_placed') throw new Error('place_order answered without order_placed');
    return this.order(userId, placed.orderId);
  }

  #command(id: string, userId: number, checked: Checked): CommandInput {
    const { input, pair } = checked;
    const base = {
      type: 'place_order' as const,
      id,
      userId: String(userId),
      instrumentId: pair.instrument.id,
      side: input.side,
    };
    if (checked.quoteMinor !== null) {
      const { lots, priceTicks } = this.#lotsForBudget(pair, checked.quoteMinor);
      return { ...base, orderType: 'limit', priceTicks, qtyLots: lots, timeInForce: 'ioc' };
    }
    const qtyLots = checked.lots as number;
    if (input.type === 'market') return { ...base, orderType: 'market', qtyLots, timeInForce: 'ioc' };
    return {
      ...base,
      orderType: 'limit',
      priceTicks: checked.limitTicks as number,
      qtyLots,
      timeInForce: input.timeInForce,
      ...(input.postOnly ? { postOnly: true } : {}),
      ...(checked.stopTicks !== null
        ? { trigger: { kind: 'stop' as const, priceTicks: checked.stopTicks, by: 'mark' as const } }
        : {}),
    };
  }

  /**
   * A retry of a keyed order: the first order as it stands now, or its refusal again. The same key with
   * another body (or another kind of order) is refused. A market buy by quote amount is matched by its
   * key alone: its lots were counted on the book of that moment.
   */
  async #earlier(userId: number, key: string, scope: Scope, checked: Checked): Promise<SpotOrderView | undefined> {
    for (const other of SCOPES) {
      const commandId = keyedCommandId(other, userId, key);
      const row = await repo.findKeyedCommand(this.#db, commandId);
      if (!row) continue;
      if (other !== scope) throw new AppError('idempotency_key_reused');
      if (scope !== 'spot-mq' && row.body !== commandBody(this.#command(commandId, userId, checked)))
        throw new AppError('idempotency_key_reused');
      if (row.outcome !== '') throw new AppError(row.outcome as 'insufficient_balance');
      return this.order(userId, Number(row.order_id));
    }
    return undefined;
  }

  /**
   * Cancels a live order of the customer's. The command id is fixed (`cancel:<user>:<order>`), so a
   * repeat answers the first cancel again; only a live order of the customer's reaches the engine.
   */
  async cancelOrder(userId: number, orderId: number): Promise<SpotOrderView> {
    if (!this.#isLiveOrderOf(userId, orderId)) {
      const view = await this.order(userId, orderId);
      if (view.status === 'cancelled') return view;
      if (view.status !== 'pending' && view.status !== 'partial' && view.status !== 'untriggered')
        throw new AppError('order_not_amendable');
    }
    const result = await this.#engine.submit({
      type: 'cancel_order',
      id: `cancel:${userId}:${orderId}`,
      userId: String(userId),
      orderId,
    });
    if (!result.ok) throw new AppError(result.code);
    return this.order(userId, orderId);
  }

  /** Lowers a resting order's quantity (it keeps its place in the queue); never raises it. */
  async amendOrder(userId: number, orderId: number, quantity: string): Promise<SpotOrderView> {
    const live = this.#isLiveOrderOf(userId, orderId) ? this.#engine.state.order(orderId) : undefined;
    if (!live) {
      await this.order(userId, orderId); // order_not_found for a foreign or unknown id
      throw new AppError('order_not_amendable');
    }
    const spec = this.#engine.state.instrument(live.instrumentId) as EngineInstrument;
    if (isZero(quantity)) throw fieldError('quantity', 'amount_zero');
    const lots = quantityToLots(spec, quantity);
    if (!lots.ok) throw fieldError('quantity', lots.code);
    if (lots.value === live.qtyLots) throw new AppError('amend_no_change');
    if (lots.value > live.qtyLots) throw fieldError('quantity', 'invalid_quantity');
    const result = await this.#engine.submit({
      type: 'amend_order',
      id: `amend:${userId}:${orderId}:${lots.value}`,
      userId: String(userId),
      orderId,
      qtyLots: lots.value,
    });
    if (!result.ok) throw new AppError(result.code === 'command_id_reused' ? 'amend_no_change' : result.code);
    return this.order(userId, orderId);
  }

  #isLiveOrderOf(userId: number, orderId: number): boolean {
    const live = this.#engine.state.order(orderId);
    return live?.userId === String(userId) && this.#pairIds().includes(live.instrumentId);
  }

  /** One of the customer's spot orders; another customer's id answers order_not_found. */
  async order(userId: number, orderId: number): Promise<SpotOrderView> {
    const row = await repo.findOrder(this.#db, String(userId), orderId, this.#pairIds());
    if (!row) throw new AppError('order_not_found');
    const [view] = await this.#views([row]);
    return view as SpotOrderView;
  }

  /** One of the customer's orders by its client order id (Binance's origClientOrderId); order_not_found else. */
  async orderByClientOrderId(userId: number, clientOrderId: string): Promise<SpotOrderView> {
    const ids = SCOPES.map((scope) => keyedCommandId(scope, userId, clientOrderId));
    const row = await repo.findOrderByCommand(this.#db, String(userId), ids);
    if (!row || !this.#pairIds().includes(row.instrument_id)) throw new AppError('order_not_found');
    const [view] = await this.#views([row]);
    return view as SpotOrderView;
  }

  async orders(
    userId: number,
    q: { symbol?: string | undefined; status: 'open' | 'history' | 'all'; page: number; limit: number },
  ): Promise<{ items: SpotOrderView[]; total: number }> {
    const ids = q.symbol === undefined ? this.#pairIds() : [this.pair(q.symbol).instrument.id];
    const { rows, total } = await repo.listOrders(
      this.#db,
      String(userId),
      ids,
      q.status,
      q.limit,
      (q.page - 1) * q.limit,
    );
    return { items: await this.#views(rows), total };
  }

  /** The customer's fills, newest first, with the fee and whether each made or took liquidity. */
  async trades(
    userId: number,
    q: { symbol?: string | undefined; orderId?: number | undefined; page: number; limit: number },
  ): Promise<{ items: SpotTradeView[]; total: number }> {
    const ids = q.symbol === undefined ? this.#pairIds() : [this.pair(q.symbol).instrument.id];
    // Another customer's order id is not found, rather than an empty list.
    if (q.orderId !== undefined) await this.order(userId, q.orderId);
    const owner = String(userId);
    const { rows, total } = await repo.listUserTrades(this.#db, owner, ids, q.orderId, q.limit, (q.page - 1) * q.limit);
    return { items: rows.map((t) => this.#tradeView(owner, t)), total };
  }

  #tradeView(owner: string, t: SpotTradeRow): SpotTradeView {
    const spec = this.#engine.state.instrument(t.instrument_id) as EngineInstrument;
    const taker = t.taker_user_id === owner;
    const side = taker ? t.taker_side : t.taker_side === 'buy' ? 'sell' : 'buy';
    return {
      id: Number(t.id),
      orderId: Number(taker ? t.taker_order_id : t.maker_order_id),
      symbol: this.#market.instrument(t.instrument_id)?.symbol ?? t.instrument_id,
      side,
      price: priceText(spec, Number(t.price_ticks)),
      quantity: quantityText(spec, Number(t.qty_lots)),
      amount: formatDecimal(BigInt(t.notional), spec.quote.scale),
      fee: formatDecimal(BigInt(taker ? t.taker_fee : t.maker_fee), spec.quote.scale),
      feeAsset: spec.quote.code,
      liquidity: taker ? 'taker' : 'maker',
      time: Number(t.at),
    };
  }

  async #views(rows: SpotOrderRow[]): Promise<SpotOrderView[]> {
    if (rows.length === 0) return [];
    const fills = await repo.fillsOfOrders(
      this.#db,
      rows.map((r) => Number(r.id)),
    );
    return rows.map((r) => this.#view(r, fills.get(Number(r.id))));
  }

  #view(r: SpotOrderRow, f: Fills | undefined): SpotOrderView {
    const spec = this.#engine.state.instrument(r.instrument_id) as EngineInstrument;
    const scope = scopeOf(r.command_id);
    const keyAt = r.command_id.indexOf(':key:');
    const trigger = r.trigger_spec === null ? null : (JSON.parse(r.trigger_spec) as { priceTicks: number });
    const type = trigger ? 'stop_limit' : r.order_type === 'market' || scope === 'spot-mq' ? 'market' : 'limit';
    const quote = (minor: bigint) => formatDecimal(minor, spec.quote.scale);
    const avg =
      f && f.lots > 0 ? averageText(spec, (f.notional * spec.baseUnit) / (BigInt(f.lots) * spec.lotMinor)) : null;
    return {
      id: Number(r.id),
      clientOrderId: keyAt < 0 ? null : r.command_id.slice(keyAt + ':key:'.length),
      symbol: this.#market.instrument(r.instrument_id)?.symbol ?? r.instrument_id,
      base: spec.base.code,
      quote: spec.quote.code,
      side: r.side,
      type,
      timeInForce: type === 'market' ? 'ioc' : r.time_in_force,
      postOnly: scope === 'spot-po',
      price: type === 'market' ? '' : priceText(spec, Number(r.price_ticks)),
      stopPrice: trigger ? priceText(spec, trigger.priceTicks) : null,
      quantity: quantityText(spec, Number(r.qty_lots)),
      filledQuantity: quantityText(spec, Number(r.filled_lots)),
      avgPrice: avg,
      filledAmount: quote(f?.notional ?? 0n),
      fee: quote(f?.fee ?? 0n),
      feeAsset: spec.quote.code,
      status: spotStatus(r),
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
    };
  }
}
