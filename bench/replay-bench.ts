// Benchmark (not a test): start-up replay of a journal of 1,000,000 engine commands (the engine bench's
// seeded workload: instrument, deposits for 10,000 users, then orders and cancels), on SQLite (a file in a
// temporary directory) and, when it answers, PostgreSQL (a fresh schema, dropped afterwards).
// The journal is written by the engine host itself (no snapshot in between, a checkpoint at the end);
// then a fresh process times TradingEngine.open() replaying all of it from an empty state and checks the
// state hash against the engine that produced the journal. A second fresh process replays the same rows
// in the host's pages, timing the reads, the decoding and the applying apart. The journal is written in
// the one format the engine has (compact lines, each marked new or repeat: issue 22 removed the older
// ones and the baseline runs that timed them).
// Prints ONE line of JSON per database. Run: npm run bench:replay [-- --commands 1000000 --seed 7
// --chunk 1000 --db sqlite,postgres --cpu-prof DIR --keep]

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, dropSchema, isPostgresReachable, openDb, TEST_DATABASE_URL } from '@bourse/db';
import {
  type ApplyResult,
  type Command,
  decodeCommand,
  decodeParsedLine,
  Engine,
  encodeJournalLine,
  type JournalMark,
  journalMark,
  parseJournalPage,
} from '@bourse/engine';
import {
  EngineHost,
  JOURNAL_PAGE,
  type ReplayableEngine,
  type StartupReport,
} from '../apps/server/src/engine-host/engine-host.ts';
import { TradingEngine } from '../apps/server/src/engine-host/trading-engine.ts';
import { systemClock } from '../apps/server/src/platform/clock.ts';
import { enableCompileCacheForThreads } from '../apps/server/src/platform/compile-cache.ts';
import { tuneV8 } from '../apps/server/src/platform/v8-tuning.ts';
import { argument, peakRssMiB, stealMeter } from './bench-util.ts';
import { EngineFloor } from './engine-floor.ts';
import { EngineWorkload } from './engine-workload.ts';

type Target = { db: 'sqlite'; dataDir: string } | { db: 'postgres'; url: string; schema: string };

const openTarget = (t: Target): Promise<Db> =>
  t.db === 'sqlite' ? openDb({ dataDir: t.dataDir }) : openDb({ databaseUrl: t.url, schema: t.schema });

/** Above any journal here: no snapshot is taken while journaling, so start-up replays everything. */
const NO_SNAPSHOT = 1_000_000_000;

async function main() {
  const total = Number(argument('commands') ?? 1_000_000);
  const seed = Number(argument('seed') ?? 7);
  const chunk = Number(argument('chunk') ?? 1_000);
  const profileDir = argument('cpu-prof');
  // --keep leaves the database behind (its target is printed on stderr) to rerun a child by hand.
  const keep = process.argv.includes('--keep');
  const dbs = (argument('db') ?? 'sqlite,postgres').split(',');
  for (const db of dbs) {
    let target: Target;
    let cleanUp: () => Promise<void>;
    if (db === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'bourse-replay-'));
      target = { db, dataDir: dir };
      cleanUp = async () => rmSync(dir, { recursive: true, force: true });
    } else if (db === 'postgres') {
      if (!(await isPostgresReachable())) continue;
      const schema = `bench_replay_${Date.now()}_${randomBytes(4).toString('hex')}`;
      target = { db, url: TEST_DATABASE_URL, schema };
      cleanUp = () => dropSchema(schema);
    } else {
      throw new Error(`unknown --db ${db}: sqlite or postgres`);
    }
    try {
      const journal = await writeJournal(target, total, seed, chunk);
      // The journal just written is still going to disk: the first child would share the machine with
      // the writeback (its check ran ~0.3 s slower than in later runs). Flushed first, as a restart meets it.
      spawnSync('sync');
      const replay = runChild('replay', target, profileDir) as ReplayRun;
      const split = runChild('split', target) as SplitRun;
      for (const run of [replay, split]) {
        if (run.seq !== total || run.hash !== journal.hash)
          throw new Error(`${db}: replay reached seq ${run.seq}, hash ${run.hash}; expected ${total}, ${journal.hash}`);
      }
      const ms = (x: number) => Math.round(x);
      console.log(
        JSON.stringify({
          bench: 'replay',
          db,
          seed,
          commands: total,
          replayMs: ms(replay.replayMs),
          commandsPerSec: Math.round(total / (replay.replayMs / 1000)),
          // replayMs in the host's own parts: the journal read, decoded and applied (the reading on a
          // worker thread, overlapped), then the checkpoint's full-state hash check.
          journalMs: replay.startup?.replayMs,
          checkMs: replay.startup?.hashMs,
          readMs: ms(split.wall.query + split.wall.decode),
          applyMs: ms(split.wall.apply),
          hashMs: ms(split.wall.hash),
          // The same decoded commands applied to the engine bench's floor (see timeSplit).
          floorApplyMs: ms(split.wall.floor),
          peakRssMiB: replay.peakRssMiB,
          queryMs: ms(split.wall.query),
          // Parsing runs on the page-scan worker at start-up (overlapped), decoding on the replaying thread.
          parseMs: ms(split.wall.parse),
          decodeMs: ms(split.wall.decode),
          // CPU time of the process (all its threads, so GC helpers count): steadier than wall time on a
          // shared machine. replay: TradingEngine.open(); the rest: the split run's phases.
          cpuMs: {
            replay: ms(replay.cpuMs),
            query: ms(split.cpu.query),
            parse: ms(split.cpu.parse),
            decode: ms(split.cpu.decode),
            apply: ms(split.cpu.apply),
            hash: ms(split.cpu.hash),
          },
          load1: replay.load1,
          stealPct: replay.stealPct,
          journal: journal.stats,
          node: process.version,
        }),
      );
    } finally {
      if (keep) console.error(`kept: --child replay --target '${JSON.stringify(target)}'`);
      else await cleanUp();
    }
  }
}

/** The producing engine, with its last result at hand so the workload can see it before the commit. */
class Producer implements ReplayableEngine<Command, ApplyResult> {
  readonly engine = new Engine();
  last: ApplyResult | undefined;
  apply(command: Command): ApplyResult {
    this.last = this.engine.apply(command);
    return this.last;
  }
  get lastApplyWasRepeat() {
    return this.engine.lastApplyWasRepeat;
  }
  stateHash() {
    return this.engine.stateHash();
  }
  snapshot() {
    return this.engine.snapshot();
  }
}

/** Journals `total` commands through the engine host, exactly as the server writes them. */
async function writeJournal(target: Target, total: number, seed: number, chunk: number) {
  const start = performance.now();
  const db = await openTarget(target);
  const host = await EngineHost.open<Command, ApplyResult, Producer>({
    db,
    create: () => new Producer(),
    restore: () => {
      throw new Error('the bench database has no snapshot');
    },
    encode: encodeJournalLine,
    decode: decodeCommand,
    snapshotEvery: NO_SNAPSHOT,
    maxBatch: 10_000,
    onFatal: () => undefined, // the submits' promises reject with the error
  });
  let pending: Promise<ApplyResult>[] = [];
  const workload = new EngineWorkload(seed);
  let rejected = 0;
  let trades = 0;
  const submit = (command: Command) => {
    pending.push(host.submit(command));
    const result = host.engine.last as ApplyResult;
    if (!result.ok) rejected++;
    return result;
  };
  for (const command of workload.setup()) {
    const result = submit(command);
    if (!result.ok) throw new Error(result.code);
  }
  // As in the engine bench: a chunk is generated, then applied, each result observed as it comes.
  const orders = total - host.seq;
  if (orders < 0) throw new Error(`--commands ${total} is less than the ${host.seq} setup commands`);
  const batch: Command[] = new Array(chunk);
  for (let done = 0; done < orders; ) {
    const size = Math.min(chunk, orders - done);
    for (let i = 0; i < size; i++) batch[i] = workload.next(done + i);
    for (let i = 0; i < size; i++) trades += workload.observe(submit(batch[i] as Command));
    done += size;
    if (pending.length >= 20_000) {
      await Promise.all(pending);
      pending = [];
    }
  }
  await Promise.all(pending);
  await host.close();
  const hash = host.engine.stateHash();
  // What autovacuum does to a table long before a real restart: hint bits set, statistics known. Without
  // it the first reader of a freshly written table pays for that.
  if (db.dialect === 'postgres') await db.run('VACUUM (ANALYZE) engine_journal');
  const [size] = await db.query<{ n: number; bytes: number }>(
    'SELECT COUNT(*) AS n, SUM(LENGTH(command)) AS bytes FROM engine_journal',
  );
  await db.close();
  return {
    hash,
    stats: {
      rows: Number(size?.n),
      commandMiB: Math.round(Number(size?.bytes) / 2 ** 20),
      rejected,
      trades,
      writeMs: Math.round(performance.now() - start),
    },
  };
}

function runChild(mode: 'replay' | 'split', target: Target, profileDir?: string): Record<string, unknown> {
  const flags = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const run = spawnSync(
    process.execPath,
    [...process.execArgv, ...flags, import.meta.filename, '--child', mode, '--target', JSON.stringify(target)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (run.status !== 0) throw new Error(`${mode} child failed (${run.status ?? run.signal})`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>;
}

type ReplayRun = {
  seq: number;
  hash: string;
  replayMs: number;
  cpuMs: number;
  peakRssMiB: number;
  load1: number;
  /** The share of the machine's CPU time its host took during the start-up (%), where readable. */
  stealPct?: number | undefined;
  startup?: StartupReport;
};

/** What a restart does: TradingEngine.open() from no snapshot, replaying the whole journal. */
async function timeReplay(target: Target): Promise<ReplayRun> {
  const db = await openTarget(target);
  const load1 = Math.round((loadavg()[0] as number) * 10) / 10;
  const cpuStart = process.cpuUsage();
  const steal = stealMeter();
  const start = performance.now();
  const trading = await TradingEngine.open(db, systemClock, { snapshotEvery: NO_SNAPSHOT });
  const replayMs = performance.now() - start;
  const stealPct = steal();
  const cpuMs = cpuSince(cpuStart);
  const peak = peakRssMiB();
  const result = {
    seq: trading.seq,
    hash: trading.state.stateHash(),
    replayMs,
    cpuMs,
    peakRssMiB: peak,
    load1,
    stealPct,
    startup: trading.startup,
  };
  await db.close();
  return result;
}

type Phases = {
  query: number;
  parse: number;
  decode: number;
  apply: number;
  hash: number;
  floor: number;
  other: number;
};
type SplitRun = { seq: number; hash: string; wall: Phases; cpu: Phases };

const cpuSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

/**
 * The same rows in the host's pages, with reading, decoding and replaying timed apart (per page). Each
 * page is also applied to the engine bench's floor (engine-floor.ts), first, on commands decoded for it
 * alone, and timed as `floor`: what the same rules cost at the least, checked at the end against the
 * engine's balances.
 */
async function timeSplit(target: Target): Promise<SplitRun> {
  const db = await openTarget(target);
  const engine = new Engine();
  const floor = new EngineFloor();
  const wall: Phases = { query: 0, parse: 0, decode: 0, apply: 0, hash: 0, floor: 0, other: 0 };
  const cpu: Phases = { query: 0, parse: 0, decode: 0, apply: 0, hash: 0, floor: 0, other: 0 };
  let clock = performance.now();
  let cpuClock = process.cpuUsage();
  const lap = (phase: keyof Phases) => {
    const now = performance.now();
    wall[phase] += now - clock;
    cpu[phase] += cpuSince(cpuClock);
    clock = now;
    cpuClock = process.cpuUsage();
  };
  const [end] = await db.query<{ last: number }>('SELECT MAX(seq) AS last FROM engine_journal');
  const last = Number(end?.last);
  lap('query');
  let seq = 0;
  const commands: Command[] = [];
  const marks: JournalMark[] = [];
  for (;;) {
    const rows = await db.queryArrays<[seq: number, command: string]>(
      'SELECT seq, command FROM engine_journal WHERE seq > $1 ORDER BY seq LIMIT $2',
      [seq, JOURNAL_PAGE],
    );
    lap('query');
    if (rows.length === 0) break;
    const texts = rows.map((row) => row[1]);
    lap('query');
    // The floor first, on commands of its own (decoded apart, untimed): had it applied the engine's,
    // their strings' hashes and their cache lines would be warm for the engine, as they are not at a
    // start-up (this made `applyMs` ~0.7 s lower than the host's journal phase implied).
    const forFloor = texts.map((text) => decodeCommand(text));
    lap('other');
    for (let i = 0; i < forFloor.length; i++) floor.apply(forFloor[i] as Command);
    lap('floor');
    // What the host's page-scan worker does for it (parse), then what is left to its own thread (decode).
    const parsed = parseJournalPage(texts);
    lap('parse');
    commands.length = rows.length;
    marks.length = rows.length;
    const cache: unknown[] = [];
    for (let i = 0; i < rows.length; i++) {
      const text = texts[i] as string;
      commands[i] = decodeParsedLine(text, parsed, i, cache);
      marks[i] = journalMark(text);
    }
    seq = Number(rows[rows.length - 1]?.[0]);
    lap('decode');
    // As the host does: the replay path, told how many commands follow each one.
    const after = last - (seq - commands.length) - 1;
    for (let i = 0; i < commands.length; i++) engine.replay(commands[i] as Command, after - i, marks[i] as JournalMark);
    lap('apply');
  }
  if (!engine.replayComplete()) throw new Error('the replay could not rebuild the idempotency window');
  const hash = engine.stateHash();
  lap('hash');
  await db.close();
  for (let u = 0; u < EngineWorkload.DEFAULT_USERS; u++) {
    const usdt = engine.balance(`user${u}`, 'spot', 'USDT');
    const btc = engine.balance(`user${u}`, 'spot', 'BTC');
    const theirs = [usdt.balance, usdt.held, btc.balance, btc.held].map(Number).join();
    if (floor.balancesOf(`user${u}`)?.join() !== theirs)
      throw new Error(`the floor parted from the replay at user${u}`);
  }
  return { seq, hash, wall, cpu };
}

// Last, so that every declaration above is initialised before it runs.
const child = argument('child');
if (child !== undefined) {
  const target = JSON.parse(argument('target') as string) as Target;
  // As in the server (main.ts): V8's settings, and the worker threads start-up spawns use Node's
  // compile cache (this child's own modules were loaded before it, without it).
  tuneV8();
  enableCompileCacheForThreads();
  const run = child === 'replay' ? timeReplay : timeSplit;
  console.log(JSON.stringify(await run(target)));
} else {
  await main();
}
