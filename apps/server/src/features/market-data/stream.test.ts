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

it("tells a signed-in user's own account channel when an order changes their account, and nobody else", async () => {
  const token = (await t.register('9000000301')).body.data.token as string;
  await t.call('POST', '/user/update/tradePassword', {
    token,
    body: { password: '246810', confirmPassword: '246810', loginPassword: 'secret12' },
  });
  const other = (await t.register('9000000302')).body.data.token as string;
  // Let the sign-up grants' notifications (batched per event-loop turn) go out before subscribing.
  await new Promise((resolve) => setImmediate(resolve));
  const mine = await t.app.http.injectWS('/ipor-api/ws');
  const theirs = await t.app.http.injectWS('/ipor-api/ws');
  const got: { op?: string; channel?: string; seq?: number; refused?: string[] }[] = [];
  const gotOther: typeof got = [];
  mine.on('message', (raw) => got.push(JSON.parse(String(raw))));
  theirs.on('message', (raw) => gotOther.push(JSON.parse(String(raw))));
  mine.send(JSON.stringify({ op: 'subscribe', channels: [`account:${token}`, 'account:not-a-session'] }));
  theirs.send(JSON.stringify({ op: 'subscribe', channels: [`account:${other}`] }));
  await expect.poll(() => got.find((m) => m.op === 'subscribed')).toBeTruthy();
  await expect.poll(() => gotOther.find((m) => m.op === 'subscribed')).toBeTruthy();
  // A refused session token is not echoed back.
  expect(got.find((m) => m.op === 'subscribed')?.refused).toEqual(['account']);

  const placed = await t.call('POST', '/stock/order/buy', {
    token,
    body: { symbol: 'NSE:INFY', orderType: 'market', quantity: '1', password: '246810' },
  });
  expect(placed.body.code).toBe(0);
  await expect.poll(() => got.filter((m) => m.channel === `account:${token}`).length).toBeGreaterThan(0);
  expect(got.find((m) => m.channel === `account:${token}`)?.seq).toBe(1);
  expect(gotOther.filter((m) => m.channel?.startsWith('account:'))).toEqual([]);
  mine.terminate();
  theirs.terminate();
});
