// The WebSocket fan-out bench, tiny: its bookkeeping (seeded assignment, histogram quantiles, seq gaps
// and tails), then one short run of the real bench against the real server and the reference, checking
// that it measured what it says (updates delivered and timed on both sides, no gaps on an idle machine's
// handful of clients) and printed one JSON line.

import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import {
  assignClients,
  bucketOf,
  bucketUs,
  mergeHistograms,
  quantilesMs,
  SeqTracker,
  tailDrops,
} from './ws-workload.ts';

it('assigns clients evenly over the instruments, the same way for the same seed', () => {
  const a = assignClients(1_000, 10, 1);
  expect(a).toEqual(assignClients(1_000, 10, 1));
  expect(a).not.toEqual(assignClients(1_000, 10, 2));
  for (let i = 0; i < 10; i++) expect(a.filter((x) => x === i)).toHaveLength(100);
});

it('keeps latencies in buckets ~1% wide and reads quantiles from them', () => {
  for (const us of [1.5, 250, 12_345, 2_000_000]) {
    const b = bucketOf(us);
    expect(bucketUs(b)).toBeLessThanOrEqual(us);
    expect(bucketUs(b + 1)).toBeGreaterThan(us);
    expect(bucketUs(b + 1) / bucketUs(b)).toBeCloseTo(1.01, 5);
  }
  const h: number[] = [];
  const one = (us: number) => {
    const x = new Array<number>(bucketOf(us) + 1).fill(0);
    x[bucketOf(us)] = 1;
    return x;
  };
  for (let ms = 1; ms <= 100; ms++) mergeHistograms(h, one(ms * 1000));
  const q = quantilesMs(h);
  expect(q.count).toBe(100);
  expect(q.p50Ms).toBeGreaterThan(49.4);
  expect(q.p50Ms).toBeLessThanOrEqual(50);
  expect(q.p99Ms).toBeGreaterThan(98);
  expect(q.maxMs).toBeGreaterThan(99);
});

it('counts every missing seq once: gaps between received ones, and the tail a client never got', () => {
  const t = new SeqTracker();
  for (const seq of [1, 2, 5, 6, 9]) t.see('ticker:X', seq);
  t.see('book:X', 3);
  expect(t.received).toBe(6);
  expect(t.gaps).toBe(4); // 3, 4, 7, 8
  // Two clients on ticker:X: the driven updates reached seq 9; the second client stopped at 7. A third
  // got seq 10, an update the server made on its own after the driver stopped: not expected of the others.
  expect(
    tailDrops([
      ['ticker:X', 9, 9],
      ['ticker:X', 7, 7],
      ['ticker:X', 10, 9],
      ['book:X', 3, 3],
    ]),
  ).toBe(2);
});

it('runs against the real server and the reference and prints one JSON line', () => {
  const out = execFileSync(
    process.execPath,
    [
      '--disable-warning=ExperimentalWarning',
      new URL('./ws-bench.ts', import.meta.url).pathname,
      '--clients',
      '20',
      '--instruments',
      '4',
      '--rate',
      '10',
      '--seconds',
      '1',
      '--rounds',
      '1',
      '--procs',
      '1',
    ],
    { encoding: 'utf8', timeout: 90_000 },
  );
  const lines = out.trim().split('\n');
  expect(lines).toHaveLength(1);
  const r = JSON.parse(lines[0] as string);
  expect(r).toMatchObject({ bench: 'ws', clients: 20, instruments: 4, rate: 10 });
  for (const side of [r, r.reference]) {
    expect(side.delivered).toBeGreaterThan(0);
    expect(side.p50Ms).toBeGreaterThan(0);
    expect(side.p99Ms).toBeGreaterThanOrEqual(side.p50Ms);
    expect(side.achievedRate).toBeGreaterThan(0);
    expect(side.dropped).toBe(0);
  }
  // The reference publishes every channel at every step: 10 steps × 2 channels × 20 clients.
  expect(r.reference.delivered).toBe(400);
}, 120_000);
