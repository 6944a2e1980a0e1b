// bench:liquidation's workload, tiny: the index finds exactly the positions the brute-force scan finds on
// every tick, every liquidation it asks for is accepted, and the ledger's invariants hold at the end.

import { expect, it } from 'vitest';
import { runLiquidationWorkload } from './liquidation-workload.ts';

it('finds every due position on each mark move, as the scan does, and liquidates them all', () => {
  const figures = runLiquidationWorkload({ seed: 3, positions: 2_000, ticks: 400 });
  expect(figures.positions).toBeGreaterThanOrEqual(2_000);
  expect(figures.mismatches).toBe(0);
  expect(figures.refused).toBe(0);
  expect(figures.liquidations).toBeGreaterThan(50);
  expect(figures.openAtEnd).toBeLessThan(figures.positions);
  expect(figures.invariant).toBeUndefined();
}, 60_000);
