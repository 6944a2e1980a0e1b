// An hour of an idle server, simulated (idle-growth-workload.ts), on SQLite on disk: the database grows
// by less than 5 MB and the engine journals next to nothing. Before the fix the same hour grew it by
// ~740 MB (1.57 M commands: the market maker's requotes of books nobody watched).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '@bourse/db';
import { expect, it } from 'vitest';
import { idleGrowth } from './idle-growth-workload.ts';

const MB = 1024 * 1024;

it('grows the database of an idle server by less than 5 MB in an hour', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bourse-idle-'));
  const db = await openDb({ dataDir: dir });
  try {
    // A pump every 5 simulated seconds (the server's is 1 s): the same market, a fifth of the wall time.
    const growth = await idleGrowth(db, { minutes: 60, stepMs: 5_000 });
    console.log(`idle hour: ${JSON.stringify(growth)}`);
    expect(growth.bytesPerHour).toBeLessThan(5 * MB);
    expect(growth.after.orderRows).toBe(growth.before.orderRows);
    expect(growth.commandsPerHour).toBeLessThan(1_000);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 300_000);
