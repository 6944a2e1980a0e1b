// The customer's API keys (security settings): GET /user/apikey/list, POST /user/apikey/add (the secret
// is in this answer only), POST /user/apikey/del. Signed in.

import { addApiKeyBody, apiKeyCreatedView, apiKeyIdBody, apiKeyListView } from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { ApiKeys } from './service.ts';

export function apiKeyRoutes(app: FastifyInstance, accounts: Accounts, keys: ApiKeys) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['api keys'];
  const signedIn = guard((req) => accounts.authenticate(bearerToken(req)));
  r.get(
    '/user/apikey/list',
    { onRequest: signedIn.first, schema: { tags, response: { 200: okEnvelope(apiKeyListView) } } },
    async (req) => ok(await keys.list((await signedIn(req)).user.id)),
  );
  r.post(
    '/user/apikey/add',
    {
      onRequest: signedIn.first,
      schema: { tags, body: addApiKeyBody, response: { 200: okEnvelope(apiKeyCreatedView) } },
    },
    async (req) => ok(await keys.add((await signedIn(req)).user, req.body)),
  );
  r.post(
    '/user/apikey/del',
    { onRequest: signedIn.first, schema: { tags, body: apiKeyIdBody, response: { 200: okEnvelope(z.null()) } } },
    async (req) => {
      await keys.revoke((await signedIn(req)).user.id, req.body.id);
      return ok(null);
    },
  );
}
