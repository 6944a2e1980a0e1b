import { applyAll, applyOk, balanceSheet, CommandFactory, rejectionOf } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import type { AllotmentEntry, SettleAllotment } from './allotments.ts';
import { type Command, decodeCommand, encodeCommand } from './commands.ts';
import { Engine } from './engine.ts';
import type { HoldFunds } from './funds.ts';

// An IPO of NEWCO on NSE: lots of 100 shares at ₹145, so one lot is ₹14,500. Applications hold INR in
// the stock wallet; the draw's outcome comes in as one settle_allotment.
const SHARE = 'SHARE:NSE:NEWCO';

function subscribed(): { engine: Engine; c: CommandFactory } {
  const engine = new Engine();
  const c = new CommandFactory('NSE:NEWCO');
  applyAll(engine, [
    c.deposit('asha', 'INR', '50000', 'stock'),
    c.deposit('bala', 'INR', '50000', 'stock'),
    c.deposit('chen', 'INR', '50000', 'stock'),
    apply('ipo:1:asha', 'asha', '29000'), // two lots at the top of the band
    apply('ipo:1:bala', 'bala', '14500'),
    apply('ipo:1:chen', 'chen', '14500'),
  ]);
  return { engine, c };
}

function apply(id: string, userId: string, amount: string): HoldFunds {
  return {
    id,
    timeMs: 5,
    type: 'hold_funds',
    userId,
    wallet: 'stock',
    asset: 'INR',
    amount,
    cause: 'allotment',
    link: 'ipo:1',
  };
}

let next = 1;
function settle(entries: AllotmentEntry[], extra: Partial<SettleAllotment> = {}): SettleAllotment {
  return {
    id: `allot-${next++}`,
    timeMs: 10,
    type: 'settle_allotment',
    to: 'issuer:newco',
    asset: SHARE,
    wallet: 'stock',
    lock: true,
    entries,
    ...extra,
  };
}

/** Everything but the command window (which remembers refused commands too). */
function stateOf(engine: Engine): string {
  const { window: _window, ...body } = engine.snapshot();
  return JSON.stringify(body);
}

describe('settle_allotment', () => {
  it('pays the allotted part to the issuer, delivers locked shares and releases the rest, in one step', () => {
    const { engine } = subscribed();
    const events = applyOk(
      engine,
      settle([
        ['ipo:1:asha', '14500', '100'], // one lot of the two she bid for
        ['ipo:1:bala', '0', '0'], // not drawn
        ['ipo:1:chen', '14500', '100'],
      ]),
    );
    expect(balanceSheet(engine)).toEqual({
      'asha/stock/INR': '35500.00',
      'asha/stock/SHARE:NSE:NEWCO': '100 held 100',
      'bala/stock/INR': '50000.00',
      'chen/stock/INR': '35500.00',
      'chen/stock/SHARE:NSE:NEWCO': '100 held 100',
      'platform:faucet/platform/INR': '-150000.00',
      'platform:issuer:newco/platform/INR': '29000.00',
      'platform:issuer:newco/platform/SHARE:NSE:NEWCO': '-200',
    });
    expect(events.map((e) => e.type)).toEqual([
      'transfer_posted',
      'transfer_posted',
      'hold_placed',
      'hold_released',
      'hold_released',
      'transfer_posted',
      'transfer_posted',
      'hold_placed',
    ]);
    // On listing day the host releases each lock with void_hold.
    applyOk(engine, { id: 'list-1', timeMs: 20, type: 'void_hold', holdId: 'lock:ipo:1:asha' });
    expect(balanceSheet(engine)['asha/stock/SHARE:NSE:NEWCO']).toBe('100');
  });

  it('without lock, credits a coin offering straight to the spot wallet', () => {
    const engine = new Engine();
    const c = new CommandFactory('BTC-USDT');
    applyAll(engine, [
      c.deposit('asha', 'USDT', '1000'),
      {
        id: 'ico:1:asha',
        timeMs: 5,
        type: 'hold_funds',
        userId: 'asha',
        wallet: 'spot',
        asset: 'USDT',
        amount: '1000',
        cause: 'allotment',
      },
    ]);
    applyOk(
      engine,
      settle([['ico:1:asha', '250.5', '0.501']], { asset: 'BTC', wallet: 'spot', lock: false, to: 'issuer:launchpad' }),
    );
    expect(balanceSheet(engine)).toMatchObject({
      'asha/spot/USDT': '749.500000',
      'asha/spot/BTC': '0.50100000',
      'platform:issuer:launchpad/platform/USDT': '250.500000',
    });
  });

  const refusals: [string, () => SettleAllotment, string][] = [
    ['pays more than the hold', () => settle([['ipo:1:bala', '14500.0001', '100']]), 'allocation_invalid'],
    [
      'names a hold twice',
      () =>
        settle([
          ['ipo:1:bala', '100', '1'],
          ['ipo:1:bala', '100', '1'],
        ]),
      'allocation_invalid',
    ],
    ['names an unknown hold', () => settle([['ipo:9:zed', '0', '0']]), 'allocation_invalid'],
    ['delivers without payment', () => settle([['ipo:1:bala', '0', '100']]), 'allocation_invalid'],
    ['takes payment without delivery', () => settle([['ipo:1:bala', '14500', '0']]), 'allocation_invalid'],
    ['has a fractional share', () => settle([['ipo:1:bala', '14500', '100.5']]), 'allocation_invalid'],
    ['has a negative amount', () => settle([['ipo:1:bala', '-1', '1']]), 'allocation_invalid'],
    ['has no entries', () => settle([]), 'allocation_invalid'],
    [
      'pays to a platform account that is not an issuer',
      () => settle([['ipo:1:bala', '0', '0']], { to: 'fees' }),
      'invalid_command',
    ],
    [
      'delivers to the platform wallet',
      () => settle([['ipo:1:bala', '0', '0']], { wallet: 'platform' }),
      'invalid_command',
    ],
    ['names an unknown asset', () => settle([['ipo:1:bala', '0', '0']], { asset: 'NOPE' }), 'unknown_asset'],
  ];
  for (const [what, command, code] of refusals) {
    it(`is refused when it ${what}, changing nothing (a good entry before a bad one moves nothing either)`, () => {
      const { engine } = subscribed();
      const before = stateOf(engine);
      const bad = command();
      const withGoodFirst = {
        ...bad,
        id: `${bad.id}-b`,
        entries: [['ipo:1:asha', '14500', '100'] as AllotmentEntry, ...bad.entries],
      };
      expect(rejectionOf(engine, bad)).toBe(code);
      if (bad.entries.length > 0 && code === 'allocation_invalid')
        expect(rejectionOf(engine, withGoodFirst)).toBe(code);
      expect(stateOf(engine)).toBe(before);
    });
  }

  it('settles each hold once: a second batch naming a settled hold is refused', () => {
    const { engine } = subscribed();
    applyOk(engine, settle([['ipo:1:asha', '14500', '100']]));
    expect(rejectionOf(engine, settle([['ipo:1:asha', '0', '0']]))).toBe('allocation_invalid');
  });

  it('journals and replays to the same state', () => {
    const { engine } = subscribed();
    const command: Command = settle([
      ['ipo:1:asha', '29000', '200'],
      ['ipo:1:bala', '0', '0'],
    ]);
    const line = encodeCommand(command);
    expect(decodeCommand(line)).toEqual(command);
    const replayed = subscribed().engine;
    applyOk(engine, command);
    applyOk(replayed, decodeCommand(line));
    expect(stateOf(replayed)).toBe(stateOf(engine));
  });
});
