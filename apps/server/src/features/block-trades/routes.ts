// Block-trade calls: the customer's /stock/index/bulk/{list,info}, /stock/order/bulk/{apply,cancel} and
// SPEC's /stock/order/trade/list (their block-trade orders); the console's desk under /admin/block-trades
// (listings.manage): windows, create, approve or reject another's offer, bids and allotment, HNI marks.

import {
  blockBidBody,
  blockBidListQuery,
  blockBidView,
  blockCancelBody,
  blockOfferDetailView,
  blockOfferListView,
  blockOfferQuery,
  blockWindowView,
  createBlockOfferBody,
  decideBlockOfferBody,
  markHniBody,
  staffBlockOfferDetail,
  staffBlockOfferView,
  text,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import { idempotencyKey } from '../stocks/routes.ts';
import type { BlockTrades } from './service.ts';

export function blockTradeRoutes(app: FastifyInstance, d: { accounts: Accounts; blocks: BlockTrades; staff: Staff }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['block trades'];
  const signedIn = guard((req) => d.accounts.authenticate(bearerToken(req)));

  r.get(
    '/stock/index/bulk/list',
    { onRequest: signedIn.first, schema: { tags, response: { 200: okEnvelope(blockOfferListView) } } },
    async (req) => ok(await d.blocks.list((await signedIn(req)).user, req.lang)),
  );
  r.get(
    '/stock/index/bulk/info',
    {
      onRequest: signedIn.first,
      schema: { tags, querystring: blockOfferQuery, response: { 200: okEnvelope(blockOfferDetailView) } },
    },
    async (req) => ok(await d.blocks.detail((await signedIn(req)).user, req.query.id, req.lang)),
  );
  r.post(
    '/stock/order/bulk/apply',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'Bids for whole lots of a block offer while its window is open; the amount at the offer price is held until the allotment. A clientOrderId (or Idempotency-Key header) makes a retry answer the first bid.',
        body: blockBidBody,
        response: { 200: okEnvelope(blockBidView) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      const key = idempotencyKey(req, req.body.clientOrderId);
      await d.accounts.checkPin(user, 'trade', req.body.password);
      return done(req, 'submitted', await d.blocks.bid(user, req.body, key));
    },
  );
  r.post(
    '/stock/order/bulk/cancel',
    {
      onRequest: signedIn.first,
      schema: { tags, body: blockCancelBody, response: { 200: okEnvelope(blockBidView) } },
    },
    async (req) => done(req, 'cancelled', await d.blocks.cancel((await signedIn(req)).user, req.body.id)),
  );
  for (const method of ['GET', 'POST'] as const) {
    r.route({
      method,
      url: '/stock/order/trade/list',
      onRequest: signedIn.first,
      schema: {
        tags,
        ...(method === 'GET' ? { querystring: blockBidListQuery } : { body: blockBidListQuery }),
        response: { 200: okEnvelope(z.object({ items: z.array(blockBidView), total: z.number().int() })) },
      },
      handler: async (req) => {
        const q = blockBidListQuery.parse(method === 'GET' ? req.query : (req.body ?? {}));
        return ok(await d.blocks.myBids((await signedIn(req)).user, q.page, q.limit));
      },
    });
  }

  // --- the console ---
  const desk = guard((req) => d.staff.authenticate(bearerToken(req), 'listings.manage'));
  const staffTags = ['staff'];
  const idParams = z.object({ id: z.coerce.number().int().positive() });
  r.get(
    '/admin/block-trades',
    {
      onRequest: desk.first,
      schema: { tags: staffTags, response: { 200: okEnvelope(z.object({ items: z.array(staffBlockOfferView) })) } },
    },
    async (req) => {
      await desk(req);
      return ok({ items: await d.blocks.staffOffers() });
    },
  );
  r.get(
    '/admin/block-trades/windows',
    {
      onRequest: desk.first,
      schema: {
        tags: staffTags,
        querystring: z.object({ symbol: text(40) }),
        response: { 200: okEnvelope(z.object({ items: z.array(blockWindowView) })) },
      },
    },
    async (req) => {
      await desk(req);
      return ok({ items: d.blocks.windows(req.query.symbol) });
    },
  );
  r.post(
    '/admin/block-trades',
    {
      onRequest: desk.first,
      schema: { tags: staffTags, body: createBlockOfferBody, response: { 200: okEnvelope(staffBlockOfferView) } },
    },
    async (req) => {
      const who = await desk(req);
      return done(req, 'submitted', await d.blocks.create(who.staff.id, req.body));
    },
  );
  r.get(
    '/admin/block-trades/:id',
    {
      onRequest: desk.first,
      schema: { tags: staffTags, params: idParams, response: { 200: okEnvelope(staffBlockOfferDetail) } },
    },
    async (req) => {
      await desk(req);
      return ok(await d.blocks.staffDetail(req.params.id));
    },
  );
  r.post(
    '/admin/block-trades/:id/decide',
    {
      onRequest: desk.first,
      schema: {
        tags: staffTags,
        params: idParams,
        body: decideBlockOfferBody,
        response: { 200: okEnvelope(staffBlockOfferView) },
      },
    },
    async (req) => {
      const who = await desk(req);
      return ok(await d.blocks.decide(who.staff.id, req.params.id, req.body.decision, req.body.reason));
    },
  );
  r.post(
    '/admin/block-trades/hni',
    {
      onRequest: desk.first,
      schema: { tags: staffTags, body: markHniBody, response: { 200: okEnvelope(z.object({})) } },
    },
    async (req) => {
      const who = await desk(req);
      await d.blocks.markHni(who.staff.id, req.body.userId, req.body.reason);
      return done(req, 'modified', {});
    },
  );
}
