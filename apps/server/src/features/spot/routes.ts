// The crypto exchange's calls of SPEC §7: /coin/infos, /coin/order/*, /coin/collect/*.

import {
  amendSpotOrderBody,
  coinCollectBody,
  placeSpotOrderBody,
  previewSpotOrderBody,
  type QuoteView,
  quoteView,
  spotLiquidityView,
  spotOrderIdBody,
  spotOrderListBody,
  spotOrderPreviewView,
  spotOrderResult,
  spotOrderView,
  spotPairView,
  spotTradeListBody,
  spotTradeView,
} from '@bourse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldError } from '../../http/app-error.ts';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { MarketData } from '../markets/service.ts';
import type { Staff } from '../staff/service.ts';
import type { SpotExchange } from './service.ts';

export type SpotDeps = { accounts: Accounts; spot: SpotExchange; market: MarketData };

const paged = <T extends z.ZodType>(item: T) => okEnvelope(z.object({ items: z.array(item), total: z.number().int() }));

/** The body's clientOrderId or the Idempotency-Key header; the two may not disagree. */
const idempotencyKey = (req: FastifyRequest, clientOrderId: string | undefined): string | undefined => {
  const header = req.headers['idempotency-key'];
  if (header === undefined) return clientOrderId;
  if (typeof header !== 'string' || !/^[\w-]{8,64}$/.test(header)) throw fieldError('Idempotency-Key', 'field_invalid');
  if (clientOrderId !== undefined && clientOrderId !== header) throw fieldError('clientOrderId', 'field_invalid');
  return header;
};

export function spotRoutes(app: FastifyInstance, d: SpotDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['crypto exchange'];
  const signedIn = guard((req) => d.accounts.authenticate(bearerToken(req)));
  const userId = async (req: FastifyRequest) => (await signedIn(req)).user.id;

  r.post(
    '/coin/infos',
    {
      schema: {
        tags,
        description: 'Every pair with its filters (tick, lot, minimum value), fees and liquidity account.',
        response: { 200: okEnvelope(z.object({ items: z.array(spotPairView) })) },
      },
    },
    async (req) => {
      // Signed in or not: a session only adds the favourite marks.
      const session = req.headers.token ? await d.accounts.authenticate(bearerToken(req)).catch(() => null) : null;
      return ok({ items: await d.spot.pairs(session?.user.id) });
    },
  );

  r.post(
    '/coin/order/preview',
    {
      onRequest: signedIn.first,
      schema: { tags, body: previewSpotOrderBody, response: { 200: okEnvelope(spotOrderPreviewView) } },
    },
    async (req) => ok(await d.spot.preview(await userId(req), req.body)),
  );

  r.post(
    '/coin/order/add',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'Places a spot order after checking the 6-digit transaction password. A clientOrderId (or Idempotency-Key header) makes a retry answer the first order.',
        body: placeSpotOrderBody,
        response: { 200: okEnvelope(spotOrderResult) },
      },
    },
    async (req) => {
      const id = await userId(req);
      const clientOrderId = idempotencyKey(req, req.body.clientOrderId);
      const order = await d.spot.placeOrder(id, { ...req.body, clientOrderId });
      return done(req, 'submitted', { order });
    },
  );

  r.post(
    '/coin/order/close',
    {
      onRequest: signedIn.first,
      schema: { tags, body: spotOrderIdBody, response: { 200: okEnvelope(spotOrderResult) } },
    },
    async (req) => done(req, 'cancelled', { order: await d.spot.cancelOrder(await userId(req), req.body.id) }),
  );

  r.post(
    '/coin/order/amend',
    {
      onRequest: signedIn.first,
      schema: { tags, body: amendSpotOrderBody, response: { 200: okEnvelope(spotOrderResult) } },
    },
    async (req) =>
      done(req, 'modified', { order: await d.spot.amendOrder(await userId(req), req.body.id, req.body.quantity) }),
  );

  r.post(
    '/coin/order/list',
    { onRequest: signedIn.first, schema: { tags, body: spotOrderListBody, response: { 200: paged(spotOrderView) } } },
    async (req) => ok(await d.spot.orders(await userId(req), req.body)),
  );

  r.post(
    '/coin/order/query',
    {
      onRequest: signedIn.first,
      schema: { tags, body: spotOrderIdBody, response: { 200: okEnvelope(spotOrderView) } },
    },
    async (req) => ok(await d.spot.order(await userId(req), req.body.id)),
  );

  r.post(
    '/coin/order/trades',
    { onRequest: signedIn.first, schema: { tags, body: spotTradeListBody, response: { 200: paged(spotTradeView) } } },
    async (req) => ok(await d.spot.trades(await userId(req), req.body)),
  );

  r.post(
    '/coin/collect/add',
    { onRequest: signedIn.first, schema: { tags, body: coinCollectBody, response: { 200: okEnvelope(z.null()) } } },
    async (req) => {
      await d.spot.addFavourite(await userId(req), req.body.symbol);
      return ok(null);
    },
  );

  r.post(
    '/coin/collect/del',
    { onRequest: signedIn.first, schema: { tags, body: coinCollectBody, response: { 200: okEnvelope(z.null()) } } },
    async (req) => {
      await d.spot.removeFavourite(await userId(req), req.body.symbol);
      return ok(null);
    },
  );

  r.post(
    '/coin/collect/list',
    {
      onRequest: signedIn.first,
      schema: { tags, response: { 200: okEnvelope(z.object({ items: z.array(quoteView) })) } },
    },
    async (req) => {
      const ids = await d.spot.favourites(await userId(req));
      const items: QuoteView[] = ids.flatMap((id) => {
        const instrument = d.market.instrument(id);
        return instrument ? [d.market.quote(instrument)] : [];
      });
      return ok({ items });
    },
  );
}

/** The staff console's read-only view of the liquidity accounts (who may read the reconciliation). */
export function spotConsoleRoutes(app: FastifyInstance, d: { spot: SpotExchange; staff: Staff }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const as = guard((req) => d.staff.authenticate(bearerToken(req), 'reconciliation.read'));
  r.get(
    '/admin/spot/liquidity',
    {
      onRequest: as.first,
      schema: { tags: ['staff'], response: { 200: okEnvelope(z.object({ items: z.array(spotLiquidityView) })) } },
    },
    async (req) => {
      await as(req);
      return ok({ items: d.spot.liquidity() });
    },
  );
}
