// Owns what the engine's tables may forget: idempotency keys past their 24 hours, and journal lines
// behind the kept snapshots once those are older than the retention setting (ENGINE_JOURNAL_RETENTION_HOURS).
// Must hold: start-up can always begin from each kept snapshot (every line after the oldest one stays,
// and the line at its seq too, so the journal's end is never lost); only whole chunks are deleted, each
// in its own statement. Must not: touch a snapshot, a checkpoint or a read-model row.

import type { Db } from '@bourse/db';
import type { Clock } from '../platform/clock.ts';
import { pruneKeys } from './idempotency-keys.ts';

/** Journal lines deleted per statement: a short lock each, so the writer's commits are not held up. */
export const JOURNAL_CHUNK = 10_000;

/**
 * Deletes the journal lines before the oldest kept snapshot that is at least `retentionMs` old (by its
 * created_at): start-up loads a snapshot and replays what follows it, so nothing before the oldest kept
 * one is read again. Answers how many lines went.
 */
export async function compactJournal(db: Db, now: number, retentionMs: number): Promise<number> {
  const snapshots = await db.query<{ seq: unknown; created_at: unknown }>(
    'SELECT seq, created_at FROM engine_snapshots ORDER BY seq',
  );
  if (snapshots.length === 0) return 0;
  const oldestKept = Number(snapshots[0]!.seq);
  let upTo = 0;
  for (const s of snapshots) if (Number(s.created_at) <= now - retentionMs) upTo = Math.max(upTo, Number(s.seq));
  upTo = Math.min(upTo, oldestKept);
  if (upTo <= 1) return 0;
  let deleted = 0;
  for (;;) {
    const n = await db.run(
      'DELETE FROM engine_journal WHERE seq IN (SELECT seq FROM engine_journal WHERE seq < $1 ORDER BY seq LIMIT $2)',
      [upTo, JOURNAL_CHUNK],
    );
    deleted += n;
    if (n < JOURNAL_CHUNK) return deleted;
  }
}

export type RetentionOptions = {
  db: Db;
  clock: Clock;
  /** How long journal lines behind the kept snapshots stay; null: the whole journal is kept. */
  journalRetentionMs: number | null;
  /** Runs at most this often (by the server's clock). */
  everyMs?: number;
  log?: { warn(obj: object, message: string): void };
};

/** The periodic forgetting: tick() runs it once `everyMs` of the server's clock have passed. */
export class Retention {
  readonly #o: Required<Omit<RetentionOptions, 'log'>> & Pick<RetentionOptions, 'log'>;
  #lastRun = Number.NEGATIVE_INFINITY;
  #running: Promise<void> | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;

  constructor(options: RetentionOptions) {
    this.#o = { everyMs: 10 * 60_000, ...options };
  }

  /** Runs if it is due; a run in progress is waited for, not doubled. */
  async tick(): Promise<void> {
    if (this.#running) return this.#running;
    if (this.#o.clock.now() - this.#lastRun < this.#o.everyMs) return;
    this.#running = this.run().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /** Prunes the expired keys and compacts the journal now (a failure is logged; the next run tries again). */
  async run(): Promise<void> {
    const now = this.#o.clock.now();
    this.#lastRun = now;
    try {
      await pruneKeys(this.#o.db, now);
      if (this.#o.journalRetentionMs !== null) await compactJournal(this.#o.db, now, this.#o.journalRetentionMs);
    } catch (error) {
      // Forgetting later is harmless: the next run tries again.
      this.#o.log?.warn({ err: error }, 'retention run failed');
    }
  }

  /** Checks every minute of real time whether a run is due (the clock may be a test's). */
  start(): void {
    this.#timer ??= setInterval(() => void this.tick(), 60_000);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
