// The records follow from one command's events alone: a liquidation partly deleveraged (the customer loses
// the margin, the counterparty's ADL P&L), and a funding interval (each holder's size, rate and mark).

import { Engine } from '@bourse/engine';
import { applyAll, btcPerp, CommandFactory } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { fundingRecords, fundingSlotOfCommand, liquidationRecords } from './records.ts';

const PERP = 'BTCUSDT-PERP';
const P = (usdt: number): number => Math.round(usdt * 10);

function market() {
  const engine = new Engine();
  const c = new CommandFactory(PERP);
  applyAll(engine, [c.register(btcPerp({ makerFeeBps: 0, takerFeeBps: 0 }))]);
  for (const user of ['alice', 'bob']) applyAll(engine, [c.deposit(user, 'USDT', '10000', 'contract')]);
  applyAll(engine, [c.setLeverage('alice', 10), c.setLeverage('bob', 10)]);
  applyAll(engine, [c.limit('bob', 'sell', P(50_000), 1_000), c.limit('alice', 'buy', P(50_000), 1_000)]);
  return { engine, c };
}

describe('perpetual records', () => {
  it("a liquidation by ADL: the customer's margin lost, the counterparty's P&L at the bankruptcy price", () => {
    const { engine, c } = market();
    const command = c.liquidate('alice');
    const events = applyAll(engine, [c.mark(P(45_000)), command]);
    const records = liquidationRecords(command.id, events);
    expect(records).toEqual([
      expect.objectContaining({
        key: `${command.id}:liquidation`,
        userId: 'alice',
        kind: 'liquidation',
        side: 'long',
        sizeLots: 1_000,
        priceTicks: P(45_000),
        bankruptcyTicks: P(45_000),
        amount: -5_000_000_000n,
        insuranceFund: 0n,
      }),
      expect.objectContaining({
        key: `${command.id}:adl:bob`,
        userId: 'bob',
        kind: 'adl',
        side: 'short',
        sizeLots: 1_000,
        bankruptcyTicks: P(45_000),
        // bob's short of 1 BTC closed at 45,000: +5,000.
        amount: 5_000_000_000n,
      }),
    ]);
    expect(liquidationRecords('other', [])).toEqual([]);
  });

  it('a funding interval: one record per holder, with the size it was paid on', () => {
    const { engine, c } = market();
    const command = { ...c.funding(100), id: 'funding:BTCUSDT-PERP:1764288000000' };
    const events = applyAll(engine, [c.mark(P(50_000)), command]);
    const records = fundingRecords(command.id, events);
    // 1 BTC × 50,000 × 0.01% = 5 USDT from the long to the short.
    expect(records.map((r) => [r.userId, r.side, r.sizeLots, r.ratePpm, r.priceTicks, r.amount])).toEqual([
      ['alice', 'long', 1_000, 100, P(50_000), -5_000_000n],
      ['bob', 'short', 1_000, 100, P(50_000), 5_000_000n],
    ]);
    expect(fundingSlotOfCommand(command.id)).toBe(1_764_288_000_000);
    expect(fundingSlotOfCommand('desk-test:4')).toBeUndefined();
  });
});
