// The perpetual contracts' calls (SPEC §7 /coin/contract/order/*) as TanStack Query hooks and loud
// mutations. Shapes from @bourse/contract (types only). Positions, orders and the contract wallet refetch
// when the account channel says the account changed (a fill, a TP/SL, a liquidation, a funding payment).
import type {
  Items,
  Paged,
  PerpAddMarginInput,
  PerpClosedPositionView,
  PerpClosePositionInput,
  PerpCloseResult,
  PerpContractView,
  PerpFundingView,
  PerpLeverageInput,
  PerpLeverageView,
  PerpLiquidationView,
  PerpOrderIdInput,
  PerpOrderListInput,
  PerpOrderView,
  PerpPositionListView,
  PerpPositionResult,
  PerpRecordListInput,
  PerpTriggerInput,
} from '@bourse/contract';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPost as apiPostLoud } from '../../app/api.ts';
import { useLiveChannels, usePollInterval } from '../../app/use-live.ts';
import { apiPost } from '../markets/market-api.ts';
import { trimZeros } from '../spot/spot-math.ts';

export type {
  PerpContractView,
  PerpFundingView,
  PerpLiquidationView,
  PerpOrderResult,
  PerpOrderView,
  PerpPositionView,
} from '@bourse/contract';

const base = '/coin/contract/order';
/** The contracts with their rules, mark, index and funding (public). */
export const contractsPath = '/coin/contract/infos';

export const perpKeys = {
  all: ['perp'] as const,
  contracts: ['perp', 'contracts'] as const,
  positions: ['perp', 'positions'] as const,
  leverage: (symbol: string) => ['perp', 'leverage', symbol] as const,
  orders: (status: 'open' | 'history', symbol: string) => ['perp', 'orders', status, symbol] as const,
  records: (kind: 'funding' | 'liquidation' | 'positions') => ['perp', 'records', kind] as const,
};

export const defaultContractSymbol = 'BTCUSDT';

const withPlainRules = (contract: PerpContractView): PerpContractView => ({
  ...contract,
  tickSize: trimZeros(contract.tickSize),
  lotSize: trimZeros(contract.lotSize),
  minQuantity: trimZeros(contract.minQuantity),
});

/** The contracts (mark, index and funding move: refreshed every few seconds). */
export function useContracts() {
  const interval = usePollInterval(5_000);
  return useQuery({
    queryKey: perpKeys.contracts,
    queryFn: () => apiPost<Items<PerpContractView>>(contractsPath),
    refetchInterval: interval,
    select: (data) => data.items.map(withPlainRules),
  });
}

/** The customer's leverage on a contract and the most they may choose now (/multiple without a value reads). */
export function useLeverage(symbol: string, enabled: boolean) {
  return useQuery({
    queryKey: perpKeys.leverage(symbol),
    queryFn: () => apiPost<PerpLeverageView>(`${base}/multiple`, { symbol } satisfies PerpLeverageInput),
    enabled: enabled && symbol !== '',
  });
}

export const setLeverage = (symbol: string, leverage: number) =>
  apiPostLoud<PerpLeverageView>(`${base}/multiple`, { symbol, leverage } satisfies PerpLeverageInput, {
    isSilent: true,
  });

/** Open positions and the contract wallet (balance, available, margins, unrealised P&L). */
export function usePositions(enabled: boolean) {
  const interval = usePollInterval(4_000);
  return useQuery({
    queryKey: perpKeys.positions,
    queryFn: () => apiPost<PerpPositionListView>(`${base}/list/active`, {}),
    enabled,
    refetchInterval: enabled ? interval : false,
  });
}

export function usePerpOrders(status: 'open' | 'history', symbol: string, enabled: boolean) {
  const interval = usePollInterval(status === 'open' ? 5_000 : 15_000);
  return useQuery({
    queryKey: perpKeys.orders(status, symbol),
    queryFn: () =>
      apiPost<Paged<PerpOrderView>>(`${base}/list`, {
        status,
        symbol: symbol || undefined,
        page: 1,
        limit: 50,
      } satisfies PerpOrderListInput),
    enabled,
    refetchInterval: enabled ? interval : false,
  });
}

export function usePerpRecords<T extends PerpFundingView | PerpLiquidationView>(
  kind: 'funding' | 'liquidation',
  enabled: boolean,
) {
  return useQuery({
    queryKey: perpKeys.records(kind),
    queryFn: () =>
      apiPost<Paged<T>>(kind === 'funding' ? '/coin/contract/records/funding' : '/coin/contract/records/liquidations', {
        page: 1,
        limit: 50,
      } satisfies PerpRecordListInput),
    enabled,
  });
}

/** The customer's closed positions, newest first (/coin/contract/records/positions). */
export function useClosedPositions(enabled: boolean) {
  return useQuery({
    queryKey: perpKeys.records('positions'),
    queryFn: () =>
      apiPost<Paged<PerpClosedPositionView>>('/coin/contract/records/positions', {
        page: 1,
        limit: 50,
      } satisfies PerpRecordListInput),
    enabled,
  });
}

/** Loud calls: the server's refusal (translated) is shown by the caller. */
export const cancelPerpOrder = (id: number) =>
  apiPostLoud(`${base}/close`, { id } satisfies PerpOrderIdInput, { isSilent: true });
export const setTakeProfit = (id: string, price: string) =>
  apiPostLoud<PerpPositionResult>(`${base}/set/profit`, { id, price } satisfies PerpTriggerInput, { isSilent: true });
export const setStopLoss = (id: string, price: string) =>
  apiPostLoud<PerpPositionResult>(`${base}/set/loss`, { id, price } satisfies PerpTriggerInput, { isSilent: true });
export const addMargin = (id: string, amount: string, clientId: string) =>
  apiPostLoud<PerpPositionResult>(`${base}/add/mgn`, { id, amount, clientId } satisfies PerpAddMarginInput, {
    isSilent: true,
    idempotencyKey: clientId,
  });
export const closePosition = (id: string) =>
  apiPostLoud<PerpCloseResult>(`${base}/liquidate`, { id } satisfies PerpClosePositionInput, { isSilent: true });
export const closeAllPositions = () => apiPostLoud<PerpCloseResult>(`${base}/liquidate/all`, {}, { isSilent: true });

/** After an order, a close, a TP/SL or margin change: positions, orders, records and the wallets. */
export function refreshPerp(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: perpKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['user', 'assets'] });
}

/** While mounted and signed in: the account channel makes positions, orders and the wallet refetch at once. */
export function usePerpAccountLive(token: string | null | undefined): void {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: perpKeys.positions });
    void queryClient.invalidateQueries({ queryKey: ['perp', 'orders'] });
    void queryClient.invalidateQueries({ queryKey: ['perp', 'records'] });
  };
  useLiveChannels(token ? [`account:${token}`] : [], refresh, refresh);
}
