// The perpetual contracts' calls of SPEC §7 (/coin/contract/order/*), the contract list and the
// customer's records; and the staff console's read-only desk (insurance fund, open interest, liquidations).

import {
  bookView,
  perpAddMarginBody,
  perpClosedPositionView,
  perpClosePositionBody,
  perpCloseResult,
  perpContractView,
  perpFundingView,
  perpLeverageBody,
  perpLeverageView,
  perpLiquidationView,
  perpOrderIdBody,
  perpOrderListBody,
  perpOrderResult,
  perpOrderView,
  perpPositionListBody,
  perpPositionListView,
  perpPositionResult,
  perpRecordListBody,
  perpTriggerBody,
  placePerpOrderBody,
} from '@bourse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldError } from '../../http/app-error.ts';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import type { Perpetuals } from './service.ts';

const paged = <T extends z.ZodType>(item: T) => okEnvelope(z.object({ items: z.array(item), total: z.number().int() }));

/** The body's clientOrderId or the Idempotency-Key header; the two may not disagree. */
const idempotencyKey = (req: FastifyRequest, clientOrderId: string | undefined): string | undefined => {
  const header = req.headers['idempotency-key'];
  if (header === undefined) return clientOrderId;
  if (typeof header !== 'string' || !/^[\w-]{8,64}$/.test(header)) throw fieldError('Idempotency-Key', 'field_invalid');
  if (clientOrderId !== undefined && clientOrderId !== header) throw fieldError('clientOrderId', 'field_invalid');
  return header;
};

export function perpetualRoutes(app: FastifyInstance, d: { accounts: Accounts; perps: Perpetuals }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['perpetual contracts'];
  const signedIn = guard((req) => d.accounts.authenticate(bearerToken(req)));
  const userId = async (req: FastifyRequest) => (await signedIn(req)).user.id;
  const base = '/coin/contract/order';

  r.post(
    '/coin/contract/infos',
    {
      schema: {
        tags,
        description: 'Every contract: tiers, fees, index and mark price, funding rate and next funding time.',
        response: { 200: okEnvelope(z.object({ items: z.array(perpContractView) })) },
      },
    },
    async (req) => {
      // Signed in or not: a session only adds the account's leverage cap.
      const session = req.headers.token ? await d.accounts.authenticate(bearerToken(req)).catch(() => null) : null;
      return ok({ items: await d.perps.contracts(session?.user.id) });
    },
  );

  r.post(
    '/coin/contract/books',
    {
      schema: {
        tags,
        description: "A contract's order book, best 10 levels a side (looking keeps the liquidity ladder fresh).",
        body: perpPositionListBody.required(),
        response: { 200: okEnvelope(bookView) },
      },
    },
    async (req) => ok(d.perps.book(req.body.symbol)),
  );

  r.post(
    `${base}/multiple`,
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description: 'Reads (no leverage) or sets the leverage of one contract for the customer.',
        body: perpLeverageBody,
        response: { 200: okEnvelope(perpLeverageView) },
      },
    },
    async (req) => {
      const view = await d.perps.leverage(await userId(req), req.body.symbol, req.body.leverage);
      return req.body.leverage === undefined ? ok(view) : done(req, 'modified', view);
    },
  );

  r.post(
    `${base}/add`,
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'Opens, adds to or reduces the one-way position (market or limit), after the 6-digit transaction password; TP/SL may come with it.',
        body: placePerpOrderBody,
        response: { 200: okEnvelope(perpOrderResult) },
      },
    },
    async (req) => {
      const id = await userId(req);
      const clientOrderId = idempotencyKey(req, req.body.clientOrderId);
      return done(req, 'submitted', await d.perps.placeOrder(id, { ...req.body, clientOrderId }));
    },
  );

  r.post(
    `${base}/close`,
    {
      onRequest: signedIn.first,
      schema: { tags, body: perpOrderIdBody, response: { 200: okEnvelope(perpOrderView) } },
    },
    async (req) => done(req, 'cancelled', await d.perps.cancelOrder(await userId(req), req.body.id)),
  );

  r.post(
    `${base}/list`,
    { onRequest: signedIn.first, schema: { tags, body: perpOrderListBody, response: { 200: paged(perpOrderView) } } },
    async (req) => ok(await d.perps.orders(await userId(req), req.body)),
  );

  r.post(
    `${base}/query`,
    {
      onRequest: signedIn.first,
      schema: { tags, body: perpOrderIdBody, response: { 200: okEnvelope(perpOrderView) } },
    },
    async (req) => ok(await d.perps.order(await userId(req), req.body.id)),
  );

  r.post(
    `${base}/list/active`,
    {
      onRequest: signedIn.first,
      schema: { tags, body: perpPositionListBody, response: { 200: okEnvelope(perpPositionListView) } },
    },
    async (req) => ok(await d.perps.positions(await userId(req), req.body.symbol)),
  );

  for (const [path, kind] of [
    ['set/profit', 'tp'],
    ['set/loss', 'sl'],
  ] as const) {
    r.post(
      `${base}/${path}`,
      {
        onRequest: signedIn.first,
        schema: { tags, body: perpTriggerBody, response: { 200: okEnvelope(perpPositionResult) } },
      },
      async (req) => {
        const position = await d.perps.setTrigger(await userId(req), req.body.id, kind, req.body.price);
        return done(req, 'modified', { position });
      },
    );
  }

  r.post(
    `${base}/add/mgn`,
    {
      onRequest: signedIn.first,
      schema: { tags, body: perpAddMarginBody, response: { 200: okEnvelope(perpPositionResult) } },
    },
    async (req) => {
      const { id, amount, clientId } = req.body;
      return done(req, 'modified', { position: await d.perps.addMargin(await userId(req), id, amount, clientId) });
    },
  );

  r.post(
    `${base}/liquidate`,
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description: "Closes one of the customer's positions at market (a reduce-only order for its whole size).",
        body: perpClosePositionBody,
        response: { 200: okEnvelope(perpCloseResult) },
      },
    },
    async (req) => done(req, 'submitted', { orders: [await d.perps.closePosition(await userId(req), req.body.id)] }),
  );

  r.post(
    `${base}/liquidate/all`,
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description: 'Closes every open position at market.',
        response: { 200: okEnvelope(perpCloseResult) },
      },
    },
    async (req) => done(req, 'submitted', { orders: await d.perps.closeAll(await userId(req)) }),
  );

  r.post(
    '/coin/contract/records/funding',
    {
      onRequest: signedIn.first,
      schema: { tags, body: perpRecordListBody, response: { 200: paged(perpFundingView) } },
    },
    async (req) => ok(await d.perps.funding(await userId(req), req.body)),
  );

  r.post(
    '/coin/contract/records/liquidations',
    {
      onRequest: signedIn.first,
      schema: { tags, body: perpRecordListBody, response: { 200: paged(perpLiquidationView) } },
    },
    async (req) => ok(await d.perps.liquidations(await userId(req), req.body)),
  );

  r.post(
    '/coin/contract/records/positions',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description: 'Closed positions: size, entry and exit averages, realised P&L, fees, funding and why they ended.',
        body: perpRecordListBody,
        response: { 200: paged(perpClosedPositionView) },
      },
    },
    async (req) => ok(await d.perps.closedPositions(await userId(req), req.body)),
  );
}

/** The staff console's read-only liquidation records (who may read the reconciliation): nothing here moves money. */
export function perpetualConsoleRoutes(app: FastifyInstance, d: { perps: Perpetuals; staff: Staff }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const as = guard((req) => d.staff.authenticate(bearerToken(req), 'reconciliation.read'));
  // The desk itself (insurance fund, open interest) is console-routes.ts's GET /admin/perpetuals/desk.
  r.get(
    '/admin/perpetuals/liquidations',
    {
      onRequest: as.first,
      schema: {
        tags: ['staff'],
        querystring: perpRecordListBody,
        response: { 200: paged(perpLiquidationView) },
      },
    },
    async (req) => {
      await as(req);
      return ok(await d.perps.liquidations(null, req.query));
    },
  );
}
