// API tests of the staff console calls: TOTP sign-in, role checks, blocking a customer, and the
// append-only, hash-chained audit log, on SQLite and on PostgreSQL.

import { testDatabases } from '@bourse/db';
import { afterEach, describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';
import { verifyChain } from './audit.ts';

const dbs = await testDatabases();

describe.each(dbs)('staff console on $dialect', ({ open }) => {
  let t: Awaited<ReturnType<typeof testApp>>;
  let db: Awaited<ReturnType<typeof open>>;
  afterEach(async () => {
    await t.close();
    await db.close();
  });
  const start = async () => {
    db = await open();
    t = await testApp(db);
  };
  const signIn = async (
    username: string = DEMO_STAFF.username,
    password: string = DEMO_STAFF.password,
    secret: string = DEMO_STAFF.totpSecret,
  ) => t.call('POST', '/admin/auth/login', { json: { username, password, totpCode: totpNow(secret, t.clock.now()) } });

  it('signs staff in only with password and TOTP, in the request language', async () => {
    await start();
    const wrong = await t.call('POST', '/admin/auth/login', {
      json: { username: 'admin', password: DEMO_STAFF.password, totpCode: '000000' },
      lang: 'pt-BR',
    });
    expect(wrong.body).toMatchObject({
      code: -1001,
      error: 'staff_login_failed',
      msg: 'O usuário, a senha ou o código está incorreto',
    });
    const ok = await signIn();
    expect(ok.body.data.staff).toMatchObject({ username: 'admin', role: 'admin' });
    const me = await t.call('GET', '/admin/auth/me', { token: ok.body.data.token });
    expect(me.body.data).toMatchObject({ staff: { role: 'admin' }, mode: 'paper' });
    // A customer token is not a staff token: that customer is signed in, but may not do this.
    const customer = (await t.register('9000000020')).body.data.token as string;
    expect((await t.call('GET', '/admin/auth/me', { token: customer })).body.error).toBe('forbidden');
  });

  it('lets only permitted roles act, and writes every action to the audit log with its reason', async () => {
    await start();
    const admin = (await signIn()).body.data.token as string;
    const created = await t.call('POST', '/admin/staff/create', {
      token: admin,
      json: { username: 'sam', role: 'support', reason: 'new support hire' },
    });
    expect(created.body.data).toMatchObject({ username: 'sam', role: 'support' });
    const support = (await signIn('sam', created.body.data.initialPassword, created.body.data.totpSecret)).body.data
      .token as string;

    const user = (await t.register('9000000021')).body.data;
    const block = { userId: String(user.user.id), status: '0', reason: 'suspected account takeover' };
    expect((await t.call('POST', '/admin/users/status', { token: support, json: block })).body.error).toBe('forbidden');
    expect((await t.call('GET', '/admin/audit', { token: support })).body.error).toBe('forbidden');
    expect((await t.call('GET', '/admin/users', { token: support })).body.data.total).toBeGreaterThanOrEqual(2);

    expect(
      (await t.call('POST', '/admin/users/status', { token: admin, json: { ...block, reason: '' } })).body.error,
    ).toBe('reason_required');
    expect((await t.call('POST', '/admin/users/status', { token: admin, json: block })).body.code).toBe(0);
    expect((await t.call('GET', '/user/login/info', { token: user.token })).body.error).toBe('account_blocked');

    const audit = (await t.call('GET', '/admin/audit?action=user.blocked', { token: admin })).body.data;
    expect(audit.items).toEqual([
      expect.objectContaining({
        action: 'user.blocked',
        staffUsername: 'admin',
        targetId: String(user.user.id),
        reason: 'suspected account takeover',
      }),
    ]);
    expect((await verifyChain(db)).firstBrokenId).toBeNull();
  });

  it('refuses mistyped bodies, ends pre-block sessions at the unblock, and keeps the last administrator', async () => {
    await start();
    const admin = (await signIn()).body.data.token as string;
    const user = (await t.register('9000000022')).body.data;
    const audits = async () => (await t.call('GET', '/admin/audit', { token: admin })).body.data.total as number;
    const before = await audits();
    // null, "", [] and false were read as status 0 (a block); true and [1] as the user id 1.
    for (const status of [null, '', [], false, true, 2, '00']) {
      const bad = await t.call('POST', '/admin/users/status', {
        token: admin,
        json: { userId: user.user.id, status, reason: 'type probe' },
      });
      expect(bad.body.fields, JSON.stringify(status)).toHaveProperty('status');
    }
    for (const userId of [true, [1], '', '0x1', 0, -3]) {
      const bad = await t.call('POST', '/admin/users/status', {
        token: admin,
        json: { userId, status: 0, reason: 'type probe' },
      });
      expect(bad.body.fields, JSON.stringify(userId)).toHaveProperty('userId');
    }
    expect((await t.call('GET', '/user/login/info', { token: user.token })).body.code).toBe(0);
    // Unblocking a customer who is not blocked changes nothing and writes nothing.
    const unblock = { userId: user.user.id, status: 1, reason: 'checked with the customer' };
    expect((await t.call('POST', '/admin/users/status', { token: admin, json: unblock })).body.code).toBe(0);
    expect(await audits()).toBe(before);
    // A token from before a block does not work after the unblock, even if it was not used in between.
    const block = { userId: String(user.user.id), status: '0', reason: 'suspected account takeover' };
    expect((await t.call('POST', '/admin/users/status', { token: admin, json: block })).body.code).toBe(0);
    expect((await t.call('POST', '/admin/users/status', { token: admin, json: unblock })).body.code).toBe(0);
    expect((await t.call('GET', '/user/login/info', { token: user.token })).body.error).toBe('session_invalid');
    expect(await audits()).toBe(before + 2);
    // Said plainly, in both languages: disabling yourself, and a reason past its 500 characters.
    const me0 = (await t.call('GET', '/admin/auth/me', { token: admin })).body.data.staff.id as number;
    const self = await t.call('POST', '/admin/staff/disable', {
      token: admin,
      lang: 'pt-BR',
      json: { id: me0, reason: 'testing myself' },
    });
    expect(self.body).toMatchObject({
      error: 'staff_cannot_disable_self',
      msg: 'Você não pode desativar a sua própria conta',
    });
    const long = await t.call('POST', '/admin/users/status', {
      token: admin,
      json: { ...block, reason: 'x'.repeat(501) },
    });
    expect(long.body.fields).toEqual({ reason: 'The reason is too long (500 characters at most)' });
    expect(await audits()).toBe(before + 2);

    // Two administrators disabling each other at once leave one.
    const created = await t.call('POST', '/admin/staff/create', {
      token: admin,
      json: { username: 'ada', role: 'admin', reason: 'second administrator' },
    });
    t.clock.advance(30_000); // a new TOTP step: each code signs in once
    const other = (await signIn('ada', created.body.data.initialPassword, created.body.data.totpSecret)).body.data
      .token as string;
    const me = (await t.call('GET', '/admin/auth/me', { token: admin })).body.data.staff.id as number;
    // Both signed in before either acts (requests in flight together): each disables the other.
    const [mine, theirs] = await Promise.all([t.app.staff.authenticate(admin), t.app.staff.authenticate(other)]);
    const results = await Promise.allSettled([
      t.app.staff.disable(mine, created.body.data.id, 'mutual test'),
      t.app.staff.disable(theirs, me, 'mutual test'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as { code: string }).code).toBe('last_admin');
    const admins = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM staff WHERE role = 'admin' AND status = 1`);
    expect(Number(admins[0]?.n)).toBe(1);
  });

  it('creates a staff member only with a written reason, kept in the audit row; a refused create writes nothing', async () => {
    await start();
    const admin = (await signIn()).body.data.token as string;
    const counts = async () => [
      Number((await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM staff'))[0]?.n),
      Number((await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM audit_log'))[0]?.n),
    ];
    const before = await counts();
    const create = (json: Record<string, unknown>, lang = 'en-US') =>
      t.call('POST', '/admin/staff/create', { token: admin, json, lang });
    const account = { username: 'rita', role: 'support' };

    const missing = await create(account, 'pt-BR');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'reason_required', msg: 'Escreva o motivo desta ação' });
    expect(missing.body.fields).toEqual({ reason: 'Escreva o motivo desta ação' });
    expect((await create({ ...account, reason: '  ab  ' })).body.error).toBe('reason_required');
    expect((await create({ ...account, reason: 42 })).body.error).toBe('reason_required');
    const long = await create({ ...account, reason: 'x'.repeat(501) }, 'pt-BR');
    expect(long.body).toMatchObject({
      error: 'reason_too_long',
      fields: { reason: 'O motivo é longo demais (no máximo 500 caracteres)' },
    });
    expect(await counts()).toEqual(before);

    const created = await create({ ...account, reason: '  covers the night shift  ' });
    expect(created.body.data).toMatchObject({ username: 'rita', role: 'support' });
    // A second create of the same username is refused and writes nothing either.
    expect((await create({ ...account, reason: 'again' })).body.error).toBe('staff_username_taken');
    expect(await counts()).toEqual([before[0]! + 1, before[1]! + 1]);
    const audit = (await t.call('GET', '/admin/audit?action=staff.created', { token: admin })).body.data.items;
    expect(audit[0]).toMatchObject({
      staffUsername: 'admin',
      targetType: 'staff',
      targetId: String(created.body.data.id),
      reason: 'covers the night shift',
      detail: { username: 'rita', role: 'support' },
    });
    expect((await verifyChain(db)).firstBrokenId).toBeNull();
  });

  it('refuses control characters in staff fields with field_invalid (PostgreSQL failed on NUL), writing nothing', async () => {
    await start();
    const admin = (await signIn()).body.data.token as string;
    const user = (await t.register('9000000023')).body.data;
    const audits = async () => Number((await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM audit_log'))[0]?.n);
    const before = await audits();
    const block = { userId: user.user.id, status: 0, reason: 'takeover\u0000suspected' };
    const refused = await t.call('POST', '/admin/users/status', { token: admin, json: block, lang: 'pt-BR' });
    expect(refused.body).toMatchObject({ error: 'validation_failed', fields: { reason: 'Este valor não é válido' } });
    expect((await t.call('GET', '/user/login/info', { token: user.token })).body.code).toBe(0);
    const terminalEscape = { ...block, reason: 'takeover \u001b[2J suspected' };
    expect(
      (await t.call('POST', '/admin/users/status', { token: admin, json: terminalEscape })).body.fields,
    ).toHaveProperty('reason');
    expect((await t.call('GET', '/admin/users?keyword=98%00', { token: admin })).body.fields).toHaveProperty('keyword');
    expect((await t.call('GET', '/admin/audit?action=user%00', { token: admin })).body.fields).toHaveProperty('action');
    const login = await t.call('POST', '/admin/auth/login', {
      json: { username: 'ad\u0000min', password: DEMO_STAFF.password, totpCode: '123456' },
    });
    expect(login.body.fields).toHaveProperty('username');
    expect(await audits()).toBe(before);
  });

  it('takes each TOTP code once, and throttles guesses of the old password', async () => {
    await start();
    const code = totpNow(DEMO_STAFF.totpSecret, t.clock.now());
    const login = () =>
      t.call('POST', '/admin/auth/login', {
        json: { username: DEMO_STAFF.username, password: DEMO_STAFF.password, totpCode: code },
      });
    const first = await login();
    expect(first.body.code).toBe(0);
    // The same code, seconds later (it would still be inside its window): refused.
    t.clock.advance(5_000);
    expect((await login()).body.error).toBe('staff_login_failed');
    // So is the previous step's code once a newer one was used.
    t.clock.advance(30_000);
    expect((await signIn()).body.code).toBe(0);
    const older = totpNow(DEMO_STAFF.totpSecret, t.clock.now() - 30_000);
    const stale = await t.call('POST', '/admin/auth/login', {
      json: { username: DEMO_STAFF.username, password: DEMO_STAFF.password, totpCode: older },
    });
    expect(stale.body.error).toBe('staff_login_failed');

    const token = first.body.data.token as string;
    const change = (oldPassword: string) =>
      t.call('POST', '/admin/auth/password', {
        token,
        json: { oldPassword, password: 'newpass-1' },
      });
    const answers: string[] = [];
    for (let i = 0; i < 7; i++) answers.push((await change('not-the-password')).body.error as string);
    expect(answers.slice(0, 5)).toEqual(Array(5).fill('password_incorrect'));
    expect(answers.slice(5)).toEqual(['too_many_attempts', 'too_many_attempts']);
  });

  it('detects an audit entry rewritten behind the console', async () => {
    await start();
    await signIn();
    expect((await verifyChain(db)).firstBrokenId).toBeNull();
    // The tables refuse UPDATE; a rewrite needs the triggers dropped first, and the chain still shows it.
    if (db.dialect === 'sqlite') await db.run('DROP TRIGGER audit_log_no_update');
    else await db.run('DROP TRIGGER audit_log_no_change ON audit_log');
    await db.run(`UPDATE audit_log SET reason = 'nothing to see' WHERE id = (SELECT MIN(id) FROM audit_log)`);
    expect((await verifyChain(db)).firstBrokenId).not.toBeNull();
  });
});
