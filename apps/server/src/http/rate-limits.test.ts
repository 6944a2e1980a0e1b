// The abuse ceilings through the real stack: registrations, sign-ins, code sending and orders per
// client address and per route, the global ceiling, the 429 envelope in both languages, and a client
// address that X-Forwarded-For moves only when TRUST_PROXY names the proxy.

import { openDb } from '@bourse/db';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, loadConfig, type RateLimits } from '../config.ts';
import { testApp } from '../testing.ts';

let t: Awaited<ReturnType<typeof testApp>>;
const start = async (limits: Partial<RateLimits>, env: Record<string, string> = {}) => {
  const config = loadConfig({ BOURSE_TEST_HOOKS: '1', ...env }, { dataDir: null });
  t = await testApp(await openDb({ dataDir: null }), {
    trustProxy: config.trustProxy,
    rateLimits: { ...DEFAULT_RATE_LIMITS, global: 10_000, ...limits },
  });
};
afterEach(() => t.close());

const post = (url: string, payload: unknown, o: { ip?: string; headers?: Record<string, string> } = {}) =>
  t.app.http.inject({
    method: 'POST',
    url: `/ipor-api${url}`,
    payload: payload as Record<string, string>,
    headers: { 'content-type': 'application/json', ...o.headers },
    remoteAddress: o.ip ?? '203.0.113.7',
  });

describe('rate limits', () => {
  it('refuses the registrations from one address after its ceiling within one window, with a translated 429', async () => {
    await start({ register: 5 });
    const started = Date.now();
    const answers = [];
    for (let i = 0; i < 10; i++) {
      const body = {
        areaCode: '91',
        phone: `91000000${String(i).padStart(2, '0')}`,
        password: 'secret12',
        confirmPassword: 'secret12',
        agree: '1',
        ...(await t.captcha()),
      };
      answers.push(await post('/user/register', body, { headers: { lang: i % 2 ? 'pt-BR' : 'en-US' } }));
    }
    // All ten fell in one 60-second window (the ceiling counts per window), however slow the machine.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
    expect(answers[5]!.json()).toEqual({
      code: -1001,
      msg: 'Muitas solicitações. Aguarde um momento e tente novamente.',
      data: null,
      error: 'too_many_requests',
    });
    expect(answers[6]!.json().msg).toBe('Too many requests. Please wait a moment and try again.');
    expect(Number(answers[6]!.headers['retry-after'])).toBeGreaterThan(0);
    // Another address has its own count; the refused ones created no account.
    const other = await post(
      '/user/register',
      {
        areaCode: '91',
        phone: '9100000099',
        password: 'secret12',
        confirmPassword: 'secret12',
        agree: '1',
        ...(await t.captcha()),
      },
      { ip: '198.51.100.2' },
    );
    expect(other.statusCode).toBe(200);
    const login = await post('/user/login', { areaCode: '91', phone: '9100000007', password: 'secret12' });
    expect(login.json().error).toBe('login_failed');
  });

  it('counts sign-in, code sending and order placement per route, and the window reopens them', async () => {
    await start({ signIn: 3, codeSend: 2, order: 2, windowSec: 1 });
    const signIn = () => post('/user/login', { areaCode: '91', phone: '9876543210', password: 'wrong-one' });
    expect([(await signIn()).statusCode, (await signIn()).statusCode, (await signIn()).statusCode]).toEqual([
      401, 401, 401,
    ]);
    expect((await signIn()).json().error).toBe('too_many_requests');
    const staff = await post('/admin/auth/login', { username: 'nobody', password: 'wrong-one' });
    expect(staff.statusCode).not.toBe(429);
    const send = () => post('/common/code/send', { areaCode: '91', phone: '9000000100' });
    expect((await send()).statusCode).toBe(200);
    expect((await send()).json().error).toBe('sms_too_soon');
    expect((await send()).json().error).toBe('too_many_requests');
    const order = () => post('/stock/order/buy', { symbol: 'NSE:TCS', quantity: '1' });
    expect((await order()).json().code).toBe(-1000);
    expect((await order()).json().code).toBe(-1000);
    expect((await order()).json().error).toBe('too_many_requests');
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await signIn()).json().error).toBe('login_failed');
  });

  it('puts a global ceiling over every API call', async () => {
    await start({ global: 4 });
    const props = () =>
      t.app.http.inject({ method: 'GET', url: '/ipor-api/common/props', remoteAddress: '203.0.113.9' });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await props()).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('takes the client address from X-Forwarded-For only from the proxy TRUST_PROXY names', async () => {
    const spoofed = (ip: string, forwarded: string) =>
      post(
        '/user/login',
        { areaCode: '91', phone: '9876543210', password: 'wrong-one' },
        {
          ip,
          headers: { 'x-forwarded-for': forwarded },
        },
      );
    await start({ signIn: 2 });
    // Not trusted: a client writing a new address on each try is still one address.
    const untrusted = [];
    for (let i = 0; i < 3; i++) untrusted.push((await spoofed('203.0.113.7', `192.0.2.${i}`)).statusCode);
    expect(untrusted).toEqual([401, 401, 429]);
    await t.close();

    await start({ signIn: 2 }, { TRUST_PROXY: '10.0.0.0/8' });
    const viaProxy = [];
    for (let i = 0; i < 3; i++) viaProxy.push((await spoofed('10.1.2.3', `192.0.2.${i}`)).statusCode);
    expect(viaProxy).toEqual([401, 401, 401]);
    // Anyone else's header is still ignored.
    const direct = [];
    for (let i = 0; i < 3; i++) direct.push((await spoofed('203.0.113.8', `192.0.2.${i}`)).statusCode);
    expect(direct).toEqual([401, 401, 429]);
  });
});
