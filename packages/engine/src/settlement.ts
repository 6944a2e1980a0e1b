// Owns turning one fill into money: the buyer's quote and the seller's base change hands, and both
// fees go to the platform fee account, as one step of ledger transfers taken from the orders' holds.
// Must hold: the buyer's hold covers notional + fee of every fill (see buyHoldFor); each order pays the
// fee it captured when placed (taker fee for the taker, maker fee for the maker); nothing is created;
// on a lockBoughtUntilSettled instrument the bought quantity is held in the same step.
// Must not: decide what trades; matching did that.

import type { EngineState, InstrumentState, OrderRecord } from './engine-state.ts';
import { feeOf, feeOfSafe, lotsToMinor, lotsToMinorSafe, tradeNotional, tradeNotionalSafe } from './instrument.ts';
import type { Account } from './ledger.ts';
import { settlePerpetualFill } from './positions.ts';
import { lockBought } from './settlement-locks.ts';

export function settleFill(
  state: EngineState,
  instrument: InstrumentState,
  taker: OrderRecord,
  maker: OrderRecord,
  priceTicks: number,
  qtyLots: number,
  timeMs: number,
): void {
  const def = instrument.def;
  // The per-kind settle: a perpetual's fill changes positions and margin (positions.ts).
  if (def.perpetual !== null) {
    settlePerpetualFill(state, instrument, taker, maker, priceTicks, qtyLots, timeMs);
    return;
  }
  const qtyFast = lotsToMinorSafe(def, qtyLots);
  const fast = tradeNotionalSafe(def, priceTicks, qtyLots);
  // Each order pays the fee it captured when placed (the instrument's fees may have changed since).
  const takerFast = fast === -1 ? -1 : feeOfSafe(fast, taker.takerFeeBps);
  const makerFast = fast === -1 ? -1 : feeOfSafe(fast, maker.makerFeeBps);
  if (qtyFast !== -1 && takerFast !== -1 && makerFast !== -1) {
    settleFillSafe(state, instrument, taker, maker, priceTicks, qtyLots, qtyFast, fast, takerFast, makerFast, timeMs);
    return;
  }
  // The exact amounts in bigints: when they are safe integers after all (an intermediate product of
  // the fast arithmetic passed 2^53), the fill is settled and written as the fast path does it, so how a
  // result is stored depends on its values only (a format-1 snapshot restores to the same form:
  // CommandMemory.addDecoded).
  const qtyMinor = lotsToMinor(def, qtyLots);
  const notional = tradeNotional(def, priceTicks, qtyLots);
  const takerFee = feeOf(notional, taker.takerFeeBps);
  const makerFee = feeOf(notional, maker.makerFeeBps);
  const qtyN = Number(qtyMinor);
  const notionalN = Number(notional);
  const takerFeeN = Number(takerFee);
  const makerFeeN = Number(makerFee);
  if (
    Number.isSafeInteger(qtyN) &&
    Number.isSafeInteger(notionalN) &&
    Number.isSafeInteger(takerFeeN) &&
    Number.isSafeInteger(makerFeeN)
  ) {
    settleFillSafe(state, instrument, taker, maker, priceTicks, qtyLots, qtyN, notionalN, takerFeeN, makerFeeN, timeMs);
    return;
  }
  // An amount beyond 2^53: bigints throughout, and the trade and its transfers as events of their own.
  const buyer = taker.side === 'buy' ? taker : maker;
  const seller = buyer === taker ? maker : taker;
  const buyerFee = buyer === taker ? takerFee : makerFee;
  const sellerFee = buyer === taker ? makerFee : takerFee;
  const tradeId = state.nextTradeId;
  state.nextTradeId += 1;
  const link = `trade:${tradeId}`;
  const ledger = state.ledger;
  const log = state.log;
  const sellerQuote = ledger.accounts[seller.quoteIndex] as Account;
  const buyerBase = ledger.accounts[buyer.baseIndex] as Account;
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
  log.push(ledger.postFromHold(buyer.hold, sellerQuote, notional, `${link}:quote`, 'trade', link, timeMs));
  log.push(ledger.postFromHold(seller.hold, buyerBase, qtyMinor, `${link}:base`, 'trade', link, timeMs));
  if (buyerFee > 0n) {
    const fee = `${link}:buyer_fee`;
    log.push(ledger.postFromHold(buyer.hold, instrument.feeAccount, buyerFee, fee, 'fee', link, timeMs));
  }
  if (sellerFee > 0n) {
    log.push(ledger.move(sellerQuote, instrument.feeAccount, sellerFee, `${link}:seller_fee`, 'fee', link, timeMs));
  }
  if (def.locksBought) {
    lockBought(state, instrument, buyer, tradeId, qtyLots, qtyMinor, timeMs);
  }
}

/**
 * settleFill when the quantity, notional and both fees are safe integers (almost always): the same
 * ledger steps, through the ledger's number path, and the fill written to the result log as one record
 * (no event objects, no bigints).
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
  const buyerQuote = buyer.hold.accountIndex;
  const sellerBase = seller.hold.accountIndex;
  ledger.postFromHoldQuietN(buyer.hold, seller.quoteIndex, notionalFast, 'fill quote');
  ledger.postFromHoldQuietN(seller.hold, buyer.baseIndex, qtyFast, 'fill base');
  if (buyerFast > 0) ledger.postFromHoldQuietN(buyer.hold, feeIndex, buyerFast, 'fill buyer fee');
  if (sellerFast > 0) ledger.moveQuietN(seller.quoteIndex, feeIndex, sellerFast, 'fill seller fee');
  // A replayed command whose result is not read (state.quiet) writes nothing.
  if (!state.quiet) {
    const feeKey = buyerFast > 0 || sellerFast > 0 ? ledger.keyOf(feeIndex) : undefined;
    state.log.fill(
      tradeId,
      def.id,
      priceTicks,
      qtyLots,
      taker.side,
      maker.id,
      taker.id,
      maker.userId,
      taker.userId,
      notionalFast,
      makerFast,
      takerFast,
      timeMs,
      ledger.keyOf(buyerQuote),
      ledger.keyOf(seller.quoteIndex),
      ledger.assetCodeOf(buyerQuote),
      ledger.keyOf(sellerBase),
      ledger.keyOf(buyer.baseIndex),
      ledger.assetCodeOf(sellerBase),
      qtyFast,
      buyerFast > 0 ? feeKey : undefined,
      sellerFast > 0 ? feeKey : undefined,
    );
  }
  if (def.locksBought) {
    lockBought(state, instrument, buyer, tradeId, qtyLots, BigInt(qtyFast), timeMs);
  }
}
