// Public face of @bourse/testkit: builders, seeded randomness, scenario helpers, the naive reference
// engine and the simulation that compares it with the real one.
// Must hold: nothing here is used by production code. Must not: read the clock or Math.random.

export { btcPerp, btcUsdt, CommandFactory, reliance } from './builders.ts';
export { type NaiveResult, type NaiveTrade, ReferenceEngine } from './reference-engine.ts';
export { applyAll, applyOk, balanceSheet, placedId, rejectionOf, statusesOf, tradesOf } from './scenario.ts';
export { SeededRandom } from './seeded-random.ts';
export { runSimulation, type SimulationOptions, type SimulationReport } from './simulation.ts';
