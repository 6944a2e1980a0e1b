// HTTP routes of the customer's bank accounts (SPEC §7: /bank/*, /index/bank/tmpl).

import {
  addBankBody,
  bankAccountView,
  bankIdQuery,
  bankListView,
  bankTemplateQuery,
  bankTemplateView,
  delBankBody,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts, Authenticated } from '../accounts/service.ts';
import { BANK_TEMPLATES, type BankAccounts } from './service.ts';

export function bankAccountRoutes(app: FastifyInstance, accounts: Accounts, banks: BankAccounts) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = guard((request): Promise<Authenticated> => accounts.authenticate(bearerToken(request)));
  const tags = ['bank-accounts'];

  r.post(
    '/bank/add',
    {
      onRequest: signedIn.first,
      schema: { tags, body: addBankBody, response: { 200: okEnvelope(bankAccountView) } },
    },
    async (req) => done(req, 'submitted', await banks.add((await signedIn(req)).user, req.body)),
  );
  r.post(
    '/bank/del',
    {
      onRequest: signedIn.first,
      schema: { tags, body: delBankBody, response: { 200: okEnvelope(z.object({ done: z.literal(true) })) } },
    },
    async (req) => {
      await banks.del((await signedIn(req)).user, req.body.id);
      return done(req, 'deleted', { done: true as const });
    },
  );
  r.get(
    '/bank/list',
    { onRequest: signedIn.first, schema: { tags, response: { 200: okEnvelope(bankListView) } } },
    async (req) => ok(await banks.list((await signedIn(req)).user)),
  );
  r.get(
    '/bank/info',
    {
      onRequest: signedIn.first,
      schema: { tags, querystring: bankIdQuery, response: { 200: okEnvelope(bankAccountView) } },
    },
    async (req) => ok(await banks.info((await signedIn(req)).user, req.query.id)),
  );
  r.get(
    '/index/bank/tmpl',
    { schema: { tags, querystring: bankTemplateQuery, response: { 200: okEnvelope(bankTemplateView) } } },
    async (req) =>
      ok({
        country: req.query.country,
        fields: BANK_TEMPLATES[req.query.country].map((name) => ({ name, required: true })),
      }),
  );
}
