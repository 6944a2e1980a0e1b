// The reconciliation job: nothing runs as it starts, a run follows shortly after and then one every
// interval; a run asked for while another runs gets the next one, begun after it and shared by the requests
// made meanwhile; a failed run logs its discrepancies at error level; stopped, it runs no more; with an
// interval of 0 it never runs by itself; a reading on a worker thread that never answers is ended at the
// time limit, or by stop(). (Minutes are shortened here.)

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { openDb, testDatabases } from '@bourse/db';
import { afterAll, expect, it } from 'vitest';
import { testApp } from '../../testing.ts';
import { Reconciliation, type ReconciliationLog } from './service.ts';

const [sqlite] = await testDatabases();
const files = mkdtempSync(join(tmpdir(), 'bourse-reconcile-service-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));

type Logged = { level: 'info' | 'error'; details: Record<string, unknown>; message: string };

function recorder(): { logged: Logged[]; log: ReconciliationLog } {
  const logged: Logged[] = [];
  return {
    logged,
    log: {
      info: (details, message) => logged.push({ level: 'info', details: details as Record<string, unknown>, message }),
      error: (details, message) =>
        logged.push({ level: 'error', details: details as Record<string, unknown>, message }),
    },
  };
}

async function until(condition: () => boolean, what: string) {
  for (const deadline = Date.now() + 10_000; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

it('runs after start-up and then on schedule, and logs a failed run with its discrepancies', async () => {
  const db = await sqlite!.open();
  const t = await testApp(db, { reconcileEveryMin: 0 });
  const { logged, log } = recorder();
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

it('answers a run asked for while one runs with the next, begun once that one ends and shared by the requests made meanwhile', async () => {
  const db = await sqlite!.open();
  const t = await testApp(db, { reconcileEveryMin: 0 });
  const engine = t.app.engine;
  const steps: string[] = [];
  const job = new Reconciliation({
    db,
    engine,
    clock: t.clock,
    log: {
      info: (details) => steps.push(`balanced at ${(details as { seq: number }).seq}`),
      error: (details) => steps.push(`failed: ${JSON.stringify(details)}`),
    },
    everyMin: 0,
  });
  const committed = engine.committed.bind(engine);
  engine.committed = (seq: number) => {
    steps.push(`reads at ${seq}`);
    return committed(seq);
  };
  try {
    const first = job.run('schedule');
    const firstSeq = engine.seq;
    // A command lands after the first run took its figures; then the schedule asks, and a staff member
    // twice: one next run for all three, whose figures come after the requests.
    const late = engine.apply({
      type: 'deposit',
      id: 'late-grant',
      userId: 'late',
      wallet: 'stock',
      asset: 'INR',
      amount: '1.00',
      from: 'faucet',
      cause: 'paper_grant',
    });
    expect(late.result?.ok).toBe(true);
    const askedAt = engine.seq;
    const second = job.run('schedule');
    expect(second).not.toBe(first);
    expect(job.run('staff')).toBe(second);
    expect(job.run('staff')).toBe(second);
    expect(job.state().running).toBe(true);
    const [a, b] = await Promise.all([first, second]);
    expect(a).toMatchObject({ seq: firstSeq, trigger: 'schedule', status: 'ok' });
    // A staff member shares it: the report says someone asked.
    expect(b).toMatchObject({ seq: askedAt, trigger: 'staff', status: 'ok' });
    expect(steps).toEqual([
      `reads at ${firstSeq}`,
      `balanced at ${firstSeq}`,
      `reads at ${askedAt}`,
      `balanced at ${askedAt}`,
    ]);
    expect(job.state()).toMatchObject({ running: false, last: b });
  } finally {
    engine.committed = committed;
    await job.stop();
    await t.close();
    await db.close();
  }
});

/** Each stuck test worker's signs of life, by its thread id (testing-stuck-worker.ts). */
function stuckWorkerSigns() {
  const channel = new BroadcastChannel('reconciliation-stuck-worker');
  const byWorker = new Map<number, number>();
  channel.onmessage = (event) => {
    const id = (event as MessageEvent).data as number;
    byWorker.set(id, (byWorker.get(id) ?? 0) + 1);
  };
  return { byWorker, close: () => channel.close() };
}

/** Checks that a stuck worker has stopped saying it is alive: it was ended. */
async function ended(byWorker: Map<number, number>, worker: number) {
  await new Promise((resolve) => setTimeout(resolve, 50)); // messages already on their way
  const count = byWorker.get(worker);
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect(byWorker.get(worker)).toBe(count);
}

it('ends a reading that never answers at the time limit, and one in progress when stopped', async () => {
  const db = await openDb({ dataDir: join(files, 'stuck') }); // an SQLite file: read on a worker thread
  const t = await testApp(db, { reconcileEveryMin: 0 });
  const { byWorker, close } = stuckWorkerSigns();
  const { logged, log } = recorder();
  // Ten minutes of 200 ms: the limit is 2 s, time for a worker to start even on a busy machine.
  const job = new Reconciliation({
    db,
    engine: t.app.engine,
    clock: t.clock,
    log,
    everyMin: 0,
    minuteMs: 200,
    tablesWorker: new URL('./testing-stuck-worker.ts', import.meta.url),
  });
  try {
    const first = job.run('staff');
    const second = job.run('staff');
    await expect(first).rejects.toThrow(
      'reconciliation: reading the tables took longer than its limit of 10 minutes; its worker was ended',
    );
    const [firstWorker] = byWorker.keys(); // it did start, and say so
    expect(firstWorker).toBeDefined();
    await ended(byWorker, firstWorker as number);

    // The second run began as the first failed, with a worker of its own; stop() ends it, and the run
    // asked for meanwhile never starts.
    await until(() => byWorker.size === 2, "the second run's worker");
    const secondWorker = [...byWorker.keys()][1] as number;
    const third = job.run('staff');
    // Each caller hears how its run ended (listened for first, as a caller awaiting it would).
    const heard = Promise.all([
      expect(second).rejects.toThrow('the reconciliation was stopped'),
      expect(third).rejects.toThrow('the reconciliation was stopped'),
    ]);
    await job.stop();
    await heard;
    await ended(byWorker, secondWorker);
    expect(byWorker.size).toBe(2);
    expect(job.state()).toEqual({ last: null, running: false, everyMin: 0 });
    // The run that met its limit is an error; one stopped with the server is not.
    expect(logged).toEqual([
      {
        level: 'error',
        message: 'reconciliation could not run',
        details: {
          trigger: 'staff',
          err: expect.objectContaining({ message: expect.stringMatching(/limit of 10 minutes/) }),
        },
      },
      expect.objectContaining({ level: 'info', message: 'reconciliation stopped with the server' }),
    ]);
  } finally {
    close();
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
