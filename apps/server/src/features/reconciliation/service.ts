// The reconciliation (ARCHITECTURE.md, "the engine"): the engine's ledger checked at one seq S, the
// read tables checked against it at the same S, and the staff audit log's hash chain; once after start-up
// and every RECONCILE_EVERY_MIN minutes, or when staff ask. The last report is kept in memory, and the
// audit log's tip (its newest entry, by id and hash) for the next run to look for: with it a run sees
// the newest entries removed, or the log rewritten with its hashes recomputed, which the chain cannot.
// Must hold: S and the engine's figures are taken in one synchronous pass, and the tables are read only
// once every command through S is committed, only as they were at S: orders placed during a run never
// show as a discrepancy. Runs never overlap, and a report never predates its request: one asked for while
// another runs gets the next run, which starts when the current one ends, shared by every request made
// meanwhile. A reading on a worker thread is ended after RUN_LIMIT_MIN minutes, or by stop().
// Must not: change anything but the audit log (a staff member's request is audited), or read big tables
// on the server's thread where a reader of its own can (a worker thread does).

import { Worker } from 'node:worker_threads';
import type { Discrepancy, ReconciliationReport, ReconciliationState } from '@bourse/contract';
import type { Db } from '@bourse/db';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import type { Clock } from '../../platform/clock.ts';
import { type AuditTip, appendAudit } from '../staff/audit.ts';
import { captureEngine } from './engine-figures.ts';
import { checkTables, DISCREPANCIES_KEPT, type TableFindings } from './tables.ts';
import type { TablesWorkerAnswer, TablesWorkerData } from './tables-worker.ts';

const WORKER = new URL('./tables-worker.ts', import.meta.url);

/** The start-up run waits this long, so that it never holds /health or the first requests. */
export const FIRST_RUN_DELAY_MS = 30_000;
/**
 * A reading of the tables on a worker thread still going after this long is ended and its run fails: a
 * stuck one would otherwise hold every later run, and shutdown, for ever. Generous, so that a slow but
 * sound reading of big tables is not the one ended.
 */
export const RUN_LIMIT_MIN = 10;

export type ReconciliationLog = {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
};

export type ReconciliationOptions = {
  db: Db;
  engine: TradingEngine;
  clock: Clock;
  log: ReconciliationLog;
  /** Minutes between scheduled runs; 0: none (not even after start-up), only runs staff ask for. */
  everyMin: number;
  firstRunDelayMs?: number;
  /** For tests: the length of a minute (of the interval and of the time limit). */
  minuteMs?: number;
  /** For tests: the worker that reads the tables (one that never answers meets the time limit). */
  tablesWorker?: URL;
};

type Trigger = ReconciliationReport['trigger'];

export class Reconciliation {
  readonly #o: Required<ReconciliationOptions>;
  #last: ReconciliationReport | null = null;
  /**
   * The audit tip the next run looks for: the last run's, unless that run found the one before it gone or
   * changed, which is then kept, so that every later run reports it too (in memory: a restart forgets it).
   */
  #auditTip: AuditTip | null = null;
  #running: Promise<ReconciliationReport> | null = null;
  /** The run that starts when the one running ends, and the trigger it will report. */
  #next: { trigger: Trigger; report: Promise<ReconciliationReport> } | null = null;
  /** Ends the worker reading the tables for the run in progress (its run fails with `error`). */
  #endReading: ((error: Error) => Promise<void>) | null = null;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(options: ReconciliationOptions) {
    this.#o = { firstRunDelayMs: FIRST_RUN_DELAY_MS, minuteMs: 60_000, tablesWorker: WORKER, ...options };
  }

  state(): ReconciliationState {
    return { last: this.#last, running: this.#running !== null || this.#next !== null, everyMin: this.#o.everyMin };
  }

  /** Schedules the start-up run and the periodic ones after it (none when everyMin is 0). */
  start(): void {
    if (this.#o.everyMin > 0) this.#schedule('start_up', this.#o.firstRunDelayMs);
  }

  /** Cancels the scheduled runs and the next one, ends a worker's reading in progress, and waits for both. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    // Waited for whatever happens to them; a caller of run() hears how each ended.
    const ending = Promise.allSettled([this.#running, this.#next?.report]);
    await this.#endReading?.(new Error(STOPPED));
    await ending;
  }

  /**
   * Runs one now, or, while one runs, answers the next run: a request is answered by a run that began
   * after it, never by one whose figures were taken before it was made.
   */
  run(trigger: Trigger): Promise<ReconciliationReport> {
    if (this.#stopped) return Promise.reject(new Error(STOPPED));
    if (this.#running === null && this.#next === null) return this.#begin(trigger);
    if (this.#next === null) {
      const report = settled(this.#running as Promise<unknown>).then(() => {
        const next = this.#next as { trigger: Trigger }; // set below, before this runs
        this.#next = null;
        return this.#stopped ? Promise.reject(new Error(STOPPED)) : this.#begin(next.trigger);
      });
      this.#next = { trigger, report };
    } else if (trigger === 'staff') {
      // Someone asked for it: its report says so, as it would had they asked first.
      this.#next.trigger = 'staff';
    }
    return this.#next.report;
  }

  /**
   * A run a staff member asked for, written to the audit log with what it found. It changes nothing, but
   * it is a staff action whose outcome (balanced or not, at which seq) people act on and may later be
   * asked about, and it costs a read of every ledger table: the log shows who asked and what they saw.
   * Scheduled runs are no one's action; the server's log has theirs.
   */
  async runFor(staffId: number): Promise<ReconciliationReport> {
    const report = await this.run('staff');
    await this.#o.db.transaction((tx) =>
      appendAudit(
        tx,
        {
          staffId,
          action: 'reconciliation.run',
          targetType: 'reconciliation',
          targetId: String(report.seq),
          reason: '',
          detail: { status: report.status, discrepancyCount: report.discrepancyCount },
        },
        this.#o.clock.now(),
      ),
    );
    return report;
  }

  #schedule(trigger: Trigger, delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.run(trigger)
        .catch(() => {}) // logged by #begin
        .finally(() => this.#schedule('schedule', this.#o.everyMin * this.#o.minuteMs));
    }, delayMs);
    this.#timer.unref(); // never what keeps the process alive
  }

  /** Starts a run (none is running); a run that fails is logged at error level, whoever asked for it. */
  #begin(trigger: Trigger): Promise<ReconciliationReport> {
    const running = this.#reconcile(trigger)
      .catch((error: unknown) => {
        if (this.#stopped) this.#o.log.info({ trigger, err: error }, 'reconciliation stopped with the server');
        else this.#o.log.error({ trigger, err: error }, 'reconciliation could not run');
        throw error;
      })
      .finally(() => {
        this.#running = null;
      });
    this.#running = running;
    return running;
  }

  async #reconcile(trigger: Trigger): Promise<ReconciliationReport> {
    const { db, engine, clock, log } = this.#o;
    const startedAt = clock.now();
    const began = performance.now();
    // S and the engine's figures in one synchronous pass: no command can land in between.
    const seq = engine.seq;
    const captured = captureEngine(engine.state, seq);
    const engineMs = Math.round(performance.now() - began);
    // Every row of the commands through S is written before any is read; those after S are left out.
    await engine.committed(seq);
    // Stopped meanwhile: no reading starts that stop() would not end.
    if (this.#stopped) throw new Error(STOPPED);
    const tables = db.readSource
      ? await this.#readOffThread({ source: db.readSource, figures: captured.figures, previousTip: this.#auditTip })
      : await checkTables(db, captured.figures, this.#auditTip, () => new Promise((resolve) => setImmediate(resolve)));
    if (!tables.auditChain.previousTipChanged) this.#auditTip = tables.auditTip;
    const count = captured.discrepancies.length + tables.discrepancyCount;
    const report: ReconciliationReport = {
      status: count === 0 ? 'ok' : 'failed',
      trigger,
      startedAt: new Date(startedAt).toISOString(),
      finishedAt: new Date(clock.now()).toISOString(),
      durationMs: Math.round(performance.now() - began),
      engineMs,
      seq,
      checked: {
        accounts: captured.figures.accountKeys.length,
        transfers: tables.transfers,
        liveOrders: captured.figures.liveOrderIds.length,
        trades: tables.trades,
      },
      assets: captured.assets,
      discrepancies: ([] as Discrepancy[])
        .concat(captured.discrepancies, tables.discrepancies)
        .slice(0, DISCREPANCIES_KEPT),
      discrepancyCount: count,
      auditChain: tables.auditChain,
    };
    if (report.status === 'failed') {
      log.error(
        { seq, discrepancyCount: count, discrepancies: report.discrepancies },
        'reconciliation found discrepancies',
      );
    } else {
      log.info({ seq, durationMs: report.durationMs, engineMs }, 'reconciliation balanced');
    }
    this.#last = report;
    return report;
  }

  /**
   * The table checks on a worker thread with its own read connection. Past RUN_LIMIT_MIN minutes, or on
   * stop(), the worker is terminated and the run fails.
   */
  #readOffThread(data: TablesWorkerData): Promise<TableFindings> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(this.#o.tablesWorker, { workerData: data });
      const end = async (error: Error) => {
        reject(error);
        await worker.terminate();
      };
      const overdue = new Error(
        `reconciliation: reading the tables took longer than its limit of ${RUN_LIMIT_MIN} minutes; its worker was ended`,
      );
      const limit = setTimeout(() => void end(overdue), RUN_LIMIT_MIN * this.#o.minuteMs);
      this.#endReading = end;
      worker.once('message', (answer: TablesWorkerAnswer) => {
        if ('error' in answer) reject(new Error(`reconciliation worker: ${answer.error}`));
        else resolve(answer.findings);
      });
      worker.once('error', reject);
      // After an answer this changes nothing: a promise settles once.
      worker.once('exit', (code) => {
        clearTimeout(limit);
        // A run ended at its limit fails at once, so the next one's worker may be reading by now.
        if (this.#endReading === end) this.#endReading = null;
        reject(new Error(`reconciliation worker exited (${code}) without an answer`));
      });
    });
  }
}

const STOPPED = 'the reconciliation was stopped';

/** Settles when `promise` does, whether it resolves or rejects. */
const settled = (promise: Promise<unknown>): Promise<void> =>
  promise.then(
    () => undefined,
    () => undefined,
  );
