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
  retireRobotTemplateBody,
  reviewRobotTemplateBody,
  staffRobotRunListQuery,
  staffRobotRunListView,
  staffRobotTemplateListView,
  staffRobotTemplateView,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import { idempotencyKey } from '../stocks/routes.ts';
import type { Robots } from './service.ts';

export function robotRoutes(app: FastifyInstance, deps: { robots: Robots; accounts: Accounts; staff: Staff }) {
  const { robots, accounts, staff } = deps;
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
          'The MF tab: approved robots (kind "robot"; AI funds will be another kind), each with its terms and a measured past figure labelled with its source and period (a back-test over past simulated prices, or finished runs) — never a promise.',
        response: { 200: okEnvelope(aiListView) },
      },
    },
    async () => ok(await robots.list()),
  );
  r.post(
    '/stock/ai/info',
    {
      schema: {
        tags,
        description:
          "One robot: terms, strategy parameters, the pair's fees, the labelled back-test, realized history.",
        body: aiInfoBody,
        response: { 200: okEnvelope(aiInfoView) },
      },
    },
    async (req) => ok(await robots.info(req.body.id, await maybeUser(bearerToken(req)))),
  );
  r.post(
    '/stock/ai/buy',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          "Starts a run with `amount` USDT from the spot wallet (between the start-up capital and the single limit), moved into the run's own sub-account. With clientOrderId or the Idempotency-Key header, a retry answers the first result. robot_move_pending: received, the job completes the move.",
        body: aiBuyBody,
        response: { 200: okEnvelope(aiRunResult) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      const key = idempotencyKey(req, req.body.clientOrderId);
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
        description: "The customer's runs, newest first.",
        body: aiOrderListQuery,
        response: { 200: okEnvelope(aiOrderListView) },
      },
    },
    async (req) => ok(await robots.runs((await signedIn(req)).user.id, req.body)),
  );
  r.post(
    '/stock/ai/order/details',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          "One run's figures, every fill (paged, newest first) and its open orders; another customer's run is not found.",
        body: aiOrderDetailsBody,
        response: { 200: okEnvelope(aiOrderDetailsView) },
      },
    },
    async (req) => ok(await robots.details((await signedIn(req)).user.id, req.body)),
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
