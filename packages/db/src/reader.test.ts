// A reader of a thread's own sees what the writer committed: rows, blobs and keyset pages; it runs
// SELECT only; a database in memory offers no source.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDb } from './open.ts';
import { openReader } from './reader.ts';
import { testDatabases } from './testing.ts';

const files = mkdtempSync(join(tmpdir(), 'bourse-reader-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));
const all = await testDatabases();
let fileCount = 0;
const dbs = [
  ...all.filter((d) => d.dialect === 'postgres'),
  { dialect: 'sqlite file', open: () => openDb({ dataDir: join(files, String(fileCount++)) }) },
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

const SCAN = 'SELECT seq, command FROM engine_journal WHERE seq > $1 ORDER BY seq LIMIT $2';

describe.each(dbs)('readPage on $dialect', ({ dialect, open }) => {
  it('reads a page whole, and row by row where joined texts would not split back (PostgreSQL)', async () => {
    const db = await open();
    const reader = await openReader(db.readSource!);
    const spy = vi.spyOn(pg.Client.prototype, 'query');
    try {
      // Keys 1-7 with texts that join cleanly, a newline in 8, then a gap from 9 to 12.
      const rows: [number, string][] = [
        [1, 'a'],
        [2, '~b\tc'],
        [3, 'ü€𝄞'],
        [4, ''],
        [5, '{"n":5}'],
        [6, 'f'],
        [7, 'g'],
        [8, 'line\nbreak'],
        [9, 'i'],
        [12, 'l'],
      ];
      await db.transaction(async (tx) => {
        for (const [seq, text] of rows)
          await tx.run('INSERT INTO engine_journal (seq, command) VALUES ($1, $2)', [seq, text]);
      });
      const page = async (after: number, size: number) => {
        spy.mockClear();
        const { keys, texts } = await reader.readPage(SCAN, after, size);
        const statements = spy.mock.calls.map(([c]) => (typeof c === 'string' ? c : (c as { text: string }).text));
        return {
          keys: [...keys],
          texts,
          statements: statements.map((t) => (t.includes('string_agg') ? 'joined' : 'rows')),
        };
      };
      const clean = await page(0, 6);
      expect(clean.keys).toEqual([1, 2, 3, 4, 5, 6]);
      expect(clean.texts).toEqual(rows.slice(0, 6).map(([, t]) => t));
      const newline = await page(6, 3);
      expect(newline.texts).toEqual(['g', 'line\nbreak', 'i']);
      const gap = await page(9, 5);
      expect(gap.keys).toEqual([12]);
      const empty = await page(12, 5);
      expect(empty.keys).toEqual([]);
      if (dialect === 'postgres') {
        expect(clean.statements).toEqual(['joined']);
        expect(newline.statements).toEqual(['joined', 'rows']);
        expect(gap.statements).toEqual(['joined']); // one row: no gap within the page
        expect(empty.statements).toEqual(['joined']);
        const gapped = await page(7, 5); // 8, 9, 12: a newline and a gap
        expect(gapped.keys).toEqual([8, 9, 12]);
        expect(gapped.statements).toEqual(['joined', 'rows']);
      } else {
        expect(clean.statements).toEqual([]); // SQLite reads rows in process
      }
    } finally {
      spy.mockRestore();
      await reader.close();
      await db.close();
    }
  });
});
