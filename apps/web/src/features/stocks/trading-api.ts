// The stock-trading calls (SPEC §7 /stock/order/*, /stock/hold/*, /user/assets, /user/tx/record) as
// TanStack Query hooks. Shapes from @bourse/contract (types only).
import type { BalanceView, HoldingView, Items, Paged, StockOrderResult, StockOrderView } from '@bourse/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet as apiGetLoud } from '../../app/api.ts';
import { useLiveChannels, usePollInterval } from '../../app/use-live.ts';
import { apiGet, apiPost } from '../markets/market-api.ts';

export type { BalanceView, OrderPreviewView, OrderStatisticsView, TransferView } from '@bourse/contract';

export const tradingKeys = {
  assets: ['user', 'assets'] as const,
  holdings: ['stock', 'holdings'] as const,
  holding: (symbol: string) => ['stock', 'holding', symbol] as const,
  orders: (status: string) => ['stock', 'orders', status] as const,
  order: (id: string) => ['stock', 'order', id] as const,
  statistics: ['stock', 'order-statistics'] as const,
  ledger: (wallet: string) => ['user', 'tx', wallet] as const,
};

export const isOpenStatus = (status: StockOrderView['status']) => status === 'pending' || status === 'partial';

export function useStockBalances(enabled: boolean) {
  return useQuery({
    queryKey: tradingKeys.assets,
    queryFn: () => apiPost<Items<BalanceView>>('/user/assets'),
    enabled,
    // Cash accounts only: shares are holdings, shown as such.
    select: (data) => data.items.filter((b) => b.wallet === 'stock' && !b.asset.startsWith('SHARE:')),
    refetchInterval: enabled ? 15_000 : false,
  });
}

export function useHoldings(enabled: boolean) {
  const interval = usePollInterval(5_000);
  return useQuery({
    queryKey: tradingKeys.holdings,
    queryFn: () => apiGet<Items<HoldingView>>('/stock/hold/list'),
    enabled,
    refetchInterval: enabled ? Math.max(Number(interval) || 0, 5_000) : false,
  });
}

export function useHolding(symbol: string, enabled: boolean) {
  return useQuery({
    queryKey: tradingKeys.holding(symbol),
    queryFn: () => apiGet<HoldingView | null>('/stock/hold/info', { symbol }),
    enabled: enabled && Boolean(symbol),
    retry: false,
  });
}

export function fetchOrders(status: 'open' | 'history', page: number, limit = 20) {
  return apiGet<Paged<StockOrderView>>('/stock/order/list', { status, page, limit });
}

export function cancelOrder(id: number) {
  return apiGetLoud<StockOrderResult>('/stock/order/cancel', { id });
}

/**
 * While mounted and signed in, listens on the user's own account channel: when the server says the
 * account changed (an order filled, shares unlocked), orders, holdings and balances refetch at once.
 */
export function useAccountLive(token: string | null | undefined): void {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['stock'] });
    void queryClient.invalidateQueries({ queryKey: ['user'] });
  };
  useLiveChannels(token ? [`account:${token}`] : [], refresh, refresh);
}
