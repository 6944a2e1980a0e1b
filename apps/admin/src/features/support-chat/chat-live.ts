// The desk's live channel (chat-staff:<staff session token> on /ipor-api/ws): a nudge when any
// conversation changes, and a customer typing. Reconnects with a capped back-off; while the socket is
// not open the desk polls over HTTP. Sends this side's typing for the open conversation.

import { useEffect, useRef, useState } from 'react';
import { getToken } from '../../app/session.ts';

export type DeskEvent = { kind: 'message' | 'read' | 'state' | 'typing'; conversationId: number; from?: string };

export function useDeskLive(onEvent: (event: DeskEvent) => void) {
  const [isOpen, setOpen] = useState(false);
  const socketRef = useRef<WebSocket | null>(null);
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const token = getToken();
  useEffect(() => {
    if (!token) return;
    let stopped = false;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const channel = `chat-staff:${token}`;
    const connect = () => {
      const { protocol, host } = window.location;
      const socket = new WebSocket(`${protocol === 'https:' ? 'wss' : 'ws'}://${host}/ipor-api/ws`);
      socketRef.current = socket;
      socket.onopen = () => socket.send(JSON.stringify({ op: 'subscribe', channels: [channel] }));
      socket.onmessage = (message) => {
        const data = JSON.parse(String(message.data)) as {
          op?: string;
          channels?: string[];
          channel?: string;
          data?: DeskEvent;
        };
        if (data.op === 'subscribed') {
          const held = data.channels?.includes('chat-staff') ?? false;
          setOpen(held);
          if (held) attempt = 0;
        } else if (data.op === 'unsubscribed') setOpen(false);
        else if (data.channel === channel && data.data) handler.current(data.data);
      };
      socket.onclose = () => {
        setOpen(false);
        socketRef.current = null;
        if (stopped) return;
        timer = setTimeout(connect, Math.min(30_000, 1_000 * 2 ** attempt++));
      };
    };
    connect();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      socketRef.current?.close();
    };
  }, [token]);
  const typing = (conversationId: number) => {
    const socket = socketRef.current;
    if (socket?.readyState === WebSocket.OPEN && token)
      socket.send(JSON.stringify({ op: 'typing', channel: `chat-staff:${token}`, conversationId }));
  };
  return { isOpen, typing };
}
