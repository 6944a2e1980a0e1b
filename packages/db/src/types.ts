// The one database interface the server codes against. Both adapters speak the same SQL subset:
// `$1`-style parameters, RETURNING, ON CONFLICT; money as integer strings in NUMERIC/TEXT columns;
// times as bigint milliseconds read back as numbers. Dialect differences live only in migrations.

import type { ReadSource } from './reader.ts';

export type Dialect = 'sqlite' | 'postgres';
export type Param = string | number | bigint | boolean | null | Uint8Array | ParamArray;
/** A column of values for PostgreSQL's `unnest($1::bigint[], …)` (bulk writes); SQLite refuses it. */
export type ParamArray = readonly (string | number | null)[];
export type Row = Record<string, unknown>;
/**
 * One page of scanPages: each row's key and text, in key order, and what the scan's PageParser made of
 * the texts (where one was given).
 */
export type TextPage = { keys: Float64Array; texts: string[]; parsed?: unknown };

/**
 * A function of a page's texts that scanPages runs where it reads the page (a worker thread, where it
 * reads off the caller's), so the caller receives the texts already parsed as far as it can take them:
 * `module` (a URL) exports it as `exportName`. Its result's typed arrays that span their whole buffer go
 * to the caller by transfer (others are copied). A parser that cannot be loaded or that throws leaves
 * the pages without `parsed` (one warning): it may only save the caller work, never decide an outcome.
 */
export type PageParser = { module: string; exportName: string };

export interface Sql {
  readonly dialect: Dialect;
  /** Runs a statement and returns its rows (empty for statements without RETURNING). */
  query<T extends Row = Row>(text: string, params?: readonly Param[]): Promise<T[]>;
  /** Runs a statement and returns how many rows it changed. */
  run(text: string, params?: readonly Param[]): Promise<number>;
}

export interface Db extends Sql {
  /**
   * Runs a SELECT and returns each row as an array of its column values in the SELECT's order: cheaper
   * than objects for reading many rows. Only for SELECT statements.
   */
  queryArrays<T extends unknown[] = unknown[]>(text: string, params?: readonly Param[]): Promise<T[]>;
  /**
   * Reads (integer key, text) rows in keyset pages on a worker thread with its own connection, a page
   * or two ahead of the caller, so the reading and the driver's parsing leave this thread (the engine
   * journal at start-up). `text` is a SELECT of those two columns, ordered by key, with `$1` the key to
   * read after and `$2` the page size; the last page is short. Where no second connection can reach
   * the data (SQLite in memory) the pages are read on this thread. With `parser`, each page also comes
   * with what it made of the texts (`parsed`), made on the reading thread.
   */
  scanPages(text: string, after: number, pageSize: number, parser?: PageParser): AsyncGenerator<TextPage>;
  /**
   * Where another thread can open a read-only connection of its own (openReader) to see what this one
   * has committed; undefined where none can (SQLite in memory).
   */
  readonly readSource: ReadSource | undefined;
  /** Runs `fn` in one transaction: all of it commits, or none of it does. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * For a single writer that builds its next transaction while the last one reaches the disk: the
   * same transaction, resolved once its statements have run (SQLite: once committed, the sync to
   * follow; PostgreSQL: before COMMIT, which waits for the previous transactionEarly to commit), with
   * `durable` settling when it is committed and on disk. Commits happen and reach the disk in call
   * order, and a failed one (its statements, its COMMIT or its sync) fails every later one, queued ones
   * included: the call rejects (or, where it had already resolved, its `durable`) with an error naming
   * the first failure (its `cause`); only a new Db writes early again. Callers must be told nothing
   * before `durable`.
   * `fn` gets `previousCommitted`: on PostgreSQL the statements run while the previous transaction is
   * still uncommitted, so rows it wrote are invisible until then (an UPDATE would find none of them);
   * await it before touching them. On SQLite it is already settled.
   */
  transactionEarly?<T>(
    fn: (tx: Sql, previousCommitted: Promise<void>) => Promise<T>,
  ): Promise<{ result: T; durable: Promise<void> }>;
  close(): Promise<void>;
}
