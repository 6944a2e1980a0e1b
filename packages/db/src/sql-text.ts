// What the adapters read off a statement's text.

/** A plain SELECT writes nothing (so it needs no sync, and is all a reader runs). */
export const isRead = (text: string) => /^\s*SELECT\b/i.test(text);

/** `$1` → `?1`: SQLite's numbered parameters bind by the same index as PostgreSQL's. */
export const toSqliteParams = (text: string) => text.replace(/\$(\d+)/g, '?$1');
