// Proves prices and sizes convert exactly between integer ticks/lots and decimal strings, and bands round inward.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalToSteps, decimalToTicks, priceBand, stepsToDecimal, ticksToDecimal } from './price.ts';

describe('price codec', () => {
  it('formats and parses ticks of several tick sizes', () => {
    expect(ticksToDecimal(30047, '0.05')).toBe('1502.35');
    expect(ticksToDecimal(1, '0.00001')).toBe('0.00001');
    expect(ticksToDecimal(9_512_345, '0.01')).toBe('95123.45');
    expect(stepsToDecimal(12, '1')).toBe('12');
    expect(decimalToTicks('1502.35', '0.05')).toBe(30047);
    expect(decimalToTicks('1502.350', '0.05')).toBe(30047);
    expect(decimalToTicks('1502.36', '0.05')).toBeNull();
    expect(decimalToTicks('1502.355', '0.05')).toBeNull();
    expect(decimalToTicks('abc', '0.05')).toBeNull();
    expect(decimalToTicks('-1', '0.05')).toBeNull();
    expect(decimalToSteps('0.0012', '0.0001')).toBe(12);
  });

  it('round-trips any tick count', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.constantFrom('0.05', '0.01', '0.0001', '0.00001', '1', '0.5'),
        (ticks, size) => {
          expect(decimalToTicks(ticksToDecimal(ticks, size), size)).toBe(ticks);
        },
      ),
    );
  });

  it('keeps the band edges inside the band', () => {
    expect(priceBand(30047, 2)).toEqual({ lowerTicks: 29447, upperTicks: 30647 });
    expect(priceBand(30000, 10)).toEqual({ lowerTicks: 27000, upperTicks: 33000 });
    expect(priceBand(30000, null)).toBeNull();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), fc.constantFrom(2, 5, 10, 20), (prev, pct) => {
        const band = priceBand(prev, pct);
        if (!band) throw new Error('band expected');
        expect(BigInt(band.lowerTicks) * 100n >= BigInt(prev) * BigInt(100 - pct) || band.lowerTicks === 1).toBe(true);
        expect(BigInt(band.lowerTicks - 1) * 100n < BigInt(prev) * BigInt(100 - pct)).toBe(true);
        expect(BigInt(band.upperTicks) * 100n <= BigInt(prev) * BigInt(100 + pct)).toBe(true);
        expect(BigInt(band.upperTicks + 1) * 100n > BigInt(prev) * BigInt(100 + pct)).toBe(true);
      }),
    );
  });
});
