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

  it('remembers ids alone (addIdOnly) in the same window, counts them, and refuses to read them', () => {
    const random = new SeededRandom(12);
    for (const max of [1, 3, 64]) {
      const memory = new CommandMemory(max);
      const model: { id: string; full: boolean }[] = [];
      for (let n = 0; n < 5_000; n++) {
        const id = random.chance(0.3) ? `x${random.int(0, 3 * max)}` : `c${n}`;
        const known = model.some((entry) => entry.id === id);
        const full = random.chance(0.5);
        if (full) {
          if (memory.knows(id) !== known) throw new Error(`${max}: knows(${id})`);
          if (!known) memory.add(id, { id }, { ok: false, code: 'invalid_command' });
        } else if (memory.addIdOnly(id) === known) {
          throw new Error(`${max}: addIdOnly(${id})`);
        }
        if (!known) {
          model.push({ id, full });
          if (model.length > max) model.shift();
        }
        expect(memory.idOnlyCount).toBe(model.filter((entry) => !entry.full).length);
      }
      for (const entry of model) {
        if (entry.full) expect(memory.find(entry.id)?.command).toEqual({ id: entry.id });
        else expect(() => memory.find(entry.id)).toThrow(/remembered by its id only/);
      }
    }
  });
});
