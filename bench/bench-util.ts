// Owns the small helpers benchmarks share: command-line arguments, percentiles, peak RSS, the CPU time
// the host stole.
// Must hold: percentiles are read from a full sorted copy (no sampling). Must not: print anything.

import { readFileSync } from 'node:fs';

export function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

export function percentiles(samples: Float64Array): { p50: number; p99: number; p999: number; max: number } {
  const sorted = Float64Array.from(samples).sort();
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number);
  return { p50: at(0.5), p99: at(0.99), p999: at(0.999), max: Math.round(sorted[sorted.length - 1] as number) };
}

export function peakRssMiB(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** The machine's CPU time so far from /proc/stat's first line: [all of it, the part stolen by the host]. */
export function cpuTimesOf(stat: string): [total: number, steal: number] | undefined {
  const line = stat.split('\n', 1)[0] ?? '';
  const fields = line.trim().split(/\s+/);
  if (fields[0] !== 'cpu' || fields.length < 9) return undefined;
  // user nice system idle iowait irq softirq steal (guest time is counted in user already).
  const times = fields.slice(1, 9).map(Number);
  if (times.some((t) => !Number.isFinite(t))) return undefined;
  return [times.reduce((a, b) => a + b, 0), times[7] as number];
}

/**
 * Starts measuring the share of the machine's CPU time its host took away (steal, on a virtual machine):
 * the returned function gives the percentage since, or undefined where /proc/stat is not readable. On
 * this shared machine the same run took twice as long while ~45% was stolen, so every bench reports it.
 */
export function stealMeter(): () => number | undefined {
  const read = () => {
    try {
      return cpuTimesOf(readFileSync('/proc/stat', 'utf8'));
    } catch {
      return undefined;
    }
  };
  const start = read();
  return () => {
    const now = read();
    if (start === undefined || now === undefined || now[0] <= start[0]) return undefined;
    return Math.round((1000 * (now[1] - start[1])) / (now[0] - start[0])) / 10;
  };
}
