// The watchlist (/stock/collect/*): a user's starred stocks, shown with live quotes.

import type { Db } from '@bourse/db';

export class Watchlist {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  async add(userId: number, instrumentId: string, now: number): Promise<void> {
    await this.#db.run(
      'INSERT INTO watchlist (user_id, instrument_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (user_id, instrument_id) DO NOTHING',
      [userId, instrumentId, now],
    );
  }

  async remove(userId: number, instrumentId: string): Promise<void> {
    await this.#db.run('DELETE FROM watchlist WHERE user_id = $1 AND instrument_id = $2', [userId, instrumentId]);
  }

  /** Newest first. */
  async list(userId: number): Promise<string[]> {
    const rows = await this.#db.query<{ instrument_id: string }>(
      'SELECT instrument_id FROM watchlist WHERE user_id = $1 ORDER BY created_at DESC, instrument_id',
      [userId],
    );
    return rows.map((r) => r.instrument_id);
  }
}
