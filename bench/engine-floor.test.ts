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

describe("the floor with the engine's window and events (--floor-features)", () => {
  it('writes, for every command, the kinds of events the engine writes, and answers a repeat from its window', () => {
    const engine = new Engine({ maxOpenOrdersPerUser: 200, rememberedCommandsMax: 1_000 });
    const floor = new EngineFloor({ window: 1_000, events: true });
    const workload = new EngineWorkload(3, 20);
    const kinds = (result: ApplyResult) =>
      result.ok ? result.events.map((e) => e.type).join() : `rejected ${result.code}`;
    for (const command of workload.setup()) {
      engine.apply(command);
      floor.apply(command);
    }
    let fills = 0;
    const commands: Command[] = [];
    for (let i = 0; i < 5_000; i++) {
      const command = workload.next(i);
      commands.push(command);
      const theirs = engine.apply(command);
      const ours = floor.apply(command);
      expect(kinds(ours), `command ${i}`).toBe(kinds(theirs));
      if (ours.ok) fills += ours.events.filter((e) => e.type === 'trade').length;
      workload.observe(theirs);
    }
    expect(fills).toBe(floor.trades);
    const again = commands[4_990] as Command;
    expect(kinds(floor.apply(again))).toBe(kinds(engine.apply(again)));
  });
});

/** Trades so far: the engine gives trade ids in sequence, so the next one tells. */
function countTrades(engine: Engine): number {
  const snapshot = engine.snapshot() as { nextTradeId: number };
  return snapshot.nextTradeId - 1;
}
