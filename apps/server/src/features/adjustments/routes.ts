// The console's adjustments desk under /admin/adjustments (adjustments.manage): list, propose, and
// approve or reject another staff member's proposal.

import { adjustmentsQuery, adjustmentView, decideAdjustmentBody, proposeAdjustmentBody } from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Staff } from '../staff/service.ts';
import type { Adjustments } from './service.ts';

export function adjustmentRoutes(app: FastifyInstance, deps: { adjustments: Adjustments; staff: Staff }) {
  const { adjustments, staff } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff'];
  const manager = guard((req) => staff.authenticate(bearerToken(req), 'adjustments.manage'));
  r.get(
    '/admin/adjustments',
    {
      preValidation: manager.first,
      schema: {
        tags,
        querystring: adjustmentsQuery,
        response: { 200: okEnvelope(z.object({ items: z.array(adjustmentView) })) },
      },
    },
    async (req) => {
      await manager(req);
      return ok({ items: await adjustments.list(req.query.status) });
    },
  );
  r.post(
    '/admin/adjustments',
    {
      preValidation: manager.first,
      schema: { tags, body: proposeAdjustmentBody, response: { 200: okEnvelope(adjustmentView) } },
    },
    async (req) => {
      const who = await manager(req);
      return done(req, 'submitted', await adjustments.propose(who.staff.id, req.body));
    },
  );
  r.post(
    '/admin/adjustments/:id/decide',
    {
      preValidation: manager.first,
      schema: {
        tags,
        params: z.object({ id: z.coerce.number().int().positive() }),
        body: decideAdjustmentBody,
        response: { 200: okEnvelope(adjustmentView) },
      },
    },
    async (req) => {
      const who = await manager(req);
      return ok(await adjustments.decide(who.staff.id, req.params.id, req.body.decision, req.body.reason));
    },
  );
}
