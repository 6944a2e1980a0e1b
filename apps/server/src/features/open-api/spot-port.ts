// What the trading API needs of the crypto exchange (features/spot): its pairs and, once wired, the
// customer's orders and fills in the contract's views. app.ts adapts the spot service to it.

import type { PlaceSpotOrder, SpotOrderView, SpotPairView, SpotTradeView } from '@bourse/contract';
import type { SpotExchange } from '../spot/service.ts';

export type SpotOrdersPort = {
  /** Places an order for an API key's owner (the key stands for the transaction password). */
  place(userId: number, input: PlaceSpotOrder): Promise<SpotOrderView>;
  cancel(userId: number, orderId: number): Promise<SpotOrderView>;
  /** The customer's own order; a foreign or unknown id rejects with order_not_found. */
  order(userId: number, orderId: number): Promise<SpotOrderView>;
  /** The customer's own order by the client id it was placed with; rejects with order_not_found. */
  orderByClientId(userId: number, clientOrderId: string): Promise<SpotOrderView>;
  /** The customer's orders on a pair (or all pairs), newest first, at most `limit`. */
  orders(userId: number, query: { pairId?: string; open: boolean; limit: number }): Promise<SpotOrderView[]>;
  /** The customer's fills on a pair, of one order if given, newest first, at most `limit`. */
  trades(userId: number, query: { pairId: string; orderId?: number; limit: number }): Promise<SpotTradeView[]>;
};

export type SpotPort = {
  pairs(): Promise<SpotPairView[]>;
  /** null: orders are not available (answered with a clear error, never with made-up fills). */
  orders: SpotOrdersPort | null;
};

/** The spot service as the trading API sees it: orders placed by a key skip the transaction password. */
export function spotPortOf(spot: SpotExchange): SpotPort {
  return {
    pairs: () => spot.pairs(),
    orders: {
      place: (userId, input) => spot.placeOrder(userId, input, { skipPassword: true }),
      cancel: (userId, id) => spot.cancelOrder(userId, id),
      order: (userId, id) => spot.order(userId, id),
      orderByClientId: (userId, clientOrderId) => spot.orderByClientOrderId(userId, clientOrderId),
      orders: async (userId, q) =>
        (await spot.orders(userId, { symbol: q.pairId, status: q.open ? 'open' : 'all', page: 1, limit: q.limit }))
          .items,
      trades: async (userId, q) =>
        (await spot.trades(userId, { symbol: q.pairId, orderId: q.orderId, page: 1, limit: q.limit })).items,
    },
  };
}
