// Halted trading (the exchange's session is closed): orders queue with their funds held and enter the
// book in arrival order at the open; post-only quotes rest at once; nothing trades while halted.
import { applyAll, applyOk, CommandFactory, placedId, rejectionOf, reliance, tradesOf } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { Engine } from './engine.ts';

// NSE:RELIANCE: tick 0.05 INR, 1 share per lot; 59,000 ticks = 2,950.00 INR.
const PRICE = 59_000;

function closedMarket() {
  const engine = new Engine();
  const c = new CommandFactory('NSE:RELIANCE');
  applyAll(engine, [
    c.register(reliance()),
    c.reference(PRICE, [PRICE - 5_000, PRICE + 5_000]),
    c.deposit('asha', 'INR', '100000', 'stock'),
    c.deposit('ravi', 'INR', '100000', 'stock'),
    { ...c.deposit('mm', 'SHARE:NSE:RELIANCE', '100', 'stock'), from: 'issuer:NSE', cause: 'allotment' },
    { ...c.deposit('ravi', 'SHARE:NSE:RELIANCE', '100', 'stock'), from: 'issuer:NSE', cause: 'allotment' },
    c.halt(),
  ]);
  return { engine, c };
}

const inr = (engine: Engine, user: string) => engine.balance(user, 'stock', 'INR');

describe('trading status (halted session, after-market orders)', () => {
  it('queues crossing orders with funds held, trades nothing, then fills them in arrival order at the open', () => {
    const { engine, c } = closedMarket();
    const sell = applyOk(engine, c.limit('ravi', 'sell', PRICE, 10));
    const buy = applyOk(engine, c.limit('asha', 'buy', PRICE, 10));
    expect(tradesOf(buy)).toEqual([]);
    expect(buy[0]).toMatchObject({ type: 'order_placed', queued: true });
    expect(engine.depth('NSE:RELIANCE', 5)).toEqual({ bids: [], asks: [] });
    // 10 × 2,950.00 INR (plus the taker fee) is held while it waits.
    expect(inr(engine, 'asha').held).toBe(engine.order(placedId(buy))!.holdAmount);
    expect(inr(engine, 'asha').held >= 2_950_000n).toBe(true);
    expect(engine.order(placedId(buy))).toMatchObject({ queued: true, waitingForTrigger: false, status: 'pending' });
    expect(engine.findBrokenInvariant()).toBeUndefined();

    const open = applyOk(engine, c.halt(false));
    const trades = tradesOf(open);
    expect(trades).toHaveLength(1);
    // The sell arrived first, so it rests first and the buy takes it: the buyer is the taker.
    expect(trades[0]).toEqual([PRICE, 10, placedId(sell), placedId(buy)]);
    expect(engine.order(placedId(buy))).toBeUndefined();
    expect(inr(engine, 'asha').held).toBe(0n);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('rests post-only quotes at once while halted, and a queued market order takes them at the open', () => {
    const { engine, c } = closedMarket();
    const quote = applyOk(engine, c.limit('mm', 'sell', PRICE + 20, 50, { postOnly: true }));
    expect(engine.depth('NSE:RELIANCE', 5).asks).toEqual([[PRICE + 20, 50]]);
    const market = applyOk(engine, c.market('asha', 'buy', 5));
    expect(tradesOf(market)).toEqual([]);
    const open = applyOk(engine, c.halt(false));
    expect(tradesOf(open)).toEqual([[PRICE + 20, 5, placedId(quote), placedId(market)]]);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('cancels a queued order and releases its funds; refuses fill-or-kill and amend while queued', () => {
    const { engine, c } = closedMarket();
    const buy = applyOk(engine, c.limit('asha', 'buy', PRICE, 10));
    expect(rejectionOf(engine, c.amend('asha', placedId(buy), { qtyLots: 5 }))).toBe('order_not_amendable');
    expect(rejectionOf(engine, c.limit('asha', 'buy', PRICE, 1, { timeInForce: 'fok' }))).toBe('instrument_halted');
    applyOk(engine, c.cancel('asha', placedId(buy)));
    expect(inr(engine, 'asha')).toEqual({ balance: 10_000_000n, held: 0n, available: 10_000_000n });
    const open = applyOk(engine, c.halt(false));
    expect(tradesOf(open)).toEqual([]);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('refuses an amend that would make a resting order trade while halted; other amends still work', () => {
    const engine = new Engine();
    const c = new CommandFactory('NSE:RELIANCE');
    applyAll(engine, [
      c.register(reliance()),
      c.deposit('asha', 'INR', '100000', 'stock'),
      { ...c.deposit('ravi', 'SHARE:NSE:RELIANCE', '100', 'stock'), from: 'issuer:NSE', cause: 'allotment' },
    ]);
    const sell = applyOk(engine, c.limit('ravi', 'sell', PRICE + 10, 5));
    const buy = applyOk(engine, c.limit('asha', 'buy', PRICE, 5));
    applyOk(engine, c.halt());
    // Found by the seeded simulation: repricing the bid to the ask traded while the session was closed.
    expect(rejectionOf(engine, c.amend('asha', placedId(buy), { priceTicks: PRICE + 10 }))).toBe('instrument_halted');
    expect(tradesOf(applyOk(engine, c.amend('asha', placedId(buy), { priceTicks: PRICE + 9, qtyLots: 6 })))).toEqual(
      [],
    );
    expect(engine.depth('NSE:RELIANCE', 5)).toEqual({ bids: [[PRICE + 9, 6]], asks: [[PRICE + 10, 5]] });
    applyOk(engine, c.halt(false));
    expect(tradesOf(applyOk(engine, c.amend('asha', placedId(buy), { priceTicks: PRICE + 10 })))).toEqual([
      [PRICE + 10, 5, placedId(sell), placedId(buy)],
    ]);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('answers a retried queued order with its first result, queued flag included', () => {
    const { engine, c } = closedMarket();
    const command = c.limit('asha', 'buy', PRICE, 10);
    const first = engine.apply(command);
    expect(first.ok && first.events[0]).toMatchObject({ type: 'order_placed', queued: true });
    const again = engine.apply({ ...command, timeMs: command.timeMs + 500 });
    // A fresh result keeps its events in the engine's log until read: compare the events.
    expect(again.ok && again.events).toEqual(first.ok && first.events);
  });

  it('at the open rejects a queued limit outside the new band and cancels a market order with no liquidity', () => {
    const { engine, c } = closedMarket();
    const limit = applyOk(engine, c.limit('asha', 'buy', PRICE + 4_000, 1));
    const market = applyOk(engine, c.market('ravi', 'sell', 3));
    applyOk(engine, c.reference(PRICE - 4_000, [PRICE - 6_000, PRICE - 2_000]));
    const open = applyOk(engine, c.halt(false));
    const updates = open.filter((e) => e.type === 'order_updated');
    expect(updates).toEqual([
      expect.objectContaining({ orderId: placedId(limit), status: 'rejected', reason: 'price_outside_band' }),
      expect.objectContaining({ orderId: placedId(market), status: 'cancelled', reason: 'no_liquidity' }),
    ]);
    expect(inr(engine, 'asha').held).toBe(0n);
    expect(engine.balance('ravi', 'stock', 'SHARE:NSE:RELIANCE').held).toBe(0n);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('survives a snapshot while orders are queued (same hash, same outcome at the open)', () => {
    const { engine, c } = closedMarket();
    applyOk(engine, c.limit('ravi', 'sell', PRICE, 10));
    applyOk(engine, c.limit('asha', 'buy', PRICE, 4));
    const copy = Engine.restore(structuredClone(engine.snapshot()));
    expect(copy.stateHash()).toBe(engine.stateHash());
    const open = c.halt(false);
    expect(tradesOf(applyOk(copy, open))).toEqual(tradesOf(applyOk(engine, open)));
    expect(copy.stateHash()).toBe(engine.stateHash());
  });

  it('marks an order placed while halted as after-market, also after it enters the book; a snapshot keeps it', () => {
    const { engine, c } = closedMarket();
    const queued = placedId(applyOk(engine, c.limit('asha', 'buy', PRICE - 100, 2)));
    const quote = placedId(applyOk(engine, c.limit('mm', 'sell', PRICE + 20, 5, { postOnly: true })));
    expect(engine.order(queued)).toMatchObject({ queued: true, afterMarket: true });
    // A post-only quote rests at once: it never waits for the open, so it is not an after-market order.
    expect(engine.order(quote)).toMatchObject({ queued: false, afterMarket: false });
    applyOk(engine, c.halt(false));
    const open = placedId(applyOk(engine, c.limit('asha', 'buy', PRICE - 200, 1)));
    expect(engine.order(queued)).toMatchObject({ status: 'pending', queued: false, afterMarket: true });
    expect(engine.order(open)).toMatchObject({ queued: false, afterMarket: false });
    const restored = Engine.restore(JSON.parse(JSON.stringify(engine.snapshot())));
    expect(restored.stateHash()).toBe(engine.stateHash());
    expect([queued, quote, open].map((id) => restored.order(id)?.afterMarket)).toEqual([true, false, false]);
  });
});
