// For the HTTP benchmark and the crash test: the real server (main.ts) as a child process, a keep-alive
// HTTP client on node:http that times every request, customer registration through the public API (its
// captcha solved as a browser would), and throwaway PostgreSQL databases. Must not: read the server's
// database directly; everything goes through HTTP, as a customer's client would.

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { solveCaptcha } from './features/common/captcha-solver.ts';

export const MAIN_TS = fileURLToPath(new URL('./main.ts', import.meta.url));
/** A Monday, 09:30 in India: NSE is open when the server's clock starts here. */
export const NSE_OPEN_CLOCK = '2026-01-05T04:00:00Z';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export type ServerProcess = {
  baseUrl: string;
  child: ChildProcess;
  /** Resolves with the exit code (or null when killed by a signal) once the process has ended. */
  exited: Promise<number | null>;
  /** SIGTERM (graceful: finishes requests in flight, closes the database) and waits for the exit. */
  stop: () => Promise<void>;
  /** SIGKILL: no shutdown code runs at all. Waits for the exit. */
  kill: () => Promise<void>;
};

export type SpawnOptions = {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** Where the server's clock starts (test hooks); NSE is open at the default. */
  clock?: string;
  env?: Record<string, string>;
  /** Extra node flags, e.g. ['--cpu-prof', '--cpu-prof-dir', dir]. */
  nodeArgs?: string[];
  /** Where the server's output goes; 'ignore' by default (its request log is not wanted here). */
  output?: 'ignore' | 'inherit';
  startTimeoutMs?: number;
  /** Another entry point instead of main.ts (an experiment wrapping it). */
  main?: string;
};

/** Starts main.ts in paper mode with test hooks on a free port and waits for /health. */
export async function spawnServer(o: SpawnOptions): Promise<ServerProcess> {
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: o.dataDir,
    MODE: 'paper',
    BOURSE_TEST_HOOKS: '1',
    BOURSE_TEST_CLOCK: o.clock ?? NSE_OPEN_CLOCK,
    UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '16', // as `npm start` runs the server
    // Benchmarks and the crash test register and order from one address far faster than a person.
    RATE_LIMITS: 'GLOBAL:100000000,SIGN_IN:100000000,REGISTER:100000000,CODE_SEND:100000000,ORDER:100000000',
    CAPTCHA_COST: '1',
    CAPTCHA_TRIES: '20',
    ...o.env,
  };
  delete env.DATABASE_URL;
  if (o.databaseUrl) env.DATABASE_URL = o.databaseUrl;
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', ...(o.nodeArgs ?? []), o.main ?? MAIN_TS],
    // stderr is kept so that a failed start can say why.
    { env, stdio: ['ignore', o.output ?? 'ignore', o.output === 'inherit' ? 'inherit' : 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (o.startTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited with ${child.exitCode ?? child.signalCode} before serving:\n${stderr}`);
    try {
      if ((await fetch(`${baseUrl}/ipor-api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within ${o.startTimeoutMs ?? 60_000} ms:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { baseUrl, child, exited, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}

export type Answer = {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the JSON answer of any call; callers read what they asked for
  body: { code: number; msg: string; data: any; error?: string; fields?: Record<string, string> };
};

/**
 * A keep-alive client: at most `connections` sockets, reused. Rejects only when no answer came (the
 * connection failed or was cut); any HTTP answer resolves, whatever its status.
 */
export class HttpClient {
  readonly #host: string;
  readonly #port: number;
  readonly agent: Agent;

  constructor(baseUrl: string, connections = 16) {
    const url = new URL(baseUrl);
    this.#host = url.hostname;
    this.#port = Number(url.port);
    this.agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  }

  request(method: 'GET' | 'POST', path: string, o: { token?: string; json?: unknown } = {}): Promise<Answer> {
    const payload = o.json === undefined ? undefined : JSON.stringify(o.json);
    const headers: Record<string, string | number> = {};
    if (o.token) headers.token = o.token;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: this.#host, port: this.#port, method, path: `/ipor-api${path}`, headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            try {
              resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
            } catch {
              resolve({ status: res.statusCode ?? 0, body: { code: -1, msg: text.slice(0, 200), data: null } });
            }
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

const expectOk = (what: string, a: Answer) => {
  if (a.status !== 200 || a.body.code !== 0) throw new Error(`${what}: ${a.status} ${JSON.stringify(a.body)}`);
  return a.body.data;
};

/** Registers a customer (paper funds are granted on registration) and sets the 6-digit trade PIN. */
export async function registerCustomer(
  client: HttpClient,
  phone: string,
  o: { password?: string; pin: string },
): Promise<{ token: string; userId: string }> {
  const password = o.password ?? 'secret12';
  const captcha = expectOk('captcha', await client.request('GET', '/common/captcha'));
  const registered = expectOk(
    'register',
    await client.request('POST', '/user/register', {
      json: {
        areaCode: '91',
        phone,
        password,
        confirmPassword: password,
        agree: '1',
        captchaId: captcha.captchaId,
        captchaCode: await solveCaptcha(captcha.challenge),
      },
    }),
  );
  const token = registered.token as string;
  expectOk(
    'trade password',
    await client.request('POST', '/user/update/tradePassword', {
      token,
      json: { password: o.pin, confirmPassword: o.pin, loginPassword: password },
    }),
  );
  return { token, userId: String(registered.user.id) };
}

/** Runs `work` over `items` with at most `limit` at a time. */
export async function eachLimited<T, R>(items: readonly T[], limit: number, work: (item: T, i: number) => Promise<R>) {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i] as T, i);
      }
    }),
  );
  return out;
}

/** The price of a stock now and its band for the day, from the public quote. */
export async function quote(client: HttpClient, symbol: string) {
  const data = expectOk('quote', await client.request('GET', `/stock/index/info?symbol=${encodeURIComponent(symbol)}`));
  return {
    price: data.price as string,
    tickSize: data.tickSize as string,
    bandLo: data.bandLo as string | null,
    bandHi: data.bandHi as string | null,
  };
}

/**
 * A limit-buy price that rests without trading: `fraction` of the price (0.9 by default), on the tick
 * grid, and a few ticks inside the day's lower band. `ticksUp` moves it up by whole ticks (to spread
 * orders over several price levels).
 */
export function restingBuyPrice(q: Awaited<ReturnType<typeof quote>>, fraction = 0.9, ticksUp = 0): string {
  const decimals = q.tickSize.split('.')[1]?.length ?? 0;
  const unit = 10 ** decimals;
  const tick = Math.round(Number(q.tickSize) * unit);
  const toTicks = (text: string) => Math.round(Number(text) * unit) / tick;
  let ticks = Math.floor(toTicks(q.price) * fraction);
  if (q.bandLo !== null) ticks = Math.max(ticks, Math.ceil(toTicks(q.bandLo)) + 2);
  ticks += ticksUp;
  return ((ticks * tick) / unit).toFixed(decimals);
}

/**
 * A fresh PostgreSQL database on the server of `adminUrl` (e.g. postgres://postgres@127.0.0.1:5432/test),
 * and a way to drop it (closing whatever is still connected).
 */
export async function freshPgDatabase(
  adminUrl: string,
  prefix = 'bourse',
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
