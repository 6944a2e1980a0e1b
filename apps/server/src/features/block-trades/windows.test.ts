// Block windows and band as data: NSE's two windows on trading days in Asia/Kolkata, skipping weekends
// and exchange holidays; the ±1% band rounded inwards to the tick grid. And the one eligibility rule.

import { describe, expect, it } from 'vitest';
import { blockIneligibility } from './eligibility.ts';
import { blockBand, blockWindowAt, blockWindowsFrom } from './windows.ts';

const ist = (text: string) => Date.parse(`${text}+05:30`);

describe('block windows', () => {
  it('lists the open window first, then the coming ones, skipping the weekend', () => {
    // Friday 2 January 2026, 14:10 in India: the afternoon window is open.
    const windows = blockWindowsFrom('NSE', ist('2026-01-02T14:10:00'), 3);
    expect(windows).toEqual([
      { exchange: 'NSE', opensAt: ist('2026-01-02T14:05:00'), closesAt: ist('2026-01-02T14:20:00') },
      { exchange: 'NSE', opensAt: ist('2026-01-05T08:45:00'), closesAt: ist('2026-01-05T09:00:00') },
      { exchange: 'NSE', opensAt: ist('2026-01-05T14:05:00'), closesAt: ist('2026-01-05T14:20:00') },
    ]);
  });

  it('knows a window by its opening, and none for an exchange without block windows', () => {
    expect(blockWindowAt('NSE', ist('2026-01-05T08:45:00'))?.closesAt).toBe(ist('2026-01-05T09:00:00'));
    expect(blockWindowAt('NSE', ist('2026-01-05T08:46:00'))).toBeUndefined();
    expect(blockWindowAt('NSE', ist('2026-01-03T08:45:00'))).toBeUndefined(); // a Saturday
    expect(blockWindowsFrom('NYSE', Date.parse('2026-01-05T12:00:00Z'), 2)).toEqual([]);
  });

  it('bands ±1% of the reference, rounded inwards', () => {
    expect(blockBand(10_000, 100)).toEqual({ low: 9_900, high: 10_100 });
    expect(blockBand(12_345, 100)).toEqual({ low: 12_222, high: 12_468 });
  });
});

describe('block eligibility', () => {
  const base = { kycVerified: true, markedHni: false, stockBalanceMinor: 0n, thresholdMinor: 100n, isVip: false };
  it.each([
    { name: 'identity not verified', facts: { ...base, kycVerified: false, markedHni: true }, reason: 'kyc' },
    { name: 'verified, below the threshold, not marked', facts: base, reason: 'not_hni' },
    { name: 'verified, at the threshold', facts: { ...base, stockBalanceMinor: 100n }, reason: null },
    { name: 'verified and marked HNI by staff', facts: { ...base, markedHni: true }, reason: null },
    { name: 'verified VIP (the later issue’s hook)', facts: { ...base, isVip: true }, reason: null },
  ])('$name', ({ facts, reason }) => {
    expect(blockIneligibility(facts)).toBe(reason);
  });
});
