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
    // A customer token is not a staff token.
    const customer = (await t.register('9000000020')).body.data.token as string;
    expect((await t.call('GET', '/admin/auth/me', { token: customer })).body.code).toBe(-1000);
  });

  it('lets only permitted roles act, and writes every action to the audit log with its reason', async () => {
    await start();
    const admin = (await signIn()).body.data.token as string;
    const created = await t.call('POST', '/admin/staff/create', {
      token: admin,
      json: { username: 'sam', role: 'support' },
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
    expect(await verifyChain(db)).toBeNull();
  });

  it('detects an audit entry rewritten behind the console', async () => {
    await start();
    await signIn();
    expect(await verifyChain(db)).toBeNull();
    // The tables refuse UPDATE; a rewrite needs the triggers dropped first, and the chain still shows it.
    if (db.dialect === 'sqlite') await db.run('DROP TRIGGER audit_log_no_update');
    else await db.run('DROP TRIGGER audit_log_no_change ON audit_log');
    await db.run(`UPDATE audit_log SET reason = 'nothing to see' WHERE id = (SELECT MIN(id) FROM audit_log)`);
    expect(await verifyChain(db)).not.toBeNull();
  });
});
