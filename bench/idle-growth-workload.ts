// An idle server's growth: the whole server (buildApp, paper mode) on a database of its own, its clock
// moved on by hand one second at a time as serve.ts's pump does (market, then venue and crypto bot), with nobody
// trading, watching or signing in. Measures what the database holds before and after: bytes in use,
// journal lines, order rows, commands applied. Used by bench/idle-growth.ts and its test.
// Must not: trade, watch a book or call the API (that is customer activity, not idleness).

import type { Db } from '@bourse/db';
import { buildApp } from '../apps/server/src/app.ts';
import { type Config, loadConfig } from '../apps/server/src/config.ts';
import { manualClock } from '../apps/server/src/platform/clock.ts';

/** What the database holds at one moment. */
export type Footprint = {
  /** Bytes in use: SQLite's pages not on the free list; PostgreSQL's tables with indexes and TOAST. */
  bytes: number;
  journalLines: number;
  orderRows: number;
  seq: number;
};

export type IdleGrowth = {
  dialect: Db['dialect'];
  simulatedMinutes: number;
  /** Simulated time between pumps (serve.ts pumps every second). */
  stepMs: number;
  before: Footprint;
  after: Footprint;
  growthBytes: number;
  /** Growth scaled to one hour of simulated time. */
  bytesPerHour: number;
  commandsPerHour: number;
  wallMs: number;
};

/** A Monday, 09:30 in India: NSE (and so most listed stocks) is open and quoting for the next hours. */
export const IDLE_START_MS = Date.UTC(2026, 0, 5, 4, 0);

async function footprint(db: Db, seq: number): Promise<Footprint> {
  const count = async (table: string) =>
    Number((await db.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${table}`))[0]?.n ?? 0);
  let bytes: number;
  if (db.dialect === 'sqlite') {
    const pragma = async (name: string) => Number(Object.values((await db.query(`PRAGMA ${name}`))[0] ?? {})[0] ?? 0);
    bytes = ((await pragma('page_count')) - (await pragma('freelist_count'))) * (await pragma('page_size'));
  } else {
    // Dead rows take space until vacuumed, as they do in production between autovacuum runs: vacuumed
    // here first so that the figure is what stays, not when autovacuum last came by.
    await db.run('VACUUM');
    const [row] = await db.query<{ bytes: unknown }>(
      `SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'`,
    );
    bytes = Number(row?.bytes ?? 0);
  }
  return { bytes, journalLines: await count('engine_journal'), orderRows: await count('orders'), seq };
}

/**
 * Runs `minutes` of simulated idle time after `warmMinutes` (start-up's registrations, the first
 * ladders and the market's first candles are not growth), one pump every `stepMs` (a second, as the
 * server does; a test may take longer steps: the simulated market is the same, only sampled less often).
 */
export async function idleGrowth(
  db: Db,
  options: { minutes?: number; warmMinutes?: number; stepMs?: number; config?: Partial<Config> } = {},
): Promise<IdleGrowth> {
  const minutes = options.minutes ?? 60;
  const stepMs = options.stepMs ?? 1_000;
  const warm = options.warmMinutes ?? 2;
  const config = { ...loadConfig({}, { dataDir: null }), engineSnapshots: 'writer' as const, ...options.config };
  const clock = manualClock(IDLE_START_MS);
  const app = await buildApp({ config, db, clock, logger: false });
  try {
    const step = async () => {
      clock.advance(stepMs);
      await app.market.pump();
      await app.venue.sync();
      await app.spot.bot.sync();
      await app.retention.tick();
    };
    const steps = (m: number) => Math.round((m * 60_000) / stepMs);
    for (let s = 0; s < steps(warm); s++) await step();
    await app.engine.committed(app.engine.seq);
    const before = await footprint(db, app.engine.seq);
    const began = performance.now();
    for (let s = 0; s < steps(minutes); s++) await step();
    await app.engine.committed(app.engine.seq);
    const wallMs = Math.round(performance.now() - began);
    const after = await footprint(db, app.engine.seq);
    const growthBytes = after.bytes - before.bytes;
    return {
      dialect: db.dialect,
      simulatedMinutes: minutes,
      stepMs,
      before,
      after,
      growthBytes,
      bytesPerHour: Math.round((growthBytes * 60) / minutes),
      commandsPerHour: Math.round(((after.seq - before.seq) * 60) / minutes),
      wallMs,
    };
  } finally {
    await app.http.close();
  }
}
