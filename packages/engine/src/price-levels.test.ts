import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PriceLevels } from './price-levels.ts';

describe('PriceLevels', () => {
  it('finds the nearest occupied tick in both directions exactly like a sorted set, across pages', () => {
    const maxTick = 300_000;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: maxTick })), { maxLength: 200 }),
        fc.array(fc.integer({ min: -5, max: maxTick + 5 }), { maxLength: 30 }),
        (ops, probes) => {
          const levels = new PriceLevels(maxTick);
          const set = new Set<number>();
          for (const [add, tick] of ops) {
            const page = levels.pageOf(tick);
            if (add && !set.has(tick)) {
              set.add(tick);
              levels.markOccupied(page, tick);
            } else if (!add && set.has(tick)) {
              set.delete(tick);
              levels.markEmpty(page, tick);
            }
          }
          const sorted = [...set].sort((a, b) => a - b);
          for (const probe of probes) {
            const below = sorted.filter((t) => t <= probe).at(-1) ?? -1;
            const above = sorted.find((t) => t >= probe) ?? -1;
            expect(levels.highestAtOrBelow(probe)).toBe(below);
            expect(levels.lowestAtOrAbove(probe)).toBe(above);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
