// Owns the WebSocket fan-out bench's bookkeeping, apart from any socket: which instrument each client
// watches (seeded), the latency histogram the client processes fill and the parent merges, and the
// dropped-message count from per-channel `seq` gaps.
// Must hold: the same seed and sizes give the same assignment; a histogram bucket is within 1% of the
// latencies it holds; every seq a client should have seen and did not is counted once.

import { nextUniform, rngFor } from '../packages/market/src/prng.ts';

/** Each client's instrument (an index into `instruments`), spread evenly, in a seeded order. */
export function assignClients(clients: number, instruments: number, seed: number): number[] {
  const order = Array.from({ length: clients }, (_, i) => i % instruments);
  const rng = rngFor(seed, 'ws-bench clients');
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(nextUniform(rng) * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

/** Log-spaced buckets from 1 µs: bucket b holds latencies in [1.01^b, 1.01^(b+1)) µs (~1% wide). */
const GROWTH = Math.log(1.01);
export const BUCKETS = 2_400; // up to ~23,000 s: nothing is clipped

export function bucketOf(latencyUs: number): number {
  if (!(latencyUs > 1)) return 0;
  return Math.min(BUCKETS - 1, Math.floor(Math.log(latencyUs) / GROWTH));
}

/** The lower edge of a bucket, in µs. */
export const bucketUs = (bucket: number) => Math.exp(bucket * GROWTH);

export function mergeHistograms(into: number[], from: readonly number[]): number[] {
  for (let b = 0; b < from.length; b++) into[b] = (into[b] ?? 0) + (from[b] as number);
  return into;
}

/** Latency percentiles in ms (the lower edge of the bucket where the quantile falls) and the count. */
export function quantilesMs(histogram: readonly number[]): {
  count: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
} {
  const count = histogram.reduce((a, b) => a + b, 0);
  const at = (q: number) => {
    if (count === 0) return Number.NaN;
    const rank = Math.max(1, Math.ceil(q * count));
    let seen = 0;
    for (let b = 0; b < histogram.length; b++) {
      seen += histogram[b] as number;
      if (seen >= rank) return Math.round(bucketUs(b)) / 1000;
    }
    return Number.NaN;
  };
  return { count, p50Ms: at(0.5), p99Ms: at(0.99), p999Ms: at(0.999), maxMs: at(1) };
}

/**
 * Per client and channel: the first and last seq seen and how many were skipped between them. The
 * updates a client never got after its last one (the tail) are found by `tailDrops`.
 */
export class SeqTracker {
  readonly first = new Map<string, number>();
  readonly last = new Map<string, number>();
  received = 0;
  gaps = 0;

  see(channel: string, seq: number): void {
    this.received++;
    const last = this.last.get(channel);
    if (last === undefined) this.first.set(channel, seq);
    else if (seq > last + 1) this.gaps += seq - last - 1;
    if (last === undefined || seq > last) this.last.set(channel, seq);
  }
}

/**
 * Updates missing at the end: for each client's channel, those up to the highest seq any client got of
 * an update a driver step made that this client never got (its last seq lower). Updates the server
 * published on its own after the driver stopped, while the client processes were being asked for their
 * figures one after another, are not expected.
 */
export function tailDrops(
  streams: readonly (readonly [channel: string, lastAny: number, lastDriven: number])[],
): number {
  const highest = new Map<string, number>();
  for (const [channel, , driven] of streams) highest.set(channel, Math.max(highest.get(channel) ?? 0, driven));
  let missing = 0;
  for (const [channel, last] of streams) missing += Math.max(0, (highest.get(channel) as number) - last);
  return missing;
}
