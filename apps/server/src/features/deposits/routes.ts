// HTTP routes of fiat deposits: SPEC's /index/bank/recharge, /user/recharge/add, /order and /status, the
// owner's proof image, paper mode's "simulate payment", the PIX providers' webhook (signed; read as the
// raw body, since the signature covers its exact bytes), and the finance desk under /admin/deposits.

import {
  addDepositBody,
  depositChannelsQuery,
  depositChannelsView,
  depositDecisionBody,
  depositDetailView,
  depositIdBody,
  depositIdQuery,
  depositOrderQuery,
  depositReviewItem,
  depositView,
} from '@bourse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PIX_SIGNATURE_HEADER } from '../../adapters/payments/pix-port.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import type { Deposits } from './service.ts';

// One proof photo of at most 5 MB, base64-encoded (4/3 larger), plus the text fields.
const BODY_LIMIT = 8 * 1024 * 1024;
const WEBHOOK_BODY_LIMIT = 256 * 1024;
const idParams = z.object({ id: z.coerce.number().int().positive() });

/** The request's key: the body's requestId or the Idempotency-Key header; the two may not disagree. */
function requestKey(req: FastifyRequest, fromBody: string | undefined): string | undefined {
  const header = req.headers['idempotency-key'];
  if (header === undefined) return fromBody;
  if (typeof header !== 'string' || !/^[\w-]{8,64}$/.test(header)) throw fieldError('Idempotency-Key', 'field_invalid');
  if (fromBody !== undefined && fromBody !== header) throw fieldError('requestId', 'field_invalid');
  return header;
}

export function depositRoutes(
  app: FastifyInstance,
  deps: { deposits: Deposits; accounts: Accounts; staff: Staff; pixProvider: string | null },
) {
  const { deposits, accounts, staff } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['deposits'];
  const signedIn = guard((request) => accounts.authenticate(bearerToken(request)));
  const finance = guard((request) => staff.authenticate(bearerToken(request), 'deposits.confirm'));

  r.get(
    '/index/bank/recharge',
    {
      schema: {
        tags,
        description: 'The rails open for fiat deposits per currency, their limits and receiving accounts.',
        querystring: depositChannelsQuery,
        response: { 200: okEnvelope(depositChannelsView) },
      },
    },
    async (req) => ok({ items: deposits.channels(req.query.currency) }),
  );
  r.post(
    '/user/recharge/add',
    {
      bodyLimit: BODY_LIMIT,
      preValidation: signedIn.first,
      schema: {
        tags,
        description:
          'Creates a deposit: bank or offline (reference and proof image) or PIX (answers the BR Code and its QR). A requestId (or Idempotency-Key header) makes a retry answer the first deposit.',
        body: addDepositBody,
        response: { 200: okEnvelope(depositDetailView) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      const { requestId, ...body } = req.body;
      const key = requestKey(req, requestId);
      return done(req, 'submitted', await deposits.add(user.id, body, key));
    },
  );
  r.get(
    '/user/recharge/order',
    {
      preValidation: signedIn.first,
      schema: {
        tags,
        querystring: depositOrderQuery,
        response: { 200: okEnvelope(z.object({ items: z.array(depositView), total: z.number().int() })) },
      },
    },
    async (req) => ok(await deposits.list((await signedIn(req)).user.id, req.query)),
  );
  r.get(
    '/user/recharge/status',
    {
      preValidation: signedIn.first,
      schema: { tags, querystring: depositIdQuery, response: { 200: okEnvelope(depositDetailView) } },
    },
    async (req) => ok(await deposits.detail((await signedIn(req)).user.id, req.query.id)),
  );
  r.get(
    '/user/recharge/proof/:id',
    { preValidation: signedIn.first, schema: { tags, params: idParams } },
    async (req, reply) => {
      const image = await deposits.proof(req.params.id, (await signedIn(req)).user.id);
      return reply.header('content-type', 'image/jpeg').header('cache-control', 'private, no-store').send(image);
    },
  );
  r.post(
    '/user/recharge/simulate',
    {
      preValidation: signedIn.first,
      schema: {
        tags,
        description: 'Paper mode only: the sandbox PIX provider pays this charge (a signed webhook).',
        body: depositIdBody,
        response: { 200: okEnvelope(depositDetailView) },
      },
    },
    async (req) => ok(await deposits.simulate((await signedIn(req)).user.id, req.body.id)),
  );

  // The webhook reads its body as text: the signature is over those exact bytes.
  app.register(async (hooks) => {
    hooks.removeContentTypeParser('application/json');
    hooks.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_req, body, next) => next(null, body),
    );
    hooks.post<{ Params: { provider: string }; Body: string }>(
      '/webhooks/pix/:provider',
      { schema: { hide: true } },
      async (req) => {
        if (req.params.provider !== deps.pixProvider) throw new AppError('not_found');
        // Only a JSON body was kept as its exact text; anything else cannot be checked against its signature.
        if (typeof req.body !== 'string') throw new AppError('unsupported_media_type');
        const signature = req.headers[PIX_SIGNATURE_HEADER];
        const result = await deposits.notify(req.body, typeof signature === 'string' ? signature : undefined);
        return ok(result);
      },
    );
  });

  r.get(
    '/admin/deposits',
    {
      preValidation: finance.first,
      schema: { tags: ['staff'], response: { 200: okEnvelope(z.object({ items: z.array(depositReviewItem) })) } },
    },
    async (req) => {
      await finance(req);
      return ok({ items: await deposits.pendingReview() });
    },
  );
  r.get(
    '/admin/deposits/:id/proof',
    { preValidation: finance.first, schema: { tags: ['staff'], params: idParams } },
    async (req, reply) => {
      await finance(req);
      const image = await deposits.proof(req.params.id, null);
      return reply.header('content-type', 'image/jpeg').header('cache-control', 'private, no-store').send(image);
    },
  );
  r.post(
    '/admin/deposits/:id/decide',
    {
      preValidation: finance.first,
      schema: {
        tags: ['staff'],
        params: idParams,
        body: depositDecisionBody,
        response: { 200: okEnvelope(z.object({ done: z.literal(true) })) },
      },
    },
    async (req) => {
      const who = await finance(req);
      await deposits.decide(who.staff.id, req.params.id, req.body.decision, req.body.reason);
      return ok({ done: true as const });
    },
  );
}
