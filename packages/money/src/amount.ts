// Owns typed amounts (asset + bigint minor units), arithmetic on them, prices, notional and conversion.
// Must hold: arithmetic never mixes assets (it throws), and price × quantity happens in notionalMinor only.
// Must not: use floating point, or divide without a named rounding mode.

import { type Asset, isSameAsset, pow10, unitOf } from './assets.ts';
import { type DecimalParseResult, formatDecimal, tryParseDecimal } from './decimal.ts';
import { divideRounded, type RoundingMode } from './rounding.ts';

export type Amount = { readonly asset: Asset; readonly minor: bigint };

export class AssetMismatchError extends Error {
  constructor(left: Asset, right: Asset) {
    super(`asset mismatch: ${left.code} vs ${right.code}`);
    this.name = 'AssetMismatchError';
  }
}

export function amountOf(asset: Asset, minor: bigint): Amount {
  return { asset, minor };
}

export function zero(asset: Asset): Amount {
  return { asset, minor: 0n };
}

export function add(left: Amount, right: Amount): Amount {
  assertSameAsset(left.asset, right.asset);
  return { asset: left.asset, minor: left.minor + right.minor };
}

export function subtract(left: Amount, right: Amount): Amount {
  assertSameAsset(left.asset, right.asset);
  return { asset: left.asset, minor: left.minor - right.minor };
}

export function negate(value: Amount): Amount {
  return { asset: value.asset, minor: -value.minor };
}

export function compare(left: Amount, right: Amount): -1 | 0 | 1 {
  assertSameAsset(left.asset, right.asset);
  return left.minor < right.minor ? -1 : left.minor > right.minor ? 1 : 0;
}

export function isZero(value: Amount): boolean {
  return value.minor === 0n;
}

export function isNegative(value: Amount): boolean {
  return value.minor < 0n;
}

export function assertSameAsset(left: Asset, right: Asset): void {
  if (!isSameAsset(left, right)) throw new AssetMismatchError(left, right);
}

/** "1234.50" in `asset`; too many decimals is `too_many_decimals` unless `rounding` is named. */
export function tryParseAmount(
  asset: Asset,
  text: string,
  rounding?: RoundingMode,
): { ok: true; amount: Amount } | { ok: false; code: Extract<DecimalParseResult, { ok: false }>['code'] } {
  const parsed = tryParseDecimal(text, asset.scale, rounding);
  return parsed.ok ? { ok: true, amount: { asset, minor: parsed.minor } } : parsed;
}

export function parseAmount(asset: Asset, text: string, rounding?: RoundingMode): Amount {
  const parsed = tryParseAmount(asset, text, rounding);
  if (!parsed.ok) throw new Error(`${parsed.code}: "${text}" in ${asset.code}`);
  return parsed.amount;
}

/** The amount as a decimal string with all of its asset's decimals ("1234.50"). */
export function formatAmount(value: Amount, decimals?: number, rounding?: RoundingMode): string {
  const options: { decimals?: number; rounding?: RoundingMode } = {};
  if (decimals !== undefined) options.decimals = decimals;
  if (rounding !== undefined) options.rounding = rounding;
  return formatDecimal(value.minor, value.asset.scale, options);
}

/** A price: `minor` units of `quote` for one whole unit of `base` (65000.12 USDT per 1 BTC). */
export type Price = { readonly base: Asset; readonly quote: Asset; readonly minor: bigint };

export function priceOf(base: Asset, quote: Asset, text: string): Price {
  const parsed = tryParseDecimal(text, quote.scale);
  if (!parsed.ok) throw new Error(`${parsed.code}: price "${text}" in ${quote.code}`);
  return { base, quote, minor: parsed.minor };
}

/**
 * The one place where price × quantity becomes money: quote minor units for `qtyMinor` base minor
 * units at `priceMinor` quote minor units per whole base unit (`baseUnit` = 10^base scale).
 */
export function notionalMinor(priceMinor: bigint, qtyMinor: bigint, baseUnit: bigint, rounding: RoundingMode): bigint {
  return divideRounded(priceMinor * qtyMinor, baseUnit, rounding);
}

/**
 * notionalMinor(price, qty, baseUnit, 'down') for non-negative safe integers, in float64 integer
 * arithmetic (exact: every intermediate is an integer below 2^53, checked). Answers -1 when an
 * intermediate would not be, and the caller then uses notionalMinor. For the engine's hot path.
 */
export function notionalMinorDownSafe(priceMinor: number, qtyMinor: number, baseUnit: number): number {
  const product = priceMinor * qtyMinor;
  if (!(product <= Number.MAX_SAFE_INTEGER - baseUnit)) return -1;
  return floorDivideSafe(product, baseUnit);
}

/** bpsOf(minor, basisPoints, 'down') for a non-negative safe integer, or -1 (see notionalMinorDownSafe). */
export function bpsOfDownSafe(minor: number, basisPoints: number): number {
  const product = minor * basisPoints;
  if (!(product <= Number.MAX_SAFE_INTEGER - 10_000)) return -1;
  return floorDivideSafe(product, 10_000);
}

/**
 * floor(a / b) for integers 0 <= a, 0 < b, a + b <= 2^53 - 1. The float quotient is correctly rounded,
 * so its floor is the true floor or one more (never less); q × b <= a + b is exact, so one check fixes it.
 */
function floorDivideSafe(a: number, b: number): number {
  const q = Math.floor(a / b);
  return q * b > a ? q - 1 : q;
}

/** Typed face of notionalMinor: `qty` must be in the price's base asset; the result is in its quote. */
export function notional(price: Price, qty: Amount, rounding: RoundingMode): Amount {
  assertSameAsset(price.base, qty.asset);
  return { asset: price.quote, minor: notionalMinor(price.minor, qty.minor, unitOf(price.base), rounding) };
}

/** A conversion rate: one whole `from` is worth `numerator / 10^decimals` whole `to`. */
export type Rate = { readonly from: Asset; readonly to: Asset; readonly numerator: bigint; readonly decimals: number };

export function rateOf(from: Asset, to: Asset, text: string): Rate {
  const fraction = /^\d+(?:\.(\d+))?$/.exec(text);
  if (!fraction) throw new Error(`bad rate "${text}"`);
  const decimals = fraction[1]?.length ?? 0;
  return { from, to, numerator: BigInt(text.replace('.', '')), decimals };
}

/** Converts `value` (in rate.from) to rate.to at `rate`, rounding as named. */
export function convert(value: Amount, rate: Rate, rounding: RoundingMode): Amount {
  assertSameAsset(value.asset, rate.from);
  const numerator = value.minor * rate.numerator * pow10(rate.to.scale);
  const denominator = pow10(rate.decimals + rate.from.scale);
  return { asset: rate.to, minor: divideRounded(numerator, denominator, rounding) };
}

/** basisPoints / 10,000 of `minor`, rounded as named (fees, deviations). */
export function bpsOf(minor: bigint, basisPoints: number, rounding: RoundingMode): bigint {
  return divideRounded(minor * BigInt(basisPoints), 10_000n, rounding);
}
