import { SeededRandom } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { CommandMemory } from './command-memory.ts';
import type { ApplyResult } from './engine-state.ts';

describe('command memory', () => {
  it('finds exactly the last N ids, oldest forgotten first, and lists them oldest first (checked against a Map)', () => {
    const random = new SeededRandom(11);
    for (const max of [1, 2, 7, 64, 1_000]) {
      const memory = new CommandMemory(max);
      const model = new Map<string, ApplyResult>();
      for (let n = 0; n < 20_000; n++) {
        // Short ids from a small alphabet collide in the table often; some ids come back after eviction.
        const id = random.chance(0.3) ? `x${random.int(0, 3 * max)}` : `c${n}`;
        const found = memory.find(id);
        expect(found?.result, `${max}: ${id}`).toBe(model.get(id));
        if (found !== undefined) continue;
        const result: ApplyResult = { ok: false, code: 'invalid_command' };
        memory.add(id, { id }, result);
        model.set(id, result);
        if (model.size > max) model.delete(model.keys().next().value as string);
      }
      const listed: string[] = [];
      memory.forEach((id) => {
        listed.push(id);
      });
      expect(listed).toEqual([...model.keys()]);
      expect(memory.size).toBe(model.size);
    }
  });

  it('remembers nothing with a window of 0', () => {
    const memory = new CommandMemory(0);
    memory.add('a', {}, { ok: true, events: [] });
    expect(memory.find('a')).toBeUndefined();
    expect(memory.size).toBe(0);
  });
});
