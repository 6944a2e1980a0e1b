// SQL for the stock feature's reads of the order and trade read tables, and the watchlist's own table.
// Returns plain rows; the rules (states, fills, average cost) stay in service.ts and holdings.ts. The
// order and trade tables are written by the engine's projector only: nothing here writes them.

import type { Sql } from '@bourse/db';
import type { OrderStatus } from '@bourse/engine';

export type OrderRow = {
  id: number;
  command_id: string;
  instrument_id: string;
  side: 'buy' | 'sell';
  order_type: 'market' | 'limit';
  price_ticks: number;
  qty_lots: number;
  filled_lots: number;
  status: OrderStatus;
  reason: string;
  created_at: number;
  updated_at: number;
  queued: number;
};

export type TradeRow = {
  id: number;
  instrument_id: string;
  price_ticks: number;
  qty_lots: number;
  maker_user_id: string;
  taker_user_id: string;
  taker_side: 'buy' | 'sell';
  notional: string;
  maker_fee: string;
  taker_fee: string;
  at: number;
};

export type OrderFillRow = {
  maker_order_id: number;
  taker_order_id: number;
  qty_lots: number;
  notional: string;
  maker_fee: string;
  taker_fee: string;
};

/** `instrument_id IN ($2, …)`: the user is always $1, the stock ids follow. */
const stocksIn = (stockIds: readonly string[]) =>
  `instrument_id IN (${stockIds.map((_, k) => `$${k + 2}`).join(', ')})`;

/** A user's stock orders, newest first: open ones, finished ones or all. */
export async function listOrders(
  db: Sql,
  userId: number,
  stockIds: readonly string[],
  status: 'open' | 'history' | 'all',
  limit: number,
  offset: number,
) {
  const where = [`user_id = $1`, stocksIn(stockIds)];
  if (status === 'open') where.push(`status IN ('pending', 'partial')`);
  if (status === 'history') where.push(`status NOT IN ('pending', 'partial')`);
  const params: (string | number)[] = [String(userId), ...stockIds];
  const clause = where.join(' AND ');
  const total = (await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM orders WHERE ${clause}`, params))[0]?.n ?? 0;
  const rows = await db.query<OrderRow>(
    `SELECT * FROM orders WHERE ${clause} ORDER BY id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { rows, total: Number(total) };
}

export const countOrdersByState = (db: Sql, owner: string, stockIds: readonly string[]) =>
  db.query<{ status: OrderStatus; reason: string; n: number }>(
    `SELECT status, reason, COUNT(*) AS n FROM orders WHERE user_id = $1 AND ${stocksIn(stockIds)} GROUP BY status, reason`,
    [owner, ...stockIds],
  );

export const listStockFillNotionals = (db: Sql, owner: string, stockIds: readonly string[]) =>
  db.query<{ instrument_id: string; notional: string }>(
    `SELECT instrument_id, notional FROM trades WHERE (maker_user_id = $1 OR taker_user_id = $1) AND ${stocksIn(stockIds)}`,
    [owner, ...stockIds],
  );

export const findOrder = async (db: Sql, userId: number, orderId: number) =>
  (await db.query<OrderRow>('SELECT * FROM orders WHERE id = $1 AND user_id = $2', [orderId, String(userId)]))[0];

/** The trades on either side of these orders (ids must not be empty). */
export function listFillsOfOrders(db: Sql, ids: number[]) {
  const marks = ids.map((_, k) => `$${k + 1}`).join(', ');
  return db.query<OrderFillRow>(
    `SELECT maker_order_id, taker_order_id, qty_lots, notional, maker_fee, taker_fee FROM trades
       WHERE maker_order_id IN (${marks}) OR taker_order_id IN (${marks})`,
    ids,
  );
}

/** Every trade the user took part in, in id order. */
export const listUserTrades = (db: Sql, owner: string) =>
  db.query<TradeRow>('SELECT * FROM trades WHERE maker_user_id = $1 OR taker_user_id = $1 ORDER BY id', [owner]);

export const listUserTradesIn = (db: Sql, owner: string, instrumentId: string) =>
  db.query<TradeRow>(
    'SELECT * FROM trades WHERE instrument_id = $2 AND (maker_user_id = $1 OR taker_user_id = $1) ORDER BY id',
    [owner, instrumentId],
  );

/**
 * Shares a customer received in a primary-market allotment (an IPO, a block trade: engine
 * settle_allotment), each with what was paid for it: the delivery `<hold>:deliver` and its payment
 * `<hold>:allot` (decision 0030). The holdings count them as buys at that price.
 */
export type AllotmentRow = { asset: string; qty: string; paid: string | null; paid_asset: string | null; at: number };

export const listUserAllotments = (db: Sql, owner: string) =>
  db.query<AllotmentRow>(
    `SELECT d.asset AS asset, d.amount AS qty, p.amount AS paid, p.asset AS paid_asset, d.at AS at
       FROM ledger_transfers d
       LEFT JOIN ledger_transfers p
         ON p.transfer_id = substr(d.transfer_id, 1, length(d.transfer_id) - 8) || ':allot'
      WHERE d.credit_owner = $1 AND d.cause = 'allotment' AND d.asset LIKE 'SHARE:%'
        AND d.transfer_id LIKE '%:deliver'
      ORDER BY d.seq`,
    [owner],
  );

/**
 * Shares a stock robot's run gave back as shares (still locked until settlement at its end), with the run's
 * position when it ended (its lots and their average cost, folded by the robots before the move): the
 * holding takes them at that cost, not as free shares. Reads the robots' table: the cost is theirs.
 */
export type RobotReturnRow = { asset: string; qty: string; at: number; run_cost: string; run_lots: string };

export const listUserRobotReturns = (db: Sql, owner: string) =>
  db.query<RobotReturnRow>(
    `SELECT d.asset AS asset, d.amount AS qty, d.at AS at, r.pnl_cost AS run_cost, r.pnl_lots AS run_lots
       FROM ledger_transfers d
       JOIN robot_runs r ON d.transfer_id = 'robot-out:' || CAST(r.id AS TEXT) || ':' || d.asset || ':credit'
      WHERE d.credit_owner = $1 AND d.cause = 'wallet_transfer' AND d.asset LIKE 'SHARE:%'
        AND d.transfer_id LIKE 'robot-out:%'
      ORDER BY d.seq`,
    [owner],
  );

// --- the watchlist ------------------------------------------------------------------------------

export const addWatch = (db: Sql, userId: number, instrumentId: string, now: number) =>
  db.run(
    'INSERT INTO watchlist (user_id, instrument_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (user_id, instrument_id) DO NOTHING',
    [userId, instrumentId, now],
  );

export const removeWatch = (db: Sql, userId: number, instrumentId: string) =>
  db.run('DELETE FROM watchlist WHERE user_id = $1 AND instrument_id = $2', [userId, instrumentId]);

export const listWatched = (db: Sql, userId: number) =>
  db.query<{ instrument_id: string }>(
    'SELECT instrument_id FROM watchlist WHERE user_id = $1 ORDER BY created_at DESC, instrument_id',
    [userId],
  );
