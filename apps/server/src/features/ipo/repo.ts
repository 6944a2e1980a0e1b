// SQL of IPO subscription: the ipos and ipo_applications tables, their transition tables, the history
// of every application's move, and the auto-subscribe consents and their log. Plain rows, one dialect for
// both databases; the rules live in service.ts and draw.ts.

import type { BeaconSource, IpoApplicationStatus, IpoChannel, IpoExchange, IpoStatus } from '@bourse/contract';
import type { Param, Sql } from '@bourse/db';

export type IpoRow = {
  id: number;
  issuer: string;
  exchange: IpoExchange;
  symbol: string;
  name: string;
  currency: string;
  price_low_minor: bigint;
  price_high_minor: bigint;
  lot_size: number;
  total_shares: bigint;
  retail_pct: number;
  nii_pct: number;
  qib_pct: number;
  opens_at: number;
  closes_at: number;
  listing_at: number;
  status: IpoStatus;
  seed: string | null;
  seed_hash: string | null;
  /** The beacon round fixed at the opening (decision 0036); null for an IPO opened before it was used. */
  beacon_source: BeaconSource | null;
  beacon_round: number | null;
  /** The round's value, stored at the draw. */
  beacon_randomness: string | null;
  beacon_signature: string | null;
  draw_mode: 'lottery' | 'proportionate' | null;
  drawn_at: number | null;
  listed_at: number | null;
  note: string;
  created_by: number;
  approved_by: number | null;
  review_reason: string;
  created_at: number;
  updated_at: number;
};

/** A bid as stored: lots, price in minor units, and whether it was placed at cut-off. */
export type StoredBid = { lots: number; priceMinor: string; cutOff: boolean };

export type ApplicationRow = {
  id: number;
  ipo_id: number;
  user_id: number;
  channel: IpoChannel;
  auto: boolean;
  bids: StoredBid[];
  demand_lots: number;
  hold_minor: bigint;
  hold_id: string | null;
  status: IpoApplicationStatus;
  allotted_shares: bigint;
  allotted_minor: bigint;
  payment_due_at: number | null;
  reason: string;
  settled_at: number | null;
  unlocked_at: number | null;
  created_at: number;
  updated_at: number;
};

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const big = (v: unknown) => BigInt(String(v));

function toIpo(r: Record<string, unknown>): IpoRow {
  return {
    ...(r as IpoRow),
    id: Number(r.id),
    price_low_minor: big(r.price_low_minor),
    price_high_minor: big(r.price_high_minor),
    lot_size: Number(r.lot_size),
    total_shares: big(r.total_shares),
    retail_pct: Number(r.retail_pct),
    nii_pct: Number(r.nii_pct),
    qib_pct: Number(r.qib_pct),
    opens_at: Number(r.opens_at),
    closes_at: Number(r.closes_at),
    listing_at: Number(r.listing_at),
    beacon_round: num(r.beacon_round),
    drawn_at: num(r.drawn_at),
    listed_at: num(r.listed_at),
    created_by: Number(r.created_by),
    approved_by: num(r.approved_by),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

function toApplication(r: Record<string, unknown>): ApplicationRow {
  return {
    ...(r as ApplicationRow),
    id: Number(r.id),
    ipo_id: Number(r.ipo_id),
    user_id: Number(r.user_id),
    auto: Number(r.auto) === 1,
    bids: JSON.parse(String(r.bids)) as StoredBid[],
    demand_lots: Number(r.demand_lots),
    hold_minor: big(r.hold_minor),
    allotted_shares: big(r.allotted_shares),
    allotted_minor: big(r.allotted_minor),
    payment_due_at: num(r.payment_due_at),
    settled_at: num(r.settled_at),
    unlocked_at: num(r.unlocked_at),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

// --- ipos --------------------------------------------------------------------------------------------

export type NewIpo = Pick<
  IpoRow,
  | 'issuer'
  | 'exchange'
  | 'symbol'
  | 'name'
  | 'currency'
  | 'price_low_minor'
  | 'price_high_minor'
  | 'lot_size'
  | 'total_shares'
  | 'retail_pct'
  | 'nii_pct'
  | 'qib_pct'
  | 'opens_at'
  | 'closes_at'
  | 'listing_at'
  | 'note'
  | 'created_by'
>;

export async function insertIpo(db: Sql, ipo: NewIpo, at: number): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO ipos (issuer, exchange, symbol, name, currency, price_low_minor, price_high_minor, lot_size,
       total_shares, retail_pct, nii_pct, qib_pct, opens_at, closes_at, listing_at, status, note, created_by,
       created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 'draft', $16, $17, $18, $18)
     RETURNING id`,
    [
      ipo.issuer,
      ipo.exchange,
      ipo.symbol,
      ipo.name,
      ipo.currency,
      ipo.price_low_minor.toString(),
      ipo.price_high_minor.toString(),
      ipo.lot_size,
      ipo.total_shares.toString(),
      ipo.retail_pct,
      ipo.nii_pct,
      ipo.qib_pct,
      ipo.opens_at,
      ipo.closes_at,
      ipo.listing_at,
      ipo.note,
      ipo.created_by,
      at,
    ],
  );
  return Number(rows[0]?.id);
}

export async function findIpo(db: Sql, id: number): Promise<IpoRow | undefined> {
  const rows = await db.query<Record<string, unknown>>('SELECT * FROM ipos WHERE id = $1', [id]);
  return rows[0] ? toIpo(rows[0]) : undefined;
}

export async function symbolTaken(db: Sql, exchange: string, symbol: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM ipos WHERE exchange = $1 AND symbol = $2', [exchange, symbol])).length > 0;
}

/** IPOs in `statuses` (all when empty), newest opening first, with the total. */
export async function listIpos(
  db: Sql,
  q: { statuses: readonly IpoStatus[]; offline?: boolean; limit: number; offset: number },
): Promise<{ rows: IpoRow[]; total: number }> {
  const where: string[] = [];
  const params: Param[] = [];
  if (q.statuses.length > 0) {
    where.push(`status IN (${q.statuses.map((_, i) => `$${i + 1}`).join(', ')})`);
    params.push(...q.statuses);
  }
  if (q.offline) where.push('nii_pct > 0');
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const count = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ipos ${clause}`, params);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT * FROM ipos ${clause} ORDER BY opens_at DESC, id DESC LIMIT ${q.limit} OFFSET ${q.offset}`,
    params,
  );
  return { rows: rows.map(toIpo), total: Number(count[0]?.n ?? 0) };
}

/** IPOs whose next timed step is due at `now`: upcoming to open, open to close, allotted to list. */
export async function dueIpos(db: Sql, now: number): Promise<IpoRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT * FROM ipos WHERE (status = 'upcoming' AND opens_at <= $1) OR (status = 'open' AND closes_at <= $1)
       OR status = 'closed' OR (status = 'allotted' AND listing_at <= $1) ORDER BY id`,
    [now],
  );
  return rows.map(toIpo);
}

export async function ipoTransitionAllowed(db: Sql, from: IpoStatus, to: IpoStatus): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM ipo_transitions WHERE from_status = $1 AND to_status = $2', [from, to]);
  return rows.length > 0;
}

/** Moves an IPO from `from` to `to` (with the columns given) only if it is still in `from`. */
export async function moveIpo(
  db: Sql,
  id: number,
  from: IpoStatus,
  to: IpoStatus,
  at: number,
  set: Partial<
    Pick<
      IpoRow,
      | 'seed'
      | 'seed_hash'
      | 'beacon_source'
      | 'beacon_round'
      | 'beacon_randomness'
      | 'beacon_signature'
      | 'draw_mode'
      | 'drawn_at'
      | 'listed_at'
      | 'approved_by'
      | 'review_reason'
    >
  > = {},
): Promise<boolean> {
  if (!(await ipoTransitionAllowed(db, from, to))) throw new Error(`ipo ${id}: ${from} → ${to} is not a transition`);
  const columns = Object.keys(set);
  const values = Object.values(set);
  const extra = columns.map((c, i) => `, ${c} = $${i + 5}`).join('');
  const changed = await db.run(`UPDATE ipos SET status = $1, updated_at = $2${extra} WHERE id = $3 AND status = $4`, [
    to,
    at,
    id,
    from,
    ...values,
  ]);
  return changed > 0;
}

// --- applications ------------------------------------------------------------------------------------

export type NewApplication = {
  ipoId: number;
  userId: number;
  channel: IpoChannel;
  auto: boolean;
  bids: StoredBid[];
  demandLots: number;
  holdMinor: bigint;
  at: number;
};

/**
 * Inserts an application in `applying` with its first history line, only while the IPO is still open at
 * `a.at` (the close may have committed since the caller looked); null when it is not.
 */
export async function insertApplication(db: Sql, a: NewApplication): Promise<number | null> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO ipo_applications (ipo_id, user_id, channel, auto, bids, demand_lots, hold_minor, status,
       created_at, updated_at)
     SELECT $1, $2, $3, $4, $5, $6, $7, 'applying', $8, $8
     WHERE EXISTS (SELECT 1 FROM ipos WHERE id = $1 AND status = 'open' AND closes_at > $8) RETURNING id`,
    [a.ipoId, a.userId, a.channel, a.auto ? 1 : 0, JSON.stringify(a.bids), a.demandLots, a.holdMinor.toString(), a.at],
  );
  if (rows.length === 0) return null;
  const id = Number(rows[0]?.id);
  await addHistory(db, id, 'new', 'applying', a.at, a.auto ? 'system' : 'customer', a.auto ? 'auto-subscribe' : '');
  return id;
}

/**
 * Records an application's funds hold only while it is still in `status` (a cancel, the close or a
 * forfeiture may have moved it while the hold was being placed); answers whether it was recorded.
 */
export async function setHoldId(
  db: Sql,
  id: number,
  holdId: string,
  holdMinor: bigint,
  at: number,
  status: IpoApplicationStatus,
): Promise<boolean> {
  const changed = await db.run(
    'UPDATE ipo_applications SET hold_id = $1, hold_minor = $2, updated_at = $3 WHERE id = $4 AND status = $5',
    [holdId, holdMinor.toString(), at, id, status],
  );
  return changed > 0;
}

/** Removes an application whose funds hold the engine refused: it never existed for the customer. */
export async function deleteApplication(db: Sql, id: number): Promise<void> {
  await db.run('DELETE FROM ipo_application_history WHERE application_id = $1', [id]);
  await db.run('DELETE FROM ipo_applications WHERE id = $1', [id]);
}

export async function findApplication(db: Sql, id: number): Promise<ApplicationRow | undefined> {
  const rows = await db.query<Record<string, unknown>>('SELECT * FROM ipo_applications WHERE id = $1', [id]);
  return rows[0] ? toApplication(rows[0]) : undefined;
}

export async function hasApplied(db: Sql, ipoId: number, userId: number): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM ipo_applications WHERE ipo_id = $1 AND user_id = $2', [ipoId, userId]);
  return rows.length > 0;
}

export async function listApplications(
  db: Sql,
  q: { userId: number; channel: IpoChannel; ipoId?: number | undefined; limit: number; offset: number },
): Promise<{ rows: ApplicationRow[]; total: number }> {
  const params: Param[] = [q.userId, q.channel];
  let clause = 'WHERE user_id = $1 AND channel = $2';
  if (q.ipoId !== undefined) {
    params.push(q.ipoId);
    clause += ' AND ipo_id = $3';
  }
  const count = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ipo_applications ${clause}`, params);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT * FROM ipo_applications ${clause} ORDER BY id DESC LIMIT ${q.limit} OFFSET ${q.offset}`,
    params,
  );
  return { rows: rows.map(toApplication), total: Number(count[0]?.n ?? 0) };
}

/** Every application to an IPO in `statuses`, in id order (the draw's canonical order). */
export async function applicationsOf(
  db: Sql,
  ipoId: number,
  statuses: readonly IpoApplicationStatus[],
): Promise<ApplicationRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT * FROM ipo_applications WHERE ipo_id = $1 AND status IN (${statuses.map((_, i) => `$${i + 2}`).join(', ')})
     ORDER BY id`,
    [ipoId, ...statuses],
  );
  return rows.map(toApplication);
}

export type SubscriptionRow = { channel: IpoChannel; applications: number; lots: bigint };

/** Applications and lots demanded per channel (cancelled ones excluded). */
export async function subscription(db: Sql, ipoId: number): Promise<SubscriptionRow[]> {
  const rows = await db.query<{ channel: IpoChannel; applications: unknown; lots: unknown }>(
    `SELECT channel, COUNT(*) AS applications, COALESCE(SUM(demand_lots), 0) AS lots FROM ipo_applications
     WHERE ipo_id = $1 AND status <> 'unsubscribed' GROUP BY channel`,
    [ipoId],
  );
  return rows.map((r) => ({ channel: r.channel, applications: Number(r.applications), lots: big(r.lots) }));
}

export async function applicationTransitionAllowed(db: Sql, from: string, to: IpoApplicationStatus): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM ipo_application_transitions WHERE from_status = $1 AND to_status = $2', [
    from,
    to,
  ]);
  return rows.length > 0;
}

export async function addHistory(
  db: Sql,
  applicationId: number,
  from: string,
  to: IpoApplicationStatus,
  at: number,
  actor: 'customer' | 'staff' | 'system',
  reason: string,
): Promise<void> {
  await db.run(
    'INSERT INTO ipo_application_history (application_id, from_status, to_status, at, actor, reason) VALUES ($1, $2, $3, $4, $5, $6)',
    [applicationId, from, to, at, actor, reason],
  );
}

/**
 * Moves an application from `from` to `to` (with the columns given) only if it is still in `from`, and
 * records the move; answers whether it moved.
 */
export async function moveApplication(
  db: Sql,
  id: number,
  from: IpoApplicationStatus,
  to: IpoApplicationStatus,
  at: number,
  actor: 'customer' | 'staff' | 'system',
  reason: string,
  set: { allottedShares?: bigint; allottedMinor?: bigint; paymentDueAt?: number } = {},
): Promise<boolean> {
  if (!(await applicationTransitionAllowed(db, from, to)))
    throw new Error(`ipo application ${id}: ${from} → ${to} is not a transition`);
  const changed = await db.run(
    `UPDATE ipo_applications SET status = $1, updated_at = $2, reason = $3,
       allotted_shares = COALESCE($4, allotted_shares), allotted_minor = COALESCE($5, allotted_minor),
       payment_due_at = COALESCE($6, payment_due_at)
     WHERE id = $7 AND status = $8`,
    [
      to,
      at,
      reason,
      set.allottedShares?.toString() ?? null,
      set.allottedMinor?.toString() ?? null,
      set.paymentDueAt ?? null,
      id,
      from,
    ],
  );
  if (changed === 0) return false;
  await addHistory(db, id, from, to, at, actor, reason);
  return true;
}

export async function markSettled(db: Sql, ids: readonly number[], at: number): Promise<void> {
  if (ids.length === 0) return;
  await db.run(
    `UPDATE ipo_applications SET settled_at = $1 WHERE settled_at IS NULL AND id IN (${ids.map((_, i) => `$${i + 2}`).join(', ')})`,
    [at, ...ids],
  );
}

/** Settled allotments whose locked shares have not been released yet (listing day, or a late payment). */
export async function lockedAllotments(db: Sql, ipoId: number): Promise<ApplicationRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT * FROM ipo_applications WHERE ipo_id = $1 AND status IN ('allocated', 'paid') AND unlocked_at IS NULL
       AND hold_id IS NOT NULL AND settled_at IS NOT NULL ORDER BY id`,
    [ipoId],
  );
  return rows.map(toApplication);
}

/**
 * Applications that must hold nothing: cancelled, forfeited, or not allotted once their draw batch
 * settled (an unsettled one's hold is the draw's settlement to release). `all` false skips listed IPOs.
 */
export async function heldNothing(db: Sql, all: boolean): Promise<ApplicationRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT a.* FROM ipo_applications a JOIN ipos i ON i.id = a.ipo_id
     WHERE (a.status IN ('unsubscribed', 'forfeited')
        OR (a.status = 'not_allotted' AND (a.settled_at IS NOT NULL OR a.hold_id IS NULL)))
       ${all ? '' : "AND i.status <> 'listed'"}
     ORDER BY a.id`,
  );
  return rows.map(toApplication);
}

/** Applications still `applying` on an IPO past its close: never drawn (recorded after the close moved the rest). */
export async function applyingAfterClose(db: Sql): Promise<ApplicationRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT a.* FROM ipo_applications a JOIN ipos i ON i.id = a.ipo_id
     WHERE a.status = 'applying' AND i.status IN ('closed', 'allotted', 'listed') ORDER BY a.id`,
  );
  return rows.map(toApplication);
}

export async function markUnlocked(db: Sql, id: number, at: number): Promise<void> {
  await db.run('UPDATE ipo_applications SET unlocked_at = $1 WHERE id = $2', [at, id]);
}

/** Online applications of drawn IPOs whose holds the engine has not settled yet (a crash mid-draw). */
export async function unsettledDrawn(db: Sql, ipoId: number): Promise<ApplicationRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT * FROM ipo_applications WHERE ipo_id = $1 AND channel = 'online' AND settled_at IS NULL
       AND hold_id IS NOT NULL AND status IN ('allocated', 'not_allotted') ORDER BY id`,
    [ipoId],
  );
  return rows.map(toApplication);
}

export async function paymentsOverdue(db: Sql, now: number): Promise<ApplicationRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT * FROM ipo_applications WHERE status = 'wait_for_payment' AND payment_due_at <= $1 ORDER BY id`,
    [now],
  );
  return rows.map(toApplication);
}

// --- auto-subscribe ----------------------------------------------------------------------------------

export async function autoApplyEnabled(db: Sql, userId: number): Promise<boolean> {
  const rows = await db.query<{ enabled: unknown }>('SELECT enabled FROM ipo_auto_apply WHERE user_id = $1', [userId]);
  return Number(rows[0]?.enabled ?? 0) === 1;
}

export async function setAutoApply(db: Sql, userId: number, enabled: boolean, at: number): Promise<void> {
  const changed = await db.run('UPDATE ipo_auto_apply SET enabled = $1, updated_at = $2 WHERE user_id = $3', [
    enabled ? 1 : 0,
    at,
    userId,
  ]);
  if (changed === 0)
    await db.run('INSERT INTO ipo_auto_apply (user_id, enabled, updated_at) VALUES ($1, $2, $3)', [
      userId,
      enabled ? 1 : 0,
      at,
    ]);
}

/** Customers who consented to auto-subscribe and are not blocked, in id order, with their KYC status. */
export async function autoApplyUsers(
  db: Sql,
): Promise<{ id: number; id_status: 'none' | 'pending' | 'succ' | 'fail' }[]> {
  const rows = await db.query<{ user_id: unknown; id_status: 'none' | 'pending' | 'succ' | 'fail' }>(
    `SELECT a.user_id, u.id_status FROM ipo_auto_apply a JOIN users u ON u.id = a.user_id
     WHERE a.enabled = 1 AND u.status <> 0 ORDER BY a.user_id`,
  );
  return rows.map((r) => ({ id: Number(r.user_id), id_status: r.id_status }));
}

export async function logAutoApply(
  db: Sql,
  e: { ipoId: number; userId: number; outcome: 'applied' | 'skipped'; reason: string; at: number },
): Promise<boolean> {
  if (
    (await db.query('SELECT 1 FROM ipo_auto_apply_log WHERE ipo_id = $1 AND user_id = $2', [e.ipoId, e.userId])).length
  )
    return false;
  await db.run('INSERT INTO ipo_auto_apply_log (ipo_id, user_id, outcome, reason, at) VALUES ($1, $2, $3, $4, $5)', [
    e.ipoId,
    e.userId,
    e.outcome,
    e.reason,
    e.at,
  ]);
  return true;
}

export async function autoApplyLog(
  db: Sql,
  ipoId: number,
): Promise<{ userId: number; outcome: 'applied' | 'skipped'; reason: string }[]> {
  const rows = await db.query<{ user_id: unknown; outcome: 'applied' | 'skipped'; reason: string }>(
    'SELECT user_id, outcome, reason FROM ipo_auto_apply_log WHERE ipo_id = $1 ORDER BY user_id',
    [ipoId],
  );
  return rows.map((r) => ({ userId: Number(r.user_id), outcome: r.outcome, reason: r.reason }));
}
