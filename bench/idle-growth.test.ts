// An hour of an idle server, simulated (idle-growth-workload.ts): the database grows by less than 5 MB
// and the engine journals next to nothing. Before the fix the same hour grew it by ~740 MB (1.57 M
// commands: the market maker's requotes of books nobody watched). SQLite in memory: the same pages as
// on disk (0.53 MB both) in a third of the wall time (~30 s against ~100 s: no syncs); the bench runs on disk.

import { openDb } from '@bourse/db';
import { expect, it } from 'vitest';
import { idleGrowth } from './idle-growth-workload.ts';

const MB = 1024 * 1024;

it('grows the database of an idle server by less than 5 MB in an hour', async () => {
  const db = await openDb({ dataDir: null });
  try {
    // A pump every 5 simulated seconds (the server's is 1 s): the same market, sampled less often.
    const growth = await idleGrowth(db, { minutes: 60, stepMs: 5_000 });
    console.log(`idle hour: ${JSON.stringify(growth)}`);
    expect(growth.bytesPerHour).toBeLessThan(5 * MB);
    expect(growth.after.orderRows).toBe(growth.before.orderRows);
    expect(growth.commandsPerHour).toBeLessThan(1_000);
  } finally {
    await db.close();
  }
}, 300_000);
