// Owns perpetual contracts' engine state: one-way positions per (user, instrument), isolated margin as a
// `margin` ledger hold, leverage per (user, instrument), the kind's hold at placement and settle of a fill,
// and the family `positions`: set_leverage, adjust_margin, liquidate and apply_funding.
// Must hold: every movement is a ledger transfer or hold change; realised PnL passes through
// platform:clearing (whose balance is −Σ open positions' signed entry notional), funding through
// platform:funding (each interval nets to zero); a customer never pays more than the margin of a position
// (a loss beyond it comes from platform:insurance_fund); roundings go against the customer's liquidation.
// Must not: decide when to liquidate or what funding rate to charge (the host sends the command; the engine
// checks and applies it), or read a clock.

import { notionalMinor } from '@bourse/money';
import { AdlRanking } from './adl-ranking.ts';
import { type CommandBase, defineFamily, NUM } from './command-family.ts';
import {
  type ApplyResult,
  type EngineState,
  findUser,
  type InstrumentState,
  isValidUserId,
  type OrderRecord,
  type PerpetualState,
  type Position,
  rejected,
  type UserState,
  userOf,
  WRITTEN,
} from './engine-state.ts';
import type { PositionChangeReason } from './events.ts';
import { feeOf, isIntIn, tradeNotional } from './instrument.ts';
import { type Account, available, Hold } from './ledger.ts';
import {
  bankruptcyPrice,
  ceilDiv,
  floorDiv,
  initialMargin,
  liquidationPrice,
  maintenanceMargin,
  type PerpetualTerms,
  type PositionFigures,
  PPM,
  tierOf,
  unrealisedPnl,
} from './perpetual-math.ts';
import type { EngineRejection } from './rejections.ts';
import { cancelOrdersOn, executeLiquidationOrder, fireTriggers, protectionPrice } from './trading.ts';

/** Leverage for the customer's future orders on a perpetual; a position's margin is topped up to match. */
export type SetLeverage = CommandBase & {
  type: 'set_leverage';
  userId: string;
  instrumentId: string;
  leverage: number;
};

/** Adds (positive) or removes (negative) isolated margin: a signed decimal of the collateral. */
export type AdjustMargin = CommandBase & {
  type: 'adjust_margin';
  userId: string;
  instrumentId: string;
  amount: string;
};

/** Liquidates the position if the mark price has crossed its maintenance margin (the engine checks). */
export type Liquidate = CommandBase & { type: 'liquidate'; userId: string; instrumentId: string };

/** One funding interval at the current mark: a signed rate in parts per million (longs pay when positive). */
export type ApplyFunding = CommandBase & { type: 'apply_funding'; instrumentId: string; ratePpm: number };

export type PositionsCommand = SetLeverage | AdjustMargin | Liquidate | ApplyFunding;

type Terms = PerpetualTerms;

function termsOf(instrument: InstrumentState): Terms {
  return instrument.def.perpetual as Terms;
}

/** The perpetual's state, made on first use. */
export function perpetualOf(state: EngineState, instrument: InstrumentState): PerpetualState {
  let perpetual = state.perpetuals.get(instrument.index);
  if (perpetual === undefined) {
    perpetual = { instrument, positions: new Map(), leverage: new Map(), nextOpened: 0, adl: new AdlRanking() };
    state.perpetuals.set(instrument.index, perpetual);
  }
  return perpetual;
}

export function leverageOf(perpetual: PerpetualState, userIndex: number): number {
  return perpetual.leverage.get(userIndex) ?? termsOf(perpetual.instrument).defaultLeverage;
}

export function marginHoldId(instrumentId: string, userId: string): string {
  return `margin:${instrumentId}:${userId}`;
}

function contractAccount(state: EngineState, instrument: InstrumentState, userId: string): Account {
  return state.ledger.account(userId, 'contract', instrument.def.quote);
}

/** The smaller of two bigints (Math.min takes numbers only). */
function minOf(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function sideOf(lots: number): 1 | -1 {
  return lots > 0 ? 1 : -1;
}

function sizeMinor(instrument: InstrumentState, lots: number): bigint {
  return BigInt(Math.abs(lots)) * instrument.def.lotMinor;
}

function figures(instrument: InstrumentState, position: Position): PositionFigures {
  return {
    side: sideOf(position.sizeLots),
    sizeMinor: sizeMinor(instrument, position.sizeLots),
    entryNotional: position.entryNotional,
    margin: position.margin.remaining,
  };
}

/**
 * The position's notional at `ticks`, rounded against the customer: a long's down, a short's up (so its
 * unrealised PnL is never overstated).
 */
function notionalAt(instrument: InstrumentState, position: Position, ticks: number): bigint {
  const def = instrument.def;
  return notionalMinor(
    BigInt(ticks) * def.tickMinor,
    sizeMinor(instrument, position.sizeLots),
    def.baseUnit,
    position.sizeLots > 0 ? 'down' : 'up',
  );
}

/** Opening lots of an order: what goes beyond the part of it that would close the user's position. */
function openingLots(perpetual: PerpetualState, userIndex: number, side: 'buy' | 'sell', lots: number): number {
  const position = userIndex === -1 ? undefined : perpetual.positions.get(userIndex);
  if (position === undefined) return lots;
  const closes = (side === 'buy') !== position.sizeLots > 0;
  return closes ? Math.max(0, lots - Math.abs(position.sizeLots)) : lots;
}

/**
 * The per-kind hold of a perpetual order: initial margin (at the user's leverage, rounded down) for the lots
 * it may open beyond the position it closes, plus the fee on the whole order; both sides hold collateral.
 * A closing order therefore holds only its fee.
 */
export function perpetualHold(
  state: EngineState,
  instrument: InstrumentState,
  userIndex: number,
  side: 'buy' | 'sell',
  priceTicks: number,
  lots: number,
  maxFeeBps: number,
  reduceOnly = false,
): bigint {
  const perpetual = perpetualOf(state, instrument);
  const open = reduceOnly ? 0 : openingLots(perpetual, userIndex, side, lots);
  const fee = feeOf(tradeNotional(instrument.def, priceTicks, lots), maxFeeBps);
  if (open === 0) return fee;
  return initialMargin(tradeNotional(instrument.def, priceTicks, open), leverageOf(perpetual, userIndex)) + fee;
}

/** Lots an order of `side` can close of the user's position now (0 without an opposite position). */
export function reducibleLots(
  state: EngineState,
  instrument: InstrumentState,
  userIndex: number,
  side: 'buy' | 'sell',
): number {
  const position = userIndex === -1 ? undefined : state.perpetuals.get(instrument.index)?.positions.get(userIndex);
  if (position === undefined || (side === 'buy') !== position.sizeLots < 0) return 0;
  return Math.abs(position.sizeLots);
}

export function hasPositionToReduce(
  state: EngineState,
  instrument: InstrumentState,
  userIndex: number,
  side: 'buy' | 'sell',
): boolean {
  return reducibleLots(state, instrument, userIndex, side) > 0;
}

/** A perpetual order that would take the position into a tier whose maximum leverage is below the user's. */
export function perpetualOrderRejection(
  state: EngineState,
  instrument: InstrumentState,
  userIndex: number,
  side: 'buy' | 'sell',
  priceTicks: number,
  lots: number,
): EngineRejection | undefined {
  const perpetual = perpetualOf(state, instrument);
  const open = openingLots(perpetual, userIndex, side, lots);
  if (open === 0) return undefined;
  const position = userIndex === -1 ? undefined : perpetual.positions.get(userIndex);
  const closes = position !== undefined && (side === 'buy') !== position.sizeLots > 0;
  const notional =
    tradeNotional(instrument.def, priceTicks, open) + (position && !closes ? position.entryNotional : 0n);
  const tier = tierOf(termsOf(instrument).tiers, notional);
  return leverageOf(perpetual, userIndex) > tier.maxLeverage ? 'invalid_leverage' : undefined;
}

/**
 * Settles one fill of a perpetual: the trade and both fees (from the orders' holds to platform:fees), then
 * each side's position changes (open, increase, reduce, close or flip).
 */
export function settlePerpetualFill(
  state: EngineState,
  instrument: InstrumentState,
  taker: OrderRecord,
  maker: OrderRecord,
  priceTicks: number,
  qtyLots: number,
  timeMs: number,
): void {
  const def = instrument.def;
  const notional = tradeNotional(def, priceTicks, qtyLots);
  const takerFee = chargeableFee(taker, feeOf(notional, taker.takerFeeBps));
  const makerFee = chargeableFee(maker, feeOf(notional, maker.makerFeeBps));
  const tradeId = state.nextTradeId;
  state.nextTradeId += 1;
  const link = `trade:${tradeId}`;
  const ledger = state.ledger;
  const log = state.log;
  log.push({
    type: 'trade',
    tradeId,
    instrumentId: def.id,
    priceTicks,
    qtyLots,
    takerSide: taker.side,
    makerOrderId: maker.id,
    takerOrderId: taker.id,
    makerUserId: maker.userId,
    takerUserId: taker.userId,
    notional,
    makerFee,
    takerFee,
    timeMs,
  });
  const perpetual = perpetualOf(state, instrument);
  for (const [order, fee] of [
    [taker, takerFee],
    [maker, makerFee],
  ] as const) {
    if (fee > 0n) {
      const id = `${link}:${order.side === 'buy' ? 'buyer' : 'seller'}_fee`;
      const fromHold = minOf(fee, order.hold.remaining);
      if (fromHold > 0n) {
        log.push(ledger.postFromHold(order.hold, instrument.feeAccount, fromHold, id, 'fee', link, timeMs));
      }
      if (fee > fromHold) {
        const account = order.hold.account;
        log.push(ledger.move(account, instrument.feeAccount, fee - fromHold, `${id}:free`, 'fee', link, timeMs));
      }
    }
    const delta = order.side === 'buy' ? qtyLots : -qtyLots;
    const user = state.userList[order.userIndex] as UserState;
    const inLiquidation = state.liquidating !== null && perpetual.positions.get(user.index) === state.liquidating;
    const reason = inLiquidation ? 'liquidation' : 'trade';
    changePosition(state, perpetual, user, delta, priceTicks, order, link, reason, timeMs, inLiquidation);
  }
}

/**
 * The fee a perpetual fill can charge the order: its own hold was sized at the order's price, and a sell
 * (or a triggered order) may fill higher, so what the hold lacks comes from the free balance, and what
 * that lacks too is waived (the platform, never the customer, takes the shortfall).
 */
function chargeableFee(order: OrderRecord, fee: bigint): bigint {
  const free = available(order.hold.account);
  const most = order.hold.remaining + (free > 0n ? free : 0n);
  return minOf(fee, most);
}

/**
 * Applies a trade of `deltaLots` (signed) at `ticks` to the user's position: reduces it first (PnL realised
 * through platform:clearing), then opens what is left in the trade's direction with margin from `order`'s
 * hold (or the available balance). `liquidation`: the released margin stays held for the liquidation.
 */
function changePosition(
  state: EngineState,
  perpetual: PerpetualState,
  user: UserState,
  deltaLots: number,
  ticks: number,
  order: OrderRecord | null,
  link: string,
  reason: PositionChangeReason,
  timeMs: number,
  liquidation = false,
): void {
  let position = perpetual.positions.get(user.index);
  let remaining = Math.abs(deltaLots);
  if (position !== undefined && sideOf(position.sizeLots) !== sideOf(deltaLots)) {
    const closed = Math.min(remaining, Math.abs(position.sizeLots));
    reduce(state, perpetual, position, closed, ticks, link, timeMs, liquidation);
    remaining -= closed;
  }
  if (remaining > 0) {
    position = position ?? openPosition(state, perpetual, user);
    increase(state, perpetual, position, sideOf(deltaLots) * remaining, ticks, order, timeMs);
  }
  if (position === undefined) throw new Error(`no position of ${user.id} on ${perpetual.instrument.def.id}`);
  if (position.sizeLots === 0 && !liquidation) closePosition(state, perpetual, position, timeMs);
  logPosition(state, perpetual, position, reason, timeMs);
}

function openPosition(state: EngineState, perpetual: PerpetualState, user: UserState): Position {
  const instrument = perpetual.instrument;
  const account = contractAccount(state, instrument, user.id);
  const id = marginHoldId(instrument.def.id, user.id);
  // Linked to its own id (not the opening trade), so a snapshot restores it as it was.
  const outcome = state.ledger.createHold(id, 'margin', account, 0n, 'trade', id);
  if (!outcome.ok) throw new Error(`margin hold for ${user.id} on ${instrument.def.id}: ${outcome.code}`);
  const position: Position = {
    userIndex: user.index,
    userId: user.id,
    sizeLots: 0,
    entryNotional: 0n,
    margin: outcome.hold,
    realisedPnl: 0n,
    opened: perpetual.nextOpened++,
  };
  perpetual.positions.set(user.index, position);
  return position;
}

/** Ends a flat position: what margin is left goes back to the available balance. */
function closePosition(state: EngineState, perpetual: PerpetualState, position: Position, timeMs: number): void {
  releaseMargin(state, position, position.margin.remaining, timeMs);
  state.ledger.close(position.margin);
  perpetual.positions.delete(position.userIndex);
}

function releaseMargin(state: EngineState, position: Position, amount: bigint, timeMs: number): void {
  if (amount <= 0n) return;
  state.ledger.release(position.margin, amount);
  if (!state.quiet) {
    state.log.push({
      type: 'hold_released',
      holdId: position.margin.id,
      account: position.margin.account.key,
      amount,
      timeMs,
    });
  }
}

/** Grows the margin hold by `amount` of the account's available balance (the caller checked it is there). */
function addMargin(state: EngineState, position: Position, amount: bigint, timeMs: number): void {
  if (amount <= 0n) return;
  if (!state.ledger.resize(position.margin, position.margin.remaining + amount)) {
    throw new Error(`margin of ${position.userId}: ${amount} not available`);
  }
  if (!state.quiet) {
    state.log.push({
      type: 'hold_placed',
      holdId: position.margin.id,
      account: position.margin.account.key,
      amount,
      timeMs,
    });
  }
}

/**
 * Opens `signedLots` more in the position's direction at `ticks`: the entry notional grows by the trade's
 * notional; the margin by initial margin (rounded down) taken from the order's hold as far as it can spare
 * it (keeping the fee of the order's unfilled rest), then from the available balance, then not at all
 * (the position is then more leveraged than asked: liquidation protects the rest).
 */
function increase(
  state: EngineState,
  perpetual: PerpetualState,
  position: Position,
  signedLots: number,
  ticks: number,
  order: OrderRecord | null,
  timeMs: number,
): void {
  const instrument = perpetual.instrument;
  const def = instrument.def;
  const notional = tradeNotional(def, ticks, Math.abs(signedLots));
  const wanted = initialMargin(notional, leverageOf(perpetual, position.userIndex));
  let fromOrder = 0n;
  if (order !== null && wanted > 0n) {
    // order.filledLots does not count this fill yet: its rest after it still owes at most this fee.
    const restLots = order.qtyLots - order.filledLots - Math.abs(signedLots);
    const reserve =
      restLots > 0
        ? feeOf(tradeNotional(def, order.priceTicks, restLots), Math.max(order.makerFeeBps, order.takerFeeBps))
        : 0n;
    const spare = order.hold.remaining - reserve;
    fromOrder = spare <= 0n ? 0n : spare < wanted ? spare : wanted;
    if (fromOrder > 0n) state.ledger.release(order.hold, fromOrder);
  }
  const free = available(position.margin.account);
  const extra = wanted - fromOrder;
  const fromBalance = extra <= 0n ? 0n : free < extra ? (free > 0n ? free : 0n) : extra;
  addMargin(state, position, fromOrder + fromBalance, timeMs);
  position.entryNotional += notional;
  position.sizeLots += signedLots;
}

/**
 * Closes `lots` of the position at `ticks`. The closed part's entry notional is its share of the entry,
 * rounded so the customer's PnL rounds down (a long's share up, a short's down; the whole at the last close,
 * so nothing is lost over a position's life). A gain is paid from platform:clearing; a loss from the margin,
 * and beyond the margin from platform:insurance_fund. The closed part's share of margin (rounded down),
 * less the loss it paid, is released (kept held during a liquidation).
 */
function reduce(
  state: EngineState,
  perpetual: PerpetualState,
  position: Position,
  lots: number,
  ticks: number,
  link: string,
  timeMs: number,
  liquidation: boolean,
): void {
  const instrument = perpetual.instrument;
  const def = instrument.def;
  const ledger = state.ledger;
  const size = Math.abs(position.sizeLots);
  const side = sideOf(position.sizeLots);
  const whole = lots === size;
  const share = (value: bigint, up: boolean): bigint => {
    if (whole) return value;
    const scaled = value * BigInt(lots);
    return up ? ceilDiv(scaled, BigInt(size)) : scaled / BigInt(size);
  };
  const entryPart = share(position.entryNotional, side === 1);
  const marginPart = share(position.margin.remaining, false);
  const exit = tradeNotional(def, ticks, lots);
  const pnl = unrealisedPnl(side, entryPart, exit);
  const clearing = ledger.platform('clearing', def.quote);
  const account = position.margin.account;
  const log = state.log;
  const tag = `${link}:pnl:${position.userId}`;
  let paidFromMargin = 0n;
  if (pnl > 0n) {
    log.push(ledger.move(clearing, account, pnl, tag, 'trade', link, timeMs));
  } else if (pnl < 0n) {
    const loss = -pnl;
    const margin = position.margin.remaining;
    paidFromMargin = minOf(loss, margin);
    if (paidFromMargin > 0n)
      log.push(ledger.postFromHold(position.margin, clearing, paidFromMargin, tag, 'trade', link, timeMs));
    if (loss > paidFromMargin) {
      const fund = ledger.platform('insurance_fund', def.quote);
      log.push(ledger.move(fund, clearing, loss - paidFromMargin, `${tag}:fund`, 'liquidation', link, timeMs));
    }
  }
  position.realisedPnl += pnl;
  position.entryNotional -= entryPart;
  position.sizeLots -= side * lots;
  if (!liquidation) {
    const release = marginPart - paidFromMargin;
    const left = position.margin.remaining;
    releaseMargin(state, position, minOf(release, left), timeMs);
  }
}

function logPosition(
  state: EngineState,
  perpetual: PerpetualState,
  position: Position,
  reason: PositionChangeReason,
  timeMs: number,
): void {
  // Every change of a position passes here, quiet (replay) or not: ADL's ranking looks at it again.
  perpetual.adl.touched(position.userIndex);
  if (state.quiet) return;
  state.log.push({
    type: 'position_changed',
    instrumentId: perpetual.instrument.def.id,
    userId: position.userId,
    sizeLots: position.sizeLots,
    entryNotional: position.entryNotional,
    margin: position.margin.remaining,
    realisedPnl: position.realisedPnl,
    leverage: leverageOf(perpetual, position.userIndex),
    reason,
    timeMs,
  });
}

type Found =
  | { ok: true; instrument: InstrumentState; perpetual: PerpetualState }
  | { ok: false; code: EngineRejection };

function perpetualFor(state: EngineState, instrumentId: unknown): Found {
  const instrument = typeof instrumentId === 'string' ? state.instruments.get(instrumentId) : undefined;
  if (instrument === undefined) return { ok: false, code: 'unknown_instrument' };
  if (instrument.def.perpetual === null) return { ok: false, code: 'invalid_instrument' };
  return { ok: true, instrument, perpetual: perpetualOf(state, instrument) };
}

/** The user's open position, if any (a user the engine never saw has none). */
function positionOf(state: EngineState, perpetual: PerpetualState, userId: string): Position | undefined {
  const user = findUser(state, userId);
  return user === undefined ? undefined : perpetual.positions.get(user.index);
}

function hasLiveOrders(state: EngineState, instrument: InstrumentState, userId: string): boolean {
  return state.orders.values().some((order) => order.instrument === instrument && order.userId === userId);
}

/**
 * Sets the leverage of the user's future orders. Within the spec's maximum and the position's tier; refused
 * while the user has live orders on the contract (their holds were sized at the old leverage). A position's
 * margin is topped up to the initial margin at the new leverage from the available balance:
 * `leverage_funds` when that is short.
 */
export function setLeverage(state: EngineState, command: SetLeverage): ApplyResult {
  if (!isValidUserId(command.userId)) return rejected('invalid_user');
  const found = perpetualFor(state, command.instrumentId);
  if (!found.ok) return rejected(found.code);
  const { instrument, perpetual } = found;
  const terms = termsOf(instrument);
  if (!isIntIn(command.leverage, 1, terms.maxLeverage)) return rejected('invalid_leverage');
  const position = positionOf(state, perpetual, command.userId);
  const notional = position?.entryNotional ?? 0n;
  if (command.leverage > tierOf(terms.tiers, notional).maxLeverage) return rejected('invalid_leverage');
  if (hasLiveOrders(state, instrument, command.userId)) return rejected('leverage_open_orders');
  let topUp = 0n;
  if (position !== undefined) {
    const needed = initialMargin(position.entryNotional, command.leverage) - position.margin.remaining;
    if (needed > 0n) {
      if (available(position.margin.account) < needed) return rejected('leverage_funds');
      topUp = needed;
    }
  }
  const user = userOf(state, command.userId);
  perpetual.leverage.set(user.index, command.leverage);
  const { timeMs } = command;
  state.log.push({
    type: 'leverage_set',
    instrumentId: instrument.def.id,
    userId: user.id,
    leverage: command.leverage,
    timeMs,
  });
  if (position !== undefined) {
    addMargin(state, position, topUp, timeMs);
    logPosition(state, perpetual, position, 'leverage', timeMs);
  }
  return WRITTEN;
}

/** A signed decimal of the asset's scale, as minor units (not zero), or undefined. */
function signedMinor(text: unknown, scale: number): bigint | undefined {
  if (typeof text !== 'string' || !/^-?\d{1,30}(\.\d{1,36})?$/.test(text)) return undefined;
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  if (fraction.length > scale) return undefined;
  const minor = BigInt(whole + fraction.padEnd(scale, '0'));
  if (minor === 0n) return undefined;
  return negative ? -minor : minor;
}

/**
 * Adds margin from the available balance, or removes it to the available balance: what stays must cover
 * the initial margin at the user's leverage of the larger of entry and mark notional, after an unrealised loss.
 */
export function adjustMargin(state: EngineState, command: AdjustMargin): ApplyResult {
  if (!isValidUserId(command.userId)) return rejected('invalid_user');
  const found = perpetualFor(state, command.instrumentId);
  if (!found.ok) return rejected(found.code);
  const { instrument, perpetual } = found;
  const amount = signedMinor(command.amount, instrument.def.quote.scale);
  if (amount === undefined) return rejected('invalid_amount');
  const position = positionOf(state, perpetual, command.userId);
  if (position === undefined) return rejected('position_not_found');
  const { timeMs } = command;
  if (amount > 0n) {
    if (available(position.margin.account) < amount) return rejected('insufficient_balance');
    addMargin(state, position, amount, timeMs);
  } else {
    const left = position.margin.remaining + amount;
    const mark = instrument.markTicks;
    const markNotional = mark === null ? 0n : notionalAt(instrument, position, mark);
    const basis = markNotional > position.entryNotional ? markNotional : position.entryNotional;
    const loss = mark === null ? 0n : unrealisedPnl(sideOf(position.sizeLots), position.entryNotional, markNotional);
    const needed = initialMargin(basis, leverageOf(perpetual, position.userIndex));
    if (left + (loss < 0n ? loss : 0n) < needed) return rejected('insufficient_margin');
    releaseMargin(state, position, -amount, timeMs);
  }
  logPosition(state, perpetual, position, 'margin', timeMs);
  return WRITTEN;
}

/** Whether the position's equity at the mark (margin + unrealised PnL) is at or below its maintenance margin. */
export function isLiquidatable(instrument: InstrumentState, position: Position): boolean {
  const mark = instrument.markTicks;
  if (mark === null) return false;
  const notional = notionalAt(instrument, position, mark);
  const equity = position.margin.remaining + unrealisedPnl(sideOf(position.sizeLots), position.entryNotional, notional);
  return equity <= maintenanceMargin(termsOf(instrument).tiers, notional);
}

/** The bankruptcy price in ticks, rounded to the tick on the customer's side (a long's up, a short's down). */
function bankruptcyTicks(instrument: InstrumentState, position: Position): number {
  const def = instrument.def;
  const price = bankruptcyPrice(figures(instrument, position), def.baseUnit);
  if (price === null) return 1;
  const ticks = position.sizeLots > 0 ? ceilDiv(price, def.tickMinor) : floorDiv(price, def.tickMinor);
  const max = BigInt(instrument.book.maxTick);
  return Number(ticks < 1n ? 1n : ticks > max ? max : ticks);
}

/**
 * The worst price the liquidation's closing order may trade at: where its loss beyond the margin would
 * take all of the insurance fund (rounded so it takes no more), and never beyond market protection.
 */
function worstTicks(
  state: EngineState,
  instrument: InstrumentState,
  position: Position,
  closing: 'buy' | 'sell',
): number {
  const def = instrument.def;
  const fundBalance = state.ledger.platform('insurance_fund', def.quote).balance;
  const fund = fundBalance > 0n ? fundBalance : 0n;
  const size = sizeMinor(instrument, position.sizeLots);
  const margin = position.margin.remaining;
  const book = instrument.book;
  if (closing === 'sell') {
    const floor = position.entryNotional - margin - fund;
    const exact = floor <= 0n ? 1n : ceilDiv(ceilDiv(floor * def.baseUnit, size), def.tickMinor);
    const ticks = Number(exact > BigInt(book.maxTick) ? BigInt(book.maxTick) : exact);
    const best = book.bestBid;
    return best === -1 ? ticks : Math.max(ticks, protectionPrice(instrument, 'sell', best));
  }
  const ceiling = position.entryNotional + margin + fund;
  const ticks = Number(floorDiv(floorDiv(ceiling * def.baseUnit, size), def.tickMinor));
  const best = book.bestAsk;
  const capped = Math.min(ticks, book.maxTick);
  return best === -1 ? capped : Math.min(capped, protectionPrice(instrument, 'buy', best));
}

/**
 * Liquidates a position whose equity at the mark is at or below its maintenance margin: an IOC order
 * closes it in the book no worse than the insurance fund can pay for; what the book cannot take is closed
 * against the most profitable, most leveraged opposite positions at the bankruptcy price (auto-deleveraging,
 * each with an event). The customer loses the position's margin and no more: what is left of it goes to
 * the insurance fund, a loss beyond it was paid by the fund.
 */
export function liquidate(state: EngineState, command: Liquidate): ApplyResult {
  if (!isValidUserId(command.userId)) return rejected('invalid_user');
  const found = perpetualFor(state, command.instrumentId);
  if (!found.ok) return rejected(found.code);
  const { instrument, perpetual } = found;
  const position = positionOf(state, perpetual, command.userId);
  if (position === undefined) return rejected('position_not_found');
  if (!isLiquidatable(instrument, position)) return rejected('not_liquidatable');
  const { timeMs } = command;
  const ledger = state.ledger;
  const fund = ledger.platform('insurance_fund', instrument.def.quote);
  const fundBefore = fund.balance;
  const user = userOf(state, command.userId);
  const startLots = position.sizeLots;
  const marginLost = position.margin.remaining;
  const bankrupt = bankruptcyTicks(instrument, position);
  const markTicks = instrument.markTicks as number;
  const closing = startLots > 0 ? 'sell' : 'buy';
  // The customer's other orders on the contract go first, as exchanges do: a resting one would meet the
  // liquidation's own order (self-trade prevention would stop it), and the position they reduce or add to
  // is taken over; their margin and fee holds return to the available balance.
  cancelOrdersOn(state, instrument, user, 'liquidation', timeMs);
  // The liquidation's fills keep the released margin held; it is settled below.
  const wasLiquidating = state.liquidating;
  state.liquidating = position;
  let bookLots = 0;
  try {
    if (!instrument.halted) {
      const limit = worstTicks(state, instrument, position, closing);
      bookLots = executeLiquidationOrder(state, instrument, user, closing, limit, Math.abs(startLots), timeMs);
    }
  } finally {
    state.liquidating = wasLiquidating;
  }
  let adlLots = 0;
  const link = `perp:liquidation:${command.id}`;
  if (position.sizeLots !== 0) {
    // What the book left closes at the bankruptcy price of the rest, with the margin the rest has left.
    const adlTicks = bankruptcyTicks(instrument, position);
    // Ranked by profit ratio × effective leverage at the mark (adl-ranking.ts); the steps below change the
    // ranked positions, which are ranked again on the next use, not while this loop reads the list.
    for (const { position: counter } of perpetual.adl.queue(
      instrument,
      perpetual.positions,
      sideOf(-position.sizeLots),
    )) {
      if (position.sizeLots === 0) break;
      const lots = Math.min(Math.abs(position.sizeLots), Math.abs(counter.sizeLots));
      const counterUser = state.userList[counter.userIndex] as UserState;
      const direction = sideOf(position.sizeLots);
      // Each step its own link, so its transfer ids (link:pnl:user) are unique.
      const step = `${link}:adl:${counterUser.id}`;
      const counterLots = counter.sizeLots;
      const counterPnl = counter.realisedPnl;
      changePosition(state, perpetual, user, -direction * lots, adlTicks, null, step, 'liquidation', timeMs, true);
      changePosition(state, perpetual, counterUser, direction * lots, adlTicks, null, step, 'adl', timeMs);
      adlLots += lots;
      state.log.push({
        type: 'auto_deleveraged',
        instrumentId: instrument.def.id,
        userId: counterUser.id,
        liquidatedUserId: user.id,
        sizeLots: counterLots,
        lots,
        priceTicks: adlTicks,
        pnl: counter.realisedPnl - counterPnl,
        reason: 'insurance_fund_short',
        timeMs,
      });
    }
  }
  if (position.sizeLots !== 0)
    throw new Error(`liquidation of ${user.id}: no opposite position for ${position.sizeLots}`);
  const left = position.margin.remaining;
  if (left > 0n) {
    state.log.push(ledger.postFromHold(position.margin, fund, left, `${link}:margin`, 'liquidation', link, timeMs));
  }
  ledger.close(position.margin);
  perpetual.positions.delete(position.userIndex);
  logPosition(state, perpetual, position, 'liquidation', timeMs);
  state.log.push({
    type: 'position_liquidated',
    instrumentId: instrument.def.id,
    userId: user.id,
    sizeLots: startLots,
    marginLost,
    markTicks,
    bankruptcyTicks: bankrupt,
    bookLots,
    adlLots,
    insuranceFund: fund.balance - fundBefore,
    timeMs,
  });
  // The closing order's trades moved the last price: triggers on it fire now, as after any trade.
  fireTriggers(state, instrument, timeMs);
  return WRITTEN;
}

/**
 * One funding interval at the mark: holders on the paying side (longs for a positive rate) pay
 * notional × |rate| (rounded down, capped at their margin) from their margin into platform:funding; the
 * total is shared among the other side by size (rounded down, the few units left one each in position
 * order), into their margin. The pool ends where it began: the platform takes nothing.
 */
export function applyFunding(state: EngineState, command: ApplyFunding): ApplyResult {
  const found = perpetualFor(state, command.instrumentId);
  if (!found.ok) return rejected(found.code);
  const { instrument, perpetual } = found;
  if (!isIntIn(Math.abs(command.ratePpm), 0, 100_000) || !Number.isSafeInteger(command.ratePpm)) {
    return rejected('invalid_command');
  }
  const mark = instrument.markTicks;
  if (mark === null) return rejected('no_liquidity');
  const { timeMs } = command;
  const ledger = state.ledger;
  const pool = ledger.platform('funding', instrument.def.quote);
  const link = `perp:funding:${command.id}`;
  const payerSide = command.ratePpm > 0 ? 1 : -1;
  const rate = BigInt(Math.abs(command.ratePpm));
  const positions = [...perpetual.positions.values()];
  let paid = 0n;
  if (rate > 0n) {
    for (const position of positions) {
      if (sideOf(position.sizeLots) !== payerSide) continue;
      // Notional rounded down for either side here: a payment, rounded in the payer's favour.
      const notional = tradeNotional(instrument.def, mark, Math.abs(position.sizeLots));
      const owed = (notional * rate) / PPM;
      const margin = position.margin.remaining;
      const amount = owed < margin ? owed : margin;
      if (amount <= 0n) continue;
      state.log.push(
        ledger.postFromHold(position.margin, pool, amount, `${link}:${position.userId}`, 'funding', link, timeMs),
      );
      paid += amount;
      logPosition(state, perpetual, position, 'funding', timeMs);
    }
    const receivers = positions.filter((p) => sideOf(p.sizeLots) !== payerSide);
    const totalLots = BigInt(receivers.reduce((sum, p) => sum + Math.abs(p.sizeLots), 0));
    if (paid > 0n && totalLots > 0n) {
      const shares = receivers.map((p) => (paid * BigInt(Math.abs(p.sizeLots))) / totalLots);
      let dust = paid - shares.reduce((a, b) => a + b, 0n);
      for (let i = 0; i < shares.length && dust > 0n; i++, dust--) shares[i] = (shares[i] as bigint) + 1n;
      receivers.forEach((position, i) => {
        const share = shares[i] as bigint;
        if (share <= 0n) return;
        const account = position.margin.account;
        state.log.push(ledger.move(pool, account, share, `${link}:${position.userId}`, 'funding', link, timeMs));
        addMargin(state, position, share, timeMs);
        logPosition(state, perpetual, position, 'funding', timeMs);
      });
    } else if (paid > 0n) {
      throw new Error(`funding on ${instrument.def.id}: payers without receivers`);
    }
  }
  state.log.push({
    type: 'funding_applied',
    instrumentId: instrument.def.id,
    ratePpm: command.ratePpm,
    markTicks: mark,
    paid,
    timeMs,
  });
  return WRITTEN;
}

/** The family (families.ts): set_leverage `~L`, adjust_margin `~G`, liquidate `~Q`, apply_funding `~Y`. */
export const POSITIONS_FAMILY = defineFamily<
  PositionsCommand,
  | 'invalid_leverage'
  | 'leverage_funds'
  | 'leverage_open_orders'
  | 'insufficient_margin'
  | 'not_liquidatable'
  | 'position_not_found'
>({
  name: 'positions',
  commands: {
    set_leverage: { code: 'L', keys: ['userId', 'instrumentId', 'leverage'], apply: setLeverage },
    adjust_margin: { code: 'G', keys: ['userId', 'instrumentId', 'amount'], apply: adjustMargin },
    liquidate: { code: 'Q', keys: ['userId', 'instrumentId'], apply: liquidate },
    apply_funding: { code: 'Y', keys: ['instrumentId', 'ratePpm'], apply: applyFunding },
  },
  keys: { leverage: ['j', NUM], ratePpm: ['E', NUM] },
  rejections: [
    'invalid_leverage',
    'leverage_funds',
    'leverage_open_orders',
    'insufficient_margin',
    'not_liquidatable',
    'position_not_found',
  ],
  section: {
    key: 'positions',
    save: (state) => savePositions(state),
    restore: (state, saved) => restorePositions(state, saved as PositionsSnapshot | undefined),
  },
});

/**
 * What a host or test reads of a position: its figures and, for the screens and the risk loop, its
 * liquidation and bankruptcy prices (collateral minor units per whole base unit; null is "--") and, at
 * the mark (null without one), its unrealised PnL and maintenance margin.
 */
export type PositionView = {
  userId: string;
  sizeLots: number;
  entryNotional: bigint;
  margin: bigint;
  realisedPnl: bigint;
  leverage: number;
  liquidationPrice: bigint | null;
  bankruptcyPrice: bigint | null;
  unrealisedPnl: bigint | null;
  maintenanceMargin: bigint | null;
};

export function positionsOf(state: EngineState, instrumentId: string): PositionView[] {
  const instrument = state.instruments.get(instrumentId);
  if (instrument === undefined || instrument.def.perpetual === null) return [];
  const perpetual = perpetualOf(state, instrument);
  return [...perpetual.positions.values()].map((p) => viewOf(instrument, perpetual, p));
}

/** One customer's open position on a perpetual, or undefined (without building every other one's view). */
export function positionFor(state: EngineState, instrumentId: string, userId: string): PositionView | undefined {
  const instrument = state.instruments.get(instrumentId);
  const perpetual = instrument === undefined ? undefined : state.perpetuals.get(instrument.index);
  const position = perpetual === undefined ? undefined : positionOf(state, perpetual, userId);
  return position === undefined
    ? undefined
    : viewOf(instrument as InstrumentState, perpetual as PerpetualState, position);
}

/** How many open positions a perpetual has (0 for another kind). */
export function positionCount(state: EngineState, instrumentId: string): number {
  const instrument = state.instruments.get(instrumentId);
  return instrument === undefined ? 0 : (state.perpetuals.get(instrument.index)?.positions.size ?? 0);
}

function viewOf(instrument: InstrumentState, perpetual: PerpetualState, p: Position): PositionView {
  const tiers = termsOf(instrument).tiers;
  const mark = instrument.markTicks;
  const markNotional = mark === null ? null : notionalAt(instrument, p, mark);
  return {
    userId: p.userId,
    sizeLots: p.sizeLots,
    entryNotional: p.entryNotional,
    margin: p.margin.remaining,
    realisedPnl: p.realisedPnl,
    leverage: leverageOf(perpetual, p.userIndex),
    liquidationPrice: liquidationPrice(tiers, figures(instrument, p), instrument.def.baseUnit),
    bankruptcyPrice: bankruptcyPrice(figures(instrument, p), instrument.def.baseUnit),
    unrealisedPnl: markNotional === null ? null : unrealisedPnl(sideOf(p.sizeLots), p.entryNotional, markNotional),
    maintenanceMargin: markNotional === null ? null : maintenanceMargin(tiers, markNotional),
  };
}

/** A hold is a position's margin (its id's form). */
export function isMarginHold(hold: Hold): boolean {
  return hold.kind === 'margin';
}

export function leverageFor(state: EngineState, userId: string, instrumentId: string): number | undefined {
  const instrument = state.instruments.get(instrumentId);
  if (instrument === undefined || instrument.def.perpetual === null) return undefined;
  const perpetual = perpetualOf(state, instrument);
  const user = findUser(state, userId);
  return user === undefined ? termsOf(instrument).defaultLeverage : leverageOf(perpetual, user.index);
}

/**
 * The first broken perpetual invariant: per collateral, platform:clearing's balance equals −Σ open
 * positions' signed entry notional (every realised PnL went through it); Σ sizes is zero per perpetual;
 * each position's margin hold is the live ledger hold of its id.
 */
export function findBrokenPosition(state: EngineState): string | undefined {
  const signedEntry = new Map<string, bigint>();
  for (const perpetual of state.perpetuals.values()) {
    const def = perpetual.instrument.def;
    let net = 0;
    let entry = signedEntry.get(def.quote.code) ?? 0n;
    for (const position of perpetual.positions.values()) {
      if (position.sizeLots === 0) return `${def.id}: ${position.userId} has an empty position`;
      net += position.sizeLots;
      entry += position.sizeLots > 0 ? position.entryNotional : -position.entryNotional;
      if (state.ledger.holds.get(position.margin.id) !== position.margin) {
        return `${def.id}: ${position.userId}'s margin hold is not in the ledger`;
      }
    }
    if (net !== 0) return `${def.id}: positions net to ${net} lots, not zero`;
    signedEntry.set(def.quote.code, entry);
  }
  for (const [code, entry] of signedEntry) {
    const clearing = state.ledger.find('platform:clearing', 'platform', code)?.balance ?? 0n;
    if (clearing + entry !== 0n) return `platform:clearing ${code} is ${clearing}, open entries sum to ${entry}`;
  }
  return undefined;
}

/** The snapshot's `positions` section: open positions and set leverages, by instrument then opening order. */
export type PositionsSnapshot = {
  /** [instrument id, user id, size lots, entry notional, margin, realised PnL]. */
  open: [string, string, number, string, string, string][];
  /** [instrument id, user id, leverage], in the order they were first set. */
  leverage: [string, string, number][];
};

/** The section, or undefined when no perpetual has a position or a leverage (older hashes unchanged). */
export function savePositions(state: EngineState): PositionsSnapshot | undefined {
  const open: PositionsSnapshot['open'] = [];
  const leverage: PositionsSnapshot['leverage'] = [];
  for (const instrument of state.instrumentList) {
    const perpetual = state.perpetuals.get(instrument.index);
    if (perpetual === undefined) continue;
    for (const p of perpetual.positions.values()) {
      open.push([
        instrument.def.id,
        p.userId,
        p.sizeLots,
        p.entryNotional.toString(),
        p.margin.remaining.toString(),
        p.realisedPnl.toString(),
      ]);
    }
    for (const [userIndex, value] of perpetual.leverage) {
      leverage.push([instrument.def.id, (state.userList[userIndex] as UserState).id, value]);
    }
  }
  return open.length === 0 && leverage.length === 0 ? undefined : { open, leverage };
}

/** Restores the section (accounts and users are restored already; the margin holds are made here). */
export function restorePositions(state: EngineState, saved: PositionsSnapshot | undefined): void {
  if (saved === undefined) return;
  for (const [instrumentId, userId, value] of saved.leverage) {
    const instrument = state.instruments.get(instrumentId);
    const user = findUser(state, userId);
    if (instrument?.def.perpetual == null || user === undefined)
      throw new Error(`snapshot leverage of ${userId} is orphaned`);
    perpetualOf(state, instrument).leverage.set(user.index, value);
  }
  for (const [instrumentId, userId, sizeLots, entry, margin, realised] of saved.open) {
    const instrument = state.instruments.get(instrumentId);
    const user = findUser(state, userId);
    if (instrument?.def.perpetual == null || user === undefined)
      throw new Error(`snapshot position of ${userId} is orphaned`);
    const id = marginHoldId(instrumentId, userId);
    const account = contractAccount(state, instrument, userId);
    const hold = new Hold(id, 'margin', account, BigInt(margin), 'trade', id);
    state.ledger.restoreHold(hold);
    const perpetual = perpetualOf(state, instrument);
    perpetual.positions.set(user.index, {
      userIndex: user.index,
      userId,
      sizeLots,
      entryNotional: BigInt(entry),
      margin: hold,
      realisedPnl: BigInt(realised),
      opened: perpetual.nextOpened++,
    });
  }
}
