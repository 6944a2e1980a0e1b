// Owns turning one fill into money: the buyer's quote and the seller's base change hands, and both
// fees go to the platform fee account, as one step of ledger transfers taken from the orders' holds.
// Must hold: the buyer's hold covers notional + fee of every fill (see buyHoldFor); nothing is created;
// on a lockBoughtUntilSettled instrument the bought quantity is held in the same step.
// Must not: decide what trades; matching did that.

import type { EngineState, InstrumentState, OrderRecord } from './engine-state.ts';
import type { EngineEvent, Trade } from './events.ts';
import { feeOf, feeOfSafe, lotsToMinor, tradeNotional, tradeNotionalSafe } from './instrument.ts';
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
  const buyer = taker.side === 'buy' ? taker : maker;
  const seller = buyer === taker ? maker : taker;
  const qtyMinor = lotsToMinor(def, qtyLots);
  let notional: bigint;
  let takerFee: bigint;
  let makerFee: bigint;
  const fast = tradeNotionalSafe(def, priceTicks, qtyLots);
  const takerFast = fast === -1 ? -1 : feeOfSafe(fast, def.spec.takerFeeBps);
  const makerFast = fast === -1 ? -1 : feeOfSafe(fast, def.spec.makerFeeBps);
  if (takerFast !== -1 && makerFast !== -1) {
    notional = BigInt(fast);
    takerFee = takerFast === 0 ? 0n : BigInt(takerFast);
    makerFee = makerFast === 0 ? 0n : BigInt(makerFast);
  } else {
    notional = tradeNotional(def, priceTicks, qtyLots);
    takerFee = feeOf(notional, def.spec.takerFeeBps);
    makerFee = feeOf(notional, def.spec.makerFeeBps);
  }
  const buyerFee = buyer === taker ? takerFee : makerFee;
  const sellerFee = buyer === taker ? makerFee : takerFee;
  const tradeId = state.nextTradeId;
  state.nextTradeId += 1;
  const link = `trade:${tradeId}`;
  const trade: Trade = {
    type: 'trade',
    tradeId,
    instrumentId: def.id,
    priceTicks,
    qtyLots,
    takerSide: taker.side,
    makerOrderId: maker.id,
    takerOrderId: taker.id,
    makerUserId: maker.user.id,
    takerUserId: taker.user.id,
    notional,
    makerFee,
    takerFee,
    timeMs,
  };
  const ledger = state.ledger;
  events.push(
    trade,
    ledger.postFromHold(buyer.hold, seller.quoteAccount, notional, `${link}:quote`, 'trade', link, timeMs),
    ledger.postFromHold(seller.hold, buyer.baseAccount, qtyMinor, `${link}:base`, 'trade', link, timeMs),
  );
  if (buyerFee > 0n) {
    events.push(
      ledger.postFromHold(buyer.hold, instrument.feeAccount, buyerFee, `${link}:buyer_fee`, 'fee', link, timeMs),
    );
  }
  if (sellerFee > 0n) {
    events.push(
      ledger.move(seller.quoteAccount, instrument.feeAccount, sellerFee, `${link}:seller_fee`, 'fee', link, timeMs),
    );
  }
  if (def.locksBought) {
    lockBought(state, instrument, buyer.user, buyer.baseAccount, tradeId, qtyLots, qtyMinor, events, timeMs);
  }
}
