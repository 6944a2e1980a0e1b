// SQL for exchange quotes and their transition table. Plain rows; the rules live in service.ts.

import type { Sql } from '@bourse/db';

export type QuoteStatus = 'quoted' | 'accepted' | 'expired';
export type QuoteRow = {
  id: number;
  user_id: number;
  wallet: string;
  from_asset: string;
  to_asset: string;
  amount: string;
  receive: string;
  spread_cost: string;
  mid_rate: string;
  rate: string;
  spread_bps: number;
  status: QuoteStatus;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
};

const COLUMNS =
  'id, user_id, wallet, from_asset, to_asset, amount, receive, spread_cost, mid_rate, rate, spread_bps, status, created_at, expires_at, decided_at';

function toRow(r: QuoteRow): QuoteRow {
  return {
    ...r,
    id: Number(r.id),
    user_id: Number(r.user_id),
    spread_bps: Number(r.spread_bps),
    created_at: Number(r.created_at),
    expires_at: Number(r.expires_at),
    decided_at: r.decided_at === null ? null : Number(r.decided_at),
  };
}

export async function insertQuote(db: Sql, q: Omit<QuoteRow, 'id' | 'status' | 'decided_at'>): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO exchange_quotes (user_id, wallet, from_asset, to_asset, amount, receive, spread_cost, mid_rate, rate, spread_bps, status, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'quoted', $11, $12) RETURNING id`,
    [
      q.user_id,
      q.wallet,
      q.from_asset,
      q.to_asset,
      q.amount,
      q.receive,
      q.spread_cost,
      q.mid_rate,
      q.rate,
      q.spread_bps,
      q.created_at,
      q.expires_at,
    ],
  );
  return Number(rows[0]?.id);
}

/** The quote if it is this customer's (another customer's reads as none). */
export async function findQuote(db: Sql, id: number, userId: number): Promise<QuoteRow | undefined> {
  const rows = await db.query<QuoteRow>(`SELECT ${COLUMNS} FROM exchange_quotes WHERE id = $1 AND user_id = $2`, [
    id,
    userId,
  ]);
  return rows[0] && toRow(rows[0]);
}

export async function transitionAllowed(db: Sql, from: QuoteStatus, to: QuoteStatus): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM exchange_quote_transitions WHERE from_status = $1 AND to_status = $2', [
    from,
    to,
  ]);
  return rows.length > 0;
}

/** Moves a quote from `from` to `to`; false when it was no longer in `from` (someone else moved it). */
export async function moveQuote(db: Sql, id: number, from: QuoteStatus, to: QuoteStatus, at: number) {
  return (
    (await db.run('UPDATE exchange_quotes SET status = $3, decided_at = $4 WHERE id = $1 AND status = $2', [
      id,
      from,
      to,
      at,
    ])) > 0
  );
}

/** Whether the ledger read table has this transfer (the projector writes it in the engine's commit). */
export async function transferExists(db: Sql, transferId: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM ledger_transfers WHERE transfer_id = $1', [transferId])).length > 0;
}
