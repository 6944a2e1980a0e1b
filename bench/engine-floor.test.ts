import { type ApplyResult, type Command, Engine } from '@bourse/engine';
import { describe, expect, it } from 'vitest';
import { EngineFloor } from './engine-floor.ts';
import { EngineWorkload } from './engine-workload.ts';

/** Runs `commands` of the engine bench's workload (seed, users) and reports what came of them. */
function run(core: { apply(command: Command): ApplyResult }, seed: number, users: number, commands: number) {
  const workload = new EngineWorkload(seed, users);
  for (const command of workload.setup()) expect(core.apply(command).ok).toBe(true);
  let rejected = 0;
  const codes = new Map<string, number>();
  for (let i = 0; i < commands; i++) {
    const result = core.apply(workload.next(i));
    if (result.ok) workload.observe(result);
    else {
      rejected += 1;
      codes.set(result.code, (codes.get(result.code) ?? 0) + 1);
    }
  }
  return { rejected, codes };
}

describe('the engine bench floor', () => {
  it.each([
    [7, 10_000],
    [3, 20],
  ])('ends where the engine ends on the same commands (seed %i, %i users)', (seed, users) => {
    const engine = new Engine({ maxOpenOrdersPerUser: 200, rememberedCommandsMax: 1_000 });
    const floor = new EngineFloor();
    // Few users make self-trades, the open-order limit and empty balances common.
    const commands = 30_000;
    const theirs = run(engine, seed, users, commands);
    const ours = run(floor, seed, users, commands);
    expect(ours.rejected).toBe(theirs.rejected);
    expect(ours.codes).toEqual(theirs.codes);
    expect(engine.findBrokenInvariant()).toBeUndefined();
    expect(floor.trades).toBe(countTrades(engine));
    for (let u = 0; u < users; u++) {
      const usdt = engine.balance(`user${u}`, 'spot', 'USDT');
      const btc = engine.balance(`user${u}`, 'spot', 'BTC');
      expect(floor.balancesOf(`user${u}`)).toEqual([usdt.balance, usdt.held, btc.balance, btc.held].map(Number));
    }
    expect(floor.feesCollected).toBe(Number(engine.balance('platform:fees', 'platform', 'USDT').balance));
  });
});

/** Trades so far: the engine gives trade ids in sequence, so the next one tells. */
function countTrades(engine: Engine): number {
  const snapshot = engine.snapshot() as { nextTradeId: number };
  return snapshot.nextTradeId - 1;
}
