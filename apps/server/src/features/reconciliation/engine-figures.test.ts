// The engine's figures for the reconciliation: each asset's totals by holder, the live orders and the last
// ids given out of a sound ledger, and each broken ledger invariant reported by its own kind (the breakages
// made behind the engine's back, as only a bug could make them).

import { type Account, Engine } from '@bourse/engine';
import { applyAll, btcUsdt, CommandFactory } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { captureEngine } from './engine-figures.ts';

const P60000 = 6_000_000; // ticks of 0.01 USDT

/** Alice's buy of 2 lots rests half filled by Bob's sell of 1; a market maker holds USDT. */
function traded() {
  const engine = new Engine();
  const c = new CommandFactory('BTC-USDT');
  const commands = [
    c.register(btcUsdt()),
    c.deposit('alice', 'USDT', '100000'),
    c.deposit('bob', 'BTC', '1'),
    c.deposit('mm:BTC-USDT', 'USDT', '500'),
    c.limit('alice', 'buy', P60000, 2),
    c.limit('bob', 'sell', P60000, 1),
  ];
  applyAll(engine, commands);
  return { engine, seq: commands.length };
}

const account = (engine: Engine, key: string) => engine.accounts().find((a) => a.key === key) as Account;

describe('the engine at one seq', () => {
  it('gives each asset its totals by holder, the live orders and the last ids, and finds nothing in a sound ledger', () => {
    const { engine, seq } = traded();
    const { figures, assets, discrepancies } = captureEngine(engine, seq);
    expect(discrepancies).toEqual([]);
    const usdt = assets.find((a) => a.asset === 'USDT');
    expect(usdt).toMatchObject({ marketMakers: '500.000000', marketMakersHeld: '0.000000', net: '0.000000' });
    expect(usdt?.platformByKind.faucet).toBe('-100500.000000');
    expect(Number(usdt?.platformByKind.fees)).toBeGreaterThan(0);
    expect(Number(usdt?.customersHeld)).toBeGreaterThan(5); // the rest of Alice's buy: one lot at 6 USDT
    expect(assets.find((a) => a.asset === 'BTC')).toMatchObject({ customers: '1.00000000', net: '0.00000000' });
    expect(figures).toMatchObject({
      seq,
      liveOrderIds: [1],
      liveStatuses: ['partial'],
      liveFilledLots: [1],
      lastOrderId: 2,
      lastTradeId: 1,
      scales: { USDT: 6, BTC: 8 },
    });
    const bob = figures.accountKeys.indexOf('bob/spot/BTC');
    expect(figures.balances[bob]).toBe(99_990_000n); // 1 BTC less the lot of 0.0001 sold
  });

  it('reports an account below zero, a hold above its balance and the asset that no longer sums to zero', () => {
    const { engine, seq } = traded();
    account(engine, 'bob/spot/BTC').balance = -5n;
    const alice = account(engine, 'alice/spot/USDT');
    alice.held = alice.balance + 1n;
    const { discrepancies } = captureEngine(engine, seq);
    expect(discrepancies).toEqual([
      expect.objectContaining({ kind: 'hold_out_of_range', account: 'alice/spot/USDT', asset: 'USDT' }),
      { kind: 'negative_balance', account: 'bob/spot/BTC', asset: 'BTC', balance: '-0.00000005' },
      { kind: 'asset_not_balanced', asset: 'BTC', net: '-0.99990005' },
    ]);
  });

  it("asks the engine's own check when the ledger's sums hold, and reports what it finds", () => {
    const { engine, seq } = traded();
    // Within its balance, but no longer what Alice's order holds.
    const alice = account(engine, 'alice/spot/USDT');
    alice.held -= 1n;
    const { discrepancies } = captureEngine(engine, seq);
    expect(discrepancies).toEqual([
      { kind: 'engine_invariant', detail: expect.stringMatching(/^alice\/spot\/USDT held \d+ but its holds sum to/) },
    ]);
  });
});
