// Owns integer division with a named rounding mode: the only place money is ever divided.
// Must hold: every mode is exact on exact quotients and moves at most one unit from the true quotient.
// Must not: round silently; callers always name the mode.

/**
 * - `down`: towards zero (truncate).      - `up`: away from zero.
 * - `half_even`: nearest, ties to even.   - `half_up`: nearest, ties away from zero.
 */
export type RoundingMode = 'down' | 'up' | 'half_even' | 'half_up';

export const ROUNDING_MODES: readonly RoundingMode[] = ['down', 'up', 'half_even', 'half_up'];

/** numerator / denominator rounded by `mode`. The denominator must be positive. */
export function divideRounded(numerator: bigint, denominator: bigint, mode: RoundingMode): bigint {
  if (denominator <= 0n) throw new Error('divideRounded needs a positive denominator');
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  const away = numerator < 0n ? quotient - 1n : quotient + 1n;
  switch (mode) {
    case 'down':
      return quotient;
    case 'up':
      return away;
    case 'half_up':
    case 'half_even': {
      const twice = (remainder < 0n ? -remainder : remainder) * 2n;
      if (twice > denominator) return away;
      if (twice < denominator) return quotient;
      if (mode === 'half_up') return away;
      return quotient % 2n === 0n ? quotient : away;
    }
  }
}
