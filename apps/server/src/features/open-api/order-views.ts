// Binance's order and fill shapes from the contract's spot views, and Binance's order parameters turned
// into a contract order (placeSpotOrderBody), each wrong parameter answered as Binance would.

import type { PlaceSpotOrder, SpotOrderView, SpotTradeView } from '@bourse/contract';
import { placeSpotOrderBody } from '@bourse/contract';
import { binanceErrors } from './binance-errors.ts';

const ZERO = '0.00000000';

/** `live`: the order still rests on the book (a part-filled order the engine closed is EXPIRED). */
export function binanceStatus(o: SpotOrderView, live: boolean): string {
  switch (o.status) {
    case 'untriggered':
    case 'pending':
      return 'NEW';
    case 'partial':
      return live ? 'PARTIALLY_FILLED' : 'EXPIRED';
    case 'completed':
      return 'FILLED';
    case 'cancelled':
      return 'CANCELED';
    case 'closed':
      return 'EXPIRED';
  }
}

export function binanceType(o: SpotOrderView): string {
  if (o.type === 'market') return 'MARKET';
  if (o.type === 'stop_limit') return 'STOP_LOSS_LIMIT';
  return o.postOnly ? 'LIMIT_MAKER' : 'LIMIT';
}

/** An order placed in the app has no client id: Binance always has one, so it is named after the id. */
export const clientIdOf = (o: SpotOrderView) => o.clientOrderId ?? `bourse-${o.id}`;

/** GET /api/v3/order, openOrders, allOrders. */
export function orderView(o: SpotOrderView, live: boolean) {
  return {
    symbol: o.base + o.quote,
    orderId: o.id,
    orderListId: -1,
    clientOrderId: clientIdOf(o),
    price: o.price || ZERO,
    origQty: o.quantity,
    executedQty: o.filledQuantity,
    cummulativeQuoteQty: o.filledAmount,
    status: binanceStatus(o, live),
    timeInForce: o.timeInForce.toUpperCase(),
    type: binanceType(o),
    side: o.side.toUpperCase(),
    stopPrice: o.stopPrice ?? ZERO,
    icebergQty: ZERO,
    time: o.createdAt,
    updateTime: o.updatedAt,
    isWorking: o.status !== 'untriggered',
    workingTime: o.status === 'untriggered' ? -1 : o.createdAt,
    origQuoteOrderQty: ZERO,
    selfTradePreventionMode: 'EXPIRE_MAKER',
  };
}

/** POST /api/v3/order's answer in the asked newOrderRespType (ACK, RESULT or FULL). */
export function newOrderView(
  o: SpotOrderView,
  live: boolean,
  respType: 'ACK' | 'RESULT' | 'FULL',
  fills: SpotTradeView[],
) {
  const ack = {
    symbol: o.base + o.quote,
    orderId: o.id,
    orderListId: -1,
    clientOrderId: clientIdOf(o),
    transactTime: o.createdAt,
  };
  if (respType === 'ACK') return ack;
  const { symbol, orderId, orderListId, clientOrderId, time, updateTime, isWorking, icebergQty, ...rest } = orderView(
    o,
    live,
  );
  const result = { ...ack, ...rest };
  if (respType === 'RESULT') return result;
  return {
    ...result,
    fills: fills.map((f) => ({
      price: f.price,
      qty: f.quantity,
      commission: f.fee,
      commissionAsset: f.feeAsset,
      tradeId: f.id,
    })),
  };
}

/** GET /api/v3/myTrades. */
export function myTradeView(t: SpotTradeView, symbol: string) {
  return {
    symbol,
    id: t.id,
    orderId: t.orderId,
    orderListId: -1,
    price: t.price,
    qty: t.quantity,
    quoteQty: t.amount,
    commission: t.fee,
    commissionAsset: t.feeAsset,
    time: t.time,
    isBuyer: t.side === 'buy',
    isMaker: t.liquidity === 'maker',
    isBestMatch: true,
  };
}

const DECIMAL = /^\d+(\.\d+)?$/;
const CLIENT_ID = /^[.A-Z:/a-z0-9_-]{8,36}$/;

function decimalParam(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name);
  if (value === null || value === '') return undefined;
  if (!DECIMAL.test(value) || value.length > 30)
    throw binanceErrors.illegalChars(name, '^([0-9]{1,20})(\\.[0-9]{1,20})?$');
  return value;
}

/**
 * Binance's new-order parameters as the contract's order: LIMIT (with timeInForce), LIMIT_MAKER (post-only),
 * MARKET (quantity or quoteOrderQty for a buy) and STOP_LOSS_LIMIT (price, stopPrice, timeInForce).
 */
export function parseNewOrder(
  params: URLSearchParams,
  symbol: string,
  newClientId: () => string,
): { input: PlaceSpotOrder; respType: 'ACK' | 'RESULT' | 'FULL' } {
  const side = params.get('side');
  if (!side) throw binanceErrors.mandatory('side');
  if (side !== 'BUY' && side !== 'SELL') throw binanceErrors.badSide();
  const type = params.get('type');
  if (!type) throw binanceErrors.mandatory('type');
  if (!['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS_LIMIT'].includes(type)) throw binanceErrors.badOrderType();
  const price = decimalParam(params, 'price');
  const stopPrice = decimalParam(params, 'stopPrice');
  const quantity = decimalParam(params, 'quantity');
  const quoteOrderQty = decimalParam(params, 'quoteOrderQty');
  const tif = params.get('timeInForce');
  const limitLike = type === 'LIMIT' || type === 'STOP_LOSS_LIMIT';
  if (limitLike && !tif) throw binanceErrors.mandatory('timeInForce');
  if (tif && !['GTC', 'IOC', 'FOK'].includes(tif)) throw binanceErrors.badTimeInForce();
  if (type !== 'MARKET' && !price) throw binanceErrors.mandatory('price');
  if (type === 'MARKET' && price) throw binanceErrors.notRequired('price');
  if (type === 'STOP_LOSS_LIMIT' && !stopPrice) throw binanceErrors.mandatory('stopPrice');
  if (type !== 'STOP_LOSS_LIMIT' && stopPrice) throw binanceErrors.notRequired('stopPrice');
  if (quoteOrderQty && (type !== 'MARKET' || side !== 'BUY')) throw binanceErrors.notRequired('quoteOrderQty');
  if (quantity && quoteOrderQty) throw binanceErrors.notRequired('quoteOrderQty');
  if (!quantity && !quoteOrderQty) throw binanceErrors.mandatory('quantity');
  const clientId = params.get('newClientOrderId') || newClientId();
  if (!CLIENT_ID.test(clientId)) throw binanceErrors.illegalChars('newClientOrderId', '^[\\.A-Z\\:/a-z0-9_-]{8,36}$');
  const respRaw = params.get('newOrderRespType');
  if (respRaw && !['ACK', 'RESULT', 'FULL'].includes(respRaw))
    throw binanceErrors.illegalChars('newOrderRespType', 'ACK, RESULT, FULL');
  const respType = (respRaw ?? (type === 'MARKET' || type === 'LIMIT' ? 'FULL' : 'ACK')) as 'ACK' | 'RESULT' | 'FULL';
  const parsed = placeSpotOrderBody.safeParse({
    symbol,
    side: side === 'BUY' ? 'buy' : 'sell',
    type: type === 'MARKET' ? 'market' : type === 'STOP_LOSS_LIMIT' ? 'stop_limit' : 'limit',
    price,
    stopPrice,
    quantity,
    quoteAmount: quoteOrderQty,
    timeInForce: (tif ?? 'GTC').toLowerCase(),
    postOnly: type === 'LIMIT_MAKER',
    clientOrderId: clientId,
  });
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? 'quantity');
    throw binanceErrors.illegalChars(field, '^([0-9]{1,20})(\\.[0-9]{1,20})?$');
  }
  return { input: parsed.data, respType };
}
