// The payout outbox's worker: pays approved withdrawals through their rail (PayoutRail), posts the hold
// and records the end state. Crash-safe by construction (docs/decisions/0020):
// - the outbox row is written in the approval's transaction, so an approved withdrawal is never lost;
// - every rail call carries the withdrawal's idempotency key (payoutKey), and rails dedupe by it, so
//   asking again after a crash answers the first outcome instead of paying twice;
// - the hold is posted with an id derived from the withdrawal (postIdOf), idempotent in the engine for
//   good, so posting again after a crash moves nothing;
// - only then is the withdrawal marked paid and the outbox row done, in one transaction.
// Order per row: approved → paying (recorded) → rail.pay → post_hold (or void_hold on a refusal) → paid
// (or failed). A crash between any two steps is finished by the next run, which repeats the steps
// from the recorded state, each of them idempotent. recover() also finishes requests a crash left in
// `requested` and gives back holds of withdrawals recorded as rejected, cancelled or failed.

import type { Db } from '@bourse/db';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import type { Clock } from '../../platform/clock.ts';
import type { PayoutRails } from './payout-rail.ts';
import * as repo from './repo.ts';
import { holdIdOf, postIdOf, REFUNDED_STATES, type Withdrawals } from './service.ts';
import type { WithdrawSettings, WithdrawTerms } from './terms.ts';

/** A request older than this still in `requested` was cut off by a crash (a live one takes milliseconds). */
const STALE_REQUEST_MS = 60_000;

export type PausePoint = 'after_accept' | 'after_post';

export class Payouts {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #clock: Clock;
  readonly #rails: PayoutRails;
  readonly #terms: WithdrawTerms;
  readonly #withdrawals: Withdrawals;
  readonly #settings: WithdrawSettings;
  readonly #onPause: (point: PausePoint) => void;
  readonly #log: (message: string) => void;
  #running: Promise<void> | null = null;
  #again = false;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(deps: {
    db: Db;
    engine: TradingEngine;
    clock: Clock;
    rails: PayoutRails;
    terms: WithdrawTerms;
    withdrawals: Withdrawals;
    settings: WithdrawSettings;
    onPause?: (point: PausePoint) => void;
    log?: (message: string) => void;
  }) {
    this.#db = deps.db;
    this.#engine = deps.engine;
    this.#clock = deps.clock;
    this.#rails = deps.rails;
    this.#terms = deps.terms;
    this.#withdrawals = deps.withdrawals;
    this.#settings = deps.settings;
    this.#onPause = deps.onPause ?? (() => {});
    this.#log = deps.log ?? (() => {});
  }

  /** Recovers what a crash left, then works the outbox every payoutEveryMs (never when 0). */
  async start(): Promise<void> {
    await this.recover();
    if (this.#settings.payoutEveryMs > 0) {
      this.#timer = setInterval(() => this.kick(), this.#settings.payoutEveryMs);
      this.kick();
    }
  }

  /** Asks for a run soon (after an approval); a run in progress is followed by one more. */
  kick(): void {
    if (this.#stopped || this.#settings.payoutEveryMs === 0) return;
    this.runOnce().catch((error) => this.#log(`payout run failed: ${String(error)}`));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    // A run paused by the crash test never ends: do not wait for it.
    if (this.#settings.pauseAt === null) await this.#running?.catch(() => {});
  }

  /** One pass over the outbox; concurrent calls share the run (and ask for one more after it). */
  runOnce(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      try {
        do {
          this.#again = false;
          for (const row of await repo.pendingPayouts(this.#db)) {
            if (this.#stopped) return;
            await this.#payOne(row);
          }
        } while (this.#again && !this.#stopped);
      } finally {
        this.#running = null;
      }
    })();
    return this.#running;
  }

  /** Finishes requests cut off between their insert and their review, and gives back stranded holds. */
  async recover(): Promise<void> {
    for (const w of await repo.staleRequested(this.#db, this.#clock.now() - STALE_REQUEST_MS)) {
      if (this.#engine.state.fundsHold(holdIdOf(w.id))) await this.#withdrawals.advanceRequested(w.id);
      else await repo.deleteRequested(this.#db, w.id); // never held: the customer got no answer, nothing moved
    }
    for (const w of await repo.listByStatus(this.#db, REFUNDED_STATES, 10_000)) {
      if (this.#engine.state.fundsHold(holdIdOf(w.id))) await this.#withdrawals.releaseHold(w.id);
    }
  }

  async #payOne(row: repo.OutboxRow): Promise<void> {
    const id = row.withdrawal_id;
    let w = await repo.findWithdrawal(this.#db, id);
    if (!w) return;
    if (w.status === 'approved') {
      await this.#db.transaction((tx) => repo.setStatus(tx, id, 'approved', 'paying', this.#clock.now()));
      w = (await repo.findWithdrawal(this.#db, id))!;
    }
    if (w.status !== 'paying') {
      // Already paid or failed (a crash came after the state, before the outbox row was closed).
      await repo.markPayoutDone(this.#db, id, this.#clock.now());
      return;
    }
    const terms = this.#terms.find(w.rail, w.asset, w.network);
    if (!terms) throw new Error(`withdrawal ${id}: no terms for ${w.rail} ${w.asset}`);
    const receive = this.#withdrawals.receiveOf(w);
    let outcome: Awaited<ReturnType<PayoutRails['bank']['pay']>>;
    try {
      outcome = await this.#rails[w.rail].pay({
        idempotencyKey: row.idempotency_key,
        rail: w.rail,
        asset: w.asset,
        network: w.network,
        amount: receive,
        payoutTo: w.payout_to,
      });
    } catch (error) {
      // Not reached, or no answer: asked again on the next run, with the same key.
      await repo.notePayoutAttempt(this.#db, id, String(error), this.#clock.now());
      return;
    }
    await this.#pause('after_accept');
    const at = () => this.#clock.now();
    if (outcome.outcome === 'paid') {
      const fee = w.fee.replace(/[.0]/g, '') === '' ? undefined : w.fee;
      const posted = await this.#engine.submit({
        type: 'post_hold',
        id: postIdOf(id),
        holdId: holdIdOf(id),
        to: terms.platformAccount,
        ...(fee ? { fee } : {}),
      });
      if (!posted.ok) throw new Error(`withdrawal ${id}: posting the hold was refused (${posted.code})`);
      await this.#pause('after_post');
      await this.#db.transaction(async (tx) => {
        await repo.setStatus(tx, id, 'paying', 'paid', at(), { payoutRef: outcome.providerRef });
        await repo.markPayoutDone(tx, id, at());
      });
      return;
    }
    // Refused for good: the money goes back, then the state says so (a crash between: the next run
    // gets the same refusal from the rail, finds nothing left to give back, and records it).
    await this.#withdrawals.releaseHold(id);
    await this.#db.transaction(async (tx) => {
      await repo.setStatus(tx, id, 'paying', 'failed', at(), { reason: outcome.reason });
      await repo.markPayoutDone(tx, id, at());
    });
  }

  async #pause(point: PausePoint): Promise<void> {
    if (this.#settings.pauseAt !== point) return;
    this.#onPause(point);
    // The crash test kills the process here (kill -9); nothing after this line runs in that process.
    await new Promise<never>(() => {});
  }
}
