// HTTP routes of crypto deposits (SPEC §7): GET /index/recharge/coins (public), POST
// /coin/recharge/address and /coin/recharge/address/generate, POST /coin/recharge/add (the notice of a
// sent deposit; paper mode: a test deposit from the sandbox faucet), GET /coin/recharge/order.

import {
  cryptoAssetNetworkBody,
  cryptoDepositNoticeBody,
  cryptoDepositOrderQuery,
  cryptoDepositPageView,
  cryptoDepositView,
  depositAddressView,
  depositCoinsView,
} from '@bourse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fieldError } from '../../http/app-error.ts';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts, Authenticated } from '../accounts/service.ts';
import type { CryptoDeposits } from './service.ts';

/**
 * A test deposit's idempotency key: the body's requestId or the Idempotency-Key header (as orders take
 * theirs). A malformed header, or one contradicting the body, is refused rather than ignored.
 */
function requestKey(req: FastifyRequest, fromBody: string | undefined): string | undefined {
  const header = req.headers['idempotency-key'];
  if (header === undefined) return fromBody;
  if (typeof header !== 'string' || !/^[\w-]{8,64}$/.test(header)) throw fieldError('Idempotency-Key', 'field_invalid');
  if (fromBody !== undefined && fromBody !== header) throw fieldError('requestId', 'field_invalid');
  return header;
}

export function cryptoDepositRoutes(app: FastifyInstance, accounts: Accounts, deposits: CryptoDeposits) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = guard((request): Promise<Authenticated> => accounts.authenticate(bearerToken(request)));
  const tags = ['crypto-deposits'];

  r.get('/index/recharge/coins', { schema: { tags, response: { 200: okEnvelope(depositCoinsView) } } }, async () =>
    ok(deposits.coins()),
  );
  r.post(
    '/coin/recharge/address',
    {
      onRequest: signedIn.first,
      schema: { tags, body: cryptoAssetNetworkBody, response: { 200: okEnvelope(depositAddressView) } },
    },
    async (req) => ok(await deposits.address((await signedIn(req)).user.id, req.body)),
  );
  r.post(
    '/coin/recharge/address/generate',
    {
      onRequest: signedIn.first,
      schema: { tags, body: cryptoAssetNetworkBody, response: { 200: okEnvelope(depositAddressView) } },
    },
    async (req) => ok(await deposits.generate((await signedIn(req)).user.id, req.body)),
  );
  r.post(
    '/coin/recharge/add',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          "The customer's notice of a sent deposit. With `txid`: the chain is looked at now and the deposit that transaction made to the customer's address is answered (crypto_tx_not_seen if the network does not show it yet). Paper mode, with `amount` and no `txid`: the sandbox chain's faucet sends that amount to the customer's address (generated if need be) and the new deposit is answered; a `requestId` (or Idempotency-Key header) makes a retry send nothing twice. Deposits are credited by the chain watcher after the network's confirmations, with or without a notice.",
        body: cryptoDepositNoticeBody,
        response: { 200: okEnvelope(cryptoDepositView) },
      },
    },
    async (req) => {
      const userId = (await signedIn(req)).user.id;
      const requestId = requestKey(req, req.body.requestId);
      return done(req, 'submitted', await deposits.notice(userId, { ...req.body, requestId }));
    },
  );
  r.get(
    '/coin/recharge/order',
    {
      onRequest: signedIn.first,
      schema: { tags, querystring: cryptoDepositOrderQuery, response: { 200: okEnvelope(cryptoDepositPageView) } },
    },
    async (req) => ok(await deposits.orders((await signedIn(req)).user.id, req.query)),
  );
}
