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
// The support chat (decision 0041) adds `chat:<session token>`, the customer's own chat channel, which
// lives and dies with its session exactly as the account channel does, and `chat-staff:<staff session
// token>` for the desk, whose session and chat permission are checked again before each message. Both
// carry only a nudge ({kind: message | read | state, conversationId}) or the other side typing; the
// messages themselves are fetched over HTTP. A client on one of them sends {op: 'typing', channel}
// (the desk adds conversationId), at most once a second per socket.
// Limits: 100 channels per connection, 64 KiB messages; a slow client's backlog is dropped, not queued.

import type { ChatStreamEvent, ErrorCode, StreamReply, StreamUpdate } from '@bourse/contract';
import { type Instrument, isInterval } from '@bourse/market';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { toCandleView } from './routes.ts';
import type { MarketData, MarketEvent } from './service.ts';

const MAX_CHANNELS = 100;
const MAX_BUFFERED_BYTES = 1_048_576;
const TYPING_EVERY_MS = 1_000;
/** Channels that belong to a customer's session: checked again whenever the session might have ended. */
const USER_PREFIXES = ['account:', 'chat:'] as const;
const STAFF_CHAT = 'chat-staff:';
const userPrefixOf = (channel: string) => USER_PREFIXES.find((p) => channel.startsWith(p));
/** What a refusal or a drop names instead of a channel carrying a token. */
const shownName = (channel: string) =>
  channel.startsWith(STAFF_CHAT) ? 'chat-staff' : (userPrefixOf(channel)?.slice(0, -1) ?? channel);

/** The signed-in user's own channel: who a session token belongs to, and whose accounts changed. */
export type AccountChannels = {
  /** The user a session token signs in, or why it does not; changes nothing. */
  userOf(token: string): Promise<{ userId: string } | { refused: ErrorCode }>;
  onChange(listener: (userIds: ReadonlySet<string>) => void): () => void;
  /** A user, or one of their sessions, changed (blocked, signed out, revoked): their channels are checked again. */
  onSessionsChanged(listener: (userId: string) => void): () => void;
};

/** The support chat's side of the stream: its notices, the desk's sessions, and typing. */
export type ChatChannels = {
  onNotice(listener: (notice: { userId: number; event: ChatStreamEvent }) => void): () => void;
  /** The staff member a staff session token signs in with the chat permission, or why not. */
  staffOf(token: string): Promise<{ staffId: string } | { refused: ErrorCode }>;
  customerTyping(userId: string): Promise<void>;
  staffTyping(conversationId: number): Promise<void>;
};

export function marketStream(
  app: FastifyInstance,
  market: MarketData,
  bookOf: (instrument: Instrument) => unknown,
  accounts?: AccountChannels,
  chat?: ChatChannels,
) {
  const subscribers = new Map<string, Set<WebSocket>>();
  const seqs = new Map<string, number>();
  /** Each open socket's channels. */
  const channelsOf = new Map<WebSocket, Set<string>>();
  /** user id → the account and chat channels (one per session token and kind) subscribed to it, and back. */
  const accountChannels = new Map<string, Set<string>>();
  const accountUser = new Map<string, string>();
  /** The desk's chat channels (one per staff session token). */
  const staffChannels = new Set<string>();

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

  /** Takes a socket off a channel; a session's channel nobody listens to any more is forgotten (it names a token). */
  const leave = (socket: WebSocket, channel: string) => {
    channelsOf.get(socket)?.delete(channel);
    const sockets = subscribers.get(channel);
    sockets?.delete(socket);
    if (sockets?.size !== 0) return;
    if (channel.startsWith(STAFF_CHAT)) {
      subscribers.delete(channel);
      seqs.delete(channel);
      staffChannels.delete(channel);
      return;
    }
    if (!userPrefixOf(channel)) return;
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
    const answer = await accounts!.userOf(channel.slice(userPrefixOf(channel)!.length));
    if ('userId' in answer && answer.userId === accountUser.get(channel)) return true;
    drop(channel, 'refused' in answer ? answer.refused : 'session_invalid');
    return false;
  };
  /** Every socket on a channel whose session ended is told why and taken off it. */
  const drop = (channel: string, error: ErrorCode) => {
    for (const socket of [...(subscribers.get(channel) ?? [])]) {
      leave(socket, channel);
      socket.send(JSON.stringify({ op: 'unsubscribed', channels: [shownName(channel)], error } satisfies StreamReply));
    }
  };
  /** Whether a desk channel's staff session still signs in with the chat permission; if not, it is dropped. */
  const isStillStaff = async (channel: string): Promise<boolean> => {
    const answer = await chat!.staffOf(channel.slice(STAFF_CHAT.length));
    if ('staffId' in answer) return true;
    drop(channel, answer.refused);
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
        if (!channel.startsWith('account:')) continue;
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
  const stopChat = chat?.onNotice(({ userId, event }) => {
    // Someone typing is told to the other side only.
    const typist = event.kind === 'typing' ? event.from : null;
    for (const channel of typist === 'customer' ? [] : (accountChannels.get(String(userId)) ?? [])) {
      if (!channel.startsWith('chat:')) continue;
      void isStillSignedIn(channel)
        .then((isSignedIn) => {
          if (isSignedIn) publish(channel, event);
        })
        .catch(closeOnFailure(channel));
    }
    for (const channel of typist === 'staff' ? [] : staffChannels) {
      void isStillStaff(channel)
        .then((isStaff) => {
          if (isStaff) publish(channel, event);
        })
        .catch(closeOnFailure(channel));
    }
  });
  if (stopChat) app.addHook('onClose', async () => stopChat());

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
    let typedAt = 0;
    /** Typing on a chat channel this socket holds: the customer's tells the desk, the desk's the customer. */
    const typing = (channel: unknown, conversationId: unknown) => {
      if (!chat || typeof channel !== 'string' || !mine.has(channel)) return;
      const now = Date.now();
      if (now - typedAt < TYPING_EVERY_MS) return;
      typedAt = now;
      const userId = accountUser.get(channel);
      // The typist's own session is checked first: one that ended (or lost the chat permission) is dropped.
      if (channel.startsWith('chat:') && userId !== undefined)
        void isStillSignedIn(channel)
          .then((isSignedIn) => (isSignedIn ? chat.customerTyping(userId) : undefined))
          .catch(() => undefined);
      else if (channel.startsWith(STAFF_CHAT) && Number.isSafeInteger(conversationId))
        void isStillStaff(channel)
          .then((isStaff) => (isStaff ? chat.staffTyping(conversationId as number) : undefined))
          .catch(() => undefined);
    };
    socket.on('message', (raw) => {
      let msg: { op?: unknown; channels?: unknown; channel?: unknown; conversationId?: unknown };
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
      } else if (msg.op === 'typing') {
        typing(msg.channel, msg.conversationId);
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
        else if (channel.startsWith(STAFF_CHAT)) {
          const answer = chat ? await chat.staffOf(channel.slice(STAFF_CHAT.length)) : null;
          if (socket.readyState !== socket.OPEN) return;
          if (!answer || !('staffId' in answer)) refused.push(channel);
          else {
            join(channel);
            staffChannels.add(channel);
          }
        } else if (userPrefixOf(channel) && (channel.startsWith('account:') || chat)) {
          const answer = accounts ? await accounts.userOf(channel.slice(userPrefixOf(channel)!.length)) : null;
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
      // Refused session channels are not echoed: they carry a session token.
      const shown = (list: string[]) => list.map(shownName);
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
