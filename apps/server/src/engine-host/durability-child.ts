// Child process for the durability test: opens the embedded database in argv[2] and commits argv[3]
// commands one after another through the engine host, each answered only after its commit, and
// writes `ack i` to stdout as each one is answered.

import { writeSync } from 'node:fs';
import { openDb } from '@bourse/db';
import { EngineHost, type ReplayableEngine } from './engine-host.ts';

class Sum implements ReplayableEngine<number, number> {
  total = 0;
  apply(n: number) {
    this.total += n;
    return this.total;
  }
  stateHash() {
    return String(this.total);
  }
  snapshot() {
    return this.total;
  }
}

const db = await openDb({ dataDir: process.argv[2]! });
const host = await EngineHost.open<number, number, Sum>({
  db,
  create: () => new Sum(),
  restore: (s) => Object.assign(new Sum(), { total: s as number }),
  encode: String,
  decode: Number,
});
process.stdout.write('ready\n');
for (let i = 0; i < Number(process.argv[3]); i++) {
  await host.submit(1);
  writeSync(1, `ack ${i}\n`); // synchronous, so the trace shows it exactly when the caller is answered
}
await host.close();
await db.close();
