// What a customer owns and how it got there: live balances from the engine (/user/assets) and the
// ledger lines from the read tables (/user/tx/record, the funds detail). Every line is a transfer.

import type { Db } from '@bourse/db';
import { formatDecimal } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';

type TransferRow = {
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

export class Wallets {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  constructor(db: Db, engine: TradingEngine) {
    this.#db = db;
    this.#engine = engine;
  }

  /** Minor units as a decimal at the asset's scale, as the engine registered it. */
  #fmt(minor: bigint, asset: string): string {
    return formatDecimal(minor, this.#engine.state.asset(asset)?.scale ?? 0);
  }

  assets(userId: number) {
    const owner = String(userId);
    return this.#engine.state
      .accounts()
      .filter((a) => a.owner === owner)
      .map((a) => ({
        wallet: a.wallet,
        asset: a.asset.code,
        balance: this.#fmt(a.balance, a.asset.code),
        held: this.#fmt(a.held, a.asset.code),
        available: this.#fmt(a.balance - a.held, a.asset.code),
      }));
  }

  async txRecord(
    userId: number,
    q: { page: number; limit: number; wallet?: string | undefined; asset?: string | undefined },
  ) {
    const owner = String(userId);
    const where = ['(debit_owner = $1 OR credit_owner = $1)'];
    const params: (string | number)[] = [owner];
    if (q.asset) {
      params.push(q.asset);
      where.push(`asset = $${params.length}`);
    }
    if (q.wallet) {
      params.push(`${owner}/${q.wallet}/%`);
      where.push(`(debit LIKE $${params.length} OR credit LIKE $${params.length})`);
    }
    const clause = where.join(' AND ');
    const total =
      (await this.#db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ledger_transfers WHERE ${clause}`, params))[0]
        ?.n ?? 0;
    const rows = await this.#db.query<TransferRow>(
      `SELECT * FROM ledger_transfers WHERE ${clause} ORDER BY seq DESC, transfer_id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, q.limit, (q.page - 1) * q.limit],
    );
    return {
      total: Number(total),
      items: rows.map((r) => {
        const outgoing = r.debit_owner === owner;
        const mine = outgoing ? r.debit : r.credit;
        const minor = BigInt(r.amount);
        return {
          id: r.transfer_id,
          at: Number(r.at),
          asset: r.asset,
          amount: this.#fmt(outgoing ? -minor : minor, r.asset),
          wallet: mine.split('/')[1] ?? '',
          cause: r.cause,
          link: r.link,
          counterparty: (outgoing ? r.credit : r.debit).split('/')[0] ?? '',
        };
      }),
    };
  }
}
