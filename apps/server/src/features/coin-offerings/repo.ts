// SQL of coin offerings, their commitments, the two transition tables and the offering's history. Plain
// rows; the rules (windows, limits, the allotment) live in service.ts. A function that must join a
// caller's transaction takes it as `db`.

import type { CoinCommitmentStatus, CoinOfferingStatus } from '@bourse/contract';
import type { Sql } from '@bourse/db';

export type OfferingRow = {
  id: number;
  symbol: string;
  name: string;
  scale: number;
  price: string;
  cap: string;
  unit: string;
  min_commit: string;
  max_commit: string;
  opens_at: number;
  closes_at: number;
  summary: string;
  status: CoinOfferingStatus;
  reason: string;
  created_by: number;
  created_by_name: string;
  approved_by: number | null;
  approved_by_name: string | null;
  committed_total: string;
  sold: string;
  instrument_id: string | null;
  /** When the allotment was computed and stored (the commitments' alloc_* columns); null before. */
  allocated_at: number | null;
  created_at: number;
  updated_at: number;
};

export type CommitmentRow = {
  id: number;
  offering_id: number;
  user_id: number;
  amount: string;
  status: CoinCommitmentStatus;
  allotted: string;
  paid: string;
  refunded: string;
  /** The stored allotment (coins, payment, refund), written before any settlement; null when not counted. */
  alloc_coins: string | null;
  alloc_pay: string | null;
  alloc_refund: string | null;
  created_at: number;
  updated_at: number;
};

const OFFERING = `SELECT o.id, o.symbol, o.name, o.scale, o.price, o.cap, o.unit, o.min_commit, o.max_commit, o.opens_at,
    o.closes_at, o.summary, o.status, o.reason, o.created_by, c.username AS created_by_name, o.approved_by,
    a.username AS approved_by_name, o.committed_total, o.sold, o.instrument_id, o.allocated_at, o.created_at, o.updated_at
  FROM coin_offerings o JOIN staff c ON c.id = o.created_by LEFT JOIN staff a ON a.id = o.approved_by`;

const COMMITMENT = `SELECT id, offering_id, user_id, amount, status, allotted, paid, refunded, alloc_coins, alloc_pay,
    alloc_refund, created_at, updated_at
  FROM coin_commitments`;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function offering(r: OfferingRow): OfferingRow {
  return {
    ...r,
    id: Number(r.id),
    scale: Number(r.scale),
    opens_at: Number(r.opens_at),
    closes_at: Number(r.closes_at),
    created_by: Number(r.created_by),
    approved_by: num(r.approved_by),
    allocated_at: num(r.allocated_at),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

function commitment(r: CommitmentRow): CommitmentRow {
  return {
    ...r,
    id: Number(r.id),
    offering_id: Number(r.offering_id),
    user_id: Number(r.user_id),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

export async function insertOffering(
  db: Sql,
  o: Omit<
    OfferingRow,
    | 'id'
    | 'status'
    | 'reason'
    | 'created_by_name'
    | 'approved_by'
    | 'approved_by_name'
    | 'committed_total'
    | 'sold'
    | 'instrument_id'
    | 'allocated_at'
    | 'updated_at'
  >,
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO coin_offerings (symbol, name, scale, price, cap, unit, min_commit, max_commit, opens_at, closes_at,
       summary, status, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'pending_approval', $12, $13, $13) RETURNING id`,
    [
      o.symbol,
      o.name,
      o.scale,
      o.price,
      o.cap,
      o.unit,
      o.min_commit,
      o.max_commit,
      o.opens_at,
      o.closes_at,
      o.summary,
      o.created_by,
      o.created_at,
    ],
  );
  return Number(rows[0]?.id);
}

/** The offering's first history row: created, waiting for a second staff member. */
export async function recordCreated(db: Sql, e: { id: number; staffId: number; reason: string; at: number }) {
  await db.run(
    `INSERT INTO coin_offering_events (offering_id, from_status, to_status, staff_id, reason, at)
     VALUES ($1, NULL, 'pending_approval', $2, $3, $4)`,
    [e.id, e.staffId, e.reason, e.at],
  );
}

export async function symbolTaken(db: Sql, symbol: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM coin_offerings WHERE symbol = $1', [symbol])).length > 0;
}

export async function findOffering(db: Sql, id: number): Promise<OfferingRow | undefined> {
  const rows = await db.query<OfferingRow>(`${OFFERING} WHERE o.id = $1`, [id]);
  return rows[0] && offering(rows[0]);
}

export async function listOfferings(db: Sql, statuses: readonly CoinOfferingStatus[]): Promise<OfferingRow[]> {
  const rows = await db.query<OfferingRow>(
    `${OFFERING} WHERE o.status IN (${statuses.map((_, k) => `$${k + 1}`).join(', ')}) ORDER BY o.opens_at DESC, o.id DESC`,
    [...statuses],
  );
  return rows.map(offering);
}

/** Approved offerings whose window has closed: the allotment job's work. */
export async function listDue(db: Sql, now: number): Promise<OfferingRow[]> {
  const rows = await db.query<OfferingRow>(
    `${OFFERING} WHERE (o.status = 'approved' AND o.closes_at <= $1) OR o.status = 'allotted' ORDER BY o.id`,
    [now],
  );
  return rows.map(offering);
}

/** Moves an offering along its transition table, with its history row; false when it was not in `from`. */
export async function moveOffering(
  db: Sql,
  m: {
    id: number;
    from: CoinOfferingStatus;
    to: CoinOfferingStatus;
    at: number;
    staffId: number | null;
    reason: string;
    set?: { approved_by?: number; sold?: string; instrument_id?: string; reason?: string };
  },
): Promise<boolean> {
  const allowed = await db.query('SELECT 1 FROM coin_offering_transitions WHERE from_status = $1 AND to_status = $2', [
    m.from,
    m.to,
  ]);
  if (allowed.length === 0) return false;
  const sets: string[] = [];
  const values: (string | number)[] = [m.to, m.at, m.id, m.from];
  for (const [column, value] of Object.entries(m.set ?? {})) {
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  }
  const changed = await db.query<{ id: number }>(
    `UPDATE coin_offerings SET status = $1, updated_at = $2${sets.map((s) => `, ${s}`).join('')}
      WHERE id = $3 AND status = $4 RETURNING id`,
    values,
  );
  if (changed.length === 0) return false;
  await db.run(
    `INSERT INTO coin_offering_events (offering_id, from_status, to_status, staff_id, reason, at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [m.id, m.from, m.to, m.staffId, m.reason, m.at],
  );
  return true;
}

export async function setCommittedTotal(db: Sql, id: number, total: string): Promise<void> {
  await db.run('UPDATE coin_offerings SET committed_total = $1 WHERE id = $2', [total, id]);
}

/**
 * A new live commitment, only while its offering is open at `at` (approved, in its window, not yet
 * allocated): checked in the insert itself, so a row cannot slip in after the allotment read the list.
 * Undefined when the offering is no longer open.
 */
export async function insertCommitment(
  db: Sql,
  c: { offeringId: number; userId: number; amount: string; at: number },
): Promise<number | undefined> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO coin_commitments (offering_id, user_id, amount, status, created_at, updated_at)
     SELECT CAST($1 AS BIGINT), CAST($2 AS BIGINT), CAST($3 AS TEXT), 'subscribed', CAST($4 AS BIGINT), CAST($4 AS BIGINT)
      WHERE EXISTS (SELECT 1 FROM coin_offerings WHERE id = CAST($1 AS BIGINT) AND status = 'approved'
        AND allocated_at IS NULL AND opens_at <= CAST($4 AS BIGINT) AND closes_at > CAST($4 AS BIGINT))
     RETURNING id`,
    [c.offeringId, c.userId, c.amount, c.at],
  );
  return rows[0] ? Number(rows[0].id) : undefined;
}

/**
 * Stores the allotment of an approved offering once: the offering's allocated_at, then each counted
 * commitment's coins, payment and refund. False (nothing written) when it was already allocated.
 */
export async function storeAllocation(
  db: Sql,
  offeringId: number,
  at: number,
  entries: readonly { id: number; coins: string; pay: string; refund: string }[],
): Promise<boolean> {
  const marked = await db.query<{ id: number }>(
    `UPDATE coin_offerings SET allocated_at = $1, updated_at = $1
      WHERE id = $2 AND status = 'approved' AND allocated_at IS NULL RETURNING id`,
    [at, offeringId],
  );
  if (marked.length === 0) return false;
  for (const e of entries) {
    await db.run(
      `UPDATE coin_commitments SET alloc_coins = $1, alloc_pay = $2, alloc_refund = $3
        WHERE id = $4 AND offering_id = $5 AND status = 'subscribed'`,
      [e.coins, e.pay, e.refund, e.id, offeringId],
    );
  }
  return true;
}

export async function findCommitment(db: Sql, id: number): Promise<CommitmentRow | undefined> {
  const rows = await db.query<CommitmentRow>(`${COMMITMENT} WHERE id = $1`, [id]);
  return rows[0] && commitment(rows[0]);
}

export async function liveCommitmentOf(
  db: Sql,
  offeringId: number,
  userId: number,
): Promise<CommitmentRow | undefined> {
  const rows = await db.query<CommitmentRow>(
    `${COMMITMENT} WHERE offering_id = $1 AND user_id = $2 AND status = 'subscribed'`,
    [offeringId, userId],
  );
  return rows[0] && commitment(rows[0]);
}

/** The customer's newest commitment to each of these offerings. */
export async function latestCommitmentsOf(
  db: Sql,
  userId: number,
  offeringIds: readonly number[],
): Promise<CommitmentRow[]> {
  if (offeringIds.length === 0) return [];
  const rows = await db.query<CommitmentRow>(
    `${COMMITMENT} WHERE user_id = $1 AND offering_id IN (${offeringIds.map((_, k) => `$${k + 2}`).join(', ')})
      ORDER BY id DESC`,
    [userId, ...offeringIds],
  );
  const seen = new Set<number>();
  return rows.map(commitment).filter((r) => !seen.has(r.offering_id) && seen.add(r.offering_id));
}

export async function listCommitmentsOfUser(db: Sql, userId: number, limit: number, offset: number) {
  const rows = await db.query<CommitmentRow>(`${COMMITMENT} WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, [
    userId,
    limit,
    offset,
  ]);
  const total = await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM coin_commitments WHERE user_id = $1', [
    userId,
  ]);
  return { rows: rows.map(commitment), total: Number(total[0]?.n ?? 0) };
}

/** Every commitment of an offering in the order they were made (pro-rata ties go to the earlier). */
export async function listCommitmentsOfOffering(db: Sql, offeringId: number): Promise<CommitmentRow[]> {
  const rows = await db.query<CommitmentRow>(`${COMMITMENT} WHERE offering_id = $1 ORDER BY id`, [offeringId]);
  return rows.map(commitment);
}

export async function sumLive(db: Sql, offeringId: number): Promise<string[]> {
  const rows = await db.query<{ amount: string }>(
    "SELECT amount FROM coin_commitments WHERE offering_id = $1 AND status = 'subscribed'",
    [offeringId],
  );
  return rows.map((r) => r.amount);
}

/** Cancels a live commitment only while its offering is open at `at` and not allocated; false otherwise. */
export async function cancelWhileOpen(db: Sql, c: { id: number; at: number; refunded: string }): Promise<boolean> {
  const changed = await db.query<{ id: number }>(
    `UPDATE coin_commitments SET status = 'cancelled', refunded = $1, updated_at = $2
      WHERE id = $3 AND status = 'subscribed' AND EXISTS (SELECT 1 FROM coin_offerings o
        WHERE o.id = coin_commitments.offering_id AND o.status = 'approved' AND o.allocated_at IS NULL
          AND o.closes_at > $2)
     RETURNING id`,
    [c.refunded, c.at, c.id],
  );
  return changed.length > 0;
}

/** The refund of a commitment left out of the allotment whose hold was released after it ended. */
export async function markUncountedRefund(db: Sql, id: number, refunded: string): Promise<void> {
  await db.run(
    "UPDATE coin_commitments SET refunded = $1 WHERE id = $2 AND status = 'not_allotted' AND alloc_coins IS NULL",
    [refunded, id],
  );
}

/** Moves a commitment along its transition table; false when it was no longer `from`. */
export async function moveCommitment(
  db: Sql,
  m: {
    id: number;
    from: CoinCommitmentStatus;
    to: CoinCommitmentStatus;
    at: number;
    allotted?: string;
    paid?: string;
    refunded: string;
  },
): Promise<boolean> {
  const allowed = await db.query(
    'SELECT 1 FROM coin_commitment_transitions WHERE from_status = $1 AND to_status = $2',
    [m.from, m.to],
  );
  if (allowed.length === 0) return false;
  const changed = await db.query<{ id: number }>(
    `UPDATE coin_commitments SET status = $1, allotted = $2, paid = $3, refunded = $4, updated_at = $5
      WHERE id = $6 AND status = $7 RETURNING id`,
    [m.to, m.allotted ?? '0', m.paid ?? '0', m.refunded, m.at, m.id, m.from],
  );
  return changed.length > 0;
}
