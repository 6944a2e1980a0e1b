import { applyAll, applyOk, balanceSheet, CommandFactory, rejectionOf } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { decodeCommand, encodeCommand } from './commands.ts';
import type { Convert } from './convert.ts';
import { Engine } from './engine.ts';

// Given alice with 1,000.00 USD and 50.00 BRL in her stock wallet, and the platform's FX exchange account.
function desk(): { engine: Engine; c: CommandFactory } {
  const engine = new Engine();
  const c = new CommandFactory('unused');
  applyAll(engine, [c.deposit('alice', 'USD', '1000', 'stock'), c.deposit('alice', 'BRL', '50', 'stock')]);
  return { engine, c };
}

const usdToBrl = (id: string, amount: string, toAmount: string, overrides: Partial<Convert> = {}): Convert => ({
  id,
  timeMs: 5_000,
  type: 'convert',
  userId: 'alice',
  wallet: 'stock',
  asset: 'USD',
  amount,
  toAsset: 'BRL',
  toAmount,
  via: 'exchange:fx',
  link: `exchange_quote:${id}`,
  ...overrides,
});

describe('convert', () => {
  it('pays the user asset to the exchange account and the other asset back, in one step, both legs linked', () => {
    const { engine } = desk();
    const events = applyOk(engine, usdToBrl('q1', '100.00', '532.10'));
    expect(events).toMatchObject([
      {
        type: 'transfer_posted',
        transferId: 'q1:pay',
        debit: 'alice/stock/USD',
        credit: 'platform:exchange:fx/platform/USD',
        amount: 10_000n,
        cause: 'convert',
        link: 'exchange_quote:q1',
      },
      {
        type: 'transfer_posted',
        transferId: 'q1:receive',
        debit: 'platform:exchange:fx/platform/BRL',
        credit: 'alice/stock/BRL',
        amount: 53_210n,
        cause: 'convert',
        link: 'exchange_quote:q1',
      },
    ]);
    expect(balanceSheet(engine)).toMatchObject({
      'alice/stock/USD': '900.00',
      'alice/stock/BRL': '582.10',
      'platform:exchange:fx/platform/USD': '100.00',
      'platform:exchange:fx/platform/BRL': '-532.10',
    });
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('answers a retry with the first two transfers and moves nothing again, even after the window forgot it', () => {
    const engine = new Engine({ rememberedCommandsMax: 1 });
    const c = new CommandFactory('unused');
    applyAll(engine, [c.deposit('alice', 'USD', '1000', 'stock')]);
    const first = applyOk(engine, usdToBrl('q1', '100.00', '532.10'));
    applyOk(engine, c.deposit('bob', 'USD', '1', 'stock')); // pushes q1 out of a window of one
    const again = applyOk(engine, { ...usdToBrl('q1', '100.00', '532.10'), timeMs: 9_000 });
    expect(again).toEqual(first);
    expect(balanceSheet(engine)).toMatchObject({ 'alice/stock/USD': '900.00', 'alice/stock/BRL': '532.10' });
    // The same id with another body is refused by the ledger once the window has forgotten the id too.
    applyOk(engine, c.deposit('bob', 'USD', '1', 'stock'));
    expect(rejectionOf(engine, usdToBrl('q1', '100.00', '600.00'))).toBe('transfer_id_reused');
    expect(balanceSheet(engine)).toMatchObject({ 'alice/stock/USD': '900.00', 'alice/stock/BRL': '532.10' });
  });

  it('refuses what the user cannot pay, and bad commands, changing nothing and opening no account', () => {
    const { engine } = desk();
    const before = balanceSheet(engine);
    const accountsBefore = engine.accounts().length;
    const cases: [Convert, string][] = [
      [usdToBrl('r1', '1000.01', '5000.00'), 'insufficient_balance'],
      [usdToBrl('r2', '10.00', '50.00', { userId: 'nobody' }), 'insufficient_balance'],
      [usdToBrl('r3', '10.00', '10.00', { toAsset: 'USD' }), 'same_asset'],
      [usdToBrl('r4', '10.00', '50.00', { toAsset: 'XYZ' }), 'unknown_asset'],
      [usdToBrl('r5', '0', '50.00'), 'invalid_amount'],
      [usdToBrl('r6', '10.001', '50.00'), 'invalid_amount'],
      [usdToBrl('r7', '10.00', '50.00', { via: 'alice' as Convert['via'] }), 'invalid_command'],
      [usdToBrl('r8', '10.00', '50.00', { wallet: 'platform' }), 'invalid_command'],
      [usdToBrl('trade:9:quote', '10.00', '50.00'), 'invalid_command'],
    ];
    for (const [command, code] of cases) expect(rejectionOf(engine, command), command.id).toBe(code);
    expect(balanceSheet(engine)).toEqual(before);
    expect(engine.accounts().length).toBe(accountsBefore);
  });

  it('is journaled compactly and replays to the same state hash; a snapshot keeps its idempotency', () => {
    const { engine } = desk();
    const command = usdToBrl('q1', '100.00', '532.10');
    const line = encodeCommand(command);
    expect(line.startsWith('~X')).toBe(true);
    expect(decodeCommand(line)).toEqual(command);
    applyOk(engine, command);
    const restored = Engine.restore(JSON.parse(JSON.stringify(engine.snapshot())));
    expect(restored.stateHash()).toBe(engine.stateHash());
    const again = restored.apply({ ...command, timeMs: 6_000 });
    expect(again.ok).toBe(true);
    expect(balanceSheet(restored)).toEqual(balanceSheet(engine));
  });
});
