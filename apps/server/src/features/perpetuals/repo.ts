// SQL of the perpetual contracts: the TP/SL the host holds (perp_triggers), the customer's liquidation,
// ADL and funding records (perp_records), and the funding instants applied (perp_funding_slots), all of
// migration 25. Orders and fills are read through the crypto exchange's readers (spot/repo.ts): the same
// read tables, another set of instrument ids.

import type { Sql } from '@bourse/db';

export type TriggerRow = {
  user_id: string;
  instrument_id: string;
  take_profit_ticks: number | null;
  stop_loss_ticks: number | null;
};

export const listTriggers = (db: Sql) =>
  db.query<TriggerRow>(
    'SELECT user_id, instrument_id, take_profit_ticks, stop_loss_ticks FROM perp_triggers ORDER BY user_id, instrument_id',
  );

export async function saveTrigger(
  db: Sql,
  row: { userId: string; instrumentId: string; tp: number | null; sl: number | null; at: number },
): Promise<void> {
  if (row.tp === null && row.sl === null) {
    await deleteTrigger(db, row.userId, row.instrumentId);
    return;
  }
  await db.run(
    `INSERT INTO perp_triggers (user_id, instrument_id, take_profit_ticks, stop_loss_ticks, updated_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (user_id, instrument_id) DO UPDATE SET take_profit_ticks = $3, stop_loss_ticks = $4, updated_at = $5`,
    [row.userId, row.instrumentId, row.tp, row.sl, row.at],
  );
}

export const deleteTrigger = async (db: Sql, userId: string, instrumentId: string) => {
  await db.run('DELETE FROM perp_triggers WHERE user_id = $1 AND instrument_id = $2', [userId, instrumentId]);
};

export type RecordKind = 'liquidation' | 'adl' | 'funding';

export type PerpRecord = {
  key: string;
  userId: string;
  instrumentId: string;
  kind: RecordKind;
  side: 'long' | 'short';
  sizeLots: number;
  priceTicks: number;
  bankruptcyTicks: number;
  ratePpm: number;
  amount: bigint;
  insuranceFund: bigint;
  at: number;
};

export type PerpRecordRow = {
  id: number;
  user_id: string;
  instrument_id: string;
  kind: RecordKind;
  side: 'long' | 'short';
  size_lots: number;
  price_ticks: number;
  bankruptcy_ticks: number;
  rate_ppm: number;
  amount: string;
  insurance_fund: string;
  at: number;
};

/** Records of one command's result; a repeat of the same key (a retried write) is ignored. */
export async function insertRecords(db: Sql, records: readonly PerpRecord[]): Promise<void> {
  for (const r of records) {
    await db.run(
      `INSERT INTO perp_records (record_key, user_id, instrument_id, kind, side, size_lots, price_ticks, bankruptcy_ticks,
         rate_ppm, amount, insurance_fund, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (record_key) DO NOTHING`,
      [
        r.key,
        r.userId,
        r.instrumentId,
        r.kind,
        r.side,
        r.sizeLots,
        r.priceTicks,
        r.bankruptcyTicks,
        r.ratePpm,
        r.amount.toString(),
        r.insuranceFund.toString(),
        r.at,
      ],
    );
  }
}

const RECORD_COLUMNS =
  'id, user_id, instrument_id, kind, side, size_lots, price_ticks, bankruptcy_ticks, rate_ppm, amount, insurance_fund, at';

/** A customer's records of some kinds (or everyone's, userId null: the console), newest first. */
export async function listRecords(
  db: Sql,
  userId: string | null,
  kinds: readonly RecordKind[],
  instrumentIds: readonly string[],
  limit: number,
  offset: number,
): Promise<{ rows: PerpRecordRow[]; total: number }> {
  const params: (string | number)[] = [];
  const where: string[] = [];
  if (userId !== null) {
    params.push(userId);
    where.push(`user_id = $${params.length}`);
  }
  where.push(`kind IN (${kinds.map((k) => `$${params.push(k)}`).join(', ')})`);
  where.push(`instrument_id IN (${instrumentIds.map((i) => `$${params.push(i)}`).join(', ')})`);
  const clause = where.join(' AND ');
  const total = (await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM perp_records WHERE ${clause}`, params))[0]?.n;
  const rows = await db.query<PerpRecordRow>(
    `SELECT ${RECORD_COLUMNS} FROM perp_records WHERE ${clause} ORDER BY id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { rows, total: Number(total ?? 0) };
}

export type LiquidationRow = {
  record_key: string;
  user_id: string;
  instrument_id: string;
  kind: 'liquidation' | 'adl';
  insurance_fund: string;
  at: number;
};

/** Everyone's newest liquidation and ADL rows, for the console (newest first). */
export const newestLiquidationRows = (db: Sql, limit: number) =>
  db.query<LiquidationRow>(
    `SELECT record_key, user_id, instrument_id, kind, insurance_fund, at FROM perp_records
     WHERE kind IN ('liquidation', 'adl') ORDER BY id DESC LIMIT $1`,
    [limit],
  );

/** The latest funding instant applied per contract. */
export const lastFundingSlots = (db: Sql) =>
  db.query<{ instrument_id: string; slot_at: number }>(
    'SELECT instrument_id, MAX(slot_at) AS slot_at FROM perp_funding_slots GROUP BY instrument_id',
  );

export async function saveFundingSlot(
  db: Sql,
  row: { instrumentId: string; slotAt: number; ratePpm: number; markTicks: number; paid: bigint },
): Promise<void> {
  await db.run(
    `INSERT INTO perp_funding_slots (instrument_id, slot_at, rate_ppm, mark_ticks, paid) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (instrument_id, slot_at) DO NOTHING`,
    [row.instrumentId, row.slotAt, row.ratePpm, row.markTicks, row.paid.toString()],
  );
}

export type ClosedPositionRow = {
  id: number;
  instrument_id: string;
  side: 'long' | 'short';
  opened_at: number;
  closed_at: number;
  reason: 'closed' | 'liquidated' | 'adl';
  max_lots: number;
  open_lots: number;
  open_notional: string;
  close_lots: number;
  close_notional: string;
  realised_pnl: string;
  fees: string;
  funding: string;
};

/** A customer's closed positions (perp_positions, position-history.ts), newest first. */
export async function listClosedPositions(
  db: Sql,
  userId: string,
  instrumentIds: readonly string[],
  limit: number,
  offset: number,
): Promise<{ rows: ClosedPositionRow[]; total: number }> {
  const ids = instrumentIds.map((_, i) => `$${i + 2}`).join(', ');
  const clause = `user_id = $1 AND closed_at IS NOT NULL AND instrument_id IN (${ids})`;
  const params = [userId, ...instrumentIds];
  const total = (await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM perp_positions WHERE ${clause}`, params))[0]
    ?.n;
  const rows = await db.query<ClosedPositionRow>(
    `SELECT id, instrument_id, side, opened_at, closed_at, reason, max_lots, open_lots, open_notional, close_lots,
       close_notional, realised_pnl, fees, funding
     FROM perp_positions WHERE ${clause} ORDER BY closed_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { rows, total: Number(total ?? 0) };
}
