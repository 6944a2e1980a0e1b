// HTTP routes of IPO subscription: SPEC's /stock/index/new/*, /stock/index/offline/* (public lists),
// /stock/order/new/* and /stock/order/offline/* (the customer's applications), /user/update/autoapply,
// the public draw record (no login: anyone can re-run the draw), and the console's IPO desk under
// /admin/ipos (ipo.manage; every action audited; nothing there names an allottee).

import {
  applyIpoBody,
  applyOfflineIpoBody,
  autoApplyBody,
  autoApplyView,
  cancelIpoApplicationBody,
  createIpoBody,
  ipoApplicationListQuery,
  ipoApplicationListView,
  ipoApplicationResult,
  ipoAutoApplyLogView,
  ipoDrawRecordQuery,
  ipoDrawRecordView,
  ipoInfoQuery,
  ipoListQuery,
  ipoListView,
  ipoView,
  payIpoApplicationBody,
  reviewIpoBody,
  runIpoListingBody,
  staffIpoListView,
  staffIpoView,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import type { Ipos } from './service.ts';

export function ipoRoutes(app: FastifyInstance, deps: { ipos: Ipos; accounts: Accounts; staff: Staff }) {
  const { ipos, accounts, staff } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['ipo'];
  const signedIn = guard((request) => accounts.authenticate(bearerToken(request)));
  const desk = guard((request) => staff.authenticate(bearerToken(request), 'ipo.manage'));

  // --- public lists ---
  const lists = [
    ['/stock/index/new/list', 'all', false, 'Every published IPO, newest opening first.'],
    ['/stock/index/new/today', 'today', false, 'IPOs open for applications now.'],
    ['/stock/index/new/list/coming', 'coming', false, 'Approved IPOs that have not opened yet.'],
    ['/stock/index/offline/list', 'all', true, 'Published IPOs that take offline (NII) applications.'],
    ['/stock/index/offline/today', 'today', true, 'IPOs open now that take offline (NII) applications.'],
  ] as const;
  for (const [path, kind, offline, description] of lists) {
    r.get(
      path,
      { schema: { tags, description, querystring: ipoListQuery, response: { 200: okEnvelope(ipoListView) } } },
      async (req) => ok(await ipos.list(kind, offline, req.query)),
    );
  }
  r.get(
    '/stock/index/new/info',
    {
      schema: {
        tags,
        description:
          'One IPO: band, lot, split, dates, subscription by category, the seed hash (and the seed once drawn).',
        querystring: ipoInfoQuery,
        response: { 200: okEnvelope(ipoView) },
      },
    },
    async (req) => ok(await ipos.info(req.query.id)),
  );
  r.get(
    '/stock/index/new/draw',
    {
      schema: {
        tags,
        description:
          'The public draw record (no login): the revealed seed, the retail applications as anonymised refs and lots, and the allottees. drawIpoRetail (@bourse/contract/ipo-draw) re-runs it.',
        querystring: ipoDrawRecordQuery,
        response: { 200: okEnvelope(ipoDrawRecordView) },
      },
    },
    async (req) => ok(await ipos.drawRecord(req.query.ipoId)),
  );

  // --- the customer's applications ---
  const pinOf = (user: Parameters<Accounts['checkPin']>[0]) => (pin: string | undefined) =>
    accounts.checkPin(user, 'trade', pin);
  r.post(
    '/stock/order/new/apply',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'An online (retail) application: up to 3 bids (lots; a price in the band or "cutoff"), at most ₹2,00,000 each; the highest bid is held, not debited.',
        body: applyIpoBody,
        response: { 200: okEnvelope(ipoApplicationResult) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      return done(req, 'submitted', { application: await ipos.applyOnline(user, req.body, pinOf(user)) });
    },
  );
  r.post(
    '/stock/order/new/cancel',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description: 'Cancels an application before the close; its held funds are released.',
        body: cancelIpoApplicationBody,
        response: { 200: okEnvelope(ipoApplicationResult) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      return done(req, 'cancelled', { application: await ipos.cancel(user.id, req.body.id) });
    },
  );
  r.post(
    '/stock/order/offline/apply',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'An offline (NII/HNI) application above ₹2,00,000 at a price in the band (no cut-off); nothing is held until allotted.',
        body: applyOfflineIpoBody,
        response: { 200: okEnvelope(ipoApplicationResult) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      return done(req, 'submitted', { application: await ipos.applyOffline(user, req.body, pinOf(user)) });
    },
  );
  r.post(
    '/stock/order/offline/pay',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description: 'Pays an offline allotment inside its payment window (held, then settled in one step).',
        body: payIpoApplicationBody,
        response: { 200: okEnvelope(ipoApplicationResult) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      return done(req, 'submitted', {
        application: await ipos.pay(user, req.body.id, req.body.password, pinOf(user)),
      });
    },
  );
  for (const [path, channel] of [
    ['/stock/order/new/list', 'online'],
    ['/stock/order/offline/list', 'offline'],
  ] as const) {
    r.get(
      path,
      {
        onRequest: signedIn.first,
        schema: { tags, querystring: ipoApplicationListQuery, response: { 200: okEnvelope(ipoApplicationListView) } },
      },
      async (req) => ok(await ipos.applications((await signedIn(req)).user.id, channel, req.query)),
    );
  }

  // --- auto-subscribe ---
  r.get(
    '/user/update/autoapply',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description: "The customer's auto-subscribe consent (off by default) and the deployment's openAutoApply.",
        response: { 200: okEnvelope(autoApplyView) },
      },
    },
    async (req) => ok(await ipos.autoApply((await signedIn(req)).user.id)),
  );
  r.post(
    '/user/update/autoapply',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'Turns auto-subscribe on or off: one lot at cut-off on each new retail issue, subject to funds; never a promise of allotment.',
        body: autoApplyBody,
        response: { 200: okEnvelope(autoApplyView) },
      },
    },
    async (req) => done(req, 'modified', await ipos.setAutoApply((await signedIn(req)).user.id, req.body.enabled)),
  );

  // --- the console desk ---
  r.get(
    '/admin/ipos',
    {
      onRequest: desk.first,
      schema: { tags, querystring: ipoListQuery, response: { 200: okEnvelope(staffIpoListView) } },
    },
    async (req) => {
      await desk(req);
      return ok(await ipos.staffList(req.query));
    },
  );
  r.get(
    '/admin/ipos/info',
    { onRequest: desk.first, schema: { tags, querystring: ipoInfoQuery, response: { 200: okEnvelope(staffIpoView) } } },
    async (req) => {
      await desk(req);
      return ok(await ipos.staffInfo(req.query.id));
    },
  );
  r.post(
    '/admin/ipos',
    {
      onRequest: desk.first,
      schema: {
        tags,
        description: 'Creates a draft IPO; another staff member must approve it before it is published.',
        body: createIpoBody,
        response: { 200: okEnvelope(staffIpoView) },
      },
    },
    async (req) => done(req, 'submitted', await ipos.create((await desk(req)).staff.id, req.body)),
  );
  r.post(
    '/admin/ipos/review',
    {
      onRequest: desk.first,
      schema: {
        tags,
        description: "Approves (publishes) or rejects another staff member's draft IPO, with a reason.",
        body: reviewIpoBody,
        response: { 200: okEnvelope(staffIpoView) },
      },
    },
    async (req) => ok(await ipos.review((await desk(req)).staff.id, req.body.id, req.body.approve, req.body.reason)),
  );
  r.post(
    '/admin/ipos/list',
    {
      onRequest: desk.first,
      schema: {
        tags,
        description:
          'Runs listing day for a drawn IPO (on or after its listing date): locked shares released, stock listed.',
        body: runIpoListingBody,
        response: { 200: okEnvelope(staffIpoView) },
      },
    },
    async (req) => ok(await ipos.runListing((await desk(req)).staff.id, req.body.id, req.body.reason)),
  );
  r.get(
    '/admin/ipos/auto-apply',
    {
      onRequest: desk.first,
      schema: {
        tags,
        description: 'Who auto-subscribe applied for, and who it skipped and why.',
        querystring: ipoInfoQuery,
        response: { 200: okEnvelope(ipoAutoApplyLogView) },
      },
    },
    async (req) => {
      await desk(req);
      return ok({ items: await ipos.autoApplyLog(req.query.id) });
    },
  );
}
