// The WebSocket fan-out bench's reference (a child process): a bare Fastify server with the same
// WebSocket plugin and settings as the real server's /ipor-api/ws, taking the same subscribe command
// and publishing the same way (stream.ts: one JSON.stringify per channel and update, then a send to each
// subscriber whose backlog is under 1 MiB), and doing nothing else: no market, no engine, no database.
// POST /ipor-api/payloads sets each channel's data (the real server's own ticker and book answers, fetched by the
// bench); POST /ipor-api/tick {time} publishes every subscribed channel once, the ticker with that time. What
// the real server does beyond this (the market's step, the venue, the quotes and books) is measured.
// Run by ws-bench.ts: node bench/ws-reference.ts PORT (prints "listening" when ready).

import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import type { WebSocket } from 'ws';
import { tuneV8 } from '../apps/server/src/platform/v8-tuning.ts';

tuneV8();

const MAX_BUFFERED_BYTES = 1_048_576;
const app = Fastify({ logger: false, bodyLimit: 16 * 1_048_576 });
await app.register(websocket, { options: { maxPayload: 65_536 } });

const subscribers = new Map<string, Set<WebSocket>>();
const seqs = new Map<string, number>();
let payloads: Record<string, Record<string, unknown>> = {};

const publish = (channel: string, data: unknown) => {
  const sockets = subscribers.get(channel);
  if (!sockets || sockets.size === 0) return;
  const seq = (seqs.get(channel) ?? 0) + 1;
  seqs.set(channel, seq);
  const message = JSON.stringify({ channel, seq, data });
  for (const socket of sockets) if (socket.bufferedAmount < MAX_BUFFERED_BYTES) socket.send(message);
};

app.get('/ipor-api/ws', { websocket: true }, (socket: WebSocket) => {
  const mine = new Set<string>();
  socket.on('message', (raw) => {
    const msg = JSON.parse(String(raw)) as { op?: string; channels?: string[] };
    if (msg.op !== 'subscribe' || !Array.isArray(msg.channels)) return;
    for (const channel of msg.channels) {
      if (!(channel in payloads)) continue;
      mine.add(channel);
      const set = subscribers.get(channel) ?? new Set<WebSocket>();
      subscribers.set(channel, set);
      set.add(socket);
    }
    socket.send(JSON.stringify({ op: 'subscribed', channels: [...mine], refused: [] }));
  });
  socket.on('close', () => {
    for (const channel of mine) subscribers.get(channel)?.delete(socket);
  });
});

app.post('/ipor-api/payloads', async (req) => {
  payloads = req.body as typeof payloads;
  return { ok: true };
});

app.post('/ipor-api/tick', async (req) => {
  const { time } = req.body as { time: number };
  // As the real stream: each instrument's ticker, then its book.
  for (const [channel, data] of Object.entries(payloads)) {
    publish(channel, channel.startsWith('ticker:') ? { ...data, time } : data);
  }
  return { now: time };
});

await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
console.log('listening');
