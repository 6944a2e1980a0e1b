// The perpetual contracts as customers see them (SPEC §7 /coin/contract/order/*): leverage per contract,
// orders that open, add to or reduce the one-way position, TP/SL on the right side of the order price,
// added margin, closing one position or all at market (reduce-only), and the records of liquidations,
// ADL and funding. Live state (positions, margins, leverage) comes from the engine, history from the read
// tables. Nothing here moves money but by engine commands.
//
// Order purposes ride on the command id's scope, as spot's do: `perp` opens or adds, `perp-close` is a
// customer's close, `perp-tp` / `perp-sl` a fired trigger (desk.ts); the engine's liquidation order is
// `liquidation`.

import { randomUUID } from 'node:crypto';
import type {
  BookView,
  PerpClosedPositionView,
  PerpContractView,
  PerpDeskView,
  PerpFundingView,
  PerpLeverageView,
  PerpLiquidationView,
  PerpOrderPurpose,
  PerpOrderView,
  PerpPositionListView,
  PerpPositionView,
  PlacePerpOrder,
} from '@bourse/contract';
import type { Db } from '@bourse/db';
import {
  type Instrument as EngineInstrument,
  fundingRate as fundingRateOf,
  lotsToQuantity,
  type PositionView,
  priceToTicks,
  quantityToLots,
} from '@bourse/engine';
import { ticksToDecimal } from '@bourse/market';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import { marketMakerOf } from '../../adapters/venue/quote-ladder.ts';
import type { PerpetualSettings } from '../../config.ts';
import { commandBody, keyedCommandId } from '../../engine-host/idempotency-keys.ts';
import type { CommandInput, TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import * as accountsRepo from '../accounts/repo.ts';
import type { Accounts } from '../accounts/service.ts';
import type { SpotOrderRow } from '../spot/repo.ts';
import * as spotRepo from '../spot/repo.ts';
import { spotStatus } from '../spot/service.ts';
import type { PerpContract } from './contracts.ts';
import { FUNDING_INTERVAL_MS, fundingSlotOf, type PerpDesk } from './desk.ts';
import * as repo from './repo.ts';

/** An account younger than this is "new": its leverage is capped (PERP_NEW_ACCOUNT_MAX_LEVERAGE). */
export const NEW_ACCOUNT_DAYS = 30;
const DAY_MS = 86_400_000;

type Placed = { contract: PerpContract; spec: EngineInstrument };

const isZero = (text: string) => /^0*(\.0*)?$/.test(text.trim());
const ppmText = (ppm: number | bigint) => {
  const n = BigInt(ppm);
  const text = formatDecimal(n < 0n ? -n : n, 6);
  return n < 0n ? `-${text}` : text;
};
const signed = (minor: bigint, scale: number) =>
  minor < 0n ? `-${formatDecimal(-minor, scale)}` : formatDecimal(minor, scale);

/** A quantity in lots, to at most 8 decimals (as spot shows them). */
function quantityText(spec: EngineInstrument, lots: number): string {
  const text = lotsToQuantity(spec, Math.abs(lots));
  const point = text.indexOf('.');
  return point >= 0 && text.length - point - 1 > 8 ? text.slice(0, point + 9) : text;
}

const priceText = (spec: EngineInstrument, ticks: number) => ticksToDecimal(ticks, spec.spec.tickSize);

/** A price in collateral minor units per whole coin, to the tick (down, or up with `up`). */
function minorPriceText(spec: EngineInstrument, minor: bigint, up = false): string {
  const ticks = minor / spec.tickMinor + (up && minor % spec.tickMinor !== 0n ? 1n : 0n);
  return priceText(spec, Number(ticks));
}

/** The position's id as the customer names it: its owner and contract ("12-BTCUSDT"). */
export const positionIdOf = (userId: number | string, symbol: string) => `${userId}-${symbol}`;

export class Perpetuals {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #desk: PerpDesk;
  readonly #clock: Clock;
  readonly #settings: PerpetualSettings;
  readonly #accounts: Accounts;
  readonly #ids: string[];

  constructor(deps: {
    db: Db;
    engine: TradingEngine;
    desk: PerpDesk;
    clock: Clock;
    settings: PerpetualSettings;
    accounts: Accounts;
  }) {
    this.#db = deps.db;
    this.#engine = deps.engine;
    this.#desk = deps.desk;
    this.#clock = deps.clock;
    this.#settings = deps.settings;
    this.#accounts = deps.accounts;
    this.#ids = deps.desk.contracts.map((c) => c.id);
  }

  /** The host side: the mark, the risk loop, funding, the liquidity account (and the test hook). */
  get engineDesk(): PerpDesk {
    return this.#desk;
  }

  // --- contracts ------------------------------------------------------------------------------------

  /** A contract by `BTCUSDT`, `BTC-USDT`, `BTCUSDT-PERP` or `PERP:BTCUSDT`. */
  find(symbol: string): Placed | undefined {
    const text = symbol
      .trim()
      .toUpperCase()
      .replace(/-PERP$/, '')
      .replace(/[-/_]/g, '');
    const contract = this.#desk.contracts.find((c) => c.id === text || c.symbol === text || c.id === symbol.trim());
    const spec = contract && this.#engine.state.instrument(contract.id);
    return contract && spec ? { contract, spec } : undefined;
  }

  #contract(symbol: string): Placed {
    const found = this.find(symbol);
    if (!found) throw fieldError('symbol', 'unknown_instrument');
    return found;
  }

  async contracts(userId?: number): Promise<PerpContractView[]> {
    const cap = userId === undefined ? null : await this.#newAccountCap(userId);
    return this.#desk.contracts.flatMap((contract) => {
      const spec = this.#engine.state.instrument(contract.id);
      const terms = spec?.perpetual;
      if (!spec || !terms) return [];
      const index = this.#desk.indexTicks(contract);
      const mark = this.#desk.markTicks(contract);
      const premium = index === undefined ? 0 : this.#desk.premiumPpm(contract, index);
      const longs = this.#engine.state.positions(contract.id).filter((p) => p.sizeLots > 0);
      const oi = longs.reduce((sum, p) => sum + p.sizeLots, 0);
      const scale = spec.quote.scale;
      return [
        {
          id: contract.id,
          symbol: contract.symbol,
          base: spec.base.code,
          quote: spec.quote.code,
          tickSize: spec.spec.tickSize,
          lotSize: spec.spec.lotSize,
          minQuantity: quantityText(spec, spec.spec.minQtyLots),
          maxLeverage: terms.maxLeverage,
          allowedMaxLeverage: cap === null ? terms.maxLeverage : Math.min(cap, terms.maxLeverage),
          defaultLeverage: terms.defaultLeverage,
          tiers: terms.tiers.map((t) => ({
            floor: formatDecimal(t.floor, scale),
            maintenanceMarginRate: ppmText(t.mmrPpm),
            maintenanceAmount: formatDecimal(t.cumPpm / 1_000_000n, scale),
            maxLeverage: t.maxLeverage,
          })),
          makerFeeBps: spec.spec.makerFeeBps,
          takerFeeBps: spec.spec.takerFeeBps,
          marketProtectionBps: spec.spec.marketProtectionBps,
          indexPrice: index === undefined ? null : priceText(spec, index),
          markPrice: mark === undefined ? null : priceText(spec, mark),
          fundingRate: ppmText(fundingRateOf(premium)),
          nextFundingTime: fundingSlotOf(this.#clock.now()) + FUNDING_INTERVAL_MS,
          openInterest: quantityText(spec, oi),
          liquidityAccount: marketMakerOf(contract.id),
        },
      ];
    });
  }

  /** The leverage cap of a new account, or null when the account is old enough to choose any tier's. */
  async #newAccountCap(userId: number): Promise<number | null> {
    const user = await accountsRepo.findUserById(this.#db, userId);
    if (!user) throw new AppError('session_invalid');
    const age = this.#clock.now() - Number(user.created_at);
    return age < NEW_ACCOUNT_DAYS * DAY_MS ? this.#settings.newAccountMaxLeverage : null;
  }

  /** A contract's order book (the liquidity account's ladder and customers' orders); looking keeps it fresh. */
  book(symbol: string, levels = 10): BookView {
    const { contract, spec } = this.#contract(symbol);
    this.#desk.watch(contract.id);
    const depth = this.#engine.state.depth(contract.id, levels);
    const level = ([ticks, lots]: [number, number]): [string, string] => [
      priceText(spec, ticks),
      ticksToDecimal(lots, spec.spec.lotSize),
    ];
    return { symbol: contract.id, seq: this.#engine.seq, bids: depth.bids.map(level), asks: depth.asks.map(level) };
  }

  // --- leverage -------------------------------------------------------------------------------------

  async leverage(userId: number, symbol: string, leverage?: number): Promise<PerpLeverageView> {
    const { contract, spec } = this.#contract(symbol);
    const terms = spec.perpetual;
    if (!terms) throw fieldError('symbol', 'unknown_instrument');
    const cap = await this.#newAccountCap(userId);
    const max = Math.min(cap ?? terms.maxLeverage, terms.maxLeverage);
    if (leverage !== undefined) {
      if (leverage > max) throw new AppError('invalid_leverage');
      if (this.#engine.state.leverage(String(userId), contract.id) !== leverage) {
        const result = await this.#engine.submit({
          type: 'set_leverage',
          id: `leverage:${userId}:${contract.id}:${randomUUID()}`,
          userId: String(userId),
          instrumentId: contract.id,
          leverage,
        });
        if (!result.ok) throw new AppError(result.code);
      }
    }
    return {
      symbol: contract.symbol,
      leverage: this.#engine.state.leverage(String(userId), contract.id) ?? terms.defaultLeverage,
      maxLeverage: max,
    };
  }

  // --- orders ---------------------------------------------------------------------------------------

  async placeOrder(
    userId: number,
    input: PlacePerpOrder,
  ): Promise<{ order: PerpOrderView; position: PerpPositionView | null }> {
    const placed = this.#contract(input.symbol);
    const { contract, spec } = placed;
    if (input.type === 'market' && input.price !== undefined) throw fieldError('price', 'field_invalid');
    if (isZero(input.quantity)) throw fieldError('quantity', 'amount_zero');
    const lots = quantityToLots(spec, input.quantity);
    if (!lots.ok) throw fieldError('quantity', lots.code);
    if (lots.value > spec.spec.maxQtyLots) throw fieldError('quantity', 'quantity_above_maximum');
    const limitTicks = input.type === 'limit' ? this.#ticks('price', input.price, spec) : null;
    const tp = input.takeProfit === undefined ? null : this.#ticks('takeProfit', input.takeProfit, spec);
    const sl = input.stopLoss === undefined ? null : this.#ticks('stopLoss', input.stopLoss, spec);
    const long = input.side === 'long';
    // The order price: the limit, or for a market order the best opposite price now (else the mark).
    const view = this.#engine.state.market(contract.id);
    const orderTicks =
      limitTicks ?? (long ? view?.bestAskTicks : view?.bestBidTicks) ?? this.#desk.markTicks(contract) ?? 0;
    checkTriggerSides(long, orderTicks, tp, sl);

    const user = await accountsRepo.findUserById(this.#db, userId);
    if (!user) throw new AppError('session_invalid');
    await this.#accounts.checkPin(user, 'trade', input.password);
    const key = input.clientOrderId;
    const id = key === undefined ? `perp:${userId}:${randomUUID()}` : keyedCommandId('perp', userId, key);
    const command: CommandInput = {
      type: 'place_order',
      id,
      userId: String(userId),
      instrumentId: contract.id,
      side: long ? 'buy' : 'sell',
      ...(limitTicks === null
        ? { orderType: 'market' as const, qtyLots: lots.value, timeInForce: 'ioc' as const }
        : { orderType: 'limit' as const, priceTicks: limitTicks, qtyLots: lots.value, timeInForce: 'gtc' as const }),
    };
    if (key !== undefined) {
      const row = await spotRepo.findKeyedCommand(this.#db, id);
      if (row) {
        if (row.body !== commandBody(command)) throw new AppError('idempotency_key_reused');
        if (row.outcome !== '') throw new AppError(row.outcome as 'insufficient_balance');
        return { order: await this.order(userId, Number(row.order_id)), position: this.#position(userId, contract) };
      }
    }
    // The leverage asked with the order is set first (its own command); a refused order puts it back.
    const leverageBefore = this.#engine.state.leverage(String(userId), contract.id);
    if (input.leverage !== undefined) await this.leverage(userId, contract.id, input.leverage);
    else {
      // A leverage chosen before the account's cap was lowered (or the default) must fit it too.
      const cap = await this.#newAccountCap(userId);
      if (cap !== null && (this.#engine.state.leverage(String(userId), contract.id) ?? 0) > cap)
        throw new AppError('invalid_leverage');
    }
    await this.#desk.prepare(contract);
    const result = await this.#engine.submit(command);
    if (!result.ok) {
      if (leverageBefore !== undefined && this.#engine.state.leverage(String(userId), contract.id) !== leverageBefore) {
        await this.#engine.submit({
          type: 'set_leverage',
          id: `leverage:${userId}:${contract.id}:${randomUUID()}`,
          userId: String(userId),
          instrumentId: contract.id,
          leverage: leverageBefore,
        });
      }
      throw new AppError(result.code === 'command_id_reused' ? 'idempotency_key_reused' : result.code);
    }
    const first = result.events[0];
    if (first?.type !== 'order_placed') throw new Error('place_order answered without order_placed');
    const position = this.#engine.state.positions(contract.id).find((p) => p.userId === String(userId));
    // TP/SL are kept for the position this order opens or adds to, or will once its resting rest fills.
    const rests = this.#engine.state.order(first.orderId) !== undefined;
    if ((tp !== null || sl !== null) && (position ? position.sizeLots > 0 === long : rests)) {
      const held = this.#desk.triggers(contract.id, String(userId));
      await this.#desk.setTriggers(contract.id, String(userId), { tp: tp ?? held.tp, sl: sl ?? held.sl });
    }
    return { order: await this.order(userId, first.orderId), position: this.#position(userId, contract) };
  }

  #ticks(field: string, text: string | undefined, spec: EngineInstrument): number {
    if (text === undefined) throw fieldError(field, 'field_required');
    if (isZero(text)) throw fieldError(field, 'amount_zero');
    const ticks = priceToTicks(spec, text);
    if (!ticks.ok) throw fieldError(field, ticks.code);
    return ticks.value;
  }

  /** Cancels a resting order of the customer's (a foreign or unknown id: order_not_found). */
  async cancelOrder(userId: number, orderId: number): Promise<PerpOrderView> {
    const live = this.#engine.state.order(orderId);
    if (live?.userId !== String(userId) || !this.#ids.includes(live.instrumentId)) {
      const view = await this.order(userId, orderId);
      if (view.status === 'cancelled') return view;
      throw new AppError('order_not_amendable');
    }
    const result = await this.#engine.submit({
      type: 'cancel_order',
      id: `cancel:${userId}:${orderId}`,
      userId: String(userId),
      orderId,
    });
    if (!result.ok) throw new AppError(result.code);
    // TP/SL waiting for this order's position go with it when nothing else can open one.
    const contractId = live.instrumentId;
    const owner = String(userId);
    const waiting = this.#engine.state.openOrders(owner).some((o) => o.instrumentId === contractId);
    const open = this.#engine.state.positions(contractId).some((p) => p.userId === owner && p.sizeLots !== 0);
    if (!waiting && !open) await this.#desk.setTriggers(contractId, owner, { tp: null, sl: null });
    return this.order(userId, orderId);
  }

  async order(userId: number, orderId: number): Promise<PerpOrderView> {
    const row = await spotRepo.findOrder(this.#db, String(userId), orderId, this.#ids);
    if (!row) throw new AppError('order_not_found');
    const [view] = await this.#views([row]);
    return view as PerpOrderView;
  }

  async orders(
    userId: number,
    q: { symbol?: string | undefined; status: 'open' | 'history' | 'all'; page: number; limit: number },
  ): Promise<{ items: PerpOrderView[]; total: number }> {
    const ids = q.symbol === undefined ? this.#ids : [this.#contract(q.symbol).contract.id];
    const { rows, total } = await spotRepo.listOrders(
      this.#db,
      String(userId),
      ids,
      q.status,
      q.limit,
      (q.page - 1) * q.limit,
    );
    return { items: await this.#views(rows), total };
  }

  async #views(rows: SpotOrderRow[]): Promise<PerpOrderView[]> {
    if (rows.length === 0) return [];
    const fills = await spotRepo.fillsOfOrders(
      this.#db,
      rows.map((r) => Number(r.id)),
    );
    return rows.map((r) => {
      const spec = this.#engine.state.instrument(r.instrument_id) as EngineInstrument;
      const f = fills.get(Number(r.id));
      const purpose = purposeOf(r.command_id);
      const keyAt = r.command_id.indexOf(':key:');
      const opening = purpose === 'open';
      const buy = r.side === 'buy';
      const status = spotStatus(r);
      const avg =
        f && f.lots > 0
          ? priceText(spec, Number((f.notional * spec.baseUnit) / (BigInt(f.lots) * spec.lotMinor) / spec.tickMinor))
          : null;
      return {
        id: Number(r.id),
        clientOrderId: keyAt < 0 ? null : r.command_id.slice(keyAt + ':key:'.length),
        symbol: this.#desk.contract(r.instrument_id)?.symbol ?? r.instrument_id,
        side: r.side,
        positionSide: opening === buy ? 'long' : 'short',
        type: r.order_type === 'market' ? 'market' : 'limit',
        purpose,
        reduceOnly: !opening,
        price: r.order_type === 'market' ? '' : priceText(spec, Number(r.price_ticks)),
        quantity: quantityText(spec, Number(r.qty_lots)),
        filledQuantity: quantityText(spec, Number(r.filled_lots)),
        avgPrice: avg,
        fee: formatDecimal(f?.fee ?? 0n, spec.quote.scale),
        leverage: this.#engine.state.leverage(r.user_id, r.instrument_id) ?? 1,
        status: status === 'untriggered' ? 'pending' : status,
        createdAt: Number(r.created_at),
        updatedAt: Number(r.updated_at),
      };
    });
  }

  // --- positions ------------------------------------------------------------------------------------

  #position(userId: number, contract: PerpContract): PerpPositionView | null {
    const p = this.#engine.state.positions(contract.id).find((q) => q.userId === String(userId));
    return p && p.sizeLots !== 0 ? this.#positionView(contract, p) : null;
  }

  #positionView(contract: PerpContract, p: PositionView): PerpPositionView {
    const spec = this.#engine.state.instrument(contract.id) as EngineInstrument;
    const scale = spec.quote.scale;
    const sizeMinor = BigInt(Math.abs(p.sizeLots)) * spec.lotMinor;
    const entry = (p.entryNotional * spec.baseUnit) / sizeMinor;
    const markTicks = this.#engine.state.market(contract.id)?.markTicks ?? null;
    const pnl = p.unrealisedPnl ?? 0n;
    const equity = p.margin + pnl;
    const mm = p.maintenanceMargin;
    const triggers = this.#desk.triggers(contract.id, p.userId);
    const notional =
      markTicks === null ? p.entryNotional : (BigInt(markTicks) * spec.tickMinor * sizeMinor) / spec.baseUnit;
    return {
      id: positionIdOf(p.userId, contract.symbol),
      symbol: contract.symbol,
      side: p.sizeLots > 0 ? 'long' : 'short',
      size: quantityText(spec, p.sizeLots),
      entryPrice: minorPriceText(spec, entry),
      markPrice: markTicks === null ? null : priceText(spec, markTicks),
      margin: formatDecimal(p.margin, scale),
      // Maintenance ÷ equity, as Binance shows it; at or above 1 the position is due for liquidation.
      marginRatio: mm === null ? null : equity <= 0n ? '1' : ppmText((mm * 1_000_000n) / equity),
      maintenanceMargin: formatDecimal(mm ?? 0n, scale),
      unrealizedPnl: signed(pnl, scale),
      roe: p.margin > 0n ? ppmText((pnl * 1_000_000n) / p.margin) : '0',
      realizedPnl: signed(p.realisedPnl, scale),
      // The first tick the mark liquidates at: a long's LP down to the tick, a short's up.
      liquidationPrice: p.liquidationPrice === null ? null : minorPriceText(spec, p.liquidationPrice, p.sizeLots < 0),
      bankruptcyPrice: p.bankruptcyPrice === null ? null : minorPriceText(spec, p.bankruptcyPrice),
      leverage: p.leverage,
      takeProfit: triggers.tp === null ? null : priceText(spec, triggers.tp),
      stopLoss: triggers.sl === null ? null : priceText(spec, triggers.sl),
      notional: formatDecimal(notional, scale),
    };
  }

  async positions(userId: number, symbol?: string): Promise<PerpPositionListView> {
    const contracts = symbol === undefined ? this.#desk.contracts : [this.#contract(symbol).contract];
    const positions = contracts.flatMap((c) => {
      const view = this.#position(userId, c);
      return view ? [view] : [];
    });
    const usdt = this.#engine.state.balance(String(userId), 'contract', 'USDT');
    const scale = 6;
    const sum = (pick: (p: PerpPositionView) => string) =>
      positions.reduce((total, p) => {
        const text = pick(p);
        const parsed = tryParseDecimal(text.replace('-', ''), scale);
        const minor = parsed.ok ? parsed.minor : 0n;
        return total + (text.startsWith('-') ? -minor : minor);
      }, 0n);
    return {
      positions,
      balance: formatDecimal(usdt.balance, scale),
      available: formatDecimal(usdt.available, scale),
      margin: formatDecimal(
        sum((p) => p.margin),
        scale,
      ),
      unrealizedPnl: signed(
        sum((p) => p.unrealizedPnl),
        scale,
      ),
    };
  }

  /** The customer's own position by its id; another customer's (or none) answers position_not_found. */
  #own(userId: number, positionId: string): { contract: PerpContract; position: PositionView } {
    const dash = positionId.indexOf('-');
    const owner = positionId.slice(0, dash);
    const found = dash > 0 && owner === String(userId) ? this.find(positionId.slice(dash + 1)) : undefined;
    const position = found
      ? this.#engine.state.positions(found.contract.id).find((p) => p.userId === owner && p.sizeLots !== 0)
      : undefined;
    if (!found || !position) throw new AppError('position_not_found');
    return { contract: found.contract, position };
  }

  /** /set/profit and /set/loss: a trigger on the right side of the entry, or none ("" or absent). */
  async setTrigger(
    userId: number,
    positionId: string,
    kind: 'tp' | 'sl',
    price: string | undefined,
  ): Promise<PerpPositionView> {
    const { contract, position } = this.#own(userId, positionId);
    const spec = this.#engine.state.instrument(contract.id) as EngineInstrument;
    const ticks = price === undefined || price === '' ? null : this.#ticks('price', price, spec);
    const long = position.sizeLots > 0;
    const sizeMinor = BigInt(Math.abs(position.sizeLots)) * spec.lotMinor;
    const entryTicks = Number((position.entryNotional * spec.baseUnit) / sizeMinor / spec.tickMinor);
    const held = this.#desk.triggers(contract.id, position.userId);
    const next = kind === 'tp' ? { tp: ticks, sl: held.sl } : { tp: held.tp, sl: ticks };
    // The entry rounded down to the tick: a long's TP must be above it, a short's below (and SL the other way).
    if (kind === 'tp') checkTriggerSides(long, entryTicks, ticks, null, position.entryNotional, sizeMinor, spec);
    else checkTriggerSides(long, entryTicks, null, ticks, position.entryNotional, sizeMinor, spec);
    await this.#desk.setTriggers(contract.id, position.userId, next);
    return this.#positionView(contract, position);
  }

  /** /add/mgn: more isolated margin from the contract wallet's free USDT. */
  async addMargin(userId: number, positionId: string, amount: string, clientId?: string): Promise<PerpPositionView> {
    const { contract } = this.#own(userId, positionId);
    if (isZero(amount)) throw fieldError('amount', 'amount_zero');
    const parsed = tryParseDecimal(amount, 6);
    if (!parsed.ok) throw fieldError('amount', 'field_invalid');
    const id = clientId === undefined ? `mgn:${userId}:${randomUUID()}` : keyedCommandId('mgn', userId, clientId);
    const result = await this.#engine.submit({
      type: 'adjust_margin',
      id,
      userId: String(userId),
      instrumentId: contract.id,
      amount: formatDecimal(parsed.minor, 6),
    });
    if (!result.ok) throw new AppError(result.code === 'command_id_reused' ? 'idempotency_key_reused' : result.code);
    const view = this.#position(userId, contract);
    if (!view) throw new AppError('position_not_found');
    return view;
  }

  /** /liquidate: closes one position at market (a reduce-only IOC for its whole size). */
  async closePosition(userId: number, positionId: string): Promise<PerpOrderView> {
    const { contract, position } = this.#own(userId, positionId);
    return this.#close(userId, contract, position);
  }

  /** /liquidate/all: closes every position; none is no_closable_orders. */
  async closeAll(userId: number): Promise<PerpOrderView[]> {
    const open = this.#desk.contracts.flatMap((contract) => {
      const position = this.#engine.state.positions(contract.id).find((p) => p.userId === String(userId));
      return position && position.sizeLots !== 0 ? [{ contract, position }] : [];
    });
    if (open.length === 0) throw new AppError('no_closable_orders');
    const orders: PerpOrderView[] = [];
    for (const { contract, position } of open) orders.push(await this.#close(userId, contract, position));
    return orders;
  }

  async #close(userId: number, contract: PerpContract, position: PositionView): Promise<PerpOrderView> {
    await this.#desk.prepare(contract);
    const result = await this.#engine.submit({
      type: 'place_order',
      id: `perp-close:${userId}:${randomUUID()}`,
      userId: String(userId),
      instrumentId: contract.id,
      side: position.sizeLots > 0 ? 'sell' : 'buy',
      orderType: 'market',
      qtyLots: Math.abs(position.sizeLots),
      timeInForce: 'ioc',
      reduceOnly: true,
    });
    if (!result.ok) throw new AppError(result.code);
    const first = result.events[0];
    if (first?.type !== 'order_placed') throw new Error('place_order answered without order_placed');
    if (!this.#position(userId, contract))
      await this.#desk.setTriggers(contract.id, String(userId), { tp: null, sl: null });
    return this.order(userId, first.orderId);
  }

  // --- records --------------------------------------------------------------------------------------

  async funding(
    userId: number,
    q: { symbol?: string | undefined; page: number; limit: number },
  ): Promise<{ items: PerpFundingView[]; total: number }> {
    const ids = q.symbol === undefined ? this.#ids : [this.#contract(q.symbol).contract.id];
    const { rows, total } = await repo.listRecords(
      this.#db,
      String(userId),
      ['funding'],
      ids,
      q.limit,
      (q.page - 1) * q.limit,
    );
    return {
      total,
      items: rows.map((r) => {
        const spec = this.#engine.state.instrument(r.instrument_id) as EngineInstrument;
        return {
          id: String(r.id),
          symbol: this.#desk.contract(r.instrument_id)?.symbol ?? r.instrument_id,
          side: r.side,
          size: quantityText(spec, Number(r.size_lots)),
          rate: ppmText(Number(r.rate_ppm)),
          markPrice: priceText(spec, Number(r.price_ticks)),
          amount: signed(BigInt(r.amount), spec.quote.scale),
          at: Number(r.at),
        };
      }),
    };
  }

  /** The customer's closed positions, newest first: averages to the tick, sums exact. */
  async closedPositions(
    userId: number,
    q: { symbol?: string | undefined; page: number; limit: number },
  ): Promise<{ items: PerpClosedPositionView[]; total: number }> {
    const ids = q.symbol === undefined ? this.#ids : [this.#contract(q.symbol).contract.id];
    const { rows, total } = await repo.listClosedPositions(
      this.#db,
      String(userId),
      ids,
      q.limit,
      (q.page - 1) * q.limit,
    );
    return {
      total,
      items: rows.map((r) => {
        const spec = this.#engine.state.instrument(r.instrument_id) as EngineInstrument;
        const scale = spec.quote.scale;
        // Average price per whole coin of `notional` over `lots`: an entry rounded down, an exit too.
        const average = (notional: string, lots: number) =>
          lots > 0 ? minorPriceText(spec, (BigInt(notional) * spec.baseUnit) / (BigInt(lots) * spec.lotMinor)) : '0';
        const realised = BigInt(r.realised_pnl);
        const fees = BigInt(r.fees);
        const funding = BigInt(r.funding);
        return {
          id: String(r.id),
          symbol: this.#desk.contract(r.instrument_id)?.symbol ?? r.instrument_id,
          side: r.side,
          size: quantityText(spec, Number(r.max_lots)),
          entryPrice: average(r.open_notional, Number(r.open_lots)),
          exitPrice: average(r.close_notional, Number(r.close_lots)),
          realizedPnl: signed(realised, scale),
          fees: formatDecimal(fees, scale),
          funding: signed(funding, scale),
          netPnl: signed(realised - fees + funding, scale),
          openedAt: Number(r.opened_at),
          closedAt: Number(r.closed_at),
          reason: r.reason,
        };
      }),
    };
  }

  /** Liquidations and ADL: the customer's (userId), or everyone's for the console (null). */
  async liquidations(
    userId: number | null,
    q: { symbol?: string | undefined; page: number; limit: number },
  ): Promise<{ items: PerpLiquidationView[]; total: number }> {
    const ids = q.symbol === undefined ? this.#ids : [this.#contract(q.symbol).contract.id];
    const { rows, total } = await repo.listRecords(
      this.#db,
      userId === null ? null : String(userId),
      ['liquidation', 'adl'],
      ids,
      q.limit,
      (q.page - 1) * q.limit,
    );
    return {
      total,
      items: rows.map((r) => {
        const spec = this.#engine.state.instrument(r.instrument_id) as EngineInstrument;
        return {
          id: String(r.id),
          symbol: this.#desk.contract(r.instrument_id)?.symbol ?? r.instrument_id,
          reason: r.kind === 'adl' ? 'auto_deleverage' : 'liquidation',
          side: r.side,
          size: quantityText(spec, Number(r.size_lots)),
          markPrice: priceText(spec, Number(r.price_ticks)),
          bankruptcyPrice: priceText(spec, Number(r.bankruptcy_ticks)),
          amount: signed(BigInt(r.amount), spec.quote.scale),
          insuranceFund: signed(BigInt(r.insurance_fund), spec.quote.scale),
          at: Number(r.at),
        };
      }),
    };
  }

  // --- the console's read-only figures ---------------------------------------------------------------

  /** The insurance fund's USDT balance (a platform ledger account). */
  insuranceFund(): string {
    const account = this.#engine.state
      .accounts()
      .find((a) => a.owner === 'platform:insurance_fund' && a.asset.code === 'USDT');
    return signed(account?.balance ?? 0n, 6);
  }

  /** Open interest per contract (Σ long sizes = Σ short sizes), how many hold each side, and the mark. */
  deskView(): PerpDeskView {
    return {
      insuranceFund: this.insuranceFund(),
      contracts: this.#desk.contracts.flatMap((contract) => {
        const spec = this.#engine.state.instrument(contract.id);
        if (!spec) return [];
        const positions = this.#engine.state.positions(contract.id);
        const longs = positions.filter((p) => p.sizeLots > 0);
        const mark = this.#desk.markTicks(contract) ?? null;
        return [
          {
            symbol: contract.symbol,
            openInterest: quantityText(
              spec,
              longs.reduce((s, p) => s + p.sizeLots, 0),
            ),
            longs: longs.length,
            shorts: positions.filter((p) => p.sizeLots < 0).length,
            markPrice: mark === null ? null : priceText(spec, mark),
          },
        ];
      }),
    };
  }
}

/**
 * "Set price cannot be higher or lower than the order price": a long's take-profit above the price and
 * its stop-loss below it; a short's the other way round (trigger_wrong_side).
 */
function checkTriggerSides(
  long: boolean,
  priceTicks: number,
  tp: number | null,
  sl: number | null,
  entryNotional?: bigint,
  sizeMinor?: bigint,
  spec?: EngineInstrument,
): void {
  // With the exact entry (a position's), compare prices in minor units: the entry may sit between ticks.
  const above = (ticks: number) =>
    entryNotional !== undefined && sizeMinor !== undefined && spec !== undefined
      ? BigInt(ticks) * spec.tickMinor * sizeMinor > entryNotional * spec.baseUnit
      : ticks > priceTicks;
  const below = (ticks: number) =>
    entryNotional !== undefined && sizeMinor !== undefined && spec !== undefined
      ? BigInt(ticks) * spec.tickMinor * sizeMinor < entryNotional * spec.baseUnit
      : ticks < priceTicks;
  if (tp !== null && !(long ? above(tp) : below(tp))) throw fieldError('takeProfit', 'trigger_wrong_side');
  if (sl !== null && !(long ? below(sl) : above(sl))) throw fieldError('stopLoss', 'trigger_wrong_side');
}

export const PURPOSES: Record<string, PerpOrderPurpose> = {
  perp: 'open',
  'perp-close': 'close',
  'perp-tp': 'take_profit',
  'perp-sl': 'stop_loss',
};

function purposeOf(commandId: string): PerpOrderPurpose {
  return PURPOSES[commandId.slice(0, commandId.indexOf(':'))] ?? 'liquidation';
}
