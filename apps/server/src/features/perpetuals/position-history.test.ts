// A position's life from the engine's events: opened, partly closed, flipped in one fill (one life closes,
// the next opens), funded, and its fees charged to the life they were paid in.

import { type Command, Engine, type EngineEvent } from '@bourse/engine';
import { applyAll, btcPerp, CommandFactory } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { type Life, Lives } from './position-history.ts';

const PERP = 'BTCUSDT-PERP';
const P = (usdt: number): number => Math.round(usdt * 10);
const USDT = (n: number) => BigInt(Math.round(n * 1_000_000));

describe('position history', () => {
  it('opens, reduces, flips and funds a life, with exact entry and exit notionals and P&L', () => {
    const engine = new Engine();
    const c = new CommandFactory(PERP);
    applyAll(engine, [c.register(btcPerp())]);
    for (const user of ['alice', 'bob', 'carol', 'dave'])
      applyAll(engine, [c.deposit(user, 'USDT', '100000', 'contract'), c.setLeverage(user, 10)]);
    const lives = new Lives([]);
    const perpetual = (id: string) => id === PERP;
    const run = (commands: Command[], fundingOf?: string): void => {
      for (const command of commands) {
        const events: EngineEvent[] = applyAll(engine, [command]);
        lives.apply(events, perpetual, fundingOf);
      }
    };
    // alice long 1 BTC at 50,000 (taker: 4 bp, 20 USDT).
    run([c.limit('bob', 'sell', P(50_000), 1_000), c.limit('alice', 'buy', P(50_000), 1_000)]);
    // 0.4 closed at 51,000 (+400; 8.16 fee).
    run([c.limit('carol', 'buy', P(51_000), 400), c.limit('alice', 'sell', P(51_000), 400)]);
    // One fill of 1.1 at 52,000: 0.6 closes (+1,200), 0.5 opens short (22.88 fee, the new life's).
    run([c.limit('dave', 'buy', P(52_000), 1_100), c.limit('alice', 'sell', P(52_000), 1_100)]);
    // Funding at 52,000, 0.01%: alice's short of 0.5 receives her share of what the longs pay.
    run([c.mark(P(52_000)), c.funding(100)], PERP);
    const alice = [...lives.touched].filter((l) => l.userId === 'alice');
    const [first, second] = alice as [Life, Life];
    expect(alice).toHaveLength(2);
    expect(first).toMatchObject({
      side: 'long',
      reason: 'closed',
      maxLots: 1_000,
      openLots: 1_000,
      openNotional: USDT(50_000),
      closeLots: 1_000,
      // 0.4 × 51,000 + 0.6 × 52,000
      closeNotional: USDT(51_600),
      realisedPnl: USDT(1_600),
      fees: USDT(28.16),
      funding: 0n,
    });
    expect(first.closedAt).not.toBeNull();
    expect(second).toMatchObject({
      side: 'short',
      closedAt: null,
      reason: null,
      maxLots: 500,
      openNotional: USDT(26_000),
      closeLots: 0,
      fees: USDT(22.88),
    });
    expect(second.funding).toBeGreaterThan(0n);
    // Every life balances with the engine: the open one's last figures are the live position's.
    const live = engine.positions(PERP).find((p) => p.userId === 'alice');
    expect([second.lastSize, second.lastEntry, second.lastRealised]).toEqual([
      live?.sizeLots,
      live?.entryNotional,
      live?.realisedPnl,
    ]);
  });
});
