// SQL for manual adjustments and their transition table. Plain rows; the rules live in service.ts.

import type { Sql } from '@bourse/db';

export type AdjustmentStatus = 'pending' | 'approved' | 'rejected';
export type AdjustmentRow = {
  id: number;
  user_id: number;
  wallet: string;
  asset: string;
  amount: string;
  reason: string;
  status: AdjustmentStatus;
  proposed_by: number;
  proposed_by_name: string;
  proposed_at: number;
  decided_by: number | null;
  decided_by_name: string | null;
  decided_at: number | null;
  decision_reason: string;
  transfer_id: string | null;
};

const SELECT = `SELECT a.id, a.user_id, a.wallet, a.asset, a.amount, a.reason, a.status, a.proposed_by,
    p.username AS proposed_by_name, a.proposed_at, a.decided_by, d.username AS decided_by_name, a.decided_at,
    a.decision_reason, a.transfer_id
  FROM adjustments a JOIN staff p ON p.id = a.proposed_by LEFT JOIN staff d ON d.id = a.decided_by`;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function toRow(r: AdjustmentRow): AdjustmentRow {
  return {
    ...r,
    id: Number(r.id),
    user_id: Number(r.user_id),
    proposed_by: Number(r.proposed_by),
    proposed_at: Number(r.proposed_at),
    decided_by: num(r.decided_by),
    decided_at: num(r.decided_at),
  };
}

export async function userExists(db: Sql, userId: number): Promise<boolean> {
  return (await db.query('SELECT 1 FROM users WHERE id = $1', [userId])).length > 0;
}

export async function insert(
  db: Sql,
  a: { userId: number; wallet: string; asset: string; amount: string; reason: string; staffId: number; at: number },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO adjustments (user_id, wallet, asset, amount, reason, status, proposed_by, proposed_at)
     VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7) RETURNING id`,
    [a.userId, a.wallet, a.asset, a.amount, a.reason, a.staffId, a.at],
  );
  return Number(rows[0]?.id);
}

export async function find(db: Sql, id: number): Promise<AdjustmentRow | undefined> {
  const rows = await db.query<AdjustmentRow>(`${SELECT} WHERE a.id = $1`, [id]);
  return rows[0] && toRow(rows[0]);
}

export async function list(db: Sql, status: AdjustmentStatus | 'all', limit: number): Promise<AdjustmentRow[]> {
  const rows =
    status === 'all'
      ? await db.query<AdjustmentRow>(`${SELECT} ORDER BY a.id DESC LIMIT $1`, [limit])
      : await db.query<AdjustmentRow>(`${SELECT} WHERE a.status = $1 ORDER BY a.id DESC LIMIT $2`, [status, limit]);
  return rows.map(toRow);
}

export async function transitionAllowed(db: Sql, from: AdjustmentStatus, to: AdjustmentStatus): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM adjustment_transitions WHERE from_status = $1 AND to_status = $2', [
    from,
    to,
  ]);
  return rows.length > 0;
}

/** Decides a pending adjustment; false when it was no longer pending. */
export async function decide(
  db: Sql,
  d: { id: number; to: AdjustmentStatus; staffId: number; at: number; reason: string; transferId: string | null },
): Promise<boolean> {
  const changed = await db.run(
    `UPDATE adjustments SET status = $2, decided_by = $3, decided_at = $4, decision_reason = $5, transfer_id = $6
     WHERE id = $1 AND status = 'pending'`,
    [d.id, d.to, d.staffId, d.at, d.reason, d.transferId],
  );
  return changed > 0;
}

export async function transferExists(db: Sql, transferId: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM ledger_transfers WHERE transfer_id = $1', [transferId])).length > 0;
}

/** The reasons of a customer's approved adjustments among `ids`. */
export async function reasonsOf(db: Sql, userId: number, ids: readonly number[]) {
  const marks = ids.map((_, i) => `$${i + 2}`).join(', ');
  const rows = await db.query<{ id: number; reason: string }>(
    `SELECT id, reason FROM adjustments WHERE user_id = $1 AND status = 'approved' AND id IN (${marks})`,
    [userId, ...ids],
  );
  return rows.map((r) => ({ id: Number(r.id), reason: r.reason }));
}
