// For tests that must pass on both databases: the embedded one always, PostgreSQL when it answers.
// Each PostgreSQL test database is a schema no other test sees while it is open. Creating and
// migrating a schema, then dropping it, cost ~250-700 ms of PostgreSQL's time a test (decision 0026),
// so a closed test database is emptied back to its just-migrated state (every row deleted, the
// migrations' own rows and the sequences put back) and handed to the next open() of the same test
// file; the file's schemas are dropped after its tests. When PostgreSQL is unreachable, this says so
// loudly and those tests are skipped.

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
    const reuse = await dropSparesAfterFile();
    list.push({
      dialect: 'postgres',
      open: async () => {
        const reused = reuse ? spare.pop() : undefined;
        const schema = reused ?? `t_${Date.now()}_${randomBytes(4).toString('hex')}`;
        const db = await openDb({ databaseUrl: TEST_DATABASE_URL, schema });
        // Learnt before the test writes anything; a failure only means closed schemas are dropped.
        if (reuse && !reused) {
          fresh ??= learnFresh(db, schema).catch(() => undefined);
          await fresh;
        }
        // Closing empties the schema for the next test, or drops it, so runs leave nothing behind.
        return {
          ...db,
          async close() {
            await db.close();
            if (reuse && (await emptied(schema))) spare.push(schema);
            else await dropSchema(schema);
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

/** Closed test schemas, empty and migrated, for this process's next open(). */
const spare: string[] = [];

/**
 * Has the test file drop its spare schemas after its tests (vitest's afterAll at the file's top level,
 * where testDatabases() is awaited). False where no hook can be registered (outside vitest, or called
 * inside a test or hook): then each closed schema is dropped at once, as before.
 */
async function dropSparesAfterFile(): Promise<boolean> {
  try {
    const { afterAll } = await import('vitest');
    afterAll(async () => {
      await emptying;
      await endAdmin();
      for (const schema of spare.splice(0)) await dropSchema(schema);
    });
    return true;
  } catch {
    return false;
  }
}

/** What a just-migrated schema holds, learnt from this process's first (the same for every one). */
type Fresh = {
  tables: string[];
  /** The schema's shape: relations, columns, constraints, triggers and functions (tests drop triggers). */
  shape: string;
  /** Rows the migrations inserted (schema_migrations, the transition tables), as JSON per table. */
  rows: { table: string; json: string }[];
  /** Each sequence's state right after the migrations. */
  sequences: { name: string; last: string; called: boolean }[];
};
let fresh: Promise<Fresh | undefined> | undefined;

/** Learns the just-migrated state from a schema this process has just migrated, before its test runs. */
async function learnFresh(db: Db, schema: string): Promise<Fresh> {
  const tables = (
    await db.query<{ name: string }>('SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 ORDER BY 1', [
      schema,
    ])
  ).map((r) => r.name);
  const rows = await db.query<{ table: string; json: string }>(
    tables
      .map((t) => `SELECT '${t}' AS "table", json_agg(r)::text AS json FROM "${t}" r HAVING COUNT(*) > 0`)
      .join(' UNION ALL '),
  );
  const sequences = await db.query<{ name: string; last: string; called: boolean }>(
    `SELECT sequencename AS name, COALESCE(last_value, start_value)::text AS last, last_value IS NOT NULL AS called
     FROM pg_sequences WHERE schemaname = $1`,
    [schema],
  );
  return { tables, rows, sequences, shape: await shapeOf(db, schema) };
}

/** A digest of everything in a schema but its rows: two schemas with the same digest were built alike. */
const SHAPE = `
  SELECT md5(string_agg(item, ',' ORDER BY item)) AS shape FROM (
    SELECT c.relname || ':' || c.relkind::text AS item FROM pg_class c WHERE c.relnamespace = $1::regnamespace
    UNION ALL
    SELECT c.relname || '.' || a.attname || ':' || a.atttypid::text || ':' || a.attnotnull::text
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = $1::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
    UNION ALL
    SELECT conname || ':' || contype::text FROM pg_constraint WHERE connamespace = $1::regnamespace
    UNION ALL
    SELECT t.tgname || ':' || t.tgenabled::text FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE c.relnamespace = $1::regnamespace AND NOT t.tgisinternal
    UNION ALL
    SELECT p.proname || ':' || md5(p.prosrc) FROM pg_proc p WHERE p.pronamespace = $1::regnamespace
  ) s`;

async function shapeOf(sql: { query: Db['query'] }, schema: string): Promise<string> {
  const [row] = await sql.query<{ shape: string }>(SHAPE, [schema]);
  return row?.shape ?? '';
}

/** One connection per process for emptying schemas (a connection each cost ~10-20 ms), ended after each file. */
let admin: Promise<pg.Client> | undefined;
/** Emptyings one after another on that connection: a failed one is rolled back before the next begins. */
let emptying: Promise<unknown> = Promise.resolve();

async function endAdmin(): Promise<void> {
  const client = admin;
  admin = undefined;
  await (await client?.catch(() => undefined))?.end().catch(() => undefined);
}

/**
 * Puts a closed test schema back to its just-migrated state, in one transaction sent as one query: if
 * its shape is not the just-migrated one (a test dropped a trigger, added a table) it stops there;
 * otherwise it deletes every table's rows with triggers off (the append-only tables' and foreign keys'
 * triggers would refuse it: a session_replication_role of replica, which needs a superuser), puts the
 * migrations' rows back and resets every sequence. False when it cannot: the caller drops the schema.
 */
function emptied(schema: string): Promise<boolean> {
  const run = emptying.then(() => emptyNow(schema));
  emptying = run;
  return run;
}

async function emptyNow(schema: string): Promise<boolean> {
  const known = await fresh;
  if (!known) return false;
  const { tables, rows, sequences, shape } = known;
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  let client: pg.Client | undefined;
  try {
    admin ??= (async () => {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      c.on('error', () => undefined); // surfaced by the next query
      await c.connect();
      return c;
    })();
    client = await admin;
    await client.query(
      [
        'BEGIN',
        `SET LOCAL search_path TO "${schema}"`,
        `DO $changed$ BEGIN
           IF (${SHAPE.replaceAll('$1', literal(schema))}) IS DISTINCT FROM ${literal(shape)} THEN
             RAISE EXCEPTION 'the schema was changed';
           END IF;
         END $changed$`,
        'SET LOCAL session_replication_role = replica',
        ...tables.map((t) => `DELETE FROM "${t}"`),
        ...rows.map(
          ({ table, json }) =>
            `INSERT INTO "${table}" SELECT * FROM json_populate_recordset(NULL::"${table}", ${literal(json)})`,
        ),
        ...sequences.map(({ name, last, called }) => `SELECT setval('"${name}"', ${last}, ${called})`),
        'COMMIT',
      ].join(';\n'),
    );
    return true;
  } catch {
    if (
      client &&
      (await client.query('ROLLBACK').then(
        () => false,
        () => true,
      ))
    )
      await endAdmin();
    return false;
  }
}
