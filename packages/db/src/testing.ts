// For tests that must pass on both databases: the embedded one always, PostgreSQL when it answers.
// Each PostgreSQL test database is a fresh schema, so runs never see each other's rows. When
// PostgreSQL is unreachable, this says so loudly and those tests are skipped.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb } from './open.ts';
import type { Db, Dialect } from './types.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let reachable: Promise<boolean> | undefined;
export function isPostgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch (error) {
      console.warn(
        `\n*** PostgreSQL at ${TEST_DATABASE_URL} is unreachable (${(error as Error).message}): ` +
          'the PostgreSQL variants of the repository and API tests are SKIPPED. ***\n',
      );
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return reachable;
}

export type TestDb = { dialect: Dialect; open: () => Promise<Db> };

/** The databases to run a suite against: sqlite always, postgres when reachable. */
export async function testDatabases(): Promise<TestDb[]> {
  const list: TestDb[] = [{ dialect: 'sqlite', open: () => openDb({ dataDir: null }) }];
  if (await isPostgresReachable()) {
    list.push({
      dialect: 'postgres',
      open: async () => {
        const schema = `t_${Date.now()}_${randomBytes(4).toString('hex')}`;
        const db = await openDb({ databaseUrl: TEST_DATABASE_URL, schema });
        // Closing drops the schema too, so test runs leave nothing behind in the test database.
        return {
          ...db,
          async close() {
            await db.close();
            await dropSchema(schema);
          },
        };
      },
    });
  }
  return list;
}

/** Drops a schema of the test database with everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
