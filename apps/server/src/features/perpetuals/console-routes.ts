// The staff console's perpetuals desk: one read-only call (who may read the reconciliation, as the spot
// liquidity page). Nothing here sets a price or closes a customer's position.

import { staffPerpetualsDesk } from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { ok, okEnvelope } from '../../http/envelope.ts';
import type { Staff } from '../staff/service.ts';
import type { PerpetualsDesk } from './console-desk.ts';

export function perpetualsConsoleRoutes(app: FastifyInstance, d: { desk: PerpetualsDesk; staff: Staff }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const as = guard((req) => d.staff.authenticate(bearerToken(req), 'reconciliation.read'));
  r.get(
    '/admin/perpetuals/desk',
    {
      onRequest: as.first,
      schema: {
        tags: ['staff'],
        description:
          'The insurance fund and its ledger lines, open interest per contract, liquidations and ADL (read only).',
        response: { 200: okEnvelope(staffPerpetualsDesk) },
      },
    },
    async (req) => {
      await as(req);
      return ok(await d.desk.desk());
    },
  );
}
