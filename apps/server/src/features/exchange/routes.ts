// SPEC's POST /user/exchange (quote, then accept within the quote's validity) and the desk's current
// rates for the exchange pages (GET /user/exchange/rates); the crypto convert desk of exchange/cryptoConvert
// as POST /coin/convert and GET /coin/convert/rates (coins in the spot wallet, same quotes). Signed in.

import {
  coinConvertBody,
  coinConvertRatesView,
  exchangeBody,
  exchangeQuoteView,
  exchangeRatesView,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Exchange } from './service.ts';

export function exchangeRoutes(app: FastifyInstance, accounts: Accounts, exchange: Exchange) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['exchange'];
  const signedIn = guard((req) => accounts.authenticate(bearerToken(req)));
  r.post(
    '/user/exchange',
    {
      onRequest: signedIn.first,
      schema: { tags, body: exchangeBody, response: { 200: okEnvelope(exchangeQuoteView) } },
    },
    async (req) => {
      const { user } = await signedIn(req);
      const body = req.body;
      return ok(
        body.action === 'quote' ? await exchange.quote(user.id, body) : await exchange.accept(user.id, body.quoteId),
      );
    },
  );
  r.get(
    '/user/exchange/rates',
    { onRequest: signedIn.first, schema: { tags, response: { 200: okEnvelope(exchangeRatesView) } } },
    async (req) => {
      await signedIn(req);
      return ok(exchange.rates());
    },
  );
  r.post(
    '/coin/convert',
    {
      onRequest: signedIn.first,
      schema: { tags, body: coinConvertBody, response: { 200: okEnvelope(exchangeQuoteView) } },
    },
    async (req) => {
      const { user } = await signedIn(req);
      const body = req.body;
      return ok(
        body.action === 'quote'
          ? await exchange.coinQuote(user.id, body)
          : await exchange.accept(user.id, body.quoteId),
      );
    },
  );
  r.get(
    '/coin/convert/rates',
    { onRequest: signedIn.first, schema: { tags, response: { 200: okEnvelope(coinConvertRatesView) } } },
    async (req) => {
      await signedIn(req);
      return ok(exchange.coinRates());
    },
  );
}
