import { SeededRandom } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { CommandMemory } from './command-memory.ts';
import type { ApplyResult } from './engine-state.ts';
import type { EngineEvent } from './events.ts';

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

  it('forgets everything on clear() and then behaves as a new memory given the same ids', () => {
    const random = new SeededRandom(13);
    for (const max of [1, 3, 64]) {
      const used = new CommandMemory(max);
      const fresh = new CommandMemory(max);
      const ids = (from: number, n: number) =>
        Array.from({ length: n }, (_, k) => (random.chance(0.3) ? `x${random.int(0, 3 * max)}` : `c${from + k}`));
      const add = (memory: CommandMemory, id: string) => {
        if (memory.knows(id)) return;
        memory.add(id, { id }, { ok: true, events: [] });
      };
      // Wrapped round the ring more than once before the clear.
      for (const id of ids(0, 5 * max + 2)) add(used, id);
      used.clear();
      expect(used.size).toBe(0);
      const before = ids(0, 5 * max + 2);
      for (const id of before) expect(used.knows(id), `${max}: ${id} after clear()`).toBe(false);
      const after = ids(10_000, 4 * max + 1);
      for (const id of after) {
        add(used, id);
        add(fresh, id);
      }
      for (const id of [...before, ...after]) expect(used.knows(id), `${max}: ${id}`).toBe(fresh.knows(id));
      const { ids: usedIds, commands, counts } = used.exportWindow();
      const expected = fresh.exportWindow();
      expect(usedIds).toEqual(expected.ids);
      expect(commands).toEqual(expected.commands);
      expect([...counts]).toEqual([...expected.counts]);
    }
  });

  it('remembers nothing with a window of 0', () => {
    const memory = new CommandMemory(0);
    memory.add('a', {}, { ok: true, events: [] });
    expect(memory.find('a')).toBeUndefined();
    expect(memory.size).toBe(0);
  });

  it('exports its window as stored and loads it into a memory that answers the same (values by kind)', () => {
    const text = (value: unknown) =>
      JSON.stringify(value, (_key, v: unknown) =>
        v === undefined ? '<undefined>' : typeof v === 'bigint' ? `${v}n` : v,
      );
    const placed = (id: string, n: number): EngineEvent => ({
      type: 'order_placed',
      orderId: n,
      commandId: id,
      userId: 'alice',
      instrumentId: 'BTC-USDT',
      side: 'buy',
      orderType: 'limit',
      priceTicks: 100 + n,
      qtyLots: 1,
      timeInForce: 'gtc',
      postOnly: false,
      trigger: null,
      status: 'pending',
      holdAsset: 'USDT',
      holdAmount: 2n ** 60n + BigInt(n),
      timeMs: n,
    });
    // An event kept whole (no field encoding), and one whose optional field is undefined, not absent.
    const whole = {
      type: 'price_set',
      instrumentId: 'BTC-USDT',
      kind: 'mark',
      priceTicks: 7,
      timeMs: 1,
    } as unknown as EngineEvent;
    const updated = {
      type: 'order_updated',
      orderId: 1,
      userId: 'alice',
      instrumentId: 'BTC-USDT',
      status: 'cancelled',
      priceTicks: 101,
      qtyLots: 1,
      filledLots: 0,
      remainingLots: 1,
      reason: undefined,
      timeMs: 3,
    } as unknown as EngineEvent;
    for (const max of [1, 3, 4, 10]) {
      const memory = new CommandMemory(max);
      for (let n = 1; n <= 6; n++) {
        const id = `id${n}`;
        const result: ApplyResult =
          n % 3 === 0 ? { ok: false, code: 'order_not_found' } : { ok: true, events: [placed(id, n), updated, whole] };
        memory.add(id, { id, n }, result);
      }
      const stored = memory.exportWindow();
      expect(stored.ids).toEqual(['id1', 'id2', 'id3', 'id4', 'id5', 'id6'].slice(-max));
      // The entries' own ids are -1, strings and null once each, every object (event, rejection) apart.
      expect(stored.values.filter((v) => typeof v === 'string' && v.startsWith('id'))).toEqual([]);
      expect(stored.values.filter((v) => v === null)).toHaveLength(
        stored.ids.some((id) => id !== 'id3' && id !== 'id6') ? 1 : 0,
      );
      expect(stored.values.filter((v) => v === 'alice')).toHaveLength(stored.values.includes('alice') ? 1 : 0);
      expect(stored.values.includes(undefined)).toBe(stored.ids.some((id) => id !== 'id3' && id !== 'id6'));
      const loaded = new CommandMemory(max);
      loaded.loadWindow(stored);
      expect(text(loaded.exportWindow())).toBe(text(stored));
      const listed: string[] = [];
      memory.forEach((id, command, result) => {
        listed.push(text([id, command, result]));
      });
      const again: string[] = [];
      loaded.forEach((id, command, result) => {
        again.push(text([id, command, result]));
      });
      expect(again).toEqual(listed);
      // It goes on as the original: the next add evicts the same oldest entry.
      memory.add('id7', { id: 'id7' }, { ok: true, events: [] });
      loaded.add('id7', { id: 'id7' }, { ok: true, events: [] });
      expect(text(loaded.exportWindow())).toBe(text(memory.exportWindow()));
      expect(loaded.find(stored.ids[0] as string) === undefined).toBe(
        memory.find(stored.ids[0] as string) === undefined,
      );
    }
  });

  it('refuses a window that does not fit', () => {
    const memory = new CommandMemory(4);
    for (let n = 0; n < 4; n++) memory.add(`c${n}`, { n }, { ok: true, events: [] });
    const stored = memory.exportWindow();
    expect(() => new CommandMemory(3).loadWindow(stored)).toThrow(/does not fit/);
    expect(() => new CommandMemory(4).loadWindow({ ...stored, ids: ['a', 'b', 'a', 'c'] })).toThrow(/twice/);
    expect(() =>
      new CommandMemory(4).loadWindow({ ...stored, counts: new Int32Array([0, 0, 0, 0, 0, 0, 1, 0]) }),
    ).toThrow(/do not add up/);
    const used = new CommandMemory(4);
    used.add('x', {}, { ok: true, events: [] });
    expect(() => used.loadWindow(stored)).toThrow(/used memory/);
  });
});
