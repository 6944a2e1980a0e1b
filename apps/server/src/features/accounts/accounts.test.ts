// API tests of sign-up and sign-in through the real HTTP stack, on SQLite and on PostgreSQL.

import { testDatabases } from '@bourse/db';
import { afterEach, describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';

const dbs = await testDatabases();

describe.each(dbs)('accounts on $dialect', ({ open }) => {
  let t: Awaited<ReturnType<typeof testApp>>;
  let closeDb: () => Promise<void>;
  const start = async (overrides = {}) => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db, overrides);
    return t;
  };
  afterEach(async () => {
    await t.close();
    await closeDb();
  });

  it('registers with a form body, then signs in and reads login info', async () => {
    await start();
    const reg = await t.register('9123456780');
    expect(reg.body.code).toBe(0);
    expect(reg.body.data.token).toMatch(/^[\w-]{43}$/);
    expect(reg.body.data.user).toMatchObject({ account: '+91 9123456780', status: 1, idStatus: 'none' });

    const login = await t.call('POST', '/user/login', {
      body: { areaCode: '91', phone: '9123456780', password: 'secret12' },
    });
    expect(login.body.code).toBe(0);
    const info = await t.call('GET', '/user/login/info', { token: login.body.data.token });
    expect(info.body.data).toMatchObject({
      user: { account: '+91 9123456780' },
      openAutoApply: 0,
      serviceSaleSmartly: '',
    });
  });

  it('answers registration, sign-in and a password change with SPEC §8 success words in the lang header’s language', async () => {
    await start();
    const words = {
      'en-US': ['Registration successful', 'Login successful', 'Modified'],
      'pt-BR': ['Cadastro realizado com sucesso', 'Login realizado com sucesso', 'Alterado'],
    } as const;
    for (const [lang, [registered, signedIn, modified]] of Object.entries(words)) {
      const phone = lang === 'en-US' ? '9123456701' : '9123456702';
      const body = { areaCode: '91', phone, password: 'secret12', confirmPassword: 'secret12', agree: '1' };
      const reg = await t.call('POST', '/user/register', { body: { ...body, ...(await t.captcha()) }, lang });
      expect(reg.body).toMatchObject({ code: 0, msg: registered });
      const login = await t.call('POST', '/user/login', {
        body: { areaCode: '91', phone, password: 'secret12' },
        lang,
      });
      expect(login.body).toMatchObject({ code: 0, msg: signedIn });
      const change = await t.call('POST', '/user/update/password', {
        token: login.body.data.token,
        lang,
        body: { oldPassword: 'secret12', password: 'secret34', confirmPassword: 'secret34' },
      });
      expect(change.body).toMatchObject({ code: 0, msg: modified });
    }
  });

  it.each([
    ['a wrong captcha', { captchaCode: 'zzzz' }, 'captcha_incorrect', 'Captcha code error', 'Código captcha incorreto'],
    [
      'mismatched passwords',
      { confirmPassword: 'other123' },
      'password_mismatch',
      'The 2 password inputs do not match',
      'As 2 senhas digitadas não coincidem',
    ],
    [
      'a short password',
      { password: '123', confirmPassword: '123' },
      'password_length',
      'The password must be 6 to 20 characters',
      'A senha deve ter de 6 a 20 caracteres',
    ],
    [
      'a bad phone number',
      { phone: '12345' },
      'phone_invalid',
      'Phone number format is incorrect',
      'O formato do número de telefone está incorreto',
    ],
    [
      'no agreement',
      { agree: '0' },
      'agreement_required',
      'Please agree to the disclaimer and privacy policy first',
      'Aceite primeiro o aviso legal e a política de privacidade',
    ],
    [
      'an agreement left out',
      { agree: undefined },
      'agreement_required',
      'Please agree to the disclaimer and privacy policy first',
      'Aceite primeiro o aviso legal e a política de privacidade',
    ],
  ])('refuses %s with a translated message and creates nothing', async (_name, change, error, en, pt) => {
    await start();
    for (const [lang, msg] of [
      ['en-US', en],
      ['pt-BR', pt],
    ] as const) {
      const body = {
        areaCode: '91',
        phone: '9000000001',
        password: 'secret12',
        confirmPassword: 'secret12',
        agree: '1',
        ...(await t.captcha()),
        ...change,
      };
      const res = await t.call('POST', '/user/register', { body, lang });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: -1001, error, msg, data: null });
    }
    const login = await t.call('POST', '/user/login', {
      body: { areaCode: '91', phone: '9000000001', password: 'secret12' },
    });
    expect(login.body.error).toBe('login_failed');
  });

  it('uses a captcha once: a replay is refused even with the right answer', async () => {
    await start();
    const c = await t.captcha();
    const first = await t.call('POST', '/user/register', {
      body: {
        areaCode: '91',
        phone: '9876543210',
        password: 'secret12',
        confirmPassword: 'secret12',
        agree: '1',
        ...c,
      },
    });
    expect(first.body.error).toBe('phone_taken');
    const replay = await t.call('POST', '/user/register', {
      body: {
        areaCode: '91',
        phone: '9000000002',
        password: 'secret12',
        confirmPassword: 'secret12',
        agree: '1',
        ...c,
      },
    });
    expect(replay.body.error).toBe('captcha_incorrect');
  });

  it('refuses a second account on the same phone and requires an invitation code when configured', async () => {
    await start({ inviteCodeRequired: true });
    const noCode = await t.register('9000000003');
    expect(noCode.body.error).toBe('invite_code_required');
    const badCode = await t.register('9000000003', 'secret12', { inviteCode: 'NOPE' });
    expect(badCode.body.error).toBe('invite_code_invalid');
    const ok = await t.register('9000000003', 'secret12', { inviteCode: 'DEMO2026' });
    expect(ok.body.code).toBe(0);
    const again = await t.register('9000000003', 'secret12', { inviteCode: 'DEMO2026' });
    expect(again.body).toMatchObject({
      error: 'phone_taken',
      fields: { phone: 'This phone number is already registered' },
    });
  });

  it('requires the SMS code from the sandbox when the deployment asks for it', async () => {
    await start({ smsCodeRequired: true });
    expect((await t.register('9000000004')).body.error).toBe('sms_code_incorrect');
    expect(
      (await t.call('POST', '/common/code/send', { body: { areaCode: '91', phone: '9000000004' } })).body.code,
    ).toBe(0);
    const code = (await t.call('GET', '/test/sms?phone=9000000004')).body.data.code as string;
    expect(
      (await t.register('9000000004', 'secret12', { smsCode: code === '000000' ? '111111' : '000000' })).body.error,
    ).toBe('sms_code_incorrect');
    expect((await t.register('9000000004', 'secret12', { smsCode: code })).body.code).toBe(0);
  });

  it('answers -1000 without a valid token, accepts Authorization: Bearer, and signs out', async () => {
    await start();
    expect((await t.call('GET', '/user/login/info')).body).toMatchObject({ code: -1000, error: 'not_logged_in' });
    expect((await t.call('GET', '/user/login/info', { token: 'nope' })).body).toMatchObject({
      code: -1000,
      error: 'session_invalid',
    });
    const token = (await t.register('9000000005')).body.data.token as string;
    const bearer = await t.app.http.inject({
      method: 'GET',
      url: '/ipor-api/user/login/info',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bearer.json().code).toBe(0);
    expect((await t.call('POST', '/user/logout', { token })).body.code).toBe(0);
    expect((await t.call('GET', '/user/login/info', { token })).body.code).toBe(-1000);
  });

  it('signs a blocked user out on the next call', async () => {
    await start();
    const reg = await t.register('9000000006');
    // Signed in and recently seen (its session is in the server's memory), then blocked.
    expect((await t.call('GET', '/user/login/info', { token: reg.body.data.token })).body.code).toBe(0);
    await t.app.staff.setUserStatus({ staff: { id: 1 } } as never, reg.body.data.user.id, 0, 'test block');
    const res = await t.call('GET', '/user/login/info', { token: reg.body.data.token });
    expect(res.body).toMatchObject({ code: -1000, error: 'account_blocked' });
    const login = await t.call('POST', '/user/login', {
      body: { areaCode: '91', phone: '9000000006', password: 'secret12' },
    });
    expect(login.body.error).toBe('account_blocked');
  });

  it('backs off after repeated failures and caps them per hour', async () => {
    await start();
    await t.register('9000000007');
    const fail = () =>
      t.call('POST', '/user/login', { body: { areaCode: '91', phone: '9000000007', password: 'wrongpass' } });
    for (let i = 0; i < 5; i++) expect((await fail()).body.error).toBe('login_failed');
    expect((await fail()).body.error).toBe('too_many_attempts');
    const right = () =>
      t.call('POST', '/user/login', { body: { areaCode: '91', phone: '9000000007', password: 'secret12' } });
    expect((await right()).body.error).toBe('too_many_attempts');
    t.clock.advance(1_500);
    expect((await right()).body.code).toBe(0);
  });

  it('lists sessions, revokes another device, and refuses foreign session ids', async () => {
    await start();
    const a = (await t.register('9000000008')).body.data.token as string;
    const b = (
      await t.call('POST', '/user/login', { body: { areaCode: '91', phone: '9000000008', password: 'secret12' } })
    ).body.data.token as string;
    const list = (await t.call('GET', '/user/sessions', { token: a })).body.data.items as {
      id: string;
      current: boolean;
    }[];
    expect(list).toHaveLength(2);
    const other = list.find((s) => !s.current)!;
    expect((await t.call('POST', '/user/sessions/revoke', { token: a, body: { id: other.id } })).body.code).toBe(0);
    expect((await t.call('GET', '/user/login/info', { token: b })).body.code).toBe(-1000);
    const stranger = (await t.register('9000000009')).body.data.token as string;
    const mine = list.find((s) => s.current)!;
    expect((await t.call('POST', '/user/sessions/revoke', { token: stranger, body: { id: mine.id } })).body.error).toBe(
      'not_found',
    );
  });

  it('refuses control characters in what a customer types with field_invalid in both languages, creating and changing nothing', async () => {
    await start();
    // Each answered internal_error on PostgreSQL (which cannot hold NUL) and was stored on SQLite.
    const invited = await t.register('9000000030', 'secret12', { inviteCode: 'DEMO\u00002026' });
    expect(invited.body).toMatchObject({
      error: 'validation_failed',
      msg: 'Please check the highlighted fields',
      fields: { inviteCode: 'This value is not valid' },
    });
    const escaped = { ...(await t.captcha()), captchaId: 'x\u0000y' };
    const refusedCaptcha = await t.call('POST', '/user/register', {
      lang: 'pt-BR',
      json: {
        areaCode: '91',
        phone: '9000000030',
        password: 'secret12',
        confirmPassword: 'secret12',
        agree: '1',
        ...escaped,
      },
    });
    expect(refusedCaptcha.body).toMatchObject({
      error: 'validation_failed',
      msg: 'Verifique os campos destacados',
      fields: { captchaId: 'Este valor não é válido' },
    });
    // A new password takes any character a keyboard types, but no control character: none could be typed to sign in.
    expect((await t.register('9000000030', 'secret\u000012')).body.fields).toEqual({
      password: 'This value is not valid',
    });
    expect((await t.register('9000000030', 'se\u001b[2Jcret')).body.fields).toEqual({
      password: 'This value is not valid',
    });
    // The refused registrations made no account: the phone is still free.
    const token = (await t.register('9000000030', 'pä ss€!✓')).body.data.token as string;
    expect(token).toBeTruthy();

    const login = (json: Record<string, string>, lang = 'en-US') => t.call('POST', '/user/login', { json, lang });
    expect(
      (await login({ areaCode: '91', phone: '90000\u000000030', password: 'pä ss€!✓' }, 'pt-BR')).body,
    ).toMatchObject({
      error: 'validation_failed',
      fields: { phone: 'Este valor não é válido' },
    });
    expect(
      (await login({ areaCode: '91', phone: '9000000030', password: 'pä ss€!✓', totpCode: '\u0000' })).body.fields,
    ).toEqual({ totpCode: 'This value is not valid' });
    // A password to check is taken as typed: a wrong one with NUL is just wrong.
    expect((await login({ areaCode: '91', phone: '9000000030', password: 'pä ss\u0000' })).body.error).toBe(
      'login_failed',
    );
    expect((await login({ areaCode: '91', phone: '9000000030', password: 'pä ss€!✓' })).body.code).toBe(0);

    const revoke = await t.call('POST', '/user/sessions/revoke', { token, json: { id: 'a\u0000b' } });
    expect(revoke.body.fields).toEqual({ id: 'This value is not valid' });
    const change = await t.call('POST', '/user/update/password', {
      token,
      json: { oldPassword: 'pä ss€!✓', password: 'new\u0000pass', confirmPassword: 'new\u0000pass' },
    });
    expect(change.body.fields).toEqual({ password: 'This value is not valid' });
    // The account's two sessions live on, its password unchanged.
    expect((await t.call('GET', '/user/sessions', { token })).body.data.items).toHaveLength(2);
    expect((await login({ areaCode: '91', phone: '9000000030', password: 'pä ss€!✓' })).body.code).toBe(0);
    const code = await t.call('POST', '/common/code/send', { json: { areaCode: '91', phone: '9000000031\u0000' } });
    expect(code.body.fields).toEqual({ phone: 'This value is not valid' });
  });

  it('sets transaction and withdrawal PINs, changes the password and email, with checks', async () => {
    await start();
    const token = (await t.register('9000000010')).body.data.token as string;
    const pin = (body: Record<string, string>) => t.call('POST', '/user/update/tradePassword', { token, body });
    expect((await pin({ password: '12345', confirmPassword: '12345', loginPassword: 'secret12' })).body.error).toBe(
      'pin_format',
    );
    expect((await pin({ password: '123456', confirmPassword: '123456', loginPassword: 'bad' })).body.error).toBe(
      'password_incorrect',
    );
    expect((await pin({ password: '123456', confirmPassword: '123456', loginPassword: 'secret12' })).body.code).toBe(0);
    const info = (await t.call('GET', '/user/login/info', { token })).body.data.user;
    expect(info).toMatchObject({ hasTradePassword: true, hasWithdrawPassword: false });
    expect(
      (
        await t.call('POST', '/user/update/email', {
          token,
          body: { email: 'not-an-email', loginPassword: 'secret12' },
        })
      ).body.error,
    ).toBe('email_invalid');
    expect(
      (
        await t.call('POST', '/user/update/email', {
          token,
          body: { email: 'Me@Example.com', loginPassword: 'secret12' },
        })
      ).body.code,
    ).toBe(0);
    const changed = await t.call('POST', '/user/update/password', {
      token,
      body: { oldPassword: 'secret12', password: 'newpass99', confirmPassword: 'newpass99' },
    });
    expect(changed.body.code).toBe(0);
    const login = await t.call('POST', '/user/login', {
      body: { areaCode: '91', phone: '9000000010', password: 'newpass99' },
    });
    expect(login.body.data.user.email).toBe('me@example.com');
  });

  it('turns on two-factor sign-in with a TOTP code and then requires it', async () => {
    await start();
    const token = (await t.register('9000000011')).body.data.token as string;
    const setup = (await t.call('POST', '/user/2fa/setup', { token })).body.data as {
      secret: string;
      otpauthUrl: string;
    };
    expect(setup.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    expect((await t.call('POST', '/user/2fa/enable', { token, body: { code: '000000' } })).body.error).toBe(
      'totp_incorrect',
    );
    expect(
      (await t.call('POST', '/user/2fa/enable', { token, body: { code: totpNow(setup.secret, t.clock.now()) } })).body
        .code,
    ).toBe(0);
    const creds = { areaCode: '91', phone: '9000000011', password: 'secret12' };
    expect((await t.call('POST', '/user/login', { body: creds })).body.error).toBe('totp_required');
    const code = totpNow(setup.secret, t.clock.now());
    const ok = await t.call('POST', '/user/login', { body: { ...creds, totpCode: code } });
    expect(ok.body.code).toBe(0);
    // Each code signs in once: seen over a shoulder, it must not sign in again within its window.
    t.clock.advance(5_000);
    expect((await t.call('POST', '/user/login', { body: { ...creds, totpCode: code } })).body.error).toBe(
      'totp_incorrect',
    );
    t.clock.advance(30_000);
    const next = totpNow(setup.secret, t.clock.now());
    expect((await t.call('POST', '/user/login', { body: { ...creds, totpCode: next } })).body.code).toBe(0);
  });

  it('forgets wrong passwords once the right one is given, so they do not add up to a lockout', async () => {
    await start();
    const token = (await t.register('9000000012')).body.data.token as string;
    const pin = (loginPassword: string) =>
      t.call('POST', '/user/update/tradePassword', {
        token,
        body: { password: '123456', confirmPassword: '123456', loginPassword },
      });
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) expect((await pin('wrong-one')).body.error).toBe('password_incorrect');
      expect((await pin('secret12')).body.code).toBe(0);
    }
    // Twelve wrong in all, never five in a row: the next wrong one is just wrong.
    expect((await pin('wrong-one')).body.error).toBe('password_incorrect');
  });
});
