// The reconciliation's reading of the stored tables against the engine's figures at seq S: each account's
// transfers in ledger_transfers summed against its balance in the engine, the orders rows against the live
// orders, the orders and trades rows against the ids the engine had given out by S (every id from 1 to its
// last has a row, or for an order an unrecorded range), and the audit log's hash chain with the previous run's tip.
// Must hold: only rows as they were at S are compared (seq <= S; an order row whose last_seq <= S, which
// no command after S has touched), and it runs once every command through S is committed, so nothing
// written during a run shows as a discrepancy. Sums are exact (bigint, or PostgreSQL's NUMERIC). Memory:
// a sum per account the transfers name (on PostgreSQL, the query's answer of one row per such account),
// the live orders' ids, and one page of rows at a time; it grows with the accounts and the live orders,
// not with the transfers, trades, orders or audit entries.
// Must not: write anything, or reach the engine (it runs on a worker thread where the database allows).

import type { Discrepancy, ReconciliationReport } from '@bourse/contract';
import type { Dialect, Param, Row, Sql } from '@bourse/db';
import { assetOfAccountKey } from '@bourse/engine';
import { formatDecimal } from '@bourse/money';
import { type AuditTip, verifyChain } from '../staff/audit.ts';
import type { EngineFigures } from './engine-figures.ts';

/** What the checks read through: the server's own connection, or a reader's on a worker thread. */
export type Tables = {
  readonly dialect: Dialect;
  query<T extends Row = Row>(text: string, params?: readonly Param[]): Promise<T[]>;
};

export type TableFindings = {
  /** The first DISCREPANCIES_KEPT found; `discrepancyCount` counts them all. */
  discrepancies: Discrepancy[];
  discrepancyCount: number;
  transfers: number;
  trades: number;
  auditChain: ReconciliationReport['auditChain'];
  /** The newest audit entry read, for the next run to look for. */
  auditTip: AuditTip | null;
};

export const DISCREPANCIES_KEPT = 100;
/** Rows read per query where rows are paged through. */
export const PAGE_ROWS = 5_000;
/** Order ids per look-up of the live orders' rows. */
const IDS_PER_QUERY = 500;
const OPEN = ['pending', 'partial'];

/** The first DISCREPANCIES_KEPT discrepancies, and how many there were. */
class Found {
  readonly kept: Discrepancy[] = [];
  count = 0;

  add(d: Discrepancy): void {
    this.count += 1;
    if (this.kept.length < DISCREPANCIES_KEPT) this.kept.push(d);
  }

  /** `n` discrepancies, of which only those that will be kept are made. */
  addMany(n: number, make: (i: number) => Discrepancy): void {
    for (let i = 0; i < n && this.kept.length < DISCREPANCIES_KEPT; i++) this.kept.push(make(i));
    this.count += n;
  }
}

/**
 * Checks the tables against `figures`, and the audit log with `previousTip` (the previous run's, if any).
 * `pause` runs between pages: on the server's own thread it lets other work in (node:sqlite answers
 * synchronously), on a worker it does nothing.
 */
export async function checkTables(
  tables: Tables,
  figures: EngineFigures,
  previousTip: AuditTip | null,
  pause: () => Promise<void>,
): Promise<TableFindings> {
  const found = new Found();
  const transfers = await checkBalances(tables, figures, found, pause);
  const trades = await checkTrades(tables, figures.lastTradeId, found, pause);
  await checkOrders(tables, figures, found, pause);
  // verifyChain only reads (Sql's run is never called).
  const readOnly: Sql = {
    dialect: tables.dialect,
    query: (text, params) => tables.query(text, params),
    run: () => Promise.reject(new Error('the reconciliation only reads')),
  };
  const chain = await verifyChain(readOnly, previousTip);
  if (chain.firstBrokenId !== null) found.add({ kind: 'audit_chain_broken', auditId: chain.firstBrokenId });
  if (chain.tipChanged && previousTip !== null) found.add({ kind: 'audit_tip_changed', auditId: previousTip.id });
  return {
    discrepancies: found.kept,
    discrepancyCount: found.count,
    transfers,
    trades,
    auditChain: {
      ok: chain.firstBrokenId === null && !chain.tipChanged,
      firstBrokenId: chain.firstBrokenId,
      tipId: chain.tip?.id ?? null,
      previousTipId: previousTip?.id ?? null,
      previousTipChanged: chain.tipChanged,
    },
    auditTip: chain.tip,
  };
}

/** Every account's transfers up to S against its engine balance; returns how many transfers were summed. */
async function checkBalances(
  tables: Tables,
  figures: EngineFigures,
  found: Found,
  pause: () => Promise<void>,
): Promise<number> {
  const sums = new Map<string, bigint>();
  let transfers = 0;
  if (tables.dialect === 'postgres') {
    // NUMERIC sums exactly, and one row per account comes back.
    const rows = await tables.query<{ account: string; total: string; n: string | number }>(
      `SELECT account, SUM(delta)::text AS total, COUNT(*) AS n FROM (
         SELECT credit AS account, amount AS delta FROM ledger_transfers WHERE seq <= $1
         UNION ALL
         SELECT debit, -amount FROM ledger_transfers WHERE seq <= $1
       ) AS moves GROUP BY account`,
      [figures.seq],
    );
    for (const row of rows) {
      sums.set(row.account, BigInt(row.total));
      transfers += Number(row.n);
    }
    transfers /= 2; // each transfer is a debit and a credit
  } else {
    // SQLite keeps amounts as text and its SUM leaves exact integers past 2^63: summed here, page by page.
    let after = 0;
    for (;;) {
      const rows = await tables.query<{
        r: number;
        transfer_id: string;
        debit: string;
        credit: string;
        amount: string;
      }>(
        `SELECT rowid AS r, transfer_id, debit, credit, amount FROM ledger_transfers
         WHERE rowid > $1 AND seq <= $2 ORDER BY rowid LIMIT $3`,
        [after, figures.seq, PAGE_ROWS],
      );
      for (const row of rows) {
        const amount = String(row.amount);
        if (!/^-?\d+$/.test(amount)) {
          found.add({ kind: 'transfer_amount_invalid', transferId: row.transfer_id, amount });
          continue;
        }
        const minor = BigInt(amount);
        sums.set(row.debit, (sums.get(row.debit) ?? 0n) - minor);
        sums.set(row.credit, (sums.get(row.credit) ?? 0n) + minor);
      }
      transfers += rows.length;
      if (rows.length < PAGE_ROWS) break;
      after = Number(rows[rows.length - 1]!.r);
      await pause();
    }
  }
  const scaleOf = (key: string) => {
    const asset = assetOfAccountKey(key);
    return { asset, scale: figures.scales[asset] ?? 0 };
  };
  const mismatch = (key: string, engine: bigint, readModel: bigint) => {
    const { asset, scale } = scaleOf(key);
    found.add({
      kind: 'balance_mismatch',
      account: key,
      asset,
      engine: formatDecimal(engine, scale),
      readModel: formatDecimal(readModel, scale),
    });
  };
  const { accountKeys, balances } = figures;
  for (let i = 0; i < accountKeys.length; i++) {
    const key = accountKeys[i]!;
    const readModel = sums.get(key) ?? 0n;
    if (readModel !== balances[i]) mismatch(key, balances[i]!, readModel);
    sums.delete(key);
  }
  // Accounts the transfers name that the engine does not have.
  for (const [key, readModel] of sums) if (readModel !== 0n) mismatch(key, 0n, readModel);
  return transfers;
}

/**
 * The trades made by S are exactly those with ids 1 … the last the engine had given out by S (one per
 * trade, in order, each written with its command): a missing id is a lost row, the newest included.
 * Returns how many there are.
 */
async function checkTrades(
  tables: Tables,
  lastTradeId: number,
  found: Found,
  pause: () => Promise<void>,
): Promise<number> {
  const count = await countIds(tables, 'trades', lastTradeId);
  if (count < lastTradeId) {
    await findGaps(
      tables,
      'SELECT id FROM trades WHERE id > $1 AND id <= $2 ORDER BY id LIMIT $3',
      lastTradeId,
      found,
      (tradeId) => ({ kind: 'trade_row_missing', tradeId }),
      pause,
    );
  }
  return count;
}

/**
 * The orders rows against the engine's live orders at S: a live order's row, if no command after S has
 * touched it, has its status and fill; a row open as of S is live; and every id the engine had given out
 * by S (1 … its last order id) has a row, whether or not anything else names it.
 */
async function checkOrders(
  tables: Tables,
  figures: EngineFigures,
  found: Found,
  pause: () => Promise<void>,
): Promise<void> {
  const { seq, liveOrderIds, liveStatuses, liveFilledLots, lastOrderId } = figures;
  const live = new Map<number, number>(); // id → index in the figures
  for (let i = 0; i < liveOrderIds.length; i++) live.set(liveOrderIds[i]!, i);

  for (let from = 0; from < liveOrderIds.length; from += IDS_PER_QUERY) {
    const ids = liveOrderIds.slice(from, from + IDS_PER_QUERY);
    const rows = await tables.query<{ id: unknown; status: string; filled_lots: unknown; last_seq: unknown }>(
      `SELECT id, status, filled_lots, last_seq FROM orders WHERE id IN (${ids.map((_, k) => `$${k + 1}`).join(', ')})`,
      ids,
    );
    for (const row of rows) {
      if (Number(row.last_seq) > seq) continue; // changed after S: its row no longer says how it was at S
      const i = live.get(Number(row.id))!;
      const status = liveStatuses[i]!;
      const filled = liveFilledLots[i]!;
      if (row.status !== status) {
        found.add({ kind: 'order_status_mismatch', orderId: Number(row.id), readModel: row.status, engine: status });
      } else if (Number(row.filled_lots) !== filled) {
        found.add({
          kind: 'order_status_mismatch',
          orderId: Number(row.id),
          readModel: `${row.status} (${row.filled_lots} filled)`,
          engine: `${status} (${filled} filled)`,
        });
      }
    }
    await pause();
  }

  let after = 0;
  for (;;) {
    const rows = await tables.query<{ id: unknown; status: string }>(
      `SELECT id, status FROM orders WHERE id > $1 AND last_seq <= $2 AND status IN ($3, $4) ORDER BY id LIMIT $5`,
      [after, seq, ...OPEN, PAGE_ROWS],
    );
    for (const row of rows) {
      const id = Number(row.id);
      if (!live.has(id))
        found.add({ kind: 'order_status_mismatch', orderId: id, readModel: row.status, engine: 'closed' });
    }
    if (rows.length < PAGE_ROWS) break;
    after = Number(rows[rows.length - 1]!.id);
    await pause();
  }

  // Each order placed takes the next id and its row is written with its command, so ids 1 … lastOrderId
  // all have rows (a row placed by S may have changed since: its last_seq does not matter here), except
  // a market maker's quotes that ended without a fill: their rows are deleted and their ids recorded in
  // unrecorded_order_ids in one transaction (engine-host/unrecorded-orders.ts). An id is in one of the
  // two at every commit and only ever moves into the ranges, so the ranges counted before the rows can
  // miss an id that moved in between (the gap search below then finds it accounted for), never count one twice.
  const unrecorded = await countUnrecorded(tables, lastOrderId);
  if (unrecorded + (await countIds(tables, 'orders', lastOrderId)) < lastOrderId) {
    await findGaps(
      tables,
      'SELECT id FROM orders WHERE id > $1 AND id <= $2 ORDER BY id LIMIT $3',
      lastOrderId,
      found,
      (orderId) => ({ kind: 'order_row_missing', orderId }),
      pause,
      unrecordedRanges(tables),
    );
  }
}

/** How many ids 1 … `last` unrecorded_order_ids holds. */
async function countUnrecorded(tables: Tables, last: number): Promise<number> {
  const [row] = await tables.query<{ n: unknown }>(
    `SELECT COALESCE(SUM((CASE WHEN to_id > $1 THEN $1 ELSE to_id END) - from_id + 1), 0) AS n
     FROM unrecorded_order_ids WHERE from_id >= 1 AND from_id <= $1`,
    [last],
  );
  return Number(row?.n ?? 0);
}

/** The unrecorded ranges that meet [from, to], ascending: read after the rows of that span (see checkOrders). */
const unrecordedRanges =
  (tables: Tables) =>
  async (from: number, to: number): Promise<[number, number][]> =>
    (
      await tables.query<{ from_id: unknown; to_id: unknown }>(
        'SELECT from_id, to_id FROM unrecorded_order_ids WHERE to_id >= $1 AND from_id <= $2 ORDER BY from_id',
        [from, to],
      )
    ).map((r) => [Number(r.from_id), Number(r.to_id)]);

/** How many rows of `table` have ids 1 … `last` (one with an id below 1 would hide a lost one). */
async function countIds(tables: Tables, table: 'orders' | 'trades', last: number): Promise<number> {
  const [row] = await tables.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${table} WHERE id >= 1 AND id <= $1`, [
    last,
  ]);
  return Number(row?.n ?? 0);
}

/**
 * The ids from 1 to `top` that `select` (ids > $1 and <= $2, ascending, the page size as $3) does not
 * return and `accounted` (ranges of ids known to have no row, asked once a page's rows are read) does
 * not cover, each reported by `make`.
 */
async function findGaps(
  tables: Tables,
  select: string,
  top: number,
  found: Found,
  make: (id: number) => Discrepancy,
  pause: () => Promise<void>,
  accounted?: (from: number, to: number) => Promise<[number, number][]>,
): Promise<void> {
  let expected = 1;
  for (;;) {
    const rows = await tables.query<{ id: unknown }>(select, [expected - 1, top, PAGE_ROWS]);
    const gaps: [number, number][] = [];
    for (const row of rows) {
      const id = Number(row.id);
      if (id > expected) gaps.push([expected, id - 1]);
      expected = id + 1;
    }
    const last = rows.length < PAGE_ROWS;
    if (last && expected <= top) gaps.push([expected, top]);
    if (gaps.length > 0) {
      const ranges = accounted ? await accounted(gaps[0]![0], gaps[gaps.length - 1]![1]) : [];
      for (const [from, to] of subtract(gaps, ranges)) found.addMany(to - from + 1, (k) => make(from + k));
    }
    if (last) break;
    await pause();
  }
}

/** The parts of `gaps` that no range covers (both ascending, neither overlapping itself). */
function subtract(gaps: readonly [number, number][], ranges: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let r = 0;
  for (const [gapFrom, gapTo] of gaps) {
    let from = gapFrom;
    while (r < ranges.length && ranges[r]![1] < from) r++;
    let k = r;
    while (from <= gapTo && k < ranges.length && ranges[k]![0] <= gapTo) {
      const [rangeFrom, rangeTo] = ranges[k]!;
      if (rangeFrom > from) out.push([from, rangeFrom - 1]);
      from = Math.max(from, rangeTo + 1);
      k++;
    }
    if (from <= gapTo) out.push([from, gapTo]);
  }
  return out;
}
