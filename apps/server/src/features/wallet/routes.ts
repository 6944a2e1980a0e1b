// /user/assets and /user/tx/record: balances and the ledger lines behind them; /coin/assets and
// /coin/transfer: the crypto wallets (spot and contract) valued in USDT, and moving coins between them.

import {
  balanceView,
  coinAssetsView,
  coinTransferBody,
  coinTransferView,
  statementQuery,
  transferView,
  txRecordQuery,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { CoinWallets } from './coin-wallets.ts';
import type { Wallets } from './service.ts';
import type { Statements } from './statement.ts';

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

export function coinWalletRoutes(app: FastifyInstance, accounts: Accounts, coins: CoinWallets) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['wallet'];
  const signedIn = guard((req) => accounts.authenticate(bearerToken(req)));
  r.post(
    '/coin/assets',
    { onRequest: signedIn.first, schema: { tags, response: { 200: okEnvelope(coinAssetsView) } } },
    async (req) => ok(coins.assets((await signedIn(req)).user.id)),
  );
  r.post(
    '/coin/transfer',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        body: coinTransferBody,
        response: { 200: okEnvelope(coinTransferView) },
        description: 'Between your own spot and contract wallets: free and instant. `clientId` makes a retry safe.',
      },
    },
    async (req) => ok(await coins.transfer((await signedIn(req)).user.id, req.body)),
  );
}

/**
 * GET /user/statement?month=YYYY-MM&format=json|csv|pdf (not in SPEC; PRODUCT.md rule 8): the month's
 * statement in the request's language, as data or as a file to download.
 */
export function statementRoutes(app: FastifyInstance, accounts: Accounts, statements: Statements) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = guard((req) => accounts.authenticate(bearerToken(req)));
  r.get(
    '/user/statement',
    {
      onRequest: signedIn.first,
      schema: {
        tags: ['wallet'],
        querystring: statementQuery,
        // No response schema: CSV and PDF are files; the JSON form is contract/stocks.ts's statementView.
        description: 'JSON: {code, msg, data: statementView}; csv and pdf: the file, as an attachment.',
      },
    },
    async (req, reply) => {
      const { user } = await signedIn(req);
      const statement = await statements.build(user.id, req.query.month);
      if (req.query.format === 'json') return ok(statement);
      const lang = req.lang ?? 'en-US';
      const name = `statement-${statement.month}.${req.query.format}`;
      reply
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'private, no-store');
      if (req.query.format === 'csv') {
        // A byte-order mark so spreadsheet apps read the UTF-8 (₹, R$, accents) as such.
        return reply.type('text/csv; charset=utf-8').send(`\uFEFF${statements.csv(statement, lang)}`);
      }
      return reply.type('application/pdf').send(await statements.pdf(statement, lang));
    },
  );
}
