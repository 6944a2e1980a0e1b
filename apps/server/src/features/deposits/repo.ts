// SQL of fiat deposits: the deposits table, the allowed transitions and the history of every move.
// Plain rows, one dialect for both databases; the rules live in service.ts.

import type { DepositCurrency, DepositRail, DepositStatus } from '@bourse/contract';
import type { Sql } from '@bourse/db';

export type DepositRow = {
  id: number;
  user_id: number;
  rail: DepositRail;
  currency: DepositCurrency;
  amount_minor: bigint;
  status: DepositStatus;
  reference: string;
  has_proof: boolean;
  txid: string | null;
  br_code: string | null;
  expires_at: number | null;
  reason: string;
  request_id: string | null;
  request_body: string | null;
  created_at: number;
  updated_at: number;
  credited_at: number | null;
};

export type HistoryRow = { from_status: string; to_status: DepositStatus; at: number; actor: string; reason: string };
export type Actor = { kind: 'customer' | 'staff' | 'provider' | 'system'; id: string };

/** The columns read for a deposit (never the proof image itself), with an optional table alias. */
const columns = (t = '') =>
  `${t}id, ${t}user_id, ${t}rail, ${t}currency, ${t}amount_minor, ${t}status, ${t}reference,
   ${t}proof_image IS NOT NULL AS has_proof, ${t}txid, ${t}br_code, ${t}expires_at, ${t}reason, ${t}request_id,
   ${t}request_body, ${t}created_at, ${t}updated_at, ${t}credited_at`;
const COLUMNS = columns();

type Raw = Omit<DepositRow, 'amount_minor' | 'has_proof'> & { amount_minor: unknown; has_proof: unknown };

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
function toRow(r: Raw): DepositRow {
  return {
    ...r,
    id: Number(r.id),
    user_id: Number(r.user_id),
    amount_minor: BigInt(String(r.amount_minor)),
    has_proof: r.has_proof === true || Number(r.has_proof) === 1,
    expires_at: num(r.expires_at),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
    credited_at: num(r.credited_at),
  };
}

export async function transitionAllowed(db: Sql, from: string, to: DepositStatus): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM deposit_transitions WHERE from_status = $1 AND to_status = $2', [
    from,
    to,
  ]);
  return rows.length > 0;
}

export async function insert(
  db: Sql,
  d: {
    userId: number;
    rail: DepositRail;
    currency: DepositCurrency;
    amountMinor: bigint;
    status: DepositStatus;
    reference: string;
    proof: string | null;
    txid: string | null;
    brCode: string | null;
    expiresAt: number | null;
    requestId: string | null;
    requestBody: string | null;
    at: number;
  },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO deposits (user_id, rail, currency, amount_minor, status, reference, proof_image, txid, br_code,
       expires_at, request_id, request_body, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING id`,
    [
      d.userId,
      d.rail,
      d.currency,
      d.amountMinor.toString(),
      d.status,
      d.reference,
      d.proof,
      d.txid,
      d.brCode,
      d.expiresAt,
      d.requestId,
      d.requestBody,
      d.at,
    ],
  );
  return Number(rows[0]!.id);
}

export async function addHistory(
  db: Sql,
  depositId: number,
  from: string,
  to: DepositStatus,
  at: number,
  actor: Actor,
  reason: string,
): Promise<void> {
  await db.run(
    'INSERT INTO deposit_history (deposit_id, from_status, to_status, at, actor, actor_id, reason) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [depositId, from, to, at, actor.kind, actor.id, reason],
  );
}

/** Moves a deposit from `from` to `to` only if it is still in `from`; answers whether it moved. */
export async function move(
  db: Sql,
  id: number,
  from: DepositStatus,
  to: DepositStatus,
  reason: string,
  at: number,
): Promise<boolean> {
  const n = await db.run(
    'UPDATE deposits SET status = $3, reason = $4, updated_at = $5 WHERE id = $1 AND status = $2',
    [id, from, to, reason, at],
  );
  return n === 1;
}

export async function markCredited(db: Sql, id: number, at: number): Promise<void> {
  await db.run('UPDATE deposits SET credited_at = $2 WHERE id = $1 AND credited_at IS NULL', [id, at]);
}

export async function find(db: Sql, id: number): Promise<DepositRow | undefined> {
  const rows = await db.query<Raw>(`SELECT ${COLUMNS} FROM deposits WHERE id = $1`, [id]);
  return rows[0] && toRow(rows[0]);
}

export async function findByTxid(db: Sql, txid: string): Promise<DepositRow | undefined> {
  const rows = await db.query<Raw>(`SELECT ${COLUMNS} FROM deposits WHERE txid = $1`, [txid]);
  return rows[0] && toRow(rows[0]);
}

export async function findByRequest(db: Sql, userId: number, requestId: string): Promise<DepositRow | undefined> {
  const rows = await db.query<Raw>(`SELECT ${COLUMNS} FROM deposits WHERE user_id = $1 AND request_id = $2`, [
    userId,
    requestId,
  ]);
  return rows[0] && toRow(rows[0]);
}

export async function listForUser(
  db: Sql,
  userId: number,
  q: { status?: DepositStatus | undefined; rail?: readonly DepositRail[] | undefined },
  limit: number,
  offset: number,
): Promise<{ rows: DepositRow[]; total: number }> {
  const where = ['user_id = $1'];
  const params: (string | number)[] = [userId];
  if (q.status) {
    params.push(q.status);
    where.push(`status = $${params.length}`);
  }
  if (q.rail && q.rail.length > 0) {
    const first = params.length + 1;
    params.push(...q.rail);
    where.push(`rail IN (${q.rail.map((_, i) => `$${first + i}`).join(', ')})`);
  }
  const clause = where.join(' AND ');
  const total = (await db.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM deposits WHERE ${clause}`, params))[0]?.n;
  const rows = await db.query<Raw>(
    `SELECT ${COLUMNS} FROM deposits WHERE ${clause} ORDER BY id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { rows: rows.map(toRow), total: Number(total ?? 0) };
}

export async function history(db: Sql, depositId: number): Promise<HistoryRow[]> {
  const rows = await db.query<HistoryRow>(
    'SELECT from_status, to_status, at, actor, reason FROM deposit_history WHERE deposit_id = $1 ORDER BY id',
    [depositId],
  );
  return rows.map((r) => ({ ...r, at: Number(r.at) }));
}

/** Bank and offline deposits waiting for the finance desk, oldest first, with the customer's phone. */
export async function pendingReview(db: Sql, limit: number): Promise<(DepositRow & { account: string })[]> {
  const rows = await db.query<Raw & { account: string }>(
    `SELECT ${columns('d.')}, u.phone AS account
     FROM deposits d JOIN users u ON u.id = d.user_id
     WHERE d.status = 'pending' ORDER BY d.id LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ ...toRow(r), account: r.account }));
}

/** PIX charges past their expiry that nobody paid. */
export async function dueToExpire(db: Sql, now: number): Promise<DepositRow[]> {
  const rows = await db.query<Raw>(
    `SELECT ${COLUMNS} FROM deposits WHERE status = 'awaiting_payment' AND expires_at <= $1 ORDER BY id LIMIT 500`,
    [now],
  );
  return rows.map(toRow);
}

/** Confirmed deposits whose ledger credit is not recorded yet (a crash between the two: decision 0018). */
export async function confirmedNotCredited(db: Sql): Promise<DepositRow[]> {
  const rows = await db.query<Raw>(
    `SELECT ${COLUMNS} FROM deposits WHERE status = 'confirmed' AND credited_at IS NULL ORDER BY id`,
  );
  return rows.map(toRow);
}

export async function proof(db: Sql, id: number): Promise<{ user_id: number; data: string | null } | undefined> {
  const rows = await db.query<{ user_id: number; data: string | null }>(
    'SELECT user_id, proof_image AS data FROM deposits WHERE id = $1',
    [id],
  );
  return rows[0] && { user_id: Number(rows[0].user_id), data: rows[0].data };
}
