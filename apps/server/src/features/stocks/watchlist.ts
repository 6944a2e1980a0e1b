// The watchlist (/stock/collect/*): a user's starred stocks, shown with live quotes.

import type { Db } from '@bourse/db';
import * as repo from './repo.ts';

export class Watchlist {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  async add(userId: number, instrumentId: string, now: number): Promise<void> {
    await repo.addWatch(this.#db, userId, instrumentId, now);
  }

  async remove(userId: number, instrumentId: string): Promise<void> {
    await repo.removeWatch(this.#db, userId, instrumentId);
  }

  /** Newest first. */
  async list(userId: number): Promise<string[]> {
    const rows = await repo.listWatched(this.#db, userId);
    return rows.map((r) => r.instrument_id);
  }
}
