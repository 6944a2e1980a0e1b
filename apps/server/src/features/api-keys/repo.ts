// SQL for customers' API keys (migration 24). Plain rows; the rules live in service.ts.

import type { ApiKeyPermission } from '@bourse/contract';
import type { Sql } from '@bourse/db';

export type ApiKeyRow = {
  id: number;
  user_id: number;
  label: string;
  api_key: string;
  secret_sealed: string;
  permission: ApiKeyPermission;
  /** Comma-separated; '' for any address. */
  ips: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
  last_used_ip: string | null;
};

const COLUMNS =
  'id, user_id, label, api_key, secret_sealed, permission, ips, created_at, revoked_at, last_used_at, last_used_ip';

const orNull = (v: number | null) => (v === null ? null : Number(v));
function toRow(r: ApiKeyRow): ApiKeyRow {
  return {
    ...r,
    id: Number(r.id),
    user_id: Number(r.user_id),
    created_at: Number(r.created_at),
    revoked_at: orNull(r.revoked_at),
    last_used_at: orNull(r.last_used_at),
  };
}

export async function insertKey(
  db: Sql,
  k: Pick<ApiKeyRow, 'user_id' | 'label' | 'api_key' | 'secret_sealed' | 'permission' | 'ips' | 'created_at'>,
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO api_keys (user_id, label, api_key, secret_sealed, permission, ips, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [k.user_id, k.label, k.api_key, k.secret_sealed, k.permission, k.ips, k.created_at],
  );
  return Number(rows[0]?.id);
}

export async function liveKeysOf(db: Sql, userId: number): Promise<ApiKeyRow[]> {
  const rows = await db.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL ORDER BY id DESC`,
    [userId],
  );
  return rows.map(toRow);
}

export async function countLiveKeys(db: Sql, userId: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT COUNT(*) AS n FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL',
    [userId],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Revokes the customer's own live key; answers whether one was revoked. */
export async function revokeKey(db: Sql, userId: number, id: number, now: number): Promise<boolean> {
  const changed = await db.run(
    'UPDATE api_keys SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL',
    [id, userId, now],
  );
  return changed > 0;
}

/** A live key by its public half, with its owner's account status (0: blocked). */
export async function findLiveKey(db: Sql, apiKey: string): Promise<(ApiKeyRow & { user_status: number }) | undefined> {
  const rows = await db.query<ApiKeyRow & { user_status: number }>(
    `SELECT ${COLUMNS.split(', ')
      .map((c) => `k.${c}`)
      .join(', ')}, u.status AS user_status
     FROM api_keys k JOIN users u ON u.id = k.user_id
     WHERE k.api_key = $1 AND k.revoked_at IS NULL`,
    [apiKey],
  );
  const row = rows[0];
  return row ? { ...toRow(row), user_status: Number(row.user_status) } : undefined;
}

export const touchKey = (db: Sql, id: number, now: number, ip: string) =>
  db.run('UPDATE api_keys SET last_used_at = $2, last_used_ip = $3 WHERE id = $1', [id, now, ip]);
