import { describe, expect, it } from 'vitest';
import { runSimulation } from './simulation.ts';

describe('seeded simulation', () => {
  it('runs 20,000 random commands with the engine agreeing with the naive reference and every invariant holding', () => {
    const report = runSimulation({ seed: 20_240_601, commands: 20_000 });
    if (!report.ok)
      throw new Error(`seed ${report.seed} step ${report.step}: ${report.message} ${JSON.stringify(report.command)}`);
    expect(report.trades).toBeGreaterThan(1_000);
    expect(report.accepted).toBeGreaterThan(5_000);
    // It reaches the paths it is meant to: T+1 locks, funds holds, the price band.
    for (const path of [
      'settle_trades',
      'place_order:refused_by_settlement_locks',
      'hold_funds',
      'post_hold',
      'post_hold:hold_amount_exceeded',
      'void_hold',
      'place_order:price_outside_band',
      'amend_order:price_outside_band',
    ]) {
      expect(report.coverage[path], path).toBeGreaterThan(10);
    }
  });

  it('gives the same state hash for the same seed, and another for another seed', () => {
    const a = runSimulation({ seed: 7, commands: 2_000, checkReplay: false });
    const b = runSimulation({ seed: 7, commands: 2_000, checkReplay: false });
    const c = runSimulation({ seed: 8, commands: 2_000, checkReplay: false });
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (a.ok && b.ok && c.ok) {
      expect(a.hash).toBe(b.hash);
      expect(a.hash).not.toBe(c.hash);
    }
  });
});
