// `npm test`'s "architecture" step: the floors and dependency rules of docs/ARCHITECTURE.md, checked
// mechanically. dependency-cruiser checks who imports whom (.dependency-cruiser.cjs); this script adds
// what imports cannot show: the deterministic core (money, engine, market) reads no clock, randomness,
// environment or timer, so a replay of the same commands gives the same state.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('../', import.meta.url).pathname;

/** Globals that would make the core depend on something other than its arguments. */
const IMPURE: [RegExp, string][] = [
  [/\bDate\.now\s*\(/, 'reads the clock (Date.now)'],
  [/\bnew Date\(\s*\)/, 'reads the clock (new Date())'],
  [/\bperformance\.now\s*\(/, 'reads the clock (performance.now)'],
  [/\bMath\.random\s*\(/, 'uses unseeded randomness (Math.random)'],
  [/\bcrypto\.(getRandomValues|randomUUID)\s*\(/, 'uses unseeded randomness (crypto)'],
  [/\bprocess\.(env|argv|hrtime|cwd)\b/, 'reads the process (process.env, argv, hrtime, cwd)'],
  [/\b(setTimeout|setInterval|setImmediate|queueMicrotask)\s*\(/, 'schedules work (timers)'],
  [/\bfetch\s*\(/, 'reaches the network (fetch)'],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Each impure use in the core's production code, as "file:line: what". Comments are skipped. */
export function impureUses(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '');
        for (const [pattern, what] of IMPURE) {
          if (pattern.test(code)) found.push(`${relative(root, file)}:${i + 1}: ${what}`);
        }
      });
  }
  return found;
}

if (import.meta.main) {
  const core = ['money', 'engine', 'market'].flatMap((name) => sourceFiles(join(root, 'packages', name, 'src')));
  const impure = impureUses(core);
  for (const line of impure) console.error(`  error pure-core-globals: ${line}`);
  console.log(
    impure.length
      ? `x ${impure.length} impure uses in the deterministic core`
      : `✔ the deterministic core (${core.length} files) reads no clock, randomness, environment or timer`,
  );
  const cruise = spawnSync('depcruise', ['apps', 'packages', '--config', '.dependency-cruiser.cjs'], {
    cwd: root,
    stdio: 'inherit',
  });
  process.exit(impure.length || cruise.status !== 0 ? 1 : 0);
}
