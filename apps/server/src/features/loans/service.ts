// Loans and the transparent credit score (issue 28 items 1–2, decision 0039).
// The score is the published pure formula (contract loans.ts) over facts read from the customer's records;
// it is recomputed when read (the score page, the loan page, the change log, an application) and when a
// loan is repaid, and every change is a line in credit_score_changes naming the factor that caused it.
// The credit line is the published score → limit table in the market's currency. A loan: applied for
// with every term shown first (the 6-digit transaction password checked by the route); reviewed by staff
// (above LOAN_SECOND_APPROVAL_ABOVE a second, different staff member approves); paid out by a `deposit`
// from the loan's own platform account `loan:<id>` (its receivable: minus what is owed) to the stock
// wallet (cause `loan`); interest charged for each started day by an idempotent `platform_transfer` from
// `loan:<id>` to the platform's `fees` (cause `interest`, id loan:<id>:interest:<day>); repaid by a funds
// hold (cause `loan_repayment`) that staff confirm by posting it to `loan:<id>`, which brings it to zero.
// Must hold: nothing moves on a refusal; every money move is an engine command with link loan:<id>; a
// crash between a command and its row is finished at start-up from what the engine holds.
// Must not: hide a term, gate the terms behind a person, promise anything.

import {
  CREDIT_FACTOR_MAX,
  CREDIT_FACTORS,
  CREDIT_LIMIT_TIERS,
  CREDIT_SCORE_MAX,
  type CreditFactorPoints,
  type CreditFacts,
  type CreditScoreView,
  creditFactors,
  creditLimit,
  dailyInterest,
  interestFor,
  type LoanInfoView,
  type LoanStatus,
  type LoanTermsView,
  type LoanView,
  OPEN_LOAN_STATUSES,
  ppmAsPercent,
  type ScoreChangeView,
  type StaffLoanView,
  scoreOf,
} from '@bourse/contract';
import type { Db, Sql } from '@bourse/db';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { appendAudit } from '../staff/audit.ts';
import * as repo from './repo.ts';
import type { LoanSettings } from './settings.ts';

export const DAY_MS = 86_400_000;
const MARKET_CURRENCY = { IN: 'INR', US: 'USD', BR: 'BRL' } as const;
/** Where interest is paid to: the platform's revenue account, with trading and membership fees. */
export const LOAN_INTEREST_ACCOUNT = 'fees';

export const loanLink = (id: number) => `loan:${id}`;
/** The loan's receivable: a platform account whose balance is minus what the customer owes on it. */
export const loanAccount = (id: number) => `loan:${id}` as const;
export const disbursementId = (id: number) => `loan:${id}:disburse`;
export const interestId = (id: number, day: number) => `loan:${id}:interest:${day}`;
const repayHoldId = (id: number) => `loan:${id}:repay:hold`;
export const repaymentId = (id: number) => `loan:${id}:repay`;

/** Started days since `from` at `now` (day 1 starts at `from`); 0 before it. */
export function startedDays(from: number, now: number): number {
  return now < from ? 0 : Math.floor((now - from) / DAY_MS) + 1;
}

const ZERO_POINTS = Object.fromEntries(CREDIT_FACTORS.map((f) => [f, 0])) as CreditFactorPoints;

export class Loans {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #clock: Clock;
  readonly #settings: LoanSettings;
  readonly #currency: string;
  /** Every write of this line runs in turn (applications, reviews, interest, repayments, the score). */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(deps: {
    db: Db;
    engine: TradingEngine;
    clock: Clock;
    settings: LoanSettings;
    stockCountry: 'IN' | 'US' | 'BR';
  }) {
    this.#db = deps.db;
    this.#engine = deps.engine;
    this.#clock = deps.clock;
    this.#settings = deps.settings;
    this.#currency = MARKET_CURRENCY[deps.stockCountry];
  }

  get currency(): string {
    return this.#currency;
  }

  // --- the credit score -------------------------------------------------------------------------------

  async creditScore(userId: number): Promise<CreditScoreView> {
    const { row, facts } = await this.#serial(() => this.#rescore(userId, null));
    const count: Record<string, number | null> = {
      base: null,
      kyc_verified: facts.kycVerified ? 1 : 0,
      account_age: facts.accountAgeDays,
      trading: facts.trades,
      repaid_on_time: facts.repaidOnTime,
      late_repayments: facts.repaidLate,
    };
    return {
      score: row.score,
      max: CREDIT_SCORE_MAX,
      factors: CREDIT_FACTORS.map((factor) => ({
        factor,
        points: row.factors[factor],
        max: CREDIT_FACTOR_MAX[factor],
        count: count[factor] ?? null,
      })),
      currency: this.#currency,
      limit: this.#limit(row.score),
      tiers: CREDIT_LIMIT_TIERS.map((t) => ({
        minScore: t.minScore,
        limit: this.#fmt(this.#parse(t.limits[this.#currency] ?? '0') ?? 0n),
      })),
      updatedAt: row.updated_at,
    };
  }

  async scoreChanges(userId: number, page: number, limit: number): Promise<ScoreChangeView[]> {
    await this.#serial(() => this.#rescore(userId, null));
    return (await repo.changesOf(this.#db, userId, limit, (page - 1) * limit)).map((c) => ({
      id: c.id,
      reason: c.reason,
      delta: c.delta,
      scoreAfter: c.score_after,
      loanId: c.loan_id,
      createdAt: c.created_at,
    }));
  }

  async #facts(userId: number): Promise<CreditFacts> {
    const user = await repo.userFacts(this.#db, userId);
    if (!user) throw new AppError('loan_not_found');
    const repaid = await repo.repaidCounts(this.#db, userId);
    return {
      kycVerified: user.id_status === 'succ',
      accountAgeDays: Math.max(0, Math.floor((this.#clock.now() - user.created_at) / DAY_MS)),
      trades: await repo.tradeCount(this.#db, userId),
      repaidOnTime: repaid.onTime,
      repaidLate: repaid.late,
    };
  }

  /**
   * Recomputes the score from the facts and, for each factor whose points changed since the last
   * computation, appends a change line (the factor is its reason; `loanId` names the repaid loan).
   * Callers run it in turn (#serial).
   */
  async #rescore(userId: number, loanId: number | null): Promise<{ row: repo.ScoreRow; facts: CreditFacts }> {
    const facts = await this.#facts(userId);
    const points = creditFactors(facts);
    const now = this.#clock.now();
    const row = await this.#db.transaction(async (tx) => {
      const before = await repo.scoreOf(tx, userId);
      const running = { ...(before?.factors ?? ZERO_POINTS) };
      let score = before?.score ?? 0;
      let changed = before === undefined;
      for (const factor of CREDIT_FACTORS) {
        if (running[factor] === points[factor]) continue;
        changed = true;
        running[factor] = points[factor];
        const after = scoreOf(running);
        if (after !== score) {
          const fromLoan = factor === 'repaid_on_time' || factor === 'late_repayments';
          await repo.insertChange(tx, {
            user_id: userId,
            reason: factor,
            delta: after - score,
            score_after: after,
            loan_id: fromLoan ? loanId : null,
            created_at: now,
          });
        }
        score = after;
      }
      const next = { user_id: userId, score: scoreOf(points), factors: points, updated_at: now };
      if (changed) await repo.saveScore(tx, next, before !== undefined);
      return changed ? next : (before as repo.ScoreRow);
    });
    return { row, facts };
  }

  #limit(score: number): string {
    return this.#fmt(this.#parse(creditLimit(score, this.#currency)) ?? 0n);
  }

  // --- customers: terms, applying, repaying -----------------------------------------------------------

  /** The terms of borrowing `amount` for `days` at today's rates (nothing is written). */
  terms(amount: bigint, days: number): LoanTermsView {
    const { ratePpm, overdueRatePpm } = this.#settings;
    const interest = interestFor(amount, days, days, ratePpm, overdueRatePpm);
    return {
      currency: this.#currency,
      amount: this.#fmt(amount),
      days,
      dailyRate: ppmAsPercent(ratePpm),
      dailyInterest: this.#fmt(dailyInterest(amount, ratePpm)),
      interest: this.#fmt(interest),
      actualAmount: this.#fmt(amount),
      repaymentAmount: this.#fmt(amount + interest),
      overdueDailyRate: ppmAsPercent(overdueRatePpm),
      overdueDailyInterest: this.#fmt(dailyInterest(amount, overdueRatePpm)),
    };
  }

  async info(userId: number, q: { amount?: string | undefined; days?: number | undefined }): Promise<LoanInfoView> {
    const { row, facts } = await this.#serial(async () => {
      await this.#accrueUser(userId);
      return this.#rescore(userId, null);
    });
    let terms: LoanTermsView | null = null;
    if (q.amount !== undefined && q.days !== undefined) {
      const amount = this.#parse(q.amount);
      if (amount === undefined || amount <= 0n) throw fieldError('amount', 'invalid_amount');
      terms = this.terms(amount, q.days);
    }
    const loans = await repo.loansOf(this.#db, userId);
    const open = loans.find((l) => OPEN_LOAN_STATUSES.includes(l.status));
    return {
      score: row.score,
      currency: this.#currency,
      limit: this.#limit(row.score),
      daysOffered: this.#settings.daysOffered,
      dailyRate: ppmAsPercent(this.#settings.ratePpm),
      overdueDailyRate: ppmAsPercent(this.#settings.overdueRatePpm),
      kycRequired: this.#settings.kycRequired,
      kycVerified: facts.kycVerified,
      open: open ? ((await this.#views([open]))[0] ?? null) : null,
      terms,
    };
  }

  /** Applies for a loan (the caller checked the transaction password). Nothing is written on a refusal. */
  async apply(userId: number, input: { amount: string; days: number }): Promise<LoanView> {
    if (!this.#settings.daysOffered.includes(input.days)) throw fieldError('days', 'loan_days_not_offered');
    const amount = this.#parse(input.amount);
    if (amount === undefined || amount <= 0n) throw fieldError('amount', 'invalid_amount');
    const id = await this.#serial(async () => {
      const { row, facts } = await this.#rescore(userId, null);
      if (this.#settings.kycRequired && !facts.kycVerified) throw new AppError('loan_kyc_required');
      const limit = this.#parse(creditLimit(row.score, this.#currency)) ?? 0n;
      if (limit <= 0n) throw new AppError('loan_no_credit_line');
      if (amount > limit)
        throw fieldError('amount', 'loan_above_limit', () => ({ limit: `${this.#fmt(limit)} ${this.#currency}` }));
      if ((await repo.loansOf(this.#db, userId)).some((l) => OPEN_LOAN_STATUSES.includes(l.status)))
        throw new AppError('loan_open_exists');
      const threshold = this.#parse(this.#settings.secondApprovalAbove[this.#currency] ?? '0') ?? 0n;
      try {
        return await repo.insertLoan(this.#db, {
          user_id: userId,
          currency: this.#currency,
          amount: this.#fmt(amount),
          days: input.days,
          rate_ppm: this.#settings.ratePpm,
          overdue_rate_ppm: this.#settings.overdueRatePpm,
          needs_second: threshold > 0n && amount > threshold ? 1 : 0,
          score_at_apply: row.score,
          applied_at: this.#clock.now(),
        });
      } catch (error) {
        // The one-open-loan index refused a second application racing this one.
        if ((await repo.loansOf(this.#db, userId)).some((l) => OPEN_LOAN_STATUSES.includes(l.status)))
          throw new AppError('loan_open_exists');
        throw error;
      }
    });
    return this.loanOf(userId, id);
  }

  async list(userId: number): Promise<LoanView[]> {
    await this.#serial(() => this.#accrueUser(userId));
    return this.#views(await repo.loansOf(this.#db, userId));
  }

  /** One of the customer's loans; another customer's (or none) answers loan_not_found. */
  async loanOf(userId: number, id: number, accrue = false): Promise<LoanView> {
    if (accrue) await this.#serial(() => this.#accrueUser(userId));
    const row = await repo.loan(this.#db, id);
    if (!row || row.user_id !== userId) throw new AppError('loan_not_found');
    return (await this.#views([row]))[0] as LoanView;
  }

  /**
   * The customer repays (the caller checked the transaction password): interest is brought up to date,
   * what is owed is held in the stock wallet, and the loan waits for staff to confirm the repayment.
   */
  async requestRepayment(userId: number, id: number): Promise<LoanView> {
    await this.#serial(async () => {
      const row = await repo.loan(this.#db, id);
      if (!row || row.user_id !== userId) throw new AppError('loan_not_found');
      if (row.status !== 'in_progress') throw new AppError('loan_not_repayable');
      const current = await this.#accrueLoan(row);
      const owed = this.#owed(current);
      if (this.#engine.state.balance(String(userId), 'stock', row.currency).available < owed)
        throw new AppError('insufficient_balance');
      const held = await this.#engine.submit({
        type: 'hold_funds',
        id: repayHoldId(id),
        userId: String(userId),
        wallet: 'stock',
        asset: row.currency,
        amount: this.#fmt(owed),
        cause: 'loan_repayment',
        link: loanLink(id),
      });
      if (!held.ok) throw new AppError(held.code);
      await this.#markRepaymentAsked(current, owed);
    });
    return this.loanOf(userId, id);
  }

  async #markRepaymentAsked(row: repo.LoanRow, owed: bigint): Promise<void> {
    const now = this.#clock.now();
    await repo.moveLoan(this.#db, row.id, 'in_progress', 'repayment_review', {
      repaid_amount: this.#fmt(owed),
      repay_requested_at: now,
      late: row.due_at !== null && now > row.due_at ? 1 : 0,
    });
  }

  /** What the funds records show beside a loan's lines: "Loan #<id>" (language-neutral, like the others). */
  async notes(userId: number, links: readonly string[]): Promise<ReadonlyMap<string, string>> {
    const ids = links.flatMap((l) => {
      const m = /^loan:(\d{1,15})$/.exec(l);
      return m ? [Number(m[1])] : [];
    });
    if (ids.length === 0) return new Map();
    const mine = new Set((await repo.loansOf(this.#db, userId)).map((l) => l.id));
    return new Map(ids.filter((id) => mine.has(id)).map((id) => [loanLink(id), `Loan #${id}`]));
  }

  // --- the interest job -------------------------------------------------------------------------------

  /**
   * Charges every loan in progress the interest of each started day not yet charged: a scheduled job
   * (LOAN_ACCRUE_EVERY_MS), also run at start-up, so days missed while the server was down are caught
   * up. Each day is one transfer with its own id (loan:<id>:interest:<day>): a retry posts nothing twice.
   */
  async accrue(): Promise<number> {
    return this.#serial(async () => {
      let charged = 0;
      for (const row of await repo.loansIn(this.#db, ['in_progress'])) {
        const after = await this.#accrueLoan(row);
        charged += after.accrued_days - row.accrued_days;
      }
      return charged;
    });
  }

  async #accrueUser(userId: number): Promise<void> {
    for (const row of await repo.loansOf(this.#db, userId))
      if (row.status === 'in_progress') await this.#accrueLoan(row);
  }

  async #accrueLoan(row: repo.LoanRow): Promise<repo.LoanRow> {
    if (row.status !== 'in_progress' || row.disbursed_at === null) return row;
    const due = startedDays(row.disbursed_at, this.#clock.now());
    const principal = this.#parse(row.amount) as bigint;
    let days = row.accrued_days;
    while (days < due) {
      const day = days + 1;
      const amount = dailyInterest(principal, day <= row.days ? row.rate_ppm : row.overdue_rate_ppm);
      if (amount > 0n) {
        const moved = await this.#engine.submit({
          type: 'platform_transfer',
          id: interestId(row.id, day),
          from: loanAccount(row.id),
          to: LOAN_INTEREST_ACCOUNT,
          asset: row.currency,
          amount: this.#fmt(amount),
          cause: 'interest',
          link: loanLink(row.id),
        });
        if (!moved.ok) throw new AppError(moved.code);
      }
      await repo.updateLoan(this.#db, row.id, 'in_progress', { accrued_days: day });
      days = day;
    }
    return { ...row, accrued_days: days };
  }

  // --- staff ------------------------------------------------------------------------------------------

  async staffList(status: LoanStatus | 'all'): Promise<StaffLoanView[]> {
    await this.#serial(async () => {
      for (const row of await repo.loansIn(this.#db, ['in_progress'])) await this.#accrueLoan(row);
    });
    const rows = await repo.loansIn(
      this.#db,
      status === 'all' ? ['under_review', 'in_progress', 'repayment_review', 'repaid', 'rejected'] : [status],
      200,
    );
    const views = await this.#views(rows);
    const names = await repo.staffNames(
      this.#db,
      rows.flatMap((r) => (r.first_approved_by === null ? [] : [r.first_approved_by])),
    );
    return Promise.all(
      rows.map(async (r, i) => ({
        ...(views[i] as LoanView),
        userId: r.user_id,
        phone: (await repo.userFacts(this.#db, r.user_id))?.phone ?? '',
        score: (await repo.scoreOf(this.#db, r.user_id))?.score ?? r.score_at_apply,
        needsSecondApproval: r.needs_second === 1,
        firstApprovedBy: r.first_approved_by === null ? null : (names.get(r.first_approved_by) ?? null),
        firstApprovedById: r.first_approved_by,
      })),
    );
  }

  /**
   * Approves or rejects a loan under review, with a reason (audited). Above the threshold the first
   * approval is recorded and a different staff member's approval pays the loan out.
   */
  async decide(staffId: number, id: number, decision: 'approve' | 'reject', reason: string): Promise<StaffLoanView> {
    await this.#serial(async () => {
      const row = await repo.loan(this.#db, id);
      if (!row) throw new AppError('loan_not_found');
      if (row.status !== 'under_review' || row.approved_at !== null) throw new AppError('loan_already_decided');
      const at = this.#clock.now();
      const audit = (tx: Sql, action: string) =>
        appendAudit(
          tx,
          {
            staffId,
            action,
            targetType: 'loan',
            targetId: String(id),
            reason,
            detail: { userId: row.user_id, amount: row.amount, currency: row.currency, days: row.days },
          },
          at,
        );
      if (decision === 'reject') {
        await this.#db.transaction(async (tx) => {
          if (
            !(await repo.moveLoan(tx, id, 'under_review', 'rejected', {
              rejected_by: staffId,
              reject_reason: reason,
              rejected_at: at,
            }))
          )
            throw new AppError('loan_already_decided');
          await audit(tx, 'loan.reject');
        });
        return;
      }
      if (row.needs_second === 1 && row.first_approved_by === null) {
        await this.#db.transaction(async (tx) => {
          await repo.updateLoan(tx, id, 'under_review', { first_approved_by: staffId, first_approved_at: at });
          await audit(tx, 'loan.approve_first');
        });
        return;
      }
      if (row.needs_second === 1 && row.first_approved_by === staffId) throw new AppError('loan_same_staff');
      await this.#db.transaction(async (tx) => {
        await repo.updateLoan(tx, id, 'under_review', { approved_by: staffId, approved_at: at });
        await audit(tx, 'loan.approve');
      });
      await this.#disburse({ ...row, approved_by: staffId, approved_at: at });
    });
    return this.#staffView(id);
  }

  /** Staff confirm a repayment under review: the held amount is posted to the loan's account (audited). */
  async confirmRepayment(staffId: number, id: number, reason: string): Promise<StaffLoanView> {
    await this.#serial(async () => {
      const row = await repo.loan(this.#db, id);
      if (!row) throw new AppError('loan_not_found');
      if (row.status !== 'repayment_review') throw new AppError('loan_not_in_repayment');
      await this.#postRepayment(row);
      const at = this.#clock.now();
      await this.#db.transaction(async (tx) => {
        if (!(await repo.moveLoan(tx, id, 'repayment_review', 'repaid', { confirmed_by: staffId, repaid_at: at })))
          throw new AppError('loan_not_in_repayment');
        await appendAudit(
          tx,
          {
            staffId,
            action: 'loan.confirm_repayment',
            targetType: 'loan',
            targetId: String(id),
            reason,
            detail: { userId: row.user_id, repaid: row.repaid_amount, currency: row.currency, late: row.late === 1 },
          },
          at,
        );
      });
      // A repayment is a score event: on time or late.
      await this.#rescore(row.user_id, id);
    });
    return this.#staffView(id);
  }

  /** At start-up: finishes what a crash left half done, then charges the interest days missed. */
  async recover(): Promise<void> {
    await this.#serial(async () => {
      for (const row of await repo.loansIn(this.#db, ['under_review']))
        if (row.approved_at !== null) await this.#disburse(row);
      for (const row of await repo.loansIn(this.#db, ['in_progress'])) {
        const hold = this.#engine.state.fundsHold(repayHoldId(row.id));
        if (hold) await this.#markRepaymentAsked(row, hold.remaining);
      }
      for (const row of await repo.loansIn(this.#db, ['repayment_review']))
        if (this.#engine.state.transferPosted(repaymentId(row.id)))
          await repo.moveLoan(this.#db, row.id, 'repayment_review', 'repaid', {
            confirmed_by: null,
            repaid_at: this.#clock.now(),
          });
    });
    await this.accrue();
  }

  // --- helpers ----------------------------------------------------------------------------------------

  async #disburse(row: repo.LoanRow): Promise<void> {
    const paid = await this.#engine.submit({
      type: 'deposit',
      id: disbursementId(row.id),
      userId: String(row.user_id),
      wallet: 'stock',
      asset: row.currency,
      amount: row.amount,
      from: loanAccount(row.id),
      cause: 'loan',
      link: loanLink(row.id),
    });
    if (!paid.ok) throw new AppError(paid.code);
    const at = this.#clock.now();
    await repo.moveLoan(this.#db, row.id, 'under_review', 'in_progress', {
      disbursed_at: at,
      due_at: at + row.days * DAY_MS,
    });
    const moved = await repo.loan(this.#db, row.id);
    if (moved) await this.#accrueLoan(moved);
  }

  async #postRepayment(row: repo.LoanRow): Promise<void> {
    if (this.#engine.state.transferPosted(repaymentId(row.id))) return;
    const posted = await this.#engine.submit({
      type: 'post_hold',
      id: repaymentId(row.id),
      holdId: repayHoldId(row.id),
      to: loanAccount(row.id),
    });
    if (!posted.ok) throw new AppError(posted.code);
  }

  async #staffView(id: number): Promise<StaffLoanView> {
    const all = await this.staffList('all');
    const found = all.find((l) => l.id === id);
    if (!found) throw new AppError('loan_not_found');
    return found;
  }

  /** Principal and the interest charged so far. */
  #owed(row: repo.LoanRow): bigint {
    const principal = this.#parse(row.amount) as bigint;
    return principal + interestFor(principal, row.accrued_days, row.days, row.rate_ppm, row.overdue_rate_ppm);
  }

  async #views(rows: readonly repo.LoanRow[]): Promise<LoanView[]> {
    const names = await repo.staffNames(
      this.#db,
      rows.flatMap((r) => [r.first_approved_by, r.approved_by, r.rejected_by].filter((x): x is number => x !== null)),
    );
    const now = this.#clock.now();
    return rows.map((r) => {
      const principal = this.#parse(r.amount) as bigint;
      const interest = interestFor(principal, r.accrued_days, r.days, r.rate_ppm, r.overdue_rate_ppm);
      const owing = r.status === 'in_progress' || r.status === 'repayment_review';
      const managerId = r.first_approved_by ?? r.approved_by ?? r.rejected_by;
      const overdueUntil = r.status === 'in_progress' ? now : (r.repay_requested_at ?? now);
      return {
        id: r.id,
        status: r.status,
        currency: r.currency,
        amount: r.amount,
        days: r.days,
        dailyRate: ppmAsPercent(r.rate_ppm),
        overdueDailyRate: ppmAsPercent(r.overdue_rate_ppm),
        dailyInterest: this.#fmt(dailyInterest(principal, r.rate_ppm)),
        actualAmount: r.amount,
        repaymentAmount: this.#fmt(principal + interestFor(principal, r.days, r.days, r.rate_ppm, r.overdue_rate_ppm)),
        interestAccrued: this.#fmt(interest),
        accruedDays: r.accrued_days,
        outstanding: this.#fmt(owing ? principal + interest : 0n),
        repaidAmount: r.repaid_amount,
        appliedAt: r.applied_at,
        disbursedAt: r.disbursed_at,
        dueAt: r.due_at,
        repayRequestedAt: r.repay_requested_at,
        repaidAt: r.repaid_at,
        late: r.late === 1,
        overdueDays:
          r.due_at !== null && owing && overdueUntil > r.due_at ? Math.ceil((overdueUntil - r.due_at) / DAY_MS) : 0,
        rejectReason: r.reject_reason,
        manager: managerId === null ? null : (names.get(managerId) ?? null),
        disbursementId: r.disbursed_at === null ? null : disbursementId(r.id),
      };
    });
  }

  #scale(): number {
    return this.#engine.state.asset(this.#currency)?.scale ?? 2;
  }

  #parse(value: string): bigint | undefined {
    const parsed = tryParseDecimal(value, this.#scale());
    return parsed.ok ? parsed.minor : undefined;
  }

  #fmt(minor: bigint): string {
    return formatDecimal(minor, this.#scale());
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.catch(() => undefined).then(work);
    this.#queue = run;
    return run;
  }
}
