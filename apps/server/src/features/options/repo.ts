// SQL of the options line: option_orders (a customer's option: new → open → closed, or rejected), its
// transition table and history, and option_settlements (one row per underlying and expiry settled).
// Must hold: a status changes only along option_order_transitions, recorded in option_order_history.
// Must not: move money (the service sends engine commands).

import type { OptionCloseReason } from '@bourse/contract';
import type { Sql } from '@bourse/db';

export type OptionOrderStatus = 'new' | 'open' | 'closed' | 'rejected';

export type OptionOrderRow = {
  id: number;
  user_id: number;
  series: string;
  underlying: string;
  expiry: string;
  expires_at: number;
  direction: 'call' | 'put';
  strike: string;
  contracts: number;
  multiplier: number;
  currency: string;
  premium_unit: string;
  premium_minor: bigint;
  fee_minor: bigint;
  open_price: string;
  status: OptionOrderStatus;
  close_reason: OptionCloseReason | null;
  close_unit: string | null;
  proceeds_minor: bigint | null;
  expiry_price: string | null;
  pending_unit: string | null;
  pending_minor: bigint | null;
  closed_at: number | null;
  client_key: string | null;
  close_key: string | null;
  created_at: number;
  updated_at: number;
};

export type SettlementRow = {
  underlying: string;
  expiry: string;
  expires_at: number;
  expiry_price: string;
  positions: number;
  paid_minor: bigint;
  created_at: number;
  settled_at: number | null;
};

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const big = (v: unknown) => (v === null || v === undefined ? null : BigInt(String(v)));

function toOrder(r: Record<string, unknown>): OptionOrderRow {
  return {
    ...(r as OptionOrderRow),
    id: Number(r.id),
    user_id: Number(r.user_id),
    expires_at: Number(r.expires_at),
    contracts: Number(r.contracts),
    multiplier: Number(r.multiplier),
    premium_minor: BigInt(String(r.premium_minor)),
    fee_minor: BigInt(String(r.fee_minor)),
    proceeds_minor: big(r.proceeds_minor),
    pending_minor: big(r.pending_minor),
    closed_at: num(r.closed_at),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

function toSettlement(r: Record<string, unknown>): SettlementRow {
  return {
    ...(r as SettlementRow),
    expires_at: Number(r.expires_at),
    positions: Number(r.positions),
    paid_minor: BigInt(String(r.paid_minor)),
    created_at: Number(r.created_at),
    settled_at: num(r.settled_at),
  };
}

export type NewOptionOrder = Pick<
  OptionOrderRow,
  | 'user_id'
  | 'series'
  | 'underlying'
  | 'expiry'
  | 'expires_at'
  | 'direction'
  | 'strike'
  | 'contracts'
  | 'multiplier'
  | 'currency'
  | 'premium_unit'
  | 'premium_minor'
  | 'fee_minor'
  | 'open_price'
  | 'client_key'
>;

/** Records an order as `new` (before its engine command) and answers its id. */
export async function insertOrder(db: Sql, o: NewOptionOrder, at: number): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO option_orders (user_id, series, underlying, expiry, expires_at, direction, strike, contracts,
       multiplier, currency, premium_unit, premium_minor, fee_minor, open_price, client_key, status, created_at,
       updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 'new', $16, $16) RETURNING id`,
    [
      o.user_id,
      o.series,
      o.underlying,
      o.expiry,
      o.expires_at,
      o.direction,
      o.strike,
      o.contracts,
      o.multiplier,
      o.currency,
      o.premium_unit,
      o.premium_minor.toString(),
      o.fee_minor.toString(),
      o.open_price,
      o.client_key,
      at,
    ],
  );
  return Number(rows[0]?.id);
}

/** The customer's order placed with this Idempotency-Key, if any. */
export async function findOrderByKey(db: Sql, userId: number, key: string): Promise<OptionOrderRow | undefined> {
  const rows = await db.query('SELECT * FROM option_orders WHERE user_id = $1 AND client_key = $2', [userId, key]);
  return rows[0] ? toOrder(rows[0]) : undefined;
}

export async function findOrder(db: Sql, id: number): Promise<OptionOrderRow | undefined> {
  const rows = await db.query('SELECT * FROM option_orders WHERE id = $1', [id]);
  return rows[0] ? toOrder(rows[0]) : undefined;
}

/** The customer's orders (never rejected ones), newest first; `status` narrows to open or closed. */
export async function listOrders(
  db: Sql,
  userId: number,
  status: 'open' | 'closed' | undefined,
  page: { page: number; limit: number },
): Promise<{ items: OptionOrderRow[]; total: number }> {
  const where = status ? 'user_id = $1 AND status = $2' : "user_id = $1 AND status IN ('open', 'closed')";
  const params = status ? [userId, status] : [userId];
  const n = params.length;
  const rows = await db.query(
    `SELECT * FROM option_orders WHERE ${where} ORDER BY id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...params, page.limit, (page.page - 1) * page.limit],
  );
  const count = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM option_orders WHERE ${where}`, params);
  return { items: rows.map(toOrder), total: Number(count[0]?.n ?? 0) };
}

/** Every order of the customer that is open or closed (statistics). */
export async function ordersOf(db: Sql, userId: number): Promise<OptionOrderRow[]> {
  const rows = await db.query("SELECT * FROM option_orders WHERE user_id = $1 AND status IN ('open', 'closed')", [
    userId,
  ]);
  return rows.map(toOrder);
}

export async function ordersIn(db: Sql, status: OptionOrderStatus): Promise<OptionOrderRow[]> {
  const rows = await db.query('SELECT * FROM option_orders WHERE status = $1 ORDER BY id', [status]);
  return rows.map(toOrder);
}

/** Open orders whose expiry's close is at or before `before`, oldest expiry first. */
export async function expiredOpen(db: Sql, before: number): Promise<OptionOrderRow[]> {
  const rows = await db.query("SELECT * FROM option_orders WHERE status = 'open' AND expires_at <= $1 ORDER BY id", [
    before,
  ]);
  return rows.map(toOrder);
}

export async function addHistory(
  db: Sql,
  id: number,
  from: string,
  to: string,
  at: number,
  actor: 'customer' | 'system',
  reason: string,
): Promise<void> {
  await db.run(
    `INSERT INTO option_order_history (order_id, from_status, to_status, at, actor, reason)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [id, from, to, at, actor, reason],
  );
}

export async function transitionAllowed(db: Sql, from: string, to: OptionOrderStatus): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM option_order_transitions WHERE from_status = $1 AND to_status = $2', [
    from,
    to,
  ]);
  return rows.length > 0;
}

/**
 * Moves an order from `from` to `to` (only if it is still in `from`), with the closing figures when it
 * closes; answers whether it moved. The pending figures are cleared.
 */
export async function moveOrder(
  db: Sql,
  id: number,
  from: OptionOrderStatus,
  to: OptionOrderStatus,
  at: number,
  actor: 'customer' | 'system',
  reason: string,
  close?: { reason: OptionCloseReason; unit: string; proceedsMinor: bigint; expiryPrice: string | null },
): Promise<boolean> {
  if (!(await transitionAllowed(db, from, to)))
    throw new Error(`option order ${id}: ${from} → ${to} is not a transition`);
  const changed = await db.run(
    `UPDATE option_orders SET status = $1, updated_at = $2, close_reason = $3, close_unit = $4, proceeds_minor = $5,
       expiry_price = $6, closed_at = $7, pending_unit = NULL, pending_minor = NULL
     WHERE id = $8 AND status = $9`,
    [
      to,
      at,
      close?.reason ?? null,
      close?.unit ?? null,
      close?.proceedsMinor.toString() ?? null,
      close?.expiryPrice ?? null,
      close ? at : null,
      id,
      from,
    ],
  );
  if (changed === 0) return false;
  await addHistory(db, id, from, to, at, actor, reason);
  return true;
}

/** Writes an early close's figures before its engine command; false when the order is not open or already closing. */
export async function setPending(
  db: Sql,
  id: number,
  unit: string,
  minor: bigint,
  at: number,
  closeKey: string | null,
): Promise<boolean> {
  const changed = await db.run(
    `UPDATE option_orders SET pending_unit = $1, pending_minor = $2, updated_at = $3, close_key = $4
     WHERE id = $5 AND status = 'open' AND pending_minor IS NULL`,
    [unit, minor.toString(), at, closeKey, id],
  );
  return changed > 0;
}

export async function clearPending(db: Sql, id: number): Promise<void> {
  await db.run("UPDATE option_orders SET pending_unit = NULL, pending_minor = NULL WHERE id = $1 AND status = 'open'", [
    id,
  ]);
}

// --- settlements ---------------------------------------------------------------------------------------------

export async function findSettlement(db: Sql, underlying: string, expiry: string): Promise<SettlementRow | undefined> {
  const rows = await db.query('SELECT * FROM option_settlements WHERE underlying = $1 AND expiry = $2', [
    underlying,
    expiry,
  ]);
  return rows[0] ? toSettlement(rows[0]) : undefined;
}

/** Stores an expiry's closing price once (a second call keeps the first). */
export async function insertSettlement(
  db: Sql,
  s: { underlying: string; expiry: string; expiresAt: number; expiryPrice: string },
  at: number,
): Promise<void> {
  await db.run(
    `INSERT INTO option_settlements (underlying, expiry, expires_at, expiry_price, created_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (underlying, expiry) DO NOTHING`,
    [s.underlying, s.expiry, s.expiresAt, s.expiryPrice, at],
  );
}

export async function addSettled(
  db: Sql,
  underlying: string,
  expiry: string,
  positions: number,
  paidMinor: bigint,
  at: number,
): Promise<void> {
  await db.run(
    `UPDATE option_settlements SET positions = positions + $1, paid_minor = paid_minor + $2, settled_at = $3
     WHERE underlying = $4 AND expiry = $5`,
    [positions, paidMinor.toString(), at, underlying, expiry],
  );
}

export async function listSettlements(db: Sql, limit: number): Promise<SettlementRow[]> {
  const rows = await db.query('SELECT * FROM option_settlements ORDER BY expires_at DESC LIMIT $1', [limit]);
  return rows.map(toSettlement);
}
