import { applyOk, btcUsdt, CommandFactory, placedId } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import type { Command } from './commands.ts';
import { Engine } from './engine.ts';
import { hashSnapshot } from './state-hash.ts';

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

describe('state hash', () => {
  it('is the hash of the snapshot, before and after a JSON round trip, and of the state restored from it', () => {
    const { engine, commands } = busyEngine();
    const hash = engine.stateHash();
    expect(hash).toMatch(/^v5:[0-9a-f]{32}$/);
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

  it('gives a fixed value for a fixed state (the format is stable across versions and platforms)', () => {
    const c = new CommandFactory('BTC-USDT');
    const engine = new Engine();
    applyOk(engine, c.register(btcUsdt()));
    applyOk(engine, c.deposit('alice', 'USDT', '100'));
    placedId(applyOk(engine, c.limit('alice', 'buy', 6_000_000, 1)));
    expect(engine.stateHash()).toBe(GOLDEN);
  });
});

const GOLDEN = 'v5:42446880516bb1579b37957102f6457d';
