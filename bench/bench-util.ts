// Owns the small helpers benchmarks share: command-line arguments, percentiles, peak RSS.
// Must hold: percentiles are read from a full sorted copy (no sampling). Must not: print anything.

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
