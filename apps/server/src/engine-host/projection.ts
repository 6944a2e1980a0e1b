// Turns the engine's events into read-model rows (transfers, orders, trades, idempotency keys), inside
// the journal's transaction; a market maker's quote that ends without a fill keeps no orders row
// (unrecorded-orders.ts). Rows are keyed by the engine's own ids, so writing a batch twice changes
// nothing, and an order row only moves forward (last_seq).
// On PostgreSQL a batch is written with one statement per table, not one per event: every statement is
// a round trip made while the commit, and so every caller in the batch, waits. Each passes one array per
// column to unnest(), so its text is the same whatever the batch size and PostgreSQL parses a short
// statement instead of one with hundreds of parameters. On SQLite there is no round trip to save, and
// one-row statements (prepared once, cached) are cheaper: 40-row inserts into orders cost ~16 µs a row
// against ~5 for one-row ones.
// A retried command (an id the engine has seen) answers its first result again, events and all; those
// rows were written with the first answer, so a remembered result writes nothing. Without this its
// order updates, carrying the retry's newer seq, would rewind an order that has moved on since (a
// partly filled order cancelled afterwards would show as partly filled again).

import type { Param, ParamArray, Sql } from '@bourse/db';
import {
  type ApplyResult,
  type Command,
  EventReader,
  minorText,
  type OrderPlaced,
  type OrderUpdated,
  ownerOfAccountKey,
  RECORD_EVENT,
  RECORD_FILL,
  RECORD_ORDER_PLACED,
  RECORD_ORDER_UPDATED,
  RECORD_TRADE,
  RECORD_TRANSFER,
  type Trade,
} from '@bourse/engine';
import type { Applied } from './engine-host.ts';
import { keyRow, projectKeys } from './idempotency-keys.ts';
import { dropUnfilledQuotes } from './unrecorded-orders.ts';

/** Reads each result's events in place (the engine's compact form), one batch at a time. */
const reader = new EventReader();

/** An order update's row for updateOrders (the last one per order wins). */
type UpdateRow = [number, string, number, number, number, string, number, number];

// The rows' fields, as both an event object and an EventReader on a record of its kind name them (the
// amounts apart: bigints in one, numbers in the other; they come as decimal text).
type TradeFields = Pick<
  Trade,
  | 'tradeId'
  | 'instrumentId'
  | 'priceTicks'
  | 'qtyLots'
  | 'takerSide'
  | 'makerOrderId'
  | 'takerOrderId'
  | 'makerUserId'
  | 'takerUserId'
  | 'timeMs'
>;
type PlacedFields = Pick<
  OrderPlaced,
  | 'orderId'
  | 'commandId'
  | 'userId'
  | 'instrumentId'
  | 'side'
  | 'orderType'
  | 'timeInForce'
  | 'priceTicks'
  | 'qtyLots'
  | 'trigger'
  | 'holdAsset'
  | 'timeMs'
>;
type UpdateFields = Pick<
  OrderUpdated,
  'orderId' | 'status' | 'priceTicks' | 'qtyLots' | 'filledLots' | 'reason' | 'timeMs'
>;

const tradeRow = (seq: number, t: TradeFields, notional: string, makerFee: string, takerFee: string): Param[] => [
  t.tradeId,
  seq,
  t.instrumentId,
  t.priceTicks,
  t.qtyLots,
  t.takerSide,
  t.makerOrderId,
  t.takerOrderId,
  t.makerUserId,
  t.takerUserId,
  notional,
  makerFee,
  takerFee,
  t.timeMs,
];

const placedRow = (seq: number, o: PlacedFields, holdAmount: string, queued: boolean): Param[] => [
  o.orderId,
  o.commandId,
  o.userId,
  o.instrumentId,
  o.side,
  o.orderType,
  o.timeInForce,
  o.priceTicks,
  o.qtyLots,
  'pending',
  o.trigger ? JSON.stringify(o.trigger) : null,
  o.holdAsset,
  holdAmount,
  o.timeMs,
  o.timeMs,
  seq,
  queued ? 1 : 0,
];

const updateRow = (seq: number, u: UpdateFields): UpdateRow => [
  u.orderId,
  u.status,
  u.priceTicks,
  u.qtyLots,
  u.filledLots,
  u.reason,
  u.timeMs,
  seq,
];

export async function projectBatch(
  tx: Sql,
  batch: readonly Applied<Command, ApplyResult>[],
  previousCommitted: Promise<void> = Promise.resolve(),
): Promise<void> {
  const transfers: Param[][] = [];
  const placed: Param[][] = [];
  const trades: Param[][] = [];
  /** The last update per order: each carries the order's whole changing state, so the last one wins. */
  const updates = new Map<number, UpdateRow>();
  const transfer = (
    transferId: string,
    seq: number,
    timeMs: number,
    debit: string,
    credit: string,
    asset: string,
    amount: string,
    cause: string,
    link: string,
  ) => {
    transfers.push([
      transferId,
      seq,
      timeMs,
      debit,
      credit,
      ownerOfAccountKey(debit),
      ownerOfAccountKey(credit),
      asset,
      amount,
      cause,
      link,
    ]);
  };
  /** Keyed commands' outcomes (idempotency-keys.ts), rejections included: a retry must meet the same answer. */
  const keys: Param[][] = [];
  for (const { seq, command, result, repeat } of batch) {
    // A repeat's events are its first command's, already projected (the rows would go back to then).
    if (repeat) continue;
    const key = keyRow(command, result);
    if (key !== undefined) keys.push(key);
    if (!result.ok) continue;
    reader.read(result);
    while (reader.next()) {
      const kind = reader.kind;
      if (kind === RECORD_FILL) {
        // One record for the trade and its two to four transfers (ids and links follow from the trade id).
        const tradeId = reader.tradeId;
        const timeMs = reader.timeMs;
        const notional = String(reader.notional);
        const makerFee = String(reader.makerFee);
        const takerFee = String(reader.takerFee);
        trades.push(tradeRow(seq, reader, notional, makerFee, takerFee));
        const link = `trade:${tradeId}`;
        const buyerQuote = reader.quoteDebit;
        const sellerQuote = reader.quoteCredit;
        const quoteAsset = reader.quoteAsset;
        transfer(`${link}:quote`, seq, timeMs, buyerQuote, sellerQuote, quoteAsset, notional, 'trade', link);
        const qtyMinor = String(reader.qtyMinor);
        transfer(
          `${link}:base`,
          seq,
          timeMs,
          reader.baseDebit,
          reader.baseCredit,
          reader.baseAsset,
          qtyMinor,
          'trade',
          link,
        );
        const takerBuys = reader.takerSide === 'buy';
        const buyerFeeCredit = reader.buyerFeeCredit;
        if (buyerFeeCredit !== undefined) {
          const fee = takerBuys ? takerFee : makerFee;
          transfer(`${link}:buyer_fee`, seq, timeMs, buyerQuote, buyerFeeCredit, quoteAsset, fee, 'fee', link);
        }
        const sellerFeeCredit = reader.sellerFeeCredit;
        if (sellerFeeCredit !== undefined) {
          const fee = takerBuys ? makerFee : takerFee;
          transfer(`${link}:seller_fee`, seq, timeMs, sellerQuote, sellerFeeCredit, quoteAsset, fee, 'fee', link);
        }
      } else if (kind === RECORD_ORDER_UPDATED) {
        updates.set(reader.orderId, updateRow(seq, reader));
      } else if (kind === RECORD_ORDER_PLACED) {
        placed.push(placedRow(seq, reader, minorText(reader.holdAmount, reader.holdAmountBig), reader.queued));
      } else if (kind === RECORD_TRADE) {
        const notional = minorText(reader.notional, reader.notionalBig);
        const makerFee = minorText(reader.makerFee, reader.makerFeeBig);
        trades.push(tradeRow(seq, reader, notional, makerFee, minorText(reader.takerFee, reader.takerFeeBig)));
      } else if (kind === RECORD_TRANSFER) {
        const amount = minorText(reader.amount, reader.amountBig);
        const { transferId, timeMs, debit, credit, asset, cause, link } = reader;
        transfer(transferId, seq, timeMs, debit, credit, asset, amount, cause, link);
      } else if (kind === RECORD_EVENT) {
        // An event as an object: a remembered answer's, or one of the rarer kinds.
        const e = reader.event!;
        if (e.type === 'transfer_posted') {
          transfer(e.transferId, seq, e.timeMs, e.debit, e.credit, e.asset, e.amount.toString(), e.cause, e.link);
        } else if (e.type === 'order_placed') {
          placed.push(placedRow(seq, e, e.holdAmount.toString(), e.queued === true));
        } else if (e.type === 'order_updated') {
          updates.set(e.orderId, updateRow(seq, e));
        } else if (e.type === 'trade') {
          trades.push(tradeRow(seq, e, e.notional.toString(), e.makerFee.toString(), e.takerFee.toString()));
        }
        // Holds, prices and instrument registrations are live state, read from the engine itself.
      }
    }
  }
  await insertRows(
    tx,
    `INSERT INTO ledger_transfers (transfer_id, seq, at, debit, credit, debit_owner, credit_owner, asset, amount, cause, link)`,
    ['text', 'bigint', 'bigint', 'text', 'text', 'text', 'text', 'text', 'numeric', 'text', 'text'],
    transfers,
    `ON CONFLICT (transfer_id) DO NOTHING`,
  );
  await insertRows(
    tx,
    `INSERT INTO orders (id, command_id, user_id, instrument_id, side, order_type, time_in_force, price_ticks, qty_lots,
       status, trigger_spec, hold_asset, hold_amount, created_at, updated_at, last_seq, queued)`,
    [
      'bigint',
      'text',
      'text',
      'text',
      'text',
      'text',
      'text',
      'bigint',
      'bigint',
      'text',
      'text',
      'text',
      'numeric',
      'bigint',
      'bigint',
      'bigint',
      'integer',
    ],
    placed,
    `ON CONFLICT (id) DO NOTHING`,
  );
  // After the inserts: an order placed and updated in the same batch is there to update. An order
  // placed in the batch before is there once that batch has committed: on PostgreSQL this batch runs
  // beside that COMMIT, and an UPDATE would not see (nor wait for) a row not committed yet.
  if (updates.size > 0) await previousCommitted;
  await updateOrders(tx, [...updates.values()]);
  // Orders that ended in this batch without a fill: a market maker's quote among them keeps no row.
  const unfilledEnds: number[] = [];
  for (const [id, status, , , filled] of updates.values())
    if (filled === 0 && (status === 'cancelled' || status === 'rejected')) unfilledEnds.push(id);
  await dropUnfilledQuotes(tx, unfilledEnds);
  await projectKeys(tx, keys);
  await insertRows(
    tx,
    `INSERT INTO trades (id, seq, instrument_id, price_ticks, qty_lots, taker_side, maker_order_id, taker_order_id,
       maker_user_id, taker_user_id, notional, maker_fee, taker_fee, at)`,
    [
      'bigint',
      'bigint',
      'text',
      'bigint',
      'bigint',
      'text',
      'bigint',
      'bigint',
      'text',
      'text',
      'numeric',
      'numeric',
      'numeric',
      'bigint',
    ],
    trades,
    `ON CONFLICT (id) DO NOTHING`,
  );
}

/** `($1, $2, …)`: one row of `width` parameters (SQLite's one-row statements). */
const oneRow = (width: number) => `(${Array.from({ length: width }, (_, c) => `$${c + 1}`).join(', ')})`;

/** Rows → one array per column, for PostgreSQL's unnest (one parameter per column, any row count). */
export function columnsOf(rows: readonly Param[][], width: number): ParamArray[] {
  const columns: (string | number | null)[][] = Array.from({ length: width }, () => new Array(rows.length));
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (let c = 0; c < width; c++) columns[c]![r] = row[c] as string | number | null;
  }
  return columns;
}

/** `unnest($1::bigint[], $2::text[], …)`: the same text whatever the batch size, so PostgreSQL parses little. */
export const unnestOf = (types: readonly string[]) =>
  `unnest(${types.map((type, k) => `$${k + 1}::${type}[]`).join(', ')})`;

/** Each statement's text, built once. */
const statements = new Map<string, string>();
const statement = (key: string, build: () => string) => {
  let text = statements.get(key);
  if (text === undefined) {
    text = build();
    statements.set(key, text);
  }
  return text;
};

async function insertRows(
  tx: Sql,
  head: string,
  types: readonly string[],
  rows: Param[][],
  tail: string,
): Promise<void> {
  if (rows.length === 0) return;
  if (tx.dialect === 'sqlite') {
    const text = statement(`sqlite ${head}`, () => `${head} VALUES ${oneRow(types.length)} ${tail}`);
    for (const row of rows) await tx.run(text, row);
    return;
  }
  const text = statement(`pg ${head}`, () => `${head} SELECT * FROM ${unnestOf(types)} ${tail}`);
  await tx.run(text, columnsOf(rows, types.length));
}

/** The columns of an order update, as PostgreSQL types them. */
const UPDATE_TYPES = ['bigint', 'text', 'bigint', 'bigint', 'bigint', 'text', 'bigint', 'bigint'];

/** Sets each order's new state; a row only moves forward (its last_seq). */
async function updateOrders(tx: Sql, rows: Param[][]): Promise<void> {
  if (rows.length === 0) return;
  if (tx.dialect !== 'postgres') {
    for (const row of rows) {
      await tx.run(
        `UPDATE orders SET status = $2, price_ticks = $3, qty_lots = $4, filled_lots = $5, reason = $6, updated_at = $7,
           last_seq = $8 WHERE id = $1 AND last_seq <= $8`,
        row,
      );
    }
    return;
  }
  await tx.run(
    `UPDATE orders SET status = v.status, price_ticks = v.price_ticks, qty_lots = v.qty_lots,
       filled_lots = v.filled_lots, reason = v.reason, updated_at = v.updated_at, last_seq = v.last_seq
     FROM ${unnestOf(UPDATE_TYPES)} AS v (id, status, price_ticks, qty_lots, filled_lots, reason, updated_at, last_seq)
     WHERE orders.id = v.id AND orders.last_seq <= v.last_seq`,
    columnsOf(rows, UPDATE_TYPES.length),
  );
}
