// The WebSocket stream: a client subscribes to channels and receives {channel, seq, data} messages
// with consecutive sequence numbers as the market moves; unknown channels are refused.

import { openDb } from '@bourse/db';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testApp } from '../../testing.ts';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp(await openDb({ dataDir: null }));
  await t.app.http.ready();
});
afterAll(() => t.close());

it('streams ticker and candle updates with per-channel sequence numbers', async () => {
  const ws = await t.app.http.injectWS('/ipor-api/ws');
  const messages: { channel?: string; seq?: number; op?: string; refused?: string[]; data?: { symbol?: string } }[] =
    [];
  ws.on('message', (raw) => messages.push(JSON.parse(String(raw))));
  ws.send(JSON.stringify({ op: 'subscribe', channels: ['ticker:NSE:INFY', 'candles:NSE:INFY:1m', 'ticker:NOPE:X'] }));
  await expect.poll(() => messages.find((m) => m.op === 'subscribed')).toBeTruthy();
  expect(messages.find((m) => m.op === 'subscribed')?.refused).toEqual(['ticker:NOPE:X']);

  for (let i = 0; i < 3; i++) {
    t.clock.advance(2_000);
    await t.app.market.pump();
  }
  await expect.poll(() => messages.filter((m) => m.channel === 'ticker:NSE:INFY').length).toBe(3);
  const tickers = messages.filter((m) => m.channel === 'ticker:NSE:INFY');
  expect(tickers.map((m) => m.seq)).toEqual([1, 2, 3]);
  expect(tickers[0]?.data?.symbol).toBe('INFY');
  expect(messages.some((m) => m.channel === 'candles:NSE:INFY:1m')).toBe(true);
  ws.terminate();
});
