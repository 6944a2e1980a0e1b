// The console's listings desk, GET /admin/listings (listings.manage): the catalogue with each
// instrument's trading state and where it came from. Read only: stocks are listed by an IPO's listing
// day and coins by a coin offering's close (features/listings/service.ts), never from here.

import { staffListingsView } from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { ok, okEnvelope } from '../../http/envelope.ts';
import type { Staff } from '../staff/service.ts';
import type { Listings } from './service.ts';

export function listingRoutes(app: FastifyInstance, d: { listings: Listings; staff: Staff }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const desk = guard((req) => d.staff.authenticate(bearerToken(req), 'listings.manage'));
  r.get(
    '/admin/listings',
    {
      onRequest: desk.first,
      schema: {
        tags: ['staff'],
        description:
          'Every instrument in the catalogue: its trading state now, its last price, and where it came from (the built-in catalogue, or the IPO or coin offering that listed it). Read only.',
        response: { 200: okEnvelope(staffListingsView) },
      },
    },
    async (req) => {
      await desk(req);
      return ok(await d.listings.desk());
    },
  );
}
