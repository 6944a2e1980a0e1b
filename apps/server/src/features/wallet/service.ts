// What a customer owns and how it got there: live balances from the engine (/user/assets) and the
// ledger lines from the read tables (/user/tx/record, the funds detail). Every line is a transfer.

import type { Db } from '@bourse/db';
import { formatDecimal } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import * as repo from './repo.ts';
import type { LineNotes } from './statement.ts';

export class Wallets {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #notes: LineNotes | undefined;
  /** `notes`: what a line's source says about it (an adjustment's reason), shown with the line. */
  constructor(db: Db, engine: TradingEngine, notes?: LineNotes) {
    this.#db = db;
    this.#engine = engine;
    this.#notes = notes;
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
    q: {
      page: number;
      limit: number;
      wallet?: string | undefined;
      asset?: string | undefined;
      cause?: string | undefined;
      id?: string | undefined;
    },
  ) {
    const owner = String(userId);
    const { rows, total } = await repo.listUserTransfers(this.#db, owner, q, q.limit, (q.page - 1) * q.limit);
    const notes = this.#notes ? await this.#notes(userId, [...new Set(rows.map((r) => r.link))]) : new Map();
    const wallets = q.wallet?.split(',').map((w) => w.trim());
    return {
      total,
      items: rows.map((r) => {
        const note = notes.get(r.link);
        // Between two of the customer's own wallets, a line is seen from the wallet asked for: leaving
        // spot, but arriving in contract when only contract's lines are asked for.
        const [creditOwner, creditWallet] = r.credit.split('/');
        const isOwnMove = r.debit_owner === owner && creditOwner === owner;
        const arrivesOnly =
          isOwnMove &&
          wallets !== undefined &&
          !wallets.includes(r.debit.split('/')[1] ?? '') &&
          wallets.includes(creditWallet ?? '');
        const outgoing = r.debit_owner === owner && !arrivesOnly;
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
          ...(note ? { note } : {}),
        };
      }),
    };
  }
}
