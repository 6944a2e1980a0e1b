// Benchmark (not a test): the IPO retail draw (drawIpoRetail, @bourse/contract/ipo-draw) for 1,000,000
// retail applications of 1 to 10 lots, oversubscribed (a lottery) and, for comparison, undersubscribed
// (one lot each plus a proportionate remainder), and the verifier re-running the lottery from its record.
// Prints ONE line of JSON: the time of each and the process's peak memory.
// Run: npm run bench:allotment [-- --applications 1000000 --seed 1]

import { createHash } from 'node:crypto';
import { drawIpoRetail, ipoSeedHash, verifyIpoDrawRecord } from '../packages/contract/src/ipo-draw.ts';
import { argument, peakRssMiB, stealMeter } from './bench-util.ts';

const n = Number(argument('applications') ?? 1_000_000);
const seedArg = argument('seed') ?? '1';
const seed = createHash('sha256').update(`allotment-bench:${seedArg}`).digest('hex');
const LOT = 50;

// The applications' lots from a seeded stream (xorshift), refs as the server makes them (fixed width).
let x = Number.parseInt(seed.slice(0, 8), 16) || 1;
const applications = Array.from({ length: n }, (_, i) => {
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  return { ref: `A${String(i + 1).padStart(10, '0')}`, lots: 1 + ((x >>> 0) % 10) };
});
const askedLots = applications.reduce((sum, a) => sum + a.lots, 0);

const steal = stealMeter();
const time = <T>(fn: () => T): { ms: number; result: T } => {
  const start = performance.now();
  const result = fn();
  return { ms: Math.round((performance.now() - start) * 10) / 10, result };
};

// Oversubscribed 4× by applicants: a lottery for a quarter of them.
const lotteryShares = BigInt(Math.floor(n / 4) * LOT);
const lottery = time(() => drawIpoRetail({ seed, applications, retailShares: lotteryShares, lotSize: LOT }));
// Undersubscribed: every application one lot, then 60% of what is left of the demand, proportionately.
const proportionateShares = BigInt(n * LOT + Math.floor((askedLots - n) * 0.6) * LOT);
const proportionate = time(() =>
  drawIpoRetail({ seed, applications, retailShares: proportionateShares, lotSize: LOT }),
);
const verify = time(() =>
  verifyIpoDrawRecord({
    // v1 (the seed alone): v2 only adds one hash and, for drand, one signature check (~0.3 s, not per application).
    algorithm: 'bourse-ipo-draw-v1',
    ipoId: 1,
    symbol: 'BENCH',
    name: 'Bench',
    seedHash: ipoSeedHash(seed),
    seed,
    closesAt: 0,
    beacon: null,
    retailShares: lotteryShares.toString(),
    lotSize: LOT,
    mode: 'lottery',
    applications,
    allotments: lottery.result.allotments,
    drawnAt: 0,
  }),
);
if (!verify.result.ok) throw new Error(`the lottery did not verify: ${verify.result.problems.join('; ')}`);

console.log(
  JSON.stringify({
    bench: 'allotment',
    applications: n,
    lotSize: LOT,
    lottery: { ms: lottery.ms, allottees: lottery.result.allotments.length },
    proportionate: { ms: proportionate.ms, allottees: proportionate.result.allotments.length },
    verifyLotteryMs: verify.ms,
    stealPct: steal() ?? null,
    peakRssMiB: peakRssMiB(),
  }),
);
