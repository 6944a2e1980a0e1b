// API tests of the Binance-shaped trading API (/api/v3) on SQLite and PostgreSQL: the public market data
// in Binance's shapes, and the SIGNED calls' gate: a wrong signature, a stale or early timestamp, a
// revoked or unknown key, a read key trading, an address off the allow-list, and the per-key weight
// limit, each refused with Binance's {code, msg} and nothing done.

import type { Db } from '@bourse/db';
import { testDatabases } from '@bourse/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STOCK_GRANTS_ONLY, testApp } from '../../testing.ts';
import { hmacHex } from './signing.ts';

const dbs = await testDatabases();
type T = Awaited<ReturnType<typeof testApp>>;
const PIN = '246810';
const KEY_LIMIT = 100;

describe.each(dbs)('the trading API on $dialect', ({ open }) => {
  let t: T;
  let db: Db;
  beforeAll(async () => {
    db = await open();
    t = await testApp(db, { openApiLimits: { perKeyPerMin: KEY_LIMIT, publicPerIpPerMin: 1_000_000 } });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  const get = async (path: string, headers: Record<string, string> = {}, remoteAddress?: string) => {
    const res = await t.app.http.inject({
      method: 'GET',
      url: `/api/v3${path}`,
      headers,
      ...(remoteAddress ? { remoteAddress } : {}),
    });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };
  /** A SIGNED call as a Binance client makes it: parameters + timestamp, signature last. */
  const signed = async (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    key: { apiKey: string; secret: string },
    params: Record<string, string> = {},
    opts: { timestamp?: number; sign?: (query: string) => string; remoteAddress?: string } = {},
  ) => {
    const query = new URLSearchParams({ ...params, timestamp: String(opts.timestamp ?? t.clock.now()) }).toString();
    const signature = opts.sign ? opts.sign(query) : hmacHex(key.secret, query);
    const full = `${query}&signature=${signature}`;
    const inBody = method === 'POST';
    const res = await t.app.http.inject({
      method,
      url: `/api/v3${path}${inBody ? '' : `?${full}`}`,
      headers: {
        'x-mbx-apikey': key.apiKey,
        ...(inBody ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(inBody ? { payload: full } : {}),
      ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
    });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };
  const customerKey = async (phone: string, fields: Record<string, string> = {}) => {
    const token = (await t.register(phone)).body.data.token as string;
    await t.call('POST', '/user/update/tradePassword', {
      token,
      body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
    });
    const made = await t.call('POST', '/user/apikey/add', { token, body: { label: 'bot', password: PIN, ...fields } });
    expect(made.body.code, JSON.stringify(made.body)).toBe(0);
    return {
      token,
      id: made.body.data.key.id as number,
      apiKey: made.body.data.key.apiKey as string,
      secret: made.body.data.secret as string,
    };
  };

  describe('public market data', () => {
    it('answers ping and the server time', async () => {
      expect(await get('/ping')).toMatchObject({ status: 200, body: {} });
      expect((await get('/time')).body).toEqual({ serverTime: t.clock.now() });
    });

    it('describes every USDT pair with Binance’s filters', async () => {
      const { body, headers } = await get('/exchangeInfo');
      expect(headers['x-mbx-used-weight-1m']).toBeDefined();
      expect(body.timezone).toBe('UTC');
      const symbols = body.symbols.map((s: { symbol: string }) => s.symbol);
      for (const base of ['BTC', 'ETH', 'SOL', 'BNB', 'XRP', 'DOGE', 'LTC', 'LINK', 'AVAX', 'DOT'])
        expect(symbols).toContain(`${base}USDT`);
      const btc = body.symbols.find((s: { symbol: string }) => s.symbol === 'BTCUSDT');
      expect(btc).toMatchObject({ baseAsset: 'BTC', quoteAsset: 'USDT', isSpotTradingAllowed: expect.any(Boolean) });
      const filter = (type: string) => btc.filters.find((f: { filterType: string }) => f.filterType === type);
      expect(filter('PRICE_FILTER')).toMatchObject({ tickSize: expect.stringMatching(/^\d+(\.\d+)?$/) });
      expect(filter('LOT_SIZE')).toMatchObject({ stepSize: expect.stringMatching(/^\d+(\.\d+)?$/) });
      expect(filter('NOTIONAL').minNotional).toMatch(/^\d+(\.\d+)?$/);
      expect(filter('MIN_NOTIONAL').minNotional).toBe(filter('NOTIONAL').minNotional);
      // One symbol, or a JSON list of them.
      expect((await get('/exchangeInfo?symbol=ETHUSDT')).body.symbols).toHaveLength(1);
      expect((await get('/exchangeInfo?symbols=%5B%22ETHUSDT%22,%22BTCUSDT%22%5D')).body.symbols).toHaveLength(2);
    });

    it('answers the book, trades, klines and tickers in Binance’s shapes', async () => {
      await t.advance(5 * 60_000);
      const depth = (await get('/depth?symbol=BTCUSDT&limit=5')).body;
      expect(depth).toMatchObject({
        lastUpdateId: expect.any(Number),
        bids: expect.any(Array),
        asks: expect.any(Array),
      });
      expect(depth.bids.length).toBeLessThanOrEqual(5);

      const trades = (await get('/trades?symbol=BTCUSDT&limit=3')).body;
      expect(Array.isArray(trades)).toBe(true);
      for (const trade of trades)
        expect(trade).toMatchObject({
          id: expect.any(Number),
          price: expect.any(String),
          qty: expect.any(String),
          isBuyerMaker: expect.any(Boolean),
        });

      const klines = (await get('/klines?symbol=BTCUSDT&interval=1m&limit=10')).body;
      expect(klines).toHaveLength(10);
      const [openTime, o, h, l, c, v, closeTime] = klines[9];
      expect(closeTime - openTime).toBe(59_999);
      expect(Number(h)).toBeGreaterThanOrEqual(Math.max(Number(o), Number(c), Number(l)));
      expect(v).toMatch(/^\d+(\.\d+)?$/);
      expect(klines[0][0]).toBeLessThan(klines[9][0]);
      // From a start time: the candles after it, oldest first.
      const since = klines[2][0];
      const after = (await get(`/klines?symbol=BTCUSDT&interval=1m&startTime=${since}&limit=3`)).body;
      expect(after.map((k: number[]) => k[0])).toEqual([klines[2][0], klines[3][0], klines[4][0]]);

      const ticker = (await get('/ticker/24hr?symbol=BTCUSDT')).body;
      expect(ticker).toMatchObject({ symbol: 'BTCUSDT', lastPrice: expect.stringMatching(/^\d+(\.\d+)?$/) });
      expect((await get('/ticker/24hr')).body.length).toBeGreaterThanOrEqual(10);
      const price = (await get('/ticker/price?symbol=ETHUSDT')).body;
      expect(price).toEqual({ symbol: 'ETHUSDT', price: expect.stringMatching(/^\d+(\.\d+)?$/) });
      const book = (await get('/ticker/bookTicker?symbol=ETHUSDT')).body;
      expect(Object.keys(book)).toEqual(['symbol', 'bidPrice', 'bidQty', 'askPrice', 'askQty']);
    });

    it('refuses a bad symbol, interval or limit, and an unknown path, in Binance’s shape', async () => {
      expect(await get('/depth?symbol=NOPEUSDT')).toMatchObject({
        status: 400,
        body: { code: -1121, msg: 'Invalid symbol.' },
      });
      expect((await get('/depth')).body).toEqual({
        code: -1102,
        msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed.",
      });
      expect((await get('/klines?symbol=BTCUSDT&interval=3m')).body).toEqual({ code: -1120, msg: 'Invalid interval.' });
      expect((await get('/depth?symbol=BTCUSDT&limit=0')).body.code).toBe(-1100);
      // A stock is not a pair of the exchange.
      expect((await get('/ticker/price?symbol=RELIANCE')).body.code).toBe(-1121);
      for (const path of ['/api/v3/nothing', '/api/v1/ping', '/api/']) {
        const res = await t.app.http.inject({ method: 'GET', url: path });
        expect(res.statusCode, path).toBe(404);
        expect(res.json(), path).toEqual({ code: -1000, msg: 'Path not found.' });
      }
    });
  });

  describe('signed calls', () => {
    it('answers the account’s spot balances to a valid signature, and records the key’s use', async () => {
      const key = await customerKey('9100000301');
      const res = await signed('GET', '/account', key);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        accountType: 'SPOT',
        canTrade: false,
        canWithdraw: false,
        permissions: ['SPOT'],
      });
      const usdt = res.body.balances.find((b: { asset: string }) => b.asset === 'USDT');
      expect(usdt).toMatchObject({
        free: expect.stringMatching(/^\d+(\.\d+)?$/),
        locked: expect.stringMatching(/^\d+(\.\d+)?$/),
      });
      expect(res.body.balances.map((b: { asset: string }) => b.asset)).toContain('BTC');
      const listed = (await t.call('GET', '/user/apikey/list', { token: key.token })).body.data.items[0];
      expect(listed).toMatchObject({ lastUsedAt: t.clock.now(), lastUsedIp: '127.0.0.1' });
      // recvWindow up to 60000 is taken, a timestamp inside it too.
      expect(
        (await signed('GET', '/account', key, { recvWindow: '60000' }, { timestamp: t.clock.now() - 59_000 })).status,
      ).toBe(200);
    });

    it('refuses a wrong signature, a missing one, a stale or early timestamp and a too-wide recvWindow', async () => {
      const key = await customerKey('9100000302');
      expect(await signed('GET', '/account', key, {}, { sign: (q) => hmacHex('not-the-secret', q) })).toMatchObject({
        status: 400,
        body: { code: -1022, msg: 'Signature for this request is not valid.' },
      });
      // A signature over other parameters (tampered after signing) is as wrong.
      expect(
        (
          await signed(
            'GET',
            '/account',
            key,
            { omitZeroBalances: 'true' },
            { sign: () => hmacHex(key.secret, 'timestamp=1') },
          )
        ).body.code,
      ).toBe(-1022);
      const unsigned = await t.app.http.inject({
        method: 'GET',
        url: `/api/v3/account?timestamp=${t.clock.now()}`,
        headers: { 'x-mbx-apikey': key.apiKey },
      });
      expect(unsigned.json()).toEqual({
        code: -1102,
        msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed.",
      });
      expect((await signed('GET', '/account', key, {}, { timestamp: t.clock.now() - 5_001 })).body).toEqual({
        code: -1021,
        msg: 'Timestamp for this request is outside of the recvWindow.',
      });
      expect(
        (await signed('GET', '/account', key, { recvWindow: '10000' }, { timestamp: t.clock.now() - 10_001 })).body
          .code,
      ).toBe(-1021);
      // Each call spends the key's weight (20 of 100): a second key for the rest.
      const again = await customerKey('9100000310');
      // A signature with broken escapes is as wrong (not a server error).
      expect((await signed('GET', '/account', again, {}, { sign: () => '%zz' })).body.code).toBe(-1022);
      expect((await signed('GET', '/account', again, {}, { timestamp: t.clock.now() + 1_000 })).body).toEqual({
        code: -1021,
        msg: "Timestamp for this request was 1000ms ahead of the server's time.",
      });
      expect((await signed('GET', '/account', again, { recvWindow: '60001' })).body).toEqual({
        code: -1131,
        msg: 'recvWindow must be less than 60000',
      });
      // The signature is checked on a POST's form body as well (trade key, wrong secret).
      const trader = await customerKey('9100000303', { permission: 'trade' });
      expect(
        (
          await signed(
            'POST',
            '/order',
            trader,
            { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '1000' },
            { sign: (q) => hmacHex('x', q) },
          )
        ).body.code,
      ).toBe(-1022);
    });

    it('refuses a missing, unknown or revoked key, and a key of a blocked customer', async () => {
      const key = await customerKey('9100000304');
      const none = await t.app.http.inject({
        method: 'GET',
        url: `/api/v3/account?timestamp=${t.clock.now()}&signature=00`,
      });
      expect(none.statusCode).toBe(401);
      expect(none.json()).toEqual({ code: -2014, msg: 'API-key format invalid.' });
      expect((await signed('GET', '/account', { ...key, apiKey: 'A'.repeat(64) })).body).toEqual({
        code: -2015,
        msg: 'Invalid API-key, IP, or permissions for action.',
      });
      expect((await signed('GET', '/account', key)).status).toBe(200);
      await t.call('POST', '/user/apikey/del', { token: key.token, body: { id: String(key.id) } });
      expect(await signed('GET', '/account', key)).toMatchObject({ status: 401, body: { code: -2015 } });

      const blocked = await customerKey('9100000305');
      await db.run('UPDATE users SET status = 0 WHERE id = (SELECT user_id FROM api_keys WHERE id = $1)', [blocked.id]);
      expect((await signed('GET', '/account', blocked)).body.code).toBe(-2015);
    });

    it('does not let a read key place or cancel orders', async () => {
      const key = await customerKey('9100000306', { permission: 'read' });
      const order = {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        timeInForce: 'GTC',
        quantity: '0.001',
        price: '1000',
      };
      expect(await signed('POST', '/order', key, order)).toMatchObject({ status: 401, body: { code: -2015 } });
      expect((await signed('DELETE', '/order', key, { symbol: 'BTCUSDT', orderId: '1' })).body.code).toBe(-2015);
      // It reads.
      expect((await signed('GET', '/account', key)).status).toBe(200);
    });

    it('answers a key with an allow-list only from those addresses', async () => {
      const key = await customerKey('9100000307', { ips: '10.1.2.3' });
      expect((await signed('GET', '/account', key)).body.code).toBe(-2015);
      expect((await signed('GET', '/account', key, {}, { remoteAddress: '10.9.9.9' })).body.code).toBe(-2015);
      const ok = await signed('GET', '/account', key, {}, { remoteAddress: '10.1.2.3' });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      // The same address through a dual-stack listener (IPv4-mapped IPv6).
      expect((await signed('GET', '/account', key, {}, { remoteAddress: '::ffff:10.1.2.3' })).status).toBe(200);
      // An IPv6 address is compared as an address, however it was written.
      const v6 = await customerKey('9100000390', { ips: '2001:0DB8:0000::0001' });
      expect((await signed('GET', '/account', v6, {}, { remoteAddress: '2001:db8::1' })).status).toBe(200);
      expect((await signed('GET', '/account', v6, {}, { remoteAddress: '2001:db8::2' })).body.code).toBe(-2015);
    });

    it('limits each key’s request weight per minute with 429 and Retry-After, keys apart', async () => {
      await t.advance(60_000 - (t.clock.now() % 60_000));
      const key = await customerKey('9100000308');
      const other = await customerKey('9100000309');
      // /account weighs 20: five calls spend the 100.
      for (let i = 0; i < 5; i++) expect((await signed('GET', '/account', key)).status).toBe(200);
      const over = await signed('GET', '/account', key);
      expect(over.status).toBe(429);
      expect(over.body).toEqual({
        code: -1003,
        msg: `Too much request weight used; current limit is ${KEY_LIMIT} request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.`,
      });
      expect(over.headers['retry-after']).toBe('60');
      // A bad signature is refused as such and spends nothing of a key's weight: a stranger who knows a
      // key's public half cannot use up its owner's minute (the address's own weight still counts).
      expect((await signed('GET', '/account', key, {}, { sign: () => 'x' })).body.code).toBe(-1022);
      for (let i = 0; i < 10; i++) {
        expect((await signed('GET', '/account', other, {}, { sign: () => 'x' })).body.code).toBe(-1022);
      }
      expect((await signed('GET', '/account', other)).status).toBe(200);
      await t.advance(60_000);
      expect((await signed('GET', '/account', key)).status).toBe(200);
    });
  });
});

describe.each(dbs)('orders through the trading API on $dialect', ({ open }) => {
  let t: T;
  let db: Db;
  beforeAll(async () => {
    db = await open();
    t = await testApp(db, { paperGrants: STOCK_GRANTS_ONLY });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });
  const call = async (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    key: { apiKey: string; secret: string },
    params: Record<string, string> = {},
  ) => {
    const query = new URLSearchParams({ ...params, timestamp: String(t.clock.now()) }).toString();
    const full = `${query}&signature=${hmacHex(key.secret, query)}`;
    const res = await t.app.http.inject({
      method,
      url: `/api/v3${path}${method === 'POST' ? '' : `?${full}`}`,
      headers: {
        'x-mbx-apikey': key.apiKey,
        ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(method === 'POST' ? { payload: full } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const trader = async (phone: string, usdt: string) => {
    const token = (await t.register(phone)).body.data.token as string;
    await t.call('POST', '/user/update/tradePassword', {
      token,
      body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
    });
    const userId = (await t.call('GET', '/user/login/info', { token })).body.data.user.id as number;
    if (usdt !== '0') {
      const funded = await t.app.engine.submit({
        type: 'deposit',
        id: `test-grant:${userId}:USDT`,
        userId: String(userId),
        wallet: 'spot',
        asset: 'USDT',
        amount: usdt,
        from: 'faucet',
        cause: 'paper_grant',
        link: 'open-api-test',
      });
      expect(funded.ok).toBe(true);
    }
    const made = await t.call('POST', '/user/apikey/add', {
      token,
      body: { label: 'bot', password: PIN, permission: 'trade' },
    });
    return { userId, apiKey: made.body.data.key.apiKey as string, secret: made.body.data.secret as string };
  };
  const best = async () => {
    const book = await t.app.http.inject({ method: 'GET', url: '/api/v3/ticker/bookTicker?symbol=BTCUSDT' });
    return book.json() as { bidPrice: string; askPrice: string };
  };

  it('places a resting limit order, finds it by both ids, lists it open, cancels it, and lists it in history', async () => {
    const key = await trader('9100000401', '100000');
    const { bidPrice } = await best();
    expect(Number(bidPrice)).toBeGreaterThan(0);
    const price = String(Math.floor(Number(bidPrice) * 0.9));
    const placed = await call('POST', '/order', key, {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.01',
      price,
      newClientOrderId: 'my-bot-order-0001',
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body).toMatchObject({
      symbol: 'BTCUSDT',
      clientOrderId: 'my-bot-order-0001',
      status: 'NEW',
      type: 'LIMIT',
      side: 'BUY',
      timeInForce: 'GTC',
      executedQty: expect.stringMatching(/^0(\.0+)?$/),
      fills: [],
    });
    expect(Number(placed.body.origQty)).toBe(0.01);
    const orderId = String(placed.body.orderId);

    const byId = await call('GET', '/order', key, { symbol: 'BTCUSDT', orderId });
    expect(byId.body).toMatchObject({ orderId: Number(orderId), status: 'NEW', isWorking: true });
    const byClient = await call('GET', '/order', key, { symbol: 'BTCUSDT', origClientOrderId: 'my-bot-order-0001' });
    expect(byClient.body.orderId).toBe(Number(orderId));
    const open = await call('GET', '/openOrders', key, { symbol: 'BTCUSDT' });
    expect(open.body.map((o: { orderId: number }) => o.orderId)).toEqual([Number(orderId)]);
    // The USDT is held while it rests.
    const account = (await call('GET', '/account', key)).body;
    expect(Number(account.balances.find((b: { asset: string }) => b.asset === 'USDT').locked)).toBeGreaterThan(0);

    const cancelled = await call('DELETE', '/order', key, { symbol: 'BTCUSDT', orderId });
    expect(cancelled.body).toMatchObject({
      orderId: Number(orderId),
      status: 'CANCELED',
      origClientOrderId: 'my-bot-order-0001',
    });
    expect((await call('GET', '/openOrders', key, { symbol: 'BTCUSDT' })).body).toEqual([]);
    const all = await call('GET', '/allOrders', key, { symbol: 'BTCUSDT' });
    expect(all.body.map((o: { orderId: number; status: string }) => [o.orderId, o.status])).toEqual([
      [Number(orderId), 'CANCELED'],
    ]);
    // Cancelling again: Binance's unknown order.
    expect((await call('DELETE', '/order', key, { symbol: 'BTCUSDT', orderId })).body.code).toBe(-2011);

    // History pages as Binance's: the newest `limit`, or from an id onwards, oldest first.
    const second = await call('POST', '/order', key, {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.01',
      price,
    });
    const ids = async (q: Record<string, string>) =>
      (await call('GET', '/allOrders', key, { symbol: 'BTCUSDT', ...q })).body.map(
        (o: { orderId: number }) => o.orderId,
      );
    expect(await ids({})).toEqual([Number(orderId), second.body.orderId]);
    expect(await ids({ limit: '1' })).toEqual([second.body.orderId]);
    expect(await ids({ orderId, limit: '1' })).toEqual([Number(orderId)]);
    expect(await ids({ orderId: String(second.body.orderId) })).toEqual([second.body.orderId]);
  });

  it('buys at market with its fills, then lists them in myTrades and the account', async () => {
    const key = await trader('9100000402', '100000');
    const res = await call('POST', '/order', key, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'FILLED', type: 'MARKET' });
    expect(Number(res.body.executedQty)).toBe(0.01);
    expect(res.body.fills.length).toBeGreaterThan(0);
    expect(res.body.fills[0]).toMatchObject({ commissionAsset: 'USDT', tradeId: expect.any(Number) });
    const trades = (await call('GET', '/myTrades', key, { symbol: 'BTCUSDT' })).body;
    expect(trades.length).toBe(res.body.fills.length);
    expect(trades[0]).toMatchObject({ symbol: 'BTCUSDT', orderId: res.body.orderId, isBuyer: true, isMaker: false });
    const btc = (await call('GET', '/account', key)).body.balances.find((b: { asset: string }) => b.asset === 'BTC');
    expect(Number(btc.free)).toBe(0.01);
    // A market buy by the USDT to spend.
    const byQuote = await call('POST', '/order', key, {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quoteOrderQty: '100',
    });
    expect(byQuote.body.status, JSON.stringify(byQuote.body)).toMatch(/FILLED|EXPIRED/);
  });

  it('refuses in Binance’s words: short balance, filters, bad parameters, a foreign order', async () => {
    const poor = await trader('9100000403', '0');
    const { askPrice, bidPrice } = await best();
    const limit = {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.01',
      price: bidPrice,
    };
    expect(await call('POST', '/order', poor, limit)).toMatchObject({
      status: 400,
      body: { code: -2010, msg: 'Account has insufficient balance for requested action.' },
    });
    const rich = await trader('9100000404', '100000');
    expect((await call('POST', '/order', rich, { ...limit, quantity: '0.00001' })).body.code).toBe(-1013);
    expect((await call('POST', '/order', rich, { ...limit, side: 'HOLD' })).body).toEqual({
      code: -1117,
      msg: 'Invalid side.',
    });
    expect((await call('POST', '/order', rich, { ...limit, type: 'OCO' })).body).toEqual({
      code: -1116,
      msg: 'Invalid orderType.',
    });
    const { price, ...noPrice } = limit;
    expect((await call('POST', '/order', rich, noPrice)).body.code).toBe(-1102);
    expect((await call('POST', '/order', rich, { ...limit, quantity: '1e3' })).body.code).toBe(-1100);
    expect((await call('POST', '/order', rich, { ...limit, symbol: 'FOOUSDT' })).body.code).toBe(-1121);
    // A post-only buy at the ask would take: refused, nothing rests.
    const maker = await call('POST', '/order', rich, {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT_MAKER',
      quantity: '0.01',
      price: askPrice,
    });
    expect(maker.body.code, JSON.stringify(maker.body)).toBe(-2010);
    expect((await call('GET', '/openOrders', rich, { symbol: 'BTCUSDT' })).body).toEqual([]);

    const placed = await call('POST', '/order', rich, { ...limit, price: String(Math.floor(Number(bidPrice) * 0.9)) });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const orderId = String(placed.body.orderId);
    expect(await call('GET', '/order', poor, { symbol: 'BTCUSDT', orderId })).toMatchObject({
      status: 400,
      body: { code: -2013, msg: 'Order does not exist.' },
    });
    expect((await call('DELETE', '/order', poor, { symbol: 'BTCUSDT', orderId })).body).toEqual({
      code: -2011,
      msg: 'Unknown order sent.',
    });
    // Another pair's symbol does not find it either; its owner still sees it open.
    expect((await call('GET', '/order', rich, { symbol: 'ETHUSDT', orderId })).body.code).toBe(-2013);
    expect((await call('GET', '/order', rich, { symbol: 'BTCUSDT', orderId })).body.status).toBe('NEW');
  });
});

describe.each(dbs.slice(0, 1))('the trading API’s public limit on $dialect', ({ open }) => {
  it('limits unsigned calls per address', async () => {
    const db = await open();
    const t = await testApp(db, { openApiLimits: { perKeyPerMin: 1_200, publicPerIpPerMin: 3 } });
    try {
      const ping = (remoteAddress: string) => t.app.http.inject({ method: 'GET', url: '/api/v3/ping', remoteAddress });
      for (let i = 0; i < 3; i++) expect((await ping('10.0.0.1')).statusCode).toBe(200);
      const over = await ping('10.0.0.1');
      expect(over.statusCode).toBe(429);
      expect(over.json().code).toBe(-1003);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect((await ping('10.0.0.2')).statusCode).toBe(200);
      // Signed calls from a flooded address are cut off before any key is looked up.
      const made = await t.app.http.inject({
        method: 'GET',
        url: '/api/v3/account?timestamp=1&signature=00',
        headers: { 'x-mbx-apikey': 'A'.repeat(64) },
        remoteAddress: '10.0.0.1',
      });
      expect(made.statusCode).toBe(429);
    } finally {
      await t.close();
      await db.close();
    }
  });
});
