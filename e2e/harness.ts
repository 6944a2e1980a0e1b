// Browser-test harness: starts the real server (built front ends, a fresh embedded database in a temp
// DATA_DIR, paper mode with test hooks) and Debian's Chromium through playwright-core at a phone
// viewport. Screenshots go to test-results/screens/ as artefacts.
//
// Captchas: the registration page solves its proof of work in the browser (wait for
// [data-testid=captcha][data-solved=true]); an API shortcut solves GET /ipor-api/common/captcha's
// challenge with `await solveCaptcha(data.challenge)`. SMS codes: `await smsCode(server, '9xxxxxxxxx')`.
// Staff sign-in: `await staffTotp()` gives a code of the seeded admin that has not signed in yet.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as OTPAuth from 'otpauth';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const ROOT = new URL('../', import.meta.url).pathname;
export const SCREENS = join(ROOT, 'test-results', 'screens');
export const PHONE = { width: 390, height: 844 };
export const DEMO_CUSTOMER = { areaCode: '91', phone: '9876543210', password: 'demo1234' };
export const DEMO_STAFF = { username: 'admin', password: 'admin-demo-123', totpSecret: 'JBSWY3DPEHPK3PXP' };

export type Server = { baseUrl: string; dataDir: string; stop: () => Promise<void> };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'bourse-e2e-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', join(ROOT, 'apps/server/src/main.ts')],
    {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        BOURSE_TEST_HOOKS: '1',
        LOG_LEVEL: 'warn',
        MODE: 'paper',
        // One browser from one address registers and signs in far faster than a person.
        RATE_LIMITS: 'GLOBAL:1000000,SIGN_IN:1000000,REGISTER:1000000,CODE_SEND:1000000,ORDER:1000000',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/ipor-api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL'); // not left running after the file gives up on it
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error('server did not start within 30 s');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    dataDir,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: run scripts/ensure-chromium.sh`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** The staff console's viewport: a laptop screen. */
export const DESKTOP = { width: 1366, height: 800 };

/** A staff console page whose stored language is `lang` before the console loads. */
export async function consolePage(browser: Browser, lang: 'en-US' | 'pt-BR'): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, locale: lang });
  await context.addInitScript((l) => localStorage.setItem('adminLanguage', l), lang);
  return context.newPage();
}

/**
 * Staff sessions already made in this file, by server and username. The server takes each TOTP code once
 * (and the next step's a step early), so a third sign-in of the same staff member within 30 s waited up to
 * 30 s for a new code; a test that only needs a staff member signed in reuses the session instead.
 */
const staffSessions = new Map<string, string>();
const sessionKey = (server: Server, username: string) => `${server.baseUrl}|${username}`;

/**
 * Signs a staff member in on the console (the demo administrator unless told): with their session from
 * earlier in this file when it still signs in, else through the sign-in page (username, password, code).
 */
export async function staffSignIn(
  page: Page,
  server: Server,
  staff: { username: string; password: string; totpSecret: string } = DEMO_STAFF,
): Promise<void> {
  const known = staffSessions.get(sessionKey(server, staff.username));
  if (known) {
    await page.goto(`${server.baseUrl}/admin/`);
    await page.evaluate(`localStorage.setItem('adminToken', ${JSON.stringify(known)})`);
    await page.goto(`${server.baseUrl}/admin/`);
    const banner = page.getByTestId('mode-banner');
    await banner.or(page.getByTestId('sign-in-username')).first().waitFor();
    if (await banner.isVisible()) return;
    staffSessions.delete(sessionKey(server, staff.username)); // expired (a test moved the clock): sign in anew
  }
  await page.goto(`${server.baseUrl}/admin/sign-in`);
  await page.getByTestId('sign-in-username').fill(staff.username);
  await page.getByTestId('sign-in-password').fill(staff.password);
  await page.getByTestId('sign-in-totp').fill(await staffTotp(staff.totpSecret));
  await page.getByTestId('sign-in-submit').click();
  await page.getByTestId('mode-banner').waitFor();
  const token = await page.evaluate<string | null>(`localStorage.getItem('adminToken')`);
  if (token) staffSessions.set(sessionKey(server, staff.username), token);
}

/** A staff session over the API (the demo administrator unless told), remembered for staffSignIn. */
export async function staffApiSignIn(
  server: Server,
  staff: { username: string; password: string; totpSecret: string } = DEMO_STAFF,
): Promise<string> {
  const res = await fetch(`${server.baseUrl}/ipor-api/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: staff.username,
      password: staff.password,
      totpCode: await staffTotp(staff.totpSecret),
    }),
  });
  const body = (await res.json()) as ApiAnswer;
  if (body.code !== 0) throw new Error(`staff sign-in failed: ${JSON.stringify(body)}`);
  staffSessions.set(sessionKey(server, staff.username), body.data.token);
  return body.data.token as string;
}

/** A phone-sized page (390×844, touch) whose stored language is `lang` before the app loads. */
export async function phonePage(
  browser: Browser,
  lang: 'en-US' | 'pt-BR' = 'en-US',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 1,
    isMobile: true,
    hasTouch: true,
    locale: lang,
  });
  await context.addInitScript((l) => {
    if (!localStorage.getItem('smcLanguage')) localStorage.setItem('smcLanguage', l);
  }, lang);
  const page = await context.newPage();
  return { context, page };
}

/** A customer's session as the app stores it (the sign-in answer's token and user). */
export type CustomerSession = { token: string; user: unknown };

/** Signs a customer in over the API (the demo customer unless told), for pages opened already signed in. */
export async function signInCustomer(
  server: Server,
  who: { areaCode: string; phone: string; password: string } = DEMO_CUSTOMER,
): Promise<CustomerSession & { user: { id: number } }> {
  const res = await fetch(`${server.baseUrl}/ipor-api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(who).toString(),
  });
  const body = (await res.json()) as { code: number; msg: string; data: { token: string; user: { id: number } } };
  if (body.code !== 0) throw new Error(`sign-in failed: ${body.msg}`);
  return body.data;
}

/** A phone page in `lang`, signed in as `session` before the app loads when one is given. */
export async function customerPage(
  browser: Browser,
  lang: 'en-US' | 'pt-BR',
  session?: CustomerSession,
): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await phonePage(browser, lang);
  if (session) {
    await context.addInitScript(
      ([token, user]) => {
        localStorage.setItem('userToken', token as string);
        localStorage.setItem('userInfo', user as string);
      },
      [session.token, JSON.stringify(session.user)],
    );
  }
  return { context, page };
}

import { solveCaptcha } from '../apps/server/src/features/common/captcha-solver.ts';
import { axeViolations, blocking } from './axe.ts';

export { solveCaptcha };

/** The API's answer envelope (SPEC: code 0 is success, msg the translated message). */
export type ApiAnswer = { code: number; msg: string; data: any; error?: string };

/** One API call as the app makes it: a form-encoded POST when there is a body, a GET when there is none. */
export async function apiCall(
  server: Server,
  path: string,
  body: Record<string, string> | null = null,
  { token, lang }: { token?: string | undefined; lang?: string | undefined } = {},
): Promise<ApiAnswer> {
  const res = await fetch(`${server.baseUrl}/ipor-api${path}`, {
    method: body ? 'POST' : 'GET',
    headers: {
      ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...(token ? { token } : {}),
      ...(lang ? { lang } : {}),
    },
    ...(body ? { body: new URLSearchParams(body).toString() } : {}),
  });
  return (await res.json()) as ApiAnswer;
}

/** A new customer registered over the API (the captcha solved as a test can), with their session; with
 * `tradePassword`, that transaction password set too. */
export async function registerCustomer(
  server: Server,
  phone: string,
  { tradePassword }: { tradePassword?: string } = {},
): Promise<CustomerSession & { user: { id: number } }> {
  const captcha = (await apiCall(server, '/common/captcha')).data;
  const reg = await apiCall(server, '/user/register', {
    areaCode: '91',
    phone,
    password: 'secret12',
    confirmPassword: 'secret12',
    agree: '1',
    captchaId: captcha.captchaId,
    captchaCode: await solveCaptcha(captcha.challenge),
  });
  if (reg.code !== 0) throw new Error(`registration failed: ${JSON.stringify(reg)}`);
  const token = reg.data.token as string;
  if (tradePassword !== undefined) {
    const pin = await apiCall(
      server,
      '/user/update/tradePassword',
      { password: tradePassword, confirmPassword: tradePassword, loginPassword: 'secret12' },
      { token },
    );
    if (pin.code !== 0) throw new Error(`transaction password: ${JSON.stringify(pin)}`);
  }
  return { token, user: reg.data.user };
}

export async function smsCode(server: Server, phone: string, areaCode = '91'): Promise<string> {
  const res = await fetch(`${server.baseUrl}/ipor-api/test/sms?areaCode=${areaCode}&phone=${phone}`);
  return ((await res.json()) as { data: { code: string } }).data.code;
}

const totpOf = (secret: string) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });

/** The current code without using it (to make a wrong one from). */
export function currentStaffTotp(secret = DEMO_STAFF.totpSecret): string {
  return totpOf(secret).generate();
}

/** The last TOTP time step each secret signed in with in this test run. */
const usedSteps = new Map<string, number>();

/**
 * A code that has not signed in yet: the server takes each code once (and the next step's code a step
 * early), so a second sign-in within 30 s uses the next step's code, and a third waits for a new step.
 */
export async function staffTotp(secret = DEMO_STAFF.totpSecret): Promise<string> {
  const totp = totpOf(secret);
  for (;;) {
    const now = Date.now();
    const current = Math.floor(now / 30_000);
    const step = Math.max(current, (usedSteps.get(secret) ?? -1) + 1);
    if (step <= current + 1) {
      usedSteps.set(secret, step);
      return totp.generate({ timestamp: step * 30_000 });
    }
    await new Promise((resolve) => setTimeout(resolve, (current + 1) * 30_000 - now + 50));
  }
}

export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENS, { recursive: true });
  const path = join(SCREENS, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/** The page's contrast violations and those axe rates serious or critical, one line each ([] when none). */
export async function blockingAxeViolations(page: Page): Promise<string[]> {
  return blocking(await axeViolations(page)).map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}
