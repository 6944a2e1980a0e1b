// Owns the command line of the simulation: `node packages/testkit/src/sim-cli.ts --seed 1 --commands 100000`
// (`--big-amounts`: amounts past 2^53 minor units, see SimulationOptions).
// Must hold: exits 0 with one JSON line on success; non-zero, printing the seed, on the first broken invariant.
// Must not: pick a seed from the clock unless none is given (and then it prints the one it picked).

import { runSimulation } from './simulation.ts';

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const seed = Number(argument('seed') ?? Date.now() % 1_000_000);
const commands = Number(argument('commands') ?? 100_000);
if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(commands) || commands < 0) {
  console.error('usage: sim-cli.ts --seed <integer> --commands <count>');
  process.exit(2);
}
const startedMs = performance.now();
const report = runSimulation({ seed, commands, bigAmounts: process.argv.includes('--big-amounts') });
const elapsedMs = Math.round(performance.now() - startedMs);
if (report.ok) {
  console.log(JSON.stringify({ ...report, elapsedMs }));
} else {
  console.error(`simulation failed with seed ${seed} at step ${report.step}: ${report.message}`);
  console.error(`command: ${JSON.stringify(report.command)}`);
  const flags = process.argv.includes('--big-amounts') ? ' --big-amounts' : '';
  console.error(`reproduce: node packages/testkit/src/sim-cli.ts --seed ${seed} --commands ${commands}${flags}`);
  process.exit(1);
}
