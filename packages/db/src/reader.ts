// A read-only connection of a thread's own to a database another thread writes (Db.readSource): for
// background work that reads what the writer has committed without going through the writer's thread
// (the journal scan at start-up, the engine's snapshot worker catching up). It reads on the thread that
// opens it.

import { DatabaseSync } from 'node:sqlite';
import { type ScanSource, scanPagesHere } from './page-scan.ts';
import { isRead, toSqliteParams } from './sql-text.ts';
import { toSqliteValue } from './sqlite.ts';
import type { Param, Row, TextPage } from './types.ts';

/** Where another thread can open its own read connection (see Db.readSource). */
export type ReadSource = ScanSource;

export interface Reader {
  /** Runs a SELECT (`$1`-style parameters) and returns its rows. */
  query<T extends Row = Row>(text: string, params?: readonly Param[]): Promise<T[]>;
  /** The same, each row as an array of its column values. */
  queryArrays(text: string, params?: readonly Param[]): Promise<unknown[][]>;
  /** As Db.scanPages, read on this thread. */
  scanPages(text: string, after: number, pageSize: number): AsyncGenerator<TextPage>;
  close(): Promise<void>;
}

const select = (text: string) => {
  if (!isRead(text)) throw new Error('a reader runs SELECT statements only');
  return text;
};

export async function openReader(source: ReadSource): Promise<Reader> {
  let rows: (text: string, params: readonly Param[], arrays: boolean) => Promise<unknown[]>;
  let close: () => Promise<void>;
  if (source.dialect === 'sqlite') {
    const db = new DatabaseSync(source.path, { readOnly: true });
    db.exec('PRAGMA busy_timeout = 5000');
    rows = async (text, params, arrays) => {
      const statement = db.prepare(toSqliteParams(select(text)));
      statement.setReturnArrays(arrays);
      return statement.all(...params.map(toSqliteValue));
    };
    close = async () => db.close();
  } else {
    // Loaded only here: the journal scan's worker imports this module, and an SQLite scan needs no pg.
    const { default: pg } = await import('pg');
    const client = new pg.Client({
      connectionString: source.url,
      ...(source.schema ? { options: `-c search_path=${source.schema}` } : {}),
    });
    await client.connect();
    rows = async (text, params, arrays) =>
      (
        await client.query({
          text: select(text),
          values: params.map((p) => (typeof p === 'bigint' ? p.toString() : p)),
          ...(arrays ? { rowMode: 'array' as const } : {}),
        })
      ).rows;
    close = () => client.end();
  }
  const queryArrays = async (text: string, params: readonly Param[] = []) =>
    (await rows(text, params, true)) as unknown[][];
  return {
    query: async <T extends Row>(text: string, params: readonly Param[] = []) =>
      (await rows(text, params, false)) as T[],
    queryArrays,
    scanPages: (text, after, pageSize) => scanPagesHere(queryArrays, text, after, pageSize),
    close,
  };
}
