// `npm test`: every check CI runs, in order, stopping at nothing so one report shows all of it:
// type checks, lint, the dependency rules, unit and API tests (SQLite, and PostgreSQL when reachable), the engine's seeded
// simulation, a build of both front ends, then browser tests in Chromium. Ends with a table of each
// stage's time and outcome (to see where CI's minutes go), then one line "tests: N passed, N failed"
// summed over the test runners, which must stay the very last line (CI reads it).

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

type Step = { name: string; cmd: string; args: string[]; report?: string; together?: Step[] };
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
    name: 'engine simulation (100,000 commands)',
    cmd: 'npm',
    args: ['run', 'sim', '--', '--seed', '1', '--commands', '100000'],
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
const stages: { name: string; seconds: number; passed: boolean }[] = [];
for (const step of steps) {
  console.log(`\n=== ${step.name} ===`);
  const started = performance.now();
  const run = step.together
    ? { status: await runTogether(step.together) }
    : spawnSync(step.cmd, step.args, { cwd: root, env, stdio: 'inherit' });
  stages.push({ name: step.name, seconds: (performance.now() - started) / 1000, passed: run.status === 0 });
  if (step.report && existsSync(step.report)) {
    const r = JSON.parse(readFileSync(step.report, 'utf8')) as { numPassedTests: number; numFailedTests: number };
    passed += r.numPassedTests;
    failed += r.numFailedTests;
  }
  if (run.status !== 0) {
    failures.push(step.name);
    if (!step.report) failed += 1;
  } else if (!step.report) passed += 1;
}
console.log(failures.length ? `\nFailed steps: ${failures.join(', ')}` : '\nEvery step passed.');
console.log(`\n${stageTable(stages)}\n`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failures.length ? 1 : 0);
