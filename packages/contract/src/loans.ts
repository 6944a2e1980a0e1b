// Shapes of loans and the credit score (issue 28 items 1–2; SPEC user/creditScore, /user/loan/apply,
// /user/loan, /user/loan/order/list, /user/point/change/log; decision 0039). The score formula, the
// score → limit table and the interest arithmetic are PUBLISHED here as pure functions, so the server,
// the pages and the tests read one definition. Holds: amounts as decimal strings at the edges, integer
// minor units (bigint) inside; times epoch milliseconds. Must not: promise anything, or hide a term.

import { z } from 'zod';
import { pin, recordId, wholeNumber } from './fields.ts';
import { actionReason } from './staff.ts';

// --- the credit score --------------------------------------------------------------------------------

/** The factors, in the order the page shows them. `base` is what every customer starts with. */
export const CREDIT_FACTORS = [
  'base',
  'kyc_verified',
  'account_age',
  'trading',
  'repaid_on_time',
  'late_repayments',
] as const;
export type CreditFactor = (typeof CREDIT_FACTORS)[number];

/** What the score is computed from (all read from records the customer can see). */
export type CreditFacts = {
  kycVerified: boolean;
  /** Whole days since the account was opened. */
  accountAgeDays: number;
  /** Trades (fills) the customer took part in. */
  trades: number;
  /** Loans repaid (repayment asked for) by their due date. */
  repaidOnTime: number;
  /** Loans repaid after their due date. */
  repaidLate: number;
};

export const CREDIT_SCORE_MAX = 1000;

/**
 * The published formula (decision 0039). Each factor's points, and how far each can go:
 * base 300; KYC verified +150; account age +2 a day up to 50 days (+100); trading +5 a trade up to 30
 * trades (+150); each loan repaid on time +100 up to 3 (+300); each late repayment −150, without limit.
 * The score is the sum, kept between 0 and 1000.
 */
export const CREDIT_RULES = {
  base: 300,
  kycVerified: 150,
  perAccountDay: 2,
  accountDaysCounted: 50,
  perTrade: 5,
  tradesCounted: 30,
  perOnTimeRepayment: 100,
  onTimeRepaymentsCounted: 3,
  perLateRepayment: -150,
} as const;

export type CreditFactorPoints = Record<CreditFactor, number>;

export function creditFactors(f: CreditFacts): CreditFactorPoints {
  const r = CREDIT_RULES;
  const whole = (n: number) => Math.max(0, Math.floor(n));
  return {
    base: r.base,
    kyc_verified: f.kycVerified ? r.kycVerified : 0,
    account_age: Math.min(whole(f.accountAgeDays), r.accountDaysCounted) * r.perAccountDay,
    trading: Math.min(whole(f.trades), r.tradesCounted) * r.perTrade,
    repaid_on_time: Math.min(whole(f.repaidOnTime), r.onTimeRepaymentsCounted) * r.perOnTimeRepayment,
    late_repayments: whole(f.repaidLate) * r.perLateRepayment,
  };
}

/** The score of some factor points: their sum, kept between 0 and CREDIT_SCORE_MAX. */
export function scoreOf(points: CreditFactorPoints): number {
  const sum = CREDIT_FACTORS.reduce((s, k) => s + points[k], 0);
  return Math.min(CREDIT_SCORE_MAX, Math.max(0, sum));
}

export const creditScore = (f: CreditFacts) => scoreOf(creditFactors(f));

/** The most each factor can add (late repayments only take away). */
export const CREDIT_FACTOR_MAX: CreditFactorPoints = {
  base: CREDIT_RULES.base,
  kyc_verified: CREDIT_RULES.kycVerified,
  account_age: CREDIT_RULES.accountDaysCounted * CREDIT_RULES.perAccountDay,
  trading: CREDIT_RULES.tradesCounted * CREDIT_RULES.perTrade,
  repaid_on_time: CREDIT_RULES.onTimeRepaymentsCounted * CREDIT_RULES.perOnTimeRepayment,
  late_repayments: 0,
};

/**
 * The credit line: the limit a score gives, per currency (decimal strings in the currency's units).
 * A score below the first tier gives no credit line.
 */
export const CREDIT_LIMIT_TIERS: readonly { minScore: number; limits: Readonly<Record<string, string>> }[] = [
  { minScore: 450, limits: { INR: '5000.00', USD: '100.00', BRL: '500.00' } },
  { minScore: 550, limits: { INR: '20000.00', USD: '300.00', BRL: '1500.00' } },
  { minScore: 700, limits: { INR: '50000.00', USD: '700.00', BRL: '3500.00' } },
  { minScore: 850, limits: { INR: '100000.00', USD: '1500.00', BRL: '7500.00' } },
];

/** The limit `score` gives in `currency` ('0.00' below the first tier or in a currency not listed). */
export function creditLimit(score: number, currency: string): string {
  let limit = '0';
  for (const tier of CREDIT_LIMIT_TIERS) if (score >= tier.minScore) limit = tier.limits[currency] ?? '0';
  return limit;
}

// --- interest ----------------------------------------------------------------------------------------

/** Daily rates in parts per million of the principal: 500 ppm = 0.05 % a day. */
export const PPM = 1_000_000n;

/**
 * One day's interest on `principal` (minor units) at `ratePpm`: rounded DOWN to the minor unit, the same
 * amount every day (so the terms shown are exactly what accrues; the rounding favours the customer).
 */
export const dailyInterest = (principal: bigint, ratePpm: number): bigint => (principal * BigInt(ratePpm)) / PPM;

/**
 * Interest for `days` started days: days up to `termDays` at the daily rate, each later (overdue) day at
 * the overdue rate. All in minor units.
 */
export function interestFor(
  principal: bigint,
  days: number,
  termDays: number,
  ratePpm: number,
  overdueRatePpm: number,
): bigint {
  const inTerm = BigInt(Math.min(days, termDays));
  const overdue = BigInt(Math.max(0, days - termDays));
  return inTerm * dailyInterest(principal, ratePpm) + overdue * dailyInterest(principal, overdueRatePpm);
}

/** A ppm rate as a percentage string ("0.05" for 500 ppm). */
export function ppmAsPercent(ppm: number): string {
  const whole = Math.floor(ppm / 10_000);
  const frac = String(ppm % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

// --- life cycle --------------------------------------------------------------------------------------

/** SPEC §4: under review → in progress → repayment under review → repaid, or rejected (loan_transitions). */
export const LOAN_STATUSES = ['under_review', 'in_progress', 'repayment_review', 'repaid', 'rejected'] as const;
export type LoanStatus = (typeof LOAN_STATUSES)[number];
export const OPEN_LOAN_STATUSES: readonly LoanStatus[] = ['under_review', 'in_progress', 'repayment_review'];

// --- calls -------------------------------------------------------------------------------------------

const loanAmount = z
  .string({ error: 'invalid_amount' })
  .trim()
  .regex(/^\d{1,12}(\.\d{1,8})?$/, { error: 'invalid_amount' })
  .refine((v) => /[1-9]/.test(v), { error: 'invalid_amount' });

/** GET /user/loan: with an amount and days, the terms of that loan are answered too. */
export const loanInfoQuery = z.object({
  amount: loanAmount.optional(),
  days: wholeNumber(1, 3650).optional(),
});

export const loanApplyBody = z.object({
  amount: loanAmount,
  days: wholeNumber(1, 3650),
  /** The 6-digit transaction password (optional so a customer without one is told to set it). */
  password: pin().optional(),
});
export type LoanApplyInput = z.input<typeof loanApplyBody>;

export const loanRepayBody = z.object({ id: recordId(), password: pin().optional() });

export const creditFactorView = z.object({
  factor: z.enum(CREDIT_FACTORS),
  points: z.number().int(),
  /** The most it can add (0 for late repayments, which only take away). */
  max: z.number().int(),
  /** What it counted: days, trades, loans; 1/0 for KYC; null for the base. */
  count: z.number().int().nullable(),
});

export const creditScoreView = z.object({
  score: z.number().int(),
  max: z.number().int(),
  factors: z.array(creditFactorView),
  currency: z.string(),
  /** The credit line this score gives in `currency` now. */
  limit: z.string(),
  tiers: z.array(z.object({ minScore: z.number().int(), limit: z.string() })),
  updatedAt: z.number().int(),
});
export type CreditScoreView = z.infer<typeof creditScoreView>;

export const scoreChangeView = z.object({
  id: z.number().int(),
  /** The factor that changed: the reason of the line. */
  reason: z.enum(CREDIT_FACTORS),
  delta: z.number().int(),
  scoreAfter: z.number().int(),
  /** The loan whose repayment changed it, if any. */
  loanId: z.number().int().nullable(),
  createdAt: z.number().int(),
});
export type ScoreChangeView = z.infer<typeof scoreChangeView>;

/** Every term of a loan, shown before applying (SPEC §3). */
export const loanTermsView = z.object({
  currency: z.string(),
  amount: z.string(),
  days: z.number().int(),
  /** Percent a day ("0.05"). */
  dailyRate: z.string(),
  dailyInterest: z.string(),
  /** Interest for the whole term, repaid on the due date. */
  interest: z.string(),
  /** What reaches the stock wallet: no fee is taken from it. */
  actualAmount: z.string(),
  /** Principal and the term's interest: what is owed on the due date. */
  repaymentAmount: z.string(),
  /** Percent a day for each day after the due date. */
  overdueDailyRate: z.string(),
  overdueDailyInterest: z.string(),
});
export type LoanTermsView = z.infer<typeof loanTermsView>;

export const loanView = z.object({
  id: z.number().int(),
  status: z.enum(LOAN_STATUSES),
  currency: z.string(),
  amount: z.string(),
  days: z.number().int(),
  dailyRate: z.string(),
  overdueDailyRate: z.string(),
  dailyInterest: z.string(),
  actualAmount: z.string(),
  /** What the terms said is owed on the due date. */
  repaymentAmount: z.string(),
  /** Interest charged so far, and for how many started days. */
  interestAccrued: z.string(),
  accruedDays: z.number().int(),
  /** Owed now (principal + interest so far); 0 once repaid. */
  outstanding: z.string(),
  /** What the customer paid (held while repayment is under review). */
  repaidAmount: z.string().nullable(),
  appliedAt: z.number().int(),
  disbursedAt: z.number().int().nullable(),
  dueAt: z.number().int().nullable(),
  repayRequestedAt: z.number().int().nullable(),
  repaidAt: z.number().int().nullable(),
  /** Repaid (asked for) after the due date. */
  late: z.boolean(),
  overdueDays: z.number().int(),
  rejectReason: z.string().nullable(),
  /** SPEC's "dedicated customer service manager": the staff member who reviewed the loan. */
  manager: z.string().nullable(),
  /** The ledger transfer that paid the loan out (the funds records show it under link loan:<id>). */
  disbursementId: z.string().nullable(),
});
export type LoanView = z.infer<typeof loanView>;

export const loanInfoView = z.object({
  score: z.number().int(),
  currency: z.string(),
  limit: z.string(),
  /** Days a loan can be borrowed for. */
  daysOffered: z.array(z.number().int()),
  dailyRate: z.string(),
  overdueDailyRate: z.string(),
  kycRequired: z.boolean(),
  kycVerified: z.boolean(),
  /** The open loan, if any (one at a time). */
  open: loanView.nullable(),
  /** The terms of the amount and days asked for, when both were given. */
  terms: loanTermsView.nullable(),
});
export type LoanInfoView = z.infer<typeof loanInfoView>;

// --- the console -------------------------------------------------------------------------------------

export const staffLoanView = loanView.extend({
  userId: z.number().int(),
  phone: z.string(),
  score: z.number().int(),
  /** Above the threshold, approval needs a second staff member. */
  needsSecondApproval: z.boolean(),
  firstApprovedBy: z.string().nullable(),
  firstApprovedById: z.number().int().nullable(),
});
export type StaffLoanView = z.infer<typeof staffLoanView>;

export const staffLoansQuery = z.object({
  status: z.enum([...LOAN_STATUSES, 'all']).default('all'),
});

export const loanDecideBody = z.object({
  decision: z.enum(['approve', 'reject'], { error: 'field_invalid' }),
  reason: actionReason(),
});
export const loanConfirmBody = z.object({ reason: actionReason() });
