// Snapshots made off the writer: the worker's copy of the engine catches up through its own connection,
// is fed the durable batches, and stores gzipped snapshots that a restart loads to the writer's state; a
// worker that fails, or a database no second connection reaches, leaves the snapshots to the writer.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type Db, openDb as openDatabase, testDatabases } from '@bourse/db';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { EngineHostOptions } from './engine-host.ts';
import { type Cmd, type Counter, openCounterHost } from './testing-counter.ts';

const COUNTER = new URL('./testing-counter.ts', import.meta.url);

/** A module whose snapshotEngine is the counter's with `overrides` (JavaScript source, `s` the counter's). */
const counterWith = (overrides: string) =>
  new URL(
    `data:text/javascript,import { snapshotEngine as s } from '${COUNTER.href}';` +
      `export const snapshotEngine = { ...s, ${overrides} };`,
  );

const open = (db: Db, extra: Partial<EngineHostOptions<Cmd, number, Counter>> = {}) =>
  openCounterHost(db, { snapshotWorker: COUNTER, ...extra });

type SnapshotRow = { seq: number; state: string; gzipped: number };
const snapshots = async (db: Db) =>
  (
    await db.query<SnapshotRow>(
      'SELECT seq, state, CASE WHEN state_gzip IS NULL THEN 0 ELSE 1 END AS gzipped FROM engine_snapshots ORDER BY seq',
    )
  ).map((r) => ({ seq: Number(r.seq), state: r.state, gzipped: Number(r.gzipped) }));

/** The worker stores snapshots in its own time: wait (up to 10 s) until `seqs` are all stored. */
async function stored(db: Db, seqs: number[]): Promise<SnapshotRow[]> {
  for (let waited = 0; ; waited += 20) {
    const rows = await snapshots(db);
    if (seqs.every((seq) => rows.some((r) => r.seq === seq)) || waited > 10_000) return rows;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const files = mkdtempSync(join(tmpdir(), 'bourse-snapshots-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));
let fileCount = 0;
const all = await testDatabases();
const memory = all.find((d) => d.dialect === 'sqlite')!;
// The worker needs a second connection: an SQLite file, or PostgreSQL.
const dbs = [
  ...all.filter((d) => d !== memory),
  { dialect: 'sqlite file', open: () => openDatabase({ dataDir: join(files, String(fileCount++)) }) },
];

it('leaves the snapshots to the writer on a database in memory, which keeps the newest three', async () => {
  const db = await memory.open();
  const host = await open(db, { snapshotEvery: 10 });
  expect(host.snapshotsOffWriter).toBe(false);
  for (let i = 0; i < 55; i++) await host.submit({ key: 'a', add: 1 });
  expect((await snapshots(db)).map((r) => [r.seq, r.gzipped])).toEqual([
    [30, 0],
    [40, 0],
    [50, 0],
  ]);
  await host.close();
  await db.close();
});

describe.each(dbs)('snapshot worker on $dialect', ({ open: openDb }) => {
  it('makes the snapshots, gzipped, and a restart from them reaches the writer’s state', async () => {
    const db = await openDb();
    const first = await open(db);
    expect(first.snapshotsOffWriter).toBe(true);
    for (let i = 0; i < 600; i++) await first.submit({ key: `k${i % 7}`, add: i });
    // The writer stored none itself: both rows are the worker's (state '' and the gzipped JSON).
    expect(await stored(db, [250, 500])).toEqual([
      { seq: 250, state: '', gzipped: 1 },
      { seq: 500, state: '', gzipped: 1 },
    ]);
    const hash = first.engine.stateHash();
    await first.close();
    // Restored from the worker's snapshot at 500 (its hash checked), then 100 journaled commands, and the
    // writer's checkpoint hash at 600 checked: the worker's state at 500 was the writer's.
    const second = await open(db, { snapshotWorker: undefined });
    expect(second.startup).toMatchObject({ snapshotSeq: 500, replayed: 100, checkpointChecked: true });
    expect(second.engine.stateHash()).toBe(hash);
    await second.close();
    await db.close();
  });

  it('keeps the newest three snapshots', async () => {
    const db = await openDb();
    const host = await open(db, { snapshotEvery: 10 });
    for (let i = 0; i < 55; i++) await host.submit({ key: 'a', add: 1 });
    await stored(db, [50]);
    await host.close();
    expect((await snapshots(db)).map((r) => [r.seq, r.gzipped])).toEqual([
      [30, 1],
      [40, 1],
      [50, 1],
    ]);
    await db.close();
  });

  it('catches up from the journal alone, or from a snapshot and the journal after it, by itself', async () => {
    const db = await openDb();
    const writerOnly = await open(db, { snapshotWorker: undefined, snapshotEvery: 1_000_000 });
    await Promise.all(Array.from({ length: 300 }, (_, i) => writerOnly.submit({ key: `k${i % 5}`, add: i })));
    await writerOnly.close();
    expect(await snapshots(db)).toEqual([]);
    // 300 replayed, 250 due: the worker replays the same journal and stores that state.
    const seeded = await open(db);
    expect(seeded.startup).toMatchObject({ snapshotSeq: 0, replayed: 300, checkpointChecked: true });
    expect((await stored(db, [300])).map((r) => r.seq)).toEqual([300]);
    await seeded.close();
    // Two more without the worker, then the worker reads the gzipped snapshot at 300 and those two.
    const writer = await open(db, { snapshotWorker: undefined });
    await writer.submit({ key: 'k8', add: 2 });
    await writer.submit({ key: 'k8', add: 3 });
    await writer.close();
    const fromSnapshot = await open(db);
    expect(fromSnapshot.startup).toMatchObject({ snapshotSeq: 300, replayed: 2 });
    for (let i = 0; i < 250; i++) await fromSnapshot.submit({ key: 'k9', add: 1 });
    // Due 250 commands after the snapshot it started from: at 550.
    expect((await stored(db, [550])).map((r) => r.seq)).toEqual([300, 550]);
    const hash = fromSnapshot.engine.stateHash();
    await fromSnapshot.close();
    const last = await open(db, { snapshotWorker: undefined });
    expect(last.startup).toMatchObject({ snapshotSeq: 550, replayed: 2, checkpointChecked: true });
    expect(last.engine.stateHash()).toBe(hash);
    await last.close();
    await db.close();
  });

  it('drops the worker’s snapshots at close when its state is not the writer’s', async () => {
    const db = await openDb();
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // A copy that misreads every journal line (as a non-deterministic engine would come apart).
      const host = await open(db, { snapshotWorker: counterWith('decode: (t) => ({ ...s.decode(t), add: 2 })') });
      for (let i = 0; i < 260; i++) await host.submit({ key: 'a', add: 1 });
      expect((await stored(db, [250])).map((r) => r.seq)).toEqual([250]);
      await host.close();
      expect(host.workerCheck).toBe('differed');
      expect(String(error.mock.calls[0]?.[0])).toMatch(/hashes .*, the writer's at 260 .*: dropping its snapshots/);
    } finally {
      error.mockRestore();
    }
    expect(await snapshots(db)).toEqual([]);
    // So the next start-up replays the journal and meets the writer's checkpoint.
    const again = await open(db, { snapshotWorker: undefined });
    expect(again.startup).toMatchObject({ snapshotSeq: 0, replayed: 260, checkpointChecked: true });
    expect(again.engine.values.get('a')).toBe(260);
    await again.close();
    await db.close();
  });

  it('agrees with the writer at close, and keeps its snapshots', async () => {
    const db = await openDb();
    const error = vi.spyOn(console, 'error');
    const host = await open(db);
    for (let i = 0; i < 520; i++) await host.submit({ key: `k${i % 3}`, add: i });
    expect((await stored(db, [250, 500])).map((r) => r.seq)).toEqual([250, 500]);
    await host.close();
    error.mockRestore();
    expect(host.workerCheck).toBe('agreed');
    expect(error).not.toHaveBeenCalled();
    expect((await snapshots(db)).map((r) => r.seq)).toEqual([250, 500]);
    await db.close();
  });

  it('reports the worker unchecked when it gives no hash in time at close', async () => {
    const db = await openDb();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const host = await open(db, {
        snapshotWorker: counterWith(
          'create: () => { const c = s.create(); c.stateHash = () => { for (;;); }; return c; }',
        ),
        snapshotWorkerPatienceMs: 300,
      });
      for (let i = 0; i < 5; i++) await host.submit({ key: 'a', add: 1 });
      await host.close();
      expect(host.workerCheck).toBe('unchecked');
      expect(warn).toHaveBeenCalledWith('snapshot worker gave no hash within 300 ms; its state is not checked');
      // The writer's checkpoint is written all the same.
      expect(await db.query('SELECT seq FROM engine_checkpoints')).toEqual([{ seq: 5 }]);
    } finally {
      warn.mockRestore();
    }
    await db.close();
  });

  it('ends the worker even when writing the checkpoint fails', async () => {
    const db = await openDb();
    const failing: Db = {
      ...db,
      run: (text, params) =>
        text.includes('engine_checkpoints') ? Promise.reject(new Error('disk gone')) : db.run(text, params),
    };
    const host = await open(failing);
    await host.submit({ key: 'a', add: 1 });
    const terminate = vi.spyOn(Worker.prototype, 'terminate');
    try {
      await expect(host.close()).rejects.toThrow('disk gone');
      expect(terminate).toHaveBeenCalled();
      expect(host.workerCheck).toBe('agreed');
    } finally {
      terminate.mockRestore();
    }
    await db.close();
  });

  it('hands the snapshots back to the writer when the worker fails on a journal line', async () => {
    const db = await openDb();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const host = await open(db, {
        snapshotWorker: counterWith(
          "decode: (t) => { const c = s.decode(t); if (c.add === 99) throw new Error('unreadable'); return c; }",
        ),
      });
      for (let i = 0; i < 120; i++) await host.submit({ key: 'a', add: 1 });
      await host.submit({ key: 'a', add: 99 });
      for (let waited = 0; host.snapshotsOffWriter && waited < 10_000; waited += 20) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(host.snapshotsOffWriter).toBe(false);
      expect(String(warn.mock.calls[0]?.[1])).toMatch(/unreadable/);
      for (let i = 0; i < 140; i++) await host.submit({ key: 'a', add: 1 });
      // Due 250 after the start: the writer's, as text.
      expect((await snapshots(db)).map((r) => [r.seq, r.gzipped])).toEqual([[250, 0]]);
      await host.close();
      expect(host.workerCheck).toBe('unchecked'); // stopped on its way: nothing compared
    } finally {
      warn.mockRestore();
    }
    await db.close();
  });

  it('hands the snapshots back to the writer when the worker is stuck', async () => {
    const db = await openDb();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      // Never done catching up: its thread spins in create().
      const host = await open(db, {
        snapshotWorker: counterWith('create: () => { for (;;); }'),
        snapshotEvery: 10,
        snapshotWorkerPatienceMs: 300,
      });
      const began = performance.now();
      while (host.snapshotsOffWriter) await host.submit({ key: 'a', add: 1 });
      expect(performance.now() - began).toBeGreaterThanOrEqual(300);
      expect(host.seq).toBeGreaterThanOrEqual(30);
      expect(warn).toHaveBeenCalledWith('snapshot worker is 3 snapshots behind; the writer takes over');
      // The batch that found it stuck took the snapshot itself.
      expect((await snapshots(db)).map((r) => [r.seq, r.gzipped])).toEqual([[host.seq, 0]]);
      await host.close();
    } finally {
      warn.mockRestore();
    }
    await db.close();
  });

  it('hands the snapshots back to the writer when the worker fails as it starts', async () => {
    const db = await openDb();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      // A module with no snapshotEngine: the worker throws as it starts.
      const host = await open(db, { snapshotWorker: new URL('data:text/javascript,export const nothing = 1;') });
      for (let waited = 0; host.snapshotsOffWriter && waited < 10_000; waited += 20) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(host.snapshotsOffWriter).toBe(false);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/snapshot worker .* stopped; the writer makes the snapshots/);
      for (let i = 0; i < 260; i++) await host.submit({ key: 'a', add: 1 });
      const rows = await snapshots(db);
      expect(rows.map((r) => [r.seq, r.gzipped])).toEqual([[250, 0]]);
      expect(rows[0]!.state).not.toBe('');
      await host.close();
    } finally {
      warn.mockRestore();
    }
    await db.close();
  });
});
