// The IPO calls (SPEC §7 /stock/index/new/*, /stock/order/new/*, /stock/order/offline/*,
// /user/update/autoapply, and the public draw record) as TanStack Query hooks. Shapes from
// @bourse/contract (types only: the zod schemas stay out of the bundle).
import type {
  AutoApplyView,
  IpoApplicationListView,
  IpoApplicationView,
  IpoChannel,
  IpoDrawRecordView,
  IpoListView,
  IpoView,
} from '@bourse/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPost as apiPostLoud } from '../../app/api.ts';
import { apiGet } from '../markets/market-api.ts';
import { type IpoTab, tabOfIpo } from './ipo-math.ts';

/** Every IPO path in one place. */
export const ipoCalls = {
  /** Issues open for applications now. */
  today: '/stock/index/new/today',
  /** Approved issues that have not opened yet. */
  coming: '/stock/index/new/list/coming',
  /** Every issue customers can see (open, upcoming, closed, allotted, listed). */
  list: '/stock/index/new/list',
  info: '/stock/index/new/info',
  apply: '/stock/order/new/apply',
  applyOffline: '/stock/order/offline/apply',
  applications: { online: '/stock/order/new/list', offline: '/stock/order/offline/list' },
  cancel: '/stock/order/new/cancel',
  pay: '/stock/order/offline/pay',
  /** GET reads the consent, POST sets it. */
  autoApply: '/user/update/autoapply',
  drawRecord: '/stock/index/new/draw',
} as const;

export const ipoKeys = {
  all: ['ipo'] as const,
  tab: (tab: IpoTab) => ['ipo', 'tab', tab] as const,
  info: (id: number) => ['ipo', 'info', id] as const,
  applications: (channel: IpoChannel, ipoId?: number) => ['ipo', 'applications', channel, ipoId ?? 0] as const,
  autoApply: ['ipo', 'auto-apply'] as const,
  draw: (id: number) => ['ipo', 'draw', id] as const,
};

const tabCall: Record<IpoTab, string> = { open: ipoCalls.today, upcoming: ipoCalls.coming, closed: ipoCalls.list };

/** The issues of one tab of the IPO list (the closed tab keeps closed, allotted and listed issues). */
export function useIpoTab(tab: IpoTab) {
  return useQuery({
    queryKey: ipoKeys.tab(tab),
    queryFn: () => apiGet<IpoListView>(tabCall[tab], { page: 1, limit: 50 }),
    select: (data) => data.items.filter((ipo) => tabOfIpo(ipo.status) === tab),
    refetchInterval: 30_000,
  });
}

export function useIpo(id: number) {
  return useQuery({
    queryKey: ipoKeys.info(id),
    queryFn: () => apiGet<IpoView>(ipoCalls.info, { id }),
    enabled: id > 0,
    retry: false,
    refetchInterval: 30_000,
  });
}

export function useApplications(channel: IpoChannel, enabled: boolean, ipoId?: number) {
  return useQuery({
    queryKey: ipoKeys.applications(channel, ipoId),
    queryFn: () =>
      apiGet<IpoApplicationListView>(ipoCalls.applications[channel], {
        page: 1,
        limit: 50,
        ...(ipoId ? { ipoId } : {}),
      }),
    enabled,
    refetchInterval: 15_000,
  });
}

export function cancelApplication(application: IpoApplicationView) {
  return apiPostLoud<{ application: IpoApplicationView }>(ipoCalls.cancel, { id: application.id });
}

export function useAutoApply(enabled: boolean) {
  return useQuery({
    queryKey: ipoKeys.autoApply,
    queryFn: () => apiGet<AutoApplyView>(ipoCalls.autoApply),
    enabled,
  });
}

export function setAutoApply(on: boolean) {
  return apiPostLoud<AutoApplyView>(ipoCalls.autoApply, { enabled: on ? 1 : 0 });
}

/** The public draw record (no login): the revealed seed, the applications and the allottees. */
export function useDrawRecord(ipoId: number) {
  return useQuery({
    queryKey: ipoKeys.draw(ipoId),
    queryFn: () => apiGet<IpoDrawRecordView>(ipoCalls.drawRecord, { ipoId }),
    enabled: ipoId > 0,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** After an application changes, the lists, the subscription figures and the balances refetch. */
export function useIpoRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ipoKeys.all });
    void queryClient.invalidateQueries({ queryKey: ['user'] });
  };
}
