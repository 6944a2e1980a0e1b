import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdIndex } from './id-index.ts';

describe('IdIndex', () => {
  it('behaves like a Map under any mix of sets and deletes, including growth and large ids', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.boolean(),
            fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
          ),
          {
            maxLength: 400,
          },
        ),
        (ops) => {
          const index = new IdIndex(4);
          const map = new Map<number, number>();
          ops.forEach(([add, id], n) => {
            if (add) {
              index.set(id, n);
              map.set(id, n);
            } else {
              expect(index.delete(id)).toBe(map.delete(id));
            }
          });
          expect(index.size).toBe(map.size);
          for (const [, id] of ops) expect(index.get(id)).toBe(map.get(id) ?? -1);
        },
      ),
      { numRuns: 300 },
    );
  });
});
