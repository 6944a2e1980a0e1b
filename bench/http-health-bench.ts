// Benchmark (not a test): what the server's own per-request layer costs, with no route work. GET
// /ipor-api/health on the real server (main.ts, paper mode, its hooks: security headers, request id,
// language, the request log) against the same route on the bare Fastify reference (http-reference.ts),
// wrk on loopback, one keep-alive run per server in alternating order (ABBA), `--pairs` pairs.
// Every route pays this layer's extra CPU (serverCpuUsPerReq - referenceCpuUsPerReq) before its own work
// (docs/decisions/0013). Prints ONE line of JSON.
// Run: npm run bench:http-health [-- --pairs 6 --seconds 3 --connections 64 --log-level info]

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnServer } from '../apps/server/src/testing-server.ts';
import { argument, stealMeter } from './bench-util.ts';

const pairs = Number(argument('pairs') ?? 6);
const seconds = Number(argument('seconds') ?? 3);
const connections = Number(argument('connections') ?? 64);
const logLevel = argument('log-level') ?? 'info';
/**
 * The server's clock at start (BOURSE_TEST_CLOCK). By default a Sunday, so that no exchange is open and
 * the paper venue's market makers send the engine nothing: the server's CPU is the requests' own. In
 * trading hours (`--clock 2026-01-05T04:00:00Z`, as bench:http runs) the market adds its own work.
 */
const clock = argument('clock') ?? '2026-01-04T04:00:00Z';

/** CPU time (user + system) a process has used so far, in ms (Linux /proc). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** One wrk run: requests a second and the server's CPU time per request (µs). */
function measure(baseUrl: string, pid: number, forSeconds: number): { perSec: number; cpuUsPerReq: number } {
  const before = cpuMsOf(pid);
  const out = execFileSync('wrk', ['-t1', `-c${connections}`, `-d${forSeconds}s`, `${baseUrl}/ipor-api/health`]);
  const used = cpuMsOf(pid) - before;
  const text = out.toString();
  const requests = Number(/(\d+) requests in/.exec(text)?.[1]);
  const perSec = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1]);
  if (!(requests > 0) || !(perSec > 0) || /Non-2xx/.test(text)) throw new Error(`wrk: ${text}`);
  return { perSec, cpuUsPerReq: (used * 1000) / requests };
}

const dataDir = mkdtempSync(join(tmpdir(), 'bourse-http-health-'));
const server = await spawnServer({ dataDir, clock, env: { LOG_LEVEL: logLevel, RECONCILE_EVERY_MIN: '0' } });
const port = await freePort();
const reference: ChildProcess = spawn(
  process.execPath,
  ['--disable-warning=ExperimentalWarning', join(import.meta.dirname, 'http-reference.ts'), String(port)],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
try {
  await new Promise<void>((resolve, reject) => {
    reference.once('exit', (code) => reject(new Error(`reference server exited with ${code}`)));
    reference.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
  });
  const ours = { baseUrl: server.baseUrl, pid: server.child.pid as number };
  const theirs = { baseUrl: `http://127.0.0.1:${port}`, pid: reference.pid as number };
  // Warm-up: both servers' code compiled before anything is timed.
  measure(ours.baseUrl, ours.pid, 2);
  measure(theirs.baseUrl, theirs.pid, 2);
  const steal = stealMeter();
  const ourRuns: { perSec: number; cpuUsPerReq: number }[] = [];
  const theirRuns: { perSec: number; cpuUsPerReq: number }[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    const order = pair % 2 === 0 ? [ours, theirs] : [theirs, ours];
    for (const side of order) (side === ours ? ourRuns : theirRuns).push(measure(side.baseUrl, side.pid, seconds));
  }
  const mean = (runs: { perSec: number }[]) => runs.reduce((a, r) => a + r.perSec, 0) / runs.length;
  const round = (n: number) => Math.round(n);
  console.log(
    JSON.stringify({
      bench: 'http-health',
      opsPerSec: round(mean(ourRuns)),
      referenceOpsPerSec: round(mean(theirRuns)),
      ratio: Math.round((mean(ourRuns) / mean(theirRuns)) * 1000) / 1000,
      pairRatios: ourRuns.map((r, i) => Math.round((r.perSec / theirRuns[i]!.perSec) * 100) / 100),
      serverCpuUsPerReq: ourRuns.map((r) => round(r.cpuUsPerReq)),
      referenceCpuUsPerReq: theirRuns.map((r) => round(r.cpuUsPerReq)),
      pairs,
      seconds,
      connections,
      logLevel,
      clock,
      stealPct: steal(),
    }),
  );
} finally {
  reference.kill('SIGTERM');
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
