// HTTP routes of the options line: SPEC's /stock/index/option/rule and /stock/order/option/{apply,list,
// statistics}, with the chain (/stock/index/option/chain) and the early close (/stock/order/option/close)
// the screens need, and the console's read-only desk at /admin/options/desk (options.read: nothing there
// sets a price or a result).

import {
  applyOptionBody,
  closeOptionBody,
  optionChainQuery,
  optionChainView,
  optionListQuery,
  optionListView,
  optionResult,
  optionRuleView,
  optionStatisticsView,
  staffOptionsDeskView,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import { idempotencyKey } from '../stocks/routes.ts';
import type { Options } from './service.ts';

export function optionRoutes(app: FastifyInstance, deps: { options: Options; accounts: Accounts; staff: Staff }) {
  const { options, accounts, staff } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['options'];
  const signedIn = guard((request) => accounts.authenticate(bearerToken(request)));
  const desk = guard((request) => staff.authenticate(bearerToken(request), 'options.read'));
  const pinOf = (user: Parameters<Accounts['checkPin']>[0]) => (pin: string | undefined) =>
    accounts.checkPin(user, 'trade', pin);

  r.get(
    '/stock/index/option/rule',
    {
      schema: {
        tags,
        description:
          'The rule page: minimum purchase, the market maker and its spread, the rate, contract sizes, expiries.',
        response: { 200: okEnvelope(optionRuleView) },
      },
    },
    async () => ok(options.rule()),
  );
  r.get(
    '/stock/index/option/chain',
    {
      schema: {
        tags,
        description:
          "An underlying's chain for one expiry: strikes around spot, the market maker's bid and ask for calls and puts, the model price and Greeks.",
        querystring: optionChainQuery,
        response: { 200: okEnvelope(optionChainView) },
      },
    },
    async (req) => ok(options.chain(req.query)),
  );
  r.post(
    '/stock/order/option/apply',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          "Buys contracts of a series at the market maker's ask: the premium (the most the buyer can lose) moves from the stock wallet.",
        body: applyOptionBody,
        response: { 200: okEnvelope(optionResult) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      const key = idempotencyKey(req, undefined);
      return done(req, 'submitted', { option: await options.buy(user, req.body, pinOf(user), key) });
    },
  );
  r.post(
    '/stock/order/option/close',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description: "Closes an open position before expiry at the market maker's bid.",
        body: closeOptionBody,
        response: { 200: okEnvelope(optionResult) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      const key = idempotencyKey(req, undefined);
      return done(req, 'submitted', { option: await options.close(user, req.body, pinOf(user), key) });
    },
  );
  r.get(
    '/stock/order/option/list',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          "The customer's options, newest first: open ones valued at the bid, closed ones with their result.",
        querystring: optionListQuery,
        response: { 200: okEnvelope(optionListView) },
      },
    },
    async (req) => ok(await options.list((await signedIn(req)).user.id, req.query)),
  );
  r.get(
    '/stock/order/option/statistics',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description: 'Open and closed counts, premium, value and P&L.',
        response: { 200: okEnvelope(optionStatisticsView) },
      },
    },
    async (req) => ok(await options.statistics((await signedIn(req)).user.id)),
  );

  r.get(
    '/admin/options/desk',
    {
      onRequest: desk.first,
      schema: {
        tags,
        description:
          "The options desk (read only): underlyings and expiries, the market maker's balance and exposure, open positions, settlements done and due.",
        response: { 200: okEnvelope(staffOptionsDeskView) },
      },
    },
    async (req) => {
      await desk(req);
      return ok(await options.desk());
    },
  );
}
