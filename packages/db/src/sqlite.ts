// The embedded database: SQLite through node:sqlite, in WAL mode with synchronous=FULL so every
// commit is fsynced before it is acknowledged (see docs/decisions/0001-embedded-database.md).
// One connection; a queue serialises transactions so concurrent requests never interleave in one.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Db, Param, Row, Sql } from './types.ts';

/** `$1` → `?1`: SQLite's numbered parameters bind by the same index as PostgreSQL's. */
const toSqliteParams = (text: string) => text.replace(/\$(\d+)/g, '?$1');

const toSqliteValue = (p: Param): string | number | bigint | null | Uint8Array =>
  typeof p === 'boolean' ? (p ? 1 : 0) : p;

export function openSqlite(dataDir: string | null): Db {
  let path = ':memory:';
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    path = join(dataDir, 'bourse.sqlite');
  }
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');

  const statements = new Map<string, StatementSync>();
  const prepare = (text: string) => {
    let stmt = statements.get(text);
    if (!stmt) {
      stmt = db.prepare(toSqliteParams(text));
      statements.set(text, stmt);
    }
    return stmt;
  };

  const direct: Sql = {
    dialect: 'sqlite',
    async query<T extends Row>(text: string, params: readonly Param[] = []) {
      return prepare(text).all(...params.map(toSqliteValue)) as T[];
    },
    async run(text: string, params: readonly Param[] = []) {
      return Number(prepare(text).run(...params.map(toSqliteValue)).changes);
    },
  };

  // A promise chain: each transaction (and each statement outside one) waits for the one before.
  let tail: Promise<unknown> = Promise.resolve();
  const serialised = <T>(work: () => Promise<T>): Promise<T> => {
    const result = tail.then(work, work);
    tail = result.catch(() => undefined);
    return result;
  };

  let closed = false;
  return {
    dialect: 'sqlite',
    query: (text, params) => serialised(() => direct.query(text, params)),
    run: (text, params) => serialised(() => direct.run(text, params)),
    transaction: (fn) =>
      serialised(async () => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await fn(direct);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      }),
    async close() {
      if (closed) return;
      closed = true;
      await tail;
      db.close();
    },
  };
}
