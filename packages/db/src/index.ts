export { MIGRATIONS, type Migration, migrate, renderSql, splitStatements } from './migrations.ts';
export { type DbConfig, openDb } from './open.ts';
export { openPostgres } from './postgres.ts';
export { openReader, type Reader, type ReadSource } from './reader.ts';
export { openSqlite } from './sqlite.ts';
export { dropSchema, isPostgresReachable, TEST_DATABASE_URL, type TestDb, testDatabases } from './testing.ts';
export type { Db, Dialect, PageParser, Param, ParamArray, Row, Sql, TextPage } from './types.ts';
