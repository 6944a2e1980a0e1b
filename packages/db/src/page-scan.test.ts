import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDb } from './open.ts';
import { buffersOf } from './page-scan.ts';
import { testDatabases } from './testing.ts';
import type { Db, TextPage } from './types.ts';

// On a worker where a second connection can reach the data (an SQLite file, PostgreSQL); in memory, here.
const dir = mkdtempSync(join(tmpdir(), 'bourse-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const targets: { dialect: string; open: () => Promise<Db>; worker: boolean }[] = [
  { dialect: 'sqlite file', open: () => openDb({ dataDir: join(dir, String(Math.random())) }), worker: true },
  ...(await testDatabases()).map((t) => ({ ...t, worker: t.dialect === 'postgres' })),
];

const SCAN = 'SELECT seq, command FROM engine_journal WHERE seq > $1 ORDER BY seq LIMIT $2';

async function collect(pages: AsyncGenerator<TextPage>) {
  const out: { keys: number[]; texts: string[] }[] = [];
  for await (const page of pages) out.push({ keys: [...page.keys], texts: page.texts });
  return out;
}

describe.each(targets)('scanPages on $dialect', ({ open, worker }) => {
  it('reads every row in keyset pages, texts intact, the last page short', async () => {
    const db = await open();
    try {
      // Texts with tabs, newlines, multi-byte and astral characters, and an empty one: cut back apart exactly.
      const texts = Array.from({ length: 23 }, (_, i) => ['~a\tb', 'ü\n€', '', '𝄞x', `{"n":${i}}`][i % 5] as string);
      await db.transaction(async (tx) => {
        for (let i = 0; i < texts.length; i++)
          await tx.run('INSERT INTO engine_journal (seq, command) VALUES ($1, $2)', [i + 1, texts[i] as string]);
      });
      const pages = await collect(db.scanPages(SCAN, 0, 5));
      expect(pages.map((p) => p.keys.length)).toEqual([5, 5, 5, 5, 3]);
      expect(pages.flatMap((p) => p.keys)).toEqual(texts.map((_, i) => i + 1));
      expect(pages.flatMap((p) => p.texts)).toEqual(texts);
      // After a key, and a count that fills its pages: the last page is empty.
      const tail = await collect(db.scanPages(SCAN, 13, 5));
      expect(tail.map((p) => p.keys)).toEqual([[14, 15, 16, 17, 18], [19, 20, 21, 22, 23], []]);
    } finally {
      await db.close();
    }
  });

  it("runs a PageParser where it reads the pages (the worker's thread) and hands over what it made", async () => {
    const db = await open();
    try {
      const texts = Array.from({ length: 9 }, (_, i) => 'x'.repeat(i));
      await db.transaction(async (tx) => {
        for (let i = 0; i < texts.length; i++)
          await tx.run('INSERT INTO engine_journal (seq, command) VALUES ($1, $2)', [i + 1, texts[i] as string]);
      });
      const parser = {
        module: new URL('./page-scan-parser.fixture.ts', import.meta.url).href,
        exportName: 'lengthsOf',
      };
      const parsed: { lengths: Int32Array; threadId: number }[] = [];
      for await (const page of db.scanPages(SCAN, 0, 4, parser)) {
        parsed.push(page.parsed as { lengths: Int32Array; threadId: number });
        expect([...(page.parsed as { lengths: Int32Array }).lengths]).toEqual(page.texts.map((t) => t.length));
      }
      expect(parsed.length).toBe(3);
      for (const p of parsed) {
        expect(p.lengths).toBeInstanceOf(Int32Array);
        expect(p.threadId !== 0).toBe(worker);
      }
      // Without a parser, pages carry nothing more.
      for await (const page of db.scanPages(SCAN, 0, 4)) expect(page.parsed).toBeUndefined();
      // A view of part of a buffer arrives copied.
      for await (const page of db.scanPages(SCAN, 0, 4, { ...parser, exportName: 'partOfABuffer' }))
        expect([...(page.parsed as { lengths: Int32Array }).lengths]).toEqual(page.texts.map((t) => t.length));
      // A parser that cannot be loaded, or that throws, leaves the pages unparsed (one warning) rather than
      // failing the scan: the reader then decodes the texts itself.
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      for (const exportName of ['nothing', 'failing']) {
        const pages = [];
        for await (const page of db.scanPages(SCAN, 0, 4, { ...parser, exportName })) pages.push(page);
        expect(pages.flatMap((p) => p.texts)).toEqual(texts);
        expect(pages.every((p) => p.parsed === undefined)).toBe(true);
      }
      // Warned where the parser ran: here, or on the worker (whose console the test does not spy on).
      if (!worker) expect(warn).toHaveBeenCalledTimes(2);
      warn.mockRestore();
    } finally {
      await db.close();
    }
  });

  it('stops its worker when the reader stops early, reports a failed query, and reads only', async () => {
    const db = await open();
    try {
      await db.transaction(async (tx) => {
        for (let i = 1; i <= 50; i++)
          await tx.run('INSERT INTO engine_journal (seq, command) VALUES ($1, $2)', [i, 'c']);
      });
      const terminate = vi.spyOn(Worker.prototype, 'terminate');
      let seen = 0;
      for await (const page of db.scanPages(SCAN, 0, 4)) {
        seen += page.keys.length;
        if (seen >= 8) break;
      }
      expect(seen).toBe(8);
      expect(terminate).toHaveBeenCalledTimes(worker ? 1 : 0); // a worker stops with the loop
      terminate.mockRestore();
      await expect(
        collect(db.scanPages('SELECT seq, nope FROM engine_journal WHERE seq > $1 LIMIT $2', 0, 4)),
      ).rejects.toThrow(/nope/);
      expect(() => db.scanPages('DELETE FROM engine_journal', 0, 4)).toThrow(/SELECT/);
      expect((await db.query('SELECT COUNT(*) AS n FROM engine_journal'))[0]).toEqual({ n: 50 });
    } finally {
      await db.close();
    }
  });
});

describe('what a page parser hands over by transfer', () => {
  it('transfers the buffers its typed arrays span whole, once each, and copies views of part of one', () => {
    const whole = new Float64Array(4);
    const shared = new Int32Array(8);
    const part = new Int32Array(8).subarray(2, 4);
    const pooled = Buffer.from('abc');
    const buffers = buffersOf({ whole, again: whole, shared, part, pooled, text: 'x', n: 1 });
    expect(buffers).toEqual([whole.buffer, shared.buffer]);
    expect(buffersOf(undefined)).toEqual([]);
  });
});
