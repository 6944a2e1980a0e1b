// /user/assets and /user/tx/record: balances and the ledger lines behind them.

import { balanceView, transferView, txRecordQuery } from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken } from '../../http/auth.ts';
import { ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Wallets } from './service.ts';

export function walletRoutes(app: FastifyInstance, accounts: Accounts, wallets: Wallets) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['wallet'];
  r.post(
    '/user/assets',
    { schema: { tags, response: { 200: okEnvelope(z.object({ items: z.array(balanceView) })) } } },
    async (req) => {
      const { user } = await accounts.authenticate(bearerToken(req));
      return ok({ items: wallets.assets(user.id) });
    },
  );
  r.get(
    '/user/tx/record',
    {
      schema: {
        tags,
        querystring: txRecordQuery,
        response: { 200: okEnvelope(z.object({ items: z.array(transferView), total: z.number() })) },
      },
    },
    async (req) => {
      const { user } = await accounts.authenticate(bearerToken(req));
      return ok(await wallets.txRecord(user.id, req.query));
    },
  );
}
