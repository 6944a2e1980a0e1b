// What the trading API needs of the crypto exchange (features/spot): its pairs and, once wired, the
// customer's orders and fills in the contract's views. app.ts adapts the spot service to it.

import type { PlaceSpotOrder, SpotOrderView, SpotPairView, SpotTradeView } from '@bourse/contract';

export type SpotOrdersPort = {
  /** Places an order for an API key's owner (the key stands for the transaction password). */
  place(userId: number, input: PlaceSpotOrder): Promise<SpotOrderView>;
  cancel(userId: number, orderId: number): Promise<SpotOrderView>;
  /** The customer's own order; a foreign or unknown id rejects with order_not_found. */
  order(userId: number, orderId: number): Promise<SpotOrderView>;
  /** The customer's orders on a pair (or all pairs), newest first, at most `limit`. */
  orders(userId: number, query: { pairId?: string; open: boolean; limit: number }): Promise<SpotOrderView[]>;
  /** The customer's fills on a pair, of one order if given, newest first, at most `limit`. */
  trades(userId: number, query: { pairId: string; orderId?: number; limit: number }): Promise<SpotTradeView[]>;
};

export type SpotPort = {
  pairs(): SpotPairView[];
  /** null: orders are not available (answered with a clear error, never with made-up fills). */
  orders: SpotOrdersPort | null;
};

/**
 * Until the spot service is wired: the catalogue's USDT pairs with their tick and lot sizes, trading
 * where the engine has the instrument; the smallest notional is one USDT minor unit (the engine's rule).
 */
export function cataloguePairs(
  instruments: readonly {
    id: string;
    symbol: string;
    name: string;
    kind: string;
    currency: string;
    baseAsset: string | null;
    tickSize: string;
    lotSize: string;
    listed: boolean;
  }[],
  registered: (id: string) => boolean,
): SpotPairView[] {
  return instruments
    .filter((i) => i.kind === 'crypto' && i.currency === 'USDT' && i.baseAsset)
    .map((i) => ({
      id: i.id,
      symbol: i.symbol,
      name: i.name,
      base: i.baseAsset as string,
      quote: i.currency,
      tickSize: i.tickSize,
      lotSize: i.lotSize,
      minQuantity: i.lotSize,
      maxQuantity: '10000000',
      minNotional: '0.000001',
      makerFeeBps: 0,
      takerFeeBps: 0,
      marketProtectionBps: 0,
      trading: registered(i.id),
      listed: i.listed,
      liquidityAccount: '',
      favourite: false,
    }));
}
