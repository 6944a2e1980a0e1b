// The published credit-score formula, the score → limit table and the interest arithmetic as scenario
// tables: each row is a case someone can check by hand against decision 0039.

import { describe, expect, it } from 'vitest';
import {
  type CreditFacts,
  creditFactors,
  creditLimit,
  creditScore,
  dailyInterest,
  interestFor,
  ppmAsPercent,
} from './loans.ts';

const facts = (f: Partial<CreditFacts>): CreditFacts => ({
  kycVerified: false,
  accountAgeDays: 0,
  trades: 0,
  repaidOnTime: 0,
  repaidLate: 0,
  ...f,
});

describe('the credit score formula', () => {
  it.each([
    // facts → score
    [{}, 300],
    [{ kycVerified: true }, 450],
    [{ accountAgeDays: 10 }, 320],
    [{ accountAgeDays: 50 }, 400],
    [{ accountAgeDays: 500 }, 400], // counted up to 50 days
    [{ trades: 7 }, 335],
    [{ trades: 99 }, 450], // counted up to 30 trades
    [{ repaidOnTime: 2 }, 500],
    [{ repaidOnTime: 9 }, 600], // counted up to 3 loans
    [{ repaidLate: 1 }, 150],
    [{ repaidLate: 3 }, 0], // never below 0
    [{ kycVerified: true, accountAgeDays: 50, trades: 30, repaidOnTime: 3 }, 1000], // the most
    [{ kycVerified: true, accountAgeDays: 50, trades: 30, repaidOnTime: 3, repaidLate: 1 }, 850],
    [{ kycVerified: true, accountAgeDays: 3.9, trades: -2 }, 456], // whole days, no negative counts
  ] as [Partial<CreditFacts>, number][])('%j scores %i', (f, score) => {
    expect(creditScore(facts(f))).toBe(score);
  });

  it('shows each factor’s points', () => {
    expect(creditFactors(facts({ kycVerified: true, accountAgeDays: 12, trades: 4, repaidLate: 1 }))).toEqual({
      base: 300,
      kyc_verified: 150,
      account_age: 24,
      trading: 20,
      repaid_on_time: 0,
      late_repayments: -150,
    });
  });
});

describe('the credit line', () => {
  it.each([
    [0, 'INR', '0'],
    [449, 'INR', '0'],
    [450, 'INR', '5000.00'],
    [549, 'USD', '100.00'],
    [550, 'BRL', '1500.00'],
    [700, 'INR', '50000.00'],
    [1000, 'USD', '1500.00'],
    [1000, 'EUR', '0'], // a currency the table does not list gives no line
  ] as [number, string, string][])('score %i in %s gives %s', (score, currency, limit) => {
    expect(creditLimit(score, currency)).toBe(limit);
  });
});

describe('interest (minor units, each day rounded down to the minor unit)', () => {
  it.each([
    // principal (minor), days charged, term days, rate ppm, overdue ppm → interest (minor)
    [500_000n, 1, 7, 500, 1000, 250n], // 5000.00 at 0.05 %/day: 2.50 a day
    [500_000n, 7, 7, 500, 1000, 1_750n], // the whole term: 17.50
    [500_000n, 9, 7, 500, 1000, 2_750n], // 2 overdue days at 0.1 %: + 2 × 5.00
    [12_345n, 14, 14, 500, 1000, 84n], // 123.45 × 0.05 % = 0.0617… → 0.06 a day × 14
    [199n, 30, 30, 500, 1000, 0n], // 1.99: a day's interest rounds down to nothing
    [1_000_000n, 30, 30, 0, 0, 0n], // a zero rate charges nothing
    [10_000_000n, 0, 30, 500, 1000, 0n], // no day started, no interest
  ] as [bigint, number, number, number, number, bigint][])(
    '%s for %i days (term %i) at %i/%i ppm is %s',
    (principal, days, term, rate, overdue, interest) => {
      expect(interestFor(principal, days, term, rate, overdue)).toBe(interest);
    },
  );

  it('writes rates as percentages', () => {
    expect([ppmAsPercent(500), ppmAsPercent(1000), ppmAsPercent(12_345), ppmAsPercent(10_000)]).toEqual([
      '0.05',
      '0.1',
      '1.2345',
      '1',
    ]);
    expect(dailyInterest(500_000n, 500)).toBe(250n);
  });
});
