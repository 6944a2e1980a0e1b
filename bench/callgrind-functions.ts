// Reads the two callgrind runs of engine-instructions.sh and prints its JSON: the instructions per
// command between them, split into the program's own (JavaScript code, named from V8's --perf-basic-prof
// map of each run since callgrind only knows its addresses, and V8's builtins) and V8's runtime (the
// collector, the compiler); with `functions` 1, per function.
// Run by engine-instructions.sh: node bench/callgrind-functions.ts DIR SMALL BIG FUNCTIONS CORE

import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const [dir, smallText, bigText, functions, core] = process.argv.slice(2) as [string, string, string, string, string];
const small = Number(smallText);
const big = Number(bigText);

/** The run's pid and total instructions, from valgrind's log. */
function runOf(orders: number): { pid: string; total: number } {
  const log = readFileSync(`${dir}/log.${orders}`, 'utf8');
  const total = log.match(/Collected : (\d+)/)?.[1];
  const pid = log.match(/^==(\d+)==/m)?.[1];
  if (total === undefined || pid === undefined) throw new Error(`callgrind run of ${orders} failed:\n${log}`);
  return { pid, total: Number(total) };
}

/** Instructions per function name over a run (callgrind_annotate's flat list, JIT addresses mapped). */
function perFunction(orders: number, pid: string, jit: Set<string>): Map<string, number> {
  const mapFile = `/tmp/perf-${pid}.map`;
  const ranges = readFileSync(mapFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [start, size, ...name] = line.split(' ');
      return {
        start: Number.parseInt(start as string, 16),
        size: Number.parseInt(size as string, 16),
        name: name.join(' '),
      };
    })
    .sort((a, b) => a.start - b.start);
  rmSync(mapFile, { force: true });
  const nameAt = (address: number): string => {
    let lo = 0;
    let hi = ranges.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((ranges[mid] as { start: number }).start <= address) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const range = ranges[best];
    return range !== undefined && address < range.start + range.size ? range.name : '(JIT code, unnamed)';
  };
  const text = execFileSync('callgrind_annotate', ['--threshold=100', `${dir}/cg.${orders}`], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const costs = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = line.match(/^\s*([\d,]+)\s+\([\s\d.]+%\)\s+(.*)$/);
    if (!m || m[2]?.includes('PROGRAM TOTALS')) continue;
    const where = m[2] as string;
    const address = where.match(/\?\?\?:0x([0-9a-f]+)/);
    let name: string;
    if (address) {
      name = nameAt(Number.parseInt(address[1] as string, 16))
        .replace(/^(JS|LazyCompile|Function):/, '')
        .replace(/file:\/\/\/\S*?\/((bench|packages|apps)\/)/, '$1');
      jit.add(name);
    } else {
      name = where.replace(/\s*\[[^\]]*\]$/, '').replace(/^\?\?\?:/, '');
    }
    costs.set(name, (costs.get(name) ?? 0) + Number((m[1] as string).replaceAll(',', '')));
  }
  return costs;
}

/** V8's builtins (property access, write barriers, string and Map operations) are named Builtins_…. */
const isBuiltin = (name: string) => name.startsWith('Builtins_');

const a = runOf(small);
const b = runOf(big);
const commands = big - small;
/** Code compiled from JavaScript: the names found in the code map (callgrind names native code itself). */
const jit = new Set<string>();
const before = perFunction(small, a.pid, jit);
const after = perFunction(big, b.pid, jit);
const rows = [...new Set([...before.keys(), ...after.keys()])]
  .map((name) => ({ name, perCommand: ((after.get(name) ?? 0) - (before.get(name) ?? 0)) / commands }))
  .sort((x, y) => y.perCommand - x.perCommand);
const sum = (keep: (name: string) => boolean) =>
  Math.round(rows.filter((row) => keep(row.name)).reduce((total, row) => total + row.perCommand, 0));
const total = (b.total - a.total) / commands;
const javaScript = sum((name) => jit.has(name));
const builtins = sum(isBuiltin);
console.log(
  JSON.stringify({
    bench: 'engine-instructions',
    core,
    from: small,
    to: big,
    // The code's own instructions: compare builds by this (see engine-instructions.sh).
    javaScriptPerCommand: javaScript,
    // V8's builtins it calls; their write barriers and allocations depend on the collector's phase.
    builtinsPerCommand: builtins,
    // V8's C++ runtime (the collector, the compiler) and libc: moves with where full cycles fall.
    runtimePerCommand: Math.round(total - javaScript - builtins),
    instructionsPerCommand: Math.round(total),
    node: process.version,
  }),
);
if (functions === '1') {
  for (const row of rows) {
    if (Math.abs(row.perCommand) >= 20)
      console.log(JSON.stringify({ function: row.name.slice(0, 160), perCommand: Math.round(row.perCommand) }));
  }
}
