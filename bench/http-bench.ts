// Benchmark (not a test): orders through the real HTTP API with durable commits. Starts the real server
// (main.ts, paper mode, test hooks, the clock on an NSE trading morning) on a temporary SQLite DATA_DIR
// and then on a fresh PostgreSQL database (when it answers), registers customers with trade PINs, and
// drives resting limit buys (~90% of the price: they rest, nothing trades) at a fixed concurrency over
// keep-alive connections on loopback for a fixed time after a warm-up. A customer with `--open-cap`
// open orders cancels its oldest instead (the engine allows 200 open orders a customer), so at steady
// state about half the operations are cancels; both are engine commands answered after their commit.
// The same driver then runs against a reference: a bare Fastify child (http-reference.ts) validating the
// same bodies with the same zod schemas and answering the same envelope, doing nothing else.
// Prints ONE line of JSON per database.
// Run: npm run bench:http [-- --seconds 10 --warmup 2 --connections 64 --users 50 --seed 1 --open-cap 150
//   --db sqlite,postgres --log-level info --cpu-prof DIR --main EXPERIMENT.ts]

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPostgresReachable, TEST_DATABASE_URL } from '@bourse/db';
import {
  eachLimited,
  freePort,
  freshPgDatabase,
  HttpClient,
  quote,
  registerCustomer,
  restingBuyPrice,
  spawnServer,
} from '../apps/server/src/testing-server.ts';
import { argument, percentiles } from './bench-util.ts';

const seconds = Number(argument('seconds') ?? 10);
const warmupSeconds = Number(argument('warmup') ?? 2);
const connections = Number(argument('connections') ?? 64);
const userCount = Number(argument('users') ?? 50);
const seed = Number(argument('seed') ?? 1);
const openCap = Number(argument('open-cap') ?? 150);
const logLevel = argument('log-level') ?? 'info';
const profileDir = argument('cpu-prof');
const symbol = argument('symbol') ?? 'NSE:RELIANCE';
/** Another server entry point (an experiment that patches something, then imports main.ts). */
const serverMain = argument('main');
const PIN = '135790';

/** mulberry32: a small seeded generator, so every run offers the same orders. */
function rng(s: number) {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux); null elsewhere. */
function cpuMsOf(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in ticks of 1/100 s
  } catch {
    return null;
  }
}

/**
 * CPU time of every process named postgres on this machine, in ms (Linux). The server's pooled
 * connections live through the window, so the difference over it is mostly their work, but other
 * users of the same PostgreSQL count too: an approximation.
 */
function postgresCpuMs(): number | null {
  try {
    let total = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.split(') ')[1]!.split(' ');
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    }
    return total;
  } catch {
    return null;
  }
}

type Customer = { token: string; open: number[]; inFlight: number };
type Outcome = {
  ops: number;
  places: number;
  cancels: number;
  errors: number;
  firstError: string | null;
  latencyUs: Float64Array;
  seconds: number;
  /** The server's CPU time over the measured window, per operation (µs) and as a share of one core. */
  cpuUsPerOp: number | null;
  cpuPct: number | null;
  /** The load generator's own CPU over the window, as a share of one core (it shares the 2 cores). */
  clientCpuPct: number;
  /** PostgreSQL's CPU time over the window per operation (µs), approximate (see postgresCpuMs). */
  postgresCpuUsPerOp: number | null;
  /** The window on the monotonic clock, in µs (to cut a CPU profile to it). */
  windowUs: [number, number] | null;
};

/**
 * The closed loop: `connections` workers, each sending its next request as soon as the last is answered.
 * Only requests started inside the measured window count (in flight at its end they still complete and
 * count; in flight at its start they do not: the two edges balance).
 */
async function drive(
  client: HttpClient,
  customers: Customer[],
  prices: string[],
  serverPid: number | undefined,
  measurePostgres = false,
): Promise<Outcome> {
  const random = rng(seed);
  const latency: number[] = [];
  let places = 0;
  let cancels = 0;
  let errors = 0;
  let firstError: string | null = null;
  let next = 0;
  const start = performance.now();
  const t0 = start + warmupSeconds * 1000;
  const t1 = t0 + seconds * 1000;
  // The server's and this process's CPU time, and the monotonic clock (as in V8's CPU profiles), read
  // by the first worker to cross each edge of the window.
  type Mark = { server: number | null; postgres: number | null; own: NodeJS.CpuUsage; monoUs: number };
  const mark = (): Mark => ({
    server: cpuMsOf(serverPid),
    postgres: measurePostgres ? postgresCpuMs() : null,
    own: process.cpuUsage(),
    monoUs: Number(process.hrtime.bigint() / 1000n),
  });
  let atStart: Mark | undefined;
  let atEnd: Mark | undefined;
  const fail = (what: string) => {
    errors += 1;
    firstError ??= what;
  };
  const worker = async () => {
    for (;;) {
      const began = performance.now();
      if (began >= t1) {
        atEnd ??= mark();
        return;
      }
      if (began >= t0) atStart ??= mark();
      const c = customers[next++ % customers.length] as Customer;
      const counted = began >= t0;
      if (c.open.length > 0 && c.open.length + c.inFlight >= openCap) {
        const id = c.open.shift() as number;
        try {
          const a = await client.request('GET', `/stock/order/cancel?id=${id}`, { token: c.token });
          if (counted) {
            cancels += 1;
            if (a.status !== 200 || a.body.code !== 0) fail(`cancel ${a.status} ${JSON.stringify(a.body)}`);
          }
        } catch (error) {
          if (counted) fail(`cancel: ${(error as Error).message}`);
        }
      } else {
        const body = {
          symbol,
          orderType: 'limit',
          price: prices[Math.floor(random() * prices.length)],
          quantity: String(1 + Math.floor(random() * 3)),
          password: PIN,
        };
        c.inFlight += 1;
        try {
          const a = await client.request('POST', '/stock/order/buy', { token: c.token, json: body });
          if (a.status === 200 && a.body.code === 0) {
            const order = a.body.data.order;
            if (order.status === 'pending') c.open.push(order.id);
          } else if (counted) fail(`buy ${a.status} ${JSON.stringify(a.body)}`);
          if (counted) places += 1;
        } catch (error) {
          if (counted) fail(`buy: ${(error as Error).message}`);
        } finally {
          c.inFlight -= 1;
        }
      }
      if (counted) latency.push((performance.now() - began) * 1000);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const cpuMs = atStart?.server != null && atEnd?.server != null ? atEnd.server - atStart.server : null;
  const pgMs = atStart?.postgres != null && atEnd?.postgres != null ? atEnd.postgres - atStart.postgres : null;
  const ownCpuMs =
    atStart && atEnd ? (atEnd.own.user - atStart.own.user + atEnd.own.system - atStart.own.system) / 1000 : 0;
  return {
    cpuUsPerOp: cpuMs === null || latency.length === 0 ? null : Math.round((cpuMs * 1000) / latency.length),
    cpuPct: cpuMs === null ? null : Math.round(cpuMs / seconds / 10),
    clientCpuPct: Math.round(ownCpuMs / seconds / 10),
    postgresCpuUsPerOp: pgMs === null || latency.length === 0 ? null : Math.round((pgMs * 1000) / latency.length),
    windowUs: atStart && atEnd ? [atStart.monoUs, atEnd.monoUs] : null,
    ops: latency.length,
    places,
    cancels,
    errors,
    firstError,
    latencyUs: Float64Array.from(latency),
    seconds,
  };
}

async function startReference(): Promise<{ baseUrl: string; pid: number | undefined; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', join(import.meta.dirname, 'http-reference.ts'), String(port)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`reference server exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
  });
  const exited = new Promise((r) => child.once('exit', r));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function runOn(db: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'bourse-http-bench-'));
  const pgDb = db === 'postgres' ? await freshPgDatabase(TEST_DATABASE_URL, 'bench_http') : null;
  try {
    const server = await spawnServer({
      dataDir,
      databaseUrl: pgDb?.url,
      env: { LOG_LEVEL: logLevel },
      ...(serverMain ? { main: serverMain } : {}),
      nodeArgs: profileDir ? ['--cpu-prof', '--cpu-prof-dir', join(profileDir, db)] : [],
    });
    let real: Outcome;
    try {
      const setup = new HttpClient(server.baseUrl, 4);
      const started = performance.now();
      const phones = Array.from({ length: userCount }, (_, i) => `98${String(seed * 10_000 + i).padStart(8, '0')}`);
      const registered = await eachLimited(phones, 4, (phone) => registerCustomer(setup, phone, { pin: PIN }));
      const q = await quote(setup, symbol);
      const prices = Array.from({ length: 10 }, (_, k) => restingBuyPrice(q, 0.9, k));
      const customers: Customer[] = registered.map((r) => ({ token: r.token, open: [], inFlight: 0 }));
      // One order each before the clock starts: the first order pays argon2 for the PIN, later ones
      // hit the PIN cache (as an active trader's do).
      await eachLimited(customers, 4, async (c) => {
        const a = await setup.request('POST', '/stock/order/buy', {
          token: c.token,
          json: { symbol, orderType: 'limit', price: prices[0], quantity: '1', password: PIN },
        });
        if (a.body.code !== 0) throw new Error(`first order: ${JSON.stringify(a.body)}`);
        c.open.push(a.body.data.order.id);
      });
      setup.close();
      const setupSeconds = (performance.now() - started) / 1000;
      process.stderr.write(`${db}: ${userCount} customers ready in ${setupSeconds.toFixed(1)} s; driving\n`);
      const client = new HttpClient(server.baseUrl, connections);
      real = await drive(client, customers, prices, server.child.pid, db === 'postgres');
      client.close();
      if (profileDir && real.windowUs) {
        mkdirSync(join(profileDir, db), { recursive: true });
        writeFileSync(
          join(profileDir, db, 'window.json'),
          JSON.stringify({ startUs: real.windowUs[0], endUs: real.windowUs[1] }),
        );
      }
    } finally {
      await server.stop();
    }

    const reference = await startReference();
    let ref: Outcome;
    try {
      const client = new HttpClient(reference.baseUrl, connections);
      const fakes: Customer[] = Array.from({ length: userCount }, (_, i) => ({
        token: `t${i}`,
        open: [],
        inFlight: 0,
      }));
      ref = await drive(client, fakes, ['1269.30'], reference.pid);
      client.close();
    } finally {
      await reference.stop();
    }

    const p = percentiles(real.latencyUs);
    const rp = percentiles(ref.latencyUs);
    const opsPerSec = Math.round(real.ops / real.seconds);
    const referenceOpsPerSec = Math.round(ref.ops / ref.seconds);
    console.log(
      JSON.stringify({
        db,
        opsPerSec,
        referenceOpsPerSec,
        ratio: Math.round((opsPerSec / referenceOpsPerSec) * 1000) / 1000,
        p50Ms: p.p50 / 1000,
        p99Ms: p.p99 / 1000,
        errors: real.errors,
        connections,
        seconds,
        placesPerSec: Math.round(real.places / real.seconds),
        cancelsPerSec: Math.round(real.cancels / real.seconds),
        p999Ms: p.p999 / 1000,
        maxMs: p.max / 1000,
        referenceP50Ms: rp.p50 / 1000,
        referenceP99Ms: rp.p99 / 1000,
        referenceErrors: ref.errors,
        serverCpuPct: real.cpuPct,
        serverCpuUsPerOp: real.cpuUsPerOp,
        referenceCpuPct: ref.cpuPct,
        referenceCpuUsPerOp: ref.cpuUsPerOp,
        ...(db === 'postgres' ? { postgresCpuUsPerOp: real.postgresCpuUsPerOp } : {}),
        clientCpuPct: real.clientCpuPct,
        referenceClientCpuPct: ref.clientCpuPct,
        users: userCount,
        warmupSeconds,
        seed,
        logLevel,
        loadAvg1m: Math.round(loadavg()[0]! * 100) / 100,
        ...(real.firstError ? { firstError: real.firstError.slice(0, 300) } : {}),
      }),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await pgDb?.drop();
  }
}

for (const db of (argument('db') ?? 'sqlite,postgres').split(',')) {
  if (db === 'postgres' && !(await isPostgresReachable())) continue;
  if (db !== 'sqlite' && db !== 'postgres') throw new Error(`unknown --db ${db}`);
  await runOn(db);
}
