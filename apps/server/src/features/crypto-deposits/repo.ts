// SQL of crypto deposits: deposit addresses (one per customer and network, at a derivation index
// allocated once), deposits and their transition table. Plain rows; the rules live in service.ts and
// watcher.ts. Amounts are minor units (text in SQLite, NUMERIC in PostgreSQL), read back as bigint.

import type { CryptoDepositStatus } from '@bourse/contract';
import type { Sql } from '@bourse/db';

export type DepositAddressRow = {
  id: number;
  user_id: number;
  network: string;
  derivation_index: number;
  address: string;
};

export type DepositRow = {
  id: number;
  user_id: number;
  network: string;
  asset: string;
  address: string;
  txid: string;
  output_index: number;
  amount_minor: bigint;
  confirmations: number;
  status: CryptoDepositStatus;
  reason: string;
  transfer_id: string | null;
  seen_at: number;
  updated_at: number;
  credited_at: number | null;
};

type RawDeposit = Omit<DepositRow, 'amount_minor'> & { amount_minor: string | number };

const DEPOSIT_COLUMNS =
  'id, user_id, network, asset, address, txid, output_index, amount_minor, confirmations, status, reason, transfer_id, seen_at, updated_at, credited_at';

function depositOf(r: RawDeposit): DepositRow {
  return {
    ...r,
    id: Number(r.id),
    user_id: Number(r.user_id),
    output_index: Number(r.output_index),
    amount_minor: BigInt(r.amount_minor),
    confirmations: Number(r.confirmations),
    seen_at: Number(r.seen_at),
    updated_at: Number(r.updated_at),
    credited_at: r.credited_at === null ? null : Number(r.credited_at),
  };
}

function addressOf(r: DepositAddressRow): DepositAddressRow {
  return { ...r, id: Number(r.id), user_id: Number(r.user_id), derivation_index: Number(r.derivation_index) };
}

export async function addressFor(db: Sql, userId: number, network: string): Promise<DepositAddressRow | undefined> {
  const rows = await db.query<DepositAddressRow>(
    'SELECT id, user_id, network, derivation_index, address FROM crypto_deposit_addresses WHERE user_id = $1 AND network = $2',
    [userId, network],
  );
  return rows[0] && addressOf(rows[0]);
}

/** The next unallocated derivation index of a network (0 for the first). */
export async function nextDerivationIndex(db: Sql, network: string): Promise<number> {
  const rows = await db.query<{ n: number | string | null }>(
    'SELECT MAX(derivation_index) AS n FROM crypto_deposit_addresses WHERE network = $1',
    [network],
  );
  const max = rows[0]?.n;
  return max === null || max === undefined ? 0 : Number(max) + 1;
}

/**
 * Records an address unless the customer already has one on the network or the index was taken by
 * another customer meanwhile (both unique): whether this row went in.
 */
export async function insertAddress(
  db: Sql,
  a: { userId: number; network: string; index: number; address: string; at: number },
): Promise<boolean> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO crypto_deposit_addresses (user_id, network, derivation_index, address, created_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING id`,
    [a.userId, a.network, a.index, a.address, a.at],
  );
  return rows.length > 0;
}

/** Every deposit address of a network, for the watcher. */
export async function addressesOn(db: Sql, network: string): Promise<DepositAddressRow[]> {
  const rows = await db.query<DepositAddressRow>(
    'SELECT id, user_id, network, derivation_index, address FROM crypto_deposit_addresses WHERE network = $1 ORDER BY id',
    [network],
  );
  return rows.map(addressOf);
}

export async function transitionAllowed(db: Sql, from: CryptoDepositStatus | 'none', to: CryptoDepositStatus) {
  const rows = await db.query('SELECT 1 FROM crypto_deposit_transitions WHERE from_status = $1 AND to_status = $2', [
    from,
    to,
  ]);
  return rows.length > 0;
}

/** Records a deposit once per (network, txid, output index): its id, or null when it was already there. */
export async function insertDeposit(
  db: Sql,
  d: {
    userId: number;
    network: string;
    asset: string;
    address: string;
    txid: string;
    outputIndex: number;
    amountMinor: bigint;
    confirmations: number;
    status: CryptoDepositStatus;
    reason: string;
    at: number;
  },
): Promise<number | null> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO crypto_deposits
       (user_id, network, asset, address, txid, output_index, amount_minor, confirmations, status, reason, seen_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
     ON CONFLICT (network, txid, output_index) DO NOTHING RETURNING id`,
    [
      d.userId,
      d.network,
      d.asset,
      d.address,
      d.txid,
      d.outputIndex,
      d.amountMinor.toString(),
      d.confirmations,
      d.status,
      d.reason,
      d.at,
    ],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/** Deposits of a network still waiting for confirmations. */
export async function openDeposits(db: Sql, network: string): Promise<DepositRow[]> {
  const rows = await db.query<RawDeposit>(
    `SELECT ${DEPOSIT_COLUMNS} FROM crypto_deposits WHERE network = $1 AND status IN ('seen', 'confirming') ORDER BY id`,
    [network],
  );
  return rows.map(depositOf);
}

/** Moves a deposit from `from` to `to` (with its confirmations); false if it was no longer in `from`. */
export async function moveDeposit(
  db: Sql,
  id: number,
  from: CryptoDepositStatus,
  change: {
    to: CryptoDepositStatus;
    confirmations: number;
    at: number;
    reason?: string;
    transferId?: string;
  },
): Promise<boolean> {
  const credited = change.to === 'credited';
  const rows = await db.query<{ id: number }>(
    `UPDATE crypto_deposits SET status = $3, confirmations = $4, updated_at = $5,
       reason = COALESCE($6, reason), transfer_id = COALESCE($7, transfer_id),
       credited_at = CASE WHEN $8 = 1 THEN $5 ELSE credited_at END
     WHERE id = $1 AND status = $2 RETURNING id`,
    [
      id,
      from,
      change.to,
      change.confirmations,
      change.at,
      change.reason ?? null,
      change.transferId ?? null,
      credited ? 1 : 0,
    ],
  );
  return rows.length > 0;
}

export async function depositById(db: Sql, id: number): Promise<DepositRow | undefined> {
  const rows = await db.query<RawDeposit>(`SELECT ${DEPOSIT_COLUMNS} FROM crypto_deposits WHERE id = $1`, [id]);
  return rows[0] && depositOf(rows[0]);
}

export async function depositByTx(db: Sql, network: string, txid: string): Promise<DepositRow[]> {
  const rows = await db.query<RawDeposit>(
    `SELECT ${DEPOSIT_COLUMNS} FROM crypto_deposits WHERE network = $1 AND LOWER(txid) = LOWER($2) ORDER BY output_index`,
    [network, txid],
  );
  return rows.map(depositOf);
}

/** A customer's deposits, newest first, one page, optionally of one asset; and how many there are. */
export async function depositsOf(
  db: Sql,
  userId: number,
  page: { offset: number; limit: number; asset?: string | undefined },
): Promise<{ rows: DepositRow[]; total: number }> {
  const filter = page.asset ? 'AND asset = $2' : '';
  const params = page.asset ? [userId, page.asset] : [userId];
  const n = params.length;
  const rows = await db.query<RawDeposit>(
    `SELECT ${DEPOSIT_COLUMNS} FROM crypto_deposits WHERE user_id = $1 ${filter}
     ORDER BY id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...params, page.limit, page.offset],
  );
  const count = await db.query<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM crypto_deposits WHERE user_id = $1 ${filter}`,
    params,
  );
  return { rows: rows.map(depositOf), total: Number(count[0]?.n ?? 0) };
}
