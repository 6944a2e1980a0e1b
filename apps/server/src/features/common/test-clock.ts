// Browser tests against a running server need to move time ("the next trading day"): with
// BOURSE_TEST_HOOKS and BOURSE_TEST_CLOCK in paper mode, POST /test/clock/advance {ms} pushes the
// server's clock forward and lets the market and the venue catch up before it answers.

import { wholeNumber } from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import type { Clock } from '../../platform/clock.ts';

export function testClockRoutes(app: FastifyInstance, clock: Clock, catchUp: () => Promise<void>) {
  const movable = clock as Clock & { advance?: (ms: number) => void };
  const advance = movable.advance;
  if (!advance) return;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/test/clock/advance',
    {
      schema: {
        hide: true,
        body: z.object({ ms: wholeNumber(1, 31 * 86_400_000) }),
      },
    },
    async (req) => {
      advance(req.body.ms);
      await catchUp();
      return ok({ now: clock.now() });
    },
  );
}
