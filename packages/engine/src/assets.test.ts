import { BUILT_IN_ASSETS } from '@bourse/money';
import { applyOk, btcUsdt, CommandFactory, rejectionOf, tradesOf } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { decodeCommand, encodeJournalLine } from './commands.ts';
import { Engine } from './engine.ts';

/** A coin offering's new coin: 18 decimals, unknown to the code. */
const PEPE_USDT = btcUsdt({
  id: 'PEPE-USDT',
  base: 'PEPE',
  tickSize: '0.000001',
  lotSize: '1',
  maxPriceTicks: 1_000_000,
  makerFeeBps: 10,
  takerFeeBps: 10,
});

describe('register_asset', () => {
  it('starts every engine with the built-in assets (genesis) and shares implied by their code', () => {
    const engine = new Engine();
    expect(engine.assets()).toEqual(BUILT_IN_ASSETS);
    expect(engine.asset('DOT')).toEqual({ code: 'DOT', scale: 10, kind: 'crypto' });
    expect(engine.asset('SHARE:NSE:TCS')).toEqual({ code: 'SHARE:NSE:TCS', scale: 0, kind: 'share' });
    expect(engine.asset('PEPE')).toBeUndefined();
  });

  it('adds a coin at run time that can then be deposited and traded, with no code change', () => {
    const engine = new Engine();
    const c = new CommandFactory('PEPE-USDT');
    expect(rejectionOf(engine, c.deposit('alice', 'PEPE', '1'))).toBe('unknown_asset');
    expect(rejectionOf(engine, c.register(PEPE_USDT))).toBe('invalid_instrument');
    const register = c.registerAsset('PEPE', 18);
    expect(applyOk(engine, register)).toEqual([
      { type: 'asset_registered', asset: 'PEPE', scale: 18, kind: 'crypto', timeMs: register.timeMs },
    ]);
    expect(engine.asset('PEPE')).toEqual({ code: 'PEPE', scale: 18, kind: 'crypto' });
    applyOk(engine, c.register(PEPE_USDT));
    applyOk(engine, c.deposit('alice', 'PEPE', '1000000.000000000000000001'));
    applyOk(engine, c.deposit('bob', 'USDT', '100'));
    applyOk(engine, c.limit('alice', 'sell', 12, 1_000));
    expect(tradesOf(applyOk(engine, c.limit('bob', 'buy', 12, 1_000)))).toEqual([[12, 1_000, 1, 2]]);
    // 1,000 PEPE at 0.000012 USDT: 0.012 USDT, less the maker's 10 bps.
    expect(engine.balance('bob', 'spot', 'PEPE').balance).toBe(1_000n * 10n ** 18n);
    expect(engine.balance('alice', 'spot', 'USDT').balance).toBe(12_000n - 12n);
    expect(engine.findBrokenInvariant()).toBeUndefined();
  });

  it('refuses a code registered before (asset_exists) and a bad definition (invalid_asset), changing nothing', () => {
    const engine = new Engine();
    const c = new CommandFactory('X');
    applyOk(engine, c.registerAsset('PEPE', 18));
    const before = engine.stateHash();
    expect(rejectionOf(engine, c.registerAsset('PEPE', 18))).toBe('asset_exists');
    expect(rejectionOf(engine, c.registerAsset('PEPE', 8))).toBe('asset_exists');
    expect(rejectionOf(engine, c.registerAsset('BTC', 8))).toBe('asset_exists');
    for (const [code, scale, kind] of [
      ['pepe', 18, 'crypto'],
      ['SHARE:NSE:TCS', 0, 'share'],
      ['TCS', 0, 'share'],
      ['WIF', 37, 'crypto'],
      ['WIF', -1, 'crypto'],
      ['WIF', 2.5, 'crypto'],
      ['WIF', 6, 'meme'],
    ] as const) {
      expect(rejectionOf(engine, { ...c.registerAsset('WIF', 6), asset: code, scale, kind } as never)).toBe(
        'invalid_asset',
      );
    }
    // Refusals are remembered in the window (a retry answers the same), so compare the assets only.
    expect(engine.assets().map((a) => a.code)).toEqual([...BUILT_IN_ASSETS.map((a) => a.code), 'PEPE']);
    expect(engine.stateHash()).not.toBe(before);
  });

  it('answers a retry with its first result', () => {
    const engine = new Engine();
    const register = new CommandFactory('X').registerAsset('PEPE', 18);
    const first = engine.apply(register);
    expect(first.ok).toBe(true);
    const again = engine.apply({ ...register, timeMs: register.timeMs + 5 });
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
  });

  it('is in the snapshot and the state hash, and survives restore, the journal and replay', () => {
    const engine = new Engine();
    const c = new CommandFactory('PEPE-USDT');
    const plain = new Engine().stateHash();
    const commands = [c.registerAsset('PEPE', 18), c.registerAsset('EUR', 2, 'fiat'), c.register(PEPE_USDT)];
    for (const command of commands) applyOk(engine, command);
    expect(engine.stateHash()).not.toBe(plain);
    const snapshot = engine.snapshot();
    expect(snapshot.assets?.slice(-2)).toEqual([
      ['PEPE', 18, 'crypto'],
      ['EUR', 2, 'fiat'],
    ]);
    const restored = Engine.restore(JSON.parse(JSON.stringify(snapshot)));
    expect(restored.stateHash()).toBe(engine.stateHash());
    expect(restored.asset('PEPE')).toEqual({ code: 'PEPE', scale: 18, kind: 'crypto' });
    expect(rejectionOf(restored, c.registerAsset('EUR', 2, 'fiat'))).toBe('asset_exists');

    const lines = commands.map((command) => encodeJournalLine(command, false));
    expect(lines[0]?.startsWith('+~N')).toBe(true);
    const replayed = new Engine();
    lines.forEach((line, i) => {
      replayed.replay(decodeCommand(line), lines.length - 1 - i, 1);
    });
    expect(replayed.stateHash()).toBe(engine.stateHash());
  });
});
