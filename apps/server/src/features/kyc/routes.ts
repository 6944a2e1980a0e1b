// HTTP routes of KYC: SPEC's /user/auth (GET reads the state, POST submits), the owner's photos, and
// the compliance desk under /admin/kyc (kyc.review). Photos are served as image/jpeg, never cached.

import { kycDecisionBody, kycReviewItem, kycSubmitBody, kycView } from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import type { Kyc } from './service.ts';

// Two photos of at most 5 MB each, base64-encoded (4/3 larger), plus the text fields.
const BODY_LIMIT = 16 * 1024 * 1024;
const imageParams = z.object({ id: z.coerce.number().int().positive(), side: z.enum(['front', 'back']) });

export function kycRoutes(app: FastifyInstance, deps: { kyc: Kyc; accounts: Accounts; staff: Staff }) {
  const { kyc, accounts, staff } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = guard((request) => accounts.authenticate(bearerToken(request)));
  const reviewer = guard((request) => staff.authenticate(bearerToken(request), 'kyc.review'));

  r.get(
    '/user/auth',
    { onRequest: signedIn.first, schema: { tags: ['kyc'], response: { 200: okEnvelope(kycView) } } },
    async (req) => ok(await kyc.view((await signedIn(req)).user.id)),
  );
  r.post(
    '/user/auth',
    {
      bodyLimit: BODY_LIMIT,
      onRequest: signedIn.first,
      schema: { tags: ['kyc'], body: kycSubmitBody, response: { 200: okEnvelope(kycView) } },
    },
    async (req) => done(req, 'submitted', await kyc.submit((await signedIn(req)).user.id, req.body)),
  );
  r.get(
    '/user/auth/image/:id/:side',
    { onRequest: signedIn.first, schema: { tags: ['kyc'], params: imageParams } },
    async (req, reply) => {
      const image = await kyc.image(req.params.id, req.params.side, (await signedIn(req)).user.id);
      return reply.header('content-type', 'image/jpeg').header('cache-control', 'private, no-store').send(image);
    },
  );
  r.get(
    '/admin/kyc',
    {
      onRequest: reviewer.first,
      schema: { tags: ['staff'], response: { 200: okEnvelope(z.object({ items: z.array(kycReviewItem) })) } },
    },
    async (req) => {
      await reviewer(req);
      return ok({ items: await kyc.pending() });
    },
  );
  r.get(
    '/admin/kyc/:id/image/:side',
    { onRequest: reviewer.first, schema: { tags: ['staff'], params: imageParams } },
    async (req, reply) => {
      await reviewer(req);
      const image = await kyc.image(req.params.id, req.params.side, null);
      return reply.header('content-type', 'image/jpeg').header('cache-control', 'private, no-store').send(image);
    },
  );
  r.post(
    '/admin/kyc/:id/decide',
    {
      onRequest: reviewer.first,
      schema: {
        tags: ['staff'],
        params: z.object({ id: z.coerce.number().int().positive() }),
        body: kycDecisionBody,
        response: { 200: okEnvelope(z.object({ done: z.literal(true) })) },
      },
    },
    async (req) => {
      const who = await reviewer(req);
      await kyc.decide(who.staff.id, req.params.id, req.body.decision, req.body.reason);
      return ok({ done: true as const });
    },
  );
}
