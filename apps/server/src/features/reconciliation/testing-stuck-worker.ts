// A tables worker for the service's tests that never answers, as a reading stuck in the database would.
// It says it is alive on a broadcast channel every few milliseconds, so a test can tell when it has been
// ended (its messages stop).

import { BroadcastChannel } from 'node:worker_threads';

/** Also named in service.test.ts, which must not import this file (it would start saying so itself). */
const channel = new BroadcastChannel('reconciliation-stuck-worker');
setInterval(() => channel.postMessage('alive'), 5);
