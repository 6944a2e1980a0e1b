// Owns the decimal-string codec: "1234.50" <-> bigint minor units at a given scale.
// Must hold: format then parse gives back the same minor units at every scale up to MAX_SCALE.
// Must not: go through floating point, or drop digits unless a rounding mode is named.

import { MAX_SCALE, pow10 } from './assets.ts';
import { divideRounded, type RoundingMode } from './rounding.ts';

export type DecimalParseFailure = 'invalid_decimal' | 'too_many_decimals';

export type DecimalParseResult = { ok: true; minor: bigint } | { ok: false; code: DecimalParseFailure };

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * Parses a plain decimal ("-12.345", no exponent, no spaces, no leading "+" or bare ".5") into minor
 * units. More decimals than `scale` is `too_many_decimals`, unless `rounding` says how to round.
 */
export function tryParseDecimal(text: string, scale: number, rounding?: RoundingMode): DecimalParseResult {
  checkScale(scale);
  const match = DECIMAL.exec(text);
  if (!match) return { ok: false, code: 'invalid_decimal' };
  const negative = match[1] === '-';
  const whole = match[2] ?? '0';
  const fraction = match[3] ?? '';
  let minor: bigint;
  if (fraction.length <= scale) {
    minor = BigInt(whole + fraction.padEnd(scale, '0'));
  } else {
    if (!rounding) return { ok: false, code: 'too_many_decimals' };
    const all = BigInt(whole + fraction);
    minor = divideRounded(negative ? -all : all, pow10(fraction.length - scale), rounding);
    return { ok: true, minor };
  }
  return { ok: true, minor: negative ? -minor : minor };
}

/** tryParseDecimal for trusted input: a malformed string is a bug and throws. */
export function parseDecimal(text: string, scale: number, rounding?: RoundingMode): bigint {
  const result = tryParseDecimal(text, scale, rounding);
  if (!result.ok) throw new Error(`${result.code}: "${text}" at scale ${scale}`);
  return result.minor;
}

export type FormatOptions = {
  /** Decimals to show; defaults to the scale. Fewer than the scale needs `rounding`. */
  decimals?: number;
  rounding?: RoundingMode;
};

/** Formats minor units at `scale` as a decimal string with exactly `decimals` decimals. */
export function formatDecimal(minor: bigint, scale: number, options: FormatOptions = {}): string {
  checkScale(scale);
  const decimals = options.decimals ?? scale;
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_SCALE) {
    throw new Error(`bad decimals ${decimals}`);
  }
  let value = minor;
  if (decimals < scale) {
    if (!options.rounding) throw new Error('formatting with fewer decimals than the scale needs a rounding mode');
    value = divideRounded(minor, pow10(scale - decimals), options.rounding);
  } else if (decimals > scale) {
    value = minor * pow10(decimals - scale);
  }
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  const body = decimals === 0 ? whole : `${whole}.${fraction}`;
  return negative ? `-${body}` : body;
}

function checkScale(scale: number): void {
  if (!Number.isInteger(scale) || scale < 0 || scale > MAX_SCALE) throw new Error(`bad scale ${scale}`);
}
