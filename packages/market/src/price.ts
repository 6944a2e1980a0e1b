// Owns the price and size codecs of market data: integer ticks/lots <-> decimal strings, and price bands.
// Must hold: conversions are exact (bigint string math); a decimal off the tick grid is refused, never rounded.
// Must not: use floating point on a stored price, or read the clock, randomness or environment.

/** A decimal step ("0.05", "0.00001", "1") split into its scale and integer units at that scale. */
export type DecimalStep = { readonly scale: number; readonly units: bigint };

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

export function parseStep(step: string): DecimalStep {
  const match = DECIMAL.exec(step);
  if (!match) throw new Error(`bad step "${step}"`);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  const units = BigInt((match[1] ?? '0') + fraction);
  if (units <= 0n) throw new Error(`step must be positive: "${step}"`);
  return { scale: fraction.length, units };
}

/** Formats `count` steps (integer ticks or lots) as a decimal string with the step's decimals. */
export function stepsToDecimal(count: number, step: string): string {
  if (!Number.isSafeInteger(count)) throw new Error(`not an integer count: ${count}`);
  const { scale, units } = parseStep(step);
  const minor = BigInt(count) * units;
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const body = scale === 0 ? whole : `${whole}.${digits.slice(digits.length - scale)}`;
  return negative ? `-${body}` : body;
}

/** Parses a non-negative decimal into whole steps; null when malformed, off the step grid or too large. */
export function decimalToSteps(text: string, step: string): number | null {
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const { scale, units } = parseStep(step);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > scale) return null;
  const minor = BigInt((match[1] ?? '0') + fraction.padEnd(scale, '0'));
  if (minor % units !== 0n) return null;
  const count = minor / units;
  return count <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(count) : null;
}

/** Price in ticks as a decimal string ("0.05" tick × 30047 = "1502.35"). */
export function ticksToDecimal(ticks: number, tickSize: string): string {
  return stepsToDecimal(ticks, tickSize);
}

/** Decimal price to ticks; null when it is not a whole number of ticks. */
export function decimalToTicks(text: string, tickSize: string): number | null {
  return decimalToSteps(text, tickSize);
}

export type PriceBand = { readonly lowerTicks: number; readonly upperTicks: number };

/**
 * The band around the previous close, in whole ticks inside it: lower rounds up, upper rounds down,
 * so a price on the band edge is allowed and nothing outside it is. `bandPct` null means no band.
 */
export function priceBand(prevCloseTicks: number, bandPct: number | null): PriceBand | null {
  if (bandPct === null) return null;
  if (!Number.isSafeInteger(prevCloseTicks) || prevCloseTicks <= 0)
    throw new Error(`bad previous close ${prevCloseTicks}`);
  if (!Number.isInteger(bandPct) || bandPct <= 0 || bandPct >= 100) throw new Error(`bad band ${bandPct}`);
  const lowerTicks = Math.max(1, Math.ceil((prevCloseTicks * (100 - bandPct)) / 100));
  const upperTicks = Math.floor((prevCloseTicks * (100 + bandPct)) / 100);
  return { lowerTicks, upperTicks };
}
