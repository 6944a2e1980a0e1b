// Benchmark (not a test): 100,000 open positions on two perpetuals, built through engine commands
// (liquidation-workload.ts), then a stream of mark-price moves. For each tick, the time from set_mark_price
// to every due liquidation applied (the host's job: find the due positions with the engine's
// LiquidationWatch, send `liquidate` for each, refresh the index from the events), against the same with a
// brute-force scan of every position in place of the index. Prints ONE line of JSON.
// Run: npm run bench:liquidation [-- --positions 100000 --ticks 200 --seed 1 --depth 200000]

import { tuneV8 } from '../apps/server/src/platform/v8-tuning.ts';
import { argument, peakRssMiB, percentiles, stealMeter } from './bench-util.ts';
import { runLiquidationWorkload } from './liquidation-workload.ts';

tuneV8();
const seed = Number(argument('seed') ?? 1);
const positions = Number(argument('positions') ?? 100_000);
const ticks = Number(argument('ticks') ?? 200);
const depthLots = Number(argument('depth') ?? 200_000);

const steal = stealMeter();
const f = runLiquidationWorkload({ seed, positions, ticks, depthLots });
const us = (value: number) => Math.round(value * 10) / 10;
const tick = percentiles(f.tickUs);
const reference = percentiles(f.referenceTickUs);
const find = percentiles(f.findUs);
const referenceFind = percentiles(f.referenceFindUs);
console.log(
  JSON.stringify({
    bench: 'liquidation',
    seed,
    positions: f.positions,
    contracts: 2,
    ticks: f.ticks,
    depthLots,
    p50Us: us(tick.p50),
    p99Us: us(tick.p99),
    maxUs: us(tick.max),
    findP50Us: us(find.p50),
    findP99Us: us(find.p99),
    reference: {
      p50Us: us(reference.p50),
      p99Us: us(reference.p99),
      maxUs: us(reference.max),
      findP50Us: us(referenceFind.p50),
      findP99Us: us(referenceFind.p99),
    },
    p50Ratio: Math.round((reference.p50 / Math.max(1, tick.p50)) * 10) / 10,
    p99Ratio: Math.round((reference.p99 / Math.max(1, tick.p99)) * 10) / 10,
    liquidations: f.liquidations,
    adlEvents: f.adlEvents,
    withAdl: f.withAdl,
    refused: f.refused,
    mismatches: f.mismatches,
    leftDue: f.leftDue,
    openAtEnd: f.openAtEnd,
    setupCommands: f.setupCommands,
    setupMs: Math.round(f.setupMs),
    invariant: f.invariant ?? null,
    stealPct: steal() ?? null,
    peakRssMiB: peakRssMiB(),
  }),
);
