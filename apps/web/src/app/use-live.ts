// React bindings of the live client: the app's one connection, its status (screens poll over HTTP
// unless it is 'open') and a channel subscription whose handlers may change between renders.
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { endSession } from './api.ts';
import { LiveClient, type LiveStatus, type SocketLike } from './live.ts';

function defaultUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/ipor-api/ws`;
}

let shared: LiveClient | null = null;

/** The app's one connection (created on first use, in the browser only). */
export function liveClient(): LiveClient {
  shared ??= new LiveClient({
    url: defaultUrl,
    createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    onSessionInvalid: endSession,
  });
  return shared;
}

/** Polling interval while the socket is not open: every few seconds, as the fallback. */
export const pollFallbackMs = 4_000;

export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(
    (listener) => liveClient().onStatus(listener),
    () => liveClient().getStatus(),
    () => 'idle' as LiveStatus,
  );
}

/** refetchInterval for a query that the socket keeps fresh while it is open. */
export function usePollInterval(ms = pollFallbackMs): number | false {
  return useLiveStatus() === 'open' ? false : ms;
}

/** Subscribes to each channel while mounted; `onData` gets the channel and its data. */
export function useLiveChannels(
  channelNames: readonly string[],
  onData: (channel: string, data: unknown) => void,
  onResync?: () => void,
): void {
  const handlersRef = useRef({ onData, onResync });
  handlersRef.current = { onData, onResync };
  const key = [...channelNames].sort().join('|');
  useEffect(() => {
    if (!key) return;
    const names = key.split('|');
    const stops = names.map((channel) =>
      liveClient().subscribe(channel, {
        onData: (data) => handlersRef.current.onData(channel, data),
        onResync: () => handlersRef.current.onResync?.(),
      }),
    );
    return () => {
      for (const stop of stops) stop();
    };
  }, [key]);
}
