import { describe, expect, it } from 'vitest';
import { figureOf, lastJsonLine, summarise } from './ab.ts';

describe('side-by-side comparison of two builds', () => {
  it("reads the bench's last JSON line, past log lines and a line that only looks like JSON", () => {
    const output =
      'warming up\n{"bench":"engine","opsPerSec":1}\n{"bench":"engine","opsPerSec":2,"fixedRate":{"p999Ns":7}}\n{not json\n';
    const line = lastJsonLine(output);
    expect(figureOf(line, 'opsPerSec')).toBe(2);
    expect(figureOf(line, 'fixedRate.p999Ns')).toBe(7);
    expect(() => figureOf(line, 'fixedRate.p99Ns')).toThrow(/no number at fixedRate.p99Ns/);
    expect(() => figureOf(line, 'bench')).toThrow(/no number/);
    expect(() => lastJsonLine('no json here\n')).toThrow(/no JSON line/);
  });

  it('counts the pairs the head won and takes the median of head/base, either way round', () => {
    const pairs = [
      [100, 110],
      [200, 190],
      [100, 130],
      [100, 100],
    ] as const;
    expect(summarise(pairs, true)).toEqual({ headWins: 2, ratios: [1.1, 0.95, 1.3, 1], medianRatio: 1.05 });
    // Latencies: lower is better, so the same figures give the other pairs.
    expect(summarise(pairs, false).headWins).toBe(1);
    expect(summarise([[4, 2]], true)).toEqual({ headWins: 0, ratios: [0.5], medianRatio: 0.5 });
    expect(() => summarise([], true)).toThrow(/no pairs/);
  });
});
