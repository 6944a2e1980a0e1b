import { SeededRandom } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { OrderMap } from './order-map.ts';

describe('order map', () => {
  it('behaves like a Map<number, T>, iteration order included (checked against a Map)', () => {
    const random = new SeededRandom(5);
    for (const initial of [1, 16, 1_000]) {
      const map = new OrderMap<string>(initial);
      const model = new Map<number, string>();
      let nextId = 1;
      for (let n = 0; n < 30_000; n++) {
        const r = random.next();
        if (r < 0.45) {
          // Mostly new ids, sometimes one that was deleted or is present (set keeps its place).
          const id = random.chance(0.8) ? nextId++ : random.int(1, nextId);
          map.set(id, `v${n}`);
          model.set(id, `v${n}`);
        } else if (r < 0.9) {
          const id = random.int(1, nextId);
          expect(map.delete(id)).toBe(model.delete(id));
        } else {
          const id = random.int(0, nextId + 2);
          expect(map.get(id)).toBe(model.get(id));
          expect(map.has(id)).toBe(model.has(id));
        }
        expect(map.size).toBe(model.size);
      }
      expect([...map.values()]).toEqual([...model.values()]);
      expect(map.matching((v) => v.endsWith('7'))).toEqual([...model.values()].filter((v) => v.endsWith('7')));
    }
  });

  it('finds nothing for ids that are not positive safe integers', () => {
    const map = new OrderMap<string>();
    map.set(1, 'a');
    for (const id of ['1', 1.5, 0, -1, Number.NaN, 2 ** 53, null, undefined]) expect(map.get(id)).toBeUndefined();
    expect(map.get(1)).toBe('a');
  });
});
