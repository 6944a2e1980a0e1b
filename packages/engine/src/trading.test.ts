import {
  applyAll,
  applyOk,
  btcUsdt,
  CommandFactory,
  placedId,
  rejectionOf,
  statusesOf,
  tradesOf,
} from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import type { Command, PlaceOrder } from './commands.ts';
import { Engine } from './engine.ts';

// BTC-USDT with 2-1,000 lots an order and a price band of 55,000-65,000 USDT; 6,000,000 ticks = 60,000.00.
const P = 6_000_000;

/**
 * alice: a resting buy (order 1, post-only) and a stop buy (order 2), her open-order limit (2) reached,
 * the instrument's trigger limit (1) too; bob: a resting sell (order 3); carol: funds and no orders;
 * erin: nothing.
 */
function market(maxTriggerOrdersPerInstrument = 1) {
  const engine = new Engine({ maxOpenOrdersPerUser: 2, maxTriggerOrdersPerInstrument });
  const c = new CommandFactory('BTC-USDT');
  applyAll(engine, [
    c.register(btcUsdt({ minQtyLots: 2, maxQtyLots: 1_000 })),
    c.reference(P, [5_500_000, 6_500_000]),
    c.deposit('alice', 'USDT', '100'),
    c.deposit('bob', 'BTC', '1'),
    c.deposit('carol', 'USDT', '1000'),
  ]);
  const resting = placedId(applyOk(engine, c.limit('alice', 'buy', P - 100, 10, { postOnly: true })));
  const stop = placedId(
    applyOk(
      engine,
      c.limit('alice', 'buy', P + 200, 2, { trigger: { kind: 'stop', priceTicks: P + 100, by: 'mark' } }),
    ),
  );
  const ask = placedId(applyOk(engine, c.limit('bob', 'sell', P, 5)));
  return { engine, c, resting, stop, ask };
}

describe('refused orders, amends and cancels', () => {
  it('each answer their code and change nothing but the command window', () => {
    const { engine, c, resting, stop, ask } = market();
    const withoutWindow = () => {
      const { window: _window, ...body } = engine.snapshot();
      return JSON.stringify(body);
    };
    const before = withoutWindow();
    const buy = (changes: Partial<PlaceOrder> | Record<string, unknown>): Command =>
      ({ ...c.limit('carol', 'buy', P - 50, 3), ...changes }) as Command;
    const cases: [Command, string][] = [
      [buy({ userId: 'a/b' }), 'invalid_user'],
      [buy({ instrumentId: 'ETH-USDT' }), 'unknown_instrument'],
      [buy({ side: 'up' }), 'invalid_command'],
      [buy({ orderType: 'stop' }), 'invalid_command'],
      [buy({ timeInForce: 'day' }), 'invalid_command'],
      [buy({ postOnly: 'yes' }), 'invalid_command'],
      [buy({ stp: 'none' }), 'invalid_command'],
      [buy({ postOnly: true, timeInForce: 'ioc' }), 'invalid_command'],
      [{ ...c.market('carol', 'buy', 3), timeInForce: 'gtc' }, 'invalid_command'],
      [{ ...c.market('carol', 'buy', 3), priceTicks: P }, 'invalid_command'],
      [buy({ qtyLots: 0 }), 'invalid_quantity'],
      [buy({ qtyLots: 2.5 }), 'invalid_quantity'],
      [buy({ qtyLots: 1 }), 'quantity_below_minimum'],
      [buy({ qtyLots: 1_001 }), 'quantity_above_maximum'],
      [buy({ priceTicks: 0 }), 'invalid_price'],
      [buy({ priceTicks: 20_000_001 }), 'invalid_price'],
      [buy({ priceTicks: 6_600_000 }), 'price_outside_band'],
      [buy({ trigger: { kind: 'stop', priceTicks: 0, by: 'last' } }), 'invalid_trigger_price'],
      [buy({ trigger: { kind: 'later', priceTicks: P, by: 'last' } }), 'invalid_command'],
      [c.limit('alice', 'buy', P - 100, 2), 'open_order_limit'],
      [buy({ trigger: { kind: 'stop', priceTicks: P + 100, by: 'last' } }), 'open_order_limit'],
      [c.limit('erin', 'buy', P - 100, 2), 'insufficient_balance'],
      [buy({ qtyLots: 1_000, priceTicks: 6_400_000 }), 'insufficient_balance'],
      [buy({ priceTicks: P, postOnly: true }), 'post_only_would_take'],
      [buy({ priceTicks: P, qtyLots: 6, timeInForce: 'fok' }), 'fok_not_fillable'],
      [c.amend('carol', resting, { qtyLots: 5 }), 'order_not_found'],
      [c.amend('alice', 999, { qtyLots: 5 }), 'order_not_found'],
      [c.amend('alice', stop, { qtyLots: 3 }), 'order_not_amendable'],
      [c.amend('alice', resting, { priceTicks: 0 }), 'invalid_price'],
      [c.amend('alice', resting, { qtyLots: 0 }), 'invalid_quantity'],
      [c.amend('alice', resting, { qtyLots: 4.5 }), 'invalid_quantity'],
      [c.amend('alice', resting, { qtyLots: 10 }), 'amend_no_change'],
      [c.amend('alice', resting, { qtyLots: 1 }), 'quantity_below_minimum'],
      [c.amend('alice', resting, { qtyLots: 1_001 }), 'quantity_above_maximum'],
      [c.amend('alice', resting, { priceTicks: 5_400_000 }), 'price_outside_band'],
      [c.amend('alice', resting, { priceTicks: P }), 'post_only_would_take'],
      [c.amend('alice', resting, { qtyLots: 1_000 }), 'insufficient_balance'],
      [c.cancel('alice', ask), 'order_not_found'],
      [c.cancel('bob', 999), 'order_not_found'],
    ];
    for (const [command, code] of cases) {
      expect(rejectionOf(engine, command), JSON.stringify(command)).toBe(code);
      expect(withoutWindow(), JSON.stringify(command)).toBe(before);
    }
    expect(engine.findBrokenInvariant()).toBeUndefined();
    // The book still works for the same users afterwards.
    applyOk(engine, c.cancel('alice', resting));
    applyOk(engine, c.limit('carol', 'buy', P, 2));
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });
});

describe('a fill-or-kill order waiting for its trigger', () => {
  it('is cancelled whole when it fires and the book cannot fill it, and its hold is released', () => {
    const { engine, c, ask } = market(10);
    const fok = c.limit('carol', 'buy', P, 6, {
      timeInForce: 'fok',
      trigger: { kind: 'stop', priceTicks: P + 300, by: 'mark' },
    });
    const id = placedId(applyOk(engine, fok));
    expect(engine.balance('carol', 'spot', 'USDT').held).toBeGreaterThan(0n);
    // alice's stop (by mark at P + 100) fires too and buys 2 of bob's 5; carol's needs 6 of the 3 left.
    const events = applyOk(engine, c.mark(P + 300));
    expect(statusesOf(events)).toContainEqual([id, 'cancelled', 'fok_not_fillable']);
    expect(tradesOf(events).every(([, , , taker]) => taker !== id)).toBe(true);
    expect(engine.balance('carol', 'spot', 'USDT')).toMatchObject({ balance: 1_000_000_000n, held: 0n });
    // Only alice's stop traded with bob: 2 of his 5.
    expect(engine.order(ask)).toMatchObject({ qtyLots: 5, filledLots: 2 });
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('fills whole when it fires and the book can', () => {
    const { engine, c, ask } = market(10);
    const id = placedId(
      applyOk(
        engine,
        c.limit('carol', 'buy', P, 3, {
          timeInForce: 'fok',
          trigger: { kind: 'stop', priceTicks: P + 50, by: 'mark' },
        }),
      ),
    );
    const events = applyOk(engine, c.mark(P + 50));
    expect(tradesOf(events)).toEqual([[P, 3, ask, id]]);
    expect(statusesOf(events)).toContainEqual([id, 'filled', 'fill']);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });
});
