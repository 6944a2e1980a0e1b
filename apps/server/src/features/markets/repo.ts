// SQL for market data's own tables: stored live candles and the simulator's saved state. Returns plain
// rows; building candles, history and quotes stays in service.ts. One dialect for both databases; a
// function that must join a caller's transaction takes it as `db`.

import type { Sql } from '@bourse/db';
import type { Candle } from '@bourse/market';

export type CandleRow = {
  start_ms: number;
  open_ticks: number;
  high_ticks: number;
  low_ticks: number;
  close_ticks: number;
  volume_lots: number;
};

export const findSimulatorState = async (db: Sql) =>
  (await db.query<{ state: string }>("SELECT state FROM market_state WHERE id = 'simulator'"))[0];

export const saveSimulatorState = (db: Sql, state: string, now: number) =>
  db.run(
    `INSERT INTO market_state (id, state, updated_at) VALUES ('simulator', $1, $2)
       ON CONFLICT (id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
    [state, now],
  );

/** Inserts up to 200 closed candles in one statement; a candle already stored is left as it is. */
export function insertCandles(db: Sql, chunk: readonly Candle[]) {
  const values = chunk
    .map((_, k) => `(${Array.from({ length: 8 }, (_, j) => `$${k * 8 + j + 1}`).join(', ')})`)
    .join(', ');
  return db.run(
    `INSERT INTO candles (instrument_id, interval, start_ms, open_ticks, high_ticks, low_ticks, close_ticks, volume_lots)
           VALUES ${values} ON CONFLICT (instrument_id, interval, start_ms) DO NOTHING`,
    chunk.flatMap((c) => [c.instrumentId, c.interval, c.startMs, c.open, c.high, c.low, c.close, c.volumeLots]),
  );
}

/** The newest `limit` stored candles that start before `beforeMs`, newest first. */
export const listCandlesBefore = (db: Sql, instrumentId: string, interval: string, beforeMs: number, limit: number) =>
  db.query<CandleRow>(
    `SELECT start_ms, open_ticks, high_ticks, low_ticks, close_ticks, volume_lots FROM candles
         WHERE instrument_id = $1 AND interval = $2 AND start_ms < $3 ORDER BY start_ms DESC LIMIT $4`,
    [instrumentId, interval, beforeMs, limit],
  );
