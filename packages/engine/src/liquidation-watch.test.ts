import { applyAll, btcPerp, CommandFactory } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { Engine } from './engine.ts';

const PERP = 'BTCUSDT-PERP';
const P = (usdt: number): number => Math.round(usdt * 10);

/** alice long 1 BTC at 50,000 (10x) against bob short (20x), carol long 0.5 BTC at 1x against dave (5x). */
function market(): { engine: Engine; c: CommandFactory } {
  const engine = new Engine();
  const c = new CommandFactory(PERP);
  applyAll(engine, [c.register(btcPerp({ makerFeeBps: 0, takerFeeBps: 0 }))]);
  for (const user of ['alice', 'bob', 'carol', 'dave'])
    applyAll(engine, [c.deposit(user, 'USDT', '60000', 'contract')]);
  applyAll(engine, [
    c.setLeverage('alice', 10),
    c.setLeverage('bob', 20),
    c.setLeverage('carol', 1),
    c.setLeverage('dave', 5),
    c.limit('bob', 'sell', P(50_000), 1_000),
    c.limit('alice', 'buy', P(50_000), 1_000),
    c.limit('dave', 'sell', P(50_000), 500),
    c.limit('carol', 'buy', P(50_000), 500),
  ]);
  return { engine, c };
}

describe('LiquidationWatch', () => {
  it('answers what the scan of every position answers, at every mark from 30,000 to 70,000', () => {
    const { engine } = market();
    const watch = engine.liquidationWatch(PERP);
    // carol's 1x long has no liquidation price ("--"): not indexed.
    expect(watch.size).toBe(3);
    for (let mark = P(30_000); mark <= P(70_000); mark += 7) {
      expect(watch.due(mark)).toEqual(engine.dueLiquidationsByScan(PERP, mark));
    }
    // alice (10x long) is due from about 45,180; bob (20x short) from about 52,300.
    expect(watch.due(P(45_000))).toEqual(['alice']);
    expect(watch.due(P(53_000))).toEqual(['bob']);
    expect(watch.due(P(50_000))).toEqual([]);
  });

  it('follows a position after refresh: more margin moves its liquidation price, a closed one leaves', () => {
    const { engine, c } = market();
    const watch = engine.liquidationWatch(PERP);
    applyAll(engine, [c.adjustMargin('alice', '2000')]);
    watch.refresh('alice');
    for (let mark = P(40_000); mark <= P(50_000); mark += 3) {
      expect(watch.due(mark)).toEqual(engine.dueLiquidationsByScan(PERP, mark));
    }
    expect(watch.due(P(45_000))).toEqual([]);
    applyAll(engine, [c.mark(P(40_000)), c.liquidate('alice')]);
    watch.refresh('alice');
    watch.refresh('bob');
    expect(engine.positions(PERP).some((p) => p.userId === 'alice')).toBe(false);
    expect(watch.due(P(30_000))).toEqual(engine.dueLiquidationsByScan(PERP, P(30_000)));
    expect(watch.due(P(30_000))).not.toContain('alice');
  });

  it('refuses an instrument that is not a perpetual', () => {
    expect(() => new Engine().liquidationWatch('NOPE')).toThrow();
  });
});
