// A tables worker for the service's tests that never answers, as a reading stuck in the database would.
// It says it is alive, with its thread id, on a broadcast channel every few milliseconds, so a test can
// tell each one apart and see when it has been ended (its messages stop).

import { BroadcastChannel, threadId } from 'node:worker_threads';

/** Also named in service.test.ts, which must not import this file (it would start saying so itself). */
const channel = new BroadcastChannel('reconciliation-stuck-worker');
setInterval(() => channel.postMessage(threadId), 5);
