// The launchpad's calls (SPEC §7): /coin/new/list, /coin/new/list/coming, /coin/new/today and
// /coin/new/info read published offerings (signed in or not; a session adds the customer's own
// commitment); /coin/order/new/list, /coin/order/new/apply and /coin/order/new/cancel are the customer's
// commitments. The console's launchpad desk is under /admin/coin-offerings (launchpad.manage).

import {
  applyCoinOfferingBody,
  cancelCoinCommitmentBody,
  coinCommitmentView,
  coinOfferingIdBody,
  coinOfferingListBody,
  coinOfferingView,
  createCoinOfferingBody,
  decideCoinOfferingBody,
  staffCoinCommitmentView,
  staffCoinOfferingView,
} from '@bourse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import type { CoinOfferings } from './service.ts';

const paged = <T extends z.ZodType>(item: T) => okEnvelope(z.object({ items: z.array(item), total: z.number().int() }));

export function coinOfferingRoutes(
  app: FastifyInstance,
  d: { accounts: Accounts; staff: Staff; offerings: CoinOfferings },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['coin offerings'];
  const signedIn = guard((req) => d.accounts.authenticate(bearerToken(req)));
  const userId = async (req: FastifyRequest) => (await signedIn(req)).user.id;
  /** Public reads: a valid session only adds the customer's own commitment. */
  const viewer = async (req: FastifyRequest) =>
    req.headers.token ? ((await d.accounts.authenticate(bearerToken(req)).catch(() => null))?.user.id ?? null) : null;

  const lists = [
    ['/coin/new/list', 'all', 'Published coin offerings: open first, then upcoming, then finished.'],
    ['/coin/new/list/coming', 'coming', 'Coin offerings not yet open for subscriptions.'],
    ['/coin/new/today', 'today', 'Coin offerings open for subscriptions now.'],
  ] as const;
  for (const [url, which, description] of lists) {
    r.post(
      url,
      {
        schema: {
          tags,
          description,
          body: coinOfferingListBody.optional(),
          response: { 200: paged(coinOfferingView) },
        },
      },
      async (req) => ok(await d.offerings.list(await viewer(req), which, req.body ?? { page: 1, limit: 20 })),
    );
  }
  r.post(
    '/coin/new/info',
    { schema: { tags, body: coinOfferingIdBody, response: { 200: okEnvelope(coinOfferingView) } } },
    async (req) => ok(await d.offerings.info(await viewer(req), req.body.id)),
  );

  r.post(
    '/coin/order/new/list',
    {
      onRequest: signedIn.first,
      schema: { tags, body: coinOfferingListBody.optional(), response: { 200: paged(coinCommitmentView) } },
    },
    async (req) => ok(await d.offerings.myCommitments(await userId(req), req.body ?? { page: 1, limit: 20 })),
  );
  r.post(
    '/coin/order/new/apply',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'Commits USDT to an open offering (held in the spot wallet until the close), after the transaction password.',
        body: applyCoinOfferingBody,
        response: { 200: okEnvelope(coinCommitmentView) },
      },
    },
    async (req) => done(req, 'submitted', await d.offerings.apply(await userId(req), req.body)),
  );
  r.post(
    '/coin/order/new/cancel',
    {
      onRequest: signedIn.first,
      schema: { tags, body: cancelCoinCommitmentBody, response: { 200: okEnvelope(coinCommitmentView) } },
    },
    async (req) => done(req, 'cancelled', await d.offerings.cancel(await userId(req), req.body.id)),
  );

  // --- the console's launchpad desk ----------------------------------------------------------------
  const manager = guard((req) => d.staff.authenticate(bearerToken(req), 'launchpad.manage'));
  const staffTags = ['staff'];
  const idParams = z.object({ id: z.coerce.number().int().positive() });
  r.get(
    '/admin/coin-offerings',
    {
      onRequest: manager.first,
      schema: { tags: staffTags, response: { 200: okEnvelope(z.object({ items: z.array(staffCoinOfferingView) })) } },
    },
    async (req) => {
      await manager(req);
      return ok({ items: await d.offerings.staffList() });
    },
  );
  r.post(
    '/admin/coin-offerings',
    {
      onRequest: manager.first,
      schema: { tags: staffTags, body: createCoinOfferingBody, response: { 200: okEnvelope(staffCoinOfferingView) } },
    },
    async (req) => {
      const who = await manager(req);
      return done(req, 'submitted', await d.offerings.create(who.staff.id, req.body));
    },
  );
  r.post(
    '/admin/coin-offerings/:id/decide',
    {
      onRequest: manager.first,
      schema: {
        tags: staffTags,
        params: idParams,
        body: decideCoinOfferingBody,
        response: { 200: okEnvelope(staffCoinOfferingView) },
      },
    },
    async (req) => {
      const who = await manager(req);
      return ok(await d.offerings.decide(who.staff.id, req.params.id, req.body.decision, req.body.reason));
    },
  );
  r.get(
    '/admin/coin-offerings/:id/commitments',
    {
      onRequest: manager.first,
      schema: {
        tags: staffTags,
        params: idParams,
        response: { 200: okEnvelope(z.object({ items: z.array(staffCoinCommitmentView) })) },
      },
    },
    async (req) => {
      await manager(req);
      return ok({ items: await d.offerings.staffCommitments(req.params.id) });
    },
  );
}
