// Benchmark (not a test): 1,000,000 seeded operations on one book, against our OrderBook, the npm
// package nodejs-order-book and the naive reference engine, then a fixed-arrival-rate run (1M ops/s
// offered, latency from scheduled arrival) and bytes per resting order. Prints ONE line of JSON.
// Run: npm run bench:book [-- --ops 1000000 --seed 42] (add --fixed-only for just the fixed-rate run)

import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BUY, NO_OWNER, OrderBook, SELL, STP_CANCEL_RESTING } from '@bourse/engine';
import { ReferenceEngine } from '@bourse/testkit';
import { OrderBook as NpmOrderBook } from 'nodejs-order-book';
import { argument, peakRssMiB, percentiles, stealMeter } from './bench-util.ts';
import { generateWorkload, MAX_TICK, OP_CANCEL, OP_LIMIT, type Workload } from './book-workload.ts';

const seed = Number(argument('seed') ?? 42);
const ops = Number(argument('ops') ?? 1_000_000);
const naiveOps = Number(argument('naive-ops') ?? 20_000);

function applyOurs(book: OrderBook, w: Workload, i: number): void {
  const kind = w.kind[i];
  const side = w.side[i] === BUY ? BUY : SELL;
  if (kind === OP_CANCEL) {
    book.cancel(w.id[i] as number);
  } else if (kind === OP_LIMIT) {
    const price = w.price[i] as number;
    const left = book.match(side, price, w.qty[i] as number, NO_OWNER, STP_CANCEL_RESTING);
    if (left > 0) book.rest(w.id[i] as number, side, price, left, NO_OWNER);
  } else {
    book.match(side, side === BUY ? MAX_TICK : 1, w.qty[i] as number, NO_OWNER, STP_CANCEL_RESTING);
  }
}

function applyNpm(book: NpmOrderBook, w: Workload, i: number): void {
  const kind = w.kind[i];
  const side = (w.side[i] === BUY ? 'buy' : 'sell') as never;
  if (kind === OP_CANCEL) book.cancel(String(w.id[i]));
  else if (kind === OP_LIMIT)
    book.limit({ id: String(w.id[i]), side, size: w.qty[i] as number, price: w.price[i] as number });
  else book.market({ side, size: w.qty[i] as number });
}

function throughput(run: (i: number) => void, count: number): number {
  const start = performance.now();
  for (let i = 0; i < count; i++) run(i);
  return count / ((performance.now() - start) / 1000);
}

/** Times every operation, in chunks of 1,000 like fixedRate() (for uniformity: this loop was not seen to allocate). */
function latencies(run: (i: number) => void, count: number): Float64Array {
  const ns = new Float64Array(count);
  for (let from = 0; from < count; from += 1_000) latencyChunk(run, ns, from, Math.min(count, from + 1_000));
  return ns;
}

function latencyChunk(run: (i: number) => void, ns: Float64Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const t0 = performance.now();
    run(i);
    ns[i] = (performance.now() - t0) * 1e6;
  }
}

let spinSink = 0;
function spin(iterations: number): void {
  let sink = spinSink;
  for (let k = 0; k < iterations; k++) sink = (sink + k) | 0;
  spinSink = sink;
}

/** Spin iterations per millisecond, measured on spin() itself once it is warm (best of 5). */
function calibrateSpin(): number {
  spin(50_000_000);
  let best = 0;
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    spin(5_000_000);
    best = Math.max(best, 5_000_000 / (performance.now() - start));
  }
  return best;
}

// The fixed-rate loop's state between chunks, as doubles (no boxed numbers).
const SPIN_PER_MS = 0;
const PREVIOUS = 1;
const NOW = 2;
const CLOCK_READS = 3;
const STALLS = 4;
const STALL_MS = 5;
const STALL_LONGEST_MS = 6;

/**
 * Offers operations at a fixed rate; latency counts from each operation's scheduled arrival.
 * Nothing in the loop may allocate, or it makes the scavenges it then measures. It waits by spinning
 * a calibrated number of iterations for most of the gap and reads the clock about twice per operation
 * (a loop that polled the clock while it waited made ~18). And it runs in chunks of
 * 1,000 operations, a function called often enough to be optimised as a whole: as one long loop V8
 * optimised it on the stack (OSR), and that code boxed the clock value carried round the waiting loop,
 * ~33 bytes an operation (with --trace-gc: 8 scavenges inside the run, against 0-1 in chunks once
 * warmed up). Answers each operation's latency (ns), when its chunks began, its clock reads per
 * operation and the stalls it saw: gaps longer than 50 µs beyond what it meant to wait or run.
 */
function fixedRate(run: (i: number) => void, count: number, ratePerSec: number): FixedRateRun {
  const ns = new Float64Array(count);
  const intervalMs = 1000 / ratePerSec;
  const calibrated = calibrateSpin();
  const state = new Float64Array(7);
  state[SPIN_PER_MS] = calibrated;
  const start = performance.now() + 1;
  state[PREVIOUS] = performance.now();
  state[NOW] = state[PREVIOUS] as number;
  const startedAt = performance.now();
  for (let from = 0; from < count; from += FIXED_RATE_CHUNK) {
    fixedRateChunk(run, ns, from, Math.min(count, from + FIXED_RATE_CHUNK), start, intervalMs, calibrated, state);
  }
  return {
    ns,
    startedAt,
    clockReadsPerOp: (state[CLOCK_READS] as number) / count,
    stalls: {
      count: state[STALLS] as number,
      totalMs: state[STALL_MS] as number,
      longestMs: state[STALL_LONGEST_MS] as number,
    },
  };
}

type FixedRateRun = {
  ns: Float64Array;
  startedAt: number;
  clockReadsPerOp: number;
  stalls: { count: number; totalMs: number; longestMs: number };
};

const FIXED_RATE_CHUNK = 1_000;

function fixedRateChunk(
  run: (i: number) => void,
  ns: Float64Array,
  from: number,
  to: number,
  start: number,
  intervalMs: number,
  calibrated: number,
  state: Float64Array,
): void {
  let spinPerMs = state[SPIN_PER_MS] as number;
  let previous = state[PREVIOUS] as number;
  let now = state[NOW] as number;
  let clockReads = 0;
  for (let i = from; i < to; i++) {
    const arrival = start + i * intervalMs;
    while (now < arrival) {
      // Spin for ~95% of the remaining wait, then look at the clock again (never start early).
      const waitMs = arrival - now;
      const spun = waitMs > 0.0001;
      if (spun) spin(Math.floor(waitMs * 0.95 * spinPerMs));
      now = performance.now();
      clockReads += 1;
      // Keep the spin honest both ways: overshooting by 0.5-5 µs means it runs slower than calibrated
      // (longer gaps are the OS taking the core, not the spin); still early means it can spin more.
      if (spun && now > arrival + 0.0005 && now < arrival + 0.005) spinPerMs *= 0.95;
      else if (spun && now < arrival) spinPerMs = Math.min(spinPerMs * 1.01, calibrated * 1.5);
      const gap = now - previous;
      if (gap > 0.05 + waitMs) stall(state, gap - waitMs);
      previous = now;
    }
    run(i);
    now = performance.now();
    clockReads += 1;
    ns[i] = (now - arrival) * 1e6;
    const gap = now - previous;
    if (gap > 0.05) stall(state, gap);
    previous = now;
  }
  state[SPIN_PER_MS] = spinPerMs;
  state[PREVIOUS] = previous;
  state[NOW] = now;
  state[CLOCK_READS] = (state[CLOCK_READS] as number) + clockReads;
}

function stall(state: Float64Array, ms: number): void {
  state[STALLS] = (state[STALLS] as number) + 1;
  state[STALL_MS] = (state[STALL_MS] as number) + ms;
  if (ms > (state[STALL_LONGEST_MS] as number)) state[STALL_LONGEST_MS] = ms;
}

/**
 * A full collection. `npm run bench:book` exposes gc (--expose-gc); run as plain `node`, the flag is set
 * here and a new context's gc taken instead: without collections the memory probe measured garbage
 * (a negative figure, once).
 */
const gc: () => void =
  (globalThis as { gc?: () => void }).gc ??
  (() => {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  })();

function bytesPerRestingOrder(count: number): number {
  gc();
  const before = process.memoryUsage();
  const book = new OrderBook(MAX_TICK, 16);
  for (let i = 0; i < count; i++) {
    const buy = i % 2 === 0;
    book.rest(i + 1, buy ? BUY : SELL, buy ? 400_000 + (i % 90_000) : 600_000 + (i % 90_000), 10, NO_OWNER);
  }
  gc();
  const after = process.memoryUsage();
  const bytes = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
  if (book.restingCount !== count) throw new Error('memory probe lost orders');
  return Math.round(bytes / count);
}

const workload = generateWorkload(seed, ops);

// Warm up on a short prefix, then measure on fresh books.
{
  const warm = new OrderBook(MAX_TICK, 1 << 16);
  for (let i = 0; i < Math.min(ops, 200_000); i++) applyOurs(warm, workload, i);
}
const oursBook = new OrderBook(MAX_TICK, 1 << 16);
const opsPerSec = throughput((i) => applyOurs(oursBook, workload, i), ops);
const latencyBook = new OrderBook(MAX_TICK, 1 << 16);
const oursLatency = percentiles(latencies((i) => applyOurs(latencyBook, workload, i), ops));
// The fixed-rate loop itself warmed up first (on a book of its own): until V8 has optimised it, its clock
// reads allocate, ~4 MB in its first ~60 ms (a scavenge inside the measured run, seen with --trace-gc).
{
  const warmBook = new OrderBook(MAX_TICK, 1 << 16);
  fixedRate((i) => applyOurs(warmBook, workload, i), Math.min(ops, 200_000), 1_000_000);
}
const rateBook = new OrderBook(MAX_TICK, 1 << 16);
const gcPauses: number[] = [];
/** When the measured fixed-rate run began and ended (performance.now()). */
const fixedWindow = { start: Number.POSITIVE_INFINITY, end: Number.POSITIVE_INFINITY };
const gcObserver = new PerformanceObserver((list) => {
  // Only collections that began inside the measured run (not in the percentiles' sort after it).
  for (const entry of list.getEntries()) {
    if (entry.startTime >= fixedWindow.start && entry.startTime <= fixedWindow.end) gcPauses.push(entry.duration);
  }
});
gc();
gcObserver.observe({ entryTypes: ['gc'] });
const fixedSteal = stealMeter();
const fixedRun = fixedRate((i) => applyOurs(rateBook, workload, i), ops, 1_000_000);
fixedWindow.start = fixedRun.startedAt;
fixedWindow.end = performance.now();
const fixed = percentiles(fixedRun.ns);
const { stalls } = fixedRun;
/** The share of the machine's CPU time its host took during the fixed-rate run (%), where readable. */
const fixedStealPct = fixedSteal();
await new Promise((resolve) => setTimeout(resolve, 10));
gcObserver.disconnect();
if (process.argv.includes('--fixed-only')) {
  console.log(
    JSON.stringify({
      bench: 'book-fixed-rate',
      ...fixed,
      clockReadsPerOp: fixedRun.clockReadsPerOp,
      gcPauses: gcPauses.length,
      gcPauseMsMax: Math.max(0, ...gcPauses),
      stalls,
      stealPct: fixedStealPct,
    }),
  );
  process.exit(0);
}

const npmBook = new NpmOrderBook();
const referenceOpsPerSec = throughput((i) => applyNpm(npmBook, workload, i), ops);

const reference = new ReferenceEngine(1_000_000_000);
reference.apply({
  id: 'r',
  timeMs: 0,
  type: 'register_instrument',
  instrument: {
    id: 'X',
    kind: 'spot',
    base: 'BTC',
    quote: 'USDT',
    wallet: 'spot',
    tickSize: '0.01',
    lotSize: '0.0001',
    maxPriceTicks: MAX_TICK,
    minQtyLots: 1,
    maxQtyLots: 1_000_000,
    makerFeeBps: 0,
    takerFeeBps: 0,
    marketProtectionBps: 5000,
    defaultStp: 'cancel_resting',
  },
});
reference.apply({
  id: 'd1',
  timeMs: 0,
  type: 'deposit',
  userId: 'buyer',
  wallet: 'spot',
  asset: 'USDT',
  amount: '1000000000000',
  from: 'faucet',
  cause: 'paper_grant',
});
reference.apply({
  id: 'd2',
  timeMs: 0,
  type: 'deposit',
  userId: 'seller',
  wallet: 'spot',
  asset: 'BTC',
  amount: '1000000',
  from: 'faucet',
  cause: 'paper_grant',
});
const referenceIds = new Map<number, [number, string]>();
const naiveCount = Math.min(naiveOps, ops);
let naiveNext = 1;
const naiveOpsPerSec = throughput((i) => {
  const side = workload.side[i] === BUY ? 'buy' : 'sell';
  const userId = side === 'buy' ? 'buyer' : 'seller';
  const base = { id: `n${i}`, timeMs: i };
  if (workload.kind[i] === OP_CANCEL) {
    const target = referenceIds.get(workload.id[i] as number);
    if (target !== undefined) reference.apply({ ...base, type: 'cancel_order', userId: target[1], orderId: target[0] });
    return;
  }
  const placed =
    workload.kind[i] === OP_LIMIT
      ? reference.apply({
          ...base,
          type: 'place_order',
          userId,
          instrumentId: 'X',
          side,
          orderType: 'limit',
          priceTicks: workload.price[i] as number,
          qtyLots: workload.qty[i] as number,
        })
      : reference.apply({
          ...base,
          type: 'place_order',
          userId,
          instrumentId: 'X',
          side,
          orderType: 'market',
          qtyLots: workload.qty[i] as number,
        });
  if (placed.ok) referenceIds.set(workload.id[i] as number, [naiveNext++, userId]);
}, naiveCount);

const bytes = bytesPerRestingOrder(1_000_000);

console.log(
  JSON.stringify({
    bench: 'book',
    seed,
    ops,
    opsPerSec: Math.round(opsPerSec),
    referenceOpsPerSec: Math.round(referenceOpsPerSec),
    ratio: Number((opsPerSec / referenceOpsPerSec).toFixed(1)),
    p50Ns: oursLatency.p50,
    p99Ns: oursLatency.p99,
    p999Ns: oursLatency.p999,
    maxNs: oursLatency.max,
    fixedRate: {
      offeredOpsPerSec: 1_000_000,
      p50Ns: fixed.p50,
      p99Ns: fixed.p99,
      p999Ns: fixed.p999,
      maxNs: fixed.max,
      gcPauses: gcPauses.length,
      gcPauseMsMax: Number(Math.max(0, ...gcPauses).toFixed(3)),
      stallsOver50Us: stalls.count,
      stallMsTotal: Number(stalls.totalMs.toFixed(1)),
      stallMsLongest: Number(stalls.longestMs.toFixed(2)),
      clockReadsPerOp: Number(fixedRun.clockReadsPerOp.toFixed(2)),
      stealPct: fixedStealPct,
    },
    bytesPerRestingOrder: bytes,
    naiveOpsPerSec: Math.round(naiveOpsPerSec),
    naiveOps: naiveCount,
    restingAtEnd: oursBook.restingCount,
    peakRssMiB: peakRssMiB(),
    node: process.version,
  }),
);
