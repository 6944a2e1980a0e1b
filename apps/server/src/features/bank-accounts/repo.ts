// SQL for the customer's bank accounts. Returns plain rows; no business rules here.

import type { Sql } from '@bourse/db';

export type BankAccountRow = {
  id: number;
  user_id: number;
  country: 'IN' | 'BR';
  holder_name: string;
  bank_name: string;
  account_number: string;
  ifsc: string | null;
  branch: string | null;
  pix_key: string | null;
  tax_id: string | null;
  created_at: number;
  deleted_at: number | null;
};

export const listLive = (db: Sql, userId: number) =>
  db.query<BankAccountRow>(
    'SELECT * FROM bank_accounts WHERE user_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC',
    [userId],
  );

export const findLive = async (db: Sql, userId: number, id: number) =>
  (
    await db.query<BankAccountRow>(
      'SELECT * FROM bank_accounts WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL',
      [id, userId],
    )
  )[0];

/** The newest created_at, deleted rows included: deleting an account does not lift the lock. */
export const newestCreatedAt = async (db: Sql, userId: number) =>
  Number(
    (
      await db.query<{ at: number | null }>('SELECT MAX(created_at) AS at FROM bank_accounts WHERE user_id = $1', [
        userId,
      ])
    )[0]?.at ?? 0,
  );

export async function insert(db: Sql, r: Omit<BankAccountRow, 'id' | 'deleted_at'>): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO bank_accounts (user_id, country, holder_name, bank_name, account_number, ifsc, branch, pix_key, tax_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [
      r.user_id,
      r.country,
      r.holder_name,
      r.bank_name,
      r.account_number,
      r.ifsc,
      r.branch,
      r.pix_key,
      r.tax_id,
      r.created_at,
    ],
  );
  return Number(rows[0]!.id);
}

export const softDelete = (db: Sql, userId: number, id: number, now: number) =>
  db.run('UPDATE bank_accounts SET deleted_at = $3 WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL', [
    id,
    userId,
    now,
  ]);
