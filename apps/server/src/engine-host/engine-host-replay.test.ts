// The host's start-up replay through an engine's replay() (told how many journaled commands follow) and
// its fallback to apply() when the engine says the fast replay was not exact: with a small counter
// engine, then with the trading engine itself.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, openDb as openDatabase, testDatabases } from '@bourse/db';
import {
  type ApplyResult,
  type Command,
  decodeCommand,
  Engine,
  type EngineSnapshot,
  encodeJournalLine,
  JOURNAL_NEW,
  JOURNAL_REPEAT,
  journalMark,
} from '@bourse/engine';
import { btcUsdt, CommandFactory } from '@bourse/testkit';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { manualClock } from '../platform/clock.ts';
import { EngineHost, type ReplayableEngine } from './engine-host.ts';
import { TradingEngine } from './trading-engine.ts';

type Cmd = { key: string; add: number };

/** A keyed counter with a replay path it logs. */
class Counter implements ReplayableEngine<Cmd, number> {
  values = new Map<string, number>();
  replayed: number[] = [];
  applied = 0;
  complete = true;
  apply(c: Cmd) {
    this.applied += 1;
    const v = (this.values.get(c.key) ?? 0) + c.add;
    this.values.set(c.key, v);
    return v;
  }
  replay(c: Cmd, after: number) {
    this.replayed.push(after);
    this.values.set(c.key, (this.values.get(c.key) ?? 0) + c.add);
  }
  replayComplete() {
    return this.complete;
  }
  stateHash() {
    return `new:${JSON.stringify([...this.values].sort())}`;
  }
  snapshot() {
    return [...this.values];
  }
}

const open = (db: Db, extra: Partial<Parameters<typeof EngineHost.open<Cmd, number, Counter>>[0]> = {}) =>
  EngineHost.open<Cmd, number, Counter>({
    db,
    create: () => new Counter(),
    restore: (s) => Object.assign(new Counter(), { values: new Map(s as [string, number][]) }),
    encode: (c) => JSON.stringify(c),
    decode: (t) => JSON.parse(t) as Cmd,
    snapshotEvery: 40,
    ...extra,
  });

async function journal(db: Db, count: number): Promise<string> {
  const host = await open(db);
  for (let i = 0; i < count; i++) await host.submit({ key: `k${i % 5}`, add: i });
  const hash = host.engine.stateHash();
  await host.close();
  return hash;
}

const dbs = await testDatabases();
// An SQLite file as well for the trading engine: there start-up reads the journal on a worker thread,
// which also parses its pages (JOURNAL_PAGE_PARSER); in memory both happen on this thread.
const files = mkdtempSync(join(tmpdir(), 'bourse-replay-test-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));
let fileCount = 0;
const withFile = [
  ...dbs,
  { dialect: 'sqlite file', open: () => openDatabase({ dataDir: join(files, String(fileCount++)) }) },
];

describe.each(dbs)('engine host start-up replay on $dialect', ({ open: openDb }) => {
  it('replays the journal after the snapshot through replay(), telling each command how many follow', async () => {
    const db = await openDb();
    const hash = await journal(db, 100);
    // Snapshots at 40 and 80: the replay starts after 80.
    const again = await open(db, { replayPage: 7 });
    expect(again.seq).toBe(100);
    expect(again.engine.stateHash()).toBe(hash);
    expect(again.engine.replayed).toEqual([19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(again.engine.applied).toBe(0);
    await again.close();
    await db.close();
  });

  it('replays again with apply() when the engine says its replay was not exact', async () => {
    const db = await openDb();
    const hash = await journal(db, 100);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let engines = 0;
    const again = await open(db, {
      create: () => new Counter(),
      restore: (s) => {
        engines += 1;
        // The first engine's fast replay is "incomplete"; the second one is driven by apply().
        return Object.assign(new Counter(), { values: new Map(s as [string, number][]), complete: engines > 1 });
      },
    });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/replaying again with apply/));
    warn.mockRestore();
    expect(engines).toBe(2);
    expect(again.engine.replayed).toEqual([]);
    expect(again.engine.applied).toBe(20);
    expect(again.engine.stateHash()).toBe(hash);
    await again.close();
    await db.close();
  });

  it('starts from an older snapshot when the newest cannot be restored', async () => {
    const db = await openDb();
    const hash = await journal(db, 100);
    await db.run('UPDATE engine_snapshots SET state = \'[["k0",\' WHERE seq = 80');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const again = await open(db);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /^snapshot 80 cannot be restored \(SyntaxError: .*\): starting from the snapshot at 40 instead$/,
    );
    warn.mockRestore();
    expect(again.startup).toMatchObject({ snapshotSeq: 40, replayed: 60, skippedSnapshots: [80] });
    expect(again.engine.stateHash()).toBe(hash);
    await again.close();
    await db.close();
  });

  it('starts from an older snapshot when replay from the newest does not meet the checkpoint', async () => {
    const db = await openDb();
    const hash = await journal(db, 100);
    // The snapshot at 80 restores to its own hash, but is not the state the journal reached at 80 (as a
    // snapshot worker whose copy had come apart would store, were it stopped before close() dropped it).
    const wrong = new Counter();
    wrong.values.set('k0', 1_000);
    await db.run('UPDATE engine_snapshots SET state = $1, state_hash = $2 WHERE seq = 80', [
      JSON.stringify(wrong.snapshot()),
      wrong.stateHash(),
    ]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const again = await open(db);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /^replay to 100 gives hash .*, checkpoint recorded .*: starting from the snapshot at 40 instead$/,
    );
    warn.mockRestore();
    expect(again.startup).toMatchObject({ snapshotSeq: 40, replayed: 60, skippedSnapshots: [80] });
    expect(again.engine.stateHash()).toBe(hash);
    // Deleted: after a crash (no checkpoint to catch it) it would otherwise load unnoticed.
    expect((await db.query<{ seq: number }>('SELECT seq FROM engine_snapshots')).map((r) => Number(r.seq))).toEqual([
      40,
    ]);
    await again.close();
    await db.close();
  });
});

/** A factory-built command as a feature submits it: the host stamps the time. */
const strip = ({ timeMs: _, ...rest }: Command) => rest as Parameters<TradingEngine['submit']>[0];

describe.each(withFile)('trading engine restarts on $dialect', ({ open: openDb }) => {
  it('replays to the live state and hash, and refuses a checkpoint the replay does not meet', async () => {
    const db = await openDb();
    const clock = manualClock();
    const c = new CommandFactory('BTC-USDT');
    const first = await TradingEngine.open(db, clock, { snapshotEvery: 50 });
    await first.submit(strip(c.register(btcUsdt())));
    for (const user of ['alice', 'bob']) {
      await first.submit(strip(c.deposit(user, 'USDT', '100000')));
      await first.submit(strip(c.deposit(user, 'BTC', '10')));
    }
    const commands: Command[] = [];
    for (let i = 0; i < 150; i++) {
      const user = i % 2 === 0 ? 'alice' : 'bob';
      const side = i % 3 === 0 ? 'buy' : 'sell';
      commands.push(c.limit(user, side, 6_000_000 + ((i * 7) % 11) - 5, 1 + (i % 4)));
      if (i % 10 === 9) commands.push(commands[commands.length - 3] as Command); // a retry
    }
    for (const command of commands) await first.submit(strip(command));
    // Books emptied, then a snapshot.
    for (const user of ['alice', 'bob'])
      for (const order of first.state.openOrders(user)) await first.submit(strip(c.cancel(user, order.orderId)));
    while (first.seq % 50 !== 0) await first.submit(strip(c.deposit('alice', 'USDT', '1')));
    const hash = first.state.stateHash();
    const seq = first.seq;
    await first.close();

    const second = await TradingEngine.open(db, clock);
    expect(second.seq).toBe(seq);
    expect(second.state.stateHash()).toBe(hash);
    await second.close();

    await db.run('UPDATE engine_checkpoints SET state_hash = $1 WHERE seq = $2', ['0123456789abcdef', seq]);
    await expect(TradingEngine.open(db, clock)).rejects.toThrow(/checkpoint recorded 0123456789abcdef/);
    await db.close();
  });
});

describe.each(dbs)('marked journal lines on $dialect', ({ open: openDb }) => {
  it('replays lines marked new or repeat without a window of ids, from a snapshot and from the start', async () => {
    const db = await openDb();
    const c = new CommandFactory('BTC-USDT');
    const host = (snapshotEvery: number) =>
      EngineHost.open<Command, ApplyResult, Engine>({
        db,
        // A window of 4: a replay of 8 or more lines begins quietly, emptying a snapshot's window.
        create: () => new Engine({ rememberedCommandsMax: 4 }),
        restore: (s) => Engine.restore(s as EngineSnapshot),
        encode: encodeJournalLine,
        decode: decodeCommand,
        journalMark,
        snapshotEvery,
      });
    const first = await host(30);
    await first.submit(c.register(btcUsdt()));
    for (const user of ['alice', 'bob']) {
      await first.submit(c.deposit(user, 'USDT', '100000'));
      await first.submit(c.deposit(user, 'BTC', '10'));
    }
    for (let i = 0; i < 60; i++) {
      const command = c.limit(i % 2 ? 'alice' : 'bob', i % 3 ? 'buy' : 'sell', 6_000_000 + (i % 7), 1 + (i % 3));
      await first.submit(command);
      if (i % 5 === 0) await first.submit({ ...command }); // a client's retry: a repeat
    }
    const hash = first.engine.stateHash();
    await first.close();
    const marks = (await db.query<{ command: string }>('SELECT command FROM engine_journal ORDER BY seq')).map((row) =>
      journalMark(row.command),
    );
    expect(marks.filter((mark) => mark === JOURNAL_REPEAT)).toHaveLength(12);
    expect(marks.filter((mark) => mark === JOURNAL_NEW)).toHaveLength(65);

    // The fast path, not the host's fallback to apply() (which warns).
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const again = await host(30);
      expect(again.startup.snapshotSeq).toBe(60);
      expect(again.startup.replayed).toBe(17);
      expect(again.engine.stateHash()).toBe(hash);
      await again.close();
      await db.run('DELETE FROM engine_snapshots');
      const fromStart = await host(1_000);
      expect(fromStart.startup.snapshotSeq).toBe(0);
      expect(fromStart.engine.stateHash()).toBe(hash);
      await fromStart.close();
      expect(warn).not.toHaveBeenCalled();
      // A line without its mark is no journal this engine wrote: start-up fails rather than guess.
      await db.run('UPDATE engine_journal SET command = substr(command, 2) WHERE seq > 40');
      await expect(host(1_000)).rejects.toThrow(/without its mark/);
    } finally {
      warn.mockRestore();
    }
    await db.close();
  });
});
