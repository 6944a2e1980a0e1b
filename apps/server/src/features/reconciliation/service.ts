// The reconciliation (ARCHITECTURE.md, "the engine"): the engine's ledger checked at one seq S, the
// read tables checked against it at the same S, and the staff audit log's hash chain; once after start-up
// and every RECONCILE_EVERY_MIN minutes, or when staff ask. The last report is kept in memory.
// Must hold: S and the engine's figures are taken in one synchronous pass, and the tables are read only
// once every command through S is committed, only as they were at S: orders placed during a run never
// show as a discrepancy. Runs never overlap (one asked for during another joins it).
// Must not: change anything but the audit log (a staff member's request is audited), or read big tables
// on the server's thread where a reader of its own can (a worker thread does).

import { Worker } from 'node:worker_threads';
import type { Discrepancy, ReconciliationReport, ReconciliationState } from '@bourse/contract';
import type { Db, ReadSource } from '@bourse/db';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import type { Clock } from '../../platform/clock.ts';
import { appendAudit } from '../staff/audit.ts';
import { captureEngine, type EngineFigures } from './engine-figures.ts';
import { checkTables, DISCREPANCIES_KEPT, type TableFindings } from './tables.ts';
import type { TablesWorkerAnswer, TablesWorkerData } from './tables-worker.ts';

const WORKER = new URL('./tables-worker.ts', import.meta.url);

/** The start-up run waits this long, so that it never holds /health or the first requests. */
export const FIRST_RUN_DELAY_MS = 30_000;

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
  /** For tests: the length of a minute. */
  minuteMs?: number;
};

type Trigger = ReconciliationReport['trigger'];

export class Reconciliation {
  readonly #o: Required<ReconciliationOptions>;
  #last: ReconciliationReport | null = null;
  #running: Promise<ReconciliationReport> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(options: ReconciliationOptions) {
    this.#o = { firstRunDelayMs: FIRST_RUN_DELAY_MS, minuteMs: 60_000, ...options };
  }

  state(): ReconciliationState {
    return { last: this.#last, running: this.#running !== null, everyMin: this.#o.everyMin };
  }

  /** Schedules the start-up run and the periodic ones after it (none when everyMin is 0). */
  start(): void {
    if (this.#o.everyMin > 0) this.#schedule('start_up', this.#o.firstRunDelayMs);
  }

  /** Cancels the scheduled runs and waits for one in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running?.catch(() => undefined);
  }

  /** Runs one now, or joins the one running. */
  run(trigger: Trigger): Promise<ReconciliationReport> {
    this.#running ??= this.#reconcile(trigger).finally(() => {
      this.#running = null;
    });
    return this.#running;
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
        .catch((error: unknown) => this.#o.log.error({ err: error }, 'reconciliation could not run'))
        .finally(() => this.#schedule('schedule', this.#o.everyMin * this.#o.minuteMs));
    }, delayMs);
    this.#timer.unref(); // never what keeps the process alive
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
    const tables = db.readSource
      ? await readOffThread(db.readSource, captured.figures)
      : await checkTables(db, captured.figures, () => new Promise((resolve) => setImmediate(resolve)));
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
}

/** The table checks on a worker thread with its own read connection. */
function readOffThread(source: ReadSource, figures: EngineFigures): Promise<TableFindings> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { source, figures } satisfies TablesWorkerData });
    worker.once('message', (answer: TablesWorkerAnswer) => {
      if ('error' in answer) reject(new Error(`reconciliation worker: ${answer.error}`));
      else resolve(answer.findings);
    });
    worker.once('error', reject);
    // After an answer this changes nothing: a promise settles once.
    worker.once('exit', (code) => reject(new Error(`reconciliation worker exited (${code}) without an answer`)));
  });
}
