// The one database interface the server codes against. Both adapters speak the same SQL subset:
// `$1`-style parameters, RETURNING, ON CONFLICT; money as integer strings in NUMERIC/TEXT columns;
// times as bigint milliseconds read back as numbers. Dialect differences live only in migrations.

export type Dialect = 'sqlite' | 'postgres';
export type Param = string | number | bigint | boolean | null | Uint8Array;
export type Row = Record<string, unknown>;

export interface Sql {
  readonly dialect: Dialect;
  /** Runs a statement and returns its rows (empty for statements without RETURNING). */
  query<T extends Row = Row>(text: string, params?: readonly Param[]): Promise<T[]>;
  /** Runs a statement and returns how many rows it changed. */
  run(text: string, params?: readonly Param[]): Promise<number>;
}

export interface Db extends Sql {
  /** Runs `fn` in one transaction: all of it commits, or none of it does. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Where the database syncs after COMMIT (SQLite here): the same transaction, resolved once it has
   * committed, with `durable` settling when it is on disk. Commits reach the disk in the order they
   * were made, and a failed sync rejects every later `durable` too. It lets a single writer build its
   * next transaction while the disk syncs the last one.
   */
  transactionEarly?<T>(fn: (tx: Sql) => Promise<T>): Promise<{ result: T; durable: Promise<void> }>;
  close(): Promise<void>;
}
