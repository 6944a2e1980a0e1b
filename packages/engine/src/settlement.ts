// Owns turning one fill into money: the buyer's quote and the seller's base change hands, and both
// fees go to the platform fee account, as one step of ledger transfers taken from the orders' holds.
// Must hold: the buyer's hold covers notional + fee of every fill (see buyHoldFor); each order pays the
// fee it captured when placed (taker fee for the taker, maker fee for the maker); nothing is created;
// on a lockBoughtUntilSettled instrument the bought quantity is held in the same step.
// Must not: decide what trades; matching did that.

import { FILL_BUYER_FEE, FILL_SELLER_FEE } from './command-memory.ts';
import type { EngineState, InstrumentState, OrderRecord } from './engine-state.ts';
import type { EngineEvent, Trade } from './events.ts';
import { feeOf, feeOfSafe, lotsToMinor, lotsToMinorSafe, tradeNotional, tradeNotionalSafe } from './instrument.ts';
import type { Account } from './ledger.ts';
import { lockBought } from './settlement-locks.ts';

export function settleFill(
  state: EngineState,
  instrument: InstrumentState,
  taker: OrderRecord,
  maker: OrderRecord,
  priceTicks: number,
  qtyLots: number,
  events: EngineEvent[],
  timeMs: number,
): void {
  const def = instrument.def;
  const qtyFast = lotsToMinorSafe(def, qtyLots);
  const fast = tradeNotionalSafe(def, priceTicks, qtyLots);
  // Each order pays the fee it captured when placed (the instrument's fees may have changed since).
  const takerFast = fast === -1 ? -1 : feeOfSafe(fast, taker.takerFeeBps);
  const makerFast = fast === -1 ? -1 : feeOfSafe(fast, maker.makerFeeBps);
  if (qtyFast !== -1 && takerFast !== -1 && makerFast !== -1) {
    settleFillSafe(
      state,
      instrument,
      taker,
      maker,
      priceTicks,
      qtyLots,
      qtyFast,
      fast,
      takerFast,
      makerFast,
      events,
      timeMs,
    );
    return;
  }
  const buyer = taker.side === 'buy' ? taker : maker;
  const seller = buyer === taker ? maker : taker;
  const qtyMinor = lotsToMinor(def, qtyLots);
  const notional = tradeNotional(def, priceTicks, qtyLots);
  const takerFee = feeOf(notional, taker.takerFeeBps);
  const makerFee = feeOf(notional, maker.makerFeeBps);
  const buyerFee = buyer === taker ? takerFee : makerFee;
  const sellerFee = buyer === taker ? makerFee : takerFee;
  const tradeId = state.nextTradeId;
  state.nextTradeId += 1;
  const link = `trade:${tradeId}`;
  const trade = tradeEvent(def.id, tradeId, priceTicks, qtyLots, taker, maker, notional, makerFee, takerFee, timeMs);
  const ledger = state.ledger;
  // Marked like settleFillSafe's fills whenever the four amounts are safe integers (the fast path can
  // miss them when an intermediate product passes 2^53), so how the window stores a result depends on
  // its values only (a snapshot in format 1 restores to the same form: CommandMemory.addDecoded).
  const notionalN = Number(notional);
  const makerFeeN = Number(makerFee);
  const takerFeeN = Number(takerFee);
  const qtyN = Number(qtyMinor);
  if (
    Number.isSafeInteger(notionalN) &&
    Number.isSafeInteger(makerFeeN) &&
    Number.isSafeInteger(takerFeeN) &&
    Number.isSafeInteger(qtyN)
  ) {
    const flags = (buyerFee > 0n ? FILL_BUYER_FEE : 0) | (sellerFee > 0n ? FILL_SELLER_FEE : 0);
    state.memory.markFill(events.length, flags, notionalN, makerFeeN, takerFeeN, qtyN);
  }
  const sellerQuote = ledger.accounts[seller.quoteIndex] as Account;
  const buyerBase = ledger.accounts[buyer.baseIndex] as Account;
  events.push(
    trade,
    ledger.postFromHold(buyer.hold, sellerQuote, notional, `${link}:quote`, 'trade', link, timeMs),
    ledger.postFromHold(seller.hold, buyerBase, qtyMinor, `${link}:base`, 'trade', link, timeMs),
  );
  if (buyerFee > 0n) {
    events.push(
      ledger.postFromHold(buyer.hold, instrument.feeAccount, buyerFee, `${link}:buyer_fee`, 'fee', link, timeMs),
    );
  }
  if (sellerFee > 0n) {
    events.push(ledger.move(sellerQuote, instrument.feeAccount, sellerFee, `${link}:seller_fee`, 'fee', link, timeMs));
  }
  if (def.locksBought) {
    lockBought(state, instrument, buyer, tradeId, qtyLots, qtyMinor, events, timeMs);
  }
}

/**
 * settleFill when the quantity, notional and both fees are safe integers (almost always): the same
 * events, with the ledger updated through its number path (bigints are made for the events only).
 */
function settleFillSafe(
  state: EngineState,
  instrument: InstrumentState,
  taker: OrderRecord,
  maker: OrderRecord,
  priceTicks: number,
  qtyLots: number,
  qtyFast: number,
  notionalFast: number,
  takerFast: number,
  makerFast: number,
  events: EngineEvent[],
  timeMs: number,
): void {
  const def = instrument.def;
  const takerBuys = taker.side === 'buy';
  const buyer = takerBuys ? taker : maker;
  const seller = takerBuys ? maker : taker;
  const tradeId = state.nextTradeId;
  state.nextTradeId += 1;
  const ledger = state.ledger;
  const feeIndex = instrument.feeAccount.index;
  const buyerFast = takerBuys ? takerFast : makerFast;
  const sellerFast = takerBuys ? makerFast : takerFast;
  if (state.quiet) {
    // A replayed command whose result is not read: the same ledger steps in the same order, no events.
    ledger.postFromHoldQuietN(buyer.hold, seller.quoteIndex, notionalFast, 'fill quote');
    ledger.postFromHoldQuietN(seller.hold, buyer.baseIndex, qtyFast, 'fill base');
    if (buyerFast > 0) ledger.postFromHoldQuietN(buyer.hold, feeIndex, buyerFast, 'fill buyer fee');
    if (sellerFast > 0) ledger.moveQuietN(seller.quoteIndex, feeIndex, sellerFast, 'fill seller fee');
    if (def.locksBought) {
      lockBought(state, instrument, buyer, tradeId, qtyLots, BigInt(qtyFast), events, timeMs);
    }
    return;
  }
  const qtyMinor = BigInt(qtyFast);
  const notional = BigInt(notionalFast);
  const takerFee = takerFast === 0 ? 0n : BigInt(takerFast);
  const makerFee = makerFast === 0 ? 0n : BigInt(makerFast);
  const link = `trade:${tradeId}`;
  // The idempotency window stores this trade and its transfers as one record (see markFill).
  state.memory.markFill(
    events.length,
    (buyerFast > 0 ? FILL_BUYER_FEE : 0) | (sellerFast > 0 ? FILL_SELLER_FEE : 0),
    notionalFast,
    makerFast,
    takerFast,
    qtyFast,
  );
  events.push(
    tradeEvent(def.id, tradeId, priceTicks, qtyLots, taker, maker, notional, makerFee, takerFee, timeMs),
    ledger.postFromHoldN(buyer.hold, seller.quoteIndex, notionalFast, notional, `${link}:quote`, 'trade', link, timeMs),
    ledger.postFromHoldN(seller.hold, buyer.baseIndex, qtyFast, qtyMinor, `${link}:base`, 'trade', link, timeMs),
  );
  if (buyerFast > 0) {
    const fee = takerBuys ? takerFee : makerFee;
    events.push(ledger.postFromHoldN(buyer.hold, feeIndex, buyerFast, fee, `${link}:buyer_fee`, 'fee', link, timeMs));
  }
  if (sellerFast > 0) {
    const fee = takerBuys ? makerFee : takerFee;
    events.push(ledger.moveN(seller.quoteIndex, feeIndex, sellerFast, fee, `${link}:seller_fee`, 'fee', link, timeMs));
  }
  if (def.locksBought) {
    lockBought(state, instrument, buyer, tradeId, qtyLots, qtyMinor, events, timeMs);
  }
}

function tradeEvent(
  instrumentId: string,
  tradeId: number,
  priceTicks: number,
  qtyLots: number,
  taker: OrderRecord,
  maker: OrderRecord,
  notional: bigint,
  makerFee: bigint,
  takerFee: bigint,
  timeMs: number,
): Trade {
  return {
    type: 'trade',
    tradeId,
    instrumentId,
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
  };
}
