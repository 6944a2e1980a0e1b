// The engine host: the one writer. Commands are applied in arrival order by the deterministic engine,
// then journaled in batches (group commit) together with the read-model rows their results produce,
// in one transaction; each caller is answered only after that commit. Snapshots every N commands.
// Start-up = last snapshot (its hash checked) + replay of the journal after it (checked against the
// last checkpoint's hash). A failed commit stops the process: memory is ahead of disk, so it recovers
// by restarting from the journal, never by carrying on.

import type { Db, Sql } from '@bourse/db';

/** What the host needs of an engine: deterministic apply, a hash of its whole state, snapshots. */
export interface ReplayableEngine<C, R> {
  apply(command: C): R;
  stateHash(): string;
  snapshot(): unknown;
  /** The snapshot's JSON and its hash from one snapshot, when the engine can (else both separately). */
  snapshotState?(): { json: string; hash: string };
}

export type Applied<C, R> = { seq: number; command: C; result: R };

export type EngineHostOptions<C, R, E extends ReplayableEngine<C, R>> = {
  db: Db;
  create: () => E;
  restore: (snapshot: unknown) => E;
  encode: (command: C) => string;
  decode: (text: string) => C;
  /** Writes the read-model rows for a batch, inside the journal's transaction. */
  project?: (tx: Sql, batch: readonly Applied<C, R>[]) => Promise<void>;
  snapshotEvery?: number;
  maxBatch?: number;
  /** Journal rows read per query at start-up. */
  replayPage?: number;
  now?: () => number;
  /** Called when a commit fails; the default ends the process so it restarts from the journal. */
  onFatal?: (error: unknown) => void;
};

type HostConfig<C, R, E extends ReplayableEngine<C, R>> = Required<Omit<EngineHostOptions<C, R, E>, 'project'>> &
  Pick<EngineHostOptions<C, R, E>, 'project'>;

type Pending<C, R> = Applied<C, R> & { resolve: (r: R) => void; reject: (e: unknown) => void };

const JOURNAL_CHUNK = 500;
/** Journal rows read per query at start-up (keyset pages: WHERE seq > last ORDER BY seq LIMIT n). */
export const JOURNAL_PAGE = 10_000;

type JournalRow = { seq: number; command: string };
const NO_ROWS: JournalRow[] = [];

export class EngineHost<C, R, E extends ReplayableEngine<C, R>> {
  readonly engine: E;
  readonly #o: HostConfig<C, R, E>;
  #seq: number;
  #lastSnapshotSeq: number;
  #queue: Pending<C, R>[] = [];
  #flushing: Promise<void> | null = null;
  #failed: unknown = null;
  #closed = false;

  private constructor(engine: E, seq: number, lastSnapshotSeq: number, options: HostConfig<C, R, E>) {
    this.engine = engine;
    this.#seq = seq;
    this.#lastSnapshotSeq = lastSnapshotSeq;
    this.#o = options;
  }

  /** Loads the last snapshot, replays the journal after it and checks the state hashes. */
  static async open<C, R, E extends ReplayableEngine<C, R>>(options: EngineHostOptions<C, R, E>) {
    const o = {
      snapshotEvery: 100_000,
      maxBatch: 2_000,
      replayPage: JOURNAL_PAGE,
      now: () => Date.now(),
      onFatal: (error: unknown) => {
        console.error('engine journal commit failed; stopping so the process restarts from the journal', error);
        process.exit(70);
      },
      ...options,
    };
    const { db } = o;
    const snap = (
      await db.query<{ seq: number; state_hash: string; state: string }>(
        'SELECT seq, state_hash, state FROM engine_snapshots ORDER BY seq DESC LIMIT 1',
      )
    )[0];
    let engine: E;
    let seq = 0;
    if (snap) {
      engine = o.restore(JSON.parse(snap.state));
      const hash = engine.stateHash();
      if (hash !== snap.state_hash)
        throw new Error(`snapshot ${snap.seq} restores to hash ${hash}, recorded ${snap.state_hash}`);
      seq = Number(snap.seq);
    } else {
      engine = o.create();
    }
    const snapshotSeq = seq;
    // The journal after the snapshot, in keyset pages; a short page is the last one. On a database
    // server the next page is asked for before this one is applied, so the server reads and sends it
    // meanwhile. node:sqlite reads synchronously on this thread: reading ahead would overlap nothing and
    // only keep two pages alive for the garbage collector to copy, so there a page is read when needed.
    const readAhead = db.dialect !== 'sqlite';
    const readPage = (after: number): Promise<JournalRow[]> => {
      const page = db.query<JournalRow>(
        'SELECT seq, command FROM engine_journal WHERE seq > $1 ORDER BY seq LIMIT $2',
        [after, o.replayPage],
      );
      page.catch(() => undefined); // reported where the page is awaited, not as an unhandled rejection
      return page;
    };
    const commands: C[] = [];
    let rows = await readPage(seq);
    for (;;) {
      const more = rows.length === o.replayPage;
      let next: Promise<JournalRow[]> | undefined;
      if (more && readAhead) {
        next = readPage(Number(rows[rows.length - 1]!.seq));
        // One turn of the event loop lets the driver send that query before the loop below holds the thread.
        await new Promise((resolve) => setImmediate(resolve));
      }
      // The whole page is decoded, then applied: two tight loops took 10-20% less CPU than one that
      // alternates (bench/README.md, replay), and the rows can go before the engine runs.
      commands.length = rows.length;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        if (Number(row.seq) !== seq + 1 + i) throw new Error(`journal gap: expected ${seq + 1 + i}, found ${row.seq}`);
        commands[i] = o.decode(row.command);
      }
      seq += rows.length;
      rows = NO_ROWS;
      for (let i = 0; i < commands.length; i++) engine.apply(commands[i]!);
      if (!more) break;
      rows = await (next ?? readPage(seq));
    }
    commands.length = 0;
    const checkpoint = (
      await db.query<{ seq: number; state_hash: string }>(
        'SELECT seq, state_hash FROM engine_checkpoints WHERE seq = $1',
        [seq],
      )
    )[0];
    if (checkpoint && checkpoint.state_hash !== engine.stateHash()) {
      throw new Error(
        `replay to ${seq} gives hash ${engine.stateHash()}, checkpoint recorded ${checkpoint.state_hash}`,
      );
    }
    return new EngineHost<C, R, E>(engine, seq, snapshotSeq, o);
  }

  get seq(): number {
    return this.#seq;
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
    const result = this.engine.apply(command);
    const seq = ++this.#seq;
    const committed = new Promise<R>((resolve, reject) => {
      this.#queue.push({ seq, command, result, resolve, reject });
      this.#flushing ??= this.#flushLoop();
    });
    return { result, committed };
  }

  async #flushLoop(): Promise<void> {
    // Yield once so commands submitted in the same tick share the first commit.
    await new Promise((r) => setImmediate(r));
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#o.maxBatch);
      try {
        await this.#commit(batch);
      } catch (error) {
        this.#failed = error;
        for (const p of [...batch, ...this.#queue.splice(0)]) p.reject(error);
        this.#flushing = null;
        this.#o.onFatal(error);
        return;
      }
      for (const p of batch) p.resolve(p.result);
    }
    this.#flushing = null;
  }

  async #commit(batch: readonly Pending<C, R>[]) {
    const last = batch[batch.length - 1]!.seq;
    const takeSnapshot = last - this.#lastSnapshotSeq >= this.#o.snapshotEvery;
    await this.#o.db.transaction(async (tx) => {
      for (let i = 0; i < batch.length; i += JOURNAL_CHUNK) {
        const chunk = batch.slice(i, i + JOURNAL_CHUNK);
        const values = chunk.map((_, k) => `($${2 * k + 1}, $${2 * k + 2})`).join(', ');
        await tx.run(
          `INSERT INTO engine_journal (seq, command) VALUES ${values}`,
          chunk.flatMap((p) => [p.seq, this.#o.encode(p.command)]),
        );
      }
      await this.#o.project?.(tx, batch);
      // A snapshot must describe exactly `last`: valid only when nothing newer has been applied yet.
      if (takeSnapshot && this.#seq === last) {
        const { json, hash } = this.engine.snapshotState?.() ?? {
          json: JSON.stringify(this.engine.snapshot()),
          hash: this.engine.stateHash(),
        };
        await tx.run('INSERT INTO engine_snapshots (seq, state_hash, state, created_at) VALUES ($1, $2, $3, $4)', [
          last,
          hash,
          json,
          this.#o.now(),
        ]);
        this.#lastSnapshotSeq = last;
      }
    });
  }

  /** Waits for every submitted command to commit, records a checkpoint hash, and stops accepting. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#flushing) await this.#flushing;
    if (this.#failed) return;
    await this.#o.db.run(
      'INSERT INTO engine_checkpoints (seq, state_hash, created_at) VALUES ($1, $2, $3) ON CONFLICT (seq) DO NOTHING',
      [this.#seq, this.engine.stateHash(), this.#o.now()],
    );
  }
}
