import { readFileSync } from 'node:fs';
import { applyOk, btcUsdt, CommandFactory, placedId, SeededRandom } from '@bourse/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Command } from './commands.ts';
import { Engine, isV1StateHash } from './engine.ts';
import type { EngineState } from './engine-state.ts';
import type { EngineEvent } from './events.ts';
import { fnv1a64, Murmur3x128 } from './hash.ts';
import { fromJsonSafe, type JsonValue, toJsonSafe } from './json-codec.ts';
import { type EngineSnapshot, takeSnapshotV1 } from './snapshot.ts';
import { EVENT_FIELDS, hashSnapshot, hashSnapshotV2, ORDER_FIELDS } from './state-hash.ts';

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

describe('state hash (v4, and v3, v2 and v1 for older hashes)', () => {
  it('is the hash of the snapshot, before and after a JSON round trip, and of the state restored from it', () => {
    const { engine, commands } = busyEngine();
    const hash = engine.stateHash();
    expect(hash).toMatch(/^v4:[0-9a-f]{32}$/);
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

  it('v2 encodes values by type, length and order, so that different snapshots do not meet', () => {
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
    const hashes = distinct.map((value) => hashSnapshotV2(value));
    expect(new Set(hashes).size).toBe(distinct.length);
    // What JSON (and so a stored snapshot) does not tell apart is the same state.
    expect(hashSnapshotV2({ a: 1n })).toBe(hashSnapshotV2({ a: { $bigint: '1' } }));
    expect(hashSnapshotV2({ a: 2n ** 64n })).toBe(hashSnapshotV2({ a: { $bigint: '18446744073709551616' } }));
    expect(hashSnapshotV2({ a: undefined, b: 1 })).toBe(hashSnapshotV2({ b: 1 }));
    expect(hashSnapshotV2([-0])).toBe(hashSnapshotV2([0]));
    expect(hashSnapshotV2([Number.NaN, undefined])).toBe(hashSnapshotV2([null, null]));
    // hashSnapshot() hashes anything but a format-2 snapshot the v2 way (a key "__proto__" included).
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const safe = toJsonSafe(fromJsonSafe(value as JsonValue));
        return hashSnapshot(value) === hashSnapshotV2(JSON.parse(JSON.stringify(safe)));
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
    let afterMarket = 0;
    for (const order of engine.snapshot().orders) {
      // The v2 record of an order predates the after-market mark (v2 hashes leave it out).
      if (order.afterMarket) afterMarket += 1;
      const keys = Object.keys(order).filter((k) => k !== 'afterMarket');
      expect(ORDER_FIELDS.filter((f) => keys.includes(f))).toEqual(keys);
      for (const key of keys) orderKeys.add(key);
    }
    // An order placed before the fee change carries its own fees (the keys are there only then).
    expect([...orderKeys].sort()).toEqual([...ORDER_FIELDS].sort());
    expect(afterMarket).toBeGreaterThan(0);
  });

  it('gives a fixed value for a fixed state (the format is stable across versions and platforms)', () => {
    const c = new CommandFactory('BTC-USDT');
    const engine = new Engine();
    applyOk(engine, c.register(btcUsdt()));
    applyOk(engine, c.deposit('alice', 'USDT', '100'));
    placedId(applyOk(engine, c.limit('alice', 'buy', 6_000_000, 1)));
    expect(engine.stateHash()).toBe(GOLDEN);
    // Without an after-market order and the asset list (issue 22), v3 (before the mark) has the same digest.
    const { assets: _assets, ...snapshot } = engine.snapshot();
    expect(engine.stateHashAs('v3:')).toBe(`v3:${hashSnapshot(snapshot).slice(3)}`);
    // The same state's v2 hash, as the engine gave it before v3 (the state has not changed).
    expect(engine.stateHashAs('v2:')).toBe(GOLDEN_V2);
  });

  it('checks a hash written before v3 the v2 way, and one written before v2 the v1 way', () => {
    const { engine } = busyEngine();
    const state = (engine as unknown as { state: EngineState }).state;
    const v2 = hashSnapshotV2(takeSnapshotV1(state));
    expect(v2).toMatch(/^v2:[0-9a-f]{16}$/);
    expect(engine.stateHashAs(v2)).toBe(v2);
    expect(engine.stateHashAs('v2:0000000000000000')).toBe(v2);
    expect(hashSnapshot(JSON.parse(JSON.stringify(takeSnapshotV1(state))))).toBe(v2);
    const v1 = fnv1a64(JSON.stringify(takeSnapshotV1(state)));
    expect(isV1StateHash(v1)).toBe(true);
    expect(isV1StateHash(engine.stateHash())).toBe(false);
    expect(engine.stateHashAs(v1)).toBe(v1);
    expect(engine.stateHashAs('0123456789abcdef')).toBe(v1);
    expect(engine.stateHashAs(engine.stateHash())).toBe(engine.stateHash());
  });
});

describe('hashes recorded before the after-market mark (v3)', () => {
  // fixtures/after-market-v3.json: the state below and its snapshot, as the engine wrote them before the
  // mark existed (2026-11-21): two orders placed while halted have entered the book, one still waits.
  const recorded = JSON.parse(readFileSync(new URL('./fixtures/after-market-v3.json', import.meta.url), 'utf8')) as {
    hash: string;
    snapshot: EngineSnapshot;
  };
  const replayed = () => {
    const c = new CommandFactory('BTC-USDT');
    const engine = new Engine({ rememberedCommandsMax: 50 });
    for (const command of [
      c.register(btcUsdt()),
      c.deposit('alice', 'USDT', '1000'),
      c.deposit('bob', 'BTC', '1'),
      c.halt(),
      c.limit('alice', 'buy', 5_990_000, 2),
      c.limit('bob', 'sell', 6_010_000, 3),
      c.halt(false),
      c.limit('alice', 'buy', 5_980_000, 1),
      c.halt(),
      c.limit('alice', 'buy', 5_970_000, 4),
    ])
      applyOk(engine, command);
    return engine;
  };

  it('checks a checkpoint hashed then against the same commands replayed now', () => {
    const engine = replayed();
    expect(recorded.hash).toMatch(/^v3:/);
    expect(engine.stateHashAs(recorded.hash)).toBe(recorded.hash);
    // v4 covers the mark, so this state's digest differs.
    expect(engine.stateHash()).toMatch(/^v4:/);
    expect(engine.stateHash().slice(3)).not.toBe(recorded.hash.slice(3));
    expect([1, 2, 3, 4].map((id) => engine.order(id)?.afterMarket)).toEqual([true, true, false, true]);
  });

  it('restores a snapshot taken then to a state that checks against its hash; the queued order gets its mark', () => {
    const restored = Engine.restore(JSON.parse(JSON.stringify(recorded.snapshot)));
    expect(restored.stateHashAs(recorded.hash)).toBe(recorded.hash);
    expect(restored.stateHashAs(recorded.hash)).toBe(replayed().stateHashAs(recorded.hash));
    // Orders that had entered the book before the snapshot cannot get it back: the snapshot never said.
    expect([1, 2, 3, 4].map((id) => restored.order(id)?.afterMarket)).toEqual([false, false, false, true]);
    // So it is not the journal's state, and a host must not go on from it (it replays instead).
    expect(restored.restoresExactly(recorded.hash)).toBe(false);
  });

  it('says which snapshots restore exactly: any hashed since v4, and older ones whose books are empty', () => {
    const engine = replayed();
    expect(engine.restoresExactly(engine.stateHash())).toBe(true);
    for (const old of ['v3:', 'v2:', '0123456789abcdef']) expect(engine.restoresExactly(old)).toBe(false);
    const c = new CommandFactory('BTC-USDT');
    const empty = new Engine();
    applyOk(empty, c.register(btcUsdt()));
    applyOk(empty, c.deposit('alice', 'USDT', '100'));
    applyOk(empty, c.halt());
    applyOk(empty, c.limit('alice', 'buy', 5_990_000, 1)); // queued: a restore marks it from where it waits
    for (const old of ['v3:', 'v2:', '0123456789abcdef']) expect(empty.restoresExactly(old)).toBe(true);
  });
});

describe('Murmur3x128', () => {
  /** The 32-bit little-endian words of an ASCII text whose length is a multiple of 4. */
  const words = (text: string) => {
    const bytes = Buffer.from(text, 'latin1');
    return Int32Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readInt32LE(4 * i));
  };

  it("gives MurmurHash3_x86_128's published results", () => {
    // The reference tests (github.com/PeterScott/murmur3, test.c), seed 123.
    const x28 = new Murmur3x128(123);
    x28.words(words('xxxxxxxxxxxxxxxxxxxxxxxxxxxx'));
    expect(x28.digest()).toBe('5e40bab278825a164cf929d31fec6047');
    expect(new Murmur3x128(123).digest()).toBe('fedc524526f3e79926f3e79926f3e799');
  });

  it('gives the same hash whatever the words are fed by', () => {
    const random = new SeededRandom(3);
    const all = Int32Array.from({ length: 103 }, () => random.int(-(2 ** 31), 2 ** 31 - 1));
    const whole = new Murmur3x128();
    whole.words(all);
    for (let trial = 0; trial < 20; trial++) {
      const pieces = new Murmur3x128();
      let at = 0;
      while (at < all.length) {
        const n = Math.min(random.int(0, 9), all.length - at);
        if (random.chance(0.5)) for (let i = 0; i < n; i++) pieces.word(all[at + i] as number);
        else pieces.words(all.subarray(at, at + n));
        at += n;
      }
      expect(pieces.digest()).toBe(whole.digest());
    }
  });
});

const GOLDEN = 'v4:4798782e753cbaa92f378b8772522fb9';
const GOLDEN_V2 = 'v2:d337ae9bf030485d';
