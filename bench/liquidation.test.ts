// bench:liquidation's workload, tiny: the index finds exactly the positions the brute-force scan finds on
// every tick, every liquidation it asks for is accepted, and the ledger's invariants hold at the end, with
// a deep book (liquidations close in it) and a thin one (most need auto-deleveraging).

import { expect, it } from 'vitest';
import { runLiquidationWorkload } from './liquidation-workload.ts';

it.each([
  ['a deep book', 200_000],
  ['a thin book (ADL)', 5_000],
])(
  'finds every due position on each mark move, as the scan does, and liquidates them all, with %s',
  (_name, depthLots) => {
    const figures = runLiquidationWorkload({ seed: 3, positions: 2_000, ticks: 300, depthLots });
    expect(figures.positions).toBe(2_000);
    expect(figures.mismatches).toBe(0);
    expect(figures.refused).toBe(0);
    expect(figures.leftDue).toBe(0);
    expect(figures.liquidations).toBeGreaterThan(100);
    if (depthLots === 5_000) expect(figures.withAdl).toBeGreaterThan(20);
    else expect(figures.withAdl).toBe(0);
    expect(figures.openAtEnd).toBeLessThan(figures.positions);
    expect(figures.invariant).toBeUndefined();
  },
  60_000,
);
