export { MIGRATIONS, migrate, renderSql, splitStatements, type Migration } from './migrations.ts';
export { openDb, type DbConfig } from './open.ts';
export { openPostgres } from './postgres.ts';
export { openSqlite } from './sqlite.ts';
export { isPostgresReachable, TEST_DATABASE_URL, testDatabases, type TestDb } from './testing.ts';
export type { Db, Dialect, Param, Row, Sql } from './types.ts';
