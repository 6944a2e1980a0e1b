// The embedded database: SQLite through node:sqlite in WAL mode. Every write is fsynced before it is
// acknowledged, but not by SQLite on this thread: SQLite runs with synchronous=NORMAL (consistent,
// no fsync at commit) and the adapter fdatasyncs the write-ahead log itself on libuv's thread pool
// after COMMIT, one sync shared by every write that committed before it started (decision 0001).
// The event loop keeps serving while the disk syncs. One connection; a queue serialises transactions
// so concurrent requests never interleave in one.

import { closeSync, fdatasync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { failedBefore } from './early-failure.ts';
import { pageOf, scanPagesHere, scanPagesOffThread } from './page-scan.ts';
import type { ReadSource } from './reader.ts';
import { isRead, toSqliteParams } from './sql-text.ts';
import type { Db, PageParser, Param, Row, Sql } from './types.ts';

/** On SQLite transactions run one after another: the one before has always committed. */
const COMMITTED: Promise<void> = Promise.resolve();

export const toSqliteValue = (p: Param): string | number | bigint | null | Uint8Array => {
  if (Array.isArray(p)) throw new Error('SQLite takes no array parameters (unnest is PostgreSQL only)');
  return typeof p === 'boolean' ? (p ? 1 : 0) : (p as Exclude<Param, boolean | readonly unknown[]>);
};

export function openSqlite(dataDir: string | null): Db {
  let path = ':memory:';
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    path = join(dataDir, 'bourse.sqlite');
  }
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  // NORMAL: SQLite syncs the log before each checkpoint and the database after it, but not at commit;
  // `durable.sync()` (walSyncer below) makes every commit reach the disk before it is acknowledged.
  db.exec('PRAGMA synchronous = NORMAL');
  // Checkpoints (copying the log into the database, with two fsyncs) run on a worker thread's own
  // connection instead of inside whichever COMMIT crosses 1,000 pages: they used to stall every
  // request for the length of a checkpoint (p99 29.7 → 18.8 ms on the HTTP order bench).
  const checkpointer = path === ':memory:' ? null : startCheckpointer(path);
  // A backstop: a PASSIVE checkpoint never catches up with a writer that never pauses, and the log
  // only starts over when a write finds it fully checkpointed. Past WRITER_CHECKPOINT_PAGES the
  // writer's COMMIT finishes the checkpoint itself (the worker has copied most of it by then), so the
  // log starts over; journal_size_limit then cuts the file back.
  if (checkpointer) {
    db.exec(`PRAGMA wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
    db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  }
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

  // Statements whose rows come back as arrays (queryArrays): prepared apart, since setReturnArrays()
  // changes what a statement returns.
  const arrayStatements = new Map<string, StatementSync>();
  const prepareArrays = (text: string) => {
    let stmt = arrayStatements.get(text);
    if (!stmt) {
      stmt = db.prepare(toSqliteParams(text));
      stmt.setReturnArrays(true);
      arrayStatements.set(text, stmt);
    }
    return stmt;
  };

  const readArrays = (text: string, params: readonly Param[]) =>
    serialised(async () => prepareArrays(text).all(...params.map(toSqliteValue)) as unknown[] as unknown[][]);

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

  /** The first early transaction that failed, to its statements, its COMMIT or its sync. */
  let earlyFailure: unknown = null;

  /** Where another thread opens its own read connection; none reaches a database in memory. */
  const source: ReadSource | undefined = path === ':memory:' ? undefined : { dialect: 'sqlite', path };
  let closed = false;
  return {
    dialect: 'sqlite',
    readSource: source,
    // Writes resolve once durable; the queue moves on at COMMIT, so reads and the next transaction
    // do not wait for the disk. A statement outside a transaction commits on its own.
    query: async <T extends Row>(text: string, params?: readonly Param[]) => {
      const rows = await serialised(() => direct.query<T>(text, params));
      if (!isRead(text)) await durable.sync();
      return rows;
    },
    queryArrays: async <T extends unknown[]>(text: string, params: readonly Param[] = []) => {
      if (!isRead(text)) throw new Error('queryArrays runs SELECT statements only');
      return (await readArrays(text, params)) as T[];
    },
    scanPages(text: string, after: number, pageSize: number, parser?: PageParser) {
      if (!isRead(text)) throw new Error('scanPages runs SELECT statements only');
      // In memory no other connection sees the data: read here, page by page.
      if (!source)
        return scanPagesHere(async (key) => pageOf(await readArrays(text, [key, pageSize])), after, pageSize, parser);
      return scanPagesOffThread(source, text, after, pageSize, parser);
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
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await committed((tx) => {
          // Checked at its turn in the queue, so the ones queued behind a failure fail too (below).
          if (earlyFailure) throw earlyFailure;
          return fn(tx, COMMITTED);
        });
      } catch (error) {
        // After an earlier failure (a sync may fail while fn runs), that one is the cause.
        const reason = earlyFailure ? failedBefore(earlyFailure) : error;
        earlyFailure ??= error;
        throw reason;
      }
      const synced = durable.sync();
      // Reported to whoever awaits `durable`; every later one fails with it.
      synced.catch((error) => {
        earlyFailure ??= error;
      });
      return { result, durable: synced };
    },
    async close() {
      if (closed) return;
      closed = true;
      await tail;
      try {
        await durable.sync();
      } finally {
        durable.close();
        await checkpointer?.stop();
        db.close(); // the last connection out checkpoints and removes the log
      }
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
      // The log exists once anything has been written in WAL mode, and keeps its inode across
      // checkpoints. No log yet means nothing was written since it was last removed (at a close,
      // after a full checkpoint that synced the database): nothing to sync.
      if (fd === null) {
        try {
          fd = openSync(walPath, 'r');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return resolve();
          throw error;
        }
      }
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
    // Cleared however the one in flight ends, so a later caller never inherits its outcome.
    const after = () => {
      next = null;
      return sync();
    };
    next ??= inFlight.then(after, after);
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

/** Log pages (4 KiB) after which the writer's own COMMIT checkpoints (SQLite's default is 1,000). */
export const WRITER_CHECKPOINT_PAGES = 8_000;
/** The log file is cut back to this size when it starts over. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** How often the worker checkpoints the log (PASSIVE: never blocks the writer or readers). */
export const CHECKPOINT_EVERY_MS = 1_000;

const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.path);
db.exec('PRAGMA busy_timeout = 5000');
const checkpoint = () => {
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage(String(error));
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

function startCheckpointer(path: string) {
  const worker = new Worker(CHECKPOINTER, { eval: true, workerData: { path, everyMs: CHECKPOINT_EVERY_MS } });
  worker.unref(); // never what keeps the process alive
  let running = true;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      running = false;
      resolve();
    }),
  );
  worker.on('message', (error) => console.error(`sqlite checkpoint failed (retried): ${error}`));
  // Without it the writer's own backstop (wal_autocheckpoint above) still bounds the log.
  worker.on('error', (error) => console.error('sqlite checkpointer stopped', error));
  return {
    async stop() {
      if (!running) return;
      worker.ref(); // the process waits for it to finish now
      worker.postMessage('stop');
      await exited;
    },
  };
}
