// Opens the database the deployment asks for: PostgreSQL when DATABASE_URL is set, otherwise the
// embedded SQLite file in DATA_DIR (or memory, for tests), then brings the schema up to date.

import { migrate } from './migrations.ts';
import { openPostgres } from './postgres.ts';
import { openSqlite } from './sqlite.ts';
import type { Db } from './types.ts';

export type DbConfig = { databaseUrl?: string | undefined; dataDir?: string | null; schema?: string };

export async function openDb(config: DbConfig): Promise<Db> {
  const db = config.databaseUrl
    ? await openPostgres(config.databaseUrl, config.schema ? { schema: config.schema } : {})
    : openSqlite(config.dataDir ?? null);
  await migrate(db);
  return db;
}
