// The embedded database: SQLite through node:sqlite in WAL mode. Every write is fsynced before it is
// acknowledged, but not by SQLite on this thread: SQLite runs with synchronous=NORMAL (consistent,
// no fsync at commit) and the adapter fdatasyncs the write-ahead log itself on libuv's thread pool
// after COMMIT, one sync shared by every write that committed before it started (decision 0001).
// The event loop keeps serving while the disk syncs. One connection; a queue serialises transactions
// so concurrent requests never interleave in one.

import { closeSync, fdatasync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Db, Param, Row, Sql } from './types.ts';

/** `$1` → `?1`: SQLite's numbered parameters bind by the same index as PostgreSQL's. */
const toSqliteParams = (text: string) => text.replace(/\$(\d+)/g, '?$1');

/** A plain SELECT writes nothing, so it needs no sync; anything else might. */
const isRead = (text: string) => /^\s*SELECT\b/i.test(text);

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
  // NORMAL: SQLite syncs the log before each checkpoint and the database after it, but not at commit;
  // `durable()` below makes every commit reach the disk before it is acknowledged.
  db.exec('PRAGMA synchronous = NORMAL');
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

  const durable = path === ':memory:' ? { sync: async () => {}, close() {} } : walSyncer(`${path}-wal`);

  const committed = <T>(fn: (tx: Sql) => Promise<T>) =>
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
    });

  let closed = false;
  return {
    dialect: 'sqlite',
    // Writes resolve once durable; the queue moves on at COMMIT, so reads and the next transaction
    // do not wait for the disk. A statement outside a transaction commits on its own.
    query: async <T extends Row>(text: string, params?: readonly Param[]) => {
      const rows = await serialised(() => direct.query<T>(text, params));
      if (!isRead(text)) await durable.sync();
      return rows;
    },
    run: async (text, params) => {
      const changed = await serialised(() => direct.run(text, params));
      if (!isRead(text)) await durable.sync();
      return changed;
    },
    transaction: async (fn) => {
      const result = await committed(fn);
      await durable.sync();
      return result;
    },
    transactionEarly: async (fn) => {
      const result = await committed(fn);
      const synced = durable.sync();
      synced.catch(() => undefined); // reported to whoever awaits `durable`
      return { result, durable: synced };
    },
    async close() {
      if (closed) return;
      closed = true;
      await tail;
      await durable.sync();
      durable.close();
      db.close();
    },
  };
}

/**
 * Group fdatasync of the write-ahead log on libuv's thread pool. A sync covers every commit that
 * returned before it started, so a caller arriving while one is in flight waits for the next one,
 * which it shares with everyone else who arrived meanwhile. Syncs run one at a time, in order.
 */
function walSyncer(walPath: string) {
  let fd: number | null = null;
  let inFlight: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  // After a failed sync nothing later can be called durable (the kernel may have dropped the pages).
  let failure: unknown = null;
  const syncOnce = () =>
    new Promise<void>((resolve, reject) => {
      if (failure) return reject(failure);
      // The log exists once anything has committed in WAL mode; it keeps its inode across checkpoints.
      fd ??= openSync(walPath, 'r');
      fdatasync(fd, (error) => {
        if (error) failure = error;
        return error ? reject(error) : resolve();
      });
    });
  const sync = (): Promise<void> => {
    if (!inFlight) {
      inFlight = syncOnce().finally(() => {
        inFlight = null;
      });
      return inFlight;
    }
    next ??= inFlight.then(() => {
      next = null;
      return sync();
    });
    return next;
  };
  return {
    sync,
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
