import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AssetMismatchError,
  add,
  bpsOf,
  bpsOfDownSafe,
  convert,
  formatAmount,
  notional,
  notionalMinor,
  notionalMinorDownSafe,
  parseAmount,
  priceOf,
  rateOf,
  subtract,
} from './amount.ts';
import { ASSETS, shareAsset } from './assets.ts';

describe('amounts', () => {
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

describe('float64 hot-path helpers', () => {
  it('give exactly the bigint result rounded down whenever they answer, and -1 only past 2^53', () => {
    const safe = fc.oneof(fc.integer({ min: 0, max: 2 ** 26 }), fc.maxSafeNat());
    const unit = fc.constantFrom(1, 10, 100, 1_000_000, 100_000_000, 3, 7, 999_999_937);
    fc.assert(
      fc.property(safe, safe, unit, fc.integer({ min: 0, max: 10_000 }), (price, qty, baseUnit, bps) => {
        const fast = notionalMinorDownSafe(price, qty, baseUnit);
        const exact = notionalMinor(BigInt(price), BigInt(qty), BigInt(baseUnit), 'down');
        if (BigInt(price) * BigInt(qty) + BigInt(baseUnit) <= BigInt(Number.MAX_SAFE_INTEGER)) {
          expect(BigInt(fast)).toBe(exact);
        } else {
          expect(fast).toBe(-1);
        }
        const fee = bpsOfDownSafe(qty, bps);
        if (fee !== -1) expect(BigInt(fee)).toBe(bpsOf(BigInt(qty), bps, 'down'));
        else expect(BigInt(qty) * BigInt(bps) + 10_000n > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('answers exactly near 2^53, where quotients sit just below an integer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 2 ** 26 }), fc.integer({ min: 1, max: 1_000 }), (b, back) => {
        const k = Math.floor((Number.MAX_SAFE_INTEGER - b) / b);
        const a = k * b - back;
        expect(BigInt(notionalMinorDownSafe(a, 1, b))).toBe(BigInt(a) / BigInt(b));
      }),
    );
    expect(notionalMinorDownSafe(2 ** 53, 1, 1)).toBe(-1);
  });
});
