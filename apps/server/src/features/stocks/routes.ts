// Stock trading calls of SPEC §7: /stock/order/*, /stock/hold/*, /stock/collect/*.

import {
  holdingView,
  orderIdQuery,
  orderListQuery,
  orderPreviewView,
  orderStatisticsView,
  placeStockOrderBody,
  previewStockOrderBody,
  quoteView,
  stockOrderResult,
  stockOrderView,
  symbolQuery,
} from '@bourse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, fieldError } from '../../http/app-error.ts';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Accounts } from '../accounts/service.ts';
import type { MarketData } from '../markets/service.ts';
import type { Holdings } from './holdings.ts';
import type { Side, StockOrders } from './service.ts';
import type { Watchlist } from './watchlist.ts';

export type StockDeps = {
  accounts: Accounts;
  orders: StockOrders;
  holdings: Holdings;
  watchlist: Watchlist;
  market: MarketData;
  clock: Clock;
};

/**
 * The order's idempotency key: the body's clientOrderId or the Idempotency-Key header. A header that is
 * not a key, or one that contradicts the body's, is refused: ignoring it would turn a retry into a
 * second order.
 */
export const idempotencyKey = (req: FastifyRequest, clientOrderId: string | undefined): string | undefined => {
  const header = req.headers['idempotency-key'];
  if (header === undefined) return clientOrderId;
  if (typeof header !== 'string' || !/^[\w-]{8,64}$/.test(header)) throw fieldError('Idempotency-Key', 'field_invalid');
  if (clientOrderId !== undefined && clientOrderId !== header) throw fieldError('clientOrderId', 'field_invalid');
  return header;
};

export function stockRoutes(app: FastifyInstance, d: StockDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['stock trading'];
  const signedIn = guard((req) => d.accounts.authenticate(bearerToken(req)));
  const user = async (req: FastifyRequest) => (await signedIn(req)).user;

  r.post(
    '/stock/order/preview',
    {
      onRequest: signedIn.first,
      schema: { tags, body: previewStockOrderBody, response: { 200: okEnvelope(orderPreviewView) } },
    },
    async (req) => {
      const u = await user(req);
      return ok(d.orders.preview(u, d.orders.check(u, req.body.side, req.body)));
    },
  );

  for (const side of ['buy', 'sell'] as const satisfies readonly Side[]) {
    r.post(
      `/stock/order/${side}`,
      {
        onRequest: signedIn.first,
        schema: {
          tags,
          description: `Places a ${side} order (market or limit) after checking the 6-digit transaction password. A clientOrderId (or Idempotency-Key header) makes a retry answer the first order, for at least 24 hours.`,
          body: placeStockOrderBody,
          response: { 200: okEnvelope(stockOrderResult) },
        },
      },
      async (req) => {
        const u = await user(req);
        const key = idempotencyKey(req, req.body.clientOrderId);
        const checked = d.orders.check(u, side, req.body);
        await d.accounts.checkPin(u, 'trade', req.body.password);
        const order = await d.orders.place(u, checked, key);
        return done(req, 'submitted', { order });
      },
    );
  }

  r.get(
    '/stock/order/list',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        querystring: orderListQuery,
        response: { 200: okEnvelope(z.object({ items: z.array(stockOrderView), total: z.number().int() })) },
      },
    },
    async (req) => ok(await d.orders.list((await user(req)).id, req.query)),
  );

  r.get(
    '/stock/order/info',
    {
      onRequest: signedIn.first,
      schema: { tags, querystring: orderIdQuery, response: { 200: okEnvelope(stockOrderView) } },
    },
    async (req) => {
      const order = await d.orders.info((await user(req)).id, req.query.id);
      if (!order) throw new AppError('order_not_found');
      return ok(order);
    },
  );

  r.get(
    '/stock/order/cancel',
    {
      onRequest: signedIn.first,
      schema: { tags, querystring: orderIdQuery, response: { 200: okEnvelope(stockOrderResult) } },
    },
    async (req) => done(req, 'cancelled', { order: await d.orders.cancel((await user(req)).id, req.query.id) }),
  );

  r.get(
    '/stock/order/statistics',
    { onRequest: signedIn.first, schema: { tags, response: { 200: okEnvelope(orderStatisticsView) } } },
    async (req) => ok(await d.orders.statistics((await user(req)).id)),
  );

  r.get(
    '/stock/hold/list',
    {
      onRequest: signedIn.first,
      schema: { tags, response: { 200: okEnvelope(z.object({ items: z.array(holdingView) })) } },
    },
    async (req) => ok({ items: await d.holdings.list((await user(req)).id, d.clock.now()) }),
  );

  r.get(
    '/stock/hold/info',
    {
      onRequest: signedIn.first,
      schema: { tags, querystring: symbolQuery, response: { 200: okEnvelope(holdingView.nullable()) } },
    },
    async (req) => {
      const u = await user(req);
      const { instrument } = d.orders.resolve(req.query.symbol);
      return ok(await d.holdings.info(u.id, instrument.id, d.clock.now()));
    },
  );

  r.post(
    '/stock/collect/add',
    { onRequest: signedIn.first, schema: { tags, body: symbolQuery, response: { 200: okEnvelope(z.null()) } } },
    async (req) => {
      const u = await user(req);
      const instrument = d.market.instrument(req.body.symbol);
      if (!instrument || (instrument.kind !== 'stock' && instrument.kind !== 'index'))
        throw new AppError('unknown_instrument');
      await d.watchlist.add(u.id, instrument.id, d.clock.now());
      return ok(null);
    },
  );

  r.post(
    '/stock/collect/del',
    { onRequest: signedIn.first, schema: { tags, body: symbolQuery, response: { 200: okEnvelope(z.null()) } } },
    async (req) => {
      const u = await user(req);
      const instrument = d.market.instrument(req.body.symbol);
      await d.watchlist.remove(u.id, instrument?.id ?? req.body.symbol);
      return ok(null);
    },
  );

  r.post(
    '/stock/collect/list',
    {
      onRequest: signedIn.first,
      schema: { tags, response: { 200: okEnvelope(z.object({ items: z.array(quoteView) })) } },
    },
    async (req) => {
      const ids = await d.watchlist.list((await user(req)).id);
      const items = ids.flatMap((id) => {
        const instrument = d.market.instrument(id);
        // The table also keeps the crypto favourites (/coin/collect/*): those are listed there.
        return instrument && instrument.kind !== 'crypto' ? [d.market.quote(instrument)] : [];
      });
      return ok({ items });
    },
  );
}
