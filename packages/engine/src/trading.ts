// Owns the order life cycle: validation and risk checks, holds, matching, settlement of each fill,
// resting, cancel, amend, and stop/take-profit triggers.
// Must hold: a live order's hold covers everything it can still owe; a finished order holds nothing;
// an order's place in the queue is lost exactly when its price changes or its quantity grows.
// Must not: move money except through the ledger, or throw for anything a customer can cause.

import type { AmendOrder, CancelOrder, PlaceOrder, SetTradingStatus, TimeInForce, TriggerSpec } from './commands.ts';
import {
  type ApplyResult,
  type EngineState,
  type InstrumentState,
  isValidUserId,
  listOrder,
  newOrderRecord,
  type OrderRecord,
  openSettlementAccounts,
  pooledOrderHold,
  rejected,
  remainingLots,
  restInSlot,
  restingRecord,
  type UserState,
  unlistOrder,
  userOf,
  WRITTEN,
} from './engine-state.ts';
import type { OrderStatus, OrderUpdateReason } from './events.ts';
import { buyHoldFor, buyHoldForSafe, isIntIn, lotsToMinor, lotsToMinorSafe } from './instrument.ts';
import { type Account, available } from './ledger.ts';
import { BUY, FILL_STP_CANCEL, SELL, stpCode } from './order-book.ts';
import { hasPositionToReduce, perpetualHold, perpetualOrderRejection, reducibleLots } from './positions.ts';
import type { EngineRejection } from './rejections.ts';
import { settleFill } from './settlement.ts';
import { addTrigger, removeTrigger, takeFiredTrigger, wouldFireAt } from './triggers.ts';

function isTimeInForce(value: unknown): value is TimeInForce {
  return value === 'gtc' || value === 'ioc' || value === 'fok';
}

function reject(code: EngineRejection): ApplyResult {
  return rejected(code);
}

/** Whether `ticks` is outside the day's band (an instrument's state, or its MarketView). */
export function isOutsideBand(
  instrument: { bandLoTicks: number | null; bandHiTicks: number | null },
  ticks: number,
): boolean {
  return (
    (instrument.bandLoTicks !== null && ticks < instrument.bandLoTicks) ||
    (instrument.bandHiTicks !== null && ticks > instrument.bandHiTicks)
  );
}

/** The worst price a market order may trade at: `bps` beyond `fromTicks`, and never outside the band. */
export function protectionPrice(instrument: InstrumentState, side: 'buy' | 'sell', fromTicks: number): number {
  const bps = instrument.def.spec.marketProtectionBps;
  if (side === 'buy') {
    const limit = Math.floor((fromTicks * (10_000 + bps)) / 10_000);
    return Math.min(limit, instrument.bandHiTicks ?? instrument.book.maxTick, instrument.book.maxTick);
  }
  const limit = Math.ceil((fromTicks * (10_000 - bps)) / 10_000);
  return Math.max(limit, instrument.bandLoTicks ?? 1, 1);
}

/**
 * What an order holds: a buy, its notional plus `maxFeeBps` (the larger of the order's own fees); a sell,
 * its quantity; on a perpetual, either side, initial margin for what it may open plus the fee
 * (positions.ts: the per-kind hold, chosen by `def.perpetual`).
 */
function holdAmountFor(
  state: EngineState,
  userIndex: number,
  instrument: InstrumentState,
  side: 'buy' | 'sell',
  priceTicks: number,
  lots: number,
  maxFeeBps: number,
  reduceOnly = false,
): bigint {
  if (instrument.def.perpetual !== null) {
    return perpetualHold(state, instrument, userIndex, side, priceTicks, lots, maxFeeBps, reduceOnly);
  }
  return side === 'buy' ? buyHoldFor(instrument.def, priceTicks, lots, maxFeeBps) : lotsToMinor(instrument.def, lots);
}

/** holdAmountFor as a safe-integer number, or -1 (then use holdAmountFor; always for a perpetual). */
function holdAmountSafe(
  instrument: InstrumentState,
  side: 'buy' | 'sell',
  priceTicks: number,
  lots: number,
  maxFeeBps: number,
): number {
  if (instrument.def.perpetual !== null) return -1;
  return side === 'buy'
    ? buyHoldForSafe(instrument.def, priceTicks, lots, maxFeeBps)
    : lotsToMinorSafe(instrument.def, lots);
}

export function placeOrder(state: EngineState, command: PlaceOrder): ApplyResult {
  // The user by index only: what placing needs per user is in typed arrays (userNumbers). A known id was
  // checked when its user was made (every caller of userOf checks it, a snapshot's restore too), so only
  // an unknown one is checked here.
  const userIndex = state.userIndexes.get(command.userId);
  if (userIndex === -1 && !isValidUserId(command.userId)) return reject('invalid_user');
  const instrument = state.instruments.get(command.instrumentId);
  if (instrument === undefined) return reject('unknown_instrument');
  const { spec } = instrument.def;
  const { side, orderType } = command;
  if ((side !== 'buy' && side !== 'sell') || (orderType !== 'limit' && orderType !== 'market')) {
    return reject('invalid_command');
  }
  if (!isIntIn(command.qtyLots, 1, Number.MAX_SAFE_INTEGER)) return reject('invalid_quantity');
  if (command.qtyLots < spec.minQtyLots) return reject('quantity_below_minimum');
  if (command.qtyLots > spec.maxQtyLots) return reject('quantity_above_maximum');
  const timeInForce = command.timeInForce ?? (orderType === 'market' ? 'ioc' : 'gtc');
  if (!isTimeInForce(timeInForce) || (orderType === 'market' && timeInForce !== 'ioc')) {
    return reject('invalid_command');
  }
  if (command.postOnly !== undefined && typeof command.postOnly !== 'boolean') return reject('invalid_command');
  const postOnly = command.postOnly === true;
  const stpMode = command.stp ?? spec.defaultStp;
  if (stpMode !== 'cancel_resting' && stpMode !== 'cancel_taker' && stpMode !== 'cancel_both') {
    return reject('invalid_command');
  }
  const trigger = command.trigger ?? null;
  if (trigger !== null) {
    const code = checkTrigger(instrument, side, trigger);
    if (code !== undefined) return reject(code);
  }
  if (postOnly && (orderType !== 'limit' || timeInForce !== 'gtc' || trigger !== null))
    return reject('invalid_command');
  if (command.reduceOnly !== undefined && typeof command.reduceOnly !== 'boolean') return reject('invalid_command');
  const reduceOnly = command.reduceOnly === true;
  if (reduceOnly) {
    // Never rests (so it cannot outlive its position in the book); perpetuals only.
    if (instrument.def.perpetual === null || postOnly || timeInForce === 'gtc') return reject('invalid_command');
    if (!hasPositionToReduce(state, instrument, userIndex, side)) return reject('reduce_only_rejected');
  }
  // Halted: an order that would trade on arrival waits for the open instead (postOnly never trades).
  const queues = instrument.halted && !postOnly && trigger === null;
  if (queues && timeInForce === 'fok') return reject('instrument_halted');

  let priceTicks: number;
  if (orderType === 'limit') {
    if (!isIntIn(command.priceTicks, 1, instrument.book.maxTick)) return reject('invalid_price');
    priceTicks = command.priceTicks;
    if (isOutsideBand(instrument, priceTicks)) return reject('price_outside_band');
  } else {
    if (command.priceTicks !== undefined) return reject('invalid_command');
    const from = queues
      ? (instrument.referenceTicks ?? instrument.lastTradeTicks ?? -1)
      : (trigger?.priceTicks ?? (side === 'buy' ? instrument.book.bestAsk : instrument.book.bestBid));
    if (from === -1) return reject('no_liquidity');
    priceTicks = protectionPrice(instrument, side, from);
  }

  const mayWait = trigger !== null || timeInForce === 'gtc' || queues;
  const numbers = state.userNumbers;
  if (
    mayWait &&
    (userIndex === -1 ? 0 : (numbers.openOrders[userIndex] as number)) >= state.config.maxOpenOrdersPerUser
  ) {
    return reject('open_order_limit');
  }
  if (trigger !== null && instrument.triggerCount >= state.config.maxTriggerOrdersPerInstrument) {
    return reject('open_order_limit');
  }
  // The hold as a safe-integer number when it is one (almost always), so the balance check and the
  // hold work on the ledger's typed arrays; the event still carries it as a bigint.
  // The order captures the fees in force now (spec) and holds for the larger one.
  const maxFeeBps = instrument.def.maxFeeBps;
  if (instrument.def.perpetual !== null && !reduceOnly) {
    const code = perpetualOrderRejection(state, instrument, userIndex, side, priceTicks, command.qtyLots);
    if (code !== undefined) return reject(code);
  }
  const holdN = holdAmountSafe(instrument, side, priceTicks, command.qtyLots, maxFeeBps);
  // As a bigint only where the number cannot carry it (holdN is -1; else 0n, unused): the event makes
  // its own below, and a quiet replay none.
  const holdBig =
    holdN !== -1
      ? 0n
      : holdAmountFor(state, userIndex, instrument, side, priceTicks, command.qtyLots, maxFeeBps, reduceOnly);
  const ledger = state.ledger;
  // A perpetual holds its collateral (the quote) on either side.
  const holdsQuote = side === 'buy' || instrument.def.perpetual !== null;
  const debitAsset = holdsQuote ? instrument.def.quote : instrument.def.base;
  let debitIndex = -1;
  if (userIndex !== -1) {
    if (numbers.lastInstrument[userIndex] === instrument.index) {
      debitIndex = (holdsQuote ? numbers.lastQuote[userIndex] : numbers.lastBase[userIndex]) as number;
    } else {
      const user = state.userList[userIndex] as UserState;
      debitIndex = user.settlement[2 * instrument.index + (holdsQuote ? 1 : 0)] ?? -1;
    }
  }
  if (debitIndex === -1) debitIndex = ledger.find(command.userId, spec.wallet, debitAsset.code)?.index ?? -1;
  if (debitIndex === -1) return reject('insufficient_balance');
  if (
    holdN !== -1
      ? ledger.isAvailableBelowN(debitIndex, holdN)
      : (ledger.accounts[debitIndex] as Account).isAvailableBelow(holdBig)
  ) {
    return reject('insufficient_balance');
  }
  const sideCode = side === 'buy' ? BUY : SELL;
  const stp = stpCode(stpMode);
  if (trigger === null && !queues) {
    if (postOnly && instrument.book.crosses(sideCode, priceTicks)) return reject('post_only_would_take');
    if (
      timeInForce === 'fok' &&
      instrument.book.fillableQty(sideCode, priceTicks, command.qtyLots, userIndex === -1 ? -2 : userIndex, stp) <
        command.qtyLots
    ) {
      return reject('fok_not_fillable');
    }
  }

  const owner = userIndex !== -1 ? (state.userList[userIndex] as UserState) : userOf(state, command.userId);
  const ownerIndex = userIndex !== -1 ? userIndex : owner.index;
  if (state.userNumbers.lastInstrument[ownerIndex] !== instrument.index) {
    openSettlementAccounts(state, owner, instrument);
    state.userNumbers.lastInstrument[ownerIndex] = instrument.index;
    state.userNumbers.lastBase[ownerIndex] = owner.settlement[2 * instrument.index] as number;
    state.userNumbers.lastQuote[ownerIndex] = owner.settlement[2 * instrument.index + 1] as number;
  }
  const baseIndex = state.userNumbers.lastBase[ownerIndex] as number;
  const quoteIndex = state.userNumbers.lastQuote[ownerIndex] as number;
  const id = state.nextOrderId;
  const debit = ledger.accounts[debitIndex] as Account;
  const hold =
    holdN !== -1
      ? ledger.holdForOrderN(debit, debitIndex, holdN, pooledOrderHold(state))
      : ledger.holdForOrder(debit, holdBig);
  state.nextOrderId += 1;
  const order = newOrderRecord(
    state,
    id,
    command.id,
    command.userId,
    ownerIndex,
    instrument,
    side,
    sideCode,
    orderType,
    timeInForce,
    postOnly,
    stp,
    trigger === null ? null : { kind: trigger.kind, priceTicks: trigger.priceTicks, by: trigger.by },
    priceTicks,
    command.qtyLots,
    0,
    'pending',
    hold,
    baseIndex,
    quoteIndex,
    command.timeMs,
    spec.makerFeeBps,
    spec.takerFeeBps,
    queues,
    reduceOnly,
  );
  // userId is command.userId, equal to owner.id (the user was found or made under it), read without
  // reaching the user object. A quiet replay (state.quiet) writes no event.
  if (!state.quiet) {
    state.log.orderPlaced(
      id,
      command.id,
      command.userId,
      instrument.def.id,
      side,
      orderType,
      priceTicks,
      command.qtyLots,
      timeInForce,
      postOnly,
      queues,
      order.trigger,
      debitAsset.code,
      holdN !== -1 ? holdN : safeOrNaN(holdBig),
      holdBig,
      command.timeMs,
    );
  }
  if (queues) {
    listOrder(state, order);
    instrument.queued.push(order);
    owner.openOrders += 1;
    return WRITTEN;
  }
  if (order.trigger !== null) {
    listOrder(state, order);
    addTrigger(instrument, order);
    owner.openOrders += 1;
    return WRITTEN;
  }
  execute(state, order, command.timeMs);
  fireTriggers(state, instrument, command.timeMs);
  return WRITTEN;
}

/** A bigint as the result log stores an amount: the number when it is a safe integer, else NaN. */
function safeOrNaN(value: bigint): number {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : Number.NaN;
}

function addOpenOrders(state: EngineState, userIndex: number, delta: number): void {
  const open = state.userNumbers.openOrders;
  open[userIndex] = (open[userIndex] as number) + delta;
}

function checkTrigger(
  instrument: InstrumentState,
  side: 'buy' | 'sell',
  trigger: TriggerSpec,
): EngineRejection | undefined {
  if (typeof trigger !== 'object' || trigger === null) return 'invalid_command';
  if ((trigger.kind !== 'stop' && trigger.kind !== 'take_profit') || (trigger.by !== 'last' && trigger.by !== 'mark')) {
    return 'invalid_command';
  }
  if (!isIntIn(trigger.priceTicks, 1, instrument.book.maxTick)) return 'invalid_trigger_price';
  const current = trigger.by === 'last' ? instrument.lastTradeTicks : instrument.markTicks;
  return wouldFireAt(side, trigger, current) ? 'invalid_trigger_price' : undefined;
}

/** Matches the order as a taker, settles every fill, then rests or cancels what is left. */
function execute(state: EngineState, order: OrderRecord, timeMs: number): void {
  const instrument = order.instrument;
  if (order.reduceOnly) {
    // Cut to what the position has left now (it may have shrunk since placement), or nothing to do.
    const closable = reducibleLots(state, instrument, order.userIndex, order.side);
    if (closable === 0) {
      finish(state, order, 'cancelled', 'reduce_only', false, timeMs);
      return;
    }
    if (remainingLots(order) > closable) order.qtyLots = order.filledLots + closable;
  }
  const book = instrument.book;
  const left = book.match(order.sideCode, order.priceTicks, remainingLots(order), order.userIndex, order.stp);
  for (let i = 0; i < book.fillCount; i++) {
    const maker = restingRecord(instrument, book.fillMakerSlot[i] as number, book.fillMakerId[i] as number);
    if (book.fillKind[i] === FILL_STP_CANCEL) {
      finish(state, maker, 'cancelled', 'self_trade_prevented', true, timeMs);
      continue;
    }
    const ticks = book.fillTick[i] as number;
    const lots = book.fillQty[i] as number;
    settleFill(state, instrument, order, maker, ticks, lots, timeMs);
    maker.filledLots += lots;
    order.filledLots += lots;
    instrument.lastTradeTicks = ticks;
    if (book.fillMakerLeft[i] === 0) finish(state, maker, 'filled', 'fill', true, timeMs);
    else {
      maker.status = 'partial';
      if (!state.quiet) state.log.orderUpdated(maker, 'fill', timeMs);
    }
  }
  if (left === 0) finish(state, order, 'filled', 'fill', false, timeMs);
  else if (book.takerStopped) finish(state, order, 'cancelled', 'self_trade_prevented', false, timeMs);
  else if (order.orderType === 'market') finish(state, order, 'cancelled', 'market_protection', false, timeMs);
  else if (order.timeInForce !== 'gtc') {
    const reason = order.timeInForce === 'fok' ? 'fok_not_fillable' : 'unfilled_ioc';
    finish(state, order, 'cancelled', reason, false, timeMs);
  } else {
    restInSlot(instrument, book.rest(order.id, order.sideCode, order.priceTicks, left, order.userIndex), order);
    // A taker enters `orders` only when it rests (a trigger order: when it starts waiting).
    listOrder(state, order);
    addOpenOrders(state, order.userIndex, 1);
    if (order.filledLots > 0) {
      order.status = 'partial';
      if (!state.quiet) state.log.orderUpdated(order, 'fill', timeMs);
    }
  }
}

/** Fires waiting triggers one at a time until none is reached; each fill may move the last price. */
export function fireTriggers(state: EngineState, instrument: InstrumentState, timeMs: number): void {
  if (instrument.halted) return;
  for (;;) {
    const order = takeFiredTrigger(instrument);
    if (order === undefined) return;
    addOpenOrders(state, order.userIndex, -1);
    state.log.orderUpdated(order, 'triggered', timeMs);
    if (order.orderType === 'limit' && isOutsideBand(instrument, order.priceTicks)) {
      finish(state, order, 'rejected', 'price_outside_band', false, timeMs);
      continue;
    }
    const lots = remainingLots(order);
    if (
      order.timeInForce === 'fok' &&
      instrument.book.fillableQty(order.sideCode, order.priceTicks, lots, order.userIndex, order.stp) < lots
    ) {
      finish(state, order, 'cancelled', 'fok_not_fillable', false, timeMs);
      continue;
    }
    execute(state, order, timeMs);
  }
}

function finish(
  state: EngineState,
  order: OrderRecord,
  status: OrderStatus,
  reason: OrderUpdateReason,
  wasOpen: boolean,
  timeMs: number,
): void {
  order.status = status;
  state.ledger.close(order.hold);
  unlistOrder(state, order);
  // Reusable once this command is done (nothing refers to a finished order after it).
  state.finishedOrders.add(order);
  if (wasOpen) addOpenOrders(state, order.userIndex, -1);
  if (!state.quiet) state.log.orderUpdated(order, reason, timeMs);
}

function ownedOrder(state: EngineState, userId: string, orderId: number): OrderRecord | undefined {
  const order = state.orders.get(orderId);
  return order !== undefined && order.userId === userId ? order : undefined;
}

export function cancelOrder(state: EngineState, command: CancelOrder): ApplyResult {
  const order = ownedOrder(state, command.userId, command.orderId);
  if (order === undefined) return reject('order_not_found');
  cancelLive(state, order, 'cancelled_by_user', command.timeMs);
  return WRITTEN;
}

/** Takes a live order off the book, its trigger list or the halt queue, and releases its hold. */
function cancelLive(state: EngineState, order: OrderRecord, reason: OrderUpdateReason, timeMs: number): void {
  const instrument = order.instrument;
  const waiting = order.trigger !== null ? removeTrigger : removeQueued;
  if (instrument.book.cancel(order.id) < 0 && !waiting(instrument, order)) {
    throw new Error(`order ${order.id} is live but neither resting nor waiting`);
  }
  finish(state, order, 'cancelled', reason, true, timeMs);
}

/**
 * Cancels every live order of `user` on the instrument, oldest first (a liquidation's: orders that would
 * reopen or reduce the position it takes over, and whose holds it frees).
 */
export function cancelOrdersOn(
  state: EngineState,
  instrument: InstrumentState,
  user: UserState,
  reason: OrderUpdateReason,
  timeMs: number,
): void {
  if (user.openOrders === 0) return;
  const orders = state.orders.matching((o) => o.instrument === instrument && o.userIndex === user.index);
  orders.sort((a, b) => a.id - b.id);
  for (const order of orders) cancelLive(state, order, reason, timeMs);
}

export function amendOrder(state: EngineState, command: AmendOrder): ApplyResult {
  const order = ownedOrder(state, command.userId, command.orderId);
  if (order === undefined) return reject('order_not_found');
  const instrument = order.instrument;
  const book = instrument.book;
  if (!book.has(order.id)) return reject('order_not_amendable');
  if (command.priceTicks !== undefined && !isIntIn(command.priceTicks, 1, book.maxTick)) return reject('invalid_price');
  if (command.qtyLots !== undefined && !isIntIn(command.qtyLots, 1, Number.MAX_SAFE_INTEGER)) {
    return reject('invalid_quantity');
  }
  const priceTicks = command.priceTicks ?? order.priceTicks;
  const qtyLots = command.qtyLots ?? order.qtyLots;
  if (priceTicks === order.priceTicks && qtyLots === order.qtyLots) return reject('amend_no_change');
  if (qtyLots <= order.filledLots) return reject('invalid_quantity');
  if (qtyLots < instrument.def.spec.minQtyLots) return reject('quantity_below_minimum');
  if (qtyLots > instrument.def.spec.maxQtyLots) return reject('quantity_above_maximum');
  if (priceTicks !== order.priceTicks && isOutsideBand(instrument, priceTicks)) return reject('price_outside_band');
  const remaining = qtyLots - order.filledLots;
  // The order keeps the fees it captured when placed, whatever the instrument charges now.
  const required = holdAmountFor(
    state,
    order.userIndex,
    instrument,
    order.side,
    priceTicks,
    remaining,
    Math.max(order.makerFeeBps, order.takerFeeBps),
  );
  if (priceTicks === order.priceTicks && qtyLots < order.qtyLots) {
    book.reduce(order.id, remaining);
    order.qtyLots = qtyLots;
    if (order.hold.remaining > required) state.ledger.release(order.hold, order.hold.remaining - required);
    state.log.orderUpdated(order, 'amended', command.timeMs);
    return WRITTEN;
  }

  if (order.postOnly && book.crosses(order.sideCode, priceTicks)) return reject('post_only_would_take');
  // Nothing trades while halted: an amend that would meet the other side waits for the open instead.
  if (instrument.halted && book.crosses(order.sideCode, priceTicks)) return reject('instrument_halted');
  if (required - order.hold.remaining > available(order.hold.account)) return reject('insufficient_balance');
  book.cancel(order.id);
  addOpenOrders(state, order.userIndex, -1);
  if (!state.ledger.resize(order.hold, required)) throw new Error(`order ${order.id}: hold resize failed after check`);
  order.priceTicks = priceTicks;
  order.qtyLots = qtyLots;
  state.log.orderUpdated(order, 'amended', command.timeMs);
  execute(state, order, command.timeMs);
  fireTriggers(state, instrument, command.timeMs);
  return WRITTEN;
}

/**
 * A liquidation's closing order (positions.ts): an IOC limit order of the user's that holds nothing and
 * pays no fee (it only reduces the position; the engine, not the customer, sends it), matched now.
 * Answers the lots it filled.
 */
export function executeLiquidationOrder(
  state: EngineState,
  instrument: InstrumentState,
  user: UserState,
  side: 'buy' | 'sell',
  limitTicks: number,
  lots: number,
  timeMs: number,
): number {
  openSettlementAccounts(state, user, instrument);
  const quoteIndex = user.settlement[2 * instrument.index + 1] as number;
  const baseIndex = user.settlement[2 * instrument.index] as number;
  const account = state.ledger.accounts[quoteIndex] as Account;
  const id = state.nextOrderId;
  state.nextOrderId += 1;
  const order = newOrderRecord(
    state,
    id,
    `liquidation:${id}`,
    user.id,
    user.index,
    instrument,
    side,
    side === 'buy' ? BUY : SELL,
    'limit',
    'ioc',
    false,
    stpCode('cancel_taker'),
    null,
    limitTicks,
    lots,
    0,
    'pending',
    state.ledger.holdForOrder(account, 0n),
    baseIndex,
    quoteIndex,
    timeMs,
    0,
    0,
    false,
  );
  state.log.push({
    type: 'order_placed',
    orderId: id,
    commandId: order.commandId,
    userId: user.id,
    instrumentId: instrument.def.id,
    side,
    orderType: 'limit',
    priceTicks: limitTicks,
    qtyLots: lots,
    timeInForce: 'ioc',
    postOnly: false,
    trigger: null,
    status: 'pending',
    holdAsset: instrument.def.quote.code,
    holdAmount: 0n,
    timeMs,
  });
  execute(state, order, timeMs);
  return order.filledLots;
}

function removeQueued(instrument: InstrumentState, order: OrderRecord): boolean {
  const at = instrument.queued.indexOf(order);
  if (at < 0) return false;
  instrument.queued.splice(at, 1);
  return true;
}

/**
 * Halts or resumes trading. Resuming sends the queued orders into the book in arrival order: a limit
 * order outside the day's band is rejected; a market order trades no further than the protection
 * price from the best opposite quote now, and never beyond the price its funds were held for.
 */
export function setTradingStatus(state: EngineState, command: SetTradingStatus): ApplyResult {
  const instrument = state.instruments.get(command.instrumentId);
  if (instrument === undefined) return reject('unknown_instrument');
  if (typeof command.halted !== 'boolean') return reject('invalid_command');
  const timeMs = command.timeMs;
  state.log.push({ type: 'trading_status_set', instrumentId: instrument.def.id, halted: command.halted, timeMs });
  const resumes = instrument.halted && !command.halted;
  instrument.halted = command.halted;
  if (!resumes) return WRITTEN;
  for (const order of instrument.queued.splice(0)) {
    addOpenOrders(state, order.userIndex, -1);
    if (order.orderType === 'limit' && isOutsideBand(instrument, order.priceTicks)) {
      finish(state, order, 'rejected', 'price_outside_band', false, timeMs);
      continue;
    }
    if (order.orderType === 'market') {
      const from = order.side === 'buy' ? instrument.book.bestAsk : instrument.book.bestBid;
      if (from === -1) {
        finish(state, order, 'cancelled', 'no_liquidity', false, timeMs);
        continue;
      }
      const now = protectionPrice(instrument, order.side, from);
      order.priceTicks = order.side === 'buy' ? Math.min(order.priceTicks, now) : Math.max(order.priceTicks, now);
    }
    execute(state, order, timeMs);
  }
  fireTriggers(state, instrument, timeMs);
  return WRITTEN;
}
