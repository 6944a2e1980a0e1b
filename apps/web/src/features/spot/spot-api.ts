// The crypto exchange's calls (SPEC §7 /coin/infos, /coin/order/*, /coin/collect/*; balances from /user/assets) as
// TanStack Query hooks. Shapes from @bourse/contract (types only: no zod in the bundle). Orders and
// balances refetch when the account channel says the account changed (a fill, a cancel).
import type {
  AmendSpotOrderInput,
  BalanceView,
  CoinCollectInput,
  Items,
  Paged,
  QuoteView,
  SpotOrderIdInput,
  SpotOrderListInput,
  SpotOrderResult,
  SpotOrderView,
  SpotPairView,
  SpotTradeListInput,
  SpotTradeView,
} from '@bourse/contract';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPost as apiPostLoud } from '../../app/api.ts';
import { useLiveChannels, usePollInterval } from '../../app/use-live.ts';
import { apiPost } from '../markets/market-api.ts';
import { trimZeros } from './spot-math.ts';

export type { SpotOrderPreviewView, SpotOrderView, SpotPairView, SpotTradeView } from '@bourse/contract';
export { pairSymbolOf, trimZeros } from './spot-math.ts';

export const spotKeys = {
  all: ['spot'] as const,
  pairs: ['spot', 'pairs'] as const,
  /** The same key as the stock screens' balances (trading-api.ts tradingKeys.assets): one request. */
  assets: ['user', 'assets'] as const,
  favourites: ['spot', 'favourites'] as const,
  orders: (status: 'open' | 'history', symbol: string) => ['spot', 'orders', status, symbol] as const,
  trades: (symbol: string) => ['spot', 'trades', symbol] as const,
  preview: (input: unknown) => ['spot', 'preview', input] as const,
};

export const defaultPairSymbol = 'BTCUSDT';

const withPlainRules = (pair: SpotPairView): SpotPairView => ({
  ...pair,
  tickSize: trimZeros(pair.tickSize),
  lotSize: trimZeros(pair.lotSize),
  minQuantity: trimZeros(pair.minQuantity),
  maxQuantity: trimZeros(pair.maxQuantity),
  minNotional: trimZeros(pair.minNotional),
});

/** The pairs with their rules (tick, lot, minimum notional, fees), from /coin/infos. */
export function usePairs() {
  return useQuery({
    queryKey: spotKeys.pairs,
    queryFn: () => apiPost<Items<SpotPairView>>('/coin/infos'),
    staleTime: 60_000,
    select: (data) => data.items.map(withPlainRules),
  });
}

/**
 * The customer's spot wallet: their balances (POST /user/assets, the same query as the stock screens'),
 * the spot ones.
 */
export function useSpotWallet(enabled: boolean) {
  const interval = usePollInterval(10_000);
  return useQuery({
    queryKey: spotKeys.assets,
    queryFn: () => apiPost<Items<BalanceView>>('/user/assets'),
    enabled,
    refetchInterval: enabled ? interval : false,
    select: (data) => data.items.filter((b) => b.wallet === 'spot'),
  });
}

export function fetchSpotOrders(status: 'open' | 'history', symbol: string, page: number, limit = 20) {
  return apiPost<Paged<SpotOrderView>>('/coin/order/list', {
    status,
    symbol: symbol || undefined,
    page,
    limit,
  } satisfies SpotOrderListInput);
}

export function useSpotOrders(status: 'open' | 'history', symbol: string, enabled: boolean) {
  const interval = usePollInterval(status === 'open' ? 5_000 : 15_000);
  return useQuery({
    queryKey: spotKeys.orders(status, symbol),
    queryFn: () => fetchSpotOrders(status, symbol, 1, 50),
    enabled,
    refetchInterval: enabled ? interval : false,
  });
}

export function useSpotTrades(symbol: string, enabled: boolean) {
  const interval = usePollInterval(15_000);
  return useQuery({
    queryKey: spotKeys.trades(symbol),
    queryFn: () =>
      apiPost<Paged<SpotTradeView>>('/coin/order/trades', {
        symbol: symbol || undefined,
        page: 1,
        limit: 50,
      } satisfies SpotTradeListInput),
    enabled,
    refetchInterval: enabled ? interval : false,
  });
}

/** Cancel (/coin/order/close) and amend down (/coin/order/amend): loud calls, the server's refusal is shown. */
export const cancelSpotOrder = (id: number) =>
  apiPostLoud<SpotOrderResult>('/coin/order/close', { id } satisfies SpotOrderIdInput);
export const amendSpotOrder = (id: number, quantity: string) =>
  apiPostLoud<SpotOrderResult>('/coin/order/amend', { id, quantity } satisfies AmendSpotOrderInput, {
    isSilent: true,
  });

/** The favourite pairs' tickers (/coin/collect/list). */
export function useCoinFavourites(enabled: boolean) {
  const interval = usePollInterval(8_000);
  return useQuery({
    queryKey: spotKeys.favourites,
    queryFn: () => apiPost<Items<QuoteView>>('/coin/collect/list'),
    enabled,
    refetchInterval: enabled ? interval : false,
  });
}

export const setCoinFavourite = (symbol: string, isFavourite: boolean) =>
  apiPostLoud(isFavourite ? '/coin/collect/add' : '/coin/collect/del', { symbol } satisfies CoinCollectInput);

/** After an order is placed, amended or cancelled: its lists and the balances. */
export function refreshSpot(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: spotKeys.all });
  void queryClient.invalidateQueries({ queryKey: spotKeys.assets });
}

/** While mounted and signed in: the account channel makes orders, fills and the wallet refetch at once. */
export function useSpotAccountLive(token: string | null | undefined): void {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['spot', 'orders'] });
    void queryClient.invalidateQueries({ queryKey: ['spot', 'trades'] });
    void queryClient.invalidateQueries({ queryKey: spotKeys.assets });
  };
  useLiveChannels(token ? [`account:${token}`] : [], refresh, refresh);
}
