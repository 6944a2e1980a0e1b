// Owns which orders keep no row: a market maker's quote that ended without a fill (cancelled by a
// requote or the close, or refused) has its orders row deleted in the transaction that projects its end,
// and its id is added to unrecorded_order_ids, consecutive ids merged into one range.
// Must hold: every order id is in exactly one of orders and unrecorded_order_ids at any commit (the
// delete and the range change are one transaction), and ranges only grow, so the reconciliation can
// account for every id given out. Must not: drop a customer's order or a quote that traded (trades
// name it).

import type { Sql } from '@bourse/db';

/** The paper venue's liquidity accounts (marketMakerOf in adapters/venue/paper: `mm:<instrument>`). */
export const QUOTING_ACCOUNT_PREFIX = 'mm:';

/**
 * Deletes the rows of the orders among `ids` (each ended in this batch without a fill) that a market
 * maker placed, and records their ids as unrecorded. Run after the batch's order updates.
 */
export async function dropUnfilledQuotes(tx: Sql, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const dropped: number[] = [];
  if (tx.dialect === 'postgres') {
    const rows = await tx.query<{ id: unknown }>(
      `DELETE FROM orders WHERE id = ANY($1::bigint[]) AND user_id LIKE '${QUOTING_ACCOUNT_PREFIX}%' RETURNING id`,
      [ids],
    );
    for (const row of rows) dropped.push(Number(row.id));
  } else {
    for (const id of ids) {
      const rows = await tx.query<{ id: unknown }>(
        `DELETE FROM orders WHERE id = $1 AND user_id LIKE '${QUOTING_ACCOUNT_PREFIX}%' RETURNING id`,
        [id],
      );
      if (rows.length > 0) dropped.push(id);
    }
  }
  await addUnrecorded(tx, dropped);
}

/** Adds ids to the ranges, merging each run of consecutive ids with the ranges either side of it. */
export async function addUnrecorded(tx: Sql, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const sorted = [...ids].sort((a, b) => a - b);
  let k = 0;
  while (k < sorted.length) {
    const from = sorted[k]!;
    let to = from;
    while (k + 1 < sorted.length && sorted[k + 1]! <= to + 1) to = sorted[++k]!;
    k++;
    const [left] = await tx.query<{ from_id: unknown }>('SELECT from_id FROM unrecorded_order_ids WHERE to_id = $1', [
      from - 1,
    ]);
    const [right] = await tx.query<{ to_id: unknown }>('SELECT to_id FROM unrecorded_order_ids WHERE from_id = $1', [
      to + 1,
    ]);
    const start = left ? Number(left.from_id) : from;
    const end = right ? Number(right.to_id) : to;
    if (right) await tx.run('DELETE FROM unrecorded_order_ids WHERE from_id = $1', [to + 1]);
    if (left) await tx.run('UPDATE unrecorded_order_ids SET to_id = $2 WHERE from_id = $1', [start, end]);
    else await tx.run('INSERT INTO unrecorded_order_ids (from_id, to_id) VALUES ($1, $2)', [start, end]);
  }
}
