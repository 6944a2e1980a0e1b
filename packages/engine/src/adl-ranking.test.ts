import { applyAll, btcPerp, CommandFactory } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import type { Command } from './commands.ts';
import { Engine } from './engine.ts';
import type { EngineState, Position } from './engine-state.ts';
import type { AutoDeleveraged, PositionLiquidated } from './events.ts';

const PERP = 'BTCUSDT-PERP';
const P = (usdt: number): number => Math.round(usdt * 10);

function stateOf(engine: Engine): EngineState {
  return (engine as unknown as { state: EngineState }).state;
}

/** The ranking made afresh, as the engine did before it kept one: every position, a stable sort, bigints only. */
function freshQueue(state: EngineState, side: 1 | -1): string[] {
  const instrument = state.instruments.get(PERP)!;
  const perpetual = state.perpetuals.get(instrument.index)!;
  const def = instrument.def;
  const mark = BigInt(instrument.markTicks as number) * def.tickMinor;
  const keyed = [...perpetual.positions.values()]
    .filter((p) => Math.sign(p.sizeLots) === side)
    .map((p: Position) => {
      const size = BigInt(Math.abs(p.sizeLots)) * def.lotMinor;
      const scaled = mark * size;
      // A long's notional rounded down, a short's up (positions.ts).
      const notional = scaled / def.baseUnit + (side === -1 && scaled % def.baseUnit !== 0n ? 1n : 0n);
      const pnl = side === 1 ? notional - p.entryNotional : p.entryNotional - notional;
      const margin = p.margin.remaining > 0n ? p.margin.remaining : 1n;
      const equity = margin + pnl > 0n ? margin + pnl : 1n;
      return { id: p.userId, num: pnl * notional, den: margin * equity };
    });
  keyed.sort((a, b) => {
    const left = a.num * b.den;
    const right = b.num * a.den;
    return left > right ? -1 : left < right ? 1 : 0;
  });
  return keyed.map((k) => k.id);
}

function keptQueue(state: EngineState, side: 1 | -1): string[] {
  const instrument = state.instruments.get(PERP)!;
  const perpetual = state.perpetuals.get(instrument.index)!;
  return perpetual.adl.queue(instrument, perpetual.positions, side).map((r) => r.position.userId);
}

/** A small seeded generator (the test must be the same every run). */
function random(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s % n;
  };
}

describe('AdlRanking', () => {
  it('answers what ranking every position afresh answers, through trades, margin, funding, marks and liquidations', () => {
    const engine = new Engine();
    const c = new CommandFactory(PERP);
    const next = random(7);
    const seen = { liquidations: 0, adl: 0, funding: 0 };
    const run = (...commands: Command[]) => {
      for (const command of commands) {
        const result = engine.apply(command);
        if (!result.ok) continue;
        for (const e of result.events) {
          if (e.type === 'position_liquidated') seen.liquidations++;
          if (e.type === 'auto_deleveraged') seen.adl++;
          if (e.type === 'funding_applied' && e.paid > 0n) seen.funding++;
        }
      }
    };
    applyAll(engine, [c.register(btcPerp({ makerFeeBps: 0, takerFeeBps: 0 }))]);
    const users = Array.from({ length: 40 }, (_, i) => `u${i}`);
    for (const user of users) applyAll(engine, [c.deposit(user, 'USDT', '200000', 'contract')]);
    for (const user of users) run(c.setLeverage(user, 2 + next(40)));
    // Deep 1x liquidity far out, so liquidations close partly in the book and partly by ADL.
    applyAll(engine, [c.deposit('mm', 'USDT', '100000000', 'contract'), c.setLeverage('mm', 1)]);
    applyAll(engine, [c.limit('mm', 'buy', P(46_000), 2_000), c.limit('mm', 'sell', P(54_000), 2_000)]);
    const state = stateOf(engine);
    let checked = 0;
    for (let step = 0; step < 400; step++) {
      const a = users[next(users.length)] as string;
      const b = users[next(users.length)] as string;
      const action = next(10);
      if (action < 4 && a !== b) {
        const price = P(50_000 + next(2_000) - 1_000);
        const lots = 1 + next(400);
        run(c.limit(a, 'sell', price, lots), c.limit(b, 'buy', price, lots));
      } else if (action < 5) {
        run(c.adjustMargin(a, next(2) === 0 ? '150' : '-40'));
      } else if (action < 6) {
        run(c.funding(next(2) === 0 ? 300 : -300));
      } else {
        run(c.mark(P(50_000 + next(12_000) - 6_000)));
        for (const id of engine.dueLiquidationsByScan(PERP, state.instruments.get(PERP)!.markTicks as number)) {
          run(c.liquidate(id));
        }
      }
      if (state.instruments.get(PERP)!.markTicks === null) continue;
      for (const side of [1, -1] as const) {
        expect(keptQueue(state, side), `step ${step}, side ${side}`).toEqual(freshQueue(state, side));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(600);
    // What the run went through (so the comparison above saw ADL at work, not only quiet marks).
    expect(seen.liquidations).toBeGreaterThan(20);
    expect(seen.adl).toBeGreaterThan(20);
    expect(seen.funding).toBeGreaterThan(10);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('ranks a position again after it changed at the same mark: added margin lowers its effective leverage', () => {
    const engine = new Engine();
    const c = new CommandFactory(PERP);
    const run = (...commands: Command[]) => applyAll(engine, commands);
    run(c.register(btcPerp({ makerFeeBps: 0, takerFeeBps: 0 })));
    for (const user of ['alice', 'erin', 'bob', 'carol']) run(c.deposit(user, 'USDT', '20000', 'contract'));
    run(c.setLeverage('alice', 10), c.setLeverage('erin', 10), c.setLeverage('bob', 10), c.setLeverage('carol', 20));
    run(c.limit('bob', 'sell', P(50_000), 1_000), c.limit('carol', 'sell', P(50_000), 1_000));
    run(c.limit('alice', 'buy', P(50_000), 500), c.limit('erin', 'buy', P(50_000), 1_500));
    // No bid and an empty fund: alice's half BTC closes by ADL against carol (20x) first.
    run(c.mark(P(45_000)));
    const first = run(c.liquidate('alice'));
    const adl = first.filter((e): e is AutoDeleveraged => e.type === 'auto_deleveraged');
    expect(adl.map((e) => [e.userId, e.sizeLots, e.lots])).toEqual([['carol', -1_000, 500]]);
    // carol's short gains 500 × 5,000 / 1,000 = 2,500 at 45,000; alice loses her 2,500 margin.
    expect(adl[0]?.pnl).toBe(2_500_000_000n);
    const liquidated = first.find((e): e is PositionLiquidated => e.type === 'position_liquidated');
    expect(liquidated?.marginLost).toBe(2_500_000_000n);
    // At the same mark carol adds margin: her effective leverage falls below bob's, who now goes first.
    run(c.adjustMargin('carol', '10000'));
    expect(keptQueue(stateOf(engine), -1)).toEqual(['bob', 'carol']);
    const second = run(c.liquidate('erin'));
    expect(
      second.filter((e): e is AutoDeleveraged => e.type === 'auto_deleveraged').map((e) => [e.userId, e.lots]),
    ).toEqual([
      ['bob', 1_000],
      ['carol', 500],
    ]);
    expect(engine.positions(PERP)).toEqual([]);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });
});
