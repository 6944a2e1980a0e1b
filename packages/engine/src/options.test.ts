// Scenario tables for the options family: buying pays the premium to the market maker and opens a
// position; closing early pays the bid; expiry settles a batch at intrinsic value; every refusal changes
// nothing; the section survives a snapshot and a journal round trip.
import { applyAll, applyOk, balanceSheet, CommandFactory, rejectionOf } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { type Command, decodeCommand, encodeCommand } from './commands.ts';
import { Engine } from './engine.ts';
import type { BuyOption, CloseOption, OptionSettlementEntry, SettleOptions } from './options.ts';

const EXPIRY = 1_000;
const CALL = 'NSE:NIFTY50/2026-12-04/C/25000';
const PUT = 'NSE:NIFTY50/2026-12-04/P/25000';
const MAKER = 'platform:options_maker/platform/INR';

function funded(): Engine {
  const engine = new Engine();
  const c = new CommandFactory('NSE:NIFTY50');
  applyAll(engine, [c.deposit('asha', 'INR', '50000', 'stock'), c.deposit('bala', 'INR', '20000', 'stock')]);
  return engine;
}

function buy(positionId: string, userId: string, amount: string, extra: Partial<BuyOption> = {}): BuyOption {
  return {
    id: `buy:${positionId}`,
    timeMs: 10,
    type: 'buy_option',
    positionId,
    userId,
    wallet: 'stock',
    asset: 'INR',
    amount,
    series: CALL,
    contracts: 1,
    expiresMs: EXPIRY,
    ...extra,
  };
}

function close(positionId: string, userId: string, amount: string, timeMs = 500): CloseOption {
  return { id: `close:${positionId}:${timeMs}`, timeMs, type: 'close_option', positionId, userId, amount };
}

let n = 1;
function settle(entries: OptionSettlementEntry[], timeMs = EXPIRY + 60_000): SettleOptions {
  return { id: `expiry:${n++}`, timeMs, type: 'settle_options', entries };
}

function stateOf(engine: Engine): string {
  const { window: _window, ...body } = engine.snapshot();
  return JSON.stringify(body);
}

describe('buy_option', () => {
  it('moves the premium to the market maker and opens the position', () => {
    const engine = funded();
    const events = applyOk(engine, buy('option:1', 'asha', '15000.75', { contracts: 2 }));
    expect(events).toMatchObject([
      { type: 'transfer_posted', transferId: 'option:1:premium', cause: 'option', link: 'option:1', amount: 1500075n },
    ]);
    expect(balanceSheet(engine)).toMatchObject({ 'asha/stock/INR': '34999.25', [MAKER]: '15000.75' });
    expect(engine.optionPositions()).toEqual([
      {
        positionId: 'option:1',
        userId: 'asha',
        wallet: 'stock',
        asset: 'INR',
        series: CALL,
        contracts: 2,
        premium: 1500075n,
        expiresMs: EXPIRY,
        openedMs: 10,
      },
    ]);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });
});

describe('close_option', () => {
  const table: [string, string, Record<string, string>][] = [
    // [what, bid value, sheet after]
    ['at a gain', '16000.00', { 'asha/stock/INR': '51000.00', [MAKER]: '-1000.00' }],
    ['at a loss', '4000.50', { 'asha/stock/INR': '39000.50', [MAKER]: '10999.50' }],
  ];
  for (const [what, bid, sheet] of table) {
    it(`pays the bid value from the market maker ${what} and closes the position`, () => {
      const engine = funded();
      applyOk(engine, buy('option:1', 'asha', '15000'));
      const events = applyOk(engine, close('option:1', 'asha', bid));
      expect(events).toMatchObject([{ transferId: 'option:1:close', cause: 'option', debit: MAKER }]);
      expect(balanceSheet(engine)).toMatchObject(sheet);
      expect(engine.optionPositions()).toEqual([]);
    });
  }

  it('closes at a bid of zero without a transfer', () => {
    const engine = funded();
    applyOk(engine, buy('option:1', 'asha', '100'));
    expect(applyOk(engine, close('option:1', 'asha', '0'))).toEqual([]);
    expect(engine.optionPosition('option:1')).toBeUndefined();
  });
});

describe('settle_options', () => {
  // Strike 25,000, 1 contract of 75 units: the host computes intrinsic × 75 from the underlying's close.
  const table: [string, string, string, string, string][] = [
    // [case, series, close, payout, asha's balance after (she paid 15,000)]
    ['a call in the money', CALL, '25200', '15000.00', '50000.00'],
    ['a call out of the money', CALL, '24800', '0', '35000.00'],
    ['a call at the money', CALL, '25000', '0', '35000.00'],
    ['a put in the money', PUT, '24600', '30000.00', '65000.00'],
    ['a put out of the money', PUT, '25400', '0', '35000.00'],
    ['a put at the money', PUT, '25000', '0', '35000.00'],
  ];
  for (const [what, series, _close, payout, after] of table) {
    it(`settles ${what} at intrinsic value`, () => {
      const engine = funded();
      applyOk(engine, buy('option:1', 'asha', '15000', { series }));
      applyOk(engine, settle([['option:1', payout]]));
      expect(balanceSheet(engine)['asha/stock/INR']).toBe(after);
      expect(engine.optionPositions()).toEqual([]);
      expect(engine.findBrokenInvariant()).toBeUndefined();
    });
  }

  it('settles a batch of holders in one command, the market maker going negative if it must', () => {
    const engine = funded();
    applyAll(engine, [buy('option:1', 'asha', '100'), buy('option:2', 'bala', '100', { series: PUT })]);
    applyOk(
      engine,
      settle([
        ['option:1', '50000'],
        ['option:2', '0'],
      ]),
    );
    expect(balanceSheet(engine)).toMatchObject({
      'asha/stock/INR': '99900.00',
      'bala/stock/INR': '19900.00',
      [MAKER]: '-49800.00',
    });
  });
});

describe('refusals change nothing', () => {
  const table: [string, (engine: Engine) => Command, string][] = [
    ['a buy beyond the balance', () => buy('option:9', 'bala', '20000.01'), 'insufficient_balance'],
    ['a buy by someone with no account', () => buy('option:9', 'zed', '1'), 'insufficient_balance'],
    ['a buy at the expiry', () => buy('option:9', 'asha', '1', { timeMs: EXPIRY }), 'option_expired'],
    ['a buy reusing a position id', () => buy('option:1', 'bala', '1', { id: 'other' }), 'option_exists'],
    ['a buy of zero', () => buy('option:9', 'asha', '0'), 'invalid_amount'],
    ['a buy of no contracts', () => buy('option:9', 'asha', '1', { contracts: 0 }), 'invalid_command'],
    ['a buy from the platform wallet', () => buy('option:9', 'asha', '1', { wallet: 'platform' }), 'invalid_command'],
    ['a buy in an unknown asset', () => buy('option:9', 'asha', '1', { asset: 'NOPE' }), 'unknown_asset'],
    ['a close of an unknown position', () => close('option:9', 'asha', '1'), 'option_not_found'],
    ['a close of someone else’s position', () => close('option:1', 'bala', '1'), 'option_not_found'],
    ['a close at the expiry', () => close('option:1', 'asha', '1', EXPIRY), 'option_expired'],
    ['a close at a negative value', () => close('option:1', 'asha', '-1'), 'invalid_amount'],
    ['a settlement before the expiry', () => settle([['option:1', '0']], EXPIRY - 1), 'option_not_expired'],
    ['a settlement of an unknown position', () => settle([['option:9', '0']]), 'option_not_found'],
    [
      'a settlement naming a position twice',
      () =>
        settle([
          ['option:1', '0'],
          ['option:1', '0'],
        ]),
      'invalid_command',
    ],
    ['an empty settlement', () => settle([]), 'invalid_command'],
    [
      'a settlement with a good entry before a bad one',
      () =>
        settle([
          ['option:1', '5'],
          ['option:9', '0'],
        ]),
      'option_not_found',
    ],
  ];
  for (const [what, command, code] of table) {
    it(`refuses ${what} (${code})`, () => {
      const engine = funded();
      applyOk(engine, buy('option:1', 'asha', '1000'));
      const before = stateOf(engine);
      expect(rejectionOf(engine, command(engine))).toBe(code);
      expect(stateOf(engine)).toBe(before);
    });
  }

  it('refuses a closed position: closed then closed again, or settled after a close', () => {
    const engine = funded();
    applyOk(engine, buy('option:1', 'asha', '1000'));
    applyOk(engine, close('option:1', 'asha', '500'));
    expect(rejectionOf(engine, close('option:1', 'asha', '500', 600))).toBe('option_not_found');
    expect(rejectionOf(engine, settle([['option:1', '0']]))).toBe('option_not_found');
    expect(rejectionOf(engine, buy('option:1', 'asha', '1000', { id: 'again' }))).toBe('option_exists');
  });
});

describe('durability', () => {
  it('survives a snapshot with the same hash, and a journal round trip', () => {
    const engine = funded();
    const commands: Command[] = [buy('option:1', 'asha', '1000'), buy('option:2', 'bala', '250.5', { series: PUT })];
    applyAll(engine, commands);
    const restored = Engine.restore(JSON.parse(JSON.stringify(engine.snapshot())));
    expect(restored.stateHash()).toBe(engine.stateHash());
    expect(restored.optionPositions()).toEqual(engine.optionPositions());
    applyOk(restored, close('option:1', 'asha', '900'));
    applyOk(engine, close('option:1', 'asha', '900'));
    expect(restored.stateHash()).toBe(engine.stateHash());
    for (const command of [...commands, close('option:2', 'bala', '1'), settle([['option:2', '7.5']])])
      expect(decodeCommand(encodeCommand(command))).toEqual(JSON.parse(JSON.stringify(command)));
  });

  it('leaves the hash of a state without options unchanged', () => {
    const engine = funded();
    const before = engine.stateHash();
    applyOk(engine, buy('option:1', 'asha', '1000'));
    applyOk(engine, close('option:1', 'asha', '1000'));
    expect(engine.snapshot()).not.toHaveProperty('options');
    expect(before).not.toBe(engine.stateHash()); // the premium and its refund were transfers
  });
});
