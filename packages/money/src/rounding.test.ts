import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideRounded, ROUNDING_MODES } from './rounding.ts';

describe('divideRounded', () => {
  it('rounds the classic ties and non-ties the way each mode is named', () => {
    const cases: [bigint, bigint, string, bigint][] = [
      [25n, 10n, 'down', 2n],
      [25n, 10n, 'up', 3n],
      [25n, 10n, 'half_even', 2n],
      [25n, 10n, 'half_up', 3n],
      [35n, 10n, 'half_even', 4n],
      [-25n, 10n, 'half_even', -2n],
      [-25n, 10n, 'half_up', -3n],
      [-21n, 10n, 'down', -2n],
      [-21n, 10n, 'up', -3n],
      [26n, 10n, 'half_even', 3n],
      [24n, 10n, 'half_up', 2n],
    ];
    for (const [n, d, mode, expected] of cases) {
      expect(divideRounded(n, d, mode as never), `${n}/${d} ${mode}`).toBe(expected);
    }
  });

  it('is exact on exact quotients and never more than one unit from truncation', () => {
    fc.assert(
      fc.property(
        fc.bigInt(-(10n ** 30n), 10n ** 30n),
        fc.bigInt(1n, 10n ** 20n),
        fc.constantFrom(...ROUNDING_MODES),
        (n, d, mode) => {
          expect(divideRounded(n * d, d, mode)).toBe(n);
          const diff = divideRounded(n, d, mode) - n / d;
          expect(diff >= -1n && diff <= 1n).toBe(true);
        },
      ),
    );
  });
});
