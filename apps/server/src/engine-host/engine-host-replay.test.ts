// The host's start-up replay through an engine's replay() (told how many journaled commands follow),
// its fallback to apply() when the engine says the fast replay was not exact, and hashes recorded in an
// older format (checked with the engine's stateHashAs): with a small counter engine, then with the
// trading engine itself and a checkpoint and a snapshot hashed the v1 way.

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
  isV1StateHash,
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

/** A keyed counter whose hash has two formats ("old:" and "new:"), with a replay path it logs. */
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
  stateHashAs(recorded: string) {
    return recorded.startsWith('old:')
      ? `old:${[...this.values.values()].reduce((a, b) => a + b, 0)}`
      : this.stateHash();
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

  it('checks a snapshot and a checkpoint hashed in an older format with stateHashAs()', async () => {
    const db = await openDb();
    await journal(db, 100);
    const total = (100 * 99) / 2;
    await db.run('UPDATE engine_snapshots SET state_hash = $1 WHERE seq = 80', [`old:${(80 * 79) / 2}`]);
    await db.run('UPDATE engine_checkpoints SET state_hash = $1 WHERE seq = 100', [`old:${total}`]);
    const again = await open(db);
    expect(again.seq).toBe(100);
    await again.close(); // a checkpoint at 100 exists already: it stays in the old format
    // A checkpoint no start meets: from the snapshot at 80, then 40, then the journal's start; refused.
    await db.run('UPDATE engine_checkpoints SET state_hash = $1 WHERE seq = 100', [`old:${total + 1}`]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(open(db)).rejects.toThrow(
      `replay to 100 gives hash old:${total}, checkpoint recorded old:${total + 1}`,
    );
    const mismatch = `replay to 100 gives hash old:${total}, checkpoint recorded old:${total + 1}`;
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      `${mismatch}: starting from the snapshot at 40 instead`,
      `${mismatch}: starting from the journal's start instead`,
    ]);
    warn.mockClear();
    // A snapshot that does not restore to its recorded hash gives way to the one before it.
    await db.run('UPDATE engine_checkpoints SET state_hash = $1 WHERE seq = 100', [`old:${total}`]);
    await db.run('UPDATE engine_snapshots SET state_hash = $1 WHERE seq = 80', ['old:0']);
    const fallback = await open(db);
    expect(warn).toHaveBeenCalledWith(
      'snapshot 80 restores to hash old:3160, recorded old:0: starting from the snapshot at 40 instead',
    );
    warn.mockRestore();
    expect(fallback.startup).toMatchObject({
      snapshotSeq: 40,
      replayed: 60,
      checkpointChecked: true,
      skippedSnapshots: [80],
    });
    await fallback.close();
    // Proven wrong, it is gone: the next start does not try it again.
    expect((await db.query<{ seq: number }>('SELECT seq FROM engine_snapshots')).map((r) => Number(r.seq))).toEqual([
      40,
    ]);
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
  it('replays to the live state and hash, and accepts a snapshot and checkpoint hashed the v1 way', async () => {
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
    // Books emptied, then a snapshot: one hashed the v1 way is then exact (see Engine.restoresExactly).
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

    // A database written before the v2 hash: its last snapshot and checkpoint carry v1 hashes.
    const [snap] = await db.query<{ seq: number; state: string }>(
      'SELECT seq, state FROM engine_snapshots ORDER BY seq DESC LIMIT 1',
    );
    const v1Snapshot = Engine.restore(JSON.parse(snap!.state)).stateHashAs('0000000000000000');
    const v1Checkpoint = second.state.stateHashAs('0000000000000000');
    expect(isV1StateHash(v1Snapshot) && isV1StateHash(v1Checkpoint)).toBe(true);
    await db.run('UPDATE engine_snapshots SET state_hash = $1 WHERE seq = $2', [v1Snapshot, snap!.seq]);
    await db.run('UPDATE engine_checkpoints SET state_hash = $1 WHERE seq = $2', [v1Checkpoint, seq]);
    const third = await TradingEngine.open(db, clock);
    expect(third.startup).toMatchObject({ snapshotSeq: Number(snap!.seq), skippedSnapshots: [] });
    expect(third.state.stateHash()).toBe(hash);
    await third.close();
    await db.run('UPDATE engine_checkpoints SET state_hash = $1 WHERE seq = $2', ['0123456789abcdef', seq]);
    await expect(TradingEngine.open(db, clock)).rejects.toThrow(/checkpoint recorded 0123456789abcdef/);
    await db.close();
  });
});

describe.each(dbs)('snapshots taken before the after-market mark, on $dialect', ({ open: openDb }) => {
  it('passes over one whose book holds orders (it cannot say which were placed after market) and replays', async () => {
    const db = await openDb();
    const clock = manualClock();
    const c = new CommandFactory('BTC-USDT');
    const first = await TradingEngine.open(db, clock, { snapshotEvery: 10 });
    for (const command of [
      c.register(btcUsdt()),
      c.deposit('alice', 'USDT', '100000'),
      c.deposit('bob', 'BTC', '10'),
      c.halt(),
    ])
      await first.submit(strip(command));
    const placed = await first.submit(strip(c.limit('alice', 'buy', 5_990_000, 2)));
    const id = placed.ok && placed.events[0]?.type === 'order_placed' ? placed.events[0].orderId : -1;
    await first.submit(strip(c.halt(false)));
    for (let i = 0; i < 15; i++) await first.submit(strip(c.limit('bob', 'sell', 6_010_000 + i, 1)));
    expect(first.state.order(id)).toMatchObject({ queued: false, afterMarket: true });
    const hash = first.state.stateHash();
    const seq = first.seq;
    await first.close();

    // As the version before the mark left them: every snapshot without marks and hashed v3, a v3 checkpoint.
    const snapshots = await db.query<{ seq: number; state: string }>('SELECT seq, state FROM engine_snapshots');
    expect(snapshots.length).toBeGreaterThan(0);
    for (const snap of snapshots) {
      const old = snap.state.replaceAll(',"afterMarket":true', '');
      const restored = Engine.restore(JSON.parse(old));
      // Loaded as it is, the order would lose its mark, and the state would part from the journal's.
      expect(restored.order(id)?.afterMarket).toBe(false);
      await db.run('UPDATE engine_snapshots SET state = $1, state_hash = $2 WHERE seq = $3', [
        old,
        restored.stateHashAs('v3:'),
        snap.seq,
      ]);
    }
    await db.run('UPDATE engine_checkpoints SET state_hash = $1 WHERE seq = $2', [first.state.stateHashAs('v3:'), seq]);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const again = await TradingEngine.open(db, clock);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/predates part of the state it should hold/);
    warn.mockRestore();
    expect(again.startup).toMatchObject({ snapshotSeq: 0, replayed: seq, checkpointChecked: true });
    expect(again.startup.skippedSnapshots.sort()).toEqual(snapshots.map((s) => Number(s.seq)).sort());
    expect(again.state.order(id)?.afterMarket).toBe(true);
    expect(again.state.stateHash()).toBe(hash);
    await again.close();
    await db.close();
  });
});

describe.each(dbs)('journal formats on $dialect', ({ open: openDb }) => {
  /** The command with its keys in reverse order (and its trigger's): not the order the factory builds. */
  const reversed = <T extends object>(value: T): T =>
    Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, typeof v === 'object' && v !== null ? reversed(v) : v]),
    ) as T;

  it('replays JSON rows of an older version and compact rows after them, keys in any order, to the live state', async () => {
    const db = await openDb();
    const c = new CommandFactory('BTC-USDT');
    // An older version: the same host and engine, every row written as JSON.
    const old = await EngineHost.open<Command, ApplyResult, Engine>({
      db,
      create: () => new Engine(),
      restore: (s) => Engine.restore(s as EngineSnapshot),
      encode: (command) => JSON.stringify(command),
      decode: decodeCommand,
    });
    await old.submit(reversed(c.register(btcUsdt())));
    for (const user of ['alice', 'bob']) {
      await old.submit(c.deposit(user, 'USDT', '100000'));
      await old.submit(reversed(c.deposit(user, 'BTC', '10')));
    }
    await old.submit(reversed(c.limit('alice', 'sell', 6_000_010, 3)));
    await old.close();

    // This version goes on with compact rows; features build commands in their own key orders.
    const clock = manualClock();
    const now = await TradingEngine.open(db, clock);
    const retried = reversed(c.limit('bob', 'buy', 6_000_010, 1));
    const commands: Command[] = [
      retried,
      c.limit('alice', 'sell', 6_000_020, 2, { stp: 'cancel_taker', timeInForce: 'gtc' }),
      reversed(c.market('bob', 'buy', 1, { kind: 'stop', priceTicks: 6_000_050, by: 'last' })),
      c.amend('alice', 1, { qtyLots: 2 }),
      retried, // a retry, same object
      { ...retried }, // and as another object with the same body (a client's retry)
      reversed(c.cancel('alice', 5)),
      // Quotes, a backslash and a tab (written as JSON inside the compact line), and unicode.
      reversed({ ...c.deposit('ユーザー', 'USDT', '5'), link: 'utr:"q"\\b\tt' }),
      { ...c.deposit('bob', 'USDT', '1'), id: 'dep"\\1' },
    ];
    for (const command of commands) await now.submit(strip(command));
    const hash = now.state.stateHash();
    const snapshot = JSON.stringify(now.state.snapshot());
    await now.close();
    const rows = await db.query<{ command: string }>('SELECT command FROM engine_journal ORDER BY seq');
    // Unmarked JSON, then compact lines marked new (+) or repeat (=: the two retries).
    expect(rows.map((row) => row.command.charAt(0)).join('')).toBe(`${'{'.repeat(6)}++++==+++`);
    expect(rows.slice(6).every((row) => row.command.charAt(1) === '~')).toBe(true);

    const again = await TradingEngine.open(db, clock);
    expect(again.seq).toBe(6 + commands.length);
    expect(again.state.stateHash()).toBe(hash);
    expect(JSON.stringify(again.state.snapshot())).toBe(snapshot);
    await again.close();
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

      // Lines after 40 as a version before marks would have written them (a downgrade, then this
      // version again): the replay cannot rebuild the window, and the host replays with apply().
      await db.run('UPDATE engine_journal SET command = substr(command, 2) WHERE seq > 40');
      const downgraded = await host(1_000);
      expect(downgraded.engine.stateHash()).toBe(hash);
      await downgraded.close();
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/incomplete; replaying again with apply\(\)/));
    } finally {
      warn.mockRestore();
    }
    await db.close();
  });
});
