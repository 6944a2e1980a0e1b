// The trading API shaped like Binance's spot REST API, at /api/v3 on the server's root (ccxt and bots
// only change the host): public market data by address, SIGNED account and order calls by API key
// (X-MBX-APIKEY, HMAC-SHA256 over query + body, timestamp within recvWindow). Every call spends request
// weight per minute (per key when signed, per address otherwise), answered 429 with Retry-After past it.
// Must hold: a key answers only for its owner; a read key never places or cancels; a key with an
// allow-list answers only to those addresses; every rejection is Binance's {code, msg}.
// Must not: serve a made-up order or fill (orders answer an error while the spot service is not wired).

import { randomBytes } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { SpotOrderView, SpotPairView } from '@bourse/contract';
import { errorMessage } from '@bourse/contract';
import { formatDecimal } from '@bourse/money';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import type { ApiKeys, ResolvedKey } from '../api-keys/service.ts';
import type { MarketData } from '../markets/service.ts';
import { BinanceError, binanceErrors, newOrderRefusal } from './binance-errors.ts';
import {
  bookTickerView,
  depthView,
  KLINE_INTERVALS,
  klineView,
  symbolInfo,
  ticker24hView,
  tradeView,
} from './market-views.ts';
import { myTradeView, newOrderView, orderView, parseNewOrder } from './order-views.ts';
import { checkSignature, checkTimestamp, signedPayload } from './signing.ts';
import type { SpotPort } from './spot-port.ts';
import { WeightLimits } from './weight-limits.ts';

export const OPEN_API_PREFIX = '/api/v3';
/** The wallet the exchange's balances sit in. */
const SPOT_WALLET = 'spot';

export type OpenApiDeps = {
  market: MarketData;
  engine: TradingEngine;
  keys: ApiKeys;
  clock: Clock;
  spot: SpotPort;
  /** Someone reads a pair's book: the liquidity bot keeps its quotes fresh. */
  watchBook?: (instrumentId: string) => void;
  limits: { perKeyPerMin: number; publicPerIpPerMin: number };
};

type Call = { params: URLSearchParams; key: ResolvedKey | null; now: number; request: FastifyRequest };
type Access = 'public' | 'read' | 'trade';

export function openApiRoutes(http: FastifyInstance, d: OpenApiDeps) {
  const keyWeights = new WeightLimits(d.limits.perKeyPerMin, d.clock);
  const ipWeights = new WeightLimits(d.limits.publicPerIpPerMin, d.clock);

  const pairOf = async (symbol: string | null): Promise<SpotPairView> => {
    if (!symbol) throw binanceErrors.mandatory('symbol');
    const wanted = symbol.toUpperCase();
    const pair = (await d.spot.pairs()).find((p) => p.base + p.quote === wanted);
    if (!pair) throw binanceErrors.badSymbol();
    return pair;
  };
  /** `symbol`, or `symbols` as a JSON array, or every pair. */
  const pairsOf = async (params: URLSearchParams): Promise<{ pairs: SpotPairView[]; single: boolean }> => {
    const symbol = params.get('symbol');
    if (symbol) return { pairs: [await pairOf(symbol)], single: true };
    const symbols = params.get('symbols');
    if (symbols) {
      let list: unknown;
      try {
        list = JSON.parse(symbols);
      } catch {
        throw binanceErrors.illegalChars('symbols', '["BTCUSDT","ETHUSDT"]');
      }
      if (!Array.isArray(list) || list.length === 0 || list.some((s) => typeof s !== 'string'))
        throw binanceErrors.illegalChars('symbols', '["BTCUSDT","ETHUSDT"]');
      return { pairs: await Promise.all(list.map((s) => pairOf(s))), single: false };
    }
    return { pairs: await d.spot.pairs(), single: false };
  };
  const instrumentOf = (pair: SpotPairView) => {
    const instrument = d.market.instrument(pair.id);
    if (!instrument) throw binanceErrors.badSymbol();
    return instrument;
  };
  const depthOf = (pair: SpotPairView, levels: number) => {
    d.watchBook?.(pair.id);
    return d.engine.state.instrument(pair.id) ? d.engine.state.depth(pair.id, levels) : { bids: [], asks: [] };
  };
  const bestOf = (pair: SpotPairView) => {
    const book = depthView(instrumentOf(pair), d.engine.seq, depthOf(pair, 1));
    return { bid: book.bids[0] ?? null, ask: book.asks[0] ?? null };
  };
  const intParam = (params: URLSearchParams, name: string, fallback: number, min: number, max: number) => {
    const raw = params.get(name);
    if (raw === null || raw === '') return fallback;
    if (!/^\d{1,16}$/.test(raw)) throw binanceErrors.illegalChars(name, `${min}-${max}`);
    const value = Number(raw);
    if (value < min || value > max) throw binanceErrors.illegalChars(name, `${min}-${max}`);
    return value;
  };
  const live = (o: SpotOrderView) => d.engine.state.order(o.id) !== undefined;
  const view = (o: SpotOrderView) => orderView(o, live(o));
  const orders = () => {
    if (!d.spot.orders) throw binanceErrors.unsupported();
    return d.spot.orders;
  };

  http.register(
    async (api) => {
      // The signature covers the raw form body: it is kept as sent, and read as parameters below.
      api.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
        done(null, body),
      );
      api.setErrorHandler((error, request, reply) => sendError(request, reply, error));
      api.setNotFoundHandler((request, reply) => sendError(request, reply, binanceErrors.pathNotFound()));

      const endpoint = (
        method: 'GET' | 'POST' | 'DELETE',
        url: string,
        access: Access,
        weight: number | ((params: URLSearchParams) => number),
        handler: (call: Call) => Promise<unknown> | unknown,
      ) =>
        api.route({
          method,
          url,
          schema: { hide: true },
          handler: async (request, reply) => {
            const rawQuery = (request.raw.url ?? '').split('?')[1] ?? '';
            const rawBody = typeof request.body === 'string' ? request.body : '';
            // A signed call's parameters are read from exactly the text that was signed (query then body,
            // signature left out), so bytes moved between query and body cannot change what it says.
            const params =
              access === 'public'
                ? new URLSearchParams(rawQuery)
                : new URLSearchParams(signedPayload(rawQuery, rawBody).payload);
            if (access === 'public') for (const [k, v] of new URLSearchParams(rawBody)) params.set(k, v);
            const spend = typeof weight === 'number' ? weight : weight(params);
            // Every call spends its address's weight first (so a flood of made-up keys never reaches the
            // database); a SIGNED call also spends its key's, once its signature and time are good (so a
            // stranger who knows a key's public half cannot use up its owner's weight).
            limit(reply, ipWeights, `ip:${clientAddress(request.ip)}`, spend);
            const key =
              access === 'public' ? null : await authorize(request, reply, access, rawQuery, rawBody, params, spend);
            return handler({ params, key, now: d.clock.now(), request });
          },
        });

      /** The key behind a SIGNED call, checked in Binance's order; its weight is spent before the signature check. */
      const authorize = async (
        request: FastifyRequest,
        reply: FastifyReply,
        access: 'read' | 'trade',
        rawQuery: string,
        rawBody: string,
        params: URLSearchParams,
        spend: number,
      ): Promise<ResolvedKey> => {
        const header = request.headers['x-mbx-apikey'];
        const apiKey = Array.isArray(header) ? header[0] : header;
        if (!apiKey) throw binanceErrors.badApiKeyFormat();
        const key = await d.keys.resolve(apiKey);
        if (!key) throw binanceErrors.rejectedKey();
        const from = clientAddress(request.ip);
        if (key.ips.length > 0 && !key.ips.some((ip) => clientAddress(ip) === from)) throw binanceErrors.rejectedKey();
        if (access === 'trade' && key.permission !== 'trade') throw binanceErrors.rejectedKey();
        const signed = signedPayload(rawQuery, rawBody);
        checkSignature(key.secret, signed.payload, signed.signature);
        checkTimestamp(params, d.clock.now());
        limit(reply, keyWeights, `key:${key.id}`, spend);
        await d.keys.touch(key.id, clientAddress(request.ip));
        return key;
      };

      // --- general ---
      endpoint('GET', '/ping', 'public', 1, () => ({}));
      endpoint('GET', '/time', 'public', 1, async ({ now }) => ({ serverTime: now }));
      endpoint('GET', '/exchangeInfo', 'public', 20, async ({ params, now }) => ({
        timezone: 'UTC',
        serverTime: now,
        rateLimits: [
          { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: d.limits.perKeyPerMin },
        ],
        exchangeFilters: [],
        symbols: (await pairsOf(params)).pairs.map(symbolInfo),
      }));

      // --- market data ---
      const depthWeight = (params: URLSearchParams) => {
        const n = Number(params.get('limit') ?? 100);
        return n <= 100 ? 5 : n <= 500 ? 25 : n <= 1000 ? 50 : 250;
      };
      endpoint('GET', '/depth', 'public', depthWeight, async ({ params }) => {
        const pair = await pairOf(params.get('symbol'));
        const levels = intParam(params, 'limit', 100, 1, 5000);
        return depthView(instrumentOf(pair), d.engine.seq, depthOf(pair, levels));
      });
      endpoint('GET', '/trades', 'public', 25, async ({ params }) => {
        const pair = await pairOf(params.get('symbol'));
        const limit = intParam(params, 'limit', 500, 1, 1000);
        const instrument = instrumentOf(pair);
        // The tape is newest first; Binance answers oldest first.
        return d.market
          .tape(instrument.id)
          .slice(0, limit)
          .reverse()
          .map((t) => tradeView(instrument, t));
      });
      // Each print is its own aggregate: the tape keeps prints, not Binance's same-taker groups.
      endpoint('GET', '/aggTrades', 'public', 4, async ({ params }) => {
        const pair = await pairOf(params.get('symbol'));
        const limit = intParam(params, 'limit', 500, 1, 1000);
        const startTime = intParam(params, 'startTime', 0, 0, Number.MAX_SAFE_INTEGER);
        const endTime = intParam(params, 'endTime', Number.MAX_SAFE_INTEGER, 0, Number.MAX_SAFE_INTEGER);
        const fromId = intParam(params, 'fromId', 0, 0, Number.MAX_SAFE_INTEGER);
        const instrument = instrumentOf(pair);
        const oldestFirst = d.market
          .tape(instrument.id)
          .filter((t) => t.timeMs >= startTime && t.timeMs <= endTime && t.id >= fromId)
          .reverse();
        const chosen = fromId > 0 || startTime > 0 ? oldestFirst.slice(0, limit) : oldestFirst.slice(-limit);
        return chosen.map((t) => {
          const v = tradeView(instrument, t);
          return { a: v.id, p: v.price, q: v.qty, f: v.id, l: v.id, T: v.time, m: v.isBuyerMaker, M: true };
        });
      });
      endpoint('GET', '/klines', 'public', 2, async ({ params }) => {
        const pair = await pairOf(params.get('symbol'));
        const rawInterval = params.get('interval');
        if (!rawInterval) throw binanceErrors.mandatory('interval');
        const interval = KLINE_INTERVALS[rawInterval];
        if (!interval) throw binanceErrors.badInterval();
        const limit = intParam(params, 'limit', 500, 1, 1000);
        const startTime = intParam(params, 'startTime', 0, 0, Number.MAX_SAFE_INTEGER);
        const endTime = intParam(params, 'endTime', 0, 0, Number.MAX_SAFE_INTEGER);
        const instrument = instrumentOf(pair);
        const before = endTime > 0 ? endTime + 1 : undefined;
        // From startTime: the first `limit` candles after it (the store answers the last ones before a time).
        const candles =
          startTime > 0
            ? (await d.market.candles(instrument, interval, 100_000, before))
                .filter((c) => c.startMs >= startTime)
                .slice(0, limit)
            : await d.market.candles(instrument, interval, limit, before);
        return candles.map((c) => klineView(instrument, c));
      });
      const manyWeight = (single: number, all: number) => (params: URLSearchParams) =>
        params.get('symbol') ? single : all;
      endpoint('GET', '/ticker/24hr', 'public', manyWeight(2, 80), async ({ params }) => {
        const { pairs, single } = await pairsOf(params);
        const views = pairs.map((pair) => {
          const q = d.market.quote(instrumentOf(pair));
          const day = Math.floor(q.time / 86_400_000) * 86_400_000;
          return ticker24hView(pair.base + pair.quote, q, bestOf(pair), day);
        });
        return single ? views[0] : views;
      });
      endpoint('GET', '/ticker/price', 'public', manyWeight(2, 4), async ({ params }) => {
        const { pairs, single } = await pairsOf(params);
        const views = pairs.map((pair) => ({
          symbol: pair.base + pair.quote,
          price: d.market.quote(instrumentOf(pair)).price,
        }));
        return single ? views[0] : views;
      });
      endpoint('GET', '/ticker/bookTicker', 'public', manyWeight(2, 4), async ({ params }) => {
        const { pairs, single } = await pairsOf(params);
        const views = pairs.map((pair) => bookTickerView(pair.base + pair.quote, bestOf(pair)));
        return single ? views[0] : views;
      });

      // --- account (SIGNED) ---
      endpoint('GET', '/account', 'read', 20, async ({ params, key, now }) => {
        const k = key as ResolvedKey;
        const owner = String(k.userId);
        // Every coin the exchange trades (Binance lists all), looked up one by one, zeros included.
        const pairs = await d.spot.pairs();
        const assets = [...new Set(pairs.flatMap((p) => [p.base, p.quote]))].sort();
        const omitZero = params.get('omitZeroBalances') === 'true';
        const balances = assets
          .map((asset) => {
            const a = d.engine.state.balance(owner, SPOT_WALLET, asset);
            const scale = d.engine.state.asset(asset)?.scale ?? 8;
            return {
              asset,
              free: formatDecimal(a.available, scale),
              locked: formatDecimal(a.held, scale),
              zero: a.balance === 0n,
            };
          })
          .filter((b) => !(omitZero && b.zero))
          .map(({ zero, ...b }) => b);
        const maker = pairs[0]?.makerFeeBps ?? 0;
        const taker = pairs[0]?.takerFeeBps ?? 0;
        const rate = (bps: number) => formatDecimal(BigInt(bps) * 10_000n, 8);
        return {
          makerCommission: maker,
          takerCommission: taker,
          buyerCommission: 0,
          sellerCommission: 0,
          commissionRates: { maker: rate(maker), taker: rate(taker), buyer: rate(0), seller: rate(0) },
          canTrade: k.permission === 'trade',
          canWithdraw: false,
          canDeposit: false,
          brokered: false,
          requireSelfTradePrevention: false,
          preventSor: false,
          updateTime: now,
          accountType: 'SPOT',
          balances,
          permissions: ['SPOT'],
          uid: k.userId,
        };
      });

      // --- orders (SIGNED) ---
      const findOrder = async (userId: number, params: URLSearchParams, pair: SpotPairView): Promise<SpotOrderView> => {
        const orderId = params.get('orderId');
        const clientId = params.get('origClientOrderId');
        let order: SpotOrderView | undefined;
        if (orderId) {
          if (!/^\d{1,15}$/.test(orderId)) throw binanceErrors.illegalChars('orderId', '1-999999999999999');
          order = await orders()
            .order(userId, Number(orderId))
            .catch((e) => {
              if (e instanceof AppError && e.code === 'order_not_found') return undefined;
              throw e;
            });
        } else if (clientId) {
          // An order placed without a client id is named bourse-<id> in these answers.
          const own = /^bourse-(\d{1,15})$/.exec(clientId);
          const port = orders();
          order = await (own ? port.order(userId, Number(own[1])) : port.orderByClientId(userId, clientId)).catch(
            (e) => {
              if (e instanceof AppError && e.code === 'order_not_found') return undefined;
              throw e;
            },
          );
          if (own && order && order.clientOrderId !== null) order = undefined;
        } else throw binanceErrors.mandatory('orderId');
        // Another pair's order is not this symbol's (Binance answers it as missing).
        if (!order || order.base + order.quote !== pair.base + pair.quote) throw binanceErrors.noSuchOrder();
        return order;
      };
      endpoint('POST', '/order', 'trade', 1, async ({ params, key }) => {
        const pair = await pairOf(params.get('symbol'));
        const { input, respType } = parseNewOrder(
          params,
          pair.symbol,
          () => `bourse-${randomBytes(12).toString('hex')}`,
        );
        const userId = (key as ResolvedKey).userId;
        const port = orders();
        const order = await port.place(userId, input).catch((e) => {
          if (e instanceof AppError) throw newOrderRefusal(e.code, errorMessage(e.code, 'en-US'));
          throw e;
        });
        const fills =
          respType === 'FULL' && order.filledQuantity !== '0' && !/^0(\.0*)?$/.test(order.filledQuantity)
            ? (await port.trades(userId, { pairId: pair.id, orderId: order.id, limit: 1000 })).reverse()
            : [];
        return newOrderView(order, live(order), respType, fills);
      });
      endpoint('GET', '/order', 'read', 4, async ({ params, key }) => {
        const pair = await pairOf(params.get('symbol'));
        return view(await findOrder((key as ResolvedKey).userId, params, pair));
      });
      endpoint('DELETE', '/order', 'trade', 1, async ({ params, key }) => {
        const pair = await pairOf(params.get('symbol'));
        const userId = (key as ResolvedKey).userId;
        const found = await findOrder(userId, params, pair).catch((e) => {
          throw e instanceof BinanceError && e.binanceCode === -2013 ? binanceErrors.cancelRejected() : e;
        });
        // Binance cancels only what still works: a closed order is an unknown one to cancel.
        if (['cancelled', 'completed', 'closed'].includes(found.status) || (found.status === 'partial' && !live(found)))
          throw binanceErrors.cancelRejected();
        const cancelled = await orders()
          .cancel(userId, found.id)
          .catch((e) => {
            if (e instanceof AppError) throw binanceErrors.cancelRejected();
            throw e;
          });
        const { time, updateTime, isWorking, workingTime, ...rest } = view(cancelled);
        return { ...rest, origClientOrderId: rest.clientOrderId, transactTime: cancelled.updatedAt };
      });
      endpoint('GET', '/openOrders', 'read', manyWeight(6, 80), async ({ params, key }) => {
        const symbol = params.get('symbol');
        const pair = symbol ? await pairOf(symbol) : undefined;
        const list = await orders().orders((key as ResolvedKey).userId, {
          ...(pair ? { pairId: pair.id } : {}),
          open: true,
          limit: 1000,
        });
        return list.reverse().map(view);
      });
      /**
       * Binance's paging of history: from an id (`orderId` / `fromId`) or a time window, the oldest
       * `limit` after it; without either, the newest `limit`. Answered oldest first.
       */
      const page = <T>(
        newestFirst: T[],
        params: URLSearchParams,
        idOf: (x: T) => number,
        timeOf: (x: T) => number,
        fromIdParam: string,
      ) => {
        const limit = intParam(params, 'limit', 500, 1, 1000);
        const fromId = intParam(params, fromIdParam, 0, 0, Number.MAX_SAFE_INTEGER);
        const startTime = intParam(params, 'startTime', 0, 0, Number.MAX_SAFE_INTEGER);
        const endTime = intParam(params, 'endTime', Number.MAX_SAFE_INTEGER, 0, Number.MAX_SAFE_INTEGER);
        const oldestFirst = newestFirst
          .filter((x) => idOf(x) >= fromId && timeOf(x) >= startTime && timeOf(x) <= endTime)
          .reverse();
        return fromId > 0 || startTime > 0 ? oldestFirst.slice(0, limit) : oldestFirst.slice(-limit);
      };
      /** The most history one call looks through (Binance's largest page). */
      const HISTORY = 1000;
      endpoint('GET', '/allOrders', 'read', 20, async ({ params, key }) => {
        const pair = await pairOf(params.get('symbol'));
        const list = await orders().orders((key as ResolvedKey).userId, {
          pairId: pair.id,
          open: false,
          limit: HISTORY,
        });
        return page(
          list,
          params,
          (o) => o.id,
          (o) => o.createdAt,
          'orderId',
        ).map(view);
      });
      endpoint('GET', '/myTrades', 'read', 20, async ({ params, key }) => {
        const pair = await pairOf(params.get('symbol'));
        const orderId = params.get('orderId');
        const list = await orders().trades((key as ResolvedKey).userId, {
          pairId: pair.id,
          ...(orderId ? { orderId: intParam(params, 'orderId', 0, 1, Number.MAX_SAFE_INTEGER) } : {}),
          limit: HISTORY,
        });
        return page(
          list,
          params,
          (t) => t.id,
          (t) => t.time,
          'fromId',
        ).map((t) => myTradeView(t, pair.base + pair.quote));
      });
    },
    { prefix: OPEN_API_PREFIX },
  );

  // Anything else under /api answers Binance's shape too, never the customer app's page.
  http.register(
    async (api) => {
      api.setNotFoundHandler((request, reply) => sendError(request, reply, binanceErrors.pathNotFound()));
    },
    { prefix: '/api' },
  );

  function limit(reply: FastifyReply, weights: WeightLimits, caller: string, weight: number) {
    const spent = weights.spend(caller, weight);
    reply.header('x-mbx-used-weight-1m', String(spent.used));
    if (!spent.ok) throw binanceErrors.tooMuchWeight(weights.limit, spent.retryAfterSec);
  }

  function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown) {
    let e: BinanceError;
    if (error instanceof BinanceError) e = error;
    else if (error instanceof AppError) e = new BinanceError(400, -1000, errorMessage(error.code, 'en-US'));
    else if (isClientError(error)) e = new BinanceError(error.statusCode, -1000, error.message);
    else {
      request.log.error({ err: error }, 'trading API call failed');
      e = binanceErrors.unknown();
    }
    if (e.retryAfterSec !== undefined) reply.header('retry-after', String(e.retryAfterSec));
    return reply.status(e.status).send({ code: e.binanceCode, msg: e.message });
  }
}

/** An IPv4 client of a dual-stack listener arrives as ::ffff:a.b.c.d; the allow-list names a.b.c.d. */
/** An address in one canonical text: IPv4-mapped IPv6 as IPv4, IPv6 compressed and lower-case. */
export const clientAddress = (ip: string) => {
  const mapped = ip.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
  if (!isIPv6(mapped)) return mapped;
  const canonical = new URL(`http://[${mapped}]/`).hostname.slice(1, -1);
  return canonical.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
};

const isClientError = (error: unknown): error is { statusCode: number; message: string } =>
  typeof error === 'object' &&
  error !== null &&
  typeof (error as { statusCode?: unknown }).statusCode === 'number' &&
  (error as { statusCode: number }).statusCode >= 400 &&
  (error as { statusCode: number }).statusCode < 500;
