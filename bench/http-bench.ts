// Benchmark (not a test): orders through the real HTTP API with durable commits. Starts the real server
// (main.ts, paper mode, test hooks, the clock on an NSE trading morning) on a temporary SQLite DATA_DIR
// and then on a fresh PostgreSQL database (when it answers), registers customers with trade PINs, and
// drives resting limit buys (~90% of the price: they rest, nothing trades) over keep-alive connections
// on loopback: a warm-up on node:http, then the measured run by wrk (bench/http-load.lua, one thread,
// bounded in time; ensure-wrk.sh installs it). A customer with `--open-cap` open orders cancels its
// oldest instead (the engine allows 200 open orders a customer), so at steady state about half the
// operations are cancels; both are engine commands answered after their commit.
// The same load runs against a reference: a bare Fastify child (http-reference.ts) validating the same
// bodies with the same zod schemas and answering the same envelope, doing nothing else. Both servers
// run side by side and the measured time is cut into `--rounds` turns, ours and the reference's in
// alternating order (ABBA), so that both meet the same phases of a shared machine; the turns' counts,
// CPU times and latency histograms are summed. Before each of our turns the customers' open orders are
// read back from the server (the orders a turn's last requests placed are not lost to the next).
// Prints ONE line of JSON per database.
// Each line also gives the share of the machine's CPU time its host took (steal) during each turn.
// Run: npm run bench:http [-- --seconds 10 --rounds 5 --warmup 2 --connections 64 --users 50 --seed 1
//   --open-cap 150 --db sqlite,postgres --log-level info --cpu-prof DIR --main EXPERIMENT.ts]

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
import { argument, stealMeter } from './bench-util.ts';

const seconds = Number(argument('seconds') ?? 10);
/** Turns per server: each runs `seconds / rounds` (see the top of this file). */
const rounds = Number(argument('rounds') ?? 5);
/** The warm-up driver's closed loop before each turn. */
const TURN_WARMUP_SECONDS = 0.5;
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

/** What one wrk run of http-load.lua measured, with the CPU time each process used over it (ms). */
type Turn = {
  ops: number;
  places: number;
  cancels: number;
  /** Failed answers (the script's own check: HTTP 200 with code 0) plus wrk's socket errors and timeouts. */
  errors: number;
  firstError: string | null;
  /** Every recorded latency (µs) → how many requests took it. */
  latency: Map<number, number>;
  seconds: number;
  serverMs: number | null;
  postgresMs: number | null;
  clientMs: number;
  /** The run on the monotonic clock, in µs (to cut a CPU profile to it). */
  windowUs: [number, number];
};

/** A server's turns added up. */
type Outcome = {
  ops: number;
  places: number;
  cancels: number;
  errors: number;
  firstError: string | null;
  p50Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
  seconds: number;
  /** The server's CPU time over its turns, per operation (µs) and as a share of one core. */
  cpuUsPerOp: number | null;
  cpuPct: number | null;
  /** wrk's own CPU over the turns, as a share of one core (it shares the 2 cores). */
  clientCpuPct: number;
  /** PostgreSQL's CPU time over the turns per operation (µs), approximate (see postgresCpuMs). */
  postgresCpuUsPerOp: number | null;
  windowsUs: [number, number][];
};

/** The latency under which `p` percent of the requests were answered, from the merged histogram. */
function percentileOf(sorted: [number, number][], total: number, p: number): number {
  const rank = Math.ceil((p / 100) * total);
  let seen = 0;
  for (const [value, n] of sorted) {
    seen += n;
    if (seen >= rank) return value;
  }
  return sorted.at(-1)?.[0] ?? 0;
}

function addUp(turns: readonly Turn[]): Outcome {
  const sum = (f: (t: Turn) => number) => turns.reduce((a, t) => a + f(t), 0);
  const sumOrNull = (f: (t: Turn) => number | null) =>
    turns.some((t) => f(t) === null) ? null : sum((t) => f(t) as number);
  const latency = new Map<number, number>();
  for (const t of turns) for (const [value, n] of t.latency) latency.set(value, (latency.get(value) ?? 0) + n);
  const sorted = [...latency].sort((a, b) => a[0] - b[0]);
  const recorded = sorted.reduce((a, [, n]) => a + n, 0);
  const ops = sum((t) => t.ops);
  const seconds = sum((t) => t.seconds);
  const serverMs = sumOrNull((t) => t.serverMs);
  const postgresMs = sumOrNull((t) => t.postgresMs);
  const perOp = (ms: number | null) => (ms === null || ops === 0 ? null : Math.round((ms * 1000) / ops));
  return {
    ops,
    places: sum((t) => t.places),
    cancels: sum((t) => t.cancels),
    errors: sum((t) => t.errors),
    firstError: turns.find((t) => t.firstError !== null)?.firstError ?? null,
    p50Us: percentileOf(sorted, recorded, 50),
    p99Us: percentileOf(sorted, recorded, 99),
    p999Us: percentileOf(sorted, recorded, 99.9),
    maxUs: sorted.at(-1)?.[0] ?? 0,
    seconds,
    cpuUsPerOp: perOp(serverMs),
    cpuPct: serverMs === null ? null : Math.round(serverMs / seconds / 10),
    clientCpuPct: Math.round(sum((t) => t.clientMs) / seconds / 10),
    postgresCpuUsPerOp: perOp(postgresMs),
    windowsUs: turns.map((t) => t.windowUs),
  };
}

/**
 * The warm-up: a closed loop of `connections` workers on node:http for `warmupSeconds`, so the server's
 * code is compiled and every customer has open orders (which it keeps in `customers`) before wrk takes
 * over. Throws on the first failed answer.
 */
async function warmUp(client: HttpClient, customers: Customer[], prices: string[], forSeconds: number): Promise<void> {
  const random = rng(seed);
  let next = 0;
  const end = performance.now() + forSeconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const c = customers[next++ % customers.length] as Customer;
      if (c.open.length > 0 && c.open.length + c.inFlight >= openCap) {
        const id = c.open.shift() as number;
        const a = await client.request('GET', `/stock/order/cancel?id=${id}`, { token: c.token });
        if (a.status !== 200 || a.body.code !== 0) throw new Error(`warm-up cancel: ${JSON.stringify(a.body)}`);
        continue;
      }
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
        if (a.status !== 200 || a.body.code !== 0) throw new Error(`warm-up buy: ${JSON.stringify(a.body)}`);
        if (a.body.data.order.status === 'pending') c.open.push(a.body.data.order.id);
      } finally {
        c.inFlight -= 1;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
}

/** CPU time (user + system) of this process's children that have ended, in ms (Linux /proc). */
function endedChildrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // cutime, cstime
}

/**
 * One turn: wrk with http-load.lua for `turnSeconds`, `connections` keep-alive connections on one
 * thread, starting from the customers' open orders as given.
 */
async function measureTurn(
  baseUrl: string,
  customers: Customer[],
  prices: string[],
  serverPid: number | undefined,
  measurePostgres: boolean,
  turnSeconds: number,
): Promise<Turn> {
  const dir = mkdtempSync(join(tmpdir(), 'bourse-http-load-'));
  try {
    const file = join(dir, 'customers.txt');
    writeFileSync(file, customers.map((c) => [c.token, ...c.open].join(' ')).join('\n'));
    const mark = () => ({
      server: cpuMsOf(serverPid),
      postgres: measurePostgres ? postgresCpuMs() : null,
      children: endedChildrenCpuMs(),
      monoUs: Number(process.hrtime.bigint() / 1000n),
    });
    const before = mark();
    const wrk = spawn(
      'wrk',
      [
        '-t1',
        `-c${connections}`,
        `-d${turnSeconds}s`,
        '--timeout',
        '10s',
        '-s',
        join(import.meta.dirname, 'http-load.lua'),
        baseUrl,
        '--',
        file,
        String(openCap),
        PIN,
        prices.join(','),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    wrk.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      wrk.once('error', reject);
      wrk.once('close', resolve);
    });
    const after = mark();
    const line = out.trim().split('\n').at(-1) ?? '';
    if (code !== 0 || !line.startsWith('{')) throw new Error(`wrk exited with ${code}: ${out.slice(-500)}`);
    const r = JSON.parse(line) as {
      requests: number;
      durationUs: number;
      places: number;
      cancels: number;
      failures: number;
      socketErrors: number;
      timeouts: number;
      hist: string;
      firstFailure: string;
    };
    const latency = new Map<number, number>();
    for (const pair of r.hist === '' ? [] : r.hist.split(',')) {
      const [value, n] = pair.split(':').map(Number) as [number, number];
      latency.set(value, n);
    }
    const diff = (a: number | null, b: number | null) => (a !== null && b !== null ? b - a : null);
    return {
      ops: r.requests,
      places: r.places,
      cancels: r.cancels,
      errors: r.failures + r.socketErrors + r.timeouts,
      firstError: r.firstFailure === '' ? null : r.firstFailure,
      latency,
      seconds: r.durationUs / 1e6,
      serverMs: diff(before.server, after.server),
      postgresMs: diff(before.postgres, after.postgres),
      clientMs: after.children - before.children,
      windowUs: [before.monoUs, after.monoUs],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each customer's open orders as the server has them, oldest first (the load cancels the oldest). */
async function readOpenOrders(client: HttpClient, customers: Customer[]): Promise<void> {
  await eachLimited(customers, 4, async (c) => {
    const ids: number[] = [];
    for (let page = 1; ; page++) {
      const a = await client.request('GET', `/stock/order/list?status=open&limit=100&page=${page}`, { token: c.token });
      if (a.status !== 200 || a.body.code !== 0) throw new Error(`open orders: ${JSON.stringify(a.body)}`);
      const items = a.body.data.items as { id: number }[];
      for (const o of items) ids.push(o.id);
      if (items.length < 100) break;
    }
    c.open = ids.sort((x, y) => x - y);
    c.inFlight = 0;
  });
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
  /** Servers and clients to stop however the run ends, the last started first. */
  const stops: (() => Promise<void>)[] = [];
  try {
    const server = await spawnServer({
      dataDir,
      databaseUrl: pgDb?.url,
      // No reconciliation run (it would come 30 s after start-up, inside the measured window; in
      // production it runs once an hour): the bench times the order path at steady state.
      env: { LOG_LEVEL: logLevel, RECONCILE_EVERY_MIN: '0' },
      ...(serverMain ? { main: serverMain } : {}),
      nodeArgs: profileDir ? ['--cpu-prof', '--cpu-prof-dir', join(profileDir, db)] : [],
    });
    stops.push(() => server.stop());
    const setup = new HttpClient(server.baseUrl, 4);
    stops.push(async () => setup.close());
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
    const setupSeconds = (performance.now() - started) / 1000;
    process.stderr.write(`${db}: ${userCount} customers ready in ${setupSeconds.toFixed(1)} s; driving\n`);
    const client = new HttpClient(server.baseUrl, connections);
    stops.push(async () => client.close());
    await warmUp(client, customers, prices, warmupSeconds);

    const reference = await startReference();
    stops.push(() => reference.stop());
    const refClient = new HttpClient(reference.baseUrl, connections);
    stops.push(async () => refClient.close());
    const fakes: Customer[] = Array.from({ length: userCount }, (_, i) => ({ token: `t${i}`, open: [], inFlight: 0 }));
    await warmUp(refClient, fakes, ['1269.30'], warmupSeconds);

    const turnSeconds = seconds / rounds;
    const ours: Turn[] = [];
    const theirs: Turn[] = [];
    /** Per turn, the share of the machine's CPU time its host took (%), where readable. */
    const ourSteal: (number | undefined)[] = [];
    const theirSteal: (number | undefined)[] = [];
    // Each turn starts on a server that is already busy: a short closed loop from the warm-up driver
    // first, so wrk does not time a server that has sat idle through the other's turn.
    const ourTurn = async () => {
      // The last requests of the turn before placed orders whose answers wrk never read.
      if (ours.length > 0) await readOpenOrders(setup, customers);
      await warmUp(client, customers, prices, TURN_WARMUP_SECONDS);
      const steal = stealMeter();
      ours.push(await measureTurn(server.baseUrl, customers, prices, server.child.pid, db === 'postgres', turnSeconds));
      ourSteal.push(steal());
    };
    const referenceTurn = async () => {
      await warmUp(refClient, fakes, ['1269.30'], TURN_WARMUP_SECONDS);
      const steal = stealMeter();
      theirs.push(await measureTurn(reference.baseUrl, fakes, ['1269.30'], reference.pid, false, turnSeconds));
      theirSteal.push(steal());
    };
    for (let round = 0; round < rounds; round++) {
      // ABBA: neither server always goes first.
      if (round % 2 === 0) {
        await ourTurn();
        await referenceTurn();
      } else {
        await referenceTurn();
        await ourTurn();
      }
    }
    const real = addUp(ours);
    const ref = addUp(theirs);
    if (profileDir) {
      mkdirSync(join(profileDir, db), { recursive: true });
      writeFileSync(join(profileDir, db, 'window.json'), JSON.stringify({ windowsUs: real.windowsUs }));
    }

    const opsPerSec = Math.round(real.ops / real.seconds);
    const referenceOpsPerSec = Math.round(ref.ops / ref.seconds);
    console.log(
      JSON.stringify({
        db,
        opsPerSec,
        referenceOpsPerSec,
        ratio: Math.round((opsPerSec / referenceOpsPerSec) * 1000) / 1000,
        p50Ms: real.p50Us / 1000,
        p99Ms: real.p99Us / 1000,
        errors: real.errors,
        connections,
        seconds: Math.round(real.seconds * 100) / 100,
        rounds,
        loadGenerator: 'wrk',
        placesPerSec: Math.round(real.places / real.seconds),
        cancelsPerSec: Math.round(real.cancels / real.seconds),
        p999Ms: real.p999Us / 1000,
        maxMs: real.maxUs / 1000,
        referenceP50Ms: ref.p50Us / 1000,
        referenceP99Ms: ref.p99Us / 1000,
        referenceErrors: ref.errors,
        turnRatios: ours.map(
          (t, i) => Math.round((t.ops / t.seconds / (theirs[i]!.ops / theirs[i]!.seconds)) * 100) / 100,
        ),
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
        turnStealPct: ourSteal,
        referenceTurnStealPct: theirSteal,
        ...(real.firstError ? { firstError: real.firstError.slice(0, 300) } : {}),
        ...(ref.firstError ? { referenceFirstError: ref.firstError.slice(0, 300) } : {}),
      }),
    );
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(dataDir, { recursive: true, force: true });
    await pgDb?.drop();
  }
}

for (const db of (argument('db') ?? 'sqlite,postgres').split(',')) {
  if (db === 'postgres' && !(await isPostgresReachable())) continue;
  if (db !== 'sqlite' && db !== 'postgres') throw new Error(`unknown --db ${db}`);
  await runOn(db);
}
