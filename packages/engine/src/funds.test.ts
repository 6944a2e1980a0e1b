import {
  applyAll,
  applyOk,
  balanceSheet,
  btcUsdt,
  CommandFactory,
  placedId,
  rejectionOf,
  reliance,
  tradesOf,
} from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { type Command, decodeCommand, encodeCommand } from './commands.ts';
import { Engine } from './engine.ts';
import type { Deposit, HoldFunds, PlatformTransfer, PostHold } from './funds.ts';

// BTC-USDT: 6,000,000 ticks = 60,000.00 USDT, lots of 0.0001 BTC.
const P60000 = 6_000_000;

function market(options: { rememberedCommandsMax?: number } = {}): { engine: Engine; c: CommandFactory } {
  const engine = new Engine(options);
  const c = new CommandFactory('BTC-USDT');
  applyAll(engine, [c.register(btcUsdt()), c.deposit('alice', 'USDT', '100000'), c.deposit('bob', 'BTC', '1')]);
  return { engine, c };
}

const withdrawal = (id: string, amount: string): HoldFunds => ({
  id,
  timeMs: 10,
  type: 'hold_funds',
  userId: 'alice',
  wallet: 'spot',
  asset: 'USDT',
  amount,
  cause: 'withdrawal',
});

describe('ids the engine names its own transfers and holds by', () => {
  // An order's hold, a fill's transfers, a T+1 settlement lock; `k` keeps each command's id its own (the
  // window would answer a second body under one id with command_id_reused before anything else).
  const owned = (k: number) => [`order#${k}`, `trade:${k}:quote`, `trade:${k}`, `settle:NSE:TCS:${k}`];

  it('are refused as the id of a deposit, a wallet transfer, a funds hold or a posting, changing nothing', () => {
    const { engine, c } = market();
    applyOk(engine, withdrawal('w1', '10'));
    // Everything but the window (which remembers refused commands too, so that a retry answers the same).
    const withoutWindow = () => {
      const { window: _window, ...body } = engine.snapshot();
      return JSON.stringify(body);
    };
    const before = withoutWindow();
    const commands = (k: number): ((id: string) => Command)[] => [
      (id) => ({ ...c.deposit('alice', 'USDT', '5'), id }),
      (id) => ({ ...c.walletTransfer('alice', 'USDT', 'spot', 'stock', '5'), id }),
      (id) => withdrawal(id, '5'),
      (id) => ({ id, timeMs: 11 + k, type: 'post_hold', holdId: 'w1', to: 'rail:upi', amount: '1' }),
    ];
    for (let k = 0; k < 4; k++) {
      const make = commands(k)[k] as (id: string) => Command;
      for (const id of owned(k + 1)) {
        const command = make(id);
        expect(rejectionOf(engine, command), `${command.type} ${id}`).toBe('invalid_command');
      }
    }
    expect(withoutWindow()).toBe(before);
    expect(balanceSheet(engine)).toMatchObject({ 'alice/spot/USDT': '100000.000000 held 10.000000' });
  });

  it('so a deposit named like the next order hold cannot stop order entry', () => {
    const { engine, c } = market();
    expect(rejectionOf(engine, { ...c.deposit('alice', 'USDT', '1'), id: 'order#1' })).toBe('invalid_command');
    // Before, the deposit took `order#1`: order 1's hold id was used, and every order after it was refused
    // with transfer_id_reused, since the next order id never moved past 1.
    const first = placedId(applyOk(engine, c.limit('alice', 'buy', P60000, 10)));
    const second = placedId(applyOk(engine, c.limit('bob', 'sell', P60000 + 100, 10)));
    expect([first, second]).toEqual([1, 2]);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('so a funds hold named like a future settlement lock cannot stop that fill half way', () => {
    const engine = new Engine();
    const c = new CommandFactory('NSE:TCS');
    applyAll(engine, [
      c.register(reliance({ id: 'NSE:TCS', base: 'SHARE:NSE:TCS', lockBoughtUntilSettled: true })),
      c.deposit('buyer', 'INR', '10000', 'stock'),
      { ...c.deposit('seller', 'SHARE:NSE:TCS', '10', 'stock'), from: 'issuer:NSE', cause: 'allotment' },
    ]);
    const lockOfTradeOne: Command = {
      id: 'settle:NSE:TCS:1',
      timeMs: 5,
      type: 'hold_funds',
      userId: 'buyer',
      wallet: 'stock',
      asset: 'INR',
      amount: '1',
      cause: 'withdrawal',
    };
    expect(rejectionOf(engine, lockOfTradeOne)).toBe('invalid_command');
    // Before, that id was taken: trade 1's lock could not be made and apply() threw after the fill's
    // transfers, leaving the seller's order out of the book but live.
    const sell = placedId(applyOk(engine, c.limit('seller', 'sell', 2_000, 1)));
    const events = applyOk(engine, c.limit('buyer', 'buy', 2_000, 1));
    expect(tradesOf(events).map(([price, lots, maker]) => [price, lots, maker])).toEqual([[2_000, 1, sell]]);
    // The bought share is locked until T+1.
    expect(engine.balance('buyer', 'stock', 'SHARE:NSE:TCS')).toMatchObject({ balance: 1n, available: 0n });
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });
});

describe('posting a funds hold', () => {
  const post = (id: string, amount?: string): PostHold => ({
    id,
    timeMs: 20,
    type: 'post_hold',
    holdId: 'w1',
    to: 'rail:upi',
    ...(amount === undefined ? {} : { amount }),
  });
  /** Commands that push earlier ones out of a window of 4. */
  const pushOut = (engine: Engine, c: CommandFactory) => {
    for (let i = 0; i < 6; i++) applyOk(engine, c.deposit('carol', 'USDT', '1'));
  };

  it('is idempotent by its id after the command window forgot it: a retry pays nothing twice', () => {
    const { engine, c } = market({ rememberedCommandsMax: 4 });
    applyOk(engine, withdrawal('w1', '50'));
    const first = engine.apply(post('w1:post', '20'));
    expect(first.ok).toBe(true);
    pushOut(engine, c);
    // Answered from the ledger's used ids, not the window: the same posting, money not moved again.
    const retry = engine.apply({ ...post('w1:post', '20'), timeMs: 99 });
    expect(retry.ok && retry.events).toEqual(first.ok && first.events);
    expect(balanceSheet(engine)).toMatchObject({
      'alice/spot/USDT': '99980.000000 held 30.000000',
      'platform:rail:upi/platform/USDT': '20.000000',
    });
    // The same id with another body is refused, as for any transfer id (the retry is in the window
    // again: push it out, so that the ledger answers).
    pushOut(engine, c);
    expect(rejectionOf(engine, post('w1:post', '21'))).toBe('transfer_id_reused');
    pushOut(engine, c);
    expect(rejectionOf(engine, post('w1:post'))).toBe('transfer_id_reused');
    pushOut(engine, c);
    // So after a snapshot: the used ids travel with it.
    const restored = Engine.restore(engine.snapshot());
    expect(restored.stateHash()).toBe(engine.stateHash());
    const again = restored.apply(post('w1:post', '20'));
    expect(again.ok && again.events).toEqual(first.ok && first.events);
    expect(restored.balance('platform:rail:upi', 'platform', 'USDT').balance).toBe(20_000_000n);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('in full answers its first posting when retried after the hold has closed', () => {
    const { engine, c } = market({ rememberedCommandsMax: 4 });
    applyOk(engine, withdrawal('w1', '50'));
    const first = engine.apply(post('w1:all'));
    pushOut(engine, c);
    expect(rejectionOf(engine, { id: 'w1:void', timeMs: 30, type: 'void_hold', holdId: 'w1' })).toBe('hold_not_found');
    const retry = engine.apply(post('w1:all'));
    expect(retry.ok && retry.events).toEqual(first.ok && first.events);
    expect(engine.balance('platform:rail:upi', 'platform', 'USDT').balance).toBe(50_000_000n);
  });

  it("is refused under another transfer's id, moving nothing", () => {
    const { engine, c } = market({ rememberedCommandsMax: 4 });
    const deposit = c.deposit('alice', 'USDT', '1');
    applyOk(engine, deposit);
    applyOk(engine, withdrawal('w1', '50'));
    pushOut(engine, c);
    // The window has forgotten the deposit's command; the ledger still knows its transfer id.
    expect(rejectionOf(engine, post(deposit.id, '20'))).toBe('transfer_id_reused');
    expect(engine.balance('alice', 'spot', 'USDT').held).toBe(50_000_000n);
    expect(engine.balance('platform:rail:upi', 'platform', 'USDT').balance).toBe(0n);
  });
});

describe('refusals of the funds commands', () => {
  it('each answer their code and change nothing', () => {
    // A window of 4: the refusals before them have pushed the `old` deposits out when their ids come back,
    // so that the ledger answers transfer_id_reused rather than the window command_id_reused.
    const { engine, c } = market({ rememberedCommandsMax: 4 });
    const old = [c.deposit('dave', 'USDT', '1'), c.deposit('dave', 'USDT', '2'), c.deposit('dave', 'USDT', '3')];
    applyAll(engine, old);
    applyOk(engine, withdrawal('w1', '10'));
    const withoutWindow = () => {
      const { window: _window, ...body } = engine.snapshot();
      return JSON.stringify(body);
    };
    const before = withoutWindow();
    const cases: [Command, string][] = [
      [{ ...c.deposit('alice', 'USDT', '5'), userId: 'a/b' }, 'invalid_user'],
      [{ ...c.deposit('alice', 'USDT', '5'), asset: 'XYZ' }, 'unknown_asset'],
      [c.deposit('alice', 'USDT', '0'), 'invalid_amount'],
      [c.deposit('alice', 'USDT', '-1'), 'invalid_amount'],
      [c.deposit('alice', 'USDT', '0.0000001'), 'invalid_amount'],
      [{ ...c.deposit('alice', 'USDT', '5'), from: 'nobody' } as unknown as Command, 'invalid_command'],
      [{ ...c.deposit('alice', 'USDT', '5'), cause: 'gift' } as unknown as Command, 'invalid_command'],
      [c.walletTransfer('alice', 'USDT', 'spot', 'spot', '5'), 'same_account'],
      [c.walletTransfer('alice', 'USDT', 'spot', 'stock', '100000'), 'insufficient_balance'],
      [c.walletTransfer('alice', 'USDT', 'spot', 'stock', '1.1234567'), 'invalid_amount'],
      [withdrawal('w2', '99991'), 'insufficient_balance'],

      [{ id: 'p1', timeMs: 30, type: 'post_hold', holdId: 'w1', to: 'rail:upi', amount: '11' }, 'hold_amount_exceeded'],
      [
        { id: 'p2', timeMs: 30, type: 'post_hold', holdId: 'w1', to: 'nobody' } as unknown as Command,
        'invalid_command',
      ],
      [{ id: 'p3', timeMs: 30, type: 'post_hold', holdId: 'w9', to: 'rail:upi' }, 'hold_not_found'],
      [{ id: 'p4', timeMs: 30, type: 'post_hold', holdId: 'w1', to: 'rail:upi', amount: 'x' }, 'invalid_amount'],
      [{ id: 'v1', timeMs: 30, type: 'void_hold', holdId: 'w9' }, 'hold_not_found'],
      [withdrawal((old[0] as Command).id, '5'), 'transfer_id_reused'],
      [{ ...(old[1] as Deposit), userId: 'erin' }, 'transfer_id_reused'],
      [
        { ...c.walletTransfer('alice', 'USDT', 'spot', 'stock', '1'), id: (old[2] as Command).id },
        'transfer_id_reused',
      ],
      // From a user never seen, and from a wallet never used: refused without opening either.
      [{ ...c.walletTransfer('frank', 'USDT', 'spot', 'stock', '1') }, 'insufficient_balance'],
      [{ ...withdrawal('w3', '1'), userId: 'frank' }, 'insufficient_balance'],
      [{ ...withdrawal('w4', '1'), wallet: 'fund' }, 'insufficient_balance'],
    ];
    for (const [command, code] of cases) {
      expect(rejectionOf(engine, command), JSON.stringify(command)).toBe(code);
      expect(withoutWindow(), JSON.stringify(command)).toBe(before);
    }
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });
});

describe('posting a funds hold with a fee leg (a withdrawal paid out)', () => {
  const paid = (id: string, fee: string | undefined, amount?: string): PostHold => ({
    id,
    timeMs: 20,
    type: 'post_hold',
    holdId: 'w1',
    to: 'rail:chain_eth',
    ...(amount === undefined ? {} : { amount }),
    ...(fee === undefined ? {} : { fee }),
  });

  it('sends amount − fee to the rail and the fee to `fees` in one step, both linked to the hold', () => {
    const { engine } = market();
    applyOk(engine, { ...withdrawal('w1', '50'), link: 'withdrawal:7' });
    const events = applyOk(engine, paid('w1:paid', '1.5'));
    expect(events.map((e) => e.type === 'transfer_posted' && [e.transferId, e.amount, e.cause, e.link])).toEqual([
      ['w1:paid', 48_500_000n, 'withdrawal', 'withdrawal:7'],
      ['w1:paid:fee', 1_500_000n, 'fee', 'withdrawal:7'],
    ]);
    expect(balanceSheet(engine)).toMatchObject({
      'alice/spot/USDT': '99950.000000',
      'platform:rail:chain_eth/platform/USDT': '48.500000',
      'platform:fees/platform/USDT': '1.500000',
    });
    // The hold is gone: posted in full.
    expect(engine.fundsHold('w1')).toBeUndefined();
    expect(engine.transferPosted('w1:paid:fee')).toBe(true);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('answers a retry with both lines and moves nothing again, also after a snapshot', () => {
    const { engine, c } = market({ rememberedCommandsMax: 4 });
    applyOk(engine, withdrawal('w1', '50'));
    const first = applyOk(engine, paid('w1:paid', '2'));
    for (let i = 0; i < 6; i++) applyOk(engine, c.deposit('carol', 'USDT', '1'));
    const restored = Engine.restore(engine.snapshot());
    for (const e of [engine, restored]) {
      const retry = e.apply({ ...paid('w1:paid', '2'), timeMs: 99 });
      expect(retry.ok && retry.events).toEqual(first);
      expect(e.balance('platform:fees', 'platform', 'USDT').balance).toBe(2_000_000n);
      expect(e.balance('platform:rail:chain_eth', 'platform', 'USDT').balance).toBe(48_000_000n);
    }
    // The same id with another fee is another body: refused (here by the window, which has the retry).
    expect(rejectionOf(engine, paid('w1:paid', '3'))).toBe('command_id_reused');
    for (let i = 0; i < 6; i++) applyOk(engine, c.deposit('carol', 'USDT', '1'));
    expect(rejectionOf(engine, paid('w1:paid', '3'))).toBe('transfer_id_reused');
  });

  it('takes the fee from a partial posting, leaving the rest held', () => {
    const { engine } = market();
    applyOk(engine, withdrawal('w1', '50'));
    applyOk(engine, paid('w1:part', '1', '20'));
    expect(balanceSheet(engine)).toMatchObject({
      'alice/spot/USDT': '99980.000000 held 30.000000',
      'platform:rail:chain_eth/platform/USDT': '19.000000',
      'platform:fees/platform/USDT': '1.000000',
    });
  });

  it.each([
    ['a fee as large as the amount', '50', 'invalid_amount'],
    ['a fee larger than the amount', '60', 'invalid_amount'],
    ['a zero fee', '0', 'invalid_amount'],
    ['a fee finer than the asset', '0.0000001', 'invalid_amount'],
  ])('refuses %s, changing nothing', (_name, fee, code) => {
    const { engine } = market();
    applyOk(engine, withdrawal('w1', '50'));
    const before = JSON.stringify(balanceSheet(engine));
    expect(rejectionOf(engine, paid('w1:paid', fee))).toBe(code);
    expect(JSON.stringify(balanceSheet(engine))).toBe(before);
    expect(engine.fundsHold('w1')?.remaining).toBe(50_000_000n);
  });

  it('survives the journal: the compact line carries the fee', () => {
    const command = paid('w1:paid', '1.25');
    expect(decodeCommand(encodeCommand(command))).toEqual(command);
  });
});

describe('a platform transfer (the insurance fund seeded from platform liquidity)', () => {
  const seed = (overrides: Partial<PlatformTransfer> = {}): PlatformTransfer => ({
    id: 'seed:insurance',
    timeMs: 10,
    type: 'platform_transfer',
    from: 'liquidity',
    to: 'insurance_fund',
    asset: 'USDT',
    amount: '250000',
    cause: 'liquidation',
    link: 'insurance-seed',
    ...overrides,
  });

  it('moves between two platform accounts once, journals compactly, and a repeat changes nothing', () => {
    const { engine } = market();
    const result = engine.apply(seed());
    expect(result.ok).toBe(true);
    expect(result.ok && result.events[0]).toMatchObject({
      type: 'transfer_posted',
      debit: 'platform:liquidity/platform/USDT',
      credit: 'platform:insurance_fund/platform/USDT',
      amount: 250_000_000_000n,
      cause: 'liquidation',
      link: 'insurance-seed',
    });
    expect(engine.balance('platform:insurance_fund', 'platform', 'USDT').balance).toBe(250_000_000_000n);
    engine.apply(seed());
    expect(engine.balance('platform:insurance_fund', 'platform', 'USDT').balance).toBe(250_000_000_000n);
    const line = encodeCommand(seed());
    expect(line.startsWith('~')).toBe(true);
    expect(decodeCommand(line)).toEqual(JSON.parse(JSON.stringify(seed())));
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('refuses the engine’s own pools, one account to itself, and bad amounts, with nothing moved', () => {
    const { engine } = market();
    const refusals: [Partial<PlatformTransfer>, string][] = [
      [{ from: 'clearing' as never }, 'invalid_command'],
      [{ to: 'funding' as never }, 'invalid_command'],
      [{ to: 'liquidity' }, 'same_account'],
      [{ amount: '0' }, 'invalid_amount'],
      [{ amount: '-5' }, 'invalid_amount'],
      [{ asset: 'NOPE' }, 'unknown_asset'],
      [{ cause: 'nonsense' as never }, 'invalid_command'],
      [{ id: 'order#9' }, 'invalid_command'],
    ];
    for (const [overrides, code] of refusals)
      expect(
        rejectionOf(engine, seed({ id: `seed:${code}:${JSON.stringify(overrides)}`, ...overrides })),
        JSON.stringify(overrides),
      ).toBe(code);
    expect(engine.balance('platform:insurance_fund', 'platform', 'USDT').balance).toBe(0n);
  });
});

describe('a loan on its own platform account (decision 0039)', () => {
  it('pays out, charges interest and is repaid with existing commands: the loan account ends at zero', () => {
    const { engine } = market();
    const at = (n: number) => ({ timeMs: 100 + n });
    const payOut: Deposit = {
      id: 'loan:7:disburse',
      ...at(1),
      type: 'deposit',
      userId: 'carol',
      wallet: 'spot',
      asset: 'USDT',
      amount: '1000',
      from: 'loan:7',
      cause: 'loan',
      link: 'loan:7',
    };
    const interest = (day: number): PlatformTransfer => ({
      id: `loan:7:interest:${day}`,
      ...at(1 + day),
      type: 'platform_transfer',
      from: 'loan:7',
      to: 'fees',
      asset: 'USDT',
      amount: '0.5',
      cause: 'interest',
      link: 'loan:7',
    });
    const hold: HoldFunds = {
      id: 'loan:7:repay:hold',
      ...at(10),
      type: 'hold_funds',
      userId: 'carol',
      wallet: 'spot',
      asset: 'USDT',
      amount: '1001',
      cause: 'loan_repayment',
      link: 'loan:7',
    };
    const post: PostHold = {
      id: 'loan:7:repay',
      ...at(11),
      type: 'post_hold',
      holdId: 'loan:7:repay:hold',
      to: 'loan:7',
    };
    applyAll(engine, [payOut, interest(1), interest(2)]);
    // A retried day posts nothing twice.
    applyAll(engine, [{ ...interest(2), timeMs: 200 }]);
    expect(engine.balance('platform:loan:7', 'platform', 'USDT').balance).toBe(-1_001_000_000n);
    expect(engine.balance('carol', 'spot', 'USDT').balance).toBe(1_000_000_000n);
    // Carol needs the interest on top of what she borrowed.
    applyAll(engine, [
      {
        id: 'top-up',
        timeMs: 150,
        type: 'deposit',
        userId: 'carol',
        wallet: 'spot',
        asset: 'USDT',
        amount: '1',
        from: 'faucet',
        cause: 'paper_grant',
      },
    ] as Deposit[]);
    applyAll(engine, [hold, post]);
    expect(engine.balance('platform:loan:7', 'platform', 'USDT').balance).toBe(0n);
    expect(engine.balance('carol', 'spot', 'USDT').balance).toBe(0n);
    expect(engine.balance('platform:fees', 'platform', 'USDT').balance).toBe(1_000_000n);
    // The journal codes the new causes compactly (no JSON fallback) and reads them back.
    for (const command of [payOut, hold]) {
      const line = encodeCommand(command);
      expect(line.includes('*'), line).toBe(false);
      expect(decodeCommand(line)).toEqual(command);
    }
  });
});
