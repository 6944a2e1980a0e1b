// The live client's rules with a fake socket and fake timers: subscribe on open, exponential back-off
// with jitter and a cap, resubscribe + resync after a reconnect, gap and duplicate handling per
// channel, unsubscribe and idle close, and the session's end when the server drops the account channel.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, LiveClient, type SocketLike } from './live.ts';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: unknown[] = [];
  isClosed = false;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.isClosed = true;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
  message(channel: string, seq: number, data: unknown) {
    this.onmessage?.({ data: JSON.stringify({ channel, seq, data }) });
  }
}

let sockets: FakeSocket[];
let client: LiveClient;
let sessionsEnded: number;

function makeClient() {
  return new LiveClient({
    onSessionInvalid: () => {
      sessionsEnded += 1;
    },
    url: () => 'ws://test/ipor-api/ws',
    createSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    initialBackoffMs: 1000,
    maxBackoffMs: 8000,
    random: () => 1, // no jitter: factor 1
    idleCloseMs: 5000,
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  sessionsEnded = 0;
  client = makeClient();
});

afterEach(() => {
  client.destroy();
  vi.useRealTimers();
});

describe('backoffDelay', () => {
  it('doubles from the initial delay up to the cap, scaled by 0.5–1 jitter', () => {
    const full = () => 1;
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelay(a, 1000, 8000, full))).toEqual([
      1000, 2000, 4000, 8000, 8000, 8000,
    ]);
    expect(backoffDelay(2, 1000, 8000, () => 0)).toBe(2000);
    expect(backoffDelay(0, 1000, 8000, () => 0.5)).toBe(750);
  });
});

describe('LiveClient', () => {
  it('connects on the first subscription and subscribes every channel on open', () => {
    const onData = vi.fn();
    client.subscribe('ticker:NSE:RELIANCE', { onData });
    client.subscribe('book:NSE:RELIANCE', { onData });
    expect(sockets).toHaveLength(1);
    expect(client.getStatus()).toBe('connecting');
    sockets[0]?.open();
    expect(client.getStatus()).toBe('open');
    expect(sockets[0]?.sent).toEqual([{ op: 'subscribe', channels: ['ticker:NSE:RELIANCE', 'book:NSE:RELIANCE'] }]);
    sockets[0]?.message('ticker:NSE:RELIANCE', 1, { price: '1' });
    expect(onData).toHaveBeenCalledWith({ price: '1' });
  });

  it('reconnects with growing delays, then resubscribes and asks listeners to resync', () => {
    const onResync = vi.fn();
    client.subscribe('ticker:X', { onData: vi.fn(), onResync });
    sockets[0]?.open();
    expect(onResync).not.toHaveBeenCalled();
    sockets[0]?.drop();
    expect(client.getStatus()).toBe('closed');
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1]?.drop(); // fails again: next wait is 2 s
    vi.advanceTimersByTime(1999);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    sockets[2]?.open();
    expect(sockets[2]?.sent).toEqual([{ op: 'subscribe', channels: ['ticker:X'] }]);
    expect(onResync).toHaveBeenCalledTimes(1);
  });

  it('caps the delay and resets it once messages flow again', () => {
    client.subscribe('ticker:X', { onData: vi.fn() });
    for (let i = 0; i < 6; i += 1) {
      sockets[sockets.length - 1]?.drop();
      vi.advanceTimersByTime(8000);
    }
    const count = sockets.length;
    sockets[count - 1]?.drop();
    vi.advanceTimersByTime(7999);
    expect(sockets).toHaveLength(count);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(count + 1);
    const socket = sockets[count];
    socket?.open();
    socket?.message('ticker:X', 1, {});
    socket?.drop();
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(count + 2);
  });

  it('detects a gap in seq: resubscribes that channel, resyncs and still delivers the data', () => {
    const onData = vi.fn();
    const onResync = vi.fn();
    client.subscribe('trades:X', { onData, onResync });
    const socket = sockets[0] as FakeSocket;
    socket.open();
    socket.sent = [];
    socket.message('trades:X', 5, 'a');
    socket.message('trades:X', 6, 'b');
    expect(onResync).not.toHaveBeenCalled();
    socket.message('trades:X', 9, 'c');
    expect(onResync).toHaveBeenCalledTimes(1);
    expect(socket.sent).toEqual([{ op: 'subscribe', channels: ['trades:X'] }]);
    expect(onData.mock.calls.map((c) => c[0])).toEqual(['a', 'b', 'c']);
    // After resubscribing, the channel may restart its numbering.
    socket.message('trades:X', 1, 'd');
    socket.message('trades:X', 2, 'e');
    expect(onResync).toHaveBeenCalledTimes(1);
    expect(onData).toHaveBeenCalledTimes(5);
  });

  it('ignores duplicates, old messages, other channels and junk', () => {
    const onData = vi.fn();
    client.subscribe('ticker:X', { onData });
    const socket = sockets[0] as FakeSocket;
    socket.open();
    socket.message('ticker:X', 3, 'a');
    socket.message('ticker:X', 3, 'dup');
    socket.message('ticker:X', 2, 'old');
    socket.message('ticker:Y', 1, 'other');
    socket.onmessage?.({ data: 'not json' });
    socket.onmessage?.({ data: '{"channel":"ticker:X"}' });
    expect(onData.mock.calls.map((c) => c[0])).toEqual(['a']);
  });

  it('tracks seq per channel', () => {
    const onResync = vi.fn();
    client.subscribe('ticker:A', { onData: vi.fn(), onResync });
    client.subscribe('ticker:B', { onData: vi.fn(), onResync });
    const socket = sockets[0] as FakeSocket;
    socket.open();
    socket.message('ticker:A', 1, {});
    socket.message('ticker:B', 40, {});
    socket.message('ticker:A', 2, {});
    socket.message('ticker:B', 41, {});
    expect(onResync).not.toHaveBeenCalled();
  });

  it('unsubscribes the last listener of a channel and closes the socket when idle', () => {
    const stopA = client.subscribe('ticker:A', { onData: vi.fn() });
    const stopA2 = client.subscribe('ticker:A', { onData: vi.fn() });
    const socket = sockets[0] as FakeSocket;
    socket.open();
    socket.sent = [];
    stopA();
    expect(socket.sent).toEqual([]);
    stopA2();
    expect(socket.sent).toEqual([{ op: 'unsubscribe', channels: ['ticker:A'] }]);
    vi.advanceTimersByTime(4999);
    expect(socket.isClosed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.isClosed).toBe(true);
    expect(client.getStatus()).toBe('idle');
  });

  it('keeps the socket when a channel is subscribed again before the idle close', () => {
    const stop = client.subscribe('ticker:A', { onData: vi.fn() });
    const socket = sockets[0] as FakeSocket;
    socket.open();
    stop();
    vi.advanceTimersByTime(3000);
    client.subscribe('ticker:B', { onData: vi.fn() });
    vi.advanceTimersByTime(10_000);
    expect(socket.isClosed).toBe(false);
    expect(socket.sent.at(-1)).toEqual({ op: 'subscribe', channels: ['ticker:B'] });
  });

  it('stops reconnecting when nothing is subscribed', () => {
    const stop = client.subscribe('ticker:A', { onData: vi.fn() });
    sockets[0]?.drop();
    stop();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(client.getStatus()).toBe('idle');
  });

  it('ends the session as a -1000 answer does when the server drops the account channel (session_invalid, account_blocked); the market goes on', () => {
    const onAccount = vi.fn();
    const onTicker = vi.fn();
    client.subscribe('account:tok-1', { onData: onAccount });
    client.subscribe('ticker:X', { onData: onTicker });
    const socket = sockets[0] as FakeSocket;
    socket.open();
    socket.message('account:tok-1', 1, { changed: true });
    const ended = (error: unknown, channels: unknown = ['account']) =>
      socket.onmessage?.({ data: JSON.stringify({ op: 'unsubscribed', channels, error }) });
    // Not a session's end: another channel, another reason, or no reason.
    ended('session_invalid', ['ticker:X']);
    ended('too_many_channels');
    ended(undefined);
    expect(sessionsEnded).toBe(0);
    ended('session_invalid');
    expect(sessionsEnded).toBe(1);
    ended('account_blocked');
    expect(sessionsEnded).toBe(2);
    socket.message('ticker:X', 1, 'still live');
    expect(onTicker).toHaveBeenCalledWith('still live');
    expect(onAccount.mock.calls).toEqual([[{ changed: true }]]);
    expect(socket.isClosed).toBe(false);
  });

  it('sends typing only on a chat channel it holds while open, and ends the session when the chat channel is dropped', () => {
    client.typing('chat:tok-1');
    client.subscribe('chat:tok-1', { onData: vi.fn() });
    const socket = sockets[0] as FakeSocket;
    client.typing('chat:tok-1'); // not open yet: dropped
    socket.open();
    client.typing('chat:tok-2'); // not held: dropped
    client.typing('chat:tok-1');
    client.typing('chat-staff:t', 7);
    expect(socket.sent.filter((m) => (m as { op: string }).op === 'typing')).toEqual([
      { op: 'typing', channel: 'chat:tok-1' },
    ]);
    socket.onmessage?.({ data: JSON.stringify({ op: 'unsubscribed', channels: ['chat'], error: 'account_blocked' }) });
    expect(sessionsEnded).toBe(1);
  });

  it('reports status changes to listeners', () => {
    const statuses: string[] = [];
    client.onStatus((s) => statuses.push(s));
    client.subscribe('ticker:A', { onData: vi.fn() });
    sockets[0]?.open();
    sockets[0]?.drop();
    expect(statuses).toEqual(['connecting', 'open', 'closed']);
  });
});
