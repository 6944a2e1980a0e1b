// `npm run bench:ws`: the real server's live stream (/ipor-api/ws, stream.ts) fanning ticker and book
// updates out to many clients, against a bare reference (ws-reference.ts) doing the same fan-out and
// nothing else, in alternating turns (ours, reference, reference, ours, ...) so both meet the same
// phases of the host. Prints ONE line of JSON: delivery latency p50/p99/p99.9/max per side and the
// dropped messages (per-channel seq gaps, and the tail a client never got).
//
// Workload (seeded): `--clients` WebSocket clients in `--procs` client processes (ws-clients.ts), each
// subscribed to one crypto pair's `ticker:` and `book:` channels, spread evenly over `--instruments`
// pairs in a seeded order. Crypto trades around the clock, so the pairs move in every hour of the day.
// The driver: the server's market moves once a second by itself (a one-second simulator step); to give
// `--rate` updates a second per channel the bench drives it, starting the server on a test clock
// (BOURSE_TEST_CLOCK, test hooks) and calling POST /ipor-api/test/clock/advance {ms: 1000} `--rate`
// times a second: each call runs one market step (a tick for each pair that moved, in practice all,
// published on its ticker and, when watched, its book channel), then the venue's sync, before it
// answers. One call at a time; a call that takes longer than the period delays the next (the achieved
// rate is reported). The reference gets POST /tick at the same rate and publishes every channel.
// Latency: from the driver's start of the step to the client's receipt of the update (both on the
// machine's monotonic clock), found through the ticker's `time` (the step's market time); a book
// update is timed by the ticker sent just before it. The test clock also runs on in real time, so the
// server's own once-a-second step publishes too: those updates are delivered and seq-checked but not
// timed (`undriven`).
//
//   npm run bench:ws [-- --clients 5000 --rate 10 --seconds 10 --rounds 2 --instruments 10 --procs 2 --seed 1]

import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, HttpClient, spawnServer } from '../apps/server/src/testing-server.ts';
import { argument, peakRssMiB, stealMeter } from './bench-util.ts';
import type { ClientsReport, ClientsStart } from './ws-clients.ts';
import { assignClients, mergeHistograms, quantilesMs, tailDrops } from './ws-workload.ts';

const clients = Number(argument('clients') ?? 5_000);
const rate = Number(argument('rate') ?? 10);
const seconds = Number(argument('seconds') ?? 10);
const rounds = Number(argument('rounds') ?? 2);
const instrumentCount = Number(argument('instruments') ?? 10);
const procs = Number(argument('procs') ?? 2);
const seed = Number(argument('seed') ?? 1);
const STEP_MS = 1_000;

const steal = stealMeter();
const here = new URL('./', import.meta.url).pathname;

/** CPU time (user + system) a process has used so far, in ms (Linux /proc). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}
const micros = () => Number(process.hrtime.bigint()) / 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dataDir = mkdtempSync(join(tmpdir(), 'bourse-ws-bench-'));
const server = await spawnServer({ dataDir, env: { LOG_LEVEL: 'warn', RECONCILE_EVERY_MIN: '0' } });
const refPort = await freePort();
const reference: ChildProcess = spawn(
  process.execPath,
  ['--disable-warning=ExperimentalWarning', join(here, 'ws-reference.ts'), String(refPort)],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
await new Promise<void>((resolve, reject) => {
  reference.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
  reference.once('exit', (code) => reject(new Error(`reference exited with ${code}`)));
});
const ours = new HttpClient(server.baseUrl, 2);
const refBase = `http://127.0.0.1:${refPort}`;
const ref = new HttpClient(refBase, 2);

try {
  const coins = (await ours.request('POST', '/coin/infos')).body.data.items as { id: string }[];
  if (coins.length < instrumentCount)
    throw new Error(`only ${coins.length} crypto pairs, asked for ${instrumentCount}`);
  const instruments = coins.slice(0, instrumentCount).map((c) => c.id);
  // The reference publishes the real server's own answers for these channels.
  const payloads: Record<string, unknown> = {};
  for (const id of instruments) {
    payloads[`ticker:${id}`] = (await ours.request('POST', '/coin/ticker', { json: { symbol: id } })).body.data;
    payloads[`book:${id}`] = (await ours.request('POST', '/coin/books', { json: { symbol: id } })).body.data;
  }
  await ref.request('POST', '/payloads', { json: payloads });
  const assignment = assignClients(clients, instruments.length, seed);
  let refTime = (await ours.request('POST', '/test/clock/advance', { json: { ms: '1' } })).body.data.now as number;

  type Side = 'ours' | 'reference';
  const totals = {
    ours: {
      histogram: [] as number[],
      received: 0,
      gaps: 0,
      tail: 0,
      undriven: 0,
      steps: 0,
      stepSeconds: 0,
      serverCpuMs: 0,
      clientCpuMs: 0,
    },
    reference: {
      histogram: [] as number[],
      received: 0,
      gaps: 0,
      tail: 0,
      undriven: 0,
      steps: 0,
      stepSeconds: 0,
      serverCpuMs: 0,
      clientCpuMs: 0,
    },
  };

  const turn = async (side: Side) => {
    const url =
      side === 'ours'
        ? `${server.baseUrl.replace('http', 'ws')}/ipor-api/ws`
        : `${refBase.replace('http', 'ws')}/ipor-api/ws`;
    const children = Array.from({ length: procs }, () =>
      fork(join(here, 'ws-clients.ts'), [], { execArgv: ['--disable-warning=ExperimentalWarning'] }),
    );
    const ask = <T>(child: ChildProcess, message: unknown, key: string) =>
      new Promise<T>((resolve, reject) => {
        child.once('message', (answer: Record<string, unknown>) =>
          key in answer ? resolve(answer[key] as T) : reject(new Error(String(answer.failed))),
        );
        child.send(message as object);
      });
    const share = (p: number) => assignment.filter((_, i) => i % procs === p);
    await Promise.all(
      children.map((child, p) =>
        ask(child, { start: { url, instruments, of: share(p) } satisfies ClientsStart }, 'started'),
      ),
    );
    await sleep(500);
    const pid = side === 'ours' ? (server.child.pid as number) : (reference.pid as number);
    const cpuBefore = cpuMsOf(pid);
    const steps: [number, number][] = [];
    const period = 1000 / rate;
    const began = micros();
    const count = Math.round(seconds * rate);
    for (let k = 0; k < count; k++) {
      const due = began + k * period * 1000;
      const wait = (due - micros()) / 1000;
      if (wait > 0) await sleep(wait);
      const startUs = micros();
      let now: number;
      if (side === 'ours') {
        const answer = await ours.request('POST', '/test/clock/advance', { json: { ms: String(STEP_MS) } });
        now = answer.body.data.now as number;
      } else {
        refTime += STEP_MS;
        await ref.request('POST', '/tick', { json: { time: refTime } });
        now = refTime;
      }
      steps.push([now, startUs]);
    }
    const stepSeconds = (micros() - began) / 1e6;
    await sleep(1_000); // the last updates on their way
    const serverCpuMs = cpuMsOf(pid) - cpuBefore;
    const reports = await Promise.all(children.map((child) => ask<ClientsReport>(child, { report: steps }, 'report')));
    for (const child of children) child.send({ close: true });
    const t = totals[side];
    for (const r of reports) {
      mergeHistograms(t.histogram, r.histogram);
      t.received += r.received;
      t.gaps += r.gaps;
      t.undriven += r.undriven;
      t.clientCpuMs += r.cpuMs;
    }
    t.tail += tailDrops(reports.flatMap((r) => r.streams));
    t.steps += steps.length;
    t.stepSeconds += stepSeconds;
    t.serverCpuMs += serverCpuMs;
    await sleep(500);
  };

  for (let r = 0; r < rounds; r++) {
    for (const side of (r % 2 === 0 ? ['ours', 'reference'] : ['reference', 'ours']) as Side[]) await turn(side);
  }

  const summary = (side: Side) => {
    const t = totals[side];
    const q = quantilesMs(t.histogram);
    return {
      p50Ms: q.p50Ms,
      p99Ms: q.p99Ms,
      p999Ms: q.p999Ms,
      maxMs: q.maxMs,
      delivered: t.received,
      dropped: t.gaps + t.tail,
      droppedGaps: t.gaps,
      droppedTail: t.tail,
      undriven: t.undriven,
      achievedRate: Math.round((10 * t.steps) / t.stepSeconds) / 10,
      messagesPerSec: Math.round(t.received / t.stepSeconds),
      // Updates a second on each channel a client watched (a pair that did not move in a step sends none).
      updatesPerChannelPerSec: Math.round((10 * t.received) / (2 * clients * t.stepSeconds)) / 10,
      serverCpuPct: Math.round((100 * t.serverCpuMs) / (1000 * t.stepSeconds)),
    };
  };
  const o = summary('ours');
  const r = summary('reference');
  console.log(
    JSON.stringify({
      bench: 'ws',
      seed,
      clients,
      instruments: instrumentCount,
      rate,
      seconds,
      rounds,
      procs,
      ...o,
      reference: r,
      p50Ratio: Math.round((100 * o.p50Ms) / r.p50Ms) / 100,
      p99Ratio: Math.round((100 * o.p99Ms) / r.p99Ms) / 100,
      stealPct: steal(),
      peakRssMiB: peakRssMiB(),
    }),
  );
} finally {
  ours.agent.destroy();
  ref.agent.destroy();
  reference.kill('SIGTERM');
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
