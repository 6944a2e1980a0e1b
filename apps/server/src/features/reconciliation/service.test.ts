// The reconciliation job: nothing runs as it starts, a run follows shortly after and then one every
// interval; a run asked for during another joins it; a failed run logs its discrepancies at error level;
// stopped, it runs no more; with an interval of 0 it never runs by itself. (Minutes are shortened here.)

import { testDatabases } from '@bourse/db';
import { expect, it } from 'vitest';
import { testApp } from '../../testing.ts';
import { Reconciliation, type ReconciliationLog } from './service.ts';

const [sqlite] = await testDatabases();

async function until(condition: () => boolean, what: string) {
  for (const deadline = Date.now() + 10_000; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

it('runs after start-up and then on schedule, one at a time, and logs a failed run with its discrepancies', async () => {
  const db = await sqlite!.open();
  const t = await testApp(db, { reconcileEveryMin: 0 });
  const logged: { level: 'info' | 'error'; details: Record<string, unknown> }[] = [];
  const log: ReconciliationLog = {
    info: (details) => logged.push({ level: 'info', details: details as Record<string, unknown> }),
    error: (details) => logged.push({ level: 'error', details: details as Record<string, unknown> }),
  };
  const job = new Reconciliation({
    db,
    engine: t.app.engine,
    clock: t.clock,
    log,
    everyMin: 1,
    minuteMs: 40,
    firstRunDelayMs: 20,
  });
  try {
    job.start();
    // Starting runs nothing by itself: /health and the first requests never wait for it.
    expect(job.state()).toEqual({ last: null, running: false, everyMin: 1 });
    await until(() => job.state().last !== null, 'the start-up run');
    expect(job.state().last).toMatchObject({ trigger: 'start_up', status: 'ok' });
    await until(() => job.state().last?.trigger === 'schedule', 'a scheduled run');
    expect(logged.every((entry) => entry.level === 'info')).toBe(true);

    // Asked for twice at once (or during a scheduled one): one run, both answered with it.
    await until(() => !job.state().running, 'the scheduled run to end');
    const first = job.run('staff');
    expect(job.state().running).toBe(true);
    expect(job.run('staff')).toBe(first);
    expect((await first).trigger).toBe('staff');

    // A transfer lost behind the engine's back: the next scheduled run fails and says why, at error level.
    await db.run(`DELETE FROM ledger_transfers WHERE transfer_id = (SELECT MIN(transfer_id) FROM ledger_transfers)`);
    await until(() => logged.some((entry) => entry.level === 'error'), 'a failed run');
    const failed = logged.find((entry) => entry.level === 'error')!.details;
    expect(failed.discrepancyCount).toBe(2);
    expect(failed.discrepancies).toEqual([
      expect.objectContaining({ kind: 'balance_mismatch' }),
      expect.objectContaining({ kind: 'balance_mismatch' }),
    ]);

    await job.stop();
    const runs = logged.length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(logged.length).toBe(runs);
  } finally {
    await job.stop();
    await t.close();
    await db.close();
  }
});

it('never runs by itself with an interval of 0', async () => {
  const db = await sqlite!.open();
  const t = await testApp(db, { reconcileEveryMin: 0 });
  const job = new Reconciliation({
    db,
    engine: t.app.engine,
    clock: t.clock,
    log: { info: () => {}, error: () => {} },
    everyMin: 0,
    firstRunDelayMs: 0,
  });
  try {
    job.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(job.state()).toEqual({ last: null, running: false, everyMin: 0 });
  } finally {
    await job.stop();
    await t.close();
    await db.close();
  }
});
