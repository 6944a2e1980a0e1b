// The HTTP benchmarks' reference (a child process): a bare Fastify server with the same two calls the
// order load uses, validating with the same zod schemas (placeStockOrderBody, orderIdQuery) and answering
// the same envelope through the same serializer, echoing the request's x-request-id as the real server
// does, and doing nothing else (no session, no PIN, no engine, no database, no request log); and GET
// /ipor-api/health answering what the real server's does (http-health-bench.ts). What the real server
// does beyond this is the cost being measured.
// Run by http-bench.ts: node bench/http-reference.ts PORT (prints "listening" when ready).

import type { IncomingHttpHeaders } from 'node:http';
import { orderIdQuery, placeStockOrderBody, stockOrderView } from '@bourse/contract';
import Fastify, { type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tuneV8 } from '../apps/server/src/platform/v8-tuning.ts';

// The same V8 settings as the real server (main.ts), so that the comparison is of the work alone.
tuneV8();

const envelope = z.object({ code: z.literal(0), msg: z.string(), data: z.object({ order: stockOrderView }) });

const app = Fastify({ logger: false });
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
const r = app.withTypeProvider<ZodTypeProvider>();

let nextId = 1;
const view = (id: number, side: 'buy' | 'sell', status: 'pending' | 'cancelled', price: string, quantity: string) => ({
  id,
  symbol: 'NSE:RELIANCE',
  name: 'Reliance Industries',
  side,
  orderType: 'limit' as const,
  price,
  quantity,
  filledQuantity: '0',
  avgFillPrice: null,
  amount: '0.00',
  fee: '0.00',
  currency: 'INR',
  status,
  afterMarket: false,
  createdAt: 0,
  updatedAt: 0,
});

/** As the real server does (the load tells answers apart by it). */
function echoRequestId(headers: IncomingHttpHeaders, reply: FastifyReply) {
  const id = headers['x-request-id'];
  if (typeof id === 'string') reply.header('x-request-id', id);
}

for (const side of ['buy', 'sell'] as const) {
  r.post(
    `/ipor-api/stock/order/${side}`,
    { schema: { body: placeStockOrderBody, response: { 200: envelope } } },
    async (req, reply) => {
      echoRequestId(req.headers, reply);
      return {
        code: 0 as const,
        msg: 'success',
        data: { order: view(nextId++, side, 'pending', req.body.price ?? '0', req.body.quantity) },
      };
    },
  );
}
r.get(
  '/ipor-api/stock/order/cancel',
  { schema: { querystring: orderIdQuery, response: { 200: envelope } } },
  async (req, reply) => {
    echoRequestId(req.headers, reply);
    return { code: 0 as const, msg: 'success', data: { order: view(req.query.id, 'buy', 'cancelled', '0', '1') } };
  },
);

// What the real server's health route answers in paper mode, with no hooks, headers or log around it.
app.get('/ipor-api/health', async () => ({ code: 0, msg: 'ok', data: { mode: 'paper' } }));

await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
process.stdout.write('listening\n');
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
