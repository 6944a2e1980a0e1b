// The real-time stream at /ipor-api/ws. A client subscribes to channels (`ticker:<id>`,
// `candles:<id>:<interval>`, `trades:<id>`, `book:<id>`, and its own `account:<session token>`); every
// message is {channel, seq, data} with a per-channel sequence number, so a client that sees a gap (or
// reconnects) refetches over HTTP. The account channel says only *that* the user's orders, holdings or
// balances changed (after the engine's commit); the client refetches them over HTTP.
// The account channel lasts as long as its session: it is checked again when the user or their sessions
// change (a block, a sign-out, a revoked session) and before each message (an expired session, or a
// change made by another server process). Once the session no longer signs in, the channel is dropped
// and the client told {op: 'unsubscribed', channels: ['account'], error: 'account_blocked' or
// 'session_invalid'}; the market channels, open to anyone, go on.
// Limits: 100 channels per connection, 64 KiB messages; a slow client's backlog is dropped, not queued.

import type { ErrorCode, StreamReply, StreamUpdate } from '@bourse/contract';
import { type Instrument, isInterval } from '@bourse/market';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { toCandleView } from './routes.ts';
import type { MarketData, MarketEvent } from './service.ts';

const MAX_CHANNELS = 100;
const MAX_BUFFERED_BYTES = 1_048_576;

/** The signed-in user's own channel: who a session token belongs to, and whose accounts changed. */
export type AccountChannels = {
  /** The user a session token signs in, or why it does not; changes nothing. */
  userOf(token: string): Promise<{ userId: string } | { refused: ErrorCode }>;
  onChange(listener: (userIds: ReadonlySet<string>) => void): () => void;
  /** A user, or one of their sessions, changed (blocked, signed out, revoked): their channels are checked again. */
  onSessionsChanged(listener: (userId: string) => void): () => void;
};

export function marketStream(
  app: FastifyInstance,
  market: MarketData,
  bookOf: (instrument: Instrument) => unknown,
  accounts?: AccountChannels,
) {
  const subscribers = new Map<string, Set<WebSocket>>();
  const seqs = new Map<string, number>();
  /** Each open socket's channels. */
  const channelsOf = new Map<WebSocket, Set<string>>();
  /** user id → the account channels (one per session token) subscribed to it, and back. */
  const accountChannels = new Map<string, Set<string>>();
  const accountUser = new Map<string, string>();

  const publish = (channel: string, data: unknown) => {
    const sockets = subscribers.get(channel);
    if (!sockets || sockets.size === 0) return;
    const seq = (seqs.get(channel) ?? 0) + 1;
    seqs.set(channel, seq);
    const message = JSON.stringify({ channel, seq, data } satisfies StreamUpdate);
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
      // Only for someone subscribed: reading the book marks it watched, and a watched book is requoted
      // (an idle server kept every book watched and requoted: docs/decisions/0015-bounded-growth.md).
      const book = `book:${instrument.id}`;
      if ((subscribers.get(book)?.size ?? 0) > 0) publish(book, bookOf(instrument));
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

  /** Takes a socket off a channel; an account channel nobody listens to any more is forgotten (it names a token). */
  const leave = (socket: WebSocket, channel: string) => {
    channelsOf.get(socket)?.delete(channel);
    const sockets = subscribers.get(channel);
    sockets?.delete(socket);
    if (sockets?.size !== 0 || !channel.startsWith('account:')) return;
    subscribers.delete(channel);
    seqs.delete(channel);
    const userId = accountUser.get(channel);
    accountUser.delete(channel);
    const names = userId === undefined ? undefined : accountChannels.get(userId);
    names?.delete(channel);
    if (userId !== undefined && names?.size === 0) accountChannels.delete(userId);
  };

  /** Whether an account channel's session still signs its user in; if not, every socket on it is told and dropped. */
  const isStillSignedIn = async (channel: string): Promise<boolean> => {
    // Only the account listeners below call it, and they exist only with `accounts`.
    const answer = await accounts!.userOf(channel.slice('account:'.length));
    if ('userId' in answer && answer.userId === accountUser.get(channel)) return true;
    const error = 'refused' in answer ? answer.refused : 'session_invalid';
    for (const socket of [...(subscribers.get(channel) ?? [])]) {
      leave(socket, channel);
      socket.send(JSON.stringify({ op: 'unsubscribed', channels: ['account'], error } satisfies StreamReply));
    }
    return false;
  };
  /** A check that could not be made (the database failed) ends the sockets on that channel rather than trust it. */
  const closeOnFailure = (channel: string) => (error: unknown) => {
    app.log.error({ err: error }, 'account channel: the session check failed');
    for (const socket of subscribers.get(channel) ?? []) socket.close(1011);
  };

  const stopAccounts = accounts?.onChange((userIds) => {
    for (const userId of userIds) {
      for (const channel of accountChannels.get(userId) ?? []) {
        void isStillSignedIn(channel)
          .then((isSignedIn) => {
            if (isSignedIn) publish(channel, { changed: true });
          })
          .catch(closeOnFailure(channel));
      }
    }
  });
  if (stopAccounts) app.addHook('onClose', async () => stopAccounts());
  const stopSessions = accounts?.onSessionsChanged((userId) => {
    for (const channel of [...(accountChannels.get(userId) ?? [])]) {
      void isStillSignedIn(channel).catch(closeOnFailure(channel));
    }
  });
  if (stopSessions) app.addHook('onClose', async () => stopSessions());

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
    channelsOf.set(socket, mine);
    socket.on('message', (raw) => {
      let msg: { op?: unknown; channels?: unknown };
      try {
        msg = JSON.parse(String(raw)) as typeof msg;
      } catch {
        socket.send(JSON.stringify({ error: 'invalid_command' } satisfies StreamReply));
        return;
      }
      const channels = Array.isArray(msg.channels)
        ? msg.channels.filter((c): c is string => typeof c === 'string')
        : [];
      if (msg.op === 'subscribe') {
        void subscribe(channels).catch(() => socket.close());
      } else if (msg.op === 'unsubscribe') {
        for (const channel of channels) leave(socket, channel);
      } else if (msg.op === 'ping') {
        socket.send(JSON.stringify({ op: 'pong' } satisfies StreamReply));
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
          const answer = accounts ? await accounts.userOf(channel.slice('account:'.length)) : null;
          // Closed while its session was checked: joining now would keep a dead socket subscribed.
          if (socket.readyState !== socket.OPEN) return;
          if (!answer || !('userId' in answer)) refused.push(channel);
          else {
            join(channel);
            accountUser.set(channel, answer.userId);
            const set = accountChannels.get(answer.userId) ?? new Set<string>();
            accountChannels.set(answer.userId, set);
            set.add(channel);
          }
        } else if (validChannel(channel)) join(channel);
        else refused.push(channel);
      }
      // Refused account channels are not echoed: they carry a session token.
      const shown = (list: string[]) => list.map((c) => (c.startsWith('account:') ? 'account' : c));
      socket.send(
        JSON.stringify({ op: 'subscribed', channels: shown([...mine]), refused: shown(refused) } satisfies StreamReply),
      );
    };
    socket.on('close', () => {
      for (const channel of [...mine]) leave(socket, channel);
      channelsOf.delete(socket);
    });
  });
}
