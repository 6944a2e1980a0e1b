// What the adapters read off a statement's text, and how they pass its parameters.

import type { Param } from './types.ts';

/** A plain SELECT writes nothing (so it needs no sync, and is all a reader runs). */
export const isRead = (text: string) => /^\s*SELECT\b/i.test(text);

/** A parameter as node-postgres takes it: a bigint as its decimal digits. */
export const toPgValue = (p: Param) => (typeof p === 'bigint' ? p.toString() : p);

/** `$1` → `?1`: SQLite's numbered parameters bind by the same index as PostgreSQL's. */
export const toSqliteParams = (text: string) => text.replace(/\$(\d+)/g, '?$1');
