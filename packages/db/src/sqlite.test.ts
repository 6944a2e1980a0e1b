// The embedded database's own duties: checkpoints happen on the worker thread (the writer's connection
// never checkpoints), data written before close is all there when the file is opened again, and the
// engine's tables are keyed by their rowid.

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { MIGRATIONS, migrate } from './migrations.ts';
import { CHECKPOINT_EVERY_MS, openSqlite, WRITER_CHECKPOINT_PAGES } from './sqlite.ts';
import type { Row } from './types.ts';

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

it('rebuilds the journal, orders and trades keyed by their rowid (migration 8), keeping every row', async () => {
  const db = openSqlite(null);
  try {
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 8),
    );
    await db.run("INSERT INTO engine_journal (seq, command) VALUES (1, '~a'), (2, '{\"b\":1}')");
    await db.run(
      `INSERT INTO orders (id, command_id, user_id, instrument_id, side, order_type, time_in_force, price_ticks, qty_lots,
         filled_lots, status, reason, trigger_spec, hold_asset, hold_amount, created_at, updated_at, last_seq, queued)
       VALUES (7, 'c7', '42', 'NSE:TCS', 'buy', 'limit', 'gtc', 100, 3, 1, 'partial', '', NULL, 'INR', '300', 5, 6, 2, 1)`,
    );
    await db.run(
      `INSERT INTO trades (id, seq, instrument_id, price_ticks, qty_lots, taker_side, maker_order_id, taker_order_id,
         maker_user_id, taker_user_id, notional, maker_fee, taker_fee, at)
       VALUES (3, 2, 'NSE:TCS', 100, 1, 'sell', 7, 8, '42', '43', '100', '0', '1', 6)`,
    );
    const before = await Promise.all(
      ['engine_journal', 'orders', 'trades'].map((t) => db.query(`SELECT * FROM ${t} ORDER BY 1`)),
    );
    // Every column as declared (the key's type aside: BIGINT before, INTEGER after), every named index
    // with its columns.
    const schemaOf = async () => ({
      columns: await Promise.all(
        ['engine_journal', 'orders', 'trades'].map(async (t) =>
          (await db.query<Row>(`PRAGMA table_info(${t})`)).map((c) => ({ ...c, type: c.pk ? 'key' : c.type })),
        ),
      ),
      indexes: await Promise.all(
        (
          await db.query<{ name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%' ORDER BY name",
          )
        ).map(async ({ name }) => ({ name, columns: await db.query(`PRAGMA index_info(${name})`) })),
      ),
    });
    const schemaBefore = await schemaOf();
    expect(schemaBefore.indexes.length).toBeGreaterThanOrEqual(8);
    const autoIndexesOf = () =>
      db.query(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('engine_journal', 'orders', 'trades') AND name LIKE 'sqlite_autoindex%'",
      );
    expect((await autoIndexesOf()).length).toBe(3); // each key a second B-tree before
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version === 8),
      ),
    ).toEqual([8]);
    const after = await Promise.all(
      ['engine_journal', 'orders', 'trades'].map((t) => db.query(`SELECT * FROM ${t} ORDER BY 1`)),
    );
    expect(after).toEqual(before);
    // No second B-tree for the key any more; the same columns and indexes.
    expect(await autoIndexesOf()).toEqual([]);
    expect(await schemaOf()).toEqual(schemaBefore);
    // A key stays unique.
    await expect(db.run("INSERT INTO engine_journal (seq, command) VALUES (2, 'again')")).rejects.toThrow(
      /UNIQUE|PRIMARY/,
    );
  } finally {
    await db.close();
  }
});
