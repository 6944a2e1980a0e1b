// `npm test`: every check CI runs, in order, stopping at nothing so one report shows all of it:
// type checks, lint, the dependency rules, unit and API tests (SQLite, and PostgreSQL when reachable), the engine's seeded
// simulation, a build of both front ends, then browser tests in Chromium. Ends with a table of each
// stage's time and outcome (to see where CI's minutes go), then one line "tests: N passed, N failed"
// summed over the test runners, which must stay the very last line (CI reads it).
// The simulation (one core, ~65 s) runs alongside the build and the browser tests, which leave about a
// core idle (a browser test mostly waits on its server and page: ~20 s of CPU in a 50 s file); its output
// is held back and printed after them.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stageTable } from './stage-table.ts';

const root = new URL('../', import.meta.url).pathname;
const results = join(root, 'test-results');
mkdirSync(results, { recursive: true });
const env = {
  ...process.env,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --disable-warning=ExperimentalWarning`.trim(),
};
const skipBrowser = process.argv.includes('--no-browser');

type Step = {
  name: string;
  cmd: string;
  args: string[];
  report?: string;
  together?: Step[];
  /** Started without waiting for it; the later steps run meanwhile, and it is awaited at the end. */
  background?: boolean;
};
const vitest = (name: string, config: string, report: string): Step => ({
  name,
  cmd: 'vitest',
  args: ['run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
  report,
});

const steps: Step[] = [
  // The three type checks are single-threaded and independent: run together on the 2 cores.
  {
    name: 'typecheck (server and packages, web, admin)',
    cmd: '',
    args: [],
    together: [
      { name: 'server and packages', cmd: 'tsc', args: ['-p', 'tsconfig.json'] },
      { name: 'web', cmd: 'tsc', args: ['-p', 'apps/web/tsconfig.json'] },
      { name: 'admin', cmd: 'tsc', args: ['-p', 'apps/admin/tsconfig.json'] },
    ],
  },
  { name: 'lint', cmd: 'biome', args: ['lint', '.'] },
  { name: 'architecture (dependency rules)', cmd: 'node', args: ['scripts/architecture-check.ts'] },
  vitest('unit and API tests', 'vitest.config.ts', join(results, 'unit.json')),
];
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
if (pkg.scripts.sim)
  steps.push({
    name: skipBrowser ? 'engine simulation (100,000 commands)' : 'engine simulation (100,000 commands, alongside)',
    cmd: 'npm',
    args: ['run', 'sim', '--', '--seed', '1', '--commands', '100000'],
    background: !skipBrowser,
  });
if (!skipBrowser) {
  steps.push(
    { name: 'build front ends', cmd: 'npm', args: ['run', 'build'] },
    { name: 'ensure Chromium', cmd: 'bash', args: ['scripts/ensure-chromium.sh'] },
    vitest('browser tests', 'vitest.e2e.config.ts', join(results, 'e2e.json')),
  );
}

/** Runs the steps at once; 0 when every one passed (each failure is named). */
async function runTogether(group: readonly Step[]): Promise<number> {
  const codes = await Promise.all(
    group.map(
      (part) =>
        new Promise<number>((resolve) => {
          const child = spawn(part.cmd, part.args, { cwd: root, env, stdio: 'inherit' });
          child.on('close', (code) => {
            if (code !== 0) console.log(`${part.name}: failed`);
            resolve(code ?? 1);
          });
        }),
    ),
  );
  return codes.every((code) => code === 0) ? 0 : 1;
}

let passed = 0;
let failed = 0;
const failures: string[] = [];
const stages: { name: string; seconds: number; passed: boolean; overlapped?: boolean }[] = [];
const record = (step: Step, status: number | null, seconds: number, overlapped = false) => {
  stages.push({ name: step.name, seconds, passed: status === 0, overlapped });
  if (step.report && existsSync(step.report)) {
    const r = JSON.parse(readFileSync(step.report, 'utf8')) as { numPassedTests: number; numFailedTests: number };
    passed += r.numPassedTests;
    failed += r.numFailedTests;
  }
  if (status !== 0) {
    failures.push(step.name);
    if (!step.report) failed += 1;
  } else if (!step.report) passed += 1;
};

/** A step started in the background: its output held back, its end awaited after the other steps. */
const inBackground: { step: Step; started: number; done: Promise<{ status: number | null; output: string }> }[] = [];
for (const step of steps) {
  const started = performance.now();
  if (step.background) {
    console.log(`\n=== ${step.name}: started, its output follows the browser tests ===`);
    const child = spawn(step.cmd, step.args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const done = new Promise<{ status: number | null; output: string }>((resolve) =>
      child.on('close', (status) => resolve({ status, output })),
    );
    inBackground.push({ step, started, done });
    continue;
  }
  console.log(`\n=== ${step.name} ===`);
  const run = step.together
    ? { status: await runTogether(step.together) }
    : spawnSync(step.cmd, step.args, { cwd: root, env, stdio: 'inherit' });
  record(step, run.status, (performance.now() - started) / 1000);
}
for (const { step, started, done } of inBackground) {
  const { status, output } = await done;
  console.log(`\n=== ${step.name} ===\n${output.trimEnd()}`);
  record(step, status, (performance.now() - started) / 1000, true);
}
console.log(failures.length ? `\nFailed steps: ${failures.join(', ')}` : '\nEvery step passed.');
console.log(`\n${stageTable(stages)}\n`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failures.length ? 1 : 0);
