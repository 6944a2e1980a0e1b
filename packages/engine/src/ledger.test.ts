import { ASSETS } from '@bourse/money';
import { applyOk, btcUsdt, CommandFactory, tradesOf } from '@bourse/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from './engine.ts';
import { Hold, Ledger } from './ledger.ts';

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

describe('balances past 2^53 minor units', () => {
  it('stay exact on the bigint path and come back to the fast path once safe again', () => {
    const ledger = new Ledger();
    const whale = ledger.account('whale', 'spot', ASSETS.ETH);
    const faucet = ledger.platform('faucet', ASSETS.ETH);
    ledger.move(faucet, whale, SAFE, 't1', 'deposit', 'l', 0);
    expect(whale.isOnFastPath).toBe(true);
    ledger.move(faucet, whale, 2n, 't2', 'deposit', 'l', 0);
    expect(whale.balance).toBe(SAFE + 2n);
    expect(whale.isOnFastPath).toBe(false);
    expect(faucet.isOnFastPath).toBe(false);
    ledger.move(whale, faucet, 3n, 't3', 'withdrawal', 'l', 0);
    expect(whale.balance).toBe(SAFE - 1n);
    expect(whale.isOnFastPath).toBe(true);
    expect(faucet.balance).toBe(-(SAFE - 1n));
    expect(faucet.isOnFastPath).toBe(true);
    expect(ledger.findBrokenInvariant()).toBeUndefined();
  });

  it('follow a bigint model through any walk across ±2^53, on the fast path exactly when both are safe', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.bigInt({ min: 1n, max: 2n * SAFE })), { minLength: 1, maxLength: 40 }),
        (steps) => {
          const ledger = new Ledger();
          const user = ledger.account('u', 'spot', ASSETS.ETH);
          const faucet = ledger.platform('faucet', ASSETS.ETH);
          let model = 0n;
          steps.forEach(([up, amount], i) => {
            if (!up && model < amount) return;
            if (up) ledger.move(faucet, user, amount, `t${i}`, 'deposit', 'l', 0);
            else ledger.move(user, faucet, amount, `t${i}`, 'withdrawal', 'l', 0);
            model += up ? amount : -amount;
            expect(user.balance).toBe(model);
            expect(faucet.balance).toBe(-model);
            expect(user.isOnFastPath).toBe(model <= SAFE);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('holds past 2^53 come back to a number once safe again', () => {
    const ledger = new Ledger();
    const account = ledger.account('u', 'spot', ASSETS.ETH);
    const hold = new Hold('h', 'funds', account, SAFE + 10n, 'withdrawal', 'l');
    expect(hold.remainingNumber()).toBe(-1);
    hold.subtract(11n);
    expect(hold.remaining).toBe(SAFE - 1n);
    expect(hold.remainingNumber()).toBe(Number(SAFE - 1n));
    hold.remaining = SAFE + 1n;
    expect(hold.remainingNumber()).toBe(-1);
    hold.subtractN(2);
    expect(hold.remainingNumber()).toBe(Number(SAFE - 1n));
  });

  it('an ETH account (18 decimals) that passed 2^53 trades on the fast path again after a withdrawal', () => {
    const engine = new Engine();
    const c = new CommandFactory('ETH-USDT');
    applyOk(engine, c.register(btcUsdt({ id: 'ETH-USDT', base: 'ETH' })));
    // 0.01 ETH is 10^16 minor units, past 2^53 (~9.007 × 10^15).
    applyOk(engine, c.deposit('whale', 'ETH', '0.01'));
    const account = () => engine.accounts().find((a) => a.key === 'whale/spot/ETH');
    expect(account()?.isOnFastPath).toBe(false);
    applyOk(engine, {
      id: 'w1',
      timeMs: 5_000,
      type: 'hold_funds',
      userId: 'whale',
      wallet: 'spot',
      asset: 'ETH',
      amount: '0.009',
      cause: 'withdrawal',
    });
    applyOk(engine, { id: 'w2', timeMs: 5_001, type: 'post_hold', holdId: 'w1', to: 'rail:upi' });
    expect(engine.balance('whale', 'spot', 'ETH').balance).toBe(10n ** 15n);
    expect(account()?.isOnFastPath).toBe(true);
    applyOk(engine, c.deposit('buyer', 'USDT', '1000'));
    applyOk(engine, c.limit('whale', 'sell', 300_000, 10));
    expect(tradesOf(applyOk(engine, c.limit('buyer', 'buy', 300_000, 10)))).toEqual([[300_000, 10, 1, 2]]);
    expect(engine.balance('whale', 'spot', 'ETH').balance).toBe(0n);
    expect(engine.balance('buyer', 'spot', 'ETH').balance).toBe(10n ** 15n);
    expect(account()?.isOnFastPath).toBe(true);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });
});
