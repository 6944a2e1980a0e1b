// Benchmark (not a test): the full engine (validation, risk checks, holds, matching, ledger settlement
// with fees, events in the result log, read in place as the host's projection reads them) for 10,000
// users on one BTC/USDT book, seeded. The same workload then runs in the
// same process on the floor (engine-floor.ts: the same rules in typed arrays, no per-order objects, no
// events, no idempotency window), which must end with the engine's trades, rejections and balances:
// `floorOpsPerSec` is what these rules cost at the least, on the machine as it is during the run.
// Both run under the V8 settings the server runs with (platform/v8-tuning.ts); BOURSE_V8_TUNING=off
// gives V8's defaults. Prints ONE line of JSON.
// --only-floor runs the floor alone (no engine, nothing compared): for bench:instructions -- --core floor.
// Run: npm run bench:engine [-- --orders 1000000 --seed 7 --remember 100000 --chunk 1000 --no-floor | --only-floor]

import { type ApplyResult, type Command, Engine } from '@bourse/engine';
import { tuneV8 } from '../apps/server/src/platform/v8-tuning.ts';
import { argument, peakRssMiB, percentiles, stealMeter } from './bench-util.ts';
import { EngineFloor } from './engine-floor.ts';
import { EngineWorkload } from './engine-workload.ts';

// V8's settings as the server runs the engine (main.ts); BOURSE_V8_TUNING=off for V8's defaults.
const v8Flags = tuneV8();
const seed = Number(argument('seed') ?? 7);
const total = Number(argument('orders') ?? 1_000_000);
const userCount = EngineWorkload.DEFAULT_USERS;
// Commands are generated outside the timed loop in small chunks: a 50,000-command chunk kept alive
// made every scavenge copy it (a harness artefact, not engine work).
const chunk = Number(argument('chunk') ?? 1_000);
// --remember 0 turns the idempotency window off, to show what it costs.
const remembered = Number(argument('remember') ?? 100_000);

const latencyNs = new Float64Array(total);
const batch: Command[] = new Array(chunk);

/**
 * Applies one generated chunk, timing each command: one clock read per command, a command's latency
 * being the time since the previous read (so it also carries the few tens of ns of bookkeeping). A
 * function per chunk rather than one long loop, as the book bench's fixed-rate loop had to be (there,
 * V8's on-stack code boxed the clock's values: bench/HISTORY.md, session 11); here for uniformity, as
 * this loop was not seen to allocate and the figures did not move.
 */
function timeChunk(
  core: { apply(command: Command): ApplyResult },
  workload: EngineWorkload,
  size: number,
  applied: number,
  counts: Float64Array,
): void {
  let rejected = 0;
  let trades = 0;
  let before = performance.now();
  for (let i = 0; i < size; i++) {
    const result = core.apply(batch[i] as Command);
    const after = performance.now();
    latencyNs[applied + i] = (after - before) * 1e6;
    before = after;
    if (!result.ok) {
      rejected += 1;
      continue;
    }
    trades += workload.observe(result);
  }
  counts[0] = (counts[0] as number) + rejected;
  counts[1] = (counts[1] as number) + trades;
}

/** The seeded workload through `core`: setup, then the trading commands, generated in chunks outside the timed loop. */
function drive(core: { apply(command: Command): ApplyResult }) {
  const workload = new EngineWorkload(seed, userCount);
  for (const command of workload.setup()) {
    const r = core.apply(command);
    if (!r.ok) throw new Error(r.code);
  }
  const steal = stealMeter();
  let applied = 0;
  /** [rejected, trades] */
  const counts = new Float64Array(2);
  let busyMs = 0;
  /** CPU time of this process (all its threads) in the timed loops: steadier than wall time on a shared machine. */
  let cpuMs = 0;
  while (applied < total) {
    const size = Math.min(chunk, total - applied);
    for (let i = 0; i < size; i++) batch[i] = workload.next(applied + i);
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    timeChunk(core, workload, size, applied, counts);
    busyMs += performance.now() - start;
    const cpu = process.cpuUsage(cpuStart);
    cpuMs += (cpu.user + cpu.system) / 1000;
    applied += size;
  }
  return {
    rejected: counts[0] as number,
    trades: counts[1] as number,
    opsPerSec: Math.round(total / (busyMs / 1000)),
    cpuOpsPerSec: Math.round(total / (cpuMs / 1000)),
    /** The share of the machine's CPU time its host took during the run (%), where readable. */
    stealPct: steal(),
  };
}

if (process.argv.includes('--only-floor')) {
  // --floor-features window,events: the floor with the engine's idempotency window (of --remember
  // commands) and/or its events in the engine's result log (engine-floor.ts, FloorFeatures).
  const features = argument('floor-features')?.split(',');
  const floor = new EngineFloor(
    features === undefined
      ? undefined
      : { window: features.includes('window') ? remembered : 0, events: features.includes('events') },
  );
  const { rejected, trades, opsPerSec, cpuOpsPerSec, stealPct } = drive(floor);
  if (features?.includes('events') && trades !== floor.trades) throw new Error('the floor wrote the wrong fills');
  console.log(
    JSON.stringify({
      bench: 'engine-floor',
      ...(features === undefined ? {} : { features }),
      seed,
      users: userCount,
      commands: total,
      opsPerSec,
      cpuOpsPerSec,
      rejected,
      stealPct,
      v8Flags,
    }),
  );
  process.exit(0);
}
const engine = new Engine({ maxOpenOrdersPerUser: 200, rememberedCommandsMax: remembered });
const run = drive(engine);
const broken = engine.findBrokenInvariant();
if (broken !== undefined) throw new Error(`invariant broken after the benchmark: ${broken}`);
const p = percentiles(latencyNs);
const floor = process.argv.includes('--no-floor') ? undefined : runFloor();

/** The same workload on the floor, timed the same way, then checked against the engine's end state. */
function runFloor(): { opsPerSec: number; cpuOpsPerSec: number; stealPct: number | undefined } {
  const core = new EngineFloor();
  const { rejected, opsPerSec, cpuOpsPerSec, stealPct } = drive(core);
  // The floor's answers carry no trade events: it counts its trades itself.
  if (rejected !== run.rejected || core.trades !== run.trades) {
    throw new Error(
      `the floor parted from the engine: ${rejected}/${core.trades} against ${run.rejected}/${run.trades}`,
    );
  }
  for (let u = 0; u < userCount; u++) {
    const userId = `user${u}`;
    const usdt = engine.balance(userId, 'spot', 'USDT');
    const btc = engine.balance(userId, 'spot', 'BTC');
    const theirs = [usdt.balance, usdt.held, btc.balance, btc.held].map(Number).join();
    const ours = core.balancesOf(userId)?.join();
    if (ours !== theirs) throw new Error(`the floor's balances of ${userId} are ${ours}, the engine's ${theirs}`);
  }
  return { opsPerSec, cpuOpsPerSec, stealPct };
}
console.log(
  JSON.stringify({
    bench: 'engine',
    seed,
    users: userCount,
    commands: total,
    rememberedCommandsMax: remembered,
    opsPerSec: run.opsPerSec,
    cpuOpsPerSec: run.cpuOpsPerSec,
    p50Ns: p.p50,
    p99Ns: p.p99,
    p999Ns: p.p999,
    maxNs: p.max,
    ...(floor
      ? {
          floorOpsPerSec: floor.opsPerSec,
          floorCpuOpsPerSec: floor.cpuOpsPerSec,
          ratioToFloor: Math.round((run.opsPerSec / floor.opsPerSec) * 1000) / 1000,
          floorStealPct: floor.stealPct,
        }
      : {}),
    stealPct: run.stealPct,
    rejected: run.rejected,
    trades: run.trades,
    restingAtEnd: engine.depth('BTC-USDT', 1_000_000).bids.length + engine.depth('BTC-USDT', 1_000_000).asks.length,
    peakRssMiB: peakRssMiB(),
    v8Flags,
    note: 'opsPerSec includes one performance.now() per command (~50 ns) and the loop bookkeeping',
    node: process.version,
  }),
);
