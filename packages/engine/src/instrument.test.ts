import { btcUsdt, reliance } from '@bourse/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { genesisAssets } from './assets.ts';
import {
  buyHoldFor,
  feeOf,
  feeOfSafe,
  type InstrumentSpec,
  lotsToMinor,
  parseInstrument,
  tradeNotional,
  tradeNotionalSafe,
} from './instrument.ts';

const SPECS: InstrumentSpec[] = [
  btcUsdt(),
  btcUsdt({ tickSize: '0.013', maxPriceTicks: 100_000, makerFeeBps: 3, takerFeeBps: 7 }),
  reliance({ makerFeeBps: 2, takerFeeBps: 9 }),
  { ...btcUsdt({ id: 'ETH-USDT', base: 'ETH', lotSize: '0.001', tickSize: '0.07' }) },
  {
    ...btcUsdt({
      id: 'ETH-BTC',
      base: 'ETH',
      quote: 'BTC',
      lotSize: '0.0001',
      tickSize: '0.0001',
      takerFeeBps: 1_000,
    }),
  },
  // 1 ETH lots: lotMinor 10^18 is not a safe number, so lotsToMinor takes the bigint path.
  btcUsdt({ id: 'ETH-USDT1', base: 'ETH', lotSize: '1', tickSize: '0.013' }),
];

describe('float64 fast path of notional, fees and holds', () => {
  it('gives exactly the bigint notional, fee and buy hold whenever it answers', () => {
    for (const spec of SPECS) {
      const def = parseInstrument(spec, genesisAssets());
      if (def === undefined) throw new Error(`bad spec ${spec.id}`);
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: spec.maxPriceTicks }),
          fc.oneof(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 1, max: 2 ** 40 })),
          fc.integer({ min: 0, max: 1_000 }),
          (ticks, lots, bps) => {
            const exact = tradeNotional(def, ticks, lots);
            const fast = tradeNotionalSafe(def, ticks, lots);
            if (fast !== -1) {
              expect(BigInt(fast)).toBe(exact);
              const fee = feeOfSafe(fast, bps);
              if (fee !== -1) expect(BigInt(fee)).toBe(feeOf(exact, bps));
            }
            expect(buyHoldFor(def, ticks, lots)).toBe(exact + feeOf(exact, def.maxFeeBps));
            expect(lotsToMinor(def, lots)).toBe(BigInt(lots) * def.lotMinor);
          },
        ),
        { numRuns: 3_000 },
      );
    }
  });

  it('takes the fast path for the usual case (BTC/USDT reduces to ticks × lots)', () => {
    const def = parseInstrument(btcUsdt(), genesisAssets());
    expect(def?.notionalNum).toBe(1);
    expect(def?.notionalDen).toBe(1);
    expect(def && tradeNotionalSafe(def, 6_000_000, 3_000)).toBe(18_000_000_000);
  });
});
