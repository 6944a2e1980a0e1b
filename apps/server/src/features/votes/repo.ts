// SQL of the stock sentiment vote and of the vote page addresses. Plain rows; the rules stay in
// service.ts. A function that must join a caller's transaction takes the transaction handle as `db`.

import type { VoteSide } from '@bourse/contract';
import type { Param, Sql } from '@bourse/db';

export type VoteUrlRow = { instrument_id: string; url: string; updated_at: number; updated_by_name: string | null };

export async function findVote(db: Sql, userId: number, instrumentId: string, day: string) {
  const rows = await db.query<{ side: VoteSide }>(
    'SELECT side FROM stock_votes WHERE user_id = $1 AND instrument_id = $2 AND trading_day = $3',
    [userId, instrumentId, day],
  );
  return rows[0]?.side ?? null;
}

export async function insertVote(
  db: Sql,
  v: { userId: number; instrumentId: string; day: string; side: VoteSide; now: number },
) {
  await db.run(
    'INSERT INTO stock_votes (user_id, instrument_id, trading_day, side, created_at) VALUES ($1, $2, $3, $4, $5)',
    [v.userId, v.instrumentId, v.day, v.side, v.now],
  );
}

/** Votes per day and side on one stock, for the given days. */
export async function tallies(db: Sql, instrumentId: string, days: readonly string[]) {
  const params: Param[] = [instrumentId, ...days];
  const list = days.map((_, i) => `$${i + 2}`).join(', ');
  return db.query<{ trading_day: string; side: VoteSide; n: number | string }>(
    `SELECT trading_day, side, COUNT(*) AS n FROM stock_votes
     WHERE instrument_id = $1 AND trading_day IN (${list}) GROUP BY trading_day, side`,
    params,
  );
}

/** Every stock's tally per day since `fromDay`, most votes first. */
export async function talliesSince(db: Sql, fromDay: string, limit: number) {
  return db.query<{ instrument_id: string; trading_day: string; bullish: number | string; bearish: number | string }>(
    `SELECT instrument_id, trading_day,
            SUM(CASE WHEN side = 'bullish' THEN 1 ELSE 0 END) AS bullish,
            SUM(CASE WHEN side = 'bearish' THEN 1 ELSE 0 END) AS bearish
     FROM stock_votes WHERE trading_day >= $1
     GROUP BY instrument_id, trading_day
     ORDER BY COUNT(*) DESC, trading_day DESC, instrument_id
     LIMIT $2`,
    [fromDay, limit],
  );
}

export async function findVoteUrl(db: Sql, instrumentId: string) {
  const rows = await db.query<{ url: string }>('SELECT url FROM vote_urls WHERE instrument_id = $1', [instrumentId]);
  return rows[0]?.url ?? null;
}

export async function listVoteUrls(db: Sql) {
  return db.query<VoteUrlRow>(
    `SELECT v.instrument_id, v.url, v.updated_at, s.username AS updated_by_name
     FROM vote_urls v LEFT JOIN staff s ON s.id = v.updated_by ORDER BY v.instrument_id`,
  );
}

export async function setVoteUrl(db: Sql, instrumentId: string, url: string, staffId: number, now: number) {
  await db.run('DELETE FROM vote_urls WHERE instrument_id = $1', [instrumentId]);
  if (url)
    await db.run('INSERT INTO vote_urls (instrument_id, url, updated_by, updated_at) VALUES ($1, $2, $3, $4)', [
      instrumentId,
      url,
      staffId,
      now,
    ]);
}
