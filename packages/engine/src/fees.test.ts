// Fees of a listed instrument can change (set_instrument_fees): an order pays the fees in force when it
// was placed (what the customer was shown), and its hold keeps covering them; new orders pay new fees.
import { applyAll, applyOk, btcUsdt, CommandFactory, placedId, rejectionOf, tradesOf } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import type { Command } from './commands.ts';
import { Engine } from './engine.ts';
import type { EngineEvent, Trade } from './events.ts';
import { buyHoldFor, feeOf, tradeNotional } from './instrument.ts';

// BTC-USDT (maker 2 bps, taker 5 bps): 3,000,000 ticks = 30,000 USDT per BTC; 10 lots = 0.001 BTC.
const PRICE = 3_000_000;
const LOTS = 10;

function market() {
  const engine = new Engine();
  const c = new CommandFactory('BTC-USDT');
  applyAll(engine, [
    c.register(btcUsdt()),
    c.deposit('alice', 'USDT', '1000'),
    c.deposit('bob', 'BTC', '1'),
    c.deposit('bob', 'USDT', '1000'),
  ]);
  return { engine, c };
}

function tradeIn(events: EngineEvent[]): Trade {
  const trades = events.filter((e): e is Trade => e.type === 'trade');
  expect(trades).toHaveLength(1);
  return trades[0] as Trade;
}

const usdt = (engine: Engine, user: string) => engine.balance(user, 'spot', 'USDT');
const fees = (engine: Engine) => engine.balance('platform:fees', 'platform', 'USDT').balance;

describe('set_instrument_fees', () => {
  it('changes the fees for new orders, and a resting maker placed at 2/5 bps keeps paying 2', () => {
    const { engine, c } = market();
    const sell = applyOk(engine, c.limit('bob', 'sell', PRICE, LOTS));
    const set = applyOk(engine, c.fees(10, 20));
    expect(set).toEqual([
      { type: 'instrument_fees_set', instrumentId: 'BTC-USDT', makerFeeBps: 10, takerFeeBps: 20, timeMs: 1_006 },
    ]);
    expect(engine.instrument('BTC-USDT')?.spec).toMatchObject({ makerFeeBps: 10, takerFeeBps: 20 });
    expect(engine.instrument('BTC-USDT')?.maxFeeBps).toBe(20);

    const buy = applyOk(engine, c.limit('alice', 'buy', PRICE, LOTS));
    const trade = tradeIn(buy);
    expect(tradesOf(buy)).toEqual([[PRICE, LOTS, placedId(sell), placedId(buy)]]);
    const def = engine.instrument('BTC-USDT')!;
    const notional = tradeNotional(def, PRICE, LOTS);
    expect(trade.notional).toBe(30_000_000n);
    // The maker captured 2 bps when it was placed; the new taker pays the new 20 bps.
    expect(trade.makerFee).toBe(feeOf(notional, 2));
    expect(trade.takerFee).toBe(feeOf(notional, 20));
    expect(fees(engine)).toBe(feeOf(notional, 2) + feeOf(notional, 20));
    expect(usdt(engine, 'alice')).toEqual({
      balance: 1_000_000_000n - notional - feeOf(notional, 20),
      held: 0n,
      available: 1_000_000_000n - notional - feeOf(notional, 20),
    });
    expect(usdt(engine, 'bob').balance).toBe(1_000_000_000n + notional - feeOf(notional, 2));
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('keeps a buy hold placed before a raise enough for its fill, as maker, as taker and after an amend', () => {
    const { engine, c } = market();
    const def = engine.instrument('BTC-USDT')!;
    const notional = tradeNotional(def, PRICE, LOTS);
    // A resting buy (holds notional + 5 bps) and a stop buy that will take (also 5 bps).
    const resting = applyOk(engine, c.limit('alice', 'buy', PRICE, LOTS));
    const stop = applyOk(engine, c.limit('alice', 'buy', PRICE + 100, LOTS, { trigger: stopAt(PRICE) }));
    expect(engine.order(placedId(resting))?.holdAmount).toBe(notional + feeOf(notional, 5));
    applyOk(engine, c.fees(500, 1_000));
    // An amend keeps the fees captured at placement: its new hold is still for 5 bps.
    applyOk(engine, c.amend('alice', placedId(resting), { qtyLots: 2 * LOTS }));
    const doubled = tradeNotional(def, PRICE, 2 * LOTS);
    expect(engine.order(placedId(resting))?.holdAmount).toBe(doubled + feeOf(doubled, 5));
    applyOk(engine, c.amend('alice', placedId(resting), { qtyLots: LOTS }));
    expect(engine.order(placedId(resting))?.holdAmount).toBe(notional + feeOf(notional, 5));

    // Bob sells into the resting buy: alice is the maker and pays her 2 bps, bob the new 1,000.
    const first = tradeIn(applyOk(engine, c.limit('bob', 'sell', PRICE, LOTS)));
    expect([first.makerFee, first.takerFee]).toEqual([feeOf(notional, 2), feeOf(notional, 1_000)]);
    // That trade at PRICE fired the stop: it found nothing to take and rests at PRICE + 100.
    expect(engine.order(placedId(stop))).toMatchObject({ waitingForTrigger: false, status: 'pending' });
    const stopNotional = tradeNotional(def, PRICE + 100, LOTS);
    expect(engine.order(placedId(stop))?.holdAmount).toBe(stopNotional + feeOf(stopNotional, 5));

    // A new sell hits the resting stop order: alice is the maker again, at the 2 bps she was shown.
    const hit = applyOk(engine, c.limit('bob', 'sell', PRICE + 100, LOTS));
    const second = tradeIn(hit);
    expect([second.makerFee, second.takerFee]).toEqual([feeOf(stopNotional, 2), feeOf(stopNotional, 1_000)]);
    expect(usdt(engine, 'alice')).toEqual({
      balance: 1_000_000_000n - notional - feeOf(notional, 2) - stopNotional - feeOf(stopNotional, 2),
      held: 0n,
      available: 1_000_000_000n - notional - feeOf(notional, 2) - stopNotional - feeOf(stopNotional, 2),
    });
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('lets a taker placed before a raise pay its own (lower) taker fee out of its hold', () => {
    const { engine, c } = market();
    const def = engine.instrument('BTC-USDT')!;
    const notional = tradeNotional(def, PRICE, LOTS);
    // A stop buy placed at 2/5 bps; the raise comes before it fires and takes an ask as the taker.
    const stop = applyOk(engine, c.limit('alice', 'buy', PRICE, LOTS, { trigger: stopAt(PRICE) }));
    expect(engine.order(placedId(stop))?.holdAmount).toBe(buyHoldFor(def, PRICE, LOTS));
    applyOk(engine, c.fees(300, 900));
    const ask = applyOk(engine, c.limit('bob', 'sell', PRICE, LOTS + 1));
    // Carol buys 1 lot of the ask: the last price reaches PRICE and fires alice's stop, which takes the rest.
    applyOk(engine, c.deposit('carol', 'USDT', '100'));
    const fire = applyOk(engine, c.limit('carol', 'buy', PRICE, 1));
    const trades = fire.filter((e): e is Trade => e.type === 'trade');
    const stopTrade = trades.find((t) => t.takerOrderId === placedId(stop))!;
    expect(stopTrade.makerOrderId).toBe(placedId(ask));
    expect([stopTrade.makerFee, stopTrade.takerFee]).toEqual([feeOf(notional, 300), feeOf(notional, 5)]);
    expect(usdt(engine, 'alice')).toMatchObject({ balance: 1_000_000_000n - notional - feeOf(notional, 5), held: 0n });
    // A buy placed now holds for the new larger fee.
    const fresh = applyOk(engine, c.limit('alice', 'buy', PRICE - 10_000, LOTS));
    const freshNotional = tradeNotional(def, PRICE - 10_000, LOTS);
    expect(engine.order(placedId(fresh))?.holdAmount).toBe(freshNotional + feeOf(freshNotional, 900));
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('refuses unknown instruments and fees out of range, and answers a repeat with its first result', () => {
    const { engine, c } = market();
    expect(rejectionOf(engine, { ...c.fees(1, 1), instrumentId: 'NOPE' })).toBe('unknown_instrument');
    for (const [maker, taker] of [
      [-1, 5],
      [2, 1_001],
      [2.5, 5],
      [2, Number.NaN],
    ] as const) {
      expect(rejectionOf(engine, c.fees(maker, taker)), `${maker}/${taker}`).toBe('invalid_instrument');
    }
    expect(rejectionOf(engine, { ...c.fees(1, 1), makerFeeBps: '1' as unknown as number })).toBe('invalid_instrument');
    expect(engine.instrument('BTC-USDT')?.spec).toMatchObject({ makerFeeBps: 2, takerFeeBps: 5 });
    const command = c.fees(0, 1_000);
    const first = engine.apply(command);
    expect(engine.apply(command)).toEqual(first);
    expect(engine.instrument('BTC-USDT')?.spec).toMatchObject({ makerFeeBps: 0, takerFeeBps: 1_000 });
  });

  it('snapshots only the fees that differ from the spec, and round-trips to the same hash', () => {
    const c = new CommandFactory('BTC-USDT');
    const commands: Command[] = [
      c.register(btcUsdt()),
      c.deposit('alice', 'USDT', '1000'),
      c.deposit('bob', 'BTC', '1'),
      c.limit('bob', 'sell', PRICE + 500, LOTS),
      c.limit('alice', 'buy', PRICE - 500, LOTS),
      c.limit('alice', 'buy', PRICE - 400, LOTS, { trigger: stopAt(PRICE + 1_000) }),
      c.fees(10, 20),
      c.limit('bob', 'sell', PRICE + 600, LOTS),
      c.fees(10, 5),
      c.limit('alice', 'buy', PRICE + 500, LOTS / 2),
      c.limit('bob', 'sell', PRICE - 500, LOTS / 2),
      c.fees(2, 5),
      c.limit('alice', 'buy', PRICE + 600, LOTS),
    ];
    const straight = new Engine();
    applyAll(straight, commands);
    for (let cut = 0; cut <= commands.length; cut++) {
      const first = new Engine();
      applyAll(first, commands.slice(0, cut));
      const json = JSON.stringify(first.snapshot());
      const restored = Engine.restore(JSON.parse(json));
      expect(JSON.stringify(restored.snapshot()), `cut at ${cut}`).toBe(json);
      expect(restored.stateHash()).toBe(first.stateHash());
      applyAll(restored, commands.slice(cut));
      expect(restored.stateHash(), `cut at ${cut}`).toBe(straight.stateHash());
      expect(restored.findBrokenInvariant()).toBeUndefined();
    }

    // Before any change no order carries fees; after 10/20 the orders placed at 2/5 carry both.
    const before = new Engine();
    applyAll(before, commands.slice(0, 6));
    expect(before.snapshot().orders.every((o) => !('makerFeeBps' in o) && !('takerFeeBps' in o))).toBe(true);
    const after = new Engine();
    applyAll(after, commands.slice(0, 8));
    const orders = after.snapshot().orders.map((o) => [o.id, o.makerFeeBps, o.takerFeeBps]);
    expect(orders).toEqual([
      [2, 2, 5],
      [1, 2, 5],
      [4, undefined, undefined],
      [3, 2, 5],
    ]);
    // At 10/5 only the maker fee differs for orders placed at 2/5, and for the one placed at 10/20 only
    // the taker fee.
    const partly = new Engine();
    applyAll(partly, commands.slice(0, 9));
    const byId = new Map(partly.snapshot().orders.map((o) => [o.id, o]));
    expect(byId.get(1)).toMatchObject({ makerFeeBps: 2 });
    expect('takerFeeBps' in (byId.get(1) as object)).toBe(false);
    expect(byId.get(4)).toMatchObject({ takerFeeBps: 20 });
    expect('makerFeeBps' in (byId.get(4) as object)).toBe(false);
  });
});

function stopAt(priceTicks: number) {
  return { kind: 'stop' as const, priceTicks, by: 'last' as const };
}
