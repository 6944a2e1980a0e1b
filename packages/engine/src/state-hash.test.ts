import { applyOk, btcUsdt, CommandFactory, placedId } from '@bourse/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Command } from './commands.ts';
import { Engine, isV1StateHash } from './engine.ts';
import type { EngineEvent } from './events.ts';
import { fnv1a64 } from './hash.ts';
import { fromJsonSafe, type JsonValue, toJsonSafe } from './json-codec.ts';
import { EVENT_FIELDS, hashSnapshot, ORDER_FIELDS } from './state-hash.ts';

/**
 * A market that has been through most of what the state records: fills with fees (a fee change in
 * between), resting orders of both sides, stop orders waiting, orders queued while halted, a funds hold,
 * a remembered rejection, and a balance past 2^53 minor units (kept as a bigint).
 */
function busyEngine(rememberedCommandsMax = 100): { engine: Engine; commands: Command[] } {
  const c = new CommandFactory('BTC-USDT');
  const commands: Command[] = [
    c.register(btcUsdt()),
    c.deposit('alice', 'USDT', '1000000'),
    c.deposit('bob', 'BTC', '50'),
    c.deposit('whale', 'USDT', '99999999999'),
    c.limit('bob', 'sell', 6_000_000, 500),
    c.limit('bob', 'sell', 6_000_100, 500),
    c.limit('alice', 'buy', 6_000_000, 200),
    c.fees(1, 9),
    c.limit('alice', 'buy', 6_000_100, 700),
    c.limit('alice', 'buy', 5_990_000, 10),
    c.market('bob', 'sell', 5, { kind: 'stop', priceTicks: 5_900_000, by: 'last' }),
    c.limit('alice', 'buy', 5_950_000, 5, { trigger: { kind: 'stop', priceTicks: 6_100_000, by: 'mark' } }),
    c.halt(),
    c.limit('alice', 'buy', 6_000_200, 3),
    c.market('bob', 'sell', 2),
    c.limit('bob', 'sell', 6_000_500, 1),
    {
      id: 'hold-1',
      timeMs: 5_000,
      type: 'hold_funds',
      userId: 'alice',
      wallet: 'spot',
      asset: 'USDT',
      amount: '12.5',
      cause: 'withdrawal',
    },
    c.limit('nobody', 'buy', 6_000_000, 1),
  ];
  const engine = new Engine({ rememberedCommandsMax });
  for (const command of commands) engine.apply(command);
  return { engine, commands };
}

describe('state hash (v2)', () => {
  it('is the hash of the snapshot, before and after a JSON round trip, and of the state restored from it', () => {
    const { engine, commands } = busyEngine();
    const hash = engine.stateHash();
    expect(hash).toMatch(/^v2:[0-9a-f]{16}$/);
    expect(hashSnapshot(engine.snapshot())).toBe(hash);
    const json = JSON.stringify(engine.snapshot());
    expect(hashSnapshot(JSON.parse(json))).toBe(hash);
    expect(engine.snapshotState()).toEqual({ json, hash });
    const restored = Engine.restore(JSON.parse(json));
    expect(restored.stateHash()).toBe(hash);
    // Every cut of the same commands: the live state, its snapshot, and its restored copy agree.
    for (let cut = 0; cut <= commands.length; cut++) {
      const part = new Engine({ rememberedCommandsMax: 100 });
      for (const command of commands.slice(0, cut)) part.apply(command);
      const partJson = JSON.stringify(part.snapshot());
      expect(hashSnapshot(JSON.parse(partJson)), `cut ${cut}`).toBe(part.stateHash());
      expect(Engine.restore(JSON.parse(partJson)).stateHash(), `cut ${cut}`).toBe(part.stateHash());
    }
  });

  it('changes with anything the state records', () => {
    const { engine } = busyEngine();
    const hashes = new Set([engine.stateHash()]);
    const c = new CommandFactory('BTC-USDT');
    // A trade, a cancel, a price, a rejection remembered, the halt lifted: each a new state.
    for (const command of [
      { ...c.limit('carol', 'buy', 6_000_000, 1), id: 'x1' },
      { ...c.deposit('carol', 'USDT', '1'), id: 'x2' },
      { ...c.cancel('alice', 4), id: 'x3' },
      { ...c.mark(6_000_000), id: 'x4' },
      { ...c.halt(false), id: 'x5' },
      { ...c.limit('alice', 'buy', 6_000_000, 1), id: 'x6', timeMs: 99 },
    ]) {
      engine.apply(command);
      hashes.add(engine.stateHash());
    }
    expect(hashes.size).toBe(7);
    // Only the idempotency window differs between these two.
    const a = new Engine();
    const b = new Engine();
    a.apply(c.register(btcUsdt()));
    b.apply({ ...c.register(btcUsdt()), id: 'another-id' });
    expect(a.stateHash()).not.toBe(b.stateHash());
  });

  it('encodes values by type, length and order, so that different snapshots do not meet', () => {
    const distinct: unknown[] = [
      null,
      true,
      false,
      0,
      1,
      -1,
      1.5,
      2 ** 31,
      2 ** 53,
      '',
      '0',
      '1',
      'ab',
      [],
      [null],
      [[]],
      ['a', 'b'],
      ['ab'],
      ['a', 'b', 'c'],
      ['ab', 'c'],
      {},
      { a: 1 },
      { a: '1' },
      { a: 1, b: 2 },
      { b: 2, a: 1 },
      { ab: 1 },
      { a: { b: 1 } },
      { a: [1] },
      { remembered: [] },
      { orders: [] },
      { orders: [{}] },
      { remembered: [['id', {}, { ok: true, events: [] }]] },
      { remembered: [['id', {}, { ok: false, code: 'invalid_command' }]] },
    ];
    const hashes = distinct.map((value) => hashSnapshot(value));
    expect(new Set(hashes).size).toBe(distinct.length);
    // What JSON (and so a stored snapshot) does not tell apart is the same state.
    expect(hashSnapshot({ a: 1n })).toBe(hashSnapshot({ a: { $bigint: '1' } }));
    expect(hashSnapshot({ a: 2n ** 64n })).toBe(hashSnapshot({ a: { $bigint: '18446744073709551616' } }));
    expect(hashSnapshot({ a: undefined, b: 1 })).toBe(hashSnapshot({ b: 1 }));
    expect(hashSnapshot([-0])).toBe(hashSnapshot([0]));
    expect(hashSnapshot([Number.NaN, undefined])).toBe(hashSnapshot([null, null]));
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const safe = toJsonSafe(fromJsonSafe(value as JsonValue));
        return hashSnapshot(value) === hashSnapshot(JSON.parse(JSON.stringify(safe)));
      }),
    );
  });

  it('lists every field the engine gives the events and orders it encodes as records', () => {
    const { engine, commands } = busyEngine();
    const seen = new Map<string, Set<string>>();
    const fresh = new Engine();
    for (const command of commands) {
      const result = fresh.apply(command);
      if (!result.ok) continue;
      for (const event of result.events as EngineEvent[]) {
        const fields = EVENT_FIELDS[event.type];
        if (fields === undefined) continue;
        // Its keys are the kind's fields, in the record's order (queued only on orders placed while halted).
        const keys = Object.keys(event).filter((k) => k !== 'type');
        expect(
          fields.filter((f) => keys.includes(f)),
          event.type,
        ).toEqual(keys);
        const all = seen.get(event.type) ?? new Set<string>();
        for (const key of keys) all.add(key);
        seen.set(event.type, all);
      }
    }
    for (const [type, fields] of Object.entries(EVENT_FIELDS)) {
      expect([...(seen.get(type) ?? [])].sort(), type).toEqual([...fields].sort());
    }
    const orderKeys = new Set<string>();
    for (const order of engine.snapshot().orders) {
      const keys = Object.keys(order);
      expect(ORDER_FIELDS.filter((f) => keys.includes(f))).toEqual(keys);
      for (const key of keys) orderKeys.add(key);
    }
    // An order placed before the fee change carries its own fees (the keys are there only then).
    expect([...orderKeys].sort()).toEqual([...ORDER_FIELDS].sort());
  });

  it('gives a fixed value for a fixed state (the format is stable across versions and platforms)', () => {
    const c = new CommandFactory('BTC-USDT');
    const engine = new Engine();
    applyOk(engine, c.register(btcUsdt()));
    applyOk(engine, c.deposit('alice', 'USDT', '100'));
    placedId(applyOk(engine, c.limit('alice', 'buy', 6_000_000, 1)));
    expect(engine.stateHash()).toBe(GOLDEN);
  });

  it('checks a hash written before v2 the v1 way: FNV-1a 64 over the snapshot JSON', () => {
    const { engine } = busyEngine();
    const v1 = fnv1a64(JSON.stringify(engine.snapshot()));
    expect(isV1StateHash(v1)).toBe(true);
    expect(isV1StateHash(engine.stateHash())).toBe(false);
    expect(engine.stateHashAs(v1)).toBe(v1);
    expect(engine.stateHashAs('0123456789abcdef')).toBe(v1);
    expect(engine.stateHashAs(engine.stateHash())).toBe(engine.stateHash());
  });
});

const GOLDEN = 'v2:d337ae9bf030485d';
