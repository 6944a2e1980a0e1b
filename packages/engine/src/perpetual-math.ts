// Owns the pure arithmetic of USDⓈ-margined perpetual contracts (DOMAIN.md): the kind's spec section and
// its maintenance margin tiers, maintenance margin, liquidation and bankruptcy prices, and the funding rate.
// Must hold: exact bigint arithmetic; every rounding goes against the customer's liquidation (earlier, never
// later) and never creates money: the direction is stated at each quantity.
// Must not: touch engine state (positions.ts applies these numbers).

import { type Asset, tryParseDecimal } from '@bourse/money';

/** Parts per million: rates and maintenance margin ratios are integers of these. */
export const PPM = 1_000_000n;

/** One maintenance margin tier as the spec writes it: from `floor` of position notional (collateral units). */
export type TierSpec = { floor: string; mmrPpm: number; maxLeverage: number };

/** The `perpetual` section of an instrument spec (kind `perpetual`). */
export type PerpetualSpec = {
  /** The asset margin, PnL and funding are paid in; must be the instrument's quote. */
  collateral: string;
  /** The highest leverage anyone may set; a tier may allow less. */
  maxLeverage: number;
  /** Leverage of a customer who never set one. */
  defaultLeverage: number;
  /** Ascending floors, the first at "0". */
  tiers: TierSpec[];
};

/**
 * A tier parsed: its floor in collateral minor units and its maintenance amount × 1,000,000 (`cumPpm`),
 * kept scaled so DOMAIN.md's derivation MA_n = floor_n × (MMR_n − MMR_n−1) + MA_n−1 stays exact.
 */
export type Tier = { floor: bigint; mmrPpm: number; maxLeverage: number; cumPpm: bigint };

export type PerpetualTerms = {
  readonly spec: PerpetualSpec;
  readonly maxLeverage: number;
  readonly defaultLeverage: number;
  readonly tiers: readonly Tier[];
};

const MAX_LEVERAGE = 125;

/** The spec section checked and its tiers derived, or undefined when invalid. */
export function parsePerpetualTerms(spec: unknown, quote: Asset): PerpetualTerms | undefined {
  if (typeof spec !== 'object' || spec === null) return undefined;
  const s = spec as PerpetualSpec;
  if (s.collateral !== quote.code) return undefined;
  if (!isLeverage(s.maxLeverage) || !isLeverage(s.defaultLeverage) || s.defaultLeverage > s.maxLeverage) {
    return undefined;
  }
  if (!Array.isArray(s.tiers) || s.tiers.length === 0 || s.tiers.length > 20) return undefined;
  const tiers: Tier[] = [];
  let previous: Tier | undefined;
  for (const raw of s.tiers) {
    if (typeof raw !== 'object' || raw === null || typeof raw.floor !== 'string') return undefined;
    const floor = tryParseDecimal(raw.floor, quote.scale);
    if (!floor.ok || floor.minor < 0n) return undefined;
    if (!Number.isSafeInteger(raw.mmrPpm) || raw.mmrPpm <= 0 || raw.mmrPpm >= 500_000) return undefined;
    if (!isLeverage(raw.maxLeverage)) return undefined;
    if (previous === undefined ? floor.minor !== 0n : floor.minor <= previous.floor) return undefined;
    // Higher tiers ask more margin and allow less leverage (else the derived amounts go wrong).
    if (previous !== undefined && (raw.mmrPpm < previous.mmrPpm || raw.maxLeverage > previous.maxLeverage)) {
      return undefined;
    }
    const cumPpm = previous === undefined ? 0n : floor.minor * BigInt(raw.mmrPpm - previous.mmrPpm) + previous.cumPpm;
    previous = { floor: floor.minor, mmrPpm: raw.mmrPpm, maxLeverage: raw.maxLeverage, cumPpm };
    tiers.push(previous);
  }
  return { spec: s, maxLeverage: s.maxLeverage, defaultLeverage: s.defaultLeverage, tiers };
}

function isLeverage(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= MAX_LEVERAGE;
}

/** The tier a position of this notional (collateral minor units, ≥ 0) falls in. */
export function tierOf(tiers: readonly Tier[], notional: bigint): Tier {
  let found = tiers[0] as Tier;
  for (const tier of tiers) if (notional >= tier.floor) found = tier;
  return found;
}

/** ⌈a / b⌉ for b > 0. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b < a ? q + 1n : q;
}

/** ⌊a / b⌋ for b > 0. */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b > a ? q - 1n : q;
}

/**
 * Maintenance margin of a position of this notional: notional × MMR − maintenance amount of its tier,
 * rounded up (more margin asked: liquidation comes no later than the exact figure).
 */
export function maintenanceMargin(tiers: readonly Tier[], notional: bigint): bigint {
  const tier = tierOf(tiers, notional);
  const scaled = notional * BigInt(tier.mmrPpm) - tier.cumPpm;
  return scaled <= 0n ? 0n : ceilDiv(scaled, PPM);
}

/** Initial margin for a notional at a leverage, rounded down (floor is superadditive: the fills of an
 * order never need more than the order held). */
export function initialMargin(notional: bigint, leverage: number): bigint {
  return notional / BigInt(leverage);
}

/** A position as the price formulas need it: side, size in base minor units, entry notional and margin. */
export type PositionFigures = {
  /** +1 long, −1 short. */
  side: 1 | -1;
  /** |size| in base minor units (> 0). */
  sizeMinor: bigint;
  /** Entry notional in collateral minor units (size × entry price). */
  entryNotional: bigint;
  /** Isolated margin (DOMAIN.md's WB) in collateral minor units. */
  margin: bigint;
};

/**
 * DOMAIN.md's one-way, isolated liquidation price in collateral minor units per whole base unit:
 * LP = (WB + cum − Side × Pos × EP) / (Pos × MMR − Side × Pos), the tier chosen by the notional at LP
 * (recomputed while it moves to another tier). Rounded against the customer: a long's up, a short's down.
 * Null ("--") when it is not positive: the position cannot be liquidated by a falling price.
 */
export function liquidationPrice(tiers: readonly Tier[], position: PositionFigures, baseUnit: bigint): bigint | null {
  let tier = tierOf(tiers, position.entryNotional);
  let price: bigint | null = null;
  for (let step = 0; step <= tiers.length; step++) {
    price = liquidationPriceAt(tier, position, baseUnit);
    if (price === null) return null;
    const next = tierOf(tiers, (price * position.sizeMinor) / baseUnit);
    if (next === tier) return price;
    tier = next;
  }
  return price;
}

function liquidationPriceAt(tier: Tier, p: PositionFigures, baseUnit: bigint): bigint | null {
  const side = BigInt(p.side);
  // Both scaled by 1,000,000 (MMR in ppm, the maintenance amount as cumPpm) and by baseUnit / size.
  let num = (p.margin * PPM + tier.cumPpm - side * p.entryNotional * PPM) * baseUnit;
  let den = p.sizeMinor * (BigInt(tier.mmrPpm) - side * PPM);
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  if (num <= 0n) return null;
  return p.side === 1 ? ceilDiv(num, den) : floorDiv(num, den);
}

/**
 * The price at which the position's margin is exactly lost (long: (EP×Pos − WB)/Pos; short: (EP×Pos + WB)/Pos),
 * in collateral minor units per base unit; rounded towards the customer's side of it (a long's up, a short's
 * down) so closing there never takes more than the margin. Null for a long whose margin covers its whole
 * entry (1x): it has no bankruptcy price.
 */
export function bankruptcyPrice(position: PositionFigures, baseUnit: bigint): bigint | null {
  if (position.side === 1) {
    const value = position.entryNotional - position.margin;
    return value <= 0n ? null : ceilDiv(value * baseUnit, position.sizeMinor);
  }
  return floorDiv((position.entryNotional + position.margin) * baseUnit, position.sizeMinor);
}

/** Unrealised PnL at a notional (size × price): a long's is notional − entry, a short's entry − notional. */
export function unrealisedPnl(side: 1 | -1, entryNotional: bigint, notionalNow: bigint): bigint {
  return side === 1 ? notionalNow - entryNotional : entryNotional - notionalNow;
}

/** Funding's interest rate (0.01% per interval) and clamp (±0.05%), in ppm (DOMAIN.md). */
export const FUNDING_INTEREST_PPM = 100;
export const FUNDING_CLAMP_PPM = 500;

/** rate = premium index + clamp(interest − premium index, −0.05%, +0.05%), all in signed ppm. */
export function fundingRate(
  premiumIndexPpm: number,
  interestPpm: number = FUNDING_INTEREST_PPM,
  clampPpm: number = FUNDING_CLAMP_PPM,
): number {
  const gap = interestPpm - premiumIndexPpm;
  return premiumIndexPpm + Math.min(clampPpm, Math.max(-clampPpm, gap));
}
