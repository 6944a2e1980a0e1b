// The support chat's calls and live channel: the customer's conversation (GET /user/chat), its unread
// count for the entry's badge, and the `chat:<session token>` channel, which only says "changed,
// refetch" or that support is typing. Polls over HTTP whenever the socket is not open.

import type { ChatStreamEvent, ChatView } from '@bourse/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiGet } from '../../app/api.ts';
import { useSession } from '../../app/session.ts';
import { useLiveChannels, usePollInterval } from '../../app/use-live.ts';

export const chatKeys = {
  chat: ['chat'] as const,
  unread: ['chat', 'unread'] as const,
};

/** The customer's chat channel name, or none when signed out. */
export function useChatChannel(): string | null {
  const { token } = useSession();
  return token ? `chat:${token}` : null;
}

/** Refetches the chat (and its unread count) when the channel says it changed; `onTyping` hears support typing. */
export function useChatLive(onTyping?: () => void) {
  const queryClient = useQueryClient();
  const channel = useChatChannel();
  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: chatKeys.chat }), [queryClient]);
  useLiveChannels(
    channel ? [channel] : [],
    (_, data) => {
      const event = data as ChatStreamEvent;
      if (event.kind === 'typing') {
        if (event.from === 'staff') onTyping?.();
      } else refresh();
    },
    refresh,
  );
}

export function useChat() {
  const interval = usePollInterval();
  return useQuery({
    queryKey: chatKeys.chat,
    queryFn: () => apiGet<ChatView>('/user/chat'),
    refetchInterval: interval,
  });
}

/** Unread support messages, for the badge where support is entered from (0 while signed out). */
export function useChatUnread(): number {
  const { token } = useSession();
  useChatLive();
  const interval = usePollInterval(30_000);
  const unread = useQuery({
    queryKey: chatKeys.unread,
    queryFn: () => apiGet<{ unread: number }>('/user/chat/unread', undefined, { isSilent: true }),
    enabled: Boolean(token),
    refetchInterval: interval,
  });
  return token ? (unread.data?.unread ?? 0) : 0;
}

/** A client message id: sending the same one again never stores a second message. */
export function newClientId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
