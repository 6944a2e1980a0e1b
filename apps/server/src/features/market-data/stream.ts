// The real-time stream at /ipor-api/ws. A client subscribes to channels (`ticker:<id>`,
// `candles:<id>:<interval>`, `trades:<id>`, `book:<id>`, and its own `account:<session token>`); every
// message is {channel, seq, data} with a per-channel sequence number, so a client that sees a gap (or
// reconnects) refetches over HTTP. The account channel says only *that* the user's orders, holdings or
// balances changed (after the engine's commit); the client refetches them over HTTP.
// Limits: 100 channels per connection, 64 KiB messages; a slow client's backlog is dropped, not queued.

import { type Instrument, isInterval } from '@bourse/market';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { MarketData, MarketEvent } from './market-data.ts';
import { toCandleView } from './routes.ts';

const MAX_CHANNELS = 100;
const MAX_BUFFERED_BYTES = 1_048_576;

/** The signed-in user's own channel: who a session token belongs to, and whose accounts changed. */
export type AccountChannels = {
  userOf(token: string): Promise<string | null>;
  onChange(listener: (userIds: ReadonlySet<string>) => void): () => void;
};

export function marketStream(
  app: FastifyInstance,
  market: MarketData,
  bookOf: (instrument: Instrument) => unknown,
  accounts?: AccountChannels,
) {
  const subscribers = new Map<string, Set<WebSocket>>();
  const seqs = new Map<string, number>();
  /** user id → the account channels (one per session token) subscribed to it. */
  const accountChannels = new Map<string, Set<string>>();

  const publish = (channel: string, data: unknown) => {
    const sockets = subscribers.get(channel);
    if (!sockets || sockets.size === 0) return;
    const seq = (seqs.get(channel) ?? 0) + 1;
    seqs.set(channel, seq);
    const message = JSON.stringify({ channel, seq, data });
    for (const socket of sockets) {
      // A client that cannot keep up misses messages; the seq gap tells it to refetch.
      if (socket.bufferedAmount < MAX_BUFFERED_BYTES) socket.send(message);
    }
  };

  const unsubscribeAll = market.onEvent((event: MarketEvent) => {
    const instrument = market.instrument(event.instrumentId);
    if (!instrument) return;
    if (event.kind === 'ticker') {
      publish(`ticker:${instrument.id}`, market.quote(instrument));
      publish(`book:${instrument.id}`, bookOf(instrument));
    } else if (event.kind === 'candle') {
      publish(`candles:${instrument.id}:${event.candle.interval}`, toCandleView(instrument, event.candle));
    } else {
      publish(`trades:${instrument.id}`, {
        id: event.entry.id,
        price: market.quote(instrument).price,
        time: event.entry.timeMs,
        side: event.entry.side,
      });
    }
  });
  app.addHook('onClose', async () => unsubscribeAll());
  const stopAccounts = accounts?.onChange((userIds) => {
    for (const userId of userIds) {
      for (const channel of accountChannels.get(userId) ?? []) publish(channel, { changed: true });
    }
  });
  if (stopAccounts) app.addHook('onClose', async () => stopAccounts());

  const validChannel = (channel: string): boolean => {
    if (channel.startsWith('candles:')) {
      const rest = channel.slice('candles:'.length);
      const cut = rest.lastIndexOf(':');
      return cut > 0 && isInterval(rest.slice(cut + 1)) && market.instrument(rest.slice(0, cut)) !== undefined;
    }
    const prefix = ['ticker:', 'trades:', 'book:'].find((p) => channel.startsWith(p));
    return prefix !== undefined && market.instrument(channel.slice(prefix.length)) !== undefined;
  };

  app.get('/ws', { websocket: true, schema: { hide: true } }, (socket: WebSocket) => {
    const mine = new Set<string>();
    socket.on('message', (raw) => {
      let msg: { op?: unknown; channels?: unknown };
      try {
        msg = JSON.parse(String(raw)) as typeof msg;
      } catch {
        socket.send(JSON.stringify({ error: 'invalid_command' }));
        return;
      }
      const channels = Array.isArray(msg.channels)
        ? msg.channels.filter((c): c is string => typeof c === 'string')
        : [];
      if (msg.op === 'subscribe') {
        void subscribe(channels).catch(() => socket.close());
      } else if (msg.op === 'unsubscribe') {
        for (const channel of channels) {
          mine.delete(channel);
          subscribers.get(channel)?.delete(socket);
        }
      } else if (msg.op === 'ping') {
        socket.send(JSON.stringify({ op: 'pong' }));
      }
    });
    const join = (channel: string) => {
      mine.add(channel);
      const set = subscribers.get(channel) ?? new Set<WebSocket>();
      subscribers.set(channel, set);
      set.add(socket);
    };
    const subscribe = async (channels: string[]) => {
      const refused: string[] = [];
      for (const channel of channels) {
        if (mine.size >= MAX_CHANNELS) refused.push(channel);
        else if (channel.startsWith('account:')) {
          const userId = accounts ? await accounts.userOf(channel.slice('account:'.length)) : null;
          if (!userId) refused.push(channel);
          else {
            join(channel);
            const set = accountChannels.get(userId) ?? new Set<string>();
            accountChannels.set(userId, set);
            set.add(channel);
          }
        } else if (validChannel(channel)) join(channel);
        else refused.push(channel);
      }
      // Refused account channels are not echoed: they carry a session token.
      const shown = (list: string[]) => list.map((c) => (c.startsWith('account:') ? 'account' : c));
      socket.send(JSON.stringify({ op: 'subscribed', channels: shown([...mine]), refused: shown(refused) }));
    };
    socket.on('close', () => {
      for (const channel of mine) {
        const set = subscribers.get(channel);
        set?.delete(socket);
        if (channel.startsWith('account:') && set?.size === 0) {
          subscribers.delete(channel);
          for (const [userId, names] of accountChannels) {
            names.delete(channel);
            if (names.size === 0) accountChannels.delete(userId);
          }
        }
      }
    });
  });
}
