// Loan settings a deployment chooses (decision 0039): LOAN_DAILY_RATE and LOAN_OVERDUE_DAILY_RATE
// (percent a day, up to 4 decimals), LOAN_DAYS (the borrowing periods offered), LOAN_KYC_REQUIRED,
// LOAN_SECOND_APPROVAL_ABOVE (per currency: amounts above it need a second staff member's approval) and
// LOAN_ACCRUE_EVERY_MS (how often the interest job runs; 0: only by hand and at start-up, as tests do).

export type LoanSettings = {
  ratePpm: number;
  overdueRatePpm: number;
  daysOffered: number[];
  kycRequired: boolean;
  /** Currency → decimal string. */
  secondApprovalAbove: Record<string, string>;
  accrueEveryMs: number;
};

export const DEFAULT_SECOND_APPROVAL_ABOVE: Record<string, string> = { INR: '20000', USD: '300', BRL: '1500' };

/** "0.05" (percent) → 500 (parts per million). */
export function percentToPpm(name: string, raw: string): number {
  const m = /^(\d{1,2})(?:\.(\d{1,4}))?$/.exec(raw.trim());
  if (!m) throw new Error(`${name} must be a percentage a day with up to 4 decimals, not "${raw}"`);
  return Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0'));
}

export function loadLoanSettings(env: Record<string, string | undefined>): LoanSettings {
  const ratePpm = percentToPpm('LOAN_DAILY_RATE', env.LOAN_DAILY_RATE?.trim() || '0.05');
  const overdueRatePpm = percentToPpm('LOAN_OVERDUE_DAILY_RATE', env.LOAN_OVERDUE_DAILY_RATE?.trim() || '0.1');
  const daysOffered = (env.LOAN_DAYS?.trim() || '7,14,30').split(',').map((d) => {
    const n = Number(d.trim());
    if (!Number.isSafeInteger(n) || n < 1 || n > 365) throw new Error(`LOAN_DAYS: bad period "${d}"`);
    return n;
  });
  const secondApprovalAbove = { ...DEFAULT_SECOND_APPROVAL_ABOVE };
  for (const part of (env.LOAN_SECOND_APPROVAL_ABOVE ?? '').split(',').filter((p) => p.trim())) {
    const [currency, amount] = part.split(':').map((p) => p.trim());
    if (!currency || !amount || !/^\d+(\.\d+)?$/.test(amount))
      throw new Error(`bad LOAN_SECOND_APPROVAL_ABOVE entry "${part}"`);
    secondApprovalAbove[currency.toUpperCase()] = amount;
  }
  const every = Number(env.LOAN_ACCRUE_EVERY_MS?.trim() || '60000');
  if (!Number.isSafeInteger(every) || every < 0) throw new Error('LOAN_ACCRUE_EVERY_MS must be a whole number');
  return {
    ratePpm,
    overdueRatePpm,
    daysOffered: [...new Set(daysOffered)].sort((a, b) => a - b),
    kycRequired: !/^(0|false|no)$/i.test(env.LOAN_KYC_REQUIRED?.trim() ?? ''),
    secondApprovalAbove,
    accrueEveryMs: every,
  };
}
