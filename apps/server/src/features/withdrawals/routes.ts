// HTTP routes of withdrawals (SPEC §7 with SPEC's methods): /user/withdraw/add, /order, /status (and
// /config for the fee preview, /cancel), /coin/withdraw/address, /address/generate, /address/del, /add,
// /order; the finance desk under /admin/withdrawals (withdrawals.review); and, with test hooks, the
// sandbox rails' record of payouts.

import {
  addWithdrawAddressBody,
  bankWithdrawBody,
  coinWithdrawBody,
  coinWithdrawOrderBody,
  delWithdrawAddressBody,
  withdrawAddressListBody,
  withdrawAddressListView,
  withdrawAddressView,
  withdrawalCancelBody,
  withdrawalDecisionBody,
  withdrawalDeskItem,
  withdrawalDeskQuery,
  withdrawalIdQuery,
  withdrawalListView,
  withdrawalOrderQuery,
  withdrawalView,
  withdrawConfigView,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import type { AddressBook } from './address-book.ts';
import type { Withdrawals } from './service.ts';

export function withdrawalRoutes(
  app: FastifyInstance,
  deps: {
    accounts: Accounts;
    staff: Staff;
    withdrawals: Withdrawals;
    addresses: AddressBook;
    /** With test hooks: the sandbox rails' payouts, for the crash test. */
    sandboxPayouts?: (() => Promise<unknown[]>) | undefined;
  },
) {
  const { accounts, staff, withdrawals, addresses } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = guard((request) => accounts.authenticate(bearerToken(request)));
  const reviewer = guard((request) => staff.authenticate(bearerToken(request), 'withdrawals.review'));
  const tags = ['withdrawals'];
  const doneView = okEnvelope(z.object({ done: z.literal(true) }));

  r.get(
    '/user/withdraw/config',
    {
      preValidation: signedIn.first,
      schema: {
        tags,
        description: 'Each rail’s limits and flat fee (taken from the amount), the review threshold, and the lock.',
        response: { 200: okEnvelope(withdrawConfigView) },
      },
    },
    async (req) => ok(await withdrawals.config((await signedIn(req)).user)),
  );
  r.post(
    '/user/withdraw/add',
    {
      preValidation: signedIn.first,
      schema: {
        tags,
        description:
          'Withdraws by bank transfer or PIX to a saved bank account after the 6-digit withdrawal password. The amount is held at once; the fee is taken from it. A requestId makes a retry answer the first withdrawal.',
        body: bankWithdrawBody,
        response: { 200: okEnvelope(withdrawalView) },
      },
    },
    async (req) => done(req, 'submitted', await withdrawals.requestBank((await signedIn(req)).user, req.body)),
  );
  r.get(
    '/user/withdraw/order',
    {
      preValidation: signedIn.first,
      schema: { tags, querystring: withdrawalOrderQuery, response: { 200: okEnvelope(withdrawalListView) } },
    },
    async (req) => ok(await withdrawals.list((await signedIn(req)).user, false, req.query.page, req.query.limit)),
  );
  r.get(
    '/user/withdraw/status',
    {
      preValidation: signedIn.first,
      schema: { tags, querystring: withdrawalIdQuery, response: { 200: okEnvelope(withdrawalView) } },
    },
    async (req) => ok(await withdrawals.status((await signedIn(req)).user, req.query.id)),
  );
  r.post(
    '/user/withdraw/cancel',
    {
      preValidation: signedIn.first,
      schema: { tags, body: withdrawalCancelBody, response: { 200: okEnvelope(withdrawalView) } },
    },
    async (req) => done(req, 'cancelled', await withdrawals.cancel((await signedIn(req)).user, req.body.id)),
  );

  r.post(
    '/coin/withdraw/address',
    {
      preValidation: signedIn.first,
      schema: { tags, body: withdrawAddressListBody.nullish(), response: { 200: okEnvelope(withdrawAddressListView) } },
    },
    async (req) => ok(await addresses.list((await signedIn(req)).user, req.body?.asset)),
  );
  r.post(
    '/coin/withdraw/address/generate',
    {
      preValidation: signedIn.first,
      schema: {
        tags,
        description:
          'Saves a withdrawal address after the login password or TOTP again; locks withdrawals for 24 hours.',
        body: addWithdrawAddressBody,
        response: { 200: okEnvelope(withdrawAddressView) },
      },
    },
    async (req) => done(req, 'submitted', await addresses.add((await signedIn(req)).user, req.body)),
  );
  r.post(
    '/coin/withdraw/address/del',
    { preValidation: signedIn.first, schema: { tags, body: delWithdrawAddressBody, response: { 200: doneView } } },
    async (req) => {
      await addresses.del((await signedIn(req)).user, req.body.id);
      return done(req, 'deleted', { done: true as const });
    },
  );
  r.post(
    '/coin/withdraw/add',
    {
      preValidation: signedIn.first,
      schema: {
        tags,
        description:
          'Withdraws crypto to a saved address after the withdrawal password; the network fee is taken from the amount.',
        body: coinWithdrawBody,
        response: { 200: okEnvelope(withdrawalView) },
      },
    },
    async (req) => done(req, 'submitted', await withdrawals.requestCrypto((await signedIn(req)).user, req.body)),
  );
  r.post(
    '/coin/withdraw/order',
    {
      preValidation: signedIn.first,
      schema: { tags, body: coinWithdrawOrderBody.nullish(), response: { 200: okEnvelope(withdrawalListView) } },
    },
    async (req) => {
      const user = (await signedIn(req)).user;
      const q = coinWithdrawOrderBody.parse(req.body ?? {});
      if (q.id !== undefined) return ok({ items: [await withdrawals.status(user, q.id, true)], total: 1 });
      return ok(await withdrawals.list(user, true, q.page, q.limit));
    },
  );

  r.get(
    '/admin/withdrawals',
    {
      preValidation: reviewer.first,
      schema: {
        tags: ['staff'],
        querystring: withdrawalDeskQuery,
        response: { 200: okEnvelope(z.object({ items: z.array(withdrawalDeskItem) })) },
      },
    },
    async (req) => {
      await reviewer(req);
      return ok({ items: await withdrawals.desk(req.query.view) });
    },
  );
  r.post(
    '/admin/withdrawals/:id/decide',
    {
      preValidation: reviewer.first,
      schema: {
        tags: ['staff'],
        params: z.object({ id: z.coerce.number().int().positive() }),
        body: withdrawalDecisionBody,
        response: { 200: doneView },
      },
    },
    async (req) => {
      const who = await reviewer(req);
      await withdrawals.decide(who.staff.id, req.params.id, req.body.decision, req.body.reason);
      return ok({ done: true as const });
    },
  );

  const sandboxPayouts = deps.sandboxPayouts;
  if (sandboxPayouts) {
    r.get('/test/sandbox/payouts', { schema: { hide: true } }, async () => ok({ items: await sandboxPayouts() }));
  }
}
