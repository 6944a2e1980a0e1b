// The trading engine as the server runs it: @bourse/engine inside the journaled host, its events
// projected into the read tables. Commands are stamped with the sequencer's clock here, in one place.
// Must hold: a command whose text the read tables cannot store (see isStorable) never reaches the
// journal: PostgreSQL refuses NUL in text, so its batch's commit would fail and stop the host.

import type { Db, Sql } from '@bourse/db';
import {
  type ApplyResult,
  type Command,
  decodeParsedLine,
  type Engine,
  type EngineEvent,
  encodeJournalLine,
  JOURNAL_PAGE_PARSER,
  journalMark,
  LoggedResult,
  MIN_RESULT_RETENTION,
  type ParsedJournalPage,
} from '@bourse/engine';
import type { Clock } from '../platform/clock.ts';
import { type Applied, EngineHost, type StartupReport } from './engine-host.ts';
import { projectBatch } from './projection.ts';
import { snapshotEngine } from './trading-snapshots.ts';

const TRADING_SNAPSHOTS = new URL('./trading-snapshots.ts', import.meta.url);

/** Writes a feature's read rows from a batch of applied commands, inside the journal's transaction. */
export type BatchProjector = (
  tx: Sql,
  batch: readonly Applied<Command, ApplyResult>[],
  /** Settles when the batch before has committed (its rows readable from this transaction). */
  previousCommitted: Promise<void>,
) => Promise<void>;

/** A command as features write it: the host adds the sequencer's time. */
export type CommandInput = Command extends infer C ? (C extends Command ? Omit<C, 'timeMs'> : never) : never;

const UNSTORABLE: ApplyResult = Object.freeze({ ok: false as const, code: 'invalid_command' as const });

/**
 * Whether every text of a command can be stored as it is: no NUL (PostgreSQL's text refuses it; one in a
 * client order id stopped the server) and no lone surrogate (UTF-8 has no form for it, so the driver
 * would store another string than the engine holds). Top-level strings only: nested values (a
 * trigger) reach the tables as JSON, which escapes both.
 */
export function isStorable(command: object): boolean {
  for (const key in command) {
    const value = (command as Record<string, unknown>)[key];
    if (typeof value === 'string' && (value.includes('\0') || !value.isWellFormed())) return false;
  }
  return true;
}

export class TradingEngine {
  readonly #host: EngineHost<Command, ApplyResult, Engine>;
  readonly #clock: Clock;
  readonly #listeners = new Set<(events: readonly EngineEvent[]) => void>();
  readonly #appliedListeners = new Set<(command: CommandInput, result: ApplyResult) => void>();
  private constructor(host: EngineHost<Command, ApplyResult, Engine>, clock: Clock) {
    this.#host = host;
    this.#clock = clock;
  }

  /**
   * `snapshotWorker`: snapshots are made off the writer by a worker holding a copy of the engine, where
   * the database has a second connection for it to catch up through (not SQLite in memory).
   */
  static async open(
    db: Db,
    clock: Clock,
    options: {
      snapshotEvery?: number;
      snapshotWorker?: boolean;
      onFatal?: (e: unknown) => void;
      /** A feature's own read rows, written from each batch in the journal's transaction (with its commit). */
      alsoProject?: readonly BatchProjector[];
    } = {},
  ) {
    const { snapshotWorker, alsoProject = [], ...rest } = options;
    const host = await EngineHost.open<Command, ApplyResult, Engine>({
      db,
      create: snapshotEngine.create,
      restore: snapshotEngine.restore,
      encode: encodeJournalLine,
      decode: snapshotEngine.decode,
      journalMark,
      // Journal pages parsed on the thread that reads them (bench/HISTORY.md, session 10).
      journalPages: {
        parser: JOURNAL_PAGE_PARSER,
        decode: (text, parsed, i, cache) => decodeParsedLine(text, parsed as ParsedJournalPage, i, cache),
      },
      // A result waiting long for its commit keeps its own events (the result log moves on): well
      // before the log forgets it.
      keepWaitingResults: {
        after: MIN_RESULT_RETENTION / 2,
        keep: (result: ApplyResult) => {
          if (result instanceof LoggedResult) result.keep();
        },
      },
      project: async (tx, batch, previousCommitted) => {
        await projectBatch(tx, batch, previousCommitted);
        for (const project of alsoProject) await project(tx, batch, previousCommitted);
      },
      now: () => clock.now(),
      ...(snapshotWorker ? { snapshotWorker: TRADING_SNAPSHOTS } : {}),
      ...rest,
    });
    return new TradingEngine(host, clock);
  }

  /** What start-up did and how long it took (see StartupReport). */
  get startup(): StartupReport {
    return this.#host.startup;
  }

  /** Whether a snapshot worker takes the snapshots (else the writer does). */
  get snapshotsOffWriter(): boolean {
    return this.#host.snapshotsOffWriter;
  }

  /** Live state, read-only: balances, books, open orders. */
  get state(): Engine {
    return this.#host.engine;
  }

  /** The sequence number of the last command applied (a version for live views such as books). */
  get seq(): number {
    return this.#host.seq;
  }

  /** Settles once every command through `seq` is committed, its read-model rows visible (EngineHost.committed). */
  committed(seq: number): Promise<void> {
    return this.#host.committed(seq);
  }

  submit(command: CommandInput): Promise<ApplyResult> {
    return this.apply(command).committed;
  }

  /**
   * Applies at once and answers the result before the commit (see EngineHost.apply). A command holding
   * text the database cannot store is refused here (invalid_command), unjournaled: the engine's rules
   * stay as they were, so journals written before replay as they did.
   */
  apply(command: CommandInput): { result: ApplyResult | undefined; committed: Promise<ApplyResult> } {
    if (!isStorable(command)) return { result: UNSTORABLE, committed: Promise.resolve(UNSTORABLE) };
    const applied = this.#host.apply({ ...command, timeMs: this.#clock.now() } as Command);
    const result = applied.result;
    if (result?.ok && this.#appliedListeners.size > 0) {
      for (const listener of this.#appliedListeners) listener(command, result);
    }
    if (this.#listeners.size > 0) {
      applied.committed.then(
        (result) => {
          if (result.ok && result.events.length > 0) for (const listener of this.#listeners) listener(result.events);
        },
        () => {},
      );
    }
    return applied;
  }

  /** Events of each successful command once its commit is durable (for live views, never for money). */
  onCommitted(listener: (events: readonly EngineEvent[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Each successful command as it is applied, before its commit: for host-side indexes of live state
   * (the perpetuals' liquidation watch) that must follow the engine command by command. The listener runs
   * on the writer's path: it must be cheap, and it must not send commands.
   */
  onApplied(listener: (command: CommandInput, result: ApplyResult) => void): () => void {
    this.#appliedListeners.add(listener);
    return () => this.#appliedListeners.delete(listener);
  }

  close(): Promise<void> {
    return this.#host.close();
  }
}
