import { applyAll, applyOk, btcUsdt, CommandFactory, placedId } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import type { Command } from './commands.ts';
import { decodeCommand, encodeCommand } from './commands.ts';
import { Engine } from './engine.ts';

function script(): Command[] {
  const c = new CommandFactory('BTC-USDT');
  return [
    c.register(btcUsdt()),
    c.deposit('alice', 'USDT', '5000'),
    c.deposit('bob', 'BTC', '2'),
    c.reference(10_000, [5_000, 20_000]),
    c.limit('bob', 'sell', 10_100, 50),
    c.limit('bob', 'sell', 10_200, 50),
    c.limit('alice', 'buy', 9_900, 40),
    c.market('alice', 'buy', 10, { kind: 'stop', priceTicks: 10_150, by: 'last' }),
    c.limit('alice', 'buy', 10_100, 20),
    {
      id: 'h1',
      timeMs: 2_000,
      type: 'hold_funds',
      userId: 'alice',
      wallet: 'spot',
      asset: 'USDT',
      amount: '1',
      cause: 'withdrawal',
    },
    c.limit('alice', 'buy', 10_200, 45),
    c.mark(10_300),
    c.limit('bob', 'sell', 9_950, 5, { timeInForce: 'ioc' }),
  ];
}

describe('snapshot and restore', () => {
  it('gives the same state hash as a straight run when restored halfway through JSON and replayed', () => {
    const commands = script();
    const straight = new Engine();
    applyAll(straight, commands);
    for (let cut = 0; cut <= commands.length; cut++) {
      const first = new Engine();
      applyAll(first, commands.slice(0, cut));
      const restored = Engine.restore(JSON.parse(JSON.stringify(first.snapshot())));
      expect(restored.stateHash()).toBe(first.stateHash());
      applyAll(restored, commands.slice(cut));
      expect(restored.stateHash(), `cut at ${cut}`).toBe(straight.stateHash());
      expect(restored.findBrokenInvariant()).toBeUndefined();
    }
  });

  it('replays a journal of encoded commands from empty to the same hash', () => {
    const straight = new Engine();
    applyAll(straight, script());
    const journal = script().map(encodeCommand);
    const replayed = new Engine();
    for (const line of journal) replayed.apply(decodeCommand(line));
    expect(replayed.stateHash()).toBe(straight.stateHash());
  });

  it('keeps idempotency across a restore: a repeated command answers its first result', () => {
    const engine = new Engine();
    const c = new CommandFactory('BTC-USDT');
    applyOk(engine, c.register(btcUsdt()));
    const deposit = c.deposit('alice', 'USDT', '100');
    applyOk(engine, deposit);
    const order = c.limit('alice', 'buy', 10_000, 1);
    const id = placedId(applyOk(engine, order));
    const restored = Engine.restore(JSON.parse(JSON.stringify(engine.snapshot())));
    const again = restored.apply(order);
    expect(again.ok && placedId(again.events)).toBe(id);
    expect(restored.openOrders('alice')).toHaveLength(1);
    expect(restored.apply({ ...deposit, amount: '1' })).toEqual({ ok: false, code: 'command_id_reused' });
  });
});
