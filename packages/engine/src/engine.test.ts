import {
  applyAll,
  applyOk,
  balanceSheet,
  btcUsdt,
  CommandFactory,
  placedId,
  rejectionOf,
  reliance,
  statusesOf,
  tradesOf,
} from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { Engine } from './engine.ts';
import { ENGINE_REJECTIONS } from './rejections.ts';

// Prices are in ticks of 0.01 USDT (6,000,000 = 60,000.00) and quantities in lots of 0.0001 BTC.
const P60000 = 6_000_000;
const P60500 = 6_050_000;

function btcMarket(): { engine: Engine; c: CommandFactory } {
  const engine = new Engine();
  const c = new CommandFactory('BTC-USDT');
  applyOk(engine, c.register(btcUsdt()));
  return { engine, c };
}

describe('engine scenarios', () => {
  it('given alice with 20,000 USDT and bob with 1 BTC, a crossing buy fills at the maker price and both pay fees', () => {
    const { engine, c } = btcMarket();
    applyAll(engine, [c.deposit('alice', 'USDT', '20000'), c.deposit('bob', 'BTC', '1')]);
    const bobSell = placedId(applyOk(engine, c.limit('bob', 'sell', P60000, 5000)));
    const events = applyOk(engine, c.limit('alice', 'buy', P60500, 3000));
    const aliceBuy = placedId(events);

    expect(tradesOf(events)).toEqual([[P60000, 3000, bobSell, aliceBuy]]);
    expect(statusesOf(events)).toEqual([
      [bobSell, 'partial', 'fill'],
      [aliceBuy, 'filled', 'fill'],
    ]);
    expect(engine.depth('BTC-USDT', 5)).toEqual({ bids: [], asks: [[P60000, 2000]] });
    expect(balanceSheet(engine)).toEqual({
      'platform:fees/platform/USDT': '12.600000',
      'platform:faucet/platform/USDT': '-20000.000000',
      'alice/spot/USDT': '1991.000000',
      'platform:faucet/platform/BTC': '-1.00000000',
      'bob/spot/BTC': '0.70000000 held 0.20000000',
      'bob/spot/USDT': '17996.400000',
      'alice/spot/BTC': '0.30000000',
    });
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('given three resting sells, a large buy takes them in price then time order and rests the rest', () => {
    const { engine, c } = btcMarket();
    applyAll(engine, [
      c.deposit('alice', 'USDT', '100000'),
      c.deposit('bob', 'BTC', '1'),
      c.deposit('carol', 'BTC', '1'),
    ]);
    const b1 = placedId(applyOk(engine, c.limit('bob', 'sell', 6_000_100, 10)));
    const c1 = placedId(applyOk(engine, c.limit('carol', 'sell', 6_000_000, 10)));
    const b2 = placedId(applyOk(engine, c.limit('bob', 'sell', 6_000_000, 10)));
    const events = applyOk(engine, c.limit('alice', 'buy', 6_000_100, 35));
    const buy = placedId(events);
    expect(tradesOf(events)).toEqual([
      [6_000_000, 10, c1, buy],
      [6_000_000, 10, b2, buy],
      [6_000_100, 10, b1, buy],
    ]);
    expect(engine.depth('BTC-USDT', 5)).toEqual({ bids: [[6_000_100, 5]], asks: [] });
    expect(engine.order(buy)?.status).toBe('partial');
  });

  it('given asks at 100, 104 and 110, a market buy stops at the 5% protection price and cancels the rest', () => {
    const { engine, c } = btcMarket();
    applyAll(engine, [c.deposit('alice', 'USDT', '100'), c.deposit('bob', 'BTC', '1')]);
    applyAll(engine, [
      c.limit('bob', 'sell', 10_000, 1),
      c.limit('bob', 'sell', 10_400, 1),
      c.limit('bob', 'sell', 11_000, 1),
    ]);
    const events = applyOk(engine, c.market('alice', 'buy', 5));
    expect(tradesOf(events).map(([price, lots]) => [price, lots])).toEqual([
      [10_000, 1],
      [10_400, 1],
    ]);
    expect(statusesOf(events).at(-1)).toEqual([placedId(events), 'cancelled', 'market_protection']);
    expect(engine.depth('BTC-USDT', 5).asks).toEqual([[11_000, 1]]);
    expect(engine.balance('alice', 'spot', 'USDT').held).toBe(0n);
  });

  it('refuses a market order with nothing on the other side', () => {
    const { engine, c } = btcMarket();
    applyOk(engine, c.deposit('alice', 'USDT', '100'));
    expect(rejectionOf(engine, c.market('alice', 'buy', 1))).toBe('no_liquidity');
  });

  it('cancels an IOC remainder, refuses an unfillable FOK and a crossing post-only order', () => {
    const { engine, c } = btcMarket();
    applyAll(engine, [c.deposit('alice', 'USDT', '1000'), c.deposit('bob', 'BTC', '1')]);
    applyOk(engine, c.limit('bob', 'sell', 10_000, 2));
    const ioc = applyOk(engine, c.limit('alice', 'buy', 10_000, 5, { timeInForce: 'ioc' }));
    expect(statusesOf(ioc).at(-1)).toEqual([placedId(ioc), 'cancelled', 'unfilled_ioc']);
    applyOk(engine, c.limit('bob', 'sell', 10_000, 2));
    expect(rejectionOf(engine, c.limit('alice', 'buy', 10_000, 3, { timeInForce: 'fok' }))).toBe('fok_not_fillable');
    expect(rejectionOf(engine, c.limit('alice', 'buy', 10_000, 1, { postOnly: true }))).toBe('post_only_would_take');
    const fok = applyOk(engine, c.limit('alice', 'buy', 10_000, 2, { timeInForce: 'fok' }));
    expect(statusesOf(fok).at(-1)?.[1]).toBe('filled');
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('releases the whole hold when an order is cancelled, and refuses to cancel someone else’s order', () => {
    const { engine, c } = btcMarket();
    applyOk(engine, c.deposit('alice', 'USDT', '1000'));
    const id = placedId(applyOk(engine, c.limit('alice', 'buy', 10_000, 10)));
    expect(engine.balance('alice', 'spot', 'USDT')).toEqual({
      balance: 1_000_000_000n,
      held: 100_050n,
      available: 999_899_950n,
    });
    expect(rejectionOf(engine, c.cancel('mallory', id))).toBe('order_not_found');
    expect(statusesOf(applyOk(engine, c.cancel('alice', id)))).toEqual([[id, 'cancelled', 'cancelled_by_user']]);
    expect(engine.balance('alice', 'spot', 'USDT').held).toBe(0n);
    expect(rejectionOf(engine, c.cancel('alice', id))).toBe('order_not_found');
  });

  it('keeps queue position when an amend lowers the quantity, and loses it when the price changes', () => {
    const { engine, c } = btcMarket();
    applyAll(engine, [
      c.deposit('alice', 'BTC', '1'),
      c.deposit('bob', 'BTC', '1'),
      c.deposit('carol', 'USDT', '1000'),
    ]);
    const a = placedId(applyOk(engine, c.limit('alice', 'sell', 10_000, 5)));
    const b = placedId(applyOk(engine, c.limit('bob', 'sell', 10_000, 5)));
    applyOk(engine, c.amend('alice', a, { qtyLots: 3 }));
    expect(engine.restingOrderIds('BTC-USDT')).toEqual([a, b]);
    expect(engine.balance('alice', 'spot', 'BTC').held).toBe(30_000n);
    applyOk(engine, c.amend('alice', a, { priceTicks: 10_001 }));
    applyOk(engine, c.amend('alice', a, { priceTicks: 10_000 }));
    expect(engine.restingOrderIds('BTC-USDT')).toEqual([b, a]);
    expect(rejectionOf(engine, c.amend('alice', a, { priceTicks: 10_000 }))).toBe('amend_no_change');
    const events = applyOk(engine, c.limit('carol', 'buy', 10_000, 6));
    expect(tradesOf(events).map((t) => t[2])).toEqual([b, a]);
  });

  it('cancels the resting order by default when a user would trade with themselves', () => {
    const { engine, c } = btcMarket();
    applyAll(engine, [
      c.deposit('alice', 'BTC', '1'),
      c.deposit('alice', 'USDT', '1000'),
      c.deposit('bob', 'BTC', '1'),
    ]);
    const own = placedId(applyOk(engine, c.limit('alice', 'sell', 10_000, 1)));
    const other = placedId(applyOk(engine, c.limit('bob', 'sell', 10_000, 1)));
    const events = applyOk(engine, c.limit('alice', 'buy', 10_000, 1));
    expect(statusesOf(events)[0]).toEqual([own, 'cancelled', 'self_trade_prevented']);
    expect(tradesOf(events)).toEqual([[10_000, 1, other, placedId(events)]]);
    const taker = applyOk(engine, c.limit('alice', 'sell', 9_000, 1, { stp: 'cancel_taker' }));
    expect(statusesOf(taker)).toEqual([]);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('fires a buy stop when the last trade reaches it, and a take-profit on an outside mark price', () => {
    const { engine, c } = btcMarket();
    applyAll(engine, [
      c.deposit('alice', 'USDT', '1000'),
      c.deposit('bob', 'BTC', '1'),
      c.deposit('carol', 'USDT', '1000'),
    ]);
    applyAll(engine, [c.limit('bob', 'sell', 10_000, 1), c.limit('bob', 'sell', 10_100, 5)]);
    const stop = placedId(
      applyOk(engine, c.market('alice', 'buy', 2, { kind: 'stop', priceTicks: 10_000, by: 'last' })),
    );
    expect(engine.order(stop)?.waitingForTrigger).toBe(true);
    const events = applyOk(engine, c.limit('carol', 'buy', 10_000, 1));
    expect(statusesOf(events).filter(([id]) => id === stop)).toEqual([
      [stop, 'pending', 'triggered'],
      [stop, 'filled', 'fill'],
    ]);
    const tp = placedId(
      applyOk(
        engine,
        c.limit('alice', 'sell', 10_050, 2, { trigger: { kind: 'take_profit', priceTicks: 10_200, by: 'mark' } }),
      ),
    );
    expect(
      rejectionOf(
        engine,
        c.limit('alice', 'sell', 10_050, 1, { trigger: { kind: 'stop', priceTicks: 10_200, by: 'last' } }),
      ),
    ).toBe('invalid_trigger_price');
    applyOk(engine, c.mark(10_150));
    expect(engine.order(tp)?.waitingForTrigger).toBe(true);
    applyOk(engine, c.mark(10_200));
    expect(engine.depth('BTC-USDT', 1).asks).toEqual([[10_050, 2]]);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('lists every live order: resting, partly filled, waiting for its trigger or queued while halted; none finished', () => {
    const { engine, c } = btcMarket();
    applyAll(engine, [c.deposit('alice', 'USDT', '100000'), c.deposit('bob', 'BTC', '1')]);
    const resting = placedId(applyOk(engine, c.limit('alice', 'buy', P60000, 3)));
    applyOk(engine, c.limit('bob', 'sell', P60000, 1)); // fills at once, and one lot of alice's buy
    const cancelled = placedId(applyOk(engine, c.limit('bob', 'sell', P60500, 1)));
    applyOk(engine, c.cancel('bob', cancelled));
    const waiting = placedId(
      applyOk(engine, c.market('alice', 'buy', 1, { kind: 'stop', priceTicks: P60500, by: 'last' })),
    );
    applyOk(engine, c.halt());
    const queued = placedId(applyOk(engine, c.limit('bob', 'sell', P60500, 1)));
    expect(engine.order(queued)?.queued).toBe(true);
    expect(engine.liveOrders()).toEqual([
      { orderId: resting, status: 'partial', filledLots: 1 },
      { orderId: waiting, status: 'pending', filledLots: 0 },
      { orderId: queued, status: 'pending', filledLots: 0 },
    ]);
  });

  it('gives the last order and trade ids given out: one per order placed and per trade, none for a rejected order', () => {
    const { engine, c } = btcMarket();
    expect(engine.lastIds()).toEqual({ orderId: 0, tradeId: 0 });
    applyAll(engine, [c.deposit('alice', 'USDT', '100000'), c.deposit('bob', 'BTC', '1')]);
    const resting = placedId(applyOk(engine, c.limit('alice', 'buy', P60000, 3)));
    // Two trades: bob's sell meets alice's buy for its one lot, then his market sell takes another.
    const taker = placedId(applyOk(engine, c.limit('bob', 'sell', P60000, 1)));
    const market = placedId(applyOk(engine, c.market('bob', 'sell', 1)));
    expect([resting, taker, market]).toEqual([1, 2, 3]);
    expect(rejectionOf(engine, c.limit('alice', 'buy', P60000, 1_000_000))).toBe('insufficient_balance');
    expect(engine.lastIds()).toEqual({ orderId: 3, tradeId: 2 });
  });

  it('refuses limit prices outside the band and orders beyond the open-order limit', () => {
    const engine = new Engine({ maxOpenOrdersPerUser: 2 });
    const c = new CommandFactory('BTC-USDT');
    applyAll(engine, [c.register(btcUsdt()), c.deposit('alice', 'USDT', '1000'), c.reference(10_000, [9_000, 11_000])]);
    expect(rejectionOf(engine, c.limit('alice', 'buy', 8_999, 1))).toBe('price_outside_band');
    applyAll(engine, [c.limit('alice', 'buy', 9_000, 1), c.limit('alice', 'buy', 9_001, 1)]);
    expect(rejectionOf(engine, c.limit('alice', 'buy', 9_002, 1))).toBe('open_order_limit');
    expect(rejectionOf(engine, c.limit('alice', 'buy', 9_002, 1, { timeInForce: 'ioc' }))).toBeUndefined();
  });

  it('refuses what the user cannot pay for, and changes nothing when it does', () => {
    const { engine, c } = btcMarket();
    applyOk(engine, c.deposit('alice', 'USDT', '10'));
    const before = engine.stateHash();
    expect(rejectionOf(engine, c.limit('alice', 'buy', P60000, 2))).toBe('insufficient_balance');
    expect(rejectionOf(engine, c.limit('bob', 'sell', 10_000, 1))).toBe('insufficient_balance');
    expect(rejectionOf(engine, c.limit('alice', 'buy', 0, 1))).toBe('invalid_price');
    expect(rejectionOf(engine, c.limit('alice', 'buy', 10, 0))).toBe('invalid_quantity');
    const afterRejections = engine.snapshot();
    expect(afterRejections.accounts.length).toBe(3);
    expect(before).not.toBe(engine.stateHash()); // the rejections are remembered for idempotency
  });

  it('answers a repeated command id with the first result, and refuses the id with another body', () => {
    const { engine, c } = btcMarket();
    const deposit = c.deposit('alice', 'USDT', '10');
    const first = engine.apply(deposit);
    expect(engine.apply({ ...deposit })).toEqual(first);
    // A retry arrives later: the sequencer's time is not part of the body.
    expect(engine.apply({ ...deposit, timeMs: deposit.timeMs + 5_000 })).toEqual(first);
    expect(engine.balance('alice', 'spot', 'USDT').balance).toBe(10_000_000n);
    expect(engine.apply({ ...deposit, amount: '11' })).toEqual({ ok: false, code: 'command_id_reused' });
  });

  it('holds funds for a withdrawal, posts part of it to the rail and voids the rest', () => {
    const { engine, c } = btcMarket();
    applyOk(engine, c.deposit('alice', 'USDT', '100'));
    applyOk(engine, {
      id: 'w1',
      timeMs: 5,
      type: 'hold_funds',
      userId: 'alice',
      wallet: 'spot',
      asset: 'USDT',
      amount: '60',
      cause: 'withdrawal',
    });
    expect(rejectionOf(engine, c.limit('alice', 'buy', P60000, 7))).toBe('insufficient_balance');
    expect(
      rejectionOf(engine, { id: 'w2', timeMs: 6, type: 'post_hold', holdId: 'w1', to: 'rail:upi', amount: '61' }),
    ).toBe('hold_amount_exceeded');
    applyOk(engine, { id: 'w3', timeMs: 7, type: 'post_hold', holdId: 'w1', to: 'rail:upi', amount: '50' });
    applyOk(engine, { id: 'w4', timeMs: 8, type: 'void_hold', holdId: 'w1' });
    expect(balanceSheet(engine)).toMatchObject({
      'alice/spot/USDT': '50.000000',
      'platform:rail:upi/platform/USDT': '50.000000',
    });
    expect(rejectionOf(engine, { id: 'w5', timeMs: 9, type: 'void_hold', holdId: 'w1' })).toBe('hold_not_found');
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('settles a stock in the stock wallet after INR moves there from the spot wallet', () => {
    const engine = new Engine();
    const c = new CommandFactory('NSE:RELIANCE');
    applyAll(engine, [
      c.register(reliance()),
      c.deposit('asha', 'INR', '10000', 'spot'),
      c.walletTransfer('asha', 'INR', 'spot', 'stock', '6000'),
      { ...c.deposit('ravi', 'SHARE:NSE:RELIANCE', '10', 'stock'), from: 'issuer:NSE', cause: 'allotment' },
      c.limit('ravi', 'sell', 59_001, 2),
      c.limit('asha', 'buy', 59_001, 2),
    ]);
    expect(balanceSheet(engine)).toMatchObject({
      'asha/spot/INR': '4000.00',
      'asha/stock/INR': '99.90',
      'asha/stock/SHARE:NSE:RELIANCE': '2',
      'ravi/stock/INR': '5900.10',
      'ravi/stock/SHARE:NSE:RELIANCE': '8',
      'platform:issuer:NSE/platform/SHARE:NSE:RELIANCE': '-10',
    });
  });

  it('refuses an order from an id no user can have (unknown to the engine or not), and takes one from a user it knows', () => {
    const { engine, c } = btcMarket();
    applyAll(engine, [c.deposit('alice', 'USDT', '100000')]);
    const bad = ['', 'a/b', 'platform:fees', 'x'.repeat(65), 7, null, undefined];
    for (const userId of bad) {
      expect(rejectionOf(engine, c.limit(userId as string, 'buy', P60000, 10))).toBe('invalid_user');
    }
    // An id that is fine but unknown has no money: refused for that, not for the id.
    expect(rejectionOf(engine, c.limit('zoe', 'buy', P60000, 10))).toBe('insufficient_balance');
    expect(placedId(applyOk(engine, c.limit('alice', 'buy', P60000, 10)))).toBeGreaterThan(0);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('lists every rejection code once, in snake_case', () => {
    expect(new Set(ENGINE_REJECTIONS).size).toBe(ENGINE_REJECTIONS.length);
    for (const code of ENGINE_REJECTIONS) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
});
