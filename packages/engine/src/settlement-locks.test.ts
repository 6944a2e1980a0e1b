import {
  applyAll,
  applyOk,
  balanceSheet,
  CommandFactory,
  placedId,
  rejectionOf,
  reliance,
  tradesOf,
} from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import type { Command } from './commands.ts';
import { Engine } from './engine.ts';
import type { EngineEvent, Trade } from './events.ts';
import type { SettleTrades } from './settlement-locks.ts';

// NSE:RELIANCE: tick 0.05 INR, 1 share per lot; 59,000 ticks = 2,950.00 INR.
const PRICE = 59_000;

function t1Market(): { engine: Engine; c: CommandFactory; settle: (upToTradeId: number) => SettleTrades } {
  const engine = new Engine();
  const c = new CommandFactory('NSE:RELIANCE');
  let n = 0;
  const settle = (upToTradeId: number): SettleTrades => ({
    id: `settle-${++n}`,
    timeMs: 90_000 + n,
    type: 'settle_trades',
    instrumentId: 'NSE:RELIANCE',
    upToTradeId,
  });
  applyAll(engine, [
    c.register(reliance({ lockBoughtUntilSettled: true })),
    c.deposit('asha', 'INR', '100000', 'stock'),
    c.deposit('mm', 'INR', '100000', 'stock'),
    { ...c.deposit('ravi', 'SHARE:NSE:RELIANCE', '50', 'stock'), from: 'issuer:NSE', cause: 'allotment' },
    { ...c.deposit('mm', 'SHARE:NSE:RELIANCE', '50', 'stock'), from: 'issuer:NSE', cause: 'allotment' },
  ]);
  return { engine, c, settle };
}

function tradeIds(events: EngineEvent[]): number[] {
  return events.filter((e): e is Trade => e.type === 'trade').map((t) => t.tradeId);
}

function shares(engine: Engine, user: string) {
  return engine.balance(user, 'stock', 'SHARE:NSE:RELIANCE');
}

describe('settlement locks (T+1)', () => {
  it('given asha buys 10 shares, they are locked until settle_trades, then she can sell them', () => {
    const { engine, c, settle } = t1Market();
    applyOk(engine, c.limit('ravi', 'sell', PRICE, 10));
    const events = applyOk(engine, c.limit('asha', 'buy', PRICE, 10));
    const [tradeId] = tradeIds(events);
    expect(events.map((e) => e.type)).toEqual([
      'order_placed',
      'trade',
      'transfer_posted',
      'transfer_posted',
      'hold_placed',
      'order_updated',
      'order_updated',
    ]);
    expect(events.find((e) => e.type === 'hold_placed')).toEqual({
      type: 'hold_placed',
      holdId: `settle:NSE:RELIANCE:${tradeId}`,
      account: 'asha/stock/SHARE:NSE:RELIANCE',
      amount: 10n,
      timeMs: events[0]?.timeMs,
    });
    expect(shares(engine, 'asha')).toEqual({ balance: 10n, held: 10n, available: 0n });
    expect(engine.settlementLocks('asha', 'NSE:RELIANCE')).toEqual([
      { tradeId, qtyLots: 10, timeMs: events[0]?.timeMs },
    ]);
    expect(engine.settlementLocks('ravi', 'NSE:RELIANCE')).toEqual([]);

    expect(rejectionOf(engine, c.limit('asha', 'sell', PRICE, 1))).toBe('insufficient_balance');
    expect(rejectionOf(engine, c.walletTransfer('asha', 'SHARE:NSE:RELIANCE', 'stock', 'spot', '1'))).toBe(
      'insufficient_balance',
    );

    const released = applyOk(engine, settle(tradeId as number));
    expect(released).toEqual([
      {
        type: 'hold_released',
        holdId: `settle:NSE:RELIANCE:${tradeId}`,
        account: 'asha/stock/SHARE:NSE:RELIANCE',
        amount: 10n,
        timeMs: 90_001,
      },
    ]);
    expect(shares(engine, 'asha')).toEqual({ balance: 10n, held: 0n, available: 10n });
    expect(engine.settlementLocks('asha', 'NSE:RELIANCE')).toEqual([]);
    expect(rejectionOf(engine, c.limit('asha', 'sell', PRICE, 10))).toBeUndefined();
    expect(applyOk(engine, settle(tradeId as number))).toEqual([]);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('settles only the trades up to upToTradeId, oldest first, and every buyer including a resting market maker', () => {
    const { engine, c, settle } = t1Market();
    // mm rests a bid and is the maker buyer; asha takes from ravi twice.
    applyOk(engine, c.limit('mm', 'buy', PRICE - 20, 5));
    const first = tradeIds(applyOk(engine, c.limit('ravi', 'sell', PRICE - 20, 5)));
    applyOk(engine, c.limit('ravi', 'sell', PRICE, 7));
    const second = tradeIds(applyOk(engine, c.limit('asha', 'buy', PRICE, 3)));
    const third = tradeIds(applyOk(engine, c.limit('asha', 'buy', PRICE, 4)));
    const [t1, t2, t3] = [...first, ...second, ...third] as [number, number, number];
    expect(t1 < t2 && t2 < t3).toBe(true);
    expect(shares(engine, 'mm')).toEqual({ balance: 55n, held: 5n, available: 50n });
    expect(engine.settlementLocks('asha', 'NSE:RELIANCE').map((l) => [l.tradeId, l.qtyLots])).toEqual([
      [t2, 3],
      [t3, 4],
    ]);

    const partial = applyOk(engine, settle(t2));
    expect(partial.map((e) => (e.type === 'hold_released' ? [e.holdId, e.amount] : e.type))).toEqual([
      [`settle:NSE:RELIANCE:${t1}`, 5n],
      [`settle:NSE:RELIANCE:${t2}`, 3n],
    ]);
    expect(shares(engine, 'mm').held).toBe(0n);
    expect(shares(engine, 'asha')).toEqual({ balance: 7n, held: 4n, available: 3n });
    expect(engine.settlementLocks('asha', 'NSE:RELIANCE').map((l) => l.tradeId)).toEqual([t3]);
    expect(applyOk(engine, settle(t3 + 100)).length).toBe(1);
    expect(shares(engine, 'asha').held).toBe(0n);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('lets asha sell her settled shares while newer ones stay locked', () => {
    const { engine, c, settle } = t1Market();
    applyOk(engine, c.limit('ravi', 'sell', PRICE, 10));
    const [older] = tradeIds(applyOk(engine, c.limit('asha', 'buy', PRICE, 6)));
    applyOk(engine, settle(older as number));
    const [newer] = tradeIds(applyOk(engine, c.limit('asha', 'buy', PRICE, 4)));
    expect(shares(engine, 'asha')).toEqual({ balance: 10n, held: 4n, available: 6n });
    expect(rejectionOf(engine, c.limit('asha', 'sell', PRICE + 10, 7))).toBe('insufficient_balance');
    const sell = placedId(applyOk(engine, c.limit('asha', 'sell', PRICE + 10, 6)));
    expect(shares(engine, 'asha')).toEqual({ balance: 10n, held: 10n, available: 0n });
    const fill = applyOk(engine, c.limit('mm', 'buy', PRICE + 10, 6));
    expect(tradesOf(fill)).toEqual([[PRICE + 10, 6, sell, placedId(fill)]]);
    expect(shares(engine, 'asha')).toEqual({ balance: 4n, held: 4n, available: 0n });
    expect(engine.settlementLocks('asha', 'NSE:RELIANCE').map((l) => [l.tradeId, l.qtyLots])).toEqual([[newer, 4]]);
    expect(engine.settlementLocks('mm', 'NSE:RELIANCE').map((l) => l.qtyLots)).toEqual([6]);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('keeps the locks through snapshot, restore and replay, with the same state hash', () => {
    const { engine, c, settle } = t1Market();
    const commands: Command[] = [
      c.limit('ravi', 'sell', PRICE, 20),
      c.limit('asha', 'buy', PRICE, 6),
      c.limit('mm', 'buy', PRICE, 5),
      settle(2),
      c.limit('asha', 'buy', PRICE, 4),
    ];
    applyAll(engine, commands.slice(0, 3));
    const snapshot = JSON.parse(JSON.stringify(engine.snapshot()));
    expect(snapshot.settlementLocks).toEqual([
      ['NSE:RELIANCE', 1, 'asha', 6, expect.any(Number)],
      ['NSE:RELIANCE', 2, 'mm', 5, expect.any(Number)],
    ]);
    const restored = Engine.restore(snapshot);
    expect(restored.stateHash()).toBe(engine.stateHash());
    expect(restored.settlementLocks('asha', 'NSE:RELIANCE')).toEqual(engine.settlementLocks('asha', 'NSE:RELIANCE'));
    expect(restored.findBrokenInvariant()).toBeUndefined();
    applyAll(engine, commands.slice(3));
    applyAll(restored, commands.slice(3));
    expect(restored.stateHash()).toBe(engine.stateHash());
    expect(balanceSheet(restored)).toEqual(balanceSheet(engine));
    expect(restored.settlementLocks('asha', 'NSE:RELIANCE').map((l) => l.tradeId)).toEqual([3]);
    expect(restored.findBrokenInvariant()).toBeUndefined();
  });

  it('leaves instruments without the flag (and their snapshots) exactly as before', () => {
    const engine = new Engine();
    const c = new CommandFactory('NSE:RELIANCE');
    applyAll(engine, [
      c.register(reliance()),
      c.deposit('asha', 'INR', '100000', 'stock'),
      { ...c.deposit('ravi', 'SHARE:NSE:RELIANCE', '5', 'stock'), from: 'issuer:NSE', cause: 'allotment' },
      c.limit('ravi', 'sell', PRICE, 5),
    ]);
    const events = applyOk(engine, c.limit('asha', 'buy', PRICE, 5));
    expect(events.some((e) => e.type === 'hold_placed')).toBe(false);
    expect(shares(engine, 'asha')).toEqual({ balance: 5n, held: 0n, available: 5n });
    const snapshot = engine.snapshot();
    expect('settlementLocks' in snapshot).toBe(false);
    expect('lockBoughtUntilSettled' in (snapshot.instruments[0]?.spec ?? {})).toBe(false);
    expect(
      applyOk(engine, { id: 's1', timeMs: 1, type: 'settle_trades', instrumentId: 'NSE:RELIANCE', upToTradeId: 9 }),
    ).toEqual([]);
  });

  it('refuses settle_trades for an unknown instrument or a non-integer trade id, and a non-boolean flag', () => {
    const { engine, c } = t1Market();
    const base = { timeMs: 1, type: 'settle_trades' as const };
    expect(rejectionOf(engine, { ...base, id: 'x1', instrumentId: 'NSE:NOPE', upToTradeId: 1 })).toBe(
      'unknown_instrument',
    );
    expect(rejectionOf(engine, { ...base, id: 'x2', instrumentId: 'NSE:RELIANCE', upToTradeId: 1.5 })).toBe(
      'invalid_command',
    );
    const bad = { ...reliance({ id: 'NSE:TCS' }), lockBoughtUntilSettled: 'yes' } as unknown as ReturnType<
      typeof reliance
    >;
    expect(rejectionOf(engine, c.register(bad))).toBe('invalid_instrument');
  });
});
