// Every order type of the crypto exchange on an 8-decimal pair (BTC/USDT: tick 0.01 USDT, lot 0.0001
// BTC, maker and taker 10 bp), against a liquidity account's ladder, with balances asserted exactly.
// At these sizes one lot at T ticks is worth T micro-USDT, and a fee is that / 1,000, rounded down.

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
import { Engine } from './engine.ts';

const MM = 'mm:BTC-USDT';
const ASK = [9_501_000, 9_502_000, 9_503_000] as const; // 95,010.00 / 95,020.00 / 95,030.00
const BID = [9_499_000, 9_498_000, 9_497_000] as const; // 94,990.00 / 94,980.00 / 94,970.00
const INSIDE = 9_499_500; // 94,995.00: inside the ladder's spread

/** The liquidity account quotes 5, 10 and 15 lots a side; alice has 10,000 USDT, bob 1 BTC, carol 1,000 USDT. */
function exchange() {
  const engine = new Engine();
  const c = new CommandFactory('BTC-USDT');
  applyAll(engine, [
    c.register(btcUsdt({ makerFeeBps: 10, takerFeeBps: 10 })),
    c.deposit(MM, 'BTC', '10'),
    c.deposit(MM, 'USDT', '1000000'),
    c.deposit('alice', 'USDT', '10000'),
    c.deposit('bob', 'BTC', '1'),
    c.deposit('carol', 'USDT', '1000'),
  ]);
  for (let k = 0; k < 3; k++) {
    applyOk(engine, c.limit(MM, 'sell', ASK[k] as number, 5 * (k + 1), { postOnly: true }));
    applyOk(engine, c.limit(MM, 'buy', BID[k] as number, 5 * (k + 1), { postOnly: true }));
  }
  const usdt = (user: string) => engine.balance(user, 'spot', 'USDT');
  const btc = (user: string) => engine.balance(user, 'spot', 'BTC');
  const fees = () => engine.balance('platform:fees', 'platform', 'USDT').balance;
  return { engine, c, usdt, btc, fees };
}

describe('spot order types on an 8-decimal pair', () => {
  it('a limit order rests holding notional and fee, then fills as maker; the taker pays its own fee', () => {
    const { engine, c, usdt, btc, fees } = exchange();
    const bid = placedId(applyOk(engine, c.limit('alice', 'buy', INSIDE, 10)));
    // 0.001 BTC at 94,995.00 = 94.995000 USDT, + 0.094995 fee held.
    expect(usdt('alice')).toEqual({ balance: 10_000_000_000n, held: 95_089_995n, available: 9_904_910_005n });
    const events = applyOk(engine, c.limit('bob', 'sell', INSIDE, 10));
    expect(tradesOf(events)).toEqual([[INSIDE, 10, bid, bid + 1]]);
    expect(usdt('alice')).toEqual({ balance: 9_904_910_005n, held: 0n, available: 9_904_910_005n });
    expect(btc('alice').balance).toBe(100_000n);
    expect(usdt('bob').balance).toBe(94_900_005n); // 94.995 − 0.094995
    expect(btc('bob').balance).toBe(99_900_000n);
    expect(fees()).toBe(189_990n);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('a market order walks the levels with slippage, each fill paying its own rounded-down fee', () => {
    const { engine, c, usdt, btc, fees } = exchange();
    const events = applyOk(engine, c.market('alice', 'buy', 12));
    expect(tradesOf(events).map(([t, lots]) => [t, lots])).toEqual([
      [ASK[0], 5],
      [ASK[1], 7],
    ]);
    // 47.505000 + 66.514000 = 114.019000 USDT, fees 0.047505 + 0.066514.
    expect(usdt('alice')).toEqual({ balance: 9_885_866_981n, held: 0n, available: 9_885_866_981n });
    expect(btc('alice').balance).toBe(120_000n);
    expect(usdt(MM).balance).toBe(1_000_000_000_000n + 114_019_000n - 114_019n);
    expect(btc(MM).balance).toBe(1_000_000_000n - 120_000n);
    expect(fees()).toBe(228_038n);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('market protection stops a market order 5% from the best price and closes the rest', () => {
    const { engine, c, usdt, btc } = exchange();
    // Beyond 95,010.00 × 1.05 = 99,760.50: out of a market order's reach.
    applyOk(engine, c.limit(MM, 'sell', 10_000_000, 10, { postOnly: true }));
    const order = c.market('alice', 'buy', 40);
    const events = applyOk(engine, order);
    expect(tradesOf(events).map(([t, lots]) => [t, lots])).toEqual([
      [ASK[0], 5],
      [ASK[1], 10],
      [ASK[2], 15],
    ]);
    expect(statusesOf(events).at(-1)?.slice(1)).toEqual(['cancelled', 'market_protection']);
    // 47.505 + 95.020 + 142.545 = 285.070000, fees 0.285070.
    expect(usdt('alice')).toEqual({ balance: 9_714_644_930n, held: 0n, available: 9_714_644_930n });
    expect(btc('alice').balance).toBe(300_000n);
    expect(engine.depth('BTC-USDT', 1).asks).toEqual([[10_000_000, 10]]);
  });

  it('IOC fills what the price reaches and closes the rest; FOK fills whole or is refused', () => {
    const { engine, c, usdt } = exchange();
    const ioc = applyOk(engine, c.limit('alice', 'buy', ASK[0], 8, { timeInForce: 'ioc' }));
    expect(tradesOf(ioc).map(([t, lots]) => [t, lots])).toEqual([[ASK[0], 5]]);
    expect(statusesOf(ioc).at(-1)?.slice(1)).toEqual(['cancelled', 'unfilled_ioc']);
    expect(usdt('alice')).toEqual({ balance: 9_952_447_495n, held: 0n, available: 9_952_447_495n });

    // 10 lots rest at 95,020.00 now: 11 cannot all fill, so nothing does.
    expect(rejectionOf(engine, c.limit('alice', 'buy', ASK[1], 11, { timeInForce: 'fok' }))).toBe('fok_not_fillable');
    expect(usdt('alice').balance).toBe(9_952_447_495n);
    const fok = applyOk(engine, c.limit('alice', 'buy', ASK[1], 10, { timeInForce: 'fok' }));
    expect(tradesOf(fok).map(([t, lots]) => [t, lots])).toEqual([[ASK[1], 10]]);
    // 95.020000 + 0.095020 more.
    expect(usdt('alice')).toEqual({ balance: 9_857_332_475n, held: 0n, available: 9_857_332_475n });
  });

  it('post-only is refused where it would take, and rests where it would not', () => {
    const { engine, c, usdt } = exchange();
    expect(rejectionOf(engine, c.limit('alice', 'buy', ASK[0], 1, { postOnly: true }))).toBe('post_only_would_take');
    expect(usdt('alice').held).toBe(0n);
    const events = applyOk(engine, c.limit('alice', 'buy', ASK[0] - 1, 1, { postOnly: true }));
    expect(tradesOf(events)).toEqual([]);
    expect(usdt('alice').held).toBe(9_500_999n + 9_500n); // 9.500999 + fee 0.009500
  });

  it('a stop-limit waits for its stop (on the mark price the bot sets) and then trades as a limit', () => {
    const { engine, c, usdt, btc } = exchange();
    const stop = { kind: 'stop' as const, priceTicks: 9_500_500, by: 'mark' as const };
    const id = placedId(applyOk(engine, c.limit('alice', 'buy', 9_510_000, 5, { trigger: stop })));
    expect(usdt('alice').held).toBe(47_550_000n + 47_550n);
    expect(engine.order(id)?.waitingForTrigger).toBe(true);
    expect(tradesOf(applyOk(engine, c.mark(9_500_400)))).toEqual([]);
    const fired = applyOk(engine, c.mark(9_500_500));
    expect(tradesOf(fired).map(([t, lots, , taker]) => [t, lots, taker])).toEqual([[ASK[0], 5, id]]);
    expect(usdt('alice')).toEqual({ balance: 9_952_447_495n, held: 0n, available: 9_952_447_495n });
    expect(btc('alice').balance).toBe(50_000n);
    // A stop the mark has already passed is refused.
    expect(rejectionOf(engine, c.limit('alice', 'buy', 9_510_000, 5, { trigger: stop }))).toBe('invalid_trigger_price');
  });

  it('cancel releases the whole hold; amend down keeps the queue place and releases the difference', () => {
    const { engine, c, usdt, btc } = exchange();
    const first = placedId(applyOk(engine, c.limit('alice', 'buy', INSIDE, 10)));
    applyOk(engine, c.cancel('alice', first));
    expect(usdt('alice')).toEqual({ balance: 10_000_000_000n, held: 0n, available: 10_000_000_000n });

    const alice = placedId(applyOk(engine, c.limit('alice', 'buy', INSIDE, 10)));
    const carol = placedId(applyOk(engine, c.limit('carol', 'buy', INSIDE, 5)));
    applyOk(engine, c.amend('alice', alice, { qtyLots: 4 }));
    expect(usdt('alice').held).toBe(37_998_000n + 37_998n);
    // Alice's bid still comes first at its price.
    const sale = applyOk(engine, c.limit('bob', 'sell', INSIDE, 4));
    expect(tradesOf(sale).map(([t, lots, maker]) => [t, lots, maker])).toEqual([[INSIDE, 4, alice]]);
    expect(btc('alice').balance).toBe(40_000n);
    expect(usdt('alice')).toEqual({
      balance: 10_000_000_000n - 37_998_000n - 37_998n,
      held: 0n,
      available: 9_961_964_002n,
    });
    expect(engine.order(carol)?.remainingLots).toBe(5);
  });

  it('self-trade prevention cancels the resting order of the same account instead of trading', () => {
    const { engine, c, usdt, btc } = exchange();
    applyOk(engine, c.deposit('alice', 'BTC', '0.01'));
    const bid = placedId(applyOk(engine, c.limit('alice', 'buy', INSIDE, 10)));
    const events = applyOk(engine, c.limit('alice', 'sell', INSIDE, 5));
    expect(tradesOf(events)).toEqual([]);
    expect(statusesOf(events)).toContainEqual([bid, 'cancelled', 'self_trade_prevented']);
    expect(usdt('alice')).toEqual({ balance: 10_000_000_000n, held: 0n, available: 10_000_000_000n });
    expect(btc('alice')).toEqual({ balance: 1_000_000n, held: 50_000n, available: 950_000n });
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });
});
