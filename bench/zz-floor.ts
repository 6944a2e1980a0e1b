import { type Command, Engine } from '@bourse/engine';
import { EngineWorkload } from './engine-workload.ts';
const total = 1_000_000;
const engine = new Engine({ maxOpenOrdersPerUser: 200, rememberedCommandsMax: 0 });
const workload = new EngineWorkload(7, 10_000);
for (const c of workload.setup()) if (!engine.apply(c).ok) throw new Error('setup');
const state = (engine as any).state;
const batch: Command[] = new Array(1000);
let applied = 0, busy = 0;
while (applied < total) {
  for (let i = 0; i < 1000; i++) batch[i] = workload.next(applied + i);
  const t = performance.now();
  for (let i = 0; i < 1000; i++) {
    const c = batch[i] as Command;
    const before = state.nextOrderId;
    state.quiet = true;
    const r = engine.apply(c);
    state.quiet = false;
    if (c.type === 'place_order' && r.ok && state.nextOrderId > before && state.orders.get(before) !== undefined)
      (workload as any).observe({ ok: true, events: [{ type: 'order_placed', orderId: before, userId: c.userId }] });
  }
  busy += performance.now() - t;
  applied += 1000;
}
console.log(JSON.stringify({ opsPerSec: Math.round(total / (busy / 1000)) }));
