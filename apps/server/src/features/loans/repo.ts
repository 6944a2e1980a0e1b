// SQL for loans, their transitions and the credit score with its change log (migration 38). Plain rows;
// the rules live in service.ts.

import type { CreditFactor, CreditFactorPoints, LoanStatus } from '@bourse/contract';
import type { Sql } from '@bourse/db';

export type LoanRow = {
  id: number;
  user_id: number;
  status: LoanStatus;
  currency: string;
  amount: string;
  days: number;
  rate_ppm: number;
  overdue_rate_ppm: number;
  needs_second: number;
  score_at_apply: number;
  applied_at: number;
  first_approved_by: number | null;
  first_approved_at: number | null;
  approved_by: number | null;
  approved_at: number | null;
  rejected_by: number | null;
  reject_reason: string | null;
  rejected_at: number | null;
  disbursed_at: number | null;
  due_at: number | null;
  accrued_days: number;
  repaid_amount: string | null;
  repay_requested_at: number | null;
  confirmed_by: number | null;
  repaid_at: number | null;
  late: number;
};

const NUMERIC: (keyof LoanRow)[] = [
  'id',
  'user_id',
  'days',
  'rate_ppm',
  'overdue_rate_ppm',
  'needs_second',
  'score_at_apply',
  'applied_at',
  'first_approved_by',
  'first_approved_at',
  'approved_by',
  'approved_at',
  'rejected_by',
  'rejected_at',
  'disbursed_at',
  'due_at',
  'accrued_days',
  'repay_requested_at',
  'confirmed_by',
  'repaid_at',
  'late',
];

function loanRow(r: Record<string, unknown>): LoanRow {
  const out: Record<string, unknown> = { ...r };
  for (const k of NUMERIC) out[k] = r[k] === null || r[k] === undefined ? null : Number(r[k]);
  return out as LoanRow;
}

export async function loan(db: Sql, id: number): Promise<LoanRow | undefined> {
  const rows = await db.query<Record<string, unknown>>('SELECT * FROM loans WHERE id = $1', [id]);
  return rows[0] && loanRow(rows[0]);
}

export async function loansOf(db: Sql, userId: number): Promise<LoanRow[]> {
  const rows = await db.query<Record<string, unknown>>('SELECT * FROM loans WHERE user_id = $1 ORDER BY id DESC', [
    userId,
  ]);
  return rows.map(loanRow);
}

export async function loansIn(db: Sql, statuses: readonly LoanStatus[], limit = 500): Promise<LoanRow[]> {
  const marks = statuses.map((_, i) => `$${i + 1}`).join(', ');
  const rows = await db.query<Record<string, unknown>>(
    `SELECT * FROM loans WHERE status IN (${marks}) ORDER BY id DESC LIMIT ${Math.floor(limit)}`,
    [...statuses],
  );
  return rows.map(loanRow);
}

export async function insertLoan(
  db: Sql,
  l: Pick<
    LoanRow,
    | 'user_id'
    | 'currency'
    | 'amount'
    | 'days'
    | 'rate_ppm'
    | 'overdue_rate_ppm'
    | 'needs_second'
    | 'score_at_apply'
    | 'applied_at'
  >,
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO loans (user_id, status, currency, amount, days, rate_ppm, overdue_rate_ppm, needs_second,
       score_at_apply, applied_at)
     VALUES ($1, 'under_review', $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      l.user_id,
      l.currency,
      l.amount,
      l.days,
      l.rate_ppm,
      l.overdue_rate_ppm,
      l.needs_second,
      l.score_at_apply,
      l.applied_at,
    ],
  );
  return Number(rows[0]?.id);
}

export async function transitionAllowed(db: Sql, from: LoanStatus, to: LoanStatus): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM loan_transitions WHERE from_status = $1 AND to_status = $2', [from, to]);
  return rows.length > 0;
}

/**
 * Moves a loan along loan_transitions, setting `set` columns with it; false when it was not in `from`
 * or the move is not in the table.
 */
export async function moveLoan(
  db: Sql,
  id: number,
  from: LoanStatus,
  to: LoanStatus,
  set: Partial<Record<keyof LoanRow, string | number | null>> = {},
): Promise<boolean> {
  if (!(await transitionAllowed(db, from, to))) return false;
  const keys = Object.keys(set);
  const assigns = keys.map((k, i) => `${k} = $${i + 4}`);
  const changed = await db.run(
    `UPDATE loans SET ${['status = $3', ...assigns].join(', ')} WHERE id = $1 AND status = $2`,
    [id, from, to, ...keys.map((k) => set[k as keyof LoanRow] ?? null)],
  );
  return changed > 0;
}

/** Sets columns of a loan still in `status` (approvals, the interest days charged). */
export async function updateLoan(
  db: Sql,
  id: number,
  status: LoanStatus,
  set: Partial<Record<keyof LoanRow, string | number | null>>,
): Promise<boolean> {
  const keys = Object.keys(set);
  const changed = await db.run(
    `UPDATE loans SET ${keys.map((k, i) => `${k} = $${i + 3}`).join(', ')} WHERE id = $1 AND status = $2`,
    [id, status, ...keys.map((k) => set[k as keyof LoanRow] ?? null)],
  );
  return changed > 0;
}

export async function staffNames(db: Sql, ids: readonly number[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db.query<{ id: number; username: string }>(
    `SELECT id, username FROM staff WHERE id IN (${wanted.map((_, i) => `$${i + 1}`).join(', ')})`,
    wanted,
  );
  return new Map(rows.map((r) => [Number(r.id), r.username]));
}

export async function userFacts(
  db: Sql,
  userId: number,
): Promise<{ phone: string; id_status: string; created_at: number } | undefined> {
  const rows = await db.query<{ phone: string; id_status: string; created_at: number }>(
    'SELECT phone, id_status, created_at FROM users WHERE id = $1',
    [userId],
  );
  return rows[0] && { ...rows[0], created_at: Number(rows[0].created_at) };
}

/** Fills the customer took part in (either side), from the trades read table. */
export async function tradeCount(db: Sql, userId: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT COUNT(*) AS n FROM trades WHERE maker_user_id = $1 OR taker_user_id = $1',
    [String(userId)],
  );
  return Number(rows[0]?.n ?? 0);
}

export async function repaidCounts(db: Sql, userId: number): Promise<{ onTime: number; late: number }> {
  const rows = await db.query<{ late: number; n: number }>(
    "SELECT late, COUNT(*) AS n FROM loans WHERE user_id = $1 AND status = 'repaid' GROUP BY late",
    [userId],
  );
  let onTime = 0;
  let late = 0;
  for (const r of rows) {
    if (Number(r.late)) late += Number(r.n);
    else onTime += Number(r.n);
  }
  return { onTime, late };
}

export type ScoreRow = { user_id: number; score: number; factors: CreditFactorPoints; updated_at: number };

export async function scoreOf(db: Sql, userId: number): Promise<ScoreRow | undefined> {
  const rows = await db.query<{ user_id: number; score: number; factors: string; updated_at: number }>(
    'SELECT * FROM credit_scores WHERE user_id = $1',
    [userId],
  );
  const r = rows[0];
  return (
    r && {
      user_id: Number(r.user_id),
      score: Number(r.score),
      factors: JSON.parse(r.factors) as CreditFactorPoints,
      updated_at: Number(r.updated_at),
    }
  );
}

export async function saveScore(db: Sql, row: ScoreRow, existed: boolean): Promise<void> {
  const factors = JSON.stringify(row.factors);
  if (existed)
    await db.run('UPDATE credit_scores SET score = $2, factors = $3, updated_at = $4 WHERE user_id = $1', [
      row.user_id,
      row.score,
      factors,
      row.updated_at,
    ]);
  else
    await db.run('INSERT INTO credit_scores (user_id, score, factors, updated_at) VALUES ($1, $2, $3, $4)', [
      row.user_id,
      row.score,
      factors,
      row.updated_at,
    ]);
}

export type ChangeRow = {
  id: number;
  user_id: number;
  reason: CreditFactor;
  delta: number;
  score_after: number;
  loan_id: number | null;
  created_at: number;
};

export async function insertChange(db: Sql, c: Omit<ChangeRow, 'id'>): Promise<void> {
  await db.run(
    `INSERT INTO credit_score_changes (user_id, reason, delta, score_after, loan_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [c.user_id, c.reason, c.delta, c.score_after, c.loan_id, c.created_at],
  );
}

export async function changesOf(db: Sql, userId: number, limit: number, offset: number): Promise<ChangeRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT * FROM credit_score_changes WHERE user_id = $1 ORDER BY id DESC LIMIT ${Math.floor(limit)} OFFSET ${Math.floor(offset)}`,
    [userId],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    user_id: Number(r.user_id),
    reason: r.reason as CreditFactor,
    delta: Number(r.delta),
    score_after: Number(r.score_after),
    loan_id: r.loan_id === null ? null : Number(r.loan_id),
    created_at: Number(r.created_at),
  }));
}
