import { applyAll, applyOk, balanceSheet, btcPerp, btcUsdt, CommandFactory, rejectionOf } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import type { Command } from './commands.ts';
import { Engine } from './engine.ts';
import type { AutoDeleveraged, EngineEvent, FundingApplied, PositionLiquidated } from './events.ts';
import type { HoldFunds, PostHold } from './funds.ts';

// BTCUSDT-PERP: tick 0.1 USDT, lot 0.001 BTC. 500,000 ticks = 50,000.0 USDT; 1,000 lots = 1 BTC.
const P = (usdt: number): number => Math.round(usdt * 10);
const BTC = 1_000;
const PERP = 'BTCUSDT-PERP';

type Market = { engine: Engine; c: CommandFactory; run: (...commands: Command[]) => EngineEvent[] };

/** A perpetual without fees (unless given) and each named user with `usdt` in the contract wallet. */
function market(users: string[], usdt = '10000', fees: [number, number] = [0, 0]): Market {
  const engine = new Engine();
  const c = new CommandFactory(PERP);
  const run = (...commands: Command[]): EngineEvent[] => {
    const events = applyAll(engine, commands);
    expect(engine.findBrokenInvariant()).toBeUndefined();
    return events;
  };
  run(c.register(btcPerp({ makerFeeBps: fees[0], takerFeeBps: fees[1] })));
  for (const user of users) run(c.deposit(user, 'USDT', usdt, 'contract'));
  return { engine, c, run };
}

function sheetOf(engine: Engine, ...keys: string[]): Record<string, string> {
  const sheet = balanceSheet(engine);
  return Object.fromEntries(keys.map((key) => [key, sheet[key] ?? '0']));
}

function positions(engine: Engine): [string, number, string, string][] {
  return engine
    .positions(PERP)
    .map((p) => [
      p.userId,
      p.sizeLots,
      (Number(p.entryNotional) / 1e6).toFixed(2),
      (Number(p.margin) / 1e6).toFixed(2),
    ]);
}

/** alice long 1 BTC at 50,000 against bob, both at 10x. */
function aliceLongBobShort(users: string[] = []): Market {
  const m = market(['alice', 'bob', ...users]);
  const { c, run } = m;
  run(c.setLeverage('alice', 10), c.setLeverage('bob', 10));
  run(c.limit('bob', 'sell', P(50_000), BTC), c.limit('alice', 'buy', P(50_000), BTC));
  return m;
}

/** Puts `usdt` of a fresh user's money into the insurance fund (hold, then post). */
function fundInsurance(m: Market, usdt: string): void {
  const { c, run } = m;
  run(c.deposit('sponsor', 'USDT', usdt, 'contract'));
  const hold: HoldFunds = {
    id: 'fund-hold',
    timeMs: 5,
    type: 'hold_funds',
    userId: 'sponsor',
    wallet: 'contract',
    asset: 'USDT',
    amount: usdt,
    cause: 'adjustment',
  };
  const post: PostHold = { id: 'fund-post', timeMs: 6, type: 'post_hold', holdId: 'fund-hold', to: 'insurance_fund' };
  run(hold, post);
}

describe('perpetual positions: open, increase, reduce, close, flip', () => {
  it('opens a long and a short with initial margin held from each side', () => {
    const { engine } = aliceLongBobShort();
    // The taker's position opens first.
    expect(positions(engine)).toEqual([
      ['alice', BTC, '50000.00', '5000.00'],
      ['bob', -BTC, '50000.00', '5000.00'],
    ]);
    expect(sheetOf(engine, 'alice/contract/USDT', 'bob/contract/USDT')).toEqual({
      'alice/contract/USDT': '10000.000000 held 5000.000000',
      'bob/contract/USDT': '10000.000000 held 5000.000000',
    });
  });

  it.each([
    // [what, alice's order, position after, alice's balance after]
    [
      'increases at another price: the entry averages',
      'buy',
      500,
      51_000,
      [1_500, '75500.00', '7550.00'],
      '10000.000000 held 7550.000000',
    ],
    [
      'reduces at a loss: paid from margin, the rest of its share released',
      'sell',
      400,
      49_000,
      [600, '30000.00', '3000.00'],
      '9600.000000 held 3000.000000',
    ],
    ['closes at a gain: paid from the clearing pool', 'sell', 1_000, 51_000, null, '11000.000000'],
    [
      'flips: closes 1 at a gain, opens 0.5 short at 50,500',
      'sell',
      1_500,
      50_500,
      [-500, '25250.00', '2525.00'],
      '10500.000000 held 2525.000000',
    ],
  ] as const)('%s', (_name, side, lots, price, after, balance) => {
    const m = aliceLongBobShort(['carol']);
    const { engine, c, run } = m;
    run(c.limit('carol', side === 'buy' ? 'sell' : 'buy', P(price), lots), c.limit('alice', side, P(price), lots));
    const alice = positions(engine).find(([user]) => user === 'alice');
    expect(alice === undefined ? null : alice.slice(1)).toEqual(after);
    expect(sheetOf(engine, 'alice/contract/USDT')['alice/contract/USDT']).toBe(balance);
  });

  it('a closing order holds only its fee, so a fully margined position can still be closed', () => {
    const m = market(['alice', 'bob', 'carol'], '10000', [2, 4]);
    const { engine, c, run } = m;
    run(c.setLeverage('alice', 1), c.setLeverage('bob', 10));
    // alice at 1x puts 9,980 of her 10,000 into margin (9,980 notional + fee 3.992).
    run(c.limit('bob', 'sell', P(49_900), 200), c.limit('alice', 'buy', P(49_900), 200));
    expect(positions(engine).find(([u]) => u === 'alice')).toEqual(['alice', 200, '9980.00', '9980.00']);
    run(c.limit('carol', 'buy', P(50_000), 200));
    // Closing 0.2 BTC at 50,000: holds the 4 bps fee (4.00), not margin.
    const placed = applyOk(engine, c.limit('alice', 'sell', P(50_000), 200));
    expect(placed.find((e) => e.type === 'order_placed')).toMatchObject({ holdAmount: 4_000_000n });
    expect(positions(engine).find(([u]) => u === 'alice')).toBeUndefined();
    // 10,000 − fee 3.992 (taker) + PnL 20 − fee 4.00 (taker) = 10,012.008.
    expect(sheetOf(engine, 'alice/contract/USDT')['alice/contract/USDT']).toBe('10012.008000');
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('charges both fees to platform:fees and keeps every invariant', () => {
    const m = market(['alice', 'bob'], '10000', [2, 4]);
    const { engine, c, run } = m;
    run(c.limit('bob', 'sell', P(50_000), BTC), c.limit('alice', 'buy', P(50_000), BTC));
    // maker 2 bps of 50,000 = 10; taker 4 bps = 20. Default leverage 20x: margin 2,500.
    expect(sheetOf(engine, 'platform:fees/platform/USDT', 'alice/contract/USDT', 'bob/contract/USDT')).toEqual({
      'platform:fees/platform/USDT': '30.000000',
      'alice/contract/USDT': '9980.000000 held 2500.000000',
      'bob/contract/USDT': '9990.000000 held 2500.000000',
    });
  });

  it('refuses an order whose position would pass its tier maximum leverage', () => {
    const { engine, c, run } = market(['alice', 'bob'], '100000');
    run(c.setLeverage('alice', 125));
    // 60,000 notional is tier 2 (max 100x).
    expect(rejectionOf(engine, c.limit('alice', 'buy', P(60_000), BTC))).toBe('invalid_leverage');
    expect(rejectionOf(engine, c.limit('alice', 'buy', P(40_000), BTC))).toBeUndefined();
  });

  it('survives a snapshot: positions, margin holds and leverage restore to the same hash', () => {
    const { engine, c, run } = aliceLongBobShort();
    run(c.setLeverage('alice', 5), c.mark(P(49_000)));
    const restored = Engine.restore(JSON.parse(JSON.stringify(engine.snapshot())));
    expect(restored.stateHash()).toBe(engine.stateHash());
    expect(positions(restored)).toEqual(positions(engine));
    expect(restored.leverage('alice', PERP)).toBe(5);
    expect(restored.findBrokenInvariant()).toBeUndefined();
    // And it behaves alike: bob closes against carol.
    const later = [
      c.deposit('carol', 'USDT', '10000', 'contract'),
      c.limit('carol', 'sell', P(49_000), BTC),
      c.limit('bob', 'buy', P(49_000), BTC),
    ];
    applyAll(engine, later);
    applyAll(restored, later);
    expect(restored.stateHash()).toBe(engine.stateHash());
  });
});

describe('reduce-only orders (closes, TP/SL)', () => {
  const reduceOnly = (c: CommandFactory, user: string, side: 'buy' | 'sell', lots: number): Command => ({
    ...c.market(user, side, lots),
    reduceOnly: true,
  });

  it('is cut to the position when it executes and holds only its fee', () => {
    const { engine, c, run } = aliceLongBobShort(['carol']);
    run(c.limit('carol', 'buy', P(50_000), 3 * BTC));
    const events = run(reduceOnly(c, 'alice', 'sell', 2 * BTC));
    expect(events.filter((e) => e.type === 'trade').map((e) => (e as { qtyLots: number }).qtyLots)).toEqual([BTC]);
    expect(events.find((e) => e.type === 'order_placed')).toMatchObject({ holdAmount: 0n });
    expect(positions(engine).find(([u]) => u === 'alice')).toBeUndefined();
    expect(sheetOf(engine, 'alice/contract/USDT')['alice/contract/USDT']).toBe('10000.000000');
  });

  it('a take-profit whose position closed before it fired is cancelled, opening nothing', () => {
    const { engine, c, run } = aliceLongBobShort(['carol']);
    const tp = {
      ...c.market('alice', 'sell', BTC, { kind: 'take_profit', priceTicks: P(55_000), by: 'mark' }),
      reduceOnly: true,
    };
    run(tp);
    run(c.limit('carol', 'buy', P(50_000), BTC), c.limit('alice', 'sell', P(50_000), BTC));
    run(c.limit('carol', 'buy', P(55_000), BTC));
    const fired = run(c.mark(P(55_000)));
    expect(fired.filter((e) => e.type === 'order_updated').map((e) => (e as { reason: string }).reason)).toEqual([
      'triggered',
      'reduce_only',
    ]);
    expect(positions(engine).find(([u]) => u === 'alice')).toBeUndefined();
  });

  it('survives a snapshot while waiting for its trigger', () => {
    const { engine, c, run } = aliceLongBobShort();
    run({ ...c.market('alice', 'sell', BTC, { kind: 'stop', priceTicks: P(46_000), by: 'mark' }), reduceOnly: true });
    const restored = Engine.restore(JSON.parse(JSON.stringify(engine.snapshot())));
    expect(restored.stateHash()).toBe(engine.stateHash());
    expect(JSON.stringify(restored.snapshot().orders)).toContain('"reduceOnly":true');
  });

  it.each([
    ['without a position to reduce', (c: CommandFactory) => reduceOnly(c, 'carol', 'sell', 1), 'reduce_only_rejected'],
    [
      'on the same side as the position',
      (c: CommandFactory) => reduceOnly(c, 'alice', 'buy', 1),
      'reduce_only_rejected',
    ],
    [
      'as a resting (GTC) limit order',
      (c: CommandFactory) => ({ ...c.limit('alice', 'sell', P(50_000), 1), reduceOnly: true }),
      'invalid_command',
    ],
    [
      'on a spot pair',
      (c: CommandFactory) => ({ ...reduceOnly(c, 'alice', 'sell', 1), instrumentId: 'BTC-USDT' }),
      'invalid_command',
    ],
  ])('is refused %s', (_name, make, code) => {
    const m = aliceLongBobShort(['carol']);
    m.run(m.c.register(btcUsdt()));
    expect(rejectionOf(m.engine, make(m.c) as Command)).toBe(code);
  });
});

describe('set_leverage and adjust_margin', () => {
  it('sets leverage for later orders and tops a position margin up when lowered', () => {
    const { engine, c, run } = aliceLongBobShort();
    run(c.setLeverage('alice', 5));
    expect(positions(engine).find(([u]) => u === 'alice')).toEqual(['alice', BTC, '50000.00', '10000.00']);
    expect(engine.leverage('alice', PERP)).toBe(5);
  });

  it.each([
    ['leverage 0', (c: CommandFactory) => c.setLeverage('alice', 0), 'invalid_leverage'],
    ['leverage above the maximum', (c: CommandFactory) => c.setLeverage('alice', 126), 'invalid_leverage'],
    ['lowering with too little to top up', (c: CommandFactory) => c.setLeverage('alice', 4), 'leverage_funds'],
    [
      'a spot instrument',
      (c: CommandFactory) => ({ ...c.setLeverage('alice', 5), instrumentId: 'BTC-USDT' }),
      'invalid_instrument',
    ],
    [
      'an unknown instrument',
      (c: CommandFactory) => ({ ...c.setLeverage('alice', 5), instrumentId: 'X' }),
      'unknown_instrument',
    ],
    [
      'adding more margin than is free',
      (c: CommandFactory) => c.adjustMargin('alice', '5000.000001'),
      'insufficient_balance',
    ],
    [
      'removing margin below the initial margin',
      (c: CommandFactory) => c.adjustMargin('alice', '-0.000001'),
      'insufficient_margin',
    ],
    [
      'a margin change of another user (no position)',
      (c: CommandFactory) => c.adjustMargin('carol', '1'),
      'position_not_found',
    ],
    ['a margin amount that is not a decimal', (c: CommandFactory) => c.adjustMargin('alice', '1e3'), 'invalid_amount'],
  ])('refuses %s', (_name, make, code) => {
    const m = aliceLongBobShort(['carol']);
    m.run(m.c.register(btcUsdt()));
    expect(rejectionOf(m.engine, make(m.c) as Command)).toBe(code);
    expect(m.engine.findBrokenInvariant()).toBeUndefined();
  });

  it('refuses a leverage change while the user has live orders on the contract', () => {
    const { engine, c, run } = aliceLongBobShort();
    run(c.limit('alice', 'buy', P(40_000), 100));
    expect(rejectionOf(engine, c.setLeverage('alice', 20))).toBe('leverage_open_orders');
  });

  it('refuses a leverage above the tier of the position', () => {
    const { engine, c, run } = market(['alice', 'bob'], '100000');
    run(c.setLeverage('alice', 10), c.setLeverage('bob', 10));
    run(c.limit('bob', 'sell', P(60_000), BTC), c.limit('alice', 'buy', P(60_000), BTC));
    expect(rejectionOf(engine, c.setLeverage('alice', 101))).toBe('invalid_leverage');
    expect(rejectionOf(engine, c.setLeverage('alice', 100))).toBeUndefined();
  });

  it('adds and removes margin within the initial margin', () => {
    const { engine, c, run } = aliceLongBobShort();
    run(c.adjustMargin('alice', '1000'));
    expect(positions(engine).find(([u]) => u === 'alice')?.[3]).toBe('6000.00');
    run(c.adjustMargin('alice', '-1000'));
    expect(positions(engine).find(([u]) => u === 'alice')?.[3]).toBe('5000.00');
    expect(sheetOf(engine, 'alice/contract/USDT')['alice/contract/USDT']).toBe('10000.000000 held 5000.000000');
  });
});

describe('liquidation at the mark', () => {
  it("shows DOMAIN.md's liquidation prices on the positions: long 45,180.72; short 54,776.12 (tier 2)", () => {
    const { engine, c, run } = aliceLongBobShort();
    run(c.mark(P(50_000)));
    const cents = (minor: bigint | null): string => (minor === null ? '--' : (Number(minor) / 1e6).toFixed(2));
    const views = engine.positions(PERP);
    // 1 BTC at 50,000, 5,000 margin: the long's LP is in tier 1 (0.4%); the short's LP notional passes
    // 50,000, so it is recomputed in tier 2 (0.5%, maintenance amount 50). See perpetual-math.test.ts.
    expect(views.map((v) => [v.userId, cents(v.liquidationPrice), cents(v.bankruptcyPrice)])).toEqual([
      ['alice', '45180.72', '45000.00'],
      ['bob', '54776.12', '55000.00'],
    ]);
    expect(views.map((v) => [v.unrealisedPnl, v.maintenanceMargin])).toEqual([
      [0n, 200_000_000n],
      [0n, 200_000_000n],
    ]);
  });

  it('shows "--" for a long at 1x, which no falling price liquidates', () => {
    const { engine, c, run } = market(['alice', 'bob'], '100000');
    run(c.setLeverage('alice', 1), c.limit('bob', 'sell', P(50_000), BTC), c.limit('alice', 'buy', P(50_000), BTC));
    expect(engine.positions(PERP).find((v) => v.userId === 'alice')?.liquidationPrice).toBeNull();
  });

  it('is refused above the maintenance margin and allowed at DOMAIN.md liquidation price', () => {
    const { engine, c, run } = aliceLongBobShort();
    // Long LP 45,180.72: at 45,180.8 the equity (180.8) is above the maintenance margin (180.72).
    run(c.mark(P(45_180.8)));
    expect(rejectionOf(engine, c.liquidate('alice'))).toBe('not_liquidatable');
    expect(rejectionOf(engine, c.liquidate('carol'))).toBe('position_not_found');
    run(c.mark(P(45_180.7)));
    // No bid in the book: alice's long goes to bob's short by ADL at the bankruptcy price.
    expect(rejectionOf(engine, c.liquidate('alice'))).toBeUndefined();
  });

  it('closes in the book; the better fill remainder goes to the insurance fund', () => {
    const m = aliceLongBobShort(['dave']);
    const { engine, c, run } = m;
    run(c.limit('dave', 'buy', P(45_100), BTC), c.mark(P(45_000)));
    const events = run(c.liquidate('alice'));
    const liquidated = events.find((e): e is PositionLiquidated => e.type === 'position_liquidated');
    expect(liquidated).toMatchObject({
      userId: 'alice',
      sizeLots: BTC,
      bookLots: BTC,
      adlLots: 0,
      bankruptcyTicks: P(45_000),
    });
    // Loss 4,900 of a 5,000 margin: the 100 left goes to the fund; alice keeps her free 5,000.
    expect(liquidated?.insuranceFund).toBe(100_000_000n);
    expect(sheetOf(engine, 'alice/contract/USDT', 'platform:insurance_fund/platform/USDT')).toEqual({
      'alice/contract/USDT': '5000.000000',
      'platform:insurance_fund/platform/USDT': '100.000000',
    });
    expect(positions(engine)).toEqual([
      ['bob', -BTC, '50000.00', '5000.00'],
      ['dave', BTC, '45100.00', '2255.00'],
    ]);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it("cancels the customer's other orders on the contract first: its own bid cannot block the close, no hold is stranded", () => {
    const m = aliceLongBobShort(['dave']);
    const { engine, c, run } = m;
    fundInsurance(m, '1000');
    // alice rests a closing sell far away and an opening bid that is the best bid; dave bids below it.
    run(c.limit('alice', 'sell', P(60_000), 500), c.limit('alice', 'buy', P(44_990), 200));
    run(c.limit('dave', 'buy', P(44_900), BTC), c.mark(P(45_000)));
    const own = engine.openOrders('alice').map((o) => o.orderId);
    expect(own).toHaveLength(2);
    // Her margin (5,000) and the bid's margin (0.2 × 44,990 ÷ 10) are held.
    expect(engine.balance('alice', 'contract', 'USDT').held).toBe(5_899_800_000n);
    const events = run(c.liquidate('alice'));
    const cancelled = events.filter((e) => e.type === 'order_updated' && e.reason === 'liquidation');
    expect(cancelled.map((e) => (e.type === 'order_updated' ? [e.orderId, e.status] : []))).toEqual([
      [own[0], 'cancelled'],
      [own[1], 'cancelled'],
    ]);
    // Her own bid gone, the liquidation sells to dave in the book (self-trade prevention would have stopped
    // it at her bid and sent the whole position to ADL).
    expect(events.find((e) => e.type === 'position_liquidated')).toMatchObject({ bookLots: BTC, adlLots: 0 });
    expect(engine.openOrders('alice')).toEqual([]);
    expect(engine.balance('alice', 'contract', 'USDT')).toMatchObject({ held: 0n, balance: 5_000_000_000n });
  });

  it('a worse fill is paid by the insurance fund, within what it holds', () => {
    const m = aliceLongBobShort(['dave']);
    const { engine, c, run } = m;
    fundInsurance(m, '1000');
    run(c.limit('dave', 'buy', P(44_800), BTC), c.mark(P(44_900)));
    const events = run(c.liquidate('alice'));
    expect(events.find((e) => e.type === 'position_liquidated')).toMatchObject({
      bookLots: BTC,
      insuranceFund: -200_000_000n,
    });
    // alice loses her margin and no more.
    expect(sheetOf(engine, 'alice/contract/USDT', 'platform:insurance_fund/platform/USDT')).toEqual({
      'alice/contract/USDT': '5000.000000',
      'platform:insurance_fund/platform/USDT': '800.000000',
    });
  });

  it('auto-deleverages the most profitable, most leveraged opposite positions when the fund cannot pay', () => {
    const m = market(['alice', 'bob', 'carol', 'dave']);
    const { engine, c, run } = m;
    run(c.setLeverage('alice', 10), c.setLeverage('bob', 10), c.setLeverage('carol', 20));
    run(c.limit('bob', 'sell', P(50_000), 500), c.limit('carol', 'sell', P(50_000), 500));
    run(c.limit('alice', 'buy', P(50_000), BTC));
    // The only bid (44,000) is below what the empty fund allows (the bankruptcy price, 45,000).
    run(c.limit('dave', 'buy', P(44_000), BTC), c.mark(P(45_000)));
    const events = run(c.liquidate('alice'));
    const adl = events.filter((e): e is AutoDeleveraged => e.type === 'auto_deleveraged');
    expect(adl.map((e) => [e.userId, e.lots, e.priceTicks, e.reason])).toEqual([
      ['carol', 500, P(45_000), 'insurance_fund_short'],
      ['bob', 500, P(45_000), 'insurance_fund_short'],
    ]);
    expect(events.find((e) => e.type === 'position_liquidated')).toMatchObject({
      bookLots: 0,
      adlLots: BTC,
      insuranceFund: 0n,
    });
    // Each short gains 2,500 at 45,000; alice loses exactly her margin.
    expect(sheetOf(engine, 'alice/contract/USDT', 'bob/contract/USDT', 'carol/contract/USDT')).toEqual({
      'alice/contract/USDT': '5000.000000',
      'bob/contract/USDT': '12500.000000',
      'carol/contract/USDT': '12500.000000',
    });
    expect(positions(engine)).toEqual([]);
    // Every transfer id is unique (the host stores them under a primary key).
    const ids = events.flatMap((e) => (e.type === 'transfer_posted' ? [e.transferId] : []));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('funding', () => {
  it.each([
    ['a positive rate: longs pay shorts', 100, '-5.000000', '5.000000'],
    ['a negative rate: shorts pay longs', -300, '15.000000', '-15.000000'],
    ['zero: nobody pays', 0, '0', '0'],
  ])('%s, through a pool that nets to zero', (_name, rate, aliceGets, bobGets) => {
    const { engine, c, run } = aliceLongBobShort();
    run(c.mark(P(50_000)));
    const events = run(c.funding(rate));
    const applied = events.find((e): e is FundingApplied => e.type === 'funding_applied');
    expect(applied?.ratePpm).toBe(rate);
    const margin = (user: string): number =>
      Number(engine.positions(PERP).find((p) => p.userId === user)?.margin) / 1e6;
    const delta = (value: number): string => (value === 5_000 ? '0' : (value - 5_000).toFixed(6));
    expect(delta(margin('alice'))).toBe(aliceGets);
    expect(delta(margin('bob'))).toBe(bobGets);
    expect(balanceSheet(engine)['platform:funding/platform/USDT']).toBeUndefined();
  });

  it('shares one payer amount among receivers by size, the rounding dust one unit each', () => {
    const m = market(['alice', 'bob', 'carol']);
    const { engine, c, run } = m;
    run(c.limit('bob', 'sell', P(33_333.3), 1), c.limit('carol', 'sell', P(33_333.3), 2));
    run(c.limit('alice', 'buy', P(33_333.3), 3), c.mark(P(33_333.3)));
    // alice pays 99.9999 × 0.0333% = 0.03329996… → 0.033299; bob gets 1/3 (0.011099 + 1), carol 2/3.
    const before = engine.positions(PERP).map((p) => p.margin);
    run(c.funding(333));
    const after = engine.positions(PERP).map((p) => p.margin);
    const change = after.map((value, i) => value - (before[i] as bigint));
    expect(change.reduce((a, b) => a + b, 0n)).toBe(0n);
    expect(change).toEqual([-33_299n, 11_100n, 22_199n]);
  });

  it('needs a mark price', () => {
    const { engine, c } = aliceLongBobShort();
    expect(rejectionOf(engine, c.funding(100))).toBe('no_liquidity');
  });
});
