// The WebSocket stream: a client subscribes to channels and receives {channel, seq, data} messages
// with consecutive sequence numbers as the market moves; unknown channels are refused. A customer's
// own account channel lasts only as long as their session: blocked, signed out, revoked or expired,
// it is dropped with the reason, on SQLite and PostgreSQL.

import { type Db, openDb, testDatabases } from '@bourse/db';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { SESSION_TTL_MS } from '../accounts/service.ts';
import { DEMO_STAFF } from '../demo/seed.ts';

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

it('reads no book nobody subscribed to, so the market moving makes the paper venue requote nothing', async () => {
  // Each ticker used to build its book's view for subscribers that were not there, which marked every
  // book watched and had the market maker requote it every few seconds for nobody; and the venue took
  // its own quotes for a customer's order the price had reached. Either alone fails this (8,369 and
  // 7,229 commands instead of none).
  const seq = t.app.engine.seq;
  for (let i = 0; i < 60; i++) {
    t.clock.advance(1_000);
    await t.app.market.pump();
    await t.app.venue.sync();
  }
  expect(t.app.engine.seq).toBe(seq);
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

describe.each(await testDatabases())('account channel after the session ends, on $dialect', ({ open }) => {
  let app: Awaited<ReturnType<typeof testApp>>;
  let db: Db;
  afterEach(async () => {
    await app.close();
    await db.close();
  });

  type Message = { op?: string; channel?: string; channels?: string[]; refused?: string[]; error?: string };
  /** A socket subscribed to this session's account channel and to a ticker, with what it received. */
  const subscribed = async (token: string) => {
    const ws = await app.app.http.injectWS('/ipor-api/ws');
    const got: Message[] = [];
    ws.on('message', (raw) => got.push(JSON.parse(String(raw))));
    ws.send(JSON.stringify({ op: 'subscribe', channels: [`account:${token}`, 'ticker:NSE:INFY'] }));
    await expect.poll(() => got.find((m) => m.op === 'subscribed')?.channels).toEqual(['account', 'ticker:NSE:INFY']);
    return { ws, got, account: () => got.filter((m) => m.channel === `account:${token}`) };
  };
  let deposits = 0;
  /** A ledger transfer to the user: an account event, as a fill or a deposit would be. */
  const deposit = async (userId: number) => {
    const result = await app.app.engine.submit({
      type: 'deposit',
      id: `stream-test-deposit:${++deposits}`,
      userId: String(userId),
      wallet: 'stock',
      asset: 'INR',
      amount: '1.00',
      from: 'faucet',
      cause: 'paper_grant',
      link: `user:${userId}`,
    });
    expect(result.ok).toBe(true);
    // Past the stream's batching (one event-loop turn) and its session check.
    await new Promise((resolve) => setTimeout(resolve, 300));
  };
  const customer = async (phone: string) => {
    const { token, user } = (await app.register(phone)).body.data;
    await new Promise((resolve) => setImmediate(resolve)); // the sign-up grants' notifications go out first
    return { token: token as string, userId: user.id as number };
  };

  it('drops a blocked customer’s account channel at once, says why, and keeps their market channels', async () => {
    db = await open();
    app = await testApp(db);
    const { token, userId } = await customer('9000000311');
    const socket = await subscribed(token);
    await deposit(userId);
    expect(socket.account()).toHaveLength(1);

    const staff = (
      await app.call('POST', '/admin/auth/login', {
        json: {
          username: DEMO_STAFF.username,
          password: DEMO_STAFF.password,
          totpCode: totpNow(DEMO_STAFF.totpSecret, app.clock.now()),
        },
      })
    ).body.data.token as string;
    const block = { userId, status: 0, reason: 'stream test' };
    expect((await app.call('POST', '/admin/users/status', { token: staff, json: block })).body.code).toBe(0);
    await expect
      .poll(() => socket.got.find((m) => m.op === 'unsubscribed'))
      .toEqual({ op: 'unsubscribed', channels: ['account'], error: 'account_blocked' });
    await deposit(userId);
    expect(socket.account()).toHaveLength(1);
    // Subscribing again with that session is refused.
    const again = await app.app.http.injectWS('/ipor-api/ws');
    const answers: Message[] = [];
    again.on('message', (raw) => answers.push(JSON.parse(String(raw))));
    again.send(JSON.stringify({ op: 'subscribe', channels: [`account:${token}`] }));
    await expect.poll(() => answers.find((m) => m.op === 'subscribed')?.refused).toEqual(['account']);
    // The check has no effect of its own: the customer's next request still says the account is blocked.
    expect((await app.call('GET', '/user/login/info', { token })).body.error).toBe('account_blocked');
    // Public market data goes on, as it does for anyone without a session.
    const tickers = socket.got.filter((m) => m.channel === 'ticker:NSE:INFY').length;
    await app.advance(2_000);
    await expect.poll(() => socket.got.filter((m) => m.channel === 'ticker:NSE:INFY').length).toBeGreaterThan(tickers);
    socket.ws.terminate();
    again.terminate();
  });

  it('drops the account channel of a session signed out or revoked, and of one that has expired', async () => {
    db = await open();
    app = await testApp(db);
    const signedOut = await customer('9000000312');
    const revoked = await customer('9000000313');
    const expired = await customer('9000000314');
    const sockets = [
      await subscribed(signedOut.token),
      await subscribed(revoked.token),
      await subscribed(expired.token),
    ];
    const [outSocket, revokedSocket, expiredSocket] = sockets as [
      Awaited<ReturnType<typeof subscribed>>,
      Awaited<ReturnType<typeof subscribed>>,
      Awaited<ReturnType<typeof subscribed>>,
    ];
    const dropped = { op: 'unsubscribed', channels: ['account'], error: 'session_invalid' };

    expect((await app.call('POST', '/user/logout', { token: signedOut.token })).body.code).toBe(0);
    await expect.poll(() => outSocket.got.find((m) => m.op === 'unsubscribed')).toEqual(dropped);

    // Revoked from another device of the same customer.
    const other = (
      await app.call('POST', '/user/login', { body: { areaCode: '91', phone: '9000000313', password: 'secret12' } })
    ).body.data.token as string;
    const list = (await app.call('GET', '/user/sessions', { token: other })).body.data.items as {
      id: string;
      current: boolean;
    }[];
    const first = list.find((s) => !s.current)!;
    expect((await app.call('POST', '/user/sessions/revoke', { token: other, body: { id: first.id } })).body.code).toBe(
      0,
    );
    await expect.poll(() => revokedSocket.got.find((m) => m.op === 'unsubscribed')).toEqual(dropped);

    // A session past its 30 days ends without any change to tell about: its next event finds it ended.
    app.clock.advance(SESSION_TTL_MS + 1);
    await deposit(expired.userId);
    expect(expiredSocket.got.find((m) => m.op === 'unsubscribed')).toEqual(dropped);

    await deposit(signedOut.userId);
    await deposit(revoked.userId);
    for (const socket of sockets) expect(socket.account()).toEqual([]);
    for (const socket of sockets) socket.ws.terminate();
  });
});
