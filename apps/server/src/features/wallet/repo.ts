// SQL for the wallet's reads of the ledger read table (written by the engine's projector only). Returns
// plain rows; formatting amounts and naming the counterparty stay in service.ts.

import type { Sql } from '@bourse/db';

export type TransferRow = {
  transfer_id: string;
  at: number;
  debit: string;
  credit: string;
  debit_owner: string;
  asset: string;
  amount: string;
  cause: string;
  link: string;
};

/** A user's ledger lines, newest first, optionally of one asset, one of their wallets, one cause, or one transfer id. */
export async function listUserTransfers(
  db: Sql,
  owner: string,
  q: {
    asset?: string | undefined;
    wallet?: string | undefined;
    cause?: string | undefined;
    id?: string | undefined;
  },
  limit: number,
  offset: number,
) {
  const where = ['(debit_owner = $1 OR credit_owner = $1)'];
  const params: (string | number)[] = [owner];
  if (q.asset) {
    params.push(q.asset);
    where.push(`asset = $${params.length}`);
  }
  if (q.cause) {
    params.push(q.cause);
    where.push(`cause = $${params.length}`);
  }
  if (q.id) {
    params.push(q.id);
    where.push(`transfer_id = $${params.length}`);
  }
  if (q.wallet) {
    // One wallet or a comma-separated few (the crypto records: spot and contract).
    const either = q.wallet.split(',').map((wallet) => {
      params.push(`${owner}/${wallet.trim()}/%`);
      return `debit LIKE $${params.length} OR credit LIKE $${params.length}`;
    });
    where.push(`(${either.join(' OR ')})`);
  }
  const clause = where.join(' AND ');
  const total =
    (await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ledger_transfers WHERE ${clause}`, params))[0]?.n ?? 0;
  const rows = await db.query<TransferRow>(
    `SELECT * FROM ledger_transfers WHERE ${clause} ORDER BY seq DESC, transfer_id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { rows, total: Number(total) };
}

/** Every ledger line of a user before `beforeMs`, oldest first (a statement sums them exactly). */
export async function userTransfersBefore(db: Sql, owner: string, beforeMs: number): Promise<TransferRow[]> {
  return db.query<TransferRow>(
    `SELECT * FROM ledger_transfers WHERE (debit_owner = $1 OR credit_owner = $1) AND at < $2 ORDER BY seq, transfer_id`,
    [owner, beforeMs],
  );
}
