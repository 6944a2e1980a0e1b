// SQL of the AI funds line: funds with fund_transitions, fund_valuations (one per fund and trading day),
// customers' units (fund_units) and their orders along fund_order_transitions. Plain rows, one dialect for
// both databases; the rules live in service.ts.

import type { FundOrderStatus, FundStatus } from '@bourse/contract';
import type { Sql } from '@bourse/db';

export type FundRow = {
  id: number;
  name: string;
  rule: 'momentum' | 'low_volatility';
  market: 'NSE' | 'BSE' | 'NYSE' | 'NASDAQ' | 'B3';
  size: number;
  lookback_days: number;
  currency: string;
  min_minor: bigint;
  status: FundStatus;
  note: string;
  demo: boolean;
  changes_id: number | null;
  units_minor: bigint;
  rebalanced_day: string;
  created_by: number;
  approved_by: number | null;
  review_reason: string;
  created_at: number;
  updated_at: number;
};

export type ValuationRow = {
  id: number;
  fund_id: number;
  day: string;
  time: number;
  cash_minor: bigint;
  equity_minor: bigint;
  units_minor: bigint;
  /** After the subscriptions and redemptions it converted. */
  equity_after_minor: bigint;
  units_after_minor: bigint;
};

export type OrderRow = {
  id: number;
  fund_id: number;
  user_id: number;
  side: 'subscribe' | 'redeem';
  status: FundOrderStatus;
  amount_minor: bigint | null;
  units_minor: bigint | null;
  valuation_id: number | null;
  /** The customer's idempotency key (unique per customer), null when sent without one. */
  client_key: string | null;
  created_at: number;
  valued_at: number | null;
  updated_at: number;
};

const big = (v: unknown) => BigInt(String(v));
const bigOrNull = (v: unknown) => (v === null || v === undefined ? null : big(v));
const num = (v: unknown) => Number(v);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

const fund = (r: Record<string, unknown>): FundRow => ({
  ...(r as FundRow),
  id: num(r.id),
  size: num(r.size),
  lookback_days: num(r.lookback_days),
  min_minor: big(r.min_minor),
  demo: num(r.demo) === 1,
  changes_id: numOrNull(r.changes_id),
  units_minor: big(r.units_minor),
  created_by: num(r.created_by),
  approved_by: numOrNull(r.approved_by),
  created_at: num(r.created_at),
  updated_at: num(r.updated_at),
});
const valuation = (r: Record<string, unknown>): ValuationRow => ({
  id: num(r.id),
  fund_id: num(r.fund_id),
  day: String(r.day),
  time: num(r.time),
  cash_minor: big(r.cash_minor),
  equity_minor: big(r.equity_minor),
  units_minor: big(r.units_minor),
  equity_after_minor: big(r.equity_after_minor),
  units_after_minor: big(r.units_after_minor),
});
const order = (r: Record<string, unknown>): OrderRow => ({
  ...(r as OrderRow),
  id: num(r.id),
  fund_id: num(r.fund_id),
  user_id: num(r.user_id),
  amount_minor: bigOrNull(r.amount_minor),
  units_minor: bigOrNull(r.units_minor),
  valuation_id: numOrNull(r.valuation_id),
  client_key: r.client_key === null || r.client_key === undefined ? null : String(r.client_key),
  created_at: num(r.created_at),
  valued_at: numOrNull(r.valued_at),
  updated_at: num(r.updated_at),
});

// --- funds -------------------------------------------------------------------------------------------

export type NewFund = Pick<
  FundRow,
  | 'name'
  | 'rule'
  | 'market'
  | 'size'
  | 'lookback_days'
  | 'currency'
  | 'min_minor'
  | 'note'
  | 'demo'
  | 'changes_id'
  | 'created_by'
>;

export async function insertFund(db: Sql, f: NewFund, at: number): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO funds (name, rule, market, size, lookback_days, currency, min_minor, status, note, demo, changes_id,
       created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending_approval', $8, $9, $10, $11, $12, $12) RETURNING id`,
    [
      f.name,
      f.rule,
      f.market,
      f.size,
      f.lookback_days,
      f.currency,
      f.min_minor.toString(),
      f.note,
      f.demo ? 1 : 0,
      f.changes_id,
      f.created_by,
      at,
    ],
  );
  return Number(rows[0]?.id);
}

export async function findFund(db: Sql, id: number): Promise<FundRow | undefined> {
  const rows = await db.query<Record<string, unknown>>('SELECT * FROM funds WHERE id = $1', [id]);
  return rows[0] ? fund(rows[0]) : undefined;
}

/** Funds customers can see (not parameter changes), by status. */
export async function listFunds(db: Sql, statuses: readonly FundStatus[]): Promise<FundRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT * FROM funds WHERE changes_id IS NULL AND status IN (${statuses.map((_, i) => `$${i + 1}`).join(', ')})
     ORDER BY id`,
    [...statuses],
  );
  return rows.map(fund);
}

export async function allFunds(db: Sql): Promise<FundRow[]> {
  return (await db.query<Record<string, unknown>>('SELECT * FROM funds ORDER BY id DESC')).map(fund);
}

export async function countDemoFunds(db: Sql): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM funds WHERE demo = 1');
  return Number(rows[0]?.n ?? 0);
}

export async function moveFund(
  db: Sql,
  id: number,
  from: FundStatus,
  to: FundStatus,
  at: number,
  set: { approved_by?: number; review_reason?: string } = {},
): Promise<boolean> {
  const allowed = await db.query('SELECT 1 FROM fund_transitions WHERE from_status = $1 AND to_status = $2', [
    from,
    to,
  ]);
  if (allowed.length === 0) throw new Error(`fund ${id}: ${from} → ${to} is not a transition`);
  const changed = await db.run(
    `UPDATE funds SET status = $1, updated_at = $2, approved_by = COALESCE($3, approved_by),
       review_reason = COALESCE($4, review_reason) WHERE id = $5 AND status = $6`,
    [to, at, set.approved_by ?? null, set.review_reason ?? null, id, from],
  );
  return changed > 0;
}

/** An approved change's parameters onto its fund (they take effect at the next rebalance). */
export async function applyChange(db: Sql, change: FundRow, at: number): Promise<void> {
  await db.run(
    `UPDATE funds SET name = $1, rule = $2, size = $3, lookback_days = $4, min_minor = $5, updated_at = $6
     WHERE id = $7`,
    [change.name, change.rule, change.size, change.lookback_days, change.min_minor.toString(), at, change.changes_id],
  );
}

export async function setRebalanced(db: Sql, id: number, day: string, at: number): Promise<void> {
  await db.run('UPDATE funds SET rebalanced_day = $1, updated_at = $2 WHERE id = $3', [day, at, id]);
}

// --- valuations --------------------------------------------------------------------------------------

export async function insertValuation(db: Sql, v: Omit<ValuationRow, 'id'>): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO fund_valuations (fund_id, day, time, cash_minor, equity_minor, units_minor, equity_after_minor,
       units_after_minor)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      v.fund_id,
      v.day,
      v.time,
      v.cash_minor.toString(),
      v.equity_minor.toString(),
      v.units_minor.toString(),
      v.equity_after_minor.toString(),
      v.units_after_minor.toString(),
    ],
  );
  return Number(rows[0]?.id);
}

export async function findValuation(db: Sql, id: number): Promise<ValuationRow | undefined> {
  const rows = await db.query<Record<string, unknown>>('SELECT * FROM fund_valuations WHERE id = $1', [id]);
  return rows[0] ? valuation(rows[0]) : undefined;
}

export async function valuationOn(db: Sql, fundId: number, day: string): Promise<ValuationRow | undefined> {
  const rows = await db.query<Record<string, unknown>>(
    'SELECT * FROM fund_valuations WHERE fund_id = $1 AND day = $2',
    [fundId, day],
  );
  return rows[0] ? valuation(rows[0]) : undefined;
}

/** The last `limit` valuations, oldest first. */
export async function valuations(db: Sql, fundId: number, limit: number): Promise<ValuationRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    'SELECT * FROM fund_valuations WHERE fund_id = $1 ORDER BY day DESC LIMIT $2',
    [fundId, limit],
  );
  return rows.map(valuation).reverse();
}

export async function firstValuation(db: Sql, fundId: number): Promise<ValuationRow | undefined> {
  const rows = await db.query<Record<string, unknown>>(
    'SELECT * FROM fund_valuations WHERE fund_id = $1 ORDER BY day LIMIT 1',
    [fundId],
  );
  return rows[0] ? valuation(rows[0]) : undefined;
}

export async function countValuations(db: Sql, fundId: number): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM fund_valuations WHERE fund_id = $1', [fundId]);
  return Number(rows[0]?.n ?? 0);
}

// --- units and orders --------------------------------------------------------------------------------

export async function unitsOf(db: Sql, fundId: number, userId: number): Promise<bigint> {
  const rows = await db.query<{ units_minor: unknown }>(
    'SELECT units_minor FROM fund_units WHERE fund_id = $1 AND user_id = $2',
    [fundId, userId],
  );
  return rows[0] ? big(rows[0].units_minor) : 0n;
}

/** Adds (or, negative, removes) a customer's units and the fund's units outstanding, in the caller's transaction. */
export async function addUnits(db: Sql, fundId: number, userId: number, delta: bigint): Promise<void> {
  const have = await unitsOf(db, fundId, userId);
  if (have + delta < 0n) throw new Error(`fund ${fundId}: units of ${userId} would go negative`);
  const changed = await db.run('UPDATE fund_units SET units_minor = $1 WHERE fund_id = $2 AND user_id = $3', [
    (have + delta).toString(),
    fundId,
    userId,
  ]);
  if (changed === 0)
    await db.run('INSERT INTO fund_units (fund_id, user_id, units_minor) VALUES ($1, $2, $3)', [
      fundId,
      userId,
      delta.toString(),
    ]);
  await db.run('UPDATE funds SET units_minor = units_minor + $1 WHERE id = $2', [delta.toString(), fundId]);
}

export async function insertOrder(
  db: Sql,
  o: {
    fund_id: number;
    user_id: number;
    side: 'subscribe' | 'redeem';
    amount_minor: bigint | null;
    units_minor: bigint | null;
    client_key: string | null;
  },
  at: number,
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO fund_orders (fund_id, user_id, side, status, amount_minor, units_minor, client_key, created_at,
       updated_at)
     VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, $7) RETURNING id`,
    [
      o.fund_id,
      o.user_id,
      o.side,
      o.amount_minor?.toString() ?? null,
      o.units_minor?.toString() ?? null,
      o.client_key,
      at,
    ],
  );
  return Number(rows[0]?.id);
}

/** The customer's order sent with this idempotency key (either side, any fund), if any. */
export async function orderByKey(db: Sql, userId: number, key: string): Promise<OrderRow | undefined> {
  const rows = await db.query<Record<string, unknown>>(
    'SELECT * FROM fund_orders WHERE user_id = $1 AND client_key = $2',
    [userId, key],
  );
  return rows[0] ? order(rows[0]) : undefined;
}

export async function findOrder(db: Sql, id: number): Promise<OrderRow | undefined> {
  const rows = await db.query<Record<string, unknown>>('SELECT * FROM fund_orders WHERE id = $1', [id]);
  return rows[0] ? order(rows[0]) : undefined;
}

export async function ordersOfFund(db: Sql, fundId: number, status: FundOrderStatus): Promise<OrderRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    'SELECT * FROM fund_orders WHERE fund_id = $1 AND status = $2 ORDER BY id',
    [fundId, status],
  );
  return rows.map(order);
}

export async function ordersOfUser(
  db: Sql,
  userId: number,
  page: number,
  limit: number,
  fundId?: number,
): Promise<{ rows: OrderRow[]; total: number }> {
  const where = fundId === undefined ? 'user_id = $1' : 'user_id = $1 AND fund_id = $2';
  const args: number[] = fundId === undefined ? [userId] : [userId, fundId];
  const total = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM fund_orders WHERE ${where}`, args);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT * FROM fund_orders WHERE ${where} ORDER BY id DESC LIMIT ${limit} OFFSET ${(page - 1) * limit}`,
    args,
  );
  return { rows: rows.map(order), total: Number(total[0]?.n ?? 0) };
}

/** Units a customer has asked to redeem that are not priced yet (they are not free to redeem again). */
export async function pendingRedeemUnits(db: Sql, fundId: number, userId: number): Promise<bigint> {
  const rows = await db.query<{ n: unknown }>(
    `SELECT COALESCE(SUM(units_minor), 0) AS n FROM fund_orders
     WHERE fund_id = $1 AND user_id = $2 AND side = 'redeem' AND status = 'pending'`,
    [fundId, userId],
  );
  return big(rows[0]?.n ?? 0);
}

export async function moveOrder(
  db: Sql,
  id: number,
  from: FundOrderStatus,
  to: FundOrderStatus,
  at: number,
  set: { amount_minor?: bigint; units_minor?: bigint; valuation_id?: number } = {},
): Promise<boolean> {
  const allowed = await db.query('SELECT 1 FROM fund_order_transitions WHERE from_status = $1 AND to_status = $2', [
    from,
    to,
  ]);
  if (allowed.length === 0) throw new Error(`fund order ${id}: ${from} → ${to} is not a transition`);
  const changed = await db.run(
    `UPDATE fund_orders SET status = $1, updated_at = $2, amount_minor = COALESCE($3, amount_minor),
       units_minor = COALESCE($4, units_minor), valuation_id = COALESCE($5, valuation_id),
       valued_at = CASE WHEN $5 IS NULL THEN valued_at ELSE $2 END
     WHERE id = $6 AND status = $7`,
    [
      to,
      at,
      set.amount_minor?.toString() ?? null,
      set.units_minor?.toString() ?? null,
      set.valuation_id ?? null,
      id,
      from,
    ],
  );
  return changed > 0;
}
