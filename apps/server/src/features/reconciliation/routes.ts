// HTTP routes of the reconciliation under /admin: the last report (none before the first run has
// finished) and a run on request, which answers its report. Both need reconciliation.read.

import { reconciliationReport, reconciliationState } from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { ok, okEnvelope } from '../../http/envelope.ts';
import type { Staff } from '../staff/service.ts';
import type { Reconciliation } from './service.ts';

export function reconciliationRoutes(app: FastifyInstance, deps: { reconciliation: Reconciliation; staff: Staff }) {
  const { reconciliation, staff } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff'];
  const as = guard((request) => staff.authenticate(bearerToken(request), 'reconciliation.read'));

  r.get(
    '/admin/reconciliation',
    { onRequest: as.first, schema: { tags, response: { 200: okEnvelope(reconciliationState) } } },
    async (req) => {
      await as(req);
      return ok(reconciliation.state());
    },
  );
  r.post(
    '/admin/reconciliation/run',
    { onRequest: as.first, schema: { tags, response: { 200: okEnvelope(reconciliationReport) } } },
    async (req) => ok(await reconciliation.runFor((await as(req)).staff.id)),
  );
}
