// The append-only audit log of staff actions. Each entry is chained to the one before by a SHA-256
// hash, so an edit made outside the console (the tables also refuse UPDATE and DELETE) is detectable:
// verifyChain() recomputes every hash. The chain alone cannot show its newest entries removed, or an edit
// followed by every later hash recomputed; an earlier check's newest entry (its tip), found again with
// the same hash, shows that the entries up to it are as that check read them. Written in the same
// transaction as the action it records.

import { createHash } from 'node:crypto';
import type { Sql } from '@bourse/db';

export type AuditEntry = {
  staffId: number | null;
  action: string;
  targetType: string;
  targetId: string;
  reason: string;
  detail: Record<string, unknown>;
};

export type AuditRow = {
  id: number;
  at: number;
  staff_id: number | null;
  action: string;
  target_type: string;
  target_id: string;
  reason: string;
  detail: string;
  prev_hash: string;
  hash: string;
};

const hashOf = (prevHash: string, at: number, e: Omit<AuditRow, 'id' | 'at' | 'prev_hash' | 'hash'>) =>
  createHash('sha256')
    .update(JSON.stringify([prevHash, at, e.staff_id, e.action, e.target_type, e.target_id, e.reason, e.detail]))
    .digest('hex');

export async function appendAudit(tx: Sql, entry: AuditEntry, at: number): Promise<void> {
  // One writer at a time extends the chain: PostgreSQL takes a transaction lock; SQLite's writes
  // are already serialised.
  if (tx.dialect === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(7205001)');
  const last = await tx.query<{ hash: string }>('SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1');
  const prevHash = last[0]?.hash ?? '';
  const row = {
    staff_id: entry.staffId,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    reason: entry.reason,
    detail: JSON.stringify(entry.detail),
  };
  await tx.run(
    `INSERT INTO audit_log (at, staff_id, action, target_type, target_id, reason, detail, prev_hash, hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      at,
      row.staff_id,
      row.action,
      row.target_type,
      row.target_id,
      row.reason,
      row.detail,
      prevHash,
      hashOf(prevHash, at, row),
    ],
  );
}

export async function listAudit(
  db: Sql,
  q: { page: number; limit: number; action?: string | undefined; staffId?: number | undefined },
) {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (q.action) {
    params.push(q.action);
    where.push(`a.action = $${params.length}`);
  }
  if (q.staffId) {
    params.push(q.staffId);
    where.push(`a.staff_id = $${params.length}`);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = (await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM audit_log a ${clause}`, params))[0]?.n ?? 0;
  const rows = await db.query<AuditRow & { staff_username: string | null }>(
    `SELECT a.*, s.username AS staff_username FROM audit_log a LEFT JOIN staff s ON s.id = a.staff_id ${clause}
     ORDER BY a.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, q.limit, (q.page - 1) * q.limit],
  );
  return {
    total: Number(total),
    items: rows.map((r) => ({
      id: r.id,
      at: new Date(r.at).toISOString(),
      staffId: r.staff_id,
      staffUsername: r.staff_username,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      reason: r.reason,
      detail: JSON.parse(r.detail) as Record<string, unknown>,
    })),
  };
}

/** An audit entry by its id and hash: the newest a check read (its tip), for a later check to find again. */
export type AuditTip = { id: number; hash: string };

export type ChainCheck = {
  /**
   * The first entry that does not verify: its hash is not that of its content and the hash before it, or
   * the hash it names as the one before is not that entry's. null: every entry verifies.
   */
  firstBrokenId: number | null;
  /** Whether the tip of an earlier check is gone, or has another hash now. */
  tipChanged: boolean;
  /** The newest entry; null when the log is empty. */
  tip: AuditTip | null;
};

/** Entries read per query: memory holds one page, however long the log. */
const CHAIN_PAGE_ROWS = 1_000;

/**
 * Recomputes the chain, a page of entries at a time in id order, and looks for `earlierTip` (an earlier
 * check's tip): it must still be there with the same hash. Past a broken entry the check goes on, from
 * that entry's stored hash, so that the tip is still looked for.
 */
export async function verifyChain(db: Sql, earlierTip: AuditTip | null = null): Promise<ChainCheck> {
  let prev = '';
  let firstBrokenId: number | null = null;
  let tipFound = false;
  let tip: AuditTip | null = null;
  for (;;) {
    const rows: AuditRow[] = await db.query<AuditRow>('SELECT * FROM audit_log WHERE id > $1 ORDER BY id LIMIT $2', [
      tip?.id ?? 0,
      CHAIN_PAGE_ROWS,
    ]);
    for (const r of rows) {
      if (firstBrokenId === null && (r.prev_hash !== prev || r.hash !== hashOf(prev, r.at, r))) firstBrokenId = r.id;
      if (earlierTip !== null && r.id === earlierTip.id) tipFound = r.hash === earlierTip.hash;
      prev = r.hash;
    }
    const last: AuditRow | undefined = rows.at(-1);
    if (last !== undefined) tip = { id: last.id, hash: last.hash };
    if (rows.length < CHAIN_PAGE_ROWS) break;
  }
  return { firstBrokenId, tipChanged: earlierTip !== null && !tipFound, tip };
}
