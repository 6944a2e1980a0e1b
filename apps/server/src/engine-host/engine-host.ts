// The engine host: the one writer. Commands are applied in arrival order by the deterministic engine,
// then journaled in batches (group commit) together with the read-model rows their results produce,
// in one transaction; each caller is answered only after that commit. Snapshots every N commands, made
// by a snapshot worker (a copy of the engine fed the durable batches) when one is configured, else by the
// writer inside a batch's transaction.
// Start-up = the newest snapshot (its hash checked) + replay of the journal after it (checked against
// the last checkpoint's hash); a snapshot that fails either check gives way to an older one, and the
// last to the journal's start. A failed commit stops the process: memory is ahead of disk, so it recovers
// by restarting from the journal, never by carrying on.

import { Worker } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import type { Db, PageParser, Sql } from '@bourse/db';
import type {
  SnapshotMade,
  SnapshotWorkerBatch,
  SnapshotWorkerCheck,
  SnapshotWorkerData,
  SnapshotWorkerHash,
} from './snapshot-worker.ts';

/** What the host needs of an engine: deterministic apply, a hash of its whole state, snapshots. */
export interface ReplayableEngine<C, R> {
  apply(command: C): R;
  stateHash(): string;
  snapshot(): unknown;
  /** The snapshot's JSON and its hash from one snapshot, when the engine can (else both separately). */
  snapshotState?(): { json: string; hash: string };
  /**
   * Start-up replay of one journaled command, with `after` more journaled commands to replay after it:
   * must leave exactly the state apply(command) would, without making the result. Used, when present,
   * instead of apply() for the whole replay. `mark` is what the journal line says of the command when it
   * was applied (the host's `journalMark` option; 0 without it).
   */
  replay?(command: C, after: number, mark: number): void;
  /**
   * Whether the last apply() answered from the engine's idempotency window (a repeat that changed
   * nothing): handed to `encode` for the command's journal line.
   */
  readonly lastApplyWasRepeat?: boolean;
  /**
   * After a replay through replay(): whether the state is exactly what apply() would have made. When
   * false the host drops this engine and replays the journal again with apply().
   */
  replayComplete?(): boolean;
}

/**
 * A command as the host applied it. `repeat`: the engine found its id in its idempotency window and
 * answered the first result again, changing nothing (Engine.lastApplyWasRepeat): its events are the
 * first command's and are not projected again.
 */
export type Applied<C, R> = { seq: number; command: C; result: R; repeat: boolean };

/** What start-up did and how long each part took (ms), for the log and the replay bench. */
export type StartupReport = {
  /** The snapshot loaded (0: none); `snapshotMs` is its restore and hash check (not reading its row). */
  snapshotSeq: number;
  snapshotMs: number;
  /** Journaled commands replayed after it (read, decoded, applied), in `replayMs`. */
  replayed: number;
  replayMs: number;
  /** Whether a checkpoint at the journal's end was there to check; `hashMs` is that check, its query included. */
  checkpointChecked: boolean;
  hashMs: number;
  /** Newer snapshots that did not restore to their hash or whose replay missed the checkpoint (deleted). */
  skippedSnapshots: number[];
};

export type EngineHostOptions<C, R, E extends ReplayableEngine<C, R>> = {
  db: Db;
  create: () => E;
  restore: (snapshot: unknown) => E;
  /** The journal line of a command; `repeat` is the engine's lastApplyWasRepeat after applying it. */
  encode: (command: C, repeat: boolean) => string;
  decode: (text: string) => C;
  /** What a journal line says of its command for replay() (see ReplayableEngine.replay); 0 without it. */
  journalMark?: (text: string) => number;
  /**
   * Start-up reads the journal with `parser` run where the pages are read (a worker thread, for a
   * database with a second connection), and takes each command from the parsed page with `decode`
   * (given the page's parser output, the line's index and a cache kept for the page) instead of
   * `decode(text)`: what the parse did leaves the replaying thread. A page that comes without its parse
   * (the parser failed) is decoded from its texts.
   */
  journalPages?: { parser: PageParser; decode: (text: string, parsed: unknown, i: number, cache: unknown[]) => C };
  /**
   * Writes the read-model rows for a batch, inside the journal's transaction. `previousCommitted`
   * settles once the batch before is committed: on PostgreSQL its rows are invisible until then, so
   * await it before updating rows an earlier batch may have written (see Db.transactionEarly).
   */
  project?: (tx: Sql, batch: readonly Applied<C, R>[], previousCommitted: Promise<void>) => Promise<void>;
  snapshotEvery?: number;
  /**
   * A module exporting `snapshotEngine` (snapshot-worker.ts, SnapshotEngineModule): snapshots are then
   * made on a worker thread holding a second copy of the engine (twice the memory), so the writer never
   * pauses for one. Only where the database has a readSource (the worker catches up through its own
   * connection); if the worker fails or falls far behind, the writer takes them again.
   */
  snapshotWorker?: URL;
  /**
   * How long the worker may stay WORKER_BEHIND intervals behind without delivering a snapshot before the
   * writer takes the snapshots over; also how long close() waits for its state hash.
   */
  snapshotWorkerPatienceMs?: number;
  maxBatch?: number;
  /** Journal rows read per query at start-up. */
  replayPage?: number;
  now?: () => number;
  /** Called when a commit fails; the default ends the process so it restarts from the journal. */
  onFatal?: (error: unknown) => void;
  /**
   * For an engine that keeps results readable only for so many commands (the trading engine's result
   * log): `keep` is called for a result still waiting for its commit `after` commands later, to make it
   * hold its own, so a long commit cannot outlast it. Without this option the host tracks nothing.
   */
  keepWaitingResults?: { after: number; keep: (result: R) => void };
};

type HostConfig<C, R, E extends ReplayableEngine<C, R>> = Required<
  Omit<EngineHostOptions<C, R, E>, 'project' | 'snapshotWorker' | 'keepWaitingResults' | 'journalMark' | 'journalPages'>
> &
  Pick<
    EngineHostOptions<C, R, E>,
    'project' | 'snapshotWorker' | 'keepWaitingResults' | 'journalMark' | 'journalPages'
  >;

type Pending<C, R> = Applied<C, R> & { resolve: (r: R) => void; reject: (e: unknown) => void };

/** Journal rows read per query at start-up (keyset pages: WHERE seq > last ORDER BY seq LIMIT n). */
export const JOURNAL_PAGE = 10_000;

/** The journal in keyset pages: $1 the seq to read after, $2 the page size. */
export const JOURNAL_SCAN = 'SELECT seq, command FROM engine_journal WHERE seq > $1 ORDER BY seq LIMIT $2';

const DURABLE: Promise<void> = Promise.resolve();

const WORKER = new URL('./snapshot-worker.ts', import.meta.url);

/**
 * Snapshots kept: the newest is what start-up loads; the two before it are kept for an operator to fall
 * back on. Older ones only take space (each is tens of MB at a million commands): the journal holds
 * every command from the start.
 */
export const SNAPSHOTS_KEPT = 3;
const PRUNE_SNAPSHOTS = `DELETE FROM engine_snapshots WHERE seq < (SELECT seq FROM engine_snapshots ORDER BY seq DESC LIMIT 1 OFFSET ${SNAPSHOTS_KEPT - 1})`;

/** A state that is not what was recorded: start-up then tries an older snapshot (see open()). */
class StateMismatch extends Error {}

/** One stored snapshot, as start-up and the snapshot worker read it. */
export const SNAPSHOT_ROW = 'SELECT state_hash, state, state_gzip FROM engine_snapshots WHERE seq = $1';
export type SnapshotRow = { state_hash: string; state: string; state_gzip: Uint8Array | null };

/** The engine a stored snapshot restores to, checked against the hash recorded with it. */
export function restoreSnapshot<E extends ReplayableEngine<unknown, unknown>>(
  restore: (snapshot: unknown) => E,
  seq: number,
  row: SnapshotRow,
): E {
  let restored: E;
  try {
    // Stored gzipped by the snapshot worker, as text by the writer (and by versions before the worker).
    const json = row.state_gzip ? gunzipSync(row.state_gzip).toString('utf8') : row.state;
    restored = restore(JSON.parse(json));
  } catch (error) {
    throw new StateMismatch(`snapshot ${seq} cannot be restored (${String(error)})`);
  }
  const hash = restored.stateHash();
  if (hash !== row.state_hash)
    throw new StateMismatch(`snapshot ${seq} restores to hash ${hash}, recorded ${row.state_hash}`);
  return restored;
}

async function deleteSnapshots(db: Db, seqs: readonly number[]): Promise<void> {
  if (seqs.length === 0) return;
  await db.run(`DELETE FROM engine_snapshots WHERE seq IN (${seqs.map((_, k) => `$${k + 1}`).join(', ')})`, seqs);
}

/** How the snapshot worker's state compared with the writer's at close(). */
export type WorkerCheck = 'agreed' | 'differed' | 'unchecked';

/** A worker this many snapshot intervals behind the writer is replaced by the writer. */
const WORKER_BEHIND = 3;

/** The worker's state hash once it has applied everything before `seq`, and its seq; null if it cannot say. */
function askHash(worker: Worker, seq: number, waitMs: number): Promise<SnapshotWorkerHash | null> {
  return new Promise((resolve) => {
    const done = (hash: SnapshotWorkerHash | null) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      resolve(hash);
    };
    const onMessage = (message: SnapshotMade | SnapshotWorkerHash) => {
      if ('checked' in message) done(message);
    };
    const onExit = () => done(null);
    const timer = setTimeout(() => {
      console.warn(`snapshot worker gave no hash within ${waitMs} ms; its state is not checked`);
      done(null);
    }, waitMs);
    worker.on('message', onMessage);
    worker.on('exit', onExit);
    const check: SnapshotWorkerCheck = { check: seq };
    worker.postMessage(check);
  });
}

/** The state as snapshot JSON and its hash, in one pass where the engine can. */
export function serialise(engine: ReplayableEngine<unknown, unknown>): { json: string; hash: string } {
  return engine.snapshotState?.() ?? { json: JSON.stringify(engine.snapshot()), hash: engine.stateHash() };
}

export class EngineHost<C, R, E extends ReplayableEngine<C, R>> {
  readonly engine: E;
  readonly #o: HostConfig<C, R, E>;
  #seq: number;
  #lastSnapshotSeq: number;
  #queue: Pending<C, R>[] = [];
  /**
   * The results of the last `keepWaitingResults.after` commands that are still waiting for their
   * commit, by seq % after, with their seq (0 once answered); empty without that option.
   */
  readonly #waiting: (R | undefined)[];
  readonly #waitingSeq: Float64Array;
  #flushing: Promise<void> | null = null;
  #failed: unknown = null;
  #closed = false;
  /** Settles when the last committed batch is on disk and its callers have been answered. */
  #durable: Promise<void> = DURABLE;
  /** The last seq whose batch is committed and on disk. */
  #durableSeq: number;
  /** Callers of committed() waiting for a seq to be durable (few at a time: a scan of them is cheap). */
  #durableWaiters: { seq: number; resolve: () => void; reject: (error: unknown) => void }[] = [];
  /** The snapshot worker while it runs; null: the writer makes the snapshots. */
  #snapshots: Worker | null = null;
  /** Settles when the snapshots the worker has sent so far are stored. */
  #storing: Promise<void> = DURABLE;
  /** The snapshots the worker stored: dropped at close() if its state turns out not to be the writer's. */
  #workerSnapshots: number[] = [];
  /** The seq start-up reached: the worker is responsible for snapshots from there. */
  readonly #startSeq: number;
  /** Since when the worker has been WORKER_BEHIND intervals behind (-1: it is not). */
  #workerBehindSince = -1;
  /** Whether a worker was started; its snapshots are then checked at close() or reported unchecked. */
  #workerStarted = false;
  #workerCheck: WorkerCheck | undefined;
  readonly startup: StartupReport;

  private constructor(
    engine: E,
    seq: number,
    lastSnapshotSeq: number,
    options: HostConfig<C, R, E>,
    startup: StartupReport,
  ) {
    this.engine = engine;
    this.#seq = seq;
    this.#durableSeq = seq;
    this.#startSeq = seq;
    this.#lastSnapshotSeq = lastSnapshotSeq;
    this.#o = options;
    this.startup = startup;
    const after = options.keepWaitingResults?.after ?? 0;
    this.#waiting = new Array(after);
    this.#waitingSeq = new Float64Array(after);
  }

  /** Loads the last snapshot, replays the journal after it and checks the state hashes. */
  static async open<C, R, E extends ReplayableEngine<C, R>>(options: EngineHostOptions<C, R, E>) {
    const o = {
      snapshotEvery: 100_000,
      snapshotWorkerPatienceMs: 60_000,
      maxBatch: 2_000,
      replayPage: JOURNAL_PAGE,
      now: () => Date.now(),
      onFatal: (error: unknown) => {
        console.error('engine journal commit failed; stopping so the process restarts from the journal', error);
        process.exit(70);
      },
      ...options,
    };
    const keeping = o.keepWaitingResults;
    if (keeping !== undefined && (!Number.isSafeInteger(keeping.after) || keeping.after < 1)) {
      throw new Error(`keepWaitingResults.after must be a positive integer, not ${keeping.after}`);
    }
    const { db } = o;
    // The journal's end, so that replay() can be told how many commands follow each one.
    const [end] = await db.query<{ last: number | null }>('SELECT MAX(seq) AS last FROM engine_journal');
    const last = Number(end?.last ?? 0);
    // Every snapshot and checkpoint describes a journaled seq: one past the journal's end means the
    // journal lost its tail (acknowledged commands). Starting anyway would hand their seqs to new commands.
    const [marks] = await db.query<{ snapshot: number | null; checkpoint: number | null }>(
      'SELECT (SELECT MAX(seq) FROM engine_snapshots) AS snapshot, (SELECT MAX(seq) FROM engine_checkpoints) AS checkpoint',
    );
    const recorded = Math.max(Number(marks?.snapshot ?? 0), Number(marks?.checkpoint ?? 0));
    if (recorded > last) {
      throw new Error(
        `the engine journal ends at seq ${last}, but a snapshot or checkpoint was recorded at ${recorded}: ` +
          'journaled commands are missing; restore the database from a backup',
      );
    }
    /** Restores the snapshot at `snapshotSeq` (0: none), replays the journal after it, checks the hashes. */
    const startFrom = async (snapshotSeq: number) => {
      const snap = snapshotSeq === 0 ? undefined : (await db.query<SnapshotRow>(SNAPSHOT_ROW, [snapshotSeq]))[0];
      if (snapshotSeq !== 0 && !snap) throw new StateMismatch(`snapshot ${snapshotSeq} is gone`);
      const start = (): E => (snap ? restoreSnapshot(o.restore, snapshotSeq, snap) : o.create());
      // The journal after the snapshot, in keyset pages, read on a worker thread a page or two ahead
      // where the database can (scanPages): reading and parsing rows then overlap the replay.
      const pages = o.journalPages;
      const scan = (after: number) => db.scanPages(JOURNAL_SCAN, after, o.replayPage, pages?.parser);
      /** Applies the journal after the snapshot (through replay() if `fast`); returns the last seq. */
      const replayJournal = async (engine: E, fast: boolean): Promise<number> => {
        let seq = snapshotSeq;
        const commands: C[] = [];
        const marks: number[] = [];
        const markOf = o.journalMark;
        // Nothing journaled after the snapshot (a new database): no worker thread to start and stop.
        if (seq >= last) return seq;
        for await (const { keys, texts, parsed } of scan(seq)) {
          // The whole page is decoded, then applied: two tight loops took 10-20% less CPU than one that
          // alternates (bench/HISTORY.md, replay).
          commands.length = texts.length;
          marks.length = texts.length;
          const cache: unknown[] = [];
          for (let i = 0; i < texts.length; i++) {
            if (keys[i] !== seq + 1 + i) throw new Error(`journal gap: expected ${seq + 1 + i}, found ${keys[i]}`);
            commands[i] =
              pages !== undefined && parsed !== undefined
                ? pages.decode(texts[i]!, parsed, i, cache)
                : o.decode(texts[i]!);
            marks[i] = markOf === undefined ? 0 : markOf(texts[i]!);
          }
          if (fast) {
            // The command at seq + 1 + i has last - (seq + 1 + i) journaled commands after it.
            const after = last - seq - 1;
            for (let i = 0; i < commands.length; i++) engine.replay!(commands[i]!, after - i, marks[i]!);
          } else {
            for (let i = 0; i < commands.length; i++) engine.apply(commands[i]!);
          }
          seq += commands.length;
        }
        commands.length = 0;
        return seq;
      };
      const began = performance.now();
      let engine = start();
      const restored = performance.now();
      let seq = await replayJournal(engine, engine.replay !== undefined);
      if (engine.replayComplete?.() === false) {
        // Rare (see the engine's replayComplete()): the fast replay could not give apply()'s exact state.
        console.warn(`engine replay to ${seq} was incomplete; replaying again with apply()`);
        engine = start();
        seq = await replayJournal(engine, false);
      }
      const replayed = performance.now();
      const checkpoint = (
        await db.query<{ seq: number; state_hash: string }>(
          'SELECT seq, state_hash FROM engine_checkpoints WHERE seq = $1',
          [seq],
        )
      )[0];
      if (checkpoint) {
        const hash = engine.stateHash();
        if (hash !== checkpoint.state_hash)
          throw new StateMismatch(`replay to ${seq} gives hash ${hash}, checkpoint recorded ${checkpoint.state_hash}`);
      }
      const startup: Omit<StartupReport, 'skippedSnapshots'> = {
        snapshotSeq,
        snapshotMs: Math.round(restored - began),
        replayed: seq - snapshotSeq,
        replayMs: Math.round(replayed - restored),
        checkpointChecked: checkpoint !== undefined,
        hashMs: Math.round(performance.now() - replayed),
      };
      return { engine, seq, startup };
    };
    // The newest snapshot first. One that does not restore to its recorded hash, or whose replay does not
    // meet the checkpoint, gives way to the one before it, and the last of them to the journal's start:
    // the journal holds every command, so any of them reaches the same state, only more slowly.
    const snapshots = (await db.query<{ seq: number }>('SELECT seq FROM engine_snapshots ORDER BY seq DESC')).map(
      (row) => Number(row.seq),
    );
    let started: Awaited<ReturnType<typeof startFrom>> | undefined;
    const skipped: number[] = [];
    for (let k = 0; started === undefined; k++) {
      try {
        started = await startFrom(snapshots[k] ?? 0);
      } catch (error) {
        if (!(error instanceof StateMismatch) || k >= snapshots.length) throw error;
        skipped.push(snapshots[k] as number);
        const next = snapshots[k + 1];
        console.warn(
          `${error.message}: starting from ${next === undefined ? "the journal's start" : `the snapshot at ${next}`} instead`,
        );
      }
    }
    if (skipped.length > 0) {
      // Proven wrong: never to be loaded again (after a crash no checkpoint would catch them), nor to
      // keep a right snapshot at the same seq out.
      await deleteSnapshots(db, skipped);
    }
    const { engine, seq } = started;
    const startup: StartupReport = { ...started.startup, skippedSnapshots: skipped };
    const snapshotSeq = startup.snapshotSeq;
    const host = new EngineHost<C, R, E>(engine, seq, snapshotSeq, o, startup);
    if (o.snapshotWorker && db.readSource) {
      host.#startSnapshotWorker(o.snapshotWorker, {
        module: o.snapshotWorker.href,
        source: db.readSource,
        snapshotSeq,
        seq,
        every: o.snapshotEvery,
      });
    }
    return host;
  }

  #startSnapshotWorker(module: URL, data: SnapshotWorkerData) {
    const worker = new Worker(WORKER, { workerData: data });
    worker.on('message', (message: SnapshotMade | SnapshotWorkerHash) => {
      if ('gzip' in message) this.#storing = this.#storing.then(() => this.#storeSnapshot(message));
    });
    const stop = (why: unknown) => {
      if (this.#snapshots !== worker) return;
      this.#snapshots = null;
      if (this.#closed || this.#failed) return;
      const name = module.protocol === 'file:' ? module.pathname : module.protocol;
      console.warn(`snapshot worker (${name}) stopped; the writer makes the snapshots from now on`, why);
    };
    worker.on('error', stop);
    worker.on('exit', (code) => stop(`exit code ${code}`));
    // Never what keeps the process alive: close() ends it, and an exit needs no snapshot. (After the
    // listeners: adding a 'message' listener refs the worker again.)
    worker.unref();
    this.#snapshots = worker;
    this.#workerStarted = true;
  }

  async #storeSnapshot({ seq, hash, gzip }: SnapshotMade) {
    try {
      const inserted = await this.#o.db.transaction(async (tx) => {
        const rows = await tx.run(
          `INSERT INTO engine_snapshots (seq, state_hash, state, state_gzip, created_at) VALUES ($1, $2, '', $3, $4)
           ON CONFLICT (seq) DO NOTHING`,
          [seq, hash, gzip, this.#o.now()],
        );
        await tx.run(PRUNE_SNAPSHOTS);
        return rows;
      });
      this.#lastSnapshotSeq = Math.max(this.#lastSnapshotSeq, seq);
      this.#workerBehindSince = -1;
      // Only the newest SNAPSHOTS_KEPT can still be there.
      if (inserted > 0) this.#workerSnapshots = [...this.#workerSnapshots, seq].slice(-SNAPSHOTS_KEPT);
    } catch (error) {
      // A snapshot only shortens start-up: the journal still holds every command.
      console.error(`storing the snapshot at ${seq} failed`, error);
    }
  }

  get seq(): number {
    return this.#seq;
  }

  /** Whether a snapshot worker makes the snapshots (false: the writer does, in a batch's transaction). */
  get snapshotsOffWriter(): boolean {
    return this.#snapshots !== null;
  }

  /** After close(): how the worker's state compared with the writer's (undefined: no worker was running). */
  get workerCheck(): WorkerCheck | undefined {
    return this.#workerCheck;
  }

  /**
   * Settles once every command through `seq` (one already applied) is committed and on disk, so that
   * another connection sees its read-model rows: for a reader that must not run ahead of the engine
   * state it compares them with (reconciliation). Rejects once the host has failed.
   */
  committed(seq: number): Promise<void> {
    if (seq > this.#seq) throw new RangeError(`seq ${seq} has not been applied (the last is ${this.#seq})`);
    if (this.#failed) return Promise.reject(this.#failed);
    if (seq <= this.#durableSeq) return DURABLE;
    return new Promise((resolve, reject) => this.#durableWaiters.push({ seq, resolve, reject }));
  }

  /** Applies the command now and answers once its batch is durably committed. */
  submit(command: C): Promise<R> {
    return this.apply(command).committed;
  }

  /**
   * Applies now and answers the result at once, with a promise of its commit. Only for the platform's
   * own commands that need the result to issue the next one (a market maker's quotes); anything a
   * customer is told must wait for `committed`.
   */
  apply(command: C): { result: R | undefined; committed: Promise<R> } {
    if (this.#failed) return { result: undefined, committed: Promise.reject(this.#failed) };
    if (this.#closed) return { result: undefined, committed: Promise.reject(new Error('engine host is closed')) };
    let result: R;
    try {
      result = this.engine.apply(command);
    } catch (error) {
      // The engine answers every expected failure with a rejection; a throw is a broken invariant, part
      // way through a command that will never be journaled. The state in memory can no longer be trusted
      // to be the journal's: stop, as for a failed commit, and restart from the journal.
      this.#fail(error, []);
      return { result: undefined, committed: Promise.reject(error) };
    }
    const repeat = this.engine.lastApplyWasRepeat === true;
    const seq = ++this.#seq;
    const committed = new Promise<R>((resolve, reject) => {
      this.#queue.push({ seq, command, result, repeat, resolve, reject });
      this.#flushing ??= this.#flushLoop();
    });
    const keeping = this.#o.keepWaitingResults;
    if (keeping !== undefined) {
      // The command applied `after` commands ago: if it is still waiting for its commit, its result is
      // made to hold its own now.
      const at = seq % keeping.after;
      if (this.#waitingSeq[at] !== 0) keeping.keep(this.#waiting[at] as R);
      this.#waitingSeq[at] = seq;
      this.#waiting[at] = result;
    }
    return { result, committed };
  }

  async #flushLoop(): Promise<void> {
    // Yield once so commands submitted in the same tick share the first commit.
    await new Promise((r) => setImmediate(r));
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#o.maxBatch);
      let durable: Promise<void>;
      let texts: string[];
      try {
        ({ durable, texts } = await this.#commit(batch));
      } catch (error) {
        this.#fail(error, batch);
        return;
      }
      const previous = this.#durable;
      // Callers hear back once their batch is on disk; batches reach the disk in commit order.
      this.#durable = durable.then(
        () => {
          // Never after a failure: a later batch is not durable if one before it was lost.
          if (this.#failed) for (const p of batch) p.reject(this.#failed);
          else {
            const forWorker: SnapshotWorkerBatch = { from: batch[0]!.seq, texts };
            this.#snapshots?.postMessage(forWorker);
            const waitingSeq = this.#waitingSeq;
            for (const p of batch) {
              if (waitingSeq.length > 0) {
                const at = p.seq % waitingSeq.length;
                if (waitingSeq[at] === p.seq) {
                  waitingSeq[at] = 0;
                  this.#waiting[at] = undefined;
                }
              }
              p.resolve(p.result);
            }
            this.#durableSeq = batch[batch.length - 1]!.seq;
            if (this.#durableWaiters.length > 0) {
              const waiting = this.#durableWaiters;
              this.#durableWaiters = waiting.filter((w) => w.seq > this.#durableSeq);
              for (const w of waiting) if (w.seq <= this.#durableSeq) w.resolve();
            }
          }
        },
        (error) => this.#fail(error, batch),
      );
      // Where the database syncs after COMMIT (SQLite), the next batch is built while this one syncs;
      // waiting for the batch before keeps at most one batch syncing and one waiting to, so commands
      // that arrive meanwhile gather into one larger commit instead of many small ones.
      await previous;
      if (this.#failed) return;
    }
    this.#flushing = null;
  }

  #fail(error: unknown, batch: readonly Pending<C, R>[]) {
    if (this.#failed) {
      for (const p of batch) p.reject(this.#failed);
      return;
    }
    this.#failed = error;
    this.#waiting.fill(undefined);
    this.#waitingSeq.fill(0);
    void this.#snapshots?.terminate();
    for (const p of [...batch, ...this.#queue.splice(0)]) p.reject(error);
    for (const w of this.#durableWaiters.splice(0)) w.reject(error);
    this.#flushing = null;
    this.#o.onFatal(error);
  }

  /**
   * Journals a batch with its read-model rows; resolves at COMMIT with a promise of it being on disk and
   * the batch's journal lines.
   */
  async #commit(batch: readonly Pending<C, R>[]): Promise<{ durable: Promise<void>; texts: string[] }> {
    const { db } = this.#o;
    if (db.transactionEarly) {
      const { result, durable } = await db.transactionEarly((tx, previous) => this.#write(tx, batch, previous));
      return { durable, texts: result };
    }
    const texts = await db.transaction((tx) => this.#write(tx, batch, DURABLE));
    return { durable: DURABLE, texts };
  }

  /** Writes the batch's journal rows and read-model rows (and a snapshot if the writer makes them). */
  async #write(tx: Sql, batch: readonly Pending<C, R>[], previousCommitted: Promise<void>): Promise<string[]> {
    const last = batch[batch.length - 1]!.seq;
    const worker = this.#snapshots;
    const behind = last - Math.max(this.#lastSnapshotSeq, this.#startSeq) >= WORKER_BEHIND * this.#o.snapshotEvery;
    if (worker && behind) {
      const now = performance.now();
      if (this.#workerBehindSince === -1) this.#workerBehindSince = now;
      if (now - this.#workerBehindSince >= this.#o.snapshotWorkerPatienceMs) {
        // Stuck, or far behind for long (catching up takes seconds): the writer takes over.
        this.#snapshots = null;
        void worker.terminate();
        console.warn(`snapshot worker is ${WORKER_BEHIND} snapshots behind; the writer takes over`);
      }
    }
    const takeSnapshot = this.#snapshots === null && last - this.#lastSnapshotSeq >= this.#o.snapshotEvery;
    const texts = batch.map((p) => this.#o.encode(p.command, p.repeat));
    // SQLite: one prepared row at a time (it binds numbered parameters in roughly quadratic time).
    // PostgreSQL: one statement for the batch, an array per column (a short text to parse).
    if (tx.dialect === 'sqlite') {
      for (let i = 0; i < batch.length; i++)
        await tx.run('INSERT INTO engine_journal (seq, command) VALUES ($1, $2)', [batch[i]!.seq, texts[i]!]);
    } else {
      await tx.run('INSERT INTO engine_journal (seq, command) SELECT * FROM unnest($1::bigint[], $2::text[])', [
        batch.map((p) => p.seq),
        texts,
      ]);
    }
    await this.#o.project?.(tx, batch, previousCommitted);
    // A snapshot must describe exactly `last`: valid only when nothing newer has been applied yet.
    if (takeSnapshot && this.#seq === last) {
      const { json, hash } = serialise(this.engine as ReplayableEngine<unknown, unknown>);
      await tx.run('INSERT INTO engine_snapshots (seq, state_hash, state, created_at) VALUES ($1, $2, $3, $4)', [
        last,
        hash,
        json,
        this.#o.now(),
      ]);
      await tx.run(PRUNE_SNAPSHOTS);
      this.#lastSnapshotSeq = last;
    }
    return texts;
  }

  /**
   * Waits for every submitted command to commit, checks the snapshot worker's state against the writer's
   * (dropping its snapshots if they differ), records a checkpoint hash, and stops accepting.
   */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#flushing) await this.#flushing;
    await this.#durable;
    const worker = this.#snapshots;
    this.#snapshots = null;
    // A worker that stopped on its way left snapshots nobody compared.
    if (this.#workerStarted && !worker) this.#workerCheck = 'unchecked';
    try {
      if (this.#failed) return;
      // The worker has been sent every batch: it hashes its state at the same seq while the writer does.
      const theirs = worker ? askHash(worker, this.#seq, this.#o.snapshotWorkerPatienceMs) : null;
      const hash = this.engine.stateHash();
      if (theirs) {
        const answer = await theirs;
        await worker?.terminate();
        await this.#storing; // every snapshot it sent is in, before any is dropped
        this.#workerCheck =
          answer === null ? 'unchecked' : answer.checked === this.#seq && answer.hash === hash ? 'agreed' : 'differed';
        if (this.#workerCheck === 'differed') {
          // Its snapshots are suspect (a start-up from one would fail the checkpoint below, and then fall
          // back to an older one): dropped before the checkpoint is written.
          console.error(
            `snapshot worker's state at ${answer?.checked} hashes ${answer?.hash}, the writer's at ${this.#seq} ` +
              `${hash}: dropping its snapshots`,
          );
          await deleteSnapshots(this.#o.db, this.#workerSnapshots.splice(0));
        }
      }
      await this.#o.db.run(
        'INSERT INTO engine_checkpoints (seq, state_hash, created_at) VALUES ($1, $2, $3) ON CONFLICT (seq) DO NOTHING',
        [this.#seq, hash, this.#o.now()],
      );
    } finally {
      await worker?.terminate();
      await this.#storing;
    }
  }
}
