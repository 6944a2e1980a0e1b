// The messages of the live stream at /ipor-api/ws, both ways. Channels are `ticker:<id>`,
// `candles:<id>:<interval>`, `trades:<id>`, `book:<id>`, `account:<session token>`, and the support
// chat's `chat:<session token>` and `chat-staff:<staff session token>`; an update's `data` is the
// channel's HTTP shape (QuoteView, CandleView, TradeView, BookView; the account channel's is only a
// nudge to refetch, the chat channels' a ChatStreamEvent). Types only: the server writes these.

import type { ErrorCode } from './errors.ts';

/** What a client sends. */
export type StreamCommand =
  | { op: 'subscribe' | 'unsubscribe'; channels: string[] }
  | { op: 'ping' }
  /** On a chat channel the socket holds; the desk names the conversation. */
  | { op: 'typing'; channel: string; conversationId?: number };

/** A channel's update; `seq` counts per channel, and a gap tells the client to refetch over HTTP. */
export type StreamUpdate<T = unknown> = { channel: string; seq: number; data: T };

/** The server's answers to commands, and an account channel ended with its session. */
export type StreamReply =
  | { op: 'subscribed'; channels: string[]; refused: string[] }
  | { op: 'unsubscribed'; channels: string[]; error: ErrorCode }
  | { op: 'pong' }
  | { error: ErrorCode };

export type StreamMessage = StreamUpdate | StreamReply;
