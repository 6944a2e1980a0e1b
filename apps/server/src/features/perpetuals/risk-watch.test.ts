// The risk loop's index against the engine's scan of every position: kept current by the commands applied
// (the customer's own and another's filling a resting order), and rebuilt when the host's engine is another
// object (restored from a snapshot) that changed without it.

import { type ApplyResult, type Command, Engine, type EngineSnapshot } from '@bourse/engine';
import { applyAll, btcPerp, CommandFactory } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import type { CommandInput, TradingEngine } from '../../engine-host/trading-engine.ts';
import { RiskWatch } from './risk-watch.ts';

const PERP = 'BTCUSDT-PERP';
const P = (usdt: number): number => Math.round(usdt * 10);

/** A TradingEngine as RiskWatch uses it: the live engine, and each applied command's result. */
function host(engine: Engine) {
  let live = engine;
  const listeners: ((command: CommandInput, result: ApplyResult) => void)[] = [];
  const stub = {
    get state() {
      return live;
    },
    onApplied(listener: (command: CommandInput, result: ApplyResult) => void) {
      listeners.push(listener);
      return () => {};
    },
  };
  return {
    trading: stub as unknown as TradingEngine,
    apply(...commands: Command[]) {
      for (const command of commands) {
        const result = live.apply(command);
        expect(result.ok ? 'ok' : result.code, command.type).toBe('ok');
        for (const listener of listeners) listener(command, result);
      }
    },
    replace(next: Engine) {
      live = next;
    },
  };
}

function expectScan(watch: RiskWatch, engine: Engine, from: number, to: number) {
  for (let mark = P(from); mark <= P(to); mark += 37) {
    // The same positions (the index answers by liquidation price, the scan in opening order).
    expect(watch.due(PERP, mark).sort(), `mark ${mark}`).toEqual(engine.dueLiquidationsByScan(PERP, mark).sort());
  }
}

describe('RiskWatch', () => {
  it('follows every position change as commands are applied, and rebuilds for a restored engine', () => {
    const engine = new Engine();
    const c = new CommandFactory(PERP);
    applyAll(engine, [c.register(btcPerp({ makerFeeBps: 0, takerFeeBps: 0 }))]);
    for (const user of ['alice', 'bob', 'carol']) applyAll(engine, [c.deposit(user, 'USDT', '60000', 'contract')]);
    const h = host(engine);
    const watch = new RiskWatch(h.trading, [PERP, 'ETHUSDT-PERP']);
    h.apply(c.setLeverage('alice', 10), c.setLeverage('bob', 20), c.setLeverage('carol', 10));
    h.apply(c.limit('bob', 'sell', P(50_000), 1_000), c.limit('alice', 'buy', P(50_000), 1_000));
    expect(watch.due(PERP, P(45_000))).toEqual(['alice']);
    expectScan(watch, engine, 40_000, 60_000);
    // alice's own command: more margin moves her liquidation price down.
    h.apply(c.adjustMargin('alice', '3000'));
    expect(watch.due(PERP, P(45_000))).toEqual([]);
    // Another's command changes bob's position: carol takes his resting sell, his short doubles at 20x.
    h.apply(c.limit('bob', 'sell', P(50_000), 1_000), c.limit('carol', 'buy', P(50_000), 1_000));
    expectScan(watch, engine, 40_000, 60_000);

    // The host now runs a restored copy in which alice closed her long against bob without the watch seeing it.
    const restored = Engine.restore(JSON.parse(JSON.stringify(engine.snapshot())) as EngineSnapshot);
    applyAll(restored, [c.limit('alice', 'sell', P(50_000), 1_000), c.limit('bob', 'buy', P(50_000), 1_000)]);
    h.replace(restored);
    expect(restored.positions(PERP).some((p) => p.userId === 'alice')).toBe(false);
    expectScan(watch, restored, 30_000, 70_000);
    expect(watch.due(PERP, P(30_000))).not.toContain('alice');
  });
});
