// The real-time market client (WebSocket at /ipor-api/ws). Owns: one shared connection, channel
// subscriptions counted per listener, reconnection with exponential back-off and jitter, and gap
// detection on each channel's `seq`. Must hold: after a reconnect or a gap the listeners are told to
// resynchronise (refetch over HTTP), because messages may have been missed; screens keep polling over
// HTTP whenever the status is not 'open', so they work without a socket at all. When the server ends
// the account channel because its session no longer signs in, the app reacts as to SPEC's -1000.
// No React here (hooks and the app's one client live in use-live.ts) so that the timing rules can be
// tested with fake timers.

import type { ErrorCode, StreamCommand, StreamUpdate } from '@bourse/contract';

/** The part of the browser WebSocket this client uses (a fake one in tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type LiveStatus = 'idle' | 'connecting' | 'open' | 'closed';

export interface LiveHandlers {
  onData(data: unknown): void;
  /** Messages may have been missed (reconnect or a gap in seq): refetch the HTTP snapshot. */
  onResync?(): void;
}

export interface LiveClientOptions {
  url: () => string;
  createSocket: (url: string) => SocketLike;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** 0–1, for the jitter; Math.random by default. */
  random?: () => number;
  /** Close the socket this long after the last channel is released. */
  idleCloseMs?: number;
  /**
   * The server ended the account channel because its session no longer signs in (session_invalid,
   * account_blocked: both -1000 over HTTP): the request wrapper's reaction to -1000 (RequestDeps).
   */
  onSessionInvalid?: () => void;
}

const socketOpen = 1;

/**
 * Delay before reconnect attempt `attempt` (0-based): initial·2^attempt capped at max, then scaled
 * by a jitter factor between 0.5 and 1 so that many clients do not reconnect in step.
 */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number, random: () => number): number {
  const base = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(base * (0.5 + random() * 0.5));
}

/** Why the server ends an account channel: the codes that answer -1000 over HTTP. */
const sessionErrors: ReadonlySet<unknown> = new Set<ErrorCode>(['session_invalid', 'account_blocked']);

/** A channel's message, 'session_ended' for {op: 'unsubscribed', channels: ['account'], error}, or null. */
function parseMessage(raw: unknown): StreamUpdate | 'session_ended' | null {
  if (typeof raw !== 'string') return null;
  try {
    const value = JSON.parse(raw) as Partial<StreamUpdate> & { op?: unknown; channels?: unknown; error?: unknown };
    if (value.op === 'unsubscribed') {
      // The account and chat channels both end with their session.
      const isAccount =
        Array.isArray(value.channels) && (value.channels.includes('account') || value.channels.includes('chat'));
      return isAccount && sessionErrors.has(value.error) ? 'session_ended' : null;
    }
    if (typeof value.channel !== 'string' || typeof value.seq !== 'number') return null;
    return { channel: value.channel, seq: value.seq, data: value.data };
  } catch {
    return null;
  }
}

export class LiveClient {
  private readonly options: Required<LiveClientOptions>;
  private socket: SocketLike | null = null;
  private status: LiveStatus = 'idle';
  private attempt = 0;
  private hasBeenOpen = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly channels = new Map<string, Set<LiveHandlers>>();
  private readonly lastSeq = new Map<string, number>();
  private readonly statusListeners = new Set<(status: LiveStatus) => void>();

  constructor(options: LiveClientOptions) {
    this.options = {
      initialBackoffMs: 1_000,
      maxBackoffMs: 30_000,
      random: Math.random,
      idleCloseMs: 10_000,
      onSessionInvalid: () => {},
      ...options,
    };
  }

  getStatus(): LiveStatus {
    return this.status;
  }

  onStatus(listener: (status: LiveStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Listens to a channel ("ticker:NSE:RELIANCE"); returns the function that stops listening. */
  subscribe(channel: string, handlers: LiveHandlers): () => void {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    let set = this.channels.get(channel);
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
      if (this.isOpen()) this.send({ op: 'subscribe', channels: [channel] });
    }
    set.add(handlers);
    if (!this.socket && !this.reconnectTimer) this.connect();
    return () => this.release(channel, handlers);
  }

  /** Tells the server this side is typing on a chat channel it holds; dropped while the socket is not open. */
  typing(channel: string, conversationId?: number): void {
    if (!this.isOpen() || !this.channels.has(channel)) return;
    this.send(conversationId === undefined ? { op: 'typing', channel } : { op: 'typing', channel, conversationId });
  }

  /** Closes the connection and forgets every channel (tests, sign-out). */
  destroy(): void {
    this.channels.clear();
    this.lastSeq.clear();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.reconnectTimer = null;
    this.idleTimer = null;
    this.closeSocket();
    this.setStatus('idle');
  }

  private release(channel: string, handlers: LiveHandlers): void {
    const set = this.channels.get(channel);
    if (!set?.delete(handlers) || set.size > 0) return;
    this.channels.delete(channel);
    this.lastSeq.delete(channel);
    if (this.isOpen()) this.send({ op: 'unsubscribe', channels: [channel] });
    if (this.channels.size === 0 && !this.idleTimer) {
      this.idleTimer = setTimeout(() => {
        this.idleTimer = null;
        if (this.channels.size > 0) return;
        if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
        this.reconnectTimer = null;
        this.closeSocket();
        this.attempt = 0;
        this.setStatus('idle');
      }, this.options.idleCloseMs);
    }
  }

  private isOpen(): boolean {
    return this.status === 'open' && this.socket?.readyState === socketOpen;
  }

  private setStatus(status: LiveStatus): void {
    if (this.status === status) return;
    this.status = status;
    for (const listener of this.statusListeners) listener(status);
  }

  private send(message: StreamCommand): void {
    try {
      this.socket?.send(JSON.stringify(message));
    } catch {
      // a socket closing under us: the close handler reconnects
    }
  }

  private closeSocket(): void {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
    try {
      socket.close();
    } catch {
      // already closed
    }
  }

  private connect(): void {
    this.reconnectTimer = null;
    if (this.channels.size === 0) {
      this.setStatus('idle');
      return;
    }
    this.setStatus('connecting');
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(this.options.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.setStatus('open');
      this.lastSeq.clear();
      if (this.channels.size > 0) this.send({ op: 'subscribe', channels: [...this.channels.keys()] });
      if (this.hasBeenOpen) this.resync([...this.channels.keys()]);
      this.hasBeenOpen = true;
    };
    socket.onmessage = (event) => this.handleMessage(event.data);
    socket.onerror = () => {
      // onclose follows and reconnects
    };
    socket.onclose = () => {
      this.socket = null;
      this.setStatus('closed');
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.channels.size === 0) {
      if (this.channels.size === 0) this.setStatus('idle');
      return;
    }
    const { initialBackoffMs, maxBackoffMs, random } = this.options;
    const delay = backoffDelay(this.attempt, initialBackoffMs, maxBackoffMs, random);
    this.attempt += 1;
    this.setStatus('closed');
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private resync(channels: string[]): void {
    for (const channel of channels) {
      for (const handlers of [...(this.channels.get(channel) ?? [])]) handlers.onResync?.();
    }
  }

  private handleMessage(raw: unknown): void {
    const message = parseMessage(raw);
    if (!message) return;
    if (message === 'session_ended') {
      this.options.onSessionInvalid();
      return;
    }
    // A stable connection that delivers data: the next failure starts the back-off again.
    this.attempt = 0;
    const handlers = this.channels.get(message.channel);
    if (!handlers) return;
    const previous = this.lastSeq.get(message.channel);
    if (previous !== undefined && message.seq <= previous) return; // duplicate or out of order
    this.lastSeq.set(message.channel, message.seq);
    if (previous !== undefined && message.seq > previous + 1) {
      // Missed messages: subscribe again (the server restarts the channel) and refetch over HTTP.
      this.lastSeq.delete(message.channel);
      this.send({ op: 'subscribe', channels: [message.channel] });
      this.resync([message.channel]);
    }
    for (const handler of [...handlers]) handler.onData(message.data);
  }
}

/** Channel names of the server (SPEC-free: our own protocol). */
export const channels = {
  ticker: (symbol: string) => `ticker:${symbol}`,
  candles: (symbol: string, interval: string) => `candles:${symbol}:${interval}`,
  book: (symbol: string) => `book:${symbol}`,
  trades: (symbol: string) => `trades:${symbol}`,
};
