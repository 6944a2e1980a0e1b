// An hour of an idle server, simulated (bench/idle-growth-workload.ts): how much its database grows.
// `node bench/idle-growth.ts [--minutes 60] [--postgres]` prints one line of JSON. SQLite on disk by
// default (a temporary directory); --postgres uses a throwaway schema of the test database.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDb, testDatabases } from '@bourse/db';
import { idleGrowth } from './idle-growth-workload.ts';

const { values } = parseArgs({ options: { minutes: { type: 'string' }, postgres: { type: 'boolean' } } });
const minutes = Number(values.minutes ?? 60);
if (values.postgres) {
  const pg = (await testDatabases()).find((d) => d.dialect === 'postgres');
  if (!pg) throw new Error('PostgreSQL is not reachable at the test database');
  const db = await pg.open();
  try {
    console.log(JSON.stringify(await idleGrowth(db, { minutes })));
  } finally {
    await db.close();
  }
} else {
  const dir = mkdtempSync(join(tmpdir(), 'bourse-idle-'));
  const db = await openDb({ dataDir: dir });
  try {
    console.log(JSON.stringify(await idleGrowth(db, { minutes })));
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
