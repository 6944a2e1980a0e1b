// Benchmark harness (not a benchmark): one bench script from two builds, run side by side (two
// processes started together), for several pairs; then one figure of their JSON lines compared pair by
// pair.
// On this shared host, runs taken minutes apart move by ±20% on their own (the host's phases); two
// processes started together meet the same phase, so only the comparison within a pair counts
// (README.md, "The machine, and how to compare two builds on it"). By default the scheduler places
// them, which shares any outside load between both; with --pin each is pinned to a core (taskset), the
// cores swapping between pairs so that neither core favours a build, which suits an idle machine.
// The base build is a git worktree of --base, made and installed here (npm install --prefer-offline)
// and removed afterwards unless --keep; the head is this checkout, or the directory --head names.
// Prints ONE line of JSON: each pair's two figures, how many pairs the head won, and the head/base
// ratios with their median.
// Run: npm run bench:ab -- --base REV [--head DIR] [--pairs 6] [--metric opsPerSec] [--lower-is-better]
//   [--pin] [--keep] -- bench/engine-bench.ts --no-floor [the bench's own options]

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { argument } from './bench-util.ts';

/** The last line of a bench's output that parses as a JSON object (benches print one). */
export function lastJsonLine(output: string): Record<string, unknown> {
  const lines = output.trim().split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = (lines[i] as string).trim();
    if (!line.startsWith('{')) continue;
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      // a line that only looks like JSON: keep looking
    }
  }
  throw new Error(`no JSON line in the bench's output:\n${output.slice(-2000)}`);
}

/** A figure of a bench's JSON line by its path (`opsPerSec`, `fixedRate.p999Ns`); a number or an error. */
export function figureOf(line: Record<string, unknown>, path: string): number {
  let value: unknown = line;
  for (const key of path.split('.')) {
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new Error(`no number at ${path} in ${JSON.stringify(line)}`);
  return value;
}

export type PairSummary = {
  /** Pairs in which the head did better (ties count for neither). */
  headWins: number;
  /** head / base per pair, rounded to 3 places. */
  ratios: number[];
  medianRatio: number;
};

/** Compares [base, head] figures pair by pair; `higherIsBetter` says which way "better" is. */
export function summarise(pairs: readonly (readonly [number, number])[], higherIsBetter: boolean): PairSummary {
  if (pairs.length === 0) throw new Error('no pairs to compare');
  const ratios = pairs.map(([base, head]) => head / base);
  const headWins = pairs.filter(([base, head]) => (higherIsBetter ? head > base : head < base)).length;
  const sorted = [...ratios].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { headWins, ratios: ratios.map(round), medianRatio: round(median) };
}

/** Runs `node script args` in `dir`, pinned to `core` unless it is -1; resolves with its output. */
function runBench(dir: string, core: number, script: string, args: readonly string[]): Promise<string> {
  return new Promise((done, fail) => {
    const node = [process.execPath, script, ...args];
    const [command, ...rest] = core < 0 ? node : ['taskset', '-c', String(core), ...node];
    const child = spawn(command as string, rest, {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', fail);
    child.on('close', (code) => {
      if (code === 0) done(out);
      else fail(new Error(`${script} in ${dir} exited ${code}:\n${err.slice(-2000)}`));
    });
  });
}

function run(command: string, args: readonly string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}`);
}

async function main(): Promise<void> {
  const split = process.argv.indexOf('--');
  const own = split < 0 ? process.argv : process.argv.slice(0, split);
  const bench = split < 0 ? [] : process.argv.slice(split + 1);
  const has = (flag: string) => own.includes(flag);
  const base = argument('base');
  const [script, ...benchArgs] = bench;
  if (base === undefined || script === undefined) {
    throw new Error('usage: npm run bench:ab -- --base REV [--head DIR] [--pairs N] [--metric PATH] -- SCRIPT [ARGS]');
  }
  const root = resolve(import.meta.dirname, '..');
  const head = resolve(argument('head') ?? root);
  const pairs = Number(argument('pairs') ?? 6);
  const metric = argument('metric') ?? 'opsPerSec';
  const higherIsBetter = !has('--lower-is-better');
  const pin = has('--pin');
  const worktree = join(mkdtempSync(join(tmpdir(), 'bourse-ab-')), 'base');
  run('git', ['worktree', 'add', '--detach', worktree, base], root);
  try {
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], worktree);
    if (!existsSync(join(worktree, script)) || !existsSync(join(head, script))) {
      throw new Error(`${script} is not in both builds`);
    }
    const figures: [number, number][] = [];
    for (let i = 0; i < pairs; i++) {
      const baseCore = pin ? i % 2 : -1;
      const [baseOut, headOut] = await Promise.all([
        runBench(worktree, baseCore, script, benchArgs),
        runBench(head, pin ? 1 - baseCore : -1, script, benchArgs),
      ]);
      const pair: [number, number] = [figureOf(lastJsonLine(baseOut), metric), figureOf(lastJsonLine(headOut), metric)];
      figures.push(pair);
      console.error(
        `pair ${i + 1}/${pairs}: base ${pair[0]}, head ${pair[1]}${pin ? ` (base on core ${baseCore})` : ''}`,
      );
    }
    console.log(
      JSON.stringify({
        bench: 'ab',
        script,
        args: benchArgs,
        base,
        head: head === root ? 'this checkout' : head,
        metric,
        higherIsBetter,
        pinned: pin,
        pairs: figures,
        ...summarise(figures, higherIsBetter),
      }),
    );
  } finally {
    if (has('--keep')) console.error(`kept the base build in ${worktree}`);
    else {
      run('git', ['worktree', 'remove', '--force', worktree], root);
      rmSync(resolve(worktree, '..'), { recursive: true, force: true });
    }
  }
}

if (import.meta.main) await main();
