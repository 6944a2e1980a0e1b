// Who is signed in is checked before what they sent: through the real stack, a call with a missing or
// dead token answers -1000 and a token without the right answers forbidden, whatever its body or query
// holds; only a signed-in caller with the right gets field errors, and the check runs once.

import { openDb } from '@bourse/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STAFF } from '../features/demo/seed.ts';
import { totpNow } from '../platform/totp.ts';
import { testApp } from '../testing.ts';

let t: Awaited<ReturnType<typeof testApp>>;
let customer: string;
let admin: string;
let support: string;
beforeAll(async () => {
  t = await testApp(await openDb({ dataDir: null }));
  customer = (await t.register('9000000301')).body.data.token;
  const signIn = async (username: string, password: string, secret: string) =>
    (
      await t.call('POST', '/admin/auth/login', {
        json: { username, password, totpCode: totpNow(secret, t.clock.now()) },
      })
    ).body.data.token as string;
  admin = await signIn(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
  const sam = (
    await t.call('POST', '/admin/staff/create', {
      token: admin,
      json: { username: 'sam', role: 'support', reason: 'auth order test' },
    })
  ).body.data;
  support = await signIn('sam', sam.initialPassword, sam.totpSecret);
});
afterAll(() => t.close());

const badPassword = { oldPassword: '', password: '1', confirmPassword: '2' };
const badOrder = { symbol: '', quantity: 'x', price: '-1' };
const badStatus = { userId: 'x', status: '7' };

describe('authentication before validation', () => {
  it('answers -1000 to a missing or dead token whatever the body or query, in both languages', async () => {
    for (const [method, url, json] of [
      ['POST', '/user/update/password', badPassword],
      ['POST', '/stock/order/buy', badOrder],
      ['GET', '/stock/order/info?id=abc', undefined],
      ['GET', '/user/tx/record?page=-4', undefined],
      ['POST', '/user/notice/read', { kind: 'nope' }],
    ] as const) {
      const none = await t.call(method, url, { json, lang: 'pt-BR' });
      expect(none.body, `${url} without a token`).toMatchObject({ code: -1000, error: 'not_logged_in' });
      expect(none.body.fields, url).toBeUndefined();
      const dead = await t.call(method, url, { json, token: 'not-a-session' });
      expect(dead.body, `${url} with a dead token`).toMatchObject({
        code: -1000,
        error: 'session_invalid',
        msg: 'Your session has ended. Please sign in again.',
      });
    }
  });

  it('answers forbidden to a customer token or a staff member without the right, whatever the body', async () => {
    const byCustomer = await t.call('POST', '/admin/users/status', { token: customer, json: badStatus, lang: 'pt-BR' });
    expect(byCustomer.status).toBe(403);
    expect(byCustomer.body).toMatchObject({ error: 'forbidden', msg: 'Você não tem permissão para fazer isso' });
    expect(byCustomer.body.fields).toBeUndefined();
    const bySupport = await t.call('POST', '/admin/users/status', { token: support, json: badStatus });
    expect(bySupport.body).toMatchObject({ error: 'forbidden' });
    expect((await t.call('GET', '/admin/audit?limit=-1', { token: support })).body.error).toBe('forbidden');
    expect((await t.call('POST', '/admin/content/create', { token: customer, json: {} })).body.error).toBe('forbidden');
    // A dead token on a staff call is still a session to renew.
    expect((await t.call('POST', '/admin/users/status', { token: 'gone', json: badStatus })).body.code).toBe(-1000);
  });

  it('validates the input of a caller who may make the call', async () => {
    const change = await t.call('POST', '/user/update/password', { token: customer, json: badPassword });
    expect(change.body).toMatchObject({ code: -1001, error: 'validation_failed' });
    expect(Object.keys(change.body.fields ?? {})).toContain('oldPassword');
    const status = await t.call('POST', '/admin/users/status', { token: admin, json: badStatus });
    expect(status.body.fields).toHaveProperty('userId');
    // And the handler reads the same check: the call still works end to end.
    const me = await t.call('GET', '/user/login/info', { token: customer });
    expect(me.body.data.user.account).toBe('+91 9000000301');
  });
});
