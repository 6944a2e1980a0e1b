// Retention on both databases: journal lines go only once they are behind the kept snapshots and older
// than the setting, the engine still starts from what is left to the same state, and idempotency keys
// go after 24 hours, not before.

import { testDatabases } from '@bourse/db';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../platform/clock.ts';
import { KEY_TTL_MS } from './idempotency-keys.ts';
import { compactJournal, Retention } from './retention.ts';
import { TradingEngine } from './trading-engine.ts';

const dbs = await testDatabases();
const HOUR = 3_600_000;

describe.each(dbs)('retention on $dialect', ({ open }) => {
  it('deletes the journal behind the oldest kept snapshot once old enough, and the engine restarts from what is left', async () => {
    const db = await open();
    const clock = manualClock();
    let engine = await TradingEngine.open(db, clock, { snapshotEvery: 20 });
    try {
      // 100 grants, an hour apart in blocks of 20: a snapshot every 20 commands, the newest three kept.
      for (let i = 1; i <= 100; i++) {
        const r = await engine.submit({
          type: 'deposit',
          id: `grant:${i}`,
          userId: `u${i % 7}`,
          wallet: 'spot',
          asset: 'USDT',
          amount: '1',
          from: 'faucet',
          cause: 'paper_grant',
        });
        expect(r.ok).toBe(true);
        if (i % 20 === 0) clock.advance(HOUR);
      }
      const seqs = async (table: string) =>
        (await db.query<{ seq: unknown }>(`SELECT seq FROM ${table} ORDER BY seq`)).map((r) => Number(r.seq));
      const snapshots = await seqs('engine_snapshots');
      expect(snapshots).toEqual([60, 80, 100]);
      // Every kept snapshot is younger than a day: nothing goes.
      expect(await compactJournal(db, clock.now(), 24 * HOUR)).toBe(0);
      expect((await seqs('engine_journal')).length).toBe(100);
      // Retention of two hours: the snapshots at 60 and 80 are old enough, but only what lies before the
      // oldest kept one (60) goes, and the line at 60 stays (the journal's end is never lost).
      expect(await compactJournal(db, clock.now(), 2 * HOUR)).toBe(59);
      const journal = await seqs('engine_journal');
      expect(journal[0]).toBe(60);
      expect(journal.at(-1)).toBe(100);
      const hash = engine.state.stateHash();
      await engine.close();
      engine = await TradingEngine.open(db, clock, { snapshotEvery: 20 });
      expect(engine.state.stateHash()).toBe(hash);
      expect(engine.state.balance('u1', 'spot', 'USDT').balance).toBe(15_000_000n);
    } finally {
      await engine.close();
      await db.close();
    }
  });

  it('prunes idempotency keys older than 24 hours on its run, and runs at most as often as told', async () => {
    const db = await open();
    const clock = manualClock();
    const retention = new Retention({ db, clock, journalRetentionMs: null, everyMs: 10 * 60_000 });
    try {
      const key = (id: string, at: number) =>
        db.run(
          `INSERT INTO idempotency_keys (command_id, body, order_id, outcome, created_at) VALUES ($1, '{}', 1, '', $2)`,
          [id, at],
        );
      await key('stock:1:key:old', clock.now() - KEY_TTL_MS - 1);
      await key('stock:1:key:day', clock.now() - KEY_TTL_MS + 60_000);
      await retention.tick();
      const left = async () =>
        (await db.query<{ command_id: string }>('SELECT command_id FROM idempotency_keys ORDER BY command_id')).map(
          (r) => r.command_id,
        );
      expect(await left()).toEqual(['stock:1:key:day']);
      // Two minutes later the day-old key has passed 24 hours, but the next run is not due yet.
      clock.advance(2 * 60_000);
      await retention.tick();
      expect(await left()).toEqual(['stock:1:key:day']);
      clock.advance(10 * 60_000);
      await retention.tick();
      expect(await left()).toEqual([]);
    } finally {
      await retention.stop();
      await db.close();
    }
  });
});
