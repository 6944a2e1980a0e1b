// SQL of withdrawals: the address book, the life cycle with its transition table and append-only
// history, and the payout outbox. Plain rows; the rules live in service.ts and payouts.ts. Each function
// takes the handle its caller passes (the pool or a transaction).

import type { WithdrawalRail, WithdrawalState } from '@bourse/contract';
import type { Sql } from '@bourse/db';

// --- the address book ---

export type AddressRow = {
  id: number;
  user_id: number;
  asset: string;
  network: string;
  address: string;
  label: string;
  created_at: number;
  deleted_at: number | null;
};

const addressOf = (r: AddressRow): AddressRow => ({
  ...r,
  id: Number(r.id),
  user_id: Number(r.user_id),
  created_at: Number(r.created_at),
  deleted_at: r.deleted_at === null ? null : Number(r.deleted_at),
});

export const liveAddresses = async (db: Sql, userId: number, asset?: string) =>
  (
    await db.query<AddressRow>(
      `SELECT * FROM withdraw_addresses WHERE user_id = $1 AND deleted_at IS NULL ${asset ? 'AND asset = $2' : ''}
       ORDER BY created_at DESC, id DESC`,
      asset ? [userId, asset] : [userId],
    )
  ).map(addressOf);

export const findLiveAddress = async (db: Sql, userId: number, id: number) => {
  const rows = await db.query<AddressRow>(
    'SELECT * FROM withdraw_addresses WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL',
    [id, userId],
  );
  return rows[0] && addressOf(rows[0]);
};

export async function insertAddress(db: Sql, r: Omit<AddressRow, 'id' | 'deleted_at'>): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO withdraw_addresses (user_id, asset, network, address, label, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [r.user_id, r.asset, r.network, r.address, r.label, r.created_at],
  );
  return Number(rows[0]!.id);
}

export const softDeleteAddress = (db: Sql, userId: number, id: number, now: number) =>
  db.run('UPDATE withdraw_addresses SET deleted_at = $3 WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL', [
    id,
    userId,
    now,
  ]);

/** The newest created_at, deleted rows included: deleting an address does not lift the lock. */
export const newestAddressCreatedAt = async (db: Sql, userId: number) =>
  Number(
    (
      await db.query<{ at: number | null }>('SELECT MAX(created_at) AS at FROM withdraw_addresses WHERE user_id = $1', [
        userId,
      ])
    )[0]?.at ?? 0,
  );

// --- withdrawals ---

export type WithdrawalRow = {
  id: number;
  user_id: number;
  rail: WithdrawalRail;
  asset: string;
  network: string | null;
  wallet: string;
  amount: string;
  fee: string;
  bank_account_id: number | null;
  address_id: number | null;
  destination: string;
  payout_to: string;
  status: WithdrawalState;
  reason: string;
  payout_ref: string;
  request_key: string | null;
  request_body: string;
  created_at: number;
  updated_at: number;
};

const withdrawalOf = (r: WithdrawalRow): WithdrawalRow => ({
  ...r,
  id: Number(r.id),
  user_id: Number(r.user_id),
  bank_account_id: r.bank_account_id === null ? null : Number(r.bank_account_id),
  address_id: r.address_id === null ? null : Number(r.address_id),
  created_at: Number(r.created_at),
  updated_at: Number(r.updated_at),
});

export async function insertWithdrawal(
  db: Sql,
  r: Omit<WithdrawalRow, 'id' | 'reason' | 'payout_ref' | 'status' | 'updated_at'>,
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO withdrawals (user_id, rail, asset, network, wallet, amount, fee, bank_account_id, address_id,
       destination, payout_to, status, request_key, request_body, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'requested', $12, $13, $14, $14) RETURNING id`,
    [
      r.user_id,
      r.rail,
      r.asset,
      r.network,
      r.wallet,
      r.amount,
      r.fee,
      r.bank_account_id,
      r.address_id,
      r.destination,
      r.payout_to,
      r.request_key,
      r.request_body,
      r.created_at,
    ],
  );
  return Number(rows[0]!.id);
}

/** A withdrawal whose hold the engine refused: nothing happened, so nothing of it is kept. */
export const deleteRequested = (db: Sql, id: number) =>
  db.run(`DELETE FROM withdrawals WHERE id = $1 AND status = 'requested'`, [id]);

export const findWithdrawal = async (db: Sql, id: number) => {
  const rows = await db.query<WithdrawalRow>('SELECT * FROM withdrawals WHERE id = $1', [id]);
  return rows[0] && withdrawalOf(rows[0]);
};

export const findByRequestKey = async (db: Sql, userId: number, key: string) => {
  const rows = await db.query<WithdrawalRow>('SELECT * FROM withdrawals WHERE user_id = $1 AND request_key = $2', [
    userId,
    key,
  ]);
  return rows[0] && withdrawalOf(rows[0]);
};

export async function listForUser(
  db: Sql,
  userId: number,
  crypto: boolean,
  limit: number,
  offset: number,
): Promise<{ rows: WithdrawalRow[]; total: number }> {
  const rail = crypto ? "rail = 'crypto'" : "rail <> 'crypto'";
  const rows = await db.query<WithdrawalRow>(
    `SELECT * FROM withdrawals WHERE user_id = $1 AND ${rail} AND status <> 'requested' ORDER BY id DESC LIMIT $2 OFFSET $3`,
    [userId, limit, offset],
  );
  const total = await db.query<{ n: number }>(
    `SELECT COUNT(*) AS n FROM withdrawals WHERE user_id = $1 AND ${rail} AND status <> 'requested'`,
    [userId],
  );
  return { rows: rows.map(withdrawalOf), total: Number(total[0]?.n ?? 0) };
}

export const listByStatus = async (db: Sql, statuses: readonly WithdrawalState[], limit = 200) =>
  (
    await db.query<WithdrawalRow>(
      `SELECT * FROM withdrawals WHERE status IN (${statuses.map((_, i) => `$${i + 1}`).join(', ')})
       ORDER BY id DESC LIMIT ${Math.floor(limit)}`,
      [...statuses],
    )
  ).map(withdrawalOf);

/** Requests older than `before` still in `requested`: a crash came between their insert and their hold. */
export const staleRequested = async (db: Sql, before: number) =>
  (
    await db.query<WithdrawalRow>(
      `SELECT * FROM withdrawals WHERE status = 'requested' AND created_at < $1 ORDER BY id`,
      [before],
    )
  ).map(withdrawalOf);

export async function transitionAllowed(db: Sql, from: WithdrawalState, to: WithdrawalState): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM withdrawal_transitions WHERE from_status = $1 AND to_status = $2', [
    from,
    to,
  ]);
  return rows.length > 0;
}

/**
 * Moves a withdrawal from `from` to `to` if it is still in `from` (a compare-and-set: of two racing
 * deciders one wins) and records the step in its history. Answers whether it moved.
 */
export async function setStatus(
  db: Sql,
  id: number,
  from: WithdrawalState,
  to: WithdrawalState,
  at: number,
  extra: { reason?: string; staffId?: number | null; payoutRef?: string } = {},
): Promise<boolean> {
  const n = await db.run(
    `UPDATE withdrawals SET status = $3, updated_at = $4, reason = CASE WHEN CAST($5 AS TEXT) = '' THEN reason ELSE CAST($5 AS TEXT) END,
       payout_ref = CASE WHEN CAST($6 AS TEXT) = '' THEN payout_ref ELSE CAST($6 AS TEXT) END
     WHERE id = $1 AND status = $2`,
    [id, from, to, at, extra.reason ?? '', extra.payoutRef ?? ''],
  );
  if (!n) return false;
  await recordStep(db, id, from, to, at, extra.reason ?? '', extra.staffId ?? null);
  return true;
}

export const recordStep = (
  db: Sql,
  id: number,
  from: WithdrawalState | null,
  to: WithdrawalState,
  at: number,
  reason: string,
  staffId: number | null,
) =>
  db.run(
    'INSERT INTO withdrawal_events (withdrawal_id, from_status, to_status, at, reason, staff_id) VALUES ($1, $2, $3, $4, $5, $6)',
    [id, from, to, at, reason, staffId],
  );

export type StepRow = { withdrawal_id: number; to_status: WithdrawalState; at: number; reason: string };

export async function historyOf(db: Sql, ids: readonly number[]): Promise<Map<number, StepRow[]>> {
  const out = new Map<number, StepRow[]>();
  if (ids.length === 0) return out;
  const rows = await db.query<StepRow>(
    `SELECT withdrawal_id, to_status, at, reason FROM withdrawal_events
     WHERE withdrawal_id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')}) ORDER BY id`,
    [...ids],
  );
  for (const r of rows) {
    const id = Number(r.withdrawal_id);
    const list = out.get(id) ?? [];
    list.push({ ...r, withdrawal_id: id, at: Number(r.at) });
    out.set(id, list);
  }
  return out;
}

// --- the payout outbox ---

export type OutboxRow = {
  withdrawal_id: number;
  idempotency_key: string;
  rail: WithdrawalRail;
  status: 'pending' | 'done';
  attempts: number;
  last_error: string;
};

/** Written in the same transaction as the approval: an approved withdrawal always has its payout due. */
export const enqueuePayout = (db: Sql, withdrawalId: number, key: string, rail: WithdrawalRail, at: number) =>
  db.run(
    `INSERT INTO payout_outbox (withdrawal_id, idempotency_key, rail, status, created_at, updated_at)
     VALUES ($1, $2, $3, 'pending', $4, $4)`,
    [withdrawalId, key, rail, at],
  );

export const pendingPayouts = async (db: Sql) =>
  (
    await db.query<OutboxRow>(`SELECT * FROM payout_outbox WHERE status = 'pending' ORDER BY withdrawal_id LIMIT 100`)
  ).map((r) => ({ ...r, withdrawal_id: Number(r.withdrawal_id), attempts: Number(r.attempts) }));

export const markPayoutDone = (db: Sql, withdrawalId: number, at: number) =>
  db.run(`UPDATE payout_outbox SET status = 'done', updated_at = $2 WHERE withdrawal_id = $1`, [withdrawalId, at]);

export const notePayoutAttempt = (db: Sql, withdrawalId: number, error: string, at: number) =>
  db.run(
    'UPDATE payout_outbox SET attempts = attempts + 1, last_error = $2, updated_at = $3 WHERE withdrawal_id = $1',
    [withdrawalId, error.slice(0, 500), at],
  );

// --- what the finance desk shows of a customer ---

export type CustomerFacts = {
  id: number;
  phone: string;
  id_status: 'none' | 'pending' | 'succ' | 'fail';
  created_at: number;
};

export async function customers(db: Sql, ids: readonly number[]): Promise<Map<number, CustomerFacts>> {
  const out = new Map<number, CustomerFacts>();
  if (ids.length === 0) return out;
  const rows = await db.query<CustomerFacts>(
    `SELECT id, phone, id_status, created_at FROM users WHERE id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})`,
    [...ids],
  );
  for (const r of rows) out.set(Number(r.id), { ...r, id: Number(r.id), created_at: Number(r.created_at) });
  return out;
}
