// HTTP routes of the robots line: SPEC's /stock/ai/* (the MF tab's list and detail are public; starting,
// adding, stopping and the records need a session and the trade password), and the console's robot desk
// under /admin/robots (robots.manage; every action audited; nothing there sets a run's results).

import {
  aiAddAmountBody,
  aiBuyBody,
  aiInfoBody,
  aiInfoView,
  aiListView,
  aiOrderDetailsBody,
  aiOrderDetailsView,
  aiOrderListQuery,
  aiOrderListView,
  aiRunResult,
  aiStopBody,
  createRobotTemplateBody,
  fundInfoView,
  fundOrderDetailsView,
  fundOrderListView,
  fundOrderResult,
  retireRobotTemplateBody,
  reviewRobotTemplateBody,
  staffRobotRunListQuery,
  staffRobotRunListView,
  staffRobotTemplateListView,
  staffRobotTemplateView,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldError } from '../../http/app-error.ts';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Funds } from '../funds/service.ts';
import type { Staff } from '../staff/service.ts';
import { idempotencyKey } from '../stocks/routes.ts';
import type { Robots } from './service.ts';

/**
 * The MF tab's calls serve robots and AI funds (features/funds): each body's `kind` ('robot' by default,
 * or 'fund') picks the line, so the paths are registered once. A fund's redemption is funds/routes.ts.
 */
export function robotRoutes(
  app: FastifyInstance,
  deps: { robots: Robots; funds: Funds; accounts: Accounts; staff: Staff },
) {
  const { robots, funds, accounts, staff } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['robots'];
  const signedIn = guard((request) => accounts.authenticate(bearerToken(request)));
  const desk = guard((request) => staff.authenticate(bearerToken(request), 'robots.manage'));
  /** The customer's id when the request carries a live session; the public calls work without one. */
  const maybeUser = async (token: string | undefined) => {
    if (!token) return null;
    try {
      return (await accounts.authenticate(token)).user.id;
    } catch {
      return null;
    }
  };

  r.post(
    '/stock/ai/list',
    {
      schema: {
        tags,
        description:
          'The MF tab: approved robots (kind "robot"), each with its terms and a measured past figure labelled with its source and period (a back-test over past simulated prices, or finished runs), then AI funds (kind "fund") with their last realized valuation — never a promise.',
        response: { 200: okEnvelope(aiListView) },
      },
    },
    async () => ok({ items: [...(await robots.list()).items, ...(await funds.list())] }),
  );
  r.post(
    '/stock/ai/info',
    {
      schema: {
        tags,
        description:
          'One robot: terms, strategy parameters, the pair\'s fees, the labelled back-test, realized history; or (kind "fund") one AI fund: its rule, holdings now, its realized NAV history, the customer\'s units and waiting orders.',
        body: aiInfoBody,
        response: { 200: okEnvelope(z.union([aiInfoView, fundInfoView])) },
      },
    },
    async (req) => {
      const user = await maybeUser(bearerToken(req));
      return ok(req.body.kind === 'fund' ? await funds.info(req.body.id, user) : await robots.info(req.body.id, user));
    },
  );
  r.post(
    '/stock/ai/buy',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          "Starts a run with `amount` USDT from the spot wallet (between the start-up capital and the single limit), moved into the run's own sub-account. With clientOrderId or the Idempotency-Key header, a retry answers the first result. robot_move_pending: received, the job completes the move. With kind \"fund\": subscribes `amount` of the stock wallet's cash to an AI fund; it is held now and converted to units at the next valuation's NAV (units rounded down); with a key, a retry answers the first order (idempotency_key_reused for another fund or amount).",
        body: aiBuyBody,
        response: { 200: okEnvelope(z.union([aiRunResult, fundOrderResult])) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      const key = idempotencyKey(req, req.body.clientOrderId);
      if (req.body.kind === 'fund') {
        const order = await funds.subscribe(
          user.id,
          req.body.id,
          req.body.amount,
          () => accounts.checkPin(user, 'trade', req.body.password),
          key,
        );
        return done(req, 'submitted', { order });
      }
      const run = await robots.buy(
        user.id,
        req.body.id,
        req.body.amount,
        () => accounts.checkPin(user, 'trade', req.body.password),
        key,
      );
      return done(req, 'submitted', { run });
    },
  );
  r.post(
    '/stock/ai/order/add/amount',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'Adds capital to a running run (up to the single limit); it raises the high-water mark by as much once moved. With clientOrderId or the Idempotency-Key header, a retry answers the first result.',
        body: aiAddAmountBody,
        response: { 200: okEnvelope(aiRunResult) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      // A fund takes more money as another subscription (/stock/ai/buy), never as a run's addition.
      if (req.body.kind === 'fund') throw fieldError('kind', 'field_invalid');
      const key = idempotencyKey(req, req.body.clientOrderId);
      const run = await robots.addAmount(
        user.id,
        req.body.id,
        req.body.amount,
        () => accounts.checkPin(user, 'trade', req.body.password),
        key,
      );
      return done(req, 'submitted', { run });
    },
  );
  r.post(
    '/stock/ai/order/stop',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'Stops a run early: its orders cancelled, its coin sold at market, capital and P&L returned less the performance fee on profit above the high-water mark.',
        body: aiStopBody,
        response: { 200: okEnvelope(aiRunResult) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      const run = await robots.stop(user.id, req.body.id, () => accounts.checkPin(user, 'trade', req.body.password));
      return done(req, 'modified', { run });
    },
  );
  r.post(
    '/stock/ai/order/list',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'The customer\'s runs, newest first; with kind "fund", their AI fund orders (subscriptions and redemptions).',
        body: aiOrderListQuery,
        response: { 200: okEnvelope(z.union([aiOrderListView, fundOrderListView])) },
      },
    },
    async (req) => {
      const userId = (await signedIn(req)).user.id;
      return ok(req.body.kind === 'fund' ? await funds.orders(userId, req.body) : await robots.runs(userId, req.body));
    },
  );
  r.post(
    '/stock/ai/order/details',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'One run\'s figures, every fill (paged, newest first) and its open orders; with kind "fund", one fund order and the valuation it was converted at. Another customer\'s is not found.',
        body: aiOrderDetailsBody,
        response: { 200: okEnvelope(z.union([aiOrderDetailsView, fundOrderDetailsView])) },
      },
    },
    async (req) => {
      const userId = (await signedIn(req)).user.id;
      return ok(
        req.body.kind === 'fund'
          ? await funds.orderDetails(userId, req.body.id)
          : await robots.details(userId, req.body),
      );
    },
  );

  // --- the console desk ---
  r.get(
    '/admin/robots/templates',
    { onRequest: desk.first, schema: { tags, response: { 200: okEnvelope(staffRobotTemplateListView) } } },
    async (req) => {
      await desk(req);
      return ok({ items: await robots.staffTemplates() });
    },
  );
  r.post(
    '/admin/robots/templates',
    {
      onRequest: desk.first,
      schema: {
        tags,
        description: 'Creates a robot template; another staff member must approve it before customers see it.',
        body: createRobotTemplateBody,
        response: { 200: okEnvelope(staffRobotTemplateView) },
      },
    },
    async (req) => done(req, 'submitted', await robots.createTemplate((await desk(req)).staff.id, req.body)),
  );
  r.post(
    '/admin/robots/templates/review',
    {
      onRequest: desk.first,
      schema: {
        tags,
        description: "Approves (publishes) or rejects another staff member's template, with a reason.",
        body: reviewRobotTemplateBody,
        response: { 200: okEnvelope(staffRobotTemplateView) },
      },
    },
    async (req) => ok(await robots.review((await desk(req)).staff.id, req.body.id, req.body.approve, req.body.reason)),
  );
  r.post(
    '/admin/robots/templates/retire',
    {
      onRequest: desk.first,
      schema: {
        tags,
        description: 'Retires a template: no new runs; runs already started keep their terms until they end.',
        body: retireRobotTemplateBody,
        response: { 200: okEnvelope(staffRobotTemplateView) },
      },
    },
    async (req) => ok(await robots.retire((await desk(req)).staff.id, req.body.id, req.body.reason)),
  );
  r.get(
    '/admin/robots/runs',
    {
      onRequest: desk.first,
      schema: { tags, querystring: staffRobotRunListQuery, response: { 200: okEnvelope(staffRobotRunListView) } },
    },
    async (req) => {
      await desk(req);
      return ok(await robots.staffRuns(req.query));
    },
  );
}
