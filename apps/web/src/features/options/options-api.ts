// The options calls (SPEC §7 /stock/index/option/rule, /stock/order/option/{apply,list,statistics}, and
// the chain and early close the screens need) as TanStack Query hooks. Shapes from @bourse/contract
// (types only: the zod schemas stay out of the bundle).
import type { OptionChainView, OptionListView, OptionRuleView, OptionStatisticsView } from '@bourse/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet } from '../markets/home-data.ts';

export const optionCalls = {
  rule: '/stock/index/option/rule',
  chain: '/stock/index/option/chain',
  apply: '/stock/order/option/apply',
  close: '/stock/order/option/close',
  list: '/stock/order/option/list',
  statistics: '/stock/order/option/statistics',
} as const;

export const optionPaths = {
  chain: '/pages/stockOption/chain',
  order: (series: string) => `/pages/stockOption/order?series=${encodeURIComponent(series)}`,
  positions: '/pages/stockOption/positions',
  history: '/pages/stockOption/history',
  rule: '/pages/stockOption/rule',
} as const;

const keys = {
  all: ['options'] as const,
  chain: (underlying: string, expiry: string) => ['options', 'chain', underlying, expiry] as const,
  rule: ['options', 'rule'] as const,
  list: (status: 'open' | 'closed') => ['options', 'list', status] as const,
  statistics: ['options', 'statistics'] as const,
};

/** The chain of one underlying and expiry ('' for the first of each), requoted every few seconds. */
export function useOptionChain(underlying: string, expiry: string) {
  return useQuery({
    queryKey: keys.chain(underlying, expiry),
    queryFn: () =>
      apiGet<OptionChainView>(optionCalls.chain, {
        ...(underlying ? { underlying } : {}),
        ...(expiry ? { expiry } : {}),
      }),
    refetchInterval: 5_000,
    placeholderData: (previous) => previous,
  });
}

export function useOptionRule() {
  return useQuery({ queryKey: keys.rule, queryFn: () => apiGet<OptionRuleView>(optionCalls.rule) });
}

export function useOptionList(status: 'open' | 'closed', enabled: boolean) {
  return useQuery({
    queryKey: keys.list(status),
    queryFn: () => apiGet<OptionListView>(optionCalls.list, { status, page: 1, limit: 50 }),
    enabled,
    refetchInterval: status === 'open' ? 5_000 : 30_000,
  });
}

export function useOptionStatistics(enabled: boolean) {
  return useQuery({
    queryKey: keys.statistics,
    queryFn: () => apiGet<OptionStatisticsView>(optionCalls.statistics),
    enabled,
    refetchInterval: 10_000,
  });
}

/** Refetches every options query (after a buy or a close) and the balances they moved. */
export function useOptionsRefresh() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: keys.all });
    void client.invalidateQueries({ queryKey: ['stock'] });
  };
}
