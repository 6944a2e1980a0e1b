// The embedded database's own duties: checkpoints happen on the worker thread (the writer's connection
// never checkpoints), and data written before close is all there when the file is opened again.

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CHECKPOINT_EVERY_MS, openSqlite, WRITER_CHECKPOINT_PAGES } from './sqlite.ts';

it('checkpoints the log on its worker thread, not in the writer’s commits (below the backstop)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bourse-sqlite-'));
  try {
    const db = openSqlite(dir);
    expect(await db.query('PRAGMA wal_autocheckpoint')).toEqual([{ wal_autocheckpoint: WRITER_CHECKPOINT_PAGES }]);
    await db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const file = join(dir, 'bourse.sqlite');
    const before = statSync(file).size;
    for (let i = 0; i < 20; i++)
      await db.transaction(async (tx) => {
        for (let k = 0; k < 100; k++) await tx.run('INSERT INTO t (body) VALUES ($1)', ['x'.repeat(500)]);
      });
    // 1 MB of rows went to the log; the database file grows only when a checkpoint copies them in.
    await new Promise((r) => setTimeout(r, CHECKPOINT_EVERY_MS * 2.5));
    expect(statSync(file).size).toBeGreaterThan(before + 900_000);
    await db.close();
    const again = openSqlite(dir);
    expect(await again.query('SELECT COUNT(*) AS n FROM t')).toEqual([{ n: 2000 }]);
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('keeps the log bounded under writes that never pause', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bourse-sqlite-'));
  try {
    const db = openSqlite(dir);
    await db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const body = 'x'.repeat(1_000);
    // ~100 MB back to back: three times the backstop, faster than a PASSIVE checkpoint alone keeps up.
    for (let i = 0; i < 2_000; i++)
      await db.transaction(async (tx) => {
        for (let k = 0; k < 50; k++) await tx.run('INSERT INTO t (body) VALUES ($1)', [body]);
      });
    const wal = statSync(join(dir, 'bourse.sqlite-wal')).size;
    expect(wal).toBeLessThan(WRITER_CHECKPOINT_PAGES * 4096 * 1.5);
    await db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
