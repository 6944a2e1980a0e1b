// A reader of a thread's own sees what the writer committed: rows, blobs and keyset pages; it runs
// SELECT only; a database in memory offers no source.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from './open.ts';
import { openReader } from './reader.ts';
import { testDatabases } from './testing.ts';

const files = mkdtempSync(join(tmpdir(), 'bourse-reader-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));
const all = await testDatabases();
const dbs = [
  ...all.filter((d) => d.dialect === 'postgres'),
  { dialect: 'sqlite file', open: () => openDb({ dataDir: join(files, 'db') }) },
];

it('has no source for SQLite in memory', async () => {
  const db = await openDb({ dataDir: null });
  expect(db.readSource).toBeUndefined();
  await db.close();
});

describe.each(dbs)('reader on $dialect', ({ open }) => {
  it('reads committed rows, blobs and keyset pages through its own connection, SELECT only', async () => {
    const db = await open();
    const reader = await openReader(db.readSource!);
    try {
      await db.transaction(async (tx) => {
        for (let seq = 1; seq <= 25; seq++)
          await tx.run('INSERT INTO engine_journal (seq, command) VALUES ($1, $2)', [seq, `c${seq}`]);
      });
      const gzip = new Uint8Array([31, 139, 0, 255, 7]);
      await db.run(
        "INSERT INTO engine_snapshots (seq, state_hash, state, state_gzip, created_at) VALUES (25, 'h', '', $1, 0)",
        [gzip],
      );
      const [row] = await reader.query<{ state_gzip: Uint8Array }>(
        'SELECT state_gzip FROM engine_snapshots WHERE seq = $1',
        [25],
      );
      expect(new Uint8Array(row!.state_gzip)).toEqual(gzip);
      const pages: string[][] = [];
      for await (const page of reader.scanPages(
        'SELECT seq, command FROM engine_journal WHERE seq > $1 ORDER BY seq LIMIT $2',
        3,
        10,
      )) {
        expect([...page.keys]).toEqual(page.texts.map((t) => Number(t.slice(1))));
        pages.push(page.texts);
      }
      expect(pages.map((p) => p.length)).toEqual([10, 10, 2]);
      expect(pages.flat()).toEqual(Array.from({ length: 22 }, (_, i) => `c${i + 4}`));
      await expect(reader.query('DELETE FROM engine_journal')).rejects.toThrow(/SELECT statements only/);
      const [count] = await db.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM engine_journal');
      expect(Number(count!.n)).toBe(25);
    } finally {
      await reader.close();
      await db.close();
    }
  });
});
