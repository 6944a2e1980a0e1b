// The proof that the trading API is Binance's as far as a real client can tell: the npm package ccxt
// (class `binance`, only its URLs pointed at this server) loads the markets, reads a ticker, the order
// book, trades and OHLCV, the balance, places a limit order, lists it among the open orders and cancels
// it, against the whole app listening on a real port. No Binance endpoint is faked: ccxt is told
// (fetchMarkets spot only, no currencies) not to ask for what the platform does not offer.

import { testDatabases } from '@bourse/db';
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { DEFAULT_RATE_LIMITS, loadConfig } from '../../config.ts';
import { systemClock } from '../../platform/clock.ts';
import { solveCaptcha } from '../common/captcha-solver.ts';

const [sqlite] = await testDatabases();
const PIN = '246810';
/** A coin's free or used amount in a ccxt balance. */
const usdt = (balance: object, part: 'free' | 'used') =>
  (balance as Record<string, Record<string, number> | undefined>)[part]?.USDT;

describe('ccxt’s binance against the trading API', () => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let closeDb: () => Promise<void>;
  let base: string;
  let exchange: InstanceType<typeof ccxt.binance>;

  /** A customer's call to the app's own API, as the customer app makes it. */
  const call = async (url: string, body: Record<string, string>, token?: string) => {
    const res = await app.http.inject({
      method: url.endsWith('/captcha') ? 'GET' : 'POST',
      url: `/ipor-api${url}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(token ? { token } : {}) },
      ...(url.endsWith('/captcha') ? {} : { payload: new URLSearchParams(body).toString() }),
    });
    const answer = res.json();
    expect(answer.code, `${url}: ${res.body}`).toBe(0);
    return answer.data;
  };

  beforeAll(async () => {
    const db = await (sqlite as typeof sqlite & object).open();
    closeDb = () => db.close();
    const config = loadConfig({ BOURSE_TEST_HOOKS: '1', CRYPTO_SCAN_EVERY_MS: '0' }, { dataDir: null });
    // The real clock: ccxt stamps its requests with the machine's time.
    app = await buildApp({
      config: {
        ...config,
        rateLimits: { ...DEFAULT_RATE_LIMITS, register: 1e6, global: 1e6 },
        captcha: { cost: 1, tries: 20 },
        withdrawals: { ...config.withdrawals, payoutEveryMs: 0 },
      },
      db,
      clock: systemClock,
      logger: false,
    });
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.http.server.address() as { port: number }).port}`;

    const captcha = await call('/common/captcha', {});
    const { token } = await call('/user/register', {
      areaCode: '91',
      phone: '9100000501',
      password: 'secret12',
      confirmPassword: 'secret12',
      agree: '1',
      captchaId: captcha.captchaId,
      captchaCode: await solveCaptcha(captcha.challenge),
    });
    await call('/user/update/tradePassword', { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' }, token);
    const userId = (
      await app.http.inject({ method: 'GET', url: '/ipor-api/user/login/info', headers: { token } })
    ).json().data.user.id as number;
    // The customer's spot USDT is paper mode's grant to every new customer (10,000 USDT).
    const made = await call('/user/apikey/add', { label: 'ccxt', permission: 'trade', password: PIN }, token);

    exchange = new ccxt.binance({
      apiKey: made.key.apiKey,
      secret: made.secret,
      enableRateLimit: false,
      urls: { api: { public: `${base}/api/v3`, private: `${base}/api/v3` } },
      options: { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false, fetchMargins: false },
    });
  });
  afterAll(async () => {
    await app?.http.close();
    await closeDb?.();
  });

  it('loads the markets, reads the market data, and places, lists and cancels a limit order', async () => {
    const markets = await exchange.loadMarkets();
    const btc = markets['BTC/USDT'];
    expect(btc).toMatchObject({ id: 'BTCUSDT', base: 'BTC', quote: 'USDT', spot: true, active: true });
    expect(btc?.precision.price).toBeGreaterThan(0);
    expect(btc?.limits.cost?.min).toBeGreaterThan(0);
    for (const base of ['ETH', 'SOL', 'BNB', 'XRP', 'DOGE', 'LTC', 'LINK', 'AVAX', 'DOT'])
      expect(markets[`${base}/USDT`], base).toBeDefined();

    const ticker = await exchange.fetchTicker('BTC/USDT');
    expect(ticker.symbol).toBe('BTC/USDT');
    expect(ticker.last).toBeGreaterThan(0);

    const book = await exchange.fetchOrderBook('BTC/USDT', 5);
    expect(book.bids.length).toBeGreaterThan(0);
    expect(book.asks.length).toBeGreaterThan(0);
    const bestBid = book.bids[0]?.[0] as number;
    expect(bestBid).toBeLessThan(book.asks[0]?.[0] as number);

    const trades = await exchange.fetchTrades('BTC/USDT', undefined, 10);
    expect(Array.isArray(trades)).toBe(true);
    for (const trade of trades) expect(trade.price).toBeGreaterThan(0);

    const candles = await exchange.fetchOHLCV('BTC/USDT', '1m', undefined, 20);
    expect(candles).toHaveLength(20);
    const [time, first, high, low, last] = candles[19] as number[];
    expect(time).toBeGreaterThan(0);
    expect(high).toBeGreaterThanOrEqual(Math.max(first as number, last as number, low as number));

    const balance = await exchange.fetchBalance();
    expect(usdt(balance, 'free')).toBe(10000);

    // A buy 10% under the best bid rests on the book.
    const price = Number(exchange.priceToPrecision('BTC/USDT', bestBid * 0.9));
    const order = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.01, price);
    expect(order).toMatchObject({
      symbol: 'BTC/USDT',
      type: 'limit',
      side: 'buy',
      status: 'open',
      amount: 0.01,
      price,
    });

    const open = await exchange.fetchOpenOrders('BTC/USDT');
    expect(open.map((o) => o.id)).toEqual([order.id]);
    expect(usdt(await exchange.fetchBalance(), 'used')).toBeGreaterThan(0);

    const cancelled = await exchange.cancelOrder(order.id as string, 'BTC/USDT');
    expect(cancelled).toMatchObject({ id: order.id, status: 'canceled' });
    expect(await exchange.fetchOpenOrders('BTC/USDT')).toEqual([]);
    expect((await exchange.fetchOrder(order.id as string, 'BTC/USDT')).status).toBe('canceled');
    expect(usdt(await exchange.fetchBalance(), 'free')).toBe(10000);
  });

  it('surfaces the API’s refusals as ccxt’s own exceptions', async () => {
    await exchange.loadMarkets();
    await expect(exchange.createOrder('BTC/USDT', 'limit', 'buy', 100, 1000)).rejects.toBeInstanceOf(
      ccxt.InsufficientFunds,
    );
    await expect(exchange.fetchOrder('999999', 'BTC/USDT')).rejects.toBeInstanceOf(ccxt.OrderNotFound);
    const wrongSecret = new ccxt.binance({
      apiKey: exchange.apiKey,
      secret: 'not-the-secret',
      enableRateLimit: false,
      urls: { api: { public: `${base}/api/v3`, private: `${base}/api/v3` } },
      options: { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false, fetchMargins: false },
    });
    await expect(wrongSecret.fetchBalance()).rejects.toBeInstanceOf(ccxt.AuthenticationError);
  });
});
