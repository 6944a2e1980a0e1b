// SQL for VIP periods, the stock-strategy switch and the trading-advice posts (migration 37). Plain rows;
// the rules live in service.ts.

import type { VipPeriodKind, VipPeriodStatus, VipState } from '@bourse/contract';
import type { Sql } from '@bourse/db';

export type PeriodRow = {
  id: number;
  user_id: number;
  kind: VipPeriodKind;
  status: VipPeriodStatus;
  days: number;
  starts_at: number;
  ends_at: number;
  amount: string | null;
  currency: string | null;
  transfer_id: string | null;
  client_key: string | null;
  created_at: number;
  settled_at: number | null;
};

const periodRow = (r: PeriodRow): PeriodRow => ({
  ...r,
  id: Number(r.id),
  user_id: Number(r.user_id),
  days: Number(r.days),
  starts_at: Number(r.starts_at),
  ends_at: Number(r.ends_at),
  created_at: Number(r.created_at),
  settled_at: r.settled_at === null ? null : Number(r.settled_at),
});

/** A customer's periods, newest first. */
export async function periodsOf(db: Sql, userId: number): Promise<PeriodRow[]> {
  const rows = await db.query<PeriodRow>('SELECT * FROM vip_periods WHERE user_id = $1 ORDER BY id DESC', [userId]);
  return rows.map(periodRow);
}

export async function periodByKey(db: Sql, userId: number, key: string): Promise<PeriodRow | undefined> {
  const rows = await db.query<PeriodRow>('SELECT * FROM vip_periods WHERE user_id = $1 AND client_key = $2', [
    userId,
    key,
  ]);
  return rows[0] && periodRow(rows[0]);
}

export async function period(db: Sql, id: number): Promise<PeriodRow | undefined> {
  const rows = await db.query<PeriodRow>('SELECT * FROM vip_periods WHERE id = $1', [id]);
  return rows[0] && periodRow(rows[0]);
}

/** Paid periods whose money was not yet recorded as moved (a crash between the steps). */
export async function pendingPeriods(db: Sql, userId?: number): Promise<PeriodRow[]> {
  const rows =
    userId === undefined
      ? await db.query<PeriodRow>("SELECT * FROM vip_periods WHERE status = 'pending' ORDER BY id")
      : await db.query<PeriodRow>("SELECT * FROM vip_periods WHERE status = 'pending' AND user_id = $1 ORDER BY id", [
          userId,
        ]);
  return rows.map(periodRow);
}

export async function membershipAllows(db: Sql, from: VipState, kind: VipPeriodKind): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM vip_membership_transitions WHERE from_state = $1 AND period_kind = $2', [
    from,
    kind,
  ]);
  return rows.length > 0;
}

export async function insertPeriod(
  db: Sql,
  p: Omit<PeriodRow, 'id' | 'settled_at' | 'transfer_id'> & { transfer_id?: string | null },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO vip_periods (user_id, kind, status, days, starts_at, ends_at, amount, currency, transfer_id,
       client_key, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
    [
      p.user_id,
      p.kind,
      p.status,
      p.days,
      p.starts_at,
      p.ends_at,
      p.amount,
      p.currency,
      p.transfer_id ?? null,
      p.client_key,
      p.created_at,
    ],
  );
  return Number(rows[0]?.id);
}

/** Moves a period along vip_period_transitions; false when it was not in `from` (or the move is not allowed). */
export async function movePeriod(
  db: Sql,
  id: number,
  from: VipPeriodStatus,
  to: VipPeriodStatus,
  m: { at: number; transferId: string | null },
): Promise<boolean> {
  const allowed = await db.query('SELECT 1 FROM vip_period_transitions WHERE from_status = $1 AND to_status = $2', [
    from,
    to,
  ]);
  if (allowed.length === 0) return false;
  const changed = await db.run(
    'UPDATE vip_periods SET status = $3, settled_at = $4, transfer_id = $5 WHERE id = $1 AND status = $2',
    [id, from, to, m.at, m.transferId],
  );
  return changed > 0;
}

export async function transferExists(db: Sql, transferId: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM ledger_transfers WHERE transfer_id = $1', [transferId])).length > 0;
}

export async function userPhone(db: Sql, userId: number): Promise<string | undefined> {
  const rows = await db.query<{ phone: string }>('SELECT phone FROM users WHERE id = $1', [userId]);
  return rows[0]?.phone;
}

// --- the stock-strategy switch -------------------------------------------------------------------------

export async function strategyEnabled(db: Sql, userId: number): Promise<boolean> {
  const rows = await db.query<{ enabled: number }>('SELECT enabled FROM vip_strategy WHERE user_id = $1', [userId]);
  return Number(rows[0]?.enabled ?? 0) === 1;
}

export async function setStrategy(
  db: Sql,
  s: { userId: number; enabled: boolean; staffId: number; reason: string; at: number },
) {
  await db.run(
    `INSERT INTO vip_strategy (user_id, enabled, staff_id, reason, updated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (user_id) DO UPDATE SET enabled = $2, staff_id = $3, reason = $4, updated_at = $5`,
    [s.userId, s.enabled ? 1 : 0, s.staffId, s.reason, s.at],
  );
}

// --- the members list --------------------------------------------------------------------------------

/** Customers with any period or a strategy switch, most recently changed first. */
export async function memberIds(db: Sql, limit: number): Promise<number[]> {
  const rows = await db.query<{ user_id: number }>(
    `SELECT user_id, MAX(at) AS last FROM (
       SELECT user_id, created_at AS at FROM vip_periods
       UNION ALL SELECT user_id, updated_at AS at FROM vip_strategy
     ) x GROUP BY user_id ORDER BY last DESC LIMIT ${Math.trunc(limit)}`,
  );
  return rows.map((r) => Number(r.user_id));
}

// --- trading-advice posts ------------------------------------------------------------------------------

export type AdviceRow = {
  id: number;
  title_en: string;
  title_pt: string;
  body_en: string;
  body_pt: string;
  created_by: number;
  author: string;
  created_at: number;
  withdrawn_at: number | null;
};

const adviceRow = (r: AdviceRow): AdviceRow => ({
  ...r,
  id: Number(r.id),
  created_by: Number(r.created_by),
  created_at: Number(r.created_at),
  withdrawn_at: r.withdrawn_at === null ? null : Number(r.withdrawn_at),
});

export async function adviceList(db: Sql, includeWithdrawn: boolean): Promise<AdviceRow[]> {
  const rows = await db.query<AdviceRow>(
    `SELECT a.*, s.username AS author FROM vip_advice a JOIN staff s ON s.id = a.created_by
     ${includeWithdrawn ? '' : 'WHERE a.withdrawn_at IS NULL'} ORDER BY a.id DESC LIMIT 100`,
  );
  return rows.map(adviceRow);
}

export async function insertAdvice(
  db: Sql,
  a: { titleEn: string; titlePt: string; bodyEn: string; bodyPt: string; staffId: number; at: number },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO vip_advice (title_en, title_pt, body_en, body_pt, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [a.titleEn, a.titlePt, a.bodyEn, a.bodyPt, a.staffId, a.at],
  );
  return Number(rows[0]?.id);
}

export async function withdrawAdvice(db: Sql, id: number, at: number): Promise<boolean> {
  return (await db.run('UPDATE vip_advice SET withdrawn_at = $2 WHERE id = $1 AND withdrawn_at IS NULL', [id, at])) > 0;
}
