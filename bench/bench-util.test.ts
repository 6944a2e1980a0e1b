import { describe, expect, it } from 'vitest';
import { cpuTimesOf, percentiles, stealMeter } from './bench-util.ts';

describe('bench helpers', () => {
  it("reads the machine's CPU time and the host's steal from /proc/stat's first line", () => {
    const stat = 'cpu  253897 0 18261 240924 1673 0 2212 36456 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n';
    expect(cpuTimesOf(stat)).toEqual([253897 + 18261 + 240924 + 1673 + 2212 + 36456, 36456]);
    expect(cpuTimesOf('intr 1 2 3')).toBeUndefined();
    expect(cpuTimesOf('cpu 1 2 3')).toBeUndefined();
    const since = stealMeter();
    const share = since();
    // Undefined where /proc/stat cannot be read or no time has passed; a percentage otherwise.
    if (share !== undefined) expect(share >= 0 && share <= 100).toBe(true);
  });

  it('reads percentiles from every sample', () => {
    const samples = Float64Array.from({ length: 1000 }, (_, i) => 1000 - i);
    expect(percentiles(samples)).toEqual({ p50: 501, p99: 991, p999: 1000, max: 1000 });
  });
});
