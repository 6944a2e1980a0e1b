// HTTP routes of the AI funds line that the robots' /stock/ai/* calls do not cover (those dispatch by
// `kind`, features/robots/routes.ts): the redemption, and the console's fund desk under /admin/funds
// (funds.manage; every action audited; a second staff member approves; nothing there sets a figure).

import {
  createFundBody,
  fundOrderResult,
  fundRedeemBody,
  retireFundBody,
  reviewFundBody,
  staffFundListView,
  staffFundView,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import { idempotencyKey } from '../stocks/routes.ts';
import type { Funds } from './service.ts';

export function fundRoutes(app: FastifyInstance, deps: { funds: Funds; accounts: Accounts; staff: Staff }) {
  const { funds, accounts, staff } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['funds'];
  const signedIn = guard((request) => accounts.authenticate(bearerToken(request)));
  const desk = guard((request) => staff.authenticate(bearerToken(request), 'funds.manage'));

  r.post(
    '/stock/ai/order/redeem',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          "Asks to redeem `units` of an AI fund (up to the customer's units not already being redeemed). They are paid at the next valuation's NAV, cash rounded down, into the stock wallet from the fund's cash. With clientOrderId or the Idempotency-Key header, a retry answers the first order and redeems nothing more (idempotency_key_reused for another fund, side or number of units).",
        body: fundRedeemBody,
        response: { 200: okEnvelope(fundOrderResult) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      const key = idempotencyKey(req, req.body.clientOrderId);
      const order = await funds.redeem(
        user.id,
        req.body.id,
        req.body.units,
        () => accounts.checkPin(user, 'trade', req.body.password),
        key,
      );
      return done(req, 'submitted', { order });
    },
  );

  r.get(
    '/admin/funds',
    {
      onRequest: desk.first,
      schema: {
        tags,
        description: 'Every fund and parameter change, with its last valuation and how many it has had.',
        response: { 200: okEnvelope(staffFundListView) },
      },
    },
    async (req) => {
      await desk(req);
      return ok({ items: await funds.staffFunds() });
    },
  );
  r.post(
    '/admin/funds',
    {
      onRequest: desk.first,
      schema: {
        tags,
        description:
          "Creates a fund, or (with `changes`) a change of an offered fund's parameters for its next rebalances; another staff member must approve it.",
        body: createFundBody,
        response: { 200: okEnvelope(staffFundView) },
      },
    },
    async (req) => done(req, 'submitted', await funds.create((await desk(req)).staff.id, req.body)),
  );
  r.post(
    '/admin/funds/review',
    {
      onRequest: desk.first,
      schema: {
        tags,
        description: "Approves or rejects another staff member's fund or change, with a reason.",
        body: reviewFundBody,
        response: { 200: okEnvelope(staffFundView) },
      },
    },
    async (req) => ok(await funds.review((await desk(req)).staff.id, req.body.id, req.body.approve, req.body.reason)),
  );
  r.post(
    '/admin/funds/retire',
    {
      onRequest: desk.first,
      schema: {
        tags,
        description: 'Retires a fund: no new subscriptions; it keeps being valued and its holders may redeem.',
        body: retireFundBody,
        response: { 200: okEnvelope(staffFundView) },
      },
    },
    async (req) => ok(await funds.retire((await desk(req)).staff.id, req.body.id, req.body.reason)),
  );
}
