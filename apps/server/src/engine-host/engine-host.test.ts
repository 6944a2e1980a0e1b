// The host's guarantees, shown with a small deterministic engine (a keyed counter with a hash):
// answers only after commit, shared commits, snapshot + replay gives the same state, hashes checked.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, openDb as openDatabase, testDatabases } from '@bourse/db';
import { afterAll, describe, expect, it } from 'vitest';
import { type Cmd, Counter, openCounterHost } from './testing-counter.ts';

const open = openCounterHost;

// An SQLite file as well: there the host reads the journal back on a worker thread (Db.scanPages); in
// memory, on this thread.
const files = mkdtempSync(join(tmpdir(), 'bourse-host-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));
let fileCount = 0;
const dbs = [
  ...(await testDatabases()),
  { dialect: 'sqlite file', open: () => openDatabase({ dataDir: join(files, String(fileCount++)) }) },
];

describe.each(dbs)('engine host on $dialect', ({ open: openDb }) => {
  it('answers after commit, groups commands into shared commits, and projects in the same transaction', async () => {
    const db = await openDb();
    let commits = 0;
    const host = await open(db, {
      project: async (tx, batch) => {
        commits++;
        const [row] = await tx.query<{ n: number }>('SELECT COUNT(*) AS n FROM engine_journal WHERE seq <= $1', [
          batch.at(-1)!.seq,
        ]);
        expect(Number(row!.n)).toBe(batch.at(-1)!.seq); // the batch's journal rows are visible in the same tx
      },
    });
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => host.submit({ key: `k${i % 10}`, add: 1 })),
    );
    expect(answers.at(-1)).toBe(100);
    expect(commits).toBeLessThan(10);
    const [{ n }] = (await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM engine_journal')) as [{ n: number }];
    expect(Number(n)).toBe(1000);
    await host.close();
    await db.close();
  });

  it('reads no journal (no scan, no worker thread) when nothing follows the snapshot, and reads it when something does', async () => {
    const db = await openDb();
    let scans = 0;
    const counted: Db = {
      ...db,
      scanPages: (...args) => {
        scans++;
        return db.scanPages(...args);
      },
    };
    const first = await open(counted);
    expect(scans).toBe(0); // a new database
    await first.submit({ key: 'k', add: 1 });
    await first.close();
    const second = await open(counted);
    expect(scans).toBe(1);
    expect(second.seq).toBe(1);
    await second.close();
    await db.close();
  });

  it('restarts from the last snapshot plus the journal after it, to the same state hash', async () => {
    const db = await openDb();
    const first = await open(db);
    for (let i = 0; i < 700; i++) await first.submit({ key: `k${i % 7}`, add: i });
    const hash = first.engine.stateHash();
    await first.close();
    const snapshots = await db.query<{ seq: number }>('SELECT seq FROM engine_snapshots ORDER BY seq');
    expect(snapshots.map((s) => Number(s.seq))).toEqual([250, 500]);
    const second = await open(db);
    expect(second.seq).toBe(700);
    expect(second.engine.stateHash()).toBe(hash);
    await second.submit({ key: 'k0', add: 1 });
    await second.close();
    await db.close();
  });

  it('replays a journal longer than one page, page by page, and refuses one with a gap', async () => {
    const db = await openDb();
    const first = await open(db);
    await Promise.all(Array.from({ length: 100 }, (_, i) => first.submit({ key: `k${i % 3}`, add: i })));
    const hash = first.engine.stateHash();
    await first.close();
    // 14 full pages and a short one; then pages that divide the journal exactly (the last one is empty).
    for (const replayPage of [7, 10]) {
      const again = await open(db, { replayPage });
      expect(again.seq).toBe(100);
      expect(again.engine.stateHash()).toBe(hash);
      // The start-up report: no snapshot, 100 commands replayed, the checkpoint close() wrote checked.
      expect(again.startup).toMatchObject({ snapshotSeq: 0, replayed: 100, checkpointChecked: true });
      await again.close();
    }
    await db.run('DELETE FROM engine_journal WHERE seq = 50');
    await expect(open(db, { replayPage: 7 })).rejects.toThrow('journal gap: expected 50, found 51');
    await db.close();
  });

  it('refuses to start when replay does not reproduce the recorded checkpoint', async () => {
    const db = await openDb();
    const host = await open(db);
    for (let i = 0; i < 10; i++) await host.submit({ key: 'a', add: 1 });
    await host.close();
    await expect(open(db, { decode: (t) => ({ ...(JSON.parse(t) as Cmd), add: 2 }) })).rejects.toThrow(/checkpoint/);
    await db.close();
  });

  it('refuses to start on a journal that lost its tail (a checkpoint or snapshot past its end)', async () => {
    const db = await openDb();
    const host = await open(db);
    for (let i = 0; i < 300; i++) await host.submit({ key: `k${i % 3}`, add: 1 });
    await host.close(); // snapshots at 250, a checkpoint at 300
    await db.run('DELETE FROM engine_journal WHERE seq > 260');
    await expect(open(db)).rejects.toThrow(/journal ends at seq 260, but a snapshot or checkpoint was recorded at 300/);
    await db.run('DELETE FROM engine_journal WHERE seq > 240');
    await expect(open(db)).rejects.toThrow(/ends at seq 240/);
    // Nothing was written by the refused starts.
    expect(await db.query('SELECT seq FROM engine_journal WHERE seq > 240')).toEqual([]);
    await db.close();
  });

  it('stops when the engine throws part way through a command, which is never journaled', async () => {
    const db = await openDb();
    let fatal: unknown = null;
    const create = () => {
      const counter = new Counter();
      const apply = counter.apply.bind(counter);
      // A broken invariant after a change: the state in memory is no longer the journal's.
      counter.apply = (c: Cmd) => {
        if (c.key !== 'boom') return apply(c);
        counter.values.set('boom', 5);
        throw new Error('invariant broken');
      };
      return counter;
    };
    const host = await open(db, { create, onFatal: (e) => (fatal = e) });
    expect(await host.submit({ key: 'a', add: 1 })).toBe(1);
    await expect(host.submit({ key: 'boom', add: 1 })).rejects.toThrow('invariant broken');
    expect(String(fatal)).toContain('invariant broken');
    // Nothing more is acknowledged from that state.
    await expect(host.submit({ key: 'a', add: 1 })).rejects.toThrow('invariant broken');
    expect((await db.query<{ seq: number }>('SELECT seq FROM engine_journal')).map((r) => Number(r.seq))).toEqual([1]);
    await db.close();
  });

  it('stops and rejects every waiting caller when a commit fails', async () => {
    const db = await openDb();
    let fatal: unknown = null;
    const host = await open(db, {
      project: async () => {
        throw new Error('disk full');
      },
      onFatal: (e) => {
        fatal = e;
      },
    });
    const results = await Promise.allSettled([host.submit({ key: 'a', add: 1 }), host.submit({ key: 'a', add: 1 })]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String(fatal)).toContain('disk full');
    await expect(host.submit({ key: 'a', add: 1 })).rejects.toThrow('disk full');
    expect(await db.query('SELECT seq FROM engine_journal')).toEqual([]);
    await db.close();
  });

  it('rolls the whole batch back and stops when a statement fails at commit', async () => {
    const db = await openDb();
    let fatal: unknown = null;
    const host = await open(db, {
      project: async (tx, batch) => {
        if (batch.some((p) => p.command.key === 'bad')) await tx.run('INSERT INTO no_such_table (x) VALUES ($1)', [1]);
      },
      onFatal: (e) => {
        fatal = e;
      },
    });
    expect(await host.submit({ key: 'a', add: 1 })).toBe(1);
    const results = await Promise.allSettled([host.submit({ key: 'a', add: 1 }), host.submit({ key: 'bad', add: 1 })]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String(fatal)).toMatch(/no_such_table/);
    await expect(host.submit({ key: 'a', add: 1 })).rejects.toThrow(/no_such_table/);
    // Only the batch before is there: nothing of the failed one, journal or rows.
    expect(await db.query('SELECT seq FROM engine_journal')).toEqual([{ seq: 1 }]);
    await db.close();
  });
});

describe('engine host on a database that syncs after COMMIT', () => {
  /** In-memory SQLite whose commits become durable only when the test says so. */
  async function manualDisk() {
    const { openDb } = await import('@bourse/db');
    const db = await openDb({ dataDir: null });
    const syncs: { resolve: () => void; reject: (e: unknown) => void; batch: number }[] = [];
    let commits = 0;
    const disk: Db = {
      ...db,
      transaction: db.transaction,
      close: db.close,
      transactionEarly: async (fn) => {
        const result = await db.transaction((tx) => fn(tx, Promise.resolve()));
        const batch = commits++;
        const durable = new Promise<void>((resolve, reject) => syncs.push({ resolve, reject, batch }));
        durable.catch(() => undefined);
        return { result, durable };
      },
    };
    return { db, disk, syncs };
  }
  const settle = () => new Promise((r) => setTimeout(r, 10));

  it('builds the next batch while the last one syncs, and answers each only once it is on disk', async () => {
    const { db, disk, syncs } = await manualDisk();
    const host = await open(disk);
    const answered: number[] = [];
    const first = [host.submit({ key: 'a', add: 1 }), host.submit({ key: 'a', add: 1 })];
    for (const p of first) p.then((v) => answered.push(v));
    await settle();
    expect(syncs.length).toBe(1); // batch 0 committed, waiting for the disk
    const second = [host.submit({ key: 'a', add: 1 })];
    for (const p of second) p.then((v) => answered.push(v));
    await settle();
    expect(syncs.length).toBe(2); // batch 1 committed while batch 0 syncs
    const third = host.submit({ key: 'a', add: 10 });
    await settle();
    expect(syncs.length).toBe(2); // batch 2 waits: one syncing and one waiting is the most
    expect(answered).toEqual([]);
    syncs[0]!.resolve();
    await settle();
    expect(answered).toEqual([1, 2]);
    expect(syncs.length).toBe(3); // the disk took batch 0, so batch 2 commits now
    syncs[1]!.resolve();
    syncs[2]!.resolve();
    expect(await third).toBe(13);
    expect(answered).toEqual([1, 2, 3]);
    const closing = host.close();
    await closing;
    await db.close();
  });

  it('has a result kept once `after` more commands came while it waited for its commit, and no other', async () => {
    const { db, disk, syncs } = await manualDisk();
    const kept: number[] = [];
    const host = await open(disk, { keepWaitingResults: { after: 3, keep: (result) => kept.push(result) } });
    const waiting = [host.submit({ key: 'a', add: 1 }), host.submit({ key: 'a', add: 1 })];
    await settle();
    expect(syncs.length).toBe(1); // seqs 1 and 2 committed, not yet on disk: not answered
    waiting.push(host.submit({ key: 'a', add: 1 }));
    expect(kept).toEqual([]);
    waiting.push(host.submit({ key: 'a', add: 1 })); // seq 4: seq 1 is 3 commands old and still waiting
    expect(kept).toEqual([1]);
    waiting.push(host.submit({ key: 'a', add: 1 }));
    expect(kept).toEqual([1, 2]);
    for (let n = 0; syncs.some((s) => s.batch >= n); n++) {
      syncs[n]!.resolve();
      await settle();
    }
    expect(await Promise.all(waiting)).toEqual([1, 2, 3, 4, 5]);
    // Everything is answered now: later commands keep nothing more.
    const later = [host.submit({ key: 'a', add: 1 }), host.submit({ key: 'a', add: 1 })];
    await settle();
    for (const s of syncs) s.resolve();
    expect(await Promise.all(later)).toEqual([6, 7]);
    expect(kept).toEqual([1, 2]);
    await host.close();
    // A window of commands that cannot be one is refused before anything starts.
    await expect(open(disk, { keepWaitingResults: { after: 0, keep: () => {} } })).rejects.toThrow(/after must be/);
    await db.close();
  });

  it('tells a reader when every command through a seq is on disk, and only then', async () => {
    const { db, disk, syncs } = await manualDisk();
    const host = await open(disk, { onFatal: () => {} });
    expect(() => host.committed(1)).toThrow(RangeError); // nothing applied yet
    await expect(host.committed(0)).resolves.toBeUndefined();
    const done: number[] = [];
    const first = host.submit({ key: 'a', add: 1 });
    host.committed(1).then(() => done.push(1));
    await settle();
    const second = host.submit({ key: 'a', add: 1 });
    host.committed(2).then(() => done.push(2));
    await settle();
    expect(syncs.length).toBe(2); // both batches committed, neither on disk
    expect(done).toEqual([]);
    syncs[0]!.resolve();
    await first;
    await settle();
    expect(done).toEqual([1]);
    syncs[1]!.resolve();
    await second;
    await settle();
    expect(done).toEqual([1, 2]);
    await expect(host.committed(2)).resolves.toBeUndefined();
    // A failed host tells its waiting readers so.
    const third = host.submit({ key: 'a', add: 1 });
    const waiting = host.committed(3);
    await settle();
    syncs[2]!.reject(new Error('EIO'));
    await expect(third).rejects.toThrow('EIO');
    await expect(waiting).rejects.toThrow('EIO');
    await db.close();
  });

  it('rejects the failed batch and every later one, answering none of them, when a sync fails', async () => {
    const { db, disk, syncs } = await manualDisk();
    let fatal: unknown = null;
    const host = await open(disk, { onFatal: (e) => (fatal = e) });
    const a = host.submit({ key: 'a', add: 1 });
    await settle();
    const b = host.submit({ key: 'a', add: 1 });
    await settle();
    syncs[0]!.reject(new Error('EIO'));
    syncs[1]!.reject(new Error('EIO'));
    expect((await Promise.allSettled([a, b])).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String(fatal)).toContain('EIO');
    await expect(host.submit({ key: 'a', add: 1 })).rejects.toThrow('EIO');
    await db.close();
  });
});
