import { SeededRandom } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { UserIndex } from './user-index.ts';

describe('user index', () => {
  it('gives indexes in order of add() and finds them by ids made anew (checked against a Map)', () => {
    const random = new SeededRandom(11);
    for (const initial of [1, 16, 1_000]) {
      const index = new UserIndex(initial);
      const model = new Map<string, number>();
      for (let n = 0; n < 20_000; n++) {
        // Short and long ids, non-ASCII ones, and ids that differ in one character.
        const id = random.chance(0.1) ? `usuário-${random.int(0, 300)}-ç` : `user${random.int(0, 6_000)}`;
        // A copy built from its characters: never the same string object as the one added.
        const probe = [...id].join('');
        if (random.chance(0.5) && !model.has(id)) {
          expect(index.add(id)).toBe(model.size);
          model.set(id, model.size);
        } else {
          expect(index.get(probe)).toBe(model.get(id) ?? -1);
        }
        expect(index.size).toBe(model.size);
      }
      for (const [id, at] of model) expect(index.get(`${id}`)).toBe(at);
    }
  });

  it('refuses an id it already knows, and finds nothing for an id it does not', () => {
    const index = new UserIndex();
    expect(index.add('a')).toBe(0);
    expect(() => index.add('a')).toThrow('already known');
    expect(index.get('b')).toBe(-1);
    expect(index.get('')).toBe(-1);
    expect(index.add('')).toBe(1);
    expect(index.get('')).toBe(1);
    // Whatever reaches it untyped finds nothing, as with a Map.
    for (const notAString of [null, undefined, 0, {}]) expect(index.get(notAString as unknown as string)).toBe(-1);
  });
});
