// A read-only connection of a thread's own to a database another thread writes (Db.readSource): for
// background work that reads what the writer has committed without going through the writer's thread
// (the engine's snapshot worker catching up at start-up). It reads on the thread that opens it.

import { DatabaseSync } from 'node:sqlite';
import type { ScanSource } from './page-scan.ts';
import { scanPagesHere } from './page-scan.ts';
import { toSqliteParams, toSqliteValue } from './sqlite.ts';
import type { Param, Row, TextPage } from './types.ts';

/** Where another thread can open its own read connection (see Db.readSource). */
export type ReadSource = ScanSource;

export interface Reader {
  /** Runs a SELECT (`$1`-style parameters) and returns its rows. */
  query<T extends Row = Row>(text: string, params?: readonly Param[]): Promise<T[]>;
  /** As Db.scanPages, read on this thread. */
  scanPages(text: string, after: number, pageSize: number): AsyncGenerator<TextPage>;
  close(): Promise<void>;
}

const isRead = (text: string) => /^\s*SELECT\b/i.test(text);

export async function openReader(source: ReadSource): Promise<Reader> {
  const select = (text: string) => {
    if (!isRead(text)) throw new Error('a reader runs SELECT statements only');
    return text;
  };
  if (source.dialect === 'sqlite') {
    const db = new DatabaseSync(source.path, { readOnly: true });
    db.exec('PRAGMA busy_timeout = 5000');
    const run = (text: string, params: readonly Param[], arrays: boolean) => {
      const statement = db.prepare(toSqliteParams(select(text)));
      statement.setReturnArrays(arrays);
      return statement.all(...params.map(toSqliteValue));
    };
    return {
      query: async <T extends Row>(text: string, params: readonly Param[] = []) => run(text, params, false) as T[],
      scanPages: (text, after, pageSize) =>
        scanPagesHere(async (t, params) => run(t, params, true) as unknown as unknown[][], text, after, pageSize),
      close: async () => db.close(),
    };
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({
    connectionString: source.url,
    ...(source.schema ? { options: `-c search_path=${source.schema}` } : {}),
  });
  await client.connect();
  const values = (params: readonly Param[]) => params.map((p) => (typeof p === 'bigint' ? p.toString() : p));
  return {
    query: async <T extends Row>(text: string, params: readonly Param[] = []) =>
      (await client.query<T>(select(text), values(params))).rows,
    scanPages: (text, after, pageSize) =>
      scanPagesHere(
        async (t, params) =>
          (await client.query<unknown[]>({ text: select(t), values: values(params), rowMode: 'array' })).rows,
        text,
        after,
        pageSize,
      ),
    close: () => client.end(),
  };
}
