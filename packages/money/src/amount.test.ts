import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AssetMismatchError,
  add,
  convert,
  formatAmount,
  notional,
  parseAmount,
  priceOf,
  rateOf,
  subtract,
} from './amount.ts';
import { ASSETS, assetOf, findAsset, shareAsset } from './assets.ts';

describe('amounts', () => {
  it('knows the scales of the listed assets and of per-instrument shares', () => {
    expect(assetOf('INR').scale).toBe(2);
    expect(assetOf('USDT').scale).toBe(6);
    expect(assetOf('BTC').scale).toBe(8);
    expect(assetOf('ETH').scale).toBe(18);
    expect(assetOf('SOL').scale).toBe(9);
    expect(shareAsset('NSE', 'RELIANCE')).toEqual({ code: 'SHARE:NSE:RELIANCE', scale: 0 });
    expect(findAsset('SHARE:NSE:TCS')?.scale).toBe(0);
    expect(findAsset('NOPE')).toBeUndefined();
  });

  it('adds and subtracts the same asset and throws when two assets are mixed', () => {
    const a = parseAmount(ASSETS.INR, '10.50');
    expect(formatAmount(add(a, parseAmount(ASSETS.INR, '0.75')))).toBe('11.25');
    expect(formatAmount(subtract(a, parseAmount(ASSETS.INR, '20')))).toBe('-9.50');
    expect(() => add(a, parseAmount(ASSETS.USD, '1'))).toThrow(AssetMismatchError);
  });

  it('turns price × quantity into quote money with the named rounding', () => {
    const btcUsdt = priceOf(ASSETS.BTC, ASSETS.USDT, '65000.12');
    const qty = parseAmount(ASSETS.BTC, '0.00100001');
    expect(formatAmount(notional(btcUsdt, qty, 'down'))).toBe('65.000770');
    expect(formatAmount(notional(btcUsdt, qty, 'up'))).toBe('65.000771');
    const reliance = priceOf(shareAsset('NSE', 'RELIANCE'), ASSETS.INR, '2950.05');
    expect(formatAmount(notional(reliance, parseAmount(shareAsset('NSE', 'RELIANCE'), '3'), 'down'))).toBe('8850.15');
    expect(() => notional(btcUsdt, parseAmount(ASSETS.ETH, '1'), 'down')).toThrow(AssetMismatchError);
  });

  it('converts with a named rate and rounding, and refuses the wrong source asset', () => {
    const usdInr = rateOf(ASSETS.USD, ASSETS.INR, '83.125');
    expect(formatAmount(convert(parseAmount(ASSETS.USD, '1.01'), usdInr, 'half_even'))).toBe('83.96');
    expect(formatAmount(convert(parseAmount(ASSETS.USD, '1.01'), usdInr, 'down'))).toBe('83.95');
    expect(() => convert(parseAmount(ASSETS.INR, '1'), usdInr, 'down')).toThrow(AssetMismatchError);
  });

  it('keeps notional exact: down and up differ by at most one minor unit and agree when exact', () => {
    fc.assert(
      fc.property(fc.bigInt(1n, 10n ** 12n), fc.bigInt(1n, 10n ** 12n), (p, q) => {
        const price = { base: ASSETS.BTC, quote: ASSETS.USDT, minor: p };
        const qty = { asset: ASSETS.BTC, minor: q };
        const down = notional(price, qty, 'down').minor;
        const up = notional(price, qty, 'up').minor;
        expect(up - down).toBe((p * q) % 10n ** 8n === 0n ? 0n : 1n);
      }),
    );
  });
});
