// SQL of the crypto exchange: its reads of the order and trade read tables (written by the engine's
// projector only) and the favourite pairs, which share the stock watchlist's table (user, instrument).

import type { Sql } from '@bourse/db';
import type { OrderStatus } from '@bourse/engine';

export type SpotOrderRow = {
  id: number;
  command_id: string;
  user_id: string;
  instrument_id: string;
  side: 'buy' | 'sell';
  order_type: 'market' | 'limit';
  time_in_force: 'gtc' | 'ioc' | 'fok';
  price_ticks: number;
  qty_lots: number;
  filled_lots: number;
  status: OrderStatus;
  reason: string;
  trigger_spec: string | null;
  created_at: number;
  updated_at: number;
};

export type SpotTradeRow = {
  id: number;
  instrument_id: string;
  price_ticks: number;
  qty_lots: number;
  taker_side: 'buy' | 'sell';
  maker_order_id: number;
  taker_order_id: number;
  maker_user_id: string;
  taker_user_id: string;
  notional: string;
  maker_fee: string;
  taker_fee: string;
  at: number;
};

const ORDER_COLUMNS = `id, command_id, user_id, instrument_id, side, order_type, time_in_force, price_ticks, qty_lots,
  filled_lots, status, reason, trigger_spec, created_at, updated_at`;

/** `instrument_id IN ($n, …)` from parameter `first` on. */
const pairsIn = (ids: readonly string[], first: number) =>
  `instrument_id IN (${ids.map((_, k) => `$${k + first}`).join(', ')})`;

export const findOrder = async (db: Sql, owner: string, orderId: number, pairIds: readonly string[]) =>
  (
    await db.query<SpotOrderRow>(
      `SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1 AND user_id = $2 AND ${pairsIn(pairIds, 3)}`,
      [orderId, owner, ...pairIds],
    )
  )[0];

/** One of the customer's orders by the command ids its client order id may have been placed under. */
export const findOrderByCommand = async (db: Sql, owner: string, commandIds: readonly string[]) =>
  (
    await db.query<SpotOrderRow>(
      `SELECT ${ORDER_COLUMNS} FROM orders WHERE user_id = $1 AND command_id IN (${commandIds.map((_, k) => `$${k + 2}`).join(', ')})`,
      [owner, ...commandIds],
    )
  )[0];

/** A customer's spot orders, newest first: open ones (resting or waiting), finished ones or all. */
export async function listOrders(
  db: Sql,
  owner: string,
  pairIds: readonly string[],
  status: 'open' | 'history' | 'all',
  limit: number,
  offset: number,
) {
  const where = ['user_id = $1', pairsIn(pairIds, 2)];
  if (status === 'open') where.push(`status IN ('pending', 'partial')`);
  if (status === 'history') where.push(`status NOT IN ('pending', 'partial')`);
  const params: (string | number)[] = [owner, ...pairIds];
  const clause = where.join(' AND ');
  const total = (await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM orders WHERE ${clause}`, params))[0]?.n ?? 0;
  const rows = await db.query<SpotOrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM orders WHERE ${clause} ORDER BY id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { rows, total: Number(total) };
}

/** The trades on either side of these orders (ids must not be empty). */
export function listTradesOfOrders(db: Sql, ids: readonly number[]) {
  const marks = ids.map((_, k) => `$${k + 1}`).join(', ');
  return db.query<SpotTradeRow>(
    `SELECT * FROM trades WHERE maker_order_id IN (${marks}) OR taker_order_id IN (${marks}) ORDER BY id`,
    [...ids],
  );
}

/** A customer's fills, newest first, in these pairs (and of one order). */
export async function listUserTrades(
  db: Sql,
  owner: string,
  pairIds: readonly string[],
  orderId: number | undefined,
  limit: number,
  offset: number,
) {
  const where = ['(maker_user_id = $1 OR taker_user_id = $1)', pairsIn(pairIds, 2)];
  const params: (string | number)[] = [owner, ...pairIds];
  if (orderId !== undefined) {
    params.push(orderId);
    where.push(`(maker_order_id = $${params.length} OR taker_order_id = $${params.length})`);
  }
  const clause = where.join(' AND ');
  const total = (await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM trades WHERE ${clause}`, params))[0]?.n ?? 0;
  const rows = await db.query<SpotTradeRow>(
    `SELECT * FROM trades WHERE ${clause} ORDER BY id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { rows, total: Number(total) };
}

/** The durable record of a keyed order command (engine-host/idempotency-keys.ts writes it). */
export const findKeyedCommand = async (db: Sql, commandId: string) =>
  (
    await db.query<{ body: string; order_id: unknown; outcome: string }>(
      'SELECT body, order_id, outcome FROM idempotency_keys WHERE command_id = $1',
      [commandId],
    )
  )[0];

/** Customers' stop-limit orders still waiting for their stop price (for the bot after a restart). */
export const listWaitingStops = (db: Sql, pairIds: readonly string[]) =>
  pairIds.length === 0
    ? Promise.resolve([])
    : db.query<{ instrument_id: string; side: 'buy' | 'sell'; trigger_spec: string }>(
        `SELECT instrument_id, side, trigger_spec FROM orders
           WHERE trigger_spec IS NOT NULL AND status = 'pending' AND reason = '' AND ${pairsIn(pairIds, 1)}`,
        [...pairIds],
      );

// --- favourites: the crypto pairs among a customer's starred instruments (stocks/watchlist.ts writes them) ---

export const listFavourites = async (db: Sql, userId: number, pairIds: readonly string[]) =>
  (
    await db.query<{ instrument_id: string }>(
      `SELECT instrument_id FROM watchlist WHERE user_id = $1 AND ${pairsIn(pairIds, 2)} ORDER BY created_at DESC, instrument_id`,
      [userId, ...pairIds],
    )
  ).map((r) => r.instrument_id);

export type OrderFills = { notional: bigint; fee: bigint; lots: number };

/** Per order of `ids`: the lots filled, Σ price × quantity and the fee it paid (as maker or as taker). */
export async function fillsOfOrders(db: Sql, ids: readonly number[]): Promise<Map<number, OrderFills>> {
  const wanted = new Set(ids);
  const fills = new Map<number, OrderFills>();
  const add = (orderId: number, lots: number, notional: bigint, fee: bigint) => {
    const f = fills.get(orderId) ?? { notional: 0n, fee: 0n, lots: 0 };
    f.notional += notional;
    f.fee += fee;
    f.lots += lots;
    fills.set(orderId, f);
  };
  for (const t of await listTradesOfOrders(db, ids)) {
    const lots = Number(t.qty_lots);
    if (wanted.has(Number(t.maker_order_id)))
      add(Number(t.maker_order_id), lots, BigInt(t.notional), BigInt(t.maker_fee));
    if (wanted.has(Number(t.taker_order_id)))
      add(Number(t.taker_order_id), lots, BigInt(t.notional), BigInt(t.taker_fee));
  }
  return fills;
}
