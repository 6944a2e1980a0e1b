// /user/assets and /user/tx/record: balances and the ledger lines behind them.

import { balanceView, transferView, txRecordQuery } from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Wallets } from './service.ts';

export function walletRoutes(app: FastifyInstance, accounts: Accounts, wallets: Wallets) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['wallet'];
  const signedIn = guard((req) => accounts.authenticate(bearerToken(req)));
  r.post(
    '/user/assets',
    {
      onRequest: signedIn.first,
      schema: { tags, response: { 200: okEnvelope(z.object({ items: z.array(balanceView) })) } },
    },
    async (req) => {
      const { user } = await signedIn(req);
      return ok({ items: wallets.assets(user.id) });
    },
  );
  r.get(
    '/user/tx/record',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        querystring: txRecordQuery,
        response: { 200: okEnvelope(z.object({ items: z.array(transferView), total: z.number() })) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      return ok(await wallets.txRecord(user.id, req.query));
    },
  );
}
