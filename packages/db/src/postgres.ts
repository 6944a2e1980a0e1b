// PostgreSQL through node-postgres, used when DATABASE_URL is set. int8 columns (ids, times in ms)
// are read as numbers; NUMERIC money stays a string so no float ever touches it.

import pg from 'pg';
import { failedBefore } from './early-failure.ts';
import { scanPagesOffThread } from './page-scan.ts';
import type { ReadSource } from './reader.ts';
import { isRead, toPgValue } from './sql-text.ts';
import type { Db, Param, Row, Sql } from './types.ts';

pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${value} is past 2^53; use NUMERIC`);
  return n;
});

/** Pooled clients that already have checkOut()'s error listener. */
const listened = new WeakSet<pg.PoolClient>();

export async function openPostgres(url: string, options: { schema?: string; max?: number } = {}): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  pool.on('error', () => undefined); // an idle client dying is reported on its next use
  if (options.schema) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
    } finally {
      await client.end();
    }
  }
  const on = (runner: pg.Pool | pg.PoolClient): Sql => ({
    dialect: 'postgres',
    async query<T extends Row>(text: string, params: readonly Param[] = []) {
      return (await runner.query(text, params.map(toPgValue))).rows as T[];
    },
    async run(text: string, params: readonly Param[] = []) {
      return (await runner.query(text, params.map(toPgValue))).rowCount ?? 0;
    },
  });
  const direct = on(pool);
  /**
   * A pooled client for a transaction. pg-pool listens for a client's 'error' only while it is idle; a
   * connection that dies while checked out (a restarted server, pg_terminate_backend) rejects the query
   * in flight, and then emits 'error', which with no listener would end the process before the caller
   * could handle the rejection (the engine host's onFatal). Each client gets a listener once.
   */
  const checkOut = async (): Promise<pg.PoolClient> => {
    const client = await pool.connect();
    if (!listened.has(client)) {
      listened.add(client);
      client.on('error', () => undefined); // surfaced by the rejected query
    }
    return client;
  };
  /** Rolls back; a client whose ROLLBACK fails is broken and leaves the pool. */
  const rollBack = async (client: pg.PoolClient, error: unknown) => {
    const rolledBack = await client.query('ROLLBACK').then(
      () => true,
      () => false,
    );
    client.release(rolledBack ? undefined : error instanceof Error ? error : true);
  };
  /** The last transactionEarly's commit: the next one commits after it, and fails if it failed. */
  let lastCommit: Promise<void> = Promise.resolve();
  /** The first transactionEarly in call order that failed, in its connection, its statements or its COMMIT. */
  let earlyFailure: unknown = null;
  /** Each transactionEarly's place in call order, and the place of the first that failed. */
  let earlyCalls = 0;
  let earlyFailedAt = Number.POSITIVE_INFINITY;
  /** Where another thread opens its own connection (the journal scan, the snapshot worker). */
  const source: ReadSource = { dialect: 'postgres', url, ...(options.schema ? { schema: options.schema } : {}) };
  return {
    ...direct,
    async queryArrays<T extends unknown[]>(text: string, params: readonly Param[] = []) {
      if (!isRead(text)) throw new Error('queryArrays runs SELECT statements only');
      return (await pool.query<T>({ text, values: params.map(toPgValue), rowMode: 'array' })).rows;
    },
    readSource: source,
    scanPages(text, after, pageSize, parser) {
      if (!isRead(text)) throw new Error('scanPages runs SELECT statements only');
      return scanPagesOffThread(source, text, after, pageSize, parser);
    },
    async transaction(fn) {
      const client = await checkOut();
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        await client.query('BEGIN');
        result = await fn(on(client));
        await client.query('COMMIT');
      } catch (error) {
        await rollBack(client, error);
        throw error;
      }
      client.release();
      return result;
    },
    async transactionEarly(fn) {
      if (earlyFailure) throw failedBefore(earlyFailure);
      // The statements run now, beside the previous transaction whose COMMIT may still be in flight;
      // this one's COMMIT is sent only once that one has committed. The place in line is taken at
      // the call, so commits keep call order; a failure anywhere fails this place and so every later one.
      const previous = lastCommit;
      const place = earlyCalls++;
      /** Whether one called before this has failed (a later one's failure is not this one's cause). */
      const anEarlierOneFailed = () => earlyFailedAt < place;
      const noteFailure = (error: unknown) => {
        if (place < earlyFailedAt) {
          earlyFailedAt = place;
          earlyFailure = error;
        }
      };
      let settle!: (outcome: Promise<void>) => void;
      lastCommit = new Promise<void>((resolve) => {
        settle = resolve;
      });
      lastCommit.catch(() => undefined);
      const fail = (error: unknown) => {
        noteFailure(error);
        settle(Promise.reject(error));
      };
      let client: pg.PoolClient;
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        client = await checkOut();
      } catch (error) {
        fail(error);
        throw error;
      }
      try {
        await client.query('BEGIN');
        result = await fn(on(client), previous);
        // One before this failed while these statements ran: refused now rather than at COMMIT (below).
        if (anEarlierOneFailed()) throw earlyFailure;
      } catch (error) {
        await rollBack(client, error);
        // After an earlier failure, that one is the cause (fn may have failed awaiting previousCommitted).
        const reason = anEarlierOneFailed() ? failedBefore(earlyFailure) : error;
        fail(reason);
        throw reason;
      }
      const durable = (async () => {
        const before = await previous.then(
          () => null,
          () => failedBefore(earlyFailure),
        );
        if (before) {
          await rollBack(client, before);
          throw before;
        }
        try {
          await client.query('COMMIT');
        } catch (error) {
          noteFailure(error);
          await client.query('ROLLBACK').catch(() => undefined);
          client.release(error instanceof Error ? error : true); // a failed COMMIT's connection is not reused
          throw error;
        }
        client.release();
      })();
      settle(durable);
      durable.catch(() => undefined); // reported to whoever awaits `durable`
      return { result, durable };
    },
    async close() {
      await lastCommit.catch(() => undefined);
      await pool.end();
    },
  };
}
