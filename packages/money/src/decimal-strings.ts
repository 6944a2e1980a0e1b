// Owns arithmetic on decimal strings of mixed scales, as clients hold the API's values: comparing,
// signs, sums, differences, tick and lot multiples, stepper presses. Must hold: exact (each call reads
// its operands at the larger of their scales, through decimal.ts's codec). Must not: go through floats,
// or accept text the codec refuses (such text counts as zero, or fails a multiple check).

import { MAX_SCALE } from './assets.ts';
import { formatDecimal, tryParseDecimal } from './decimal.ts';

/** Digits after the point in a decimal string: "0.05" → 2, "1" → 0, nothing → 0. */
export function decimalPlaces(text: string | null | undefined): number {
  if (!text) return 0;
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** The larger scale of the operands, or null when one has more decimals than any asset (not a decimal). */
function commonScale(texts: readonly (string | null | undefined)[]): number | null {
  const scale = texts.reduce((most, text) => Math.max(most, decimalPlaces(text)), 0);
  return scale <= MAX_SCALE ? scale : null;
}

/** Minor units at `scale`, zero for missing or malformed text. */
function minorOrZero(text: string | null | undefined, scale: number): bigint {
  if (!text) return 0n;
  const result = tryParseDecimal(text, scale);
  return result.ok ? result.minor : 0n;
}

/** Compares two decimal strings exactly: -1, 0 or 1 (missing or malformed text compares as zero). */
export function compareDecimal(a: string | null | undefined, b: string | null | undefined): -1 | 0 | 1 {
  const scale = commonScale([a, b]) ?? 0;
  const x = minorOrZero(a, scale);
  const y = minorOrZero(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The sign of a decimal string: 1, -1 or 0 ("-0.00", missing and malformed text are 0). */
export function signOfDecimal(text: string | null | undefined): -1 | 0 | 1 {
  return compareDecimal(text, '0');
}

/** The exact sum, at the largest scale among the values (missing or malformed entries count as zero). */
export function sumDecimals(values: readonly (string | null | undefined)[]): string {
  const scale = commonScale(values) ?? 0;
  let total = 0n;
  for (const value of values) total += minorOrZero(value, scale);
  return formatDecimal(total, scale);
}

/** a − b exactly, at the larger of their scales. */
export function subtractDecimals(a: string, b: string): string {
  const scale = commonScale([a, b]) ?? 0;
  return formatDecimal(minorOrZero(a, scale) - minorOrZero(b, scale), scale);
}

/** Whether `value` is a whole multiple of `step` (a tick or a lot); a zero step accepts any decimal. */
export function isMultipleOf(value: string, step: string): boolean {
  const scale = commonScale([value, step]);
  if (scale === null) return false;
  const v = tryParseDecimal(value, scale);
  const s = tryParseDecimal(step, scale);
  if (!v.ok || !s.ok) return false;
  return s.minor === 0n || v.minor % s.minor === 0n;
}

/**
 * One stepper press: moves `value` to the next multiple of `step` up or down (never below `step`),
 * showing at least the step's decimals. An empty or malformed value starts from `start` (or the step).
 */
export function stepDecimal(value: string, step: string, direction: 1 | -1, start?: string): string {
  const scale = commonScale([value, step, start]) ?? 0;
  const digits = decimalPlaces(step);
  const s = minorOrZero(step, scale);
  const parsed = tryParseDecimal(value.trim(), scale);
  if (!parsed.ok) return withDecimals(start ? minorOrZero(start, scale) : s, scale, digits);
  if (s <= 0n) return value;
  let v = parsed.minor;
  const rest = ((v % s) + s) % s;
  if (direction > 0) v = v - rest + s;
  else v = rest === 0n ? v - s : v - rest;
  if (v < s) v = s;
  return withDecimals(v, scale, digits);
}

/** Formats at `scale`, then drops trailing zeros down to `digits` decimals ("12.300" → "12.30" at 2). */
function withDecimals(minor: bigint, scale: number, digits: number): string {
  const text = formatDecimal(minor, scale);
  if (scale <= digits) return text;
  const trimmed = text.replace(new RegExp(`(\\.\\d{${digits}}\\d*?)0+$`), '$1');
  return trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
}
