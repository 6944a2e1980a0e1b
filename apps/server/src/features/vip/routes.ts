// VIP calls: the customer's /user/vip/info (status), /user/vip/get (claim the free trial: SPEC's "received
// VIP"; a GET as SPEC lists it, like /stock/order/cancel), /user/vip/buy (GET: the quote; POST: the
// purchase, which carries the transaction password, and that must not travel in a URL) and /user/vip/advice (members' trading-advice posts); the
// console's desk under /admin/vip (vip.manage): members and periods, the stock-strategy switch, the posts.

import {
  staffVipAdviceView,
  staffVipMemberView,
  vipAdviceBody,
  vipAdviceView,
  vipAdviceWithdrawBody,
  vipBuyBody,
  vipBuyResult,
  vipQuoteQuery,
  vipQuoteView,
  vipStatusView,
  vipStrategyBody,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import { idempotencyKey } from '../stocks/routes.ts';
import type { Vip } from './service.ts';

export function vipRoutes(app: FastifyInstance, d: { accounts: Accounts; vip: Vip; staff: Staff }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['VIP'];
  const signedIn = guard((req) => d.accounts.authenticate(bearerToken(req)));
  const manager = guard((req) => d.staff.authenticate(bearerToken(req), 'vip.manage'));

  r.get(
    '/user/vip/info',
    { onRequest: signedIn.first, schema: { tags, response: { 200: okEnvelope(vipStatusView) } } },
    async (req) => ok(await d.vip.status((await signedIn(req)).user.id)),
  );
  r.get(
    '/user/vip/get',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description: 'Claims the free VIP trial (once per customer), starting now.',
        response: { 200: okEnvelope(vipStatusView) },
      },
    },
    async (req) => done(req, 'vip_received', await d.vip.claimTrial((await signedIn(req)).user.id)),
  );
  r.get(
    '/user/vip/buy',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'What buying a VIP plan now would cost and cover (price, available cash, start and end); nothing is bought. The purchase is the POST of the same path: it carries the transaction password, which must not travel in a URL.',
        querystring: vipQuoteQuery,
        response: { 200: okEnvelope(vipQuoteView) },
      },
    },
    async (req) => ok(await d.vip.quote((await signedIn(req)).user.id, req.query)),
  );
  r.post(
    '/user/vip/buy',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'Buys a VIP plan from the stock wallet after checking the 6-digit transaction password; bought while a period runs, it starts at the membership’s end. A clientOrderId (or Idempotency-Key header) makes a retry answer the first purchase.',
        body: vipBuyBody,
        response: { 200: okEnvelope(vipBuyResult) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      const key = idempotencyKey(req, req.body.clientOrderId);
      await d.accounts.checkPin(user, 'trade', req.body.password);
      return done(req, 'vip_purchased', await d.vip.buy(user.id, req.body, key));
    },
  );
  r.get(
    '/user/vip/advice',
    {
      onRequest: signedIn.first,
      schema: { tags, response: { 200: okEnvelope(z.object({ items: z.array(vipAdviceView) })) } },
    },
    async (req) => ok({ items: await d.vip.advice((await signedIn(req)).user.id, req.lang) }),
  );

  // --- the console ------------------------------------------------------------------------------------

  const staffTags = ['staff'];
  r.get(
    '/admin/vip/members',
    {
      onRequest: manager.first,
      schema: {
        tags: staffTags,
        response: { 200: okEnvelope(z.object({ items: z.array(staffVipMemberView) })) },
      },
    },
    async (req) => {
      await manager(req);
      return ok({ items: await d.vip.members() });
    },
  );
  r.post(
    '/admin/vip/strategy',
    {
      onRequest: manager.first,
      schema: { tags: staffTags, body: vipStrategyBody, response: { 200: okEnvelope(z.null()) } },
    },
    async (req) => {
      const who = await manager(req);
      await d.vip.setStrategy(who.staff.id, req.body.userId, req.body.enabled, req.body.reason);
      return done(req, 'modified', null);
    },
  );
  r.get(
    '/admin/vip/advice',
    {
      onRequest: manager.first,
      schema: {
        tags: staffTags,
        response: { 200: okEnvelope(z.object({ items: z.array(staffVipAdviceView) })) },
      },
    },
    async (req) => {
      await manager(req);
      return ok({ items: await d.vip.staffAdvice() });
    },
  );
  r.post(
    '/admin/vip/advice',
    {
      onRequest: manager.first,
      schema: {
        tags: staffTags,
        body: vipAdviceBody,
        response: { 200: okEnvelope(z.object({ id: z.number().int() })) },
      },
    },
    async (req) => {
      const who = await manager(req);
      return done(req, 'submitted', { id: await d.vip.publishAdvice(who.staff.id, req.body) });
    },
  );
  r.post(
    '/admin/vip/advice/withdraw',
    {
      onRequest: manager.first,
      schema: { tags: staffTags, body: vipAdviceWithdrawBody, response: { 200: okEnvelope(z.null()) } },
    },
    async (req) => {
      const who = await manager(req);
      await d.vip.withdrawAdvice(who.staff.id, req.body.id, req.body.reason);
      return done(req, 'deleted', null);
    },
  );
}
