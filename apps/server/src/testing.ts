// For API tests: the whole HTTP stack on a fresh database with a manual clock, driven through
// Fastify's inject (no socket). Helpers speak the wire format the app uses (form bodies, headers).

import type { StaffRole } from '@bourse/contract';
import type { Db } from '@bourse/db';
import { buildApp } from './app.ts';
import { type Config, DEFAULT_RATE_LIMITS, loadConfig } from './config.ts';
import type { CommandInput, TradingEngine } from './engine-host/trading-engine.ts';
import { solveCaptcha } from './features/common/captcha-solver.ts';
import { DEMO_STAFF } from './features/demo/seed.ts';
import { PAPER_GRANTS } from './features/wallet/paper-grants.ts';
import { manualClock } from './platform/clock.ts';
import { totpNow } from './platform/totp.ts';

export type Reply = {
  status: number;
  body: { code: number; msg: string; data: any; error?: string; fields?: Record<string, string> };
};

export async function testApp(db: Db, overrides: Partial<Config> = {}, clockStartMs?: number) {
  const base = loadConfig({ BOURSE_TEST_HOOKS: '1', CRYPTO_SCAN_EVERY_MS: '0' }, { dataDir: null });
  const config = {
    // The crypto deposit watcher scans only when a test asks (as the market moves only by hand).
    ...base,
    // Tests register and sign in far faster than a person: the ceilings are tested on their own
    // (http/rate-limits.test.ts), and the captcha's work is a formality here.
    rateLimits: { ...DEFAULT_RATE_LIMITS, global: 1e6, signIn: 1e6, register: 1e6, codeSend: 1e6, order: 1e6 },
    captcha: { cost: 1, tries: 20 },
    // The payout outbox runs only when a test asks (app.payouts.runOnce()), not on a timer.
    withdrawals: { ...base.withdrawals, payoutEveryMs: 0 },
    // No snapshot worker thread: no API test reaches a snapshot (one per 100,000 commands), and starting
    // the worker cost ~300 ms of CPU per app on PostgreSQL (decision 0026). Its own tests ask for it.
    engineSnapshots: 'writer' as const,
    // No IPO timer (tests run the job with app.ipos.tick()) and no demo IPOs holding the demo customer's funds.
    ipo: { ...base.ipo, jobEveryMs: 0, demo: false },
    // No options timer: tests run the expiry job with app.options.tick().
    options: { ...base.options, jobEveryMs: 0 },
    // No demo coin offerings: a test of the launchpad creates its own (one asks for the demo ones).
    demoLaunchpad: false,
    // No robot timer (tests tick with app.robots.tick()) and no demo robots.
    robots: { demo: false, tickEveryMs: 0 },
    // No interest timer: tests run the job with app.loans.accrue().
    loans: { ...base.loans, accrueEveryMs: 0 },
    // No AI funds timer (tests run the job with app.funds.tick()) and no demo fund.
    aiFunds: { demo: false, jobEveryMs: 0 },
    ...overrides,
  };
  const clock = manualClock(clockStartMs);
  const app = await buildApp({ config, db, clock, logger: false });
  const call = async (
    method: 'GET' | 'POST',
    url: string,
    opts: {
      body?: Record<string, string | undefined>;
      json?: unknown;
      token?: string;
      lang?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<Reply> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.token = opts.token;
    if (opts.lang) headers.lang = opts.lang;
    let payload: string | undefined;
    if (opts.body) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      // A field set to undefined is left out (not sent as the text "undefined").
      const fields = Object.entries(opts.body).filter((entry): entry is [string, string] => entry[1] !== undefined);
      payload = new URLSearchParams(fields).toString();
    } else if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(opts.json);
    }
    const res = await app.http.inject({ method, url: `/ipor-api${url}`, headers, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json() };
  };
  const captcha = async () => {
    const { body } = await call('GET', '/common/captcha');
    return { captchaId: body.data.captchaId as string, captchaCode: await solveCaptcha(body.data.challenge) };
  };
  const register = async (phone: string, password = 'secret12', extra: Record<string, string> = {}) =>
    call('POST', '/user/register', {
      body: { areaCode: '91', phone, password, confirmPassword: password, agree: '1', ...(await captcha()), ...extra },
    });
  /** Moves time on, lets the market move and the venue react (sessions, quotes, settlement). */
  const advance = async (ms: number) => {
    clock.advance(ms);
    await app.market.pump();
    await app.venue.sync();
    await app.spot.bot.sync();
    await app.perpetuals.engineDesk.sync();
    await app.blockTrades.run();
    await app.coinOfferings.settleDue();
  };
  /** A staff session, signed in with the TOTP code of the test clock's time. */
  const staffSignIn = async (username: string, password: string, totpSecret: string): Promise<string> => {
    const answer = await call('POST', '/admin/auth/login', {
      json: { username, password, totpCode: totpNow(totpSecret, clock.now()) },
    });
    if (answer.body.code !== 0) throw new Error(`staff sign-in failed: ${JSON.stringify(answer.body)}`);
    return answer.body.data.token as string;
  };
  /**
   * The demo administrator's session and a second staff member's, created by the administrator, for the
   * two-person rules (the clock moves 30 s on so the newcomer's first code is a fresh one), with the
   * newcomer's password and TOTP secret to sign in again later.
   */
  const adminAndColleague = async (username: string, role: StaffRole, reason: string) => {
    const admin = await staffSignIn(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
    const made = await call('POST', '/admin/staff/create', { token: admin, json: { username, role, reason } });
    if (made.body.code !== 0) throw new Error(`staff create failed: ${JSON.stringify(made.body)}`);
    clock.advance(30_000);
    const { initialPassword: password, totpSecret } = made.body.data as { initialPassword: string; totpSecret: string };
    return { admin, colleague: await staffSignIn(username, password, totpSecret), password, totpSecret };
  };
  return {
    app,
    clock,
    call,
    captcha,
    register,
    advance,
    staffSignIn,
    adminAndColleague,
    close: () => app.http.close(),
  };
}

/**
 * Paper mode also grants every new customer USDT in the spot wallet (features/wallet/paper-grants.ts).
 * A test that wants each customer's coin wallets to hold exactly what it deposits passes this as
 * `paperGrants`.
 */
export const STOCK_GRANTS_ONLY = PAPER_GRANTS.filter((g) => g.wallet === 'stock');

/** A settle_allotment an allotmentSpy saw: its id, its holds in order, whether the engine took it. */
export type SentBatch = { id: string; holds: string[]; ok: boolean };

/**
 * The engine seen through a spy that records every settle_allotment sent (with the engine's answer). With
 * `crash`, the process "dies" around the n-th one: 'after' lets it through then throws (the engine
 * committed it, the host never heard), 'before' throws without sending it.
 */
export function allotmentSpy(engine: TradingEngine, crash?: { at: number; when: 'before' | 'after' }) {
  const sent: SentBatch[] = [];
  let seen = 0;
  const spied = new Proxy(engine, {
    get(target, prop) {
      if (prop === 'submit') {
        return async (command: CommandInput) => {
          if (command.type !== 'settle_allotment') return target.submit(command);
          seen++;
          if (crash?.at === seen && crash.when === 'before') throw new Error('simulated crash');
          const answer = await target.submit(command);
          sent.push({ id: command.id, holds: command.entries.map(([hold]) => hold), ok: answer.ok });
          if (crash?.at === seen && crash.when === 'after') throw new Error('simulated crash');
          return answer;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { engine: spied as TradingEngine, sent };
}

/** A call refused in each language, its answer naming `en` in en-US and `pt` in pt-BR. */
export async function refusedInBothLanguages(
  call: (lang: string) => Promise<{ body: Record<string, unknown> }>,
  en: string,
  pt: string,
): Promise<void> {
  for (const [lang, text] of [
    ['en-US', en],
    ['pt-BR', pt],
  ] as const) {
    const answer = await call(lang);
    if (answer.body.code === 0) throw new Error(`${lang}: not refused: ${JSON.stringify(answer.body)}`);
    if (!JSON.stringify(answer.body).includes(text))
      throw new Error(`${lang}: expected "${text}" in ${JSON.stringify(answer.body)}`);
  }
}
