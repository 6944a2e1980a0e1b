// Exact decimal arithmetic for the order form and the market screens. Owns: comparing, stepping and
// scaling the API's decimal strings without floats (BigInt at a fixed scale).
// Must hold: no value that reaches a request body or a money text passes through a float.

/** Digits after the point in a decimal string: "0.05" → 2, "1" → 0. */
export function decimalPlaces(value: string | null | undefined): number {
  if (!value) return 0;
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
}

/** "12.345" at scale 4 → 123450n; null when the text is not a plain decimal or has more digits. */
export function toScaled(value: string | null | undefined, scale: number): bigint | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  const match = /^(-)?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return null;
  const fraction = match[3] ?? '';
  if (fraction.length > scale) {
    // Extra digits must be zeros to stay exact.
    if (!/^0*$/.test(fraction.slice(scale))) return null;
  }
  const digits = (match[2] || '0') + fraction.slice(0, scale).padEnd(scale, '0');
  const scaled = BigInt(digits);
  return match[1] ? -scaled : scaled;
}

/** 123450n at scale 4 → "12.345" (trailing zeros kept up to `minDigits`). */
export function fromScaled(value: bigint, scale: number, minDigits = 0): string {
  const isNegative = value < 0n;
  const text = (isNegative ? -value : value).toString().padStart(scale + 1, '0');
  const integer = scale === 0 ? text : text.slice(0, -scale);
  let fraction = scale === 0 ? '' : text.slice(-scale);
  fraction = fraction.replace(/0+$/, '');
  if (fraction.length < minDigits) fraction = fraction.padEnd(minDigits, '0');
  const body = fraction ? `${integer}.${fraction}` : integer;
  return isNegative && /[1-9]/.test(body) ? `-${body}` : body;
}

/** The sign of a decimal string: 1, -1 or 0 (0 for unparsable text too). */
export function signOf(value: string | null | undefined): -1 | 0 | 1 {
  if (!value) return 0;
  const text = value.trim();
  if (!/^[+-]?\d*\.?\d*$/.test(text) || !/[1-9]/.test(text)) return 0;
  return text.startsWith('-') ? -1 : 1;
}

/** Compares two decimal strings exactly (unparsable text sorts as zero). */
export function compareDecimal(a: string | null | undefined, b: string | null | undefined): number {
  const scale = Math.max(decimalPlaces(a), decimalPlaces(b));
  const x = toScaled(a ?? '0', scale) ?? 0n;
  const y = toScaled(b ?? '0', scale) ?? 0n;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Whether `value` is a whole multiple of `step` (both decimal strings); a zero step accepts all. */
export function isMultipleOf(value: string, step: string): boolean {
  const scale = Math.max(decimalPlaces(value), decimalPlaces(step));
  const v = toScaled(value, scale);
  const s = toScaled(step, scale);
  if (v === null || s === null) return false;
  if (s === 0n) return true;
  return v % s === 0n;
}

/**
 * One stepper press: moves `value` to the next multiple of `step` up or down (never below `step`),
 * keeping the step's number of decimals. An empty value starts from `start` (or the step).
 */
export function stepDecimal(value: string, step: string, direction: 1 | -1, start?: string): string {
  const scale = Math.max(decimalPlaces(value), decimalPlaces(step), decimalPlaces(start));
  const s = toScaled(step, scale) ?? 0n;
  const digits = decimalPlaces(step);
  let v = toScaled(value, scale);
  if (v === null || value.trim() === '') {
    const base = toScaled(start ?? step, scale) ?? s;
    return fromScaled(base, scale, digits);
  }
  if (s <= 0n) return value;
  const rest = ((v % s) + s) % s;
  if (direction > 0) v = v - rest + s;
  else v = rest === 0n ? v - s : v - rest;
  if (v < s) v = s;
  return fromScaled(v, scale, digits);
}

/** The exact sum of decimal strings (unparsable entries count as zero). */
export function sumDecimals(values: readonly (string | null | undefined)[]): string {
  const scale = values.reduce((m, v) => Math.max(m, decimalPlaces(v)), 0);
  let total = 0n;
  for (const value of values) total += toScaled(value ?? '0', scale) ?? 0n;
  return fromScaled(total, scale, Math.min(scale, 2));
}
