// API tests of the customer's profile (/user/info) and its one editable field (/user/update: the
// nickname), through the real HTTP stack on SQLite and on PostgreSQL.

import { errorMessage, NICKNAME_MAX } from '@bourse/contract';
import { testDatabases } from '@bourse/db';
import { afterEach, describe, expect, it } from 'vitest';
import { testApp } from '../../testing.ts';

const dbs = await testDatabases();

describe.each(dbs)('profile on $dialect', ({ open }) => {
  let t: Awaited<ReturnType<typeof testApp>>;
  let closeDb: () => Promise<void>;
  const start = async () => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db);
  };
  const signUp = async (phone: string) => (await t.register(phone)).body.data.token as string;
  const info = async (token: string) => (await t.call('POST', '/user/info', { token })).body;
  afterEach(async () => {
    await t.close();
    await closeDb();
  });

  it('shows the signed-in customer’s profile and changes the nickname, answering “modified”', async () => {
    await start();
    const createdAt = t.clock.now();
    const token = await signUp('9123456790');
    expect(await info(token)).toMatchObject({
      code: 0,
      data: {
        account: '+91 9123456790',
        areaCode: '91',
        phone: '9123456790',
        email: null,
        idStatus: 'none',
        hasTradePassword: false,
        hasWithdrawPassword: false,
        totpEnabled: false,
        nickname: '',
        createdAt,
      },
    });

    const updated = await t.call('POST', '/user/update', { token, lang: 'pt-BR', body: { nickname: '  Asha R.  ' } });
    expect(updated.body).toMatchObject({ code: 0, msg: 'Alterado', data: { nickname: 'Asha R.' } });
    expect((await info(token)).data.nickname).toBe('Asha R.');
    // The session cache forgot the user: the login-info call agrees with the profile.
    expect((await t.call('GET', '/user/login/info', { token })).body.data.user.account).toBe('+91 9123456790');
  });

  it('shows each customer only their own profile', async () => {
    await start();
    const a = await signUp('9123456791');
    const b = await signUp('9123456792');
    await t.call('POST', '/user/update', { token: a, body: { nickname: 'Alpha' } });
    expect((await info(b)).data).toMatchObject({ phone: '9123456792', nickname: '' });
    expect((await info(a)).data).toMatchObject({ phone: '9123456791', nickname: 'Alpha' });
  });

  it.each([
    ['no nickname', {}, 'field_required'],
    ['a blank nickname', { nickname: '   ' }, 'field_required'],
    ['a nickname too long', { nickname: 'x'.repeat(NICKNAME_MAX + 1) }, 'field_invalid'],
    ['a control character', { nickname: 'Asha\u0007' }, 'field_invalid'],
  ] as const)('refuses %s in both languages and changes nothing', async (_name, body, error) => {
    await start();
    const token = await signUp('9123456793');
    await t.call('POST', '/user/update', { token, body: { nickname: 'Before' } });
    const msgs = new Set<string>();
    for (const lang of ['en-US', 'pt-BR'] as const) {
      const res = await t.call('POST', '/user/update', { token, lang, body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: -1001, data: null });
      expect(res.body.fields?.nickname).toBe(errorMessage(error, lang));
      msgs.add(String(res.body.fields?.nickname));
    }
    expect(msgs.size).toBe(2);
    expect((await info(token)).data.nickname).toBe('Before');
  });

  it('answers both calls without a session with -1000, in both languages, and changes nothing', async () => {
    await start();
    const token = await signUp('9123456794');
    for (const [lang, msg] of [
      ['en-US', 'You are not currently logged in'],
      ['pt-BR', 'Você não está conectado no momento'],
    ] as const) {
      for (const path of ['/user/info', '/user/update']) {
        const res = await t.call('POST', path, { lang, body: { nickname: 'Intruder' } });
        expect(res).toMatchObject({ status: 401, body: { code: -1000, error: 'not_logged_in', msg } });
      }
      const stale = await t.call('POST', '/user/update', { token: 'not-a-token', lang, body: { nickname: 'X' } });
      expect(stale.body).toMatchObject({
        code: -1000,
        error: 'session_invalid',
        msg: errorMessage('session_invalid', lang),
      });
    }
    expect((await info(token)).data.nickname).toBe('');
  });
});
