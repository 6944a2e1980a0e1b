// The message-centre calls (SPEC §7 GET /user/notice, POST /user/notice/read) and the public notice
// detail, as TanStack Query hooks. Shapes come from @bourse/contract (types only: no zod in the bundle).
import type {
  MessageCentre,
  MessageKind,
  MessageReadInput,
  MessageReadResult,
  MessageView,
  NoticeArticle,
  UnreadCounts,
} from '@bourse/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPost as apiPostLoud } from '../../app/api.ts';
import { useSession } from '../../app/session.ts';
import { apiGet } from '../markets/market-api.ts';

export type { MessageKind, MessageView, UnreadCounts };

export const messagePageSize = 20;

export const contentKeys = {
  /** Everything of the signed-in user's message centre: invalidated together after a read. */
  centre: ['user', 'notice'] as const,
  list: (kind: MessageKind | 'all') => ['user', 'notice', 'list', kind] as const,
  unread: ['user', 'notice', 'unread'] as const,
  info: (kind: MessageKind, id: string) => ['user', 'notice', 'info', kind, id] as const,
  publicNotice: (id: string) => ['index', 'notice-info', id] as const,
};

/** The unread counts for the badge; nothing is asked while signed out. */
export function useUnreadCounts() {
  const session = useSession();
  return useQuery({
    queryKey: [...contentKeys.unread, session.token],
    queryFn: async () => (await apiGet<MessageCentre>('/user/notice', { page: 1, limit: 1 })).unread,
    enabled: Boolean(session.token),
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
}

export function useMessageCentre(kind: MessageKind | 'all', enabled: boolean) {
  return useInfiniteQuery({
    queryKey: contentKeys.list(kind),
    queryFn: ({ pageParam }) =>
      apiGet<MessageCentre>('/user/notice', {
        page: pageParam,
        limit: messagePageSize,
        kind: kind === 'all' ? undefined : kind,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.items.length, 0) < last.total && last.items.length > 0
        ? pages.length + 1
        : undefined,
    enabled,
  });
}

export function useMessage(kind: MessageKind, id: string, enabled: boolean) {
  return useQuery({
    queryKey: contentKeys.info(kind, id),
    queryFn: () => apiGet<MessageView>('/user/notice/info', { kind, id }),
    enabled: enabled && Boolean(id),
  });
}

export function usePublicNotice(id: string, enabled: boolean) {
  return useQuery({
    queryKey: contentKeys.publicNotice(id),
    queryFn: () => apiGet<NoticeArticle>('/index/notice/info', { id }),
    enabled: enabled && Boolean(id),
  });
}

/** Marks one entry (kind + id) or everything read, then refreshes the lists and the badge. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: { kind: MessageKind; id: number } | { all: true }) =>
      apiPostLoud<MessageReadResult>(
        '/user/notice/read',
        'all' in target ? ({ all: true } satisfies MessageReadInput) : (target satisfies MessageReadInput),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contentKeys.centre }),
  });
}
