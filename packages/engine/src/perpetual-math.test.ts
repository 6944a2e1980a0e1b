import { ASSETS, formatDecimal } from '@bourse/money';
import { describe, expect, it } from 'vitest';
import {
  bankruptcyPrice,
  fundingRate,
  liquidationPrice,
  maintenanceMargin,
  type PerpetualSpec,
  type PerpetualTerms,
  parsePerpetualTerms,
  type Tier,
  type TierSpec,
} from './perpetual-math.ts';

const USDT = ASSETS.USDT;
const BTC_UNIT = 100_000_000n; // BTC has 8 decimals
const usdt = (whole: number): bigint => BigInt(whole) * 1_000_000n;

// Binance's published BTCUSDT tiers (first four): floor, MMR, max leverage.
const SPEC: PerpetualSpec = {
  collateral: 'USDT',
  maxLeverage: 125,
  defaultLeverage: 20,
  tiers: [
    { floor: '0', mmrPpm: 4_000, maxLeverage: 125 },
    { floor: '50000', mmrPpm: 5_000, maxLeverage: 100 },
    { floor: '250000', mmrPpm: 10_000, maxLeverage: 50 },
    { floor: '1000000', mmrPpm: 25_000, maxLeverage: 20 },
  ],
};

function tiers(): readonly Tier[] {
  const terms = parsePerpetualTerms(SPEC, USDT);
  if (terms === undefined) throw new Error('spec refused');
  return terms.tiers;
}

/** A price in minor units per BTC rounded to the nearest cent, as the screen shows it. */
function cents(minor: bigint | null): string {
  if (minor === null) return '--';
  return formatDecimal((minor + 5_000n) / 10_000n, 2);
}

describe('perpetual maintenance margin tiers', () => {
  it('derives each tier maintenance amount by DOMAIN.md formula', () => {
    // MA2 = 50,000 × (0.5% − 0.4%) = 50; MA3 = 250,000 × 0.5% + 50 = 1,300; MA4 = 1,000,000 × 1.5% + 1,300.
    expect(tiers().map((t) => t.cumPpm / 1_000_000n)).toEqual([0n, usdt(50), usdt(1_300), usdt(16_300)]);
  });

  it.each([
    ['10,000 in tier 1', 10_000, 40],
    ['50,000 at the tier 2 floor', 50_000, 200],
    ['300,000 in tier 3', 300_000, 1_700],
    ['2,000,000 in tier 4', 2_000_000, 33_700],
  ])('maintenance margin of %s is %d USDT', (_name, notional, expected) => {
    expect(maintenanceMargin(tiers(), usdt(notional))).toBe(usdt(expected));
  });

  it('is continuous at a floor (the maintenance amount makes it so)', () => {
    const t = tiers();
    expect(maintenanceMargin(t, usdt(50_000) - 1n)).toBe(maintenanceMargin(t, usdt(50_000)));
  });

  it('rounds maintenance margin up', () => {
    // 1 minor unit × 0.4% = 0.004 → 1.
    expect(maintenanceMargin(tiers(), 1n)).toBe(1n);
  });

  it.each([
    ['collateral not the quote', { collateral: 'BTC' }],
    ['default above max', { defaultLeverage: 126 }],
    ['first floor not zero', { tiers: [{ floor: '1', mmrPpm: 4_000, maxLeverage: 125 }] }],
    [
      'floors not ascending',
      {
        tiers: [
          { floor: '0', mmrPpm: 4_000, maxLeverage: 125 },
          { floor: '0', mmrPpm: 5_000, maxLeverage: 100 },
        ],
      },
    ],
    [
      'a higher tier with a lower MMR',
      {
        tiers: [
          { floor: '0', mmrPpm: 4_000, maxLeverage: 125 },
          { floor: '10', mmrPpm: 3_000, maxLeverage: 100 },
        ],
      },
    ],
    ['no tiers', { tiers: [] }],
  ])('refuses a spec with %s', (_name, change) => {
    expect(parsePerpetualTerms({ ...SPEC, ...change }, USDT)).toBeUndefined();
  });
});

describe('liquidation and bankruptcy prices', () => {
  // DOMAIN.md's vector: 1 BTC at 50,000, isolated margin 5,000 (10x), tier-1 MMR 0.4%, cum 0.
  const position = { sizeMinor: BTC_UNIT, entryNotional: usdt(50_000), margin: usdt(5_000) };

  // The vector is computed in tier 1 throughout: one tier (0.4%, cum 0) is that table.
  const tierOne = (): readonly Tier[] =>
    (parsePerpetualTerms({ ...SPEC, tiers: [SPEC.tiers[0] as TierSpec] }, USDT) as PerpetualTerms).tiers;

  it('gives DOMAIN.md vector: long 45,180.72, short 54,780.88', () => {
    expect(cents(liquidationPrice(tierOne(), { side: 1, ...position }, BTC_UNIT))).toBe('45180.72');
    expect(cents(liquidationPrice(tierOne(), { side: -1, ...position }, BTC_UNIT))).toBe('54780.88');
  });

  it('rounds against the customer in minor units: a long up, a short down', () => {
    // Exact: 45,180.722891566… and 54,780.876494023…
    expect(liquidationPrice(tierOne(), { side: 1, ...position }, BTC_UNIT)).toBe(45_180_722_892n);
    expect(liquidationPrice(tierOne(), { side: -1, ...position }, BTC_UNIT)).toBe(54_780_876_494n);
  });

  it('with the 50,000 floor, the short LP notional (54,780) falls in tier 2 and is recomputed there', () => {
    // (5,000 + 50 + 50,000) / 1.005 = 54,776.119…; the long LP (45,180) stays in tier 1.
    expect(cents(liquidationPrice(tiers(), { side: -1, ...position }, BTC_UNIT))).toBe('54776.12');
    expect(cents(liquidationPrice(tiers(), { side: 1, ...position }, BTC_UNIT))).toBe('45180.72');
  });

  it('shows "--" (null) when the margin covers the whole entry of a long', () => {
    expect(liquidationPrice(tiers(), { side: 1, ...position, margin: usdt(50_000) }, BTC_UNIT)).toBeNull();
  });

  it('recomputes with the tier of the notional at the liquidation price', () => {
    // 10 BTC short at 24,900 (249,000: tier 2) with 2,490 margin: its LP notional passes 250,000 (tier 3).
    const short = { side: -1 as const, sizeMinor: 10n * BTC_UNIT, entryNotional: usdt(249_000), margin: usdt(2_490) };
    const lp = liquidationPrice(tiers(), short, BTC_UNIT) as bigint;
    // Tier 3: (2,490 + 1,300 + 249,000) / (10 × 1.01) = 25,028.71…
    expect(cents(lp)).toBe('25028.71');
    // At that price the equity equals the maintenance margin, to the rounding of one minor unit per BTC
    // (the short's LP rounded down: the equity there is not below it).
    const notional = (lp * short.sizeMinor) / BTC_UNIT;
    const gap = short.margin + short.entryNotional - notional - maintenanceMargin(tiers(), notional);
    expect(gap >= 0n && gap <= 10n).toBe(true);
  });

  it('gives the bankruptcy price: a long at 10x near entry × 10/11... exactly (EP×Pos − WB)/Pos', () => {
    expect(bankruptcyPrice({ side: 1, ...position }, BTC_UNIT)).toBe(usdt(45_000));
    expect(bankruptcyPrice({ side: -1, ...position }, BTC_UNIT)).toBe(usdt(55_000));
    expect(bankruptcyPrice({ side: 1, ...position, margin: usdt(50_000) }, BTC_UNIT)).toBeNull();
  });
});

describe('funding rate', () => {
  it.each([
    ['premium 0: the interest rate alone', 0, 100],
    ['premium inside the clamp: the interest rate', 300, 100],
    ['premium −0.04%: the interest rate', -400, 100],
    ['premium 0.07%: premium − 0.05%', 700, 200],
    ['premium −0.1%: premium + 0.05%', -1_000, -500],
  ])('%s', (_name, premium, rate) => {
    expect(fundingRate(premium)).toBe(rate);
  });
});
