// API tests of the customer's bank accounts through the real HTTP stack, on SQLite and on PostgreSQL.

import { BANK_ACCOUNT_LIMIT, BANK_WITHDRAW_LOCK_MS, errorMessage } from '@bourse/contract';
import { testDatabases } from '@bourse/db';
import { afterEach, describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';

const dbs = await testDatabases();

const INDIA = {
  country: 'IN',
  holderName: 'Asha Rao',
  bankName: 'HDFC Bank',
  accountNumber: '50100012345678',
  ifsc: 'hdfc0cagsbk',
  password: 'secret12',
};
const BRAZIL = {
  country: 'BR',
  holderName: 'João Silva',
  bankName: 'Banco do Brasil',
  branch: '1234',
  accountNumber: '12345-6',
  pixKey: 'joao@example.com',
  taxId: '111.444.777-35',
  password: 'secret12',
};

describe.each(dbs)('bank accounts on $dialect', ({ open }) => {
  let t: Awaited<ReturnType<typeof testApp>>;
  let closeDb: () => Promise<void>;
  const start = async () => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db);
    return t;
  };
  const signUp = async (phone: string) => (await t.register(phone)).body.data.token as string;
  const list = async (token: string) => (await t.call('GET', '/bank/list', { token })).body.data;
  afterEach(async () => {
    await t.close();
    await closeDb();
  });

  it('adds, lists, reads and deletes an Indian and a Brazilian account, showing the 24 h withdrawal lock', async () => {
    await start();
    const token = await signUp('9123456780');
    expect(await list(token)).toEqual({ items: [], withdrawalsLockedUntil: 0 });

    const added = await t.call('POST', '/bank/add', { token, body: INDIA, lang: 'pt-BR' });
    expect(added.body).toMatchObject({ code: 0, msg: 'Enviado', data: { country: 'IN', ifsc: 'HDFC0CAGSBK' } });
    const addedAt = t.clock.now();
    const br = await t.call('POST', '/bank/add', { token, body: { ...BRAZIL, taxId: '12.ABC.345/01DE-35' } });
    expect(br.body.data).toMatchObject({ country: 'BR', taxId: '12ABC34501DE35', pixKey: 'joao@example.com' });

    const listed = await list(token);
    expect(listed.items.map((i: { country: string }) => i.country).sort()).toEqual(['BR', 'IN']);
    expect(listed.withdrawalsLockedUntil).toBe(addedAt + BANK_WITHDRAW_LOCK_MS);

    const id = added.body.data.id as number;
    const info = await t.call('GET', `/bank/info?id=${id}`, { token });
    expect(info.body.data).toMatchObject({ id, holderName: 'Asha Rao', accountNumber: '50100012345678' });

    const del = await t.call('POST', '/bank/del', { token, body: { id: String(id) } });
    expect(del.body).toMatchObject({ code: 0, msg: 'Deleted' });
    expect((await list(token)).items).toHaveLength(1);
    expect((await t.call('GET', `/bank/info?id=${id}`, { token })).body.error).toBe('bank_account_not_found');
    // Deleting does not lift the lock; 24 hours do.
    expect((await list(token)).withdrawalsLockedUntil).toBe(addedAt + BANK_WITHDRAW_LOCK_MS);
    await t.advance(BANK_WITHDRAW_LOCK_MS);
    expect((await list(token)).withdrawalsLockedUntil).toBe(0);
  });

  it.each([
    ['a wrong password', INDIA, { password: 'wrong999' }, 'password_incorrect'],
    ['no password', INDIA, { password: undefined }, 'field_required'],
    ['a bad IFSC', INDIA, { ifsc: 'HDFC1CAGSBK' }, 'ifsc_invalid'],
    ['an unknown bank in the IFSC', INDIA, { ifsc: 'ZZZZ0000001' }, 'ifsc_invalid'],
    ['no IFSC', INDIA, { ifsc: undefined }, 'field_required'],
    ['a bad CPF', BRAZIL, { taxId: '111.444.777-36' }, 'tax_id_invalid'],
    ['a repeated-digit CPF', BRAZIL, { taxId: '111.111.111-11' }, 'tax_id_invalid'],
    ['a bad CNPJ', BRAZIL, { taxId: '11.222.333/0001-82' }, 'tax_id_invalid'],
    ['no PIX key', BRAZIL, { pixKey: undefined }, 'field_required'],
    ['a PIX key of no known kind', BRAZIL, { pixKey: 'joao at example' }, 'pix_key_invalid'],
    ['a PIX phone key outside Brazil', BRAZIL, { pixKey: '+91 98765 43210' }, 'pix_key_invalid'],
    ['no branch', BRAZIL, { branch: undefined }, 'field_required'],
  ] as const)('refuses %s in both languages and adds nothing', async (_name, base, change, error) => {
    await start();
    const token = await signUp('9123456781');
    const msgs = new Set<string>();
    for (const lang of ['en-US', 'pt-BR'] as const) {
      const res = await t.call('POST', '/bank/add', { token, lang, body: { ...base, ...change } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error, data: null });
      expect(Object.values(res.body.fields ?? {})).toContain(errorMessage(error, lang));
      msgs.add(res.body.msg);
    }
    expect(msgs.size).toBe(2);
    expect(await list(token)).toEqual({ items: [], withdrawalsLockedUntil: 0 });
  });

  it('accepts DOMAIN.md’s CPF and CNPJ vectors', async () => {
    await start();
    const token = await signUp('9123456782');
    for (const taxId of ['111.444.777-35', '222.333.666-38', '11.222.333/0001-81', '12.ABC.345/01DE-35']) {
      expect((await t.call('POST', '/bank/add', { token, body: { ...BRAZIL, taxId } })).body.code).toBe(0);
    }
  });

  it(`keeps at most ${BANK_ACCOUNT_LIMIT} accounts, refusing the next in both languages`, async () => {
    await start();
    const token = await signUp('9123456783');
    for (let i = 0; i < BANK_ACCOUNT_LIMIT; i++) {
      expect((await t.call('POST', '/bank/add', { token, body: INDIA })).body.code).toBe(0);
    }
    for (const [lang, msg] of [
      ['en-US', 'You have reached the maximum number of bank accounts'],
      ['pt-BR', 'Você atingiu o número máximo de contas bancárias'],
    ]) {
      const res = await t.call('POST', '/bank/add', { token, lang, body: INDIA });
      expect(res.body).toMatchObject({ error: 'bank_account_limit', msg });
    }
    expect((await list(token)).items).toHaveLength(BANK_ACCOUNT_LIMIT);
  });

  it('answers another customer’s bank account as not found, in both languages, and leaves it in place', async () => {
    await start();
    const owner = await signUp('9123456784');
    const other = await signUp('9123456785');
    const id = (await t.call('POST', '/bank/add', { token: owner, body: INDIA })).body.data.id;
    for (const [lang, msg] of [
      ['en-US', 'Bank account not found'],
      ['pt-BR', 'Conta bancária não encontrada'],
    ]) {
      const info = await t.call('GET', `/bank/info?id=${id}`, { token: other, lang });
      expect(info).toMatchObject({ status: 404, body: { error: 'bank_account_not_found', msg } });
      const del = await t.call('POST', '/bank/del', { token: other, lang, body: { id: String(id) } });
      expect(del).toMatchObject({ status: 404, body: { error: 'bank_account_not_found', msg } });
    }
    expect((await list(owner)).items).toHaveLength(1);
    expect((await list(other)).items).toHaveLength(0);
  });

  it('asks for the TOTP code instead of the password when two-factor is on', async () => {
    await start();
    const token = await signUp('9123456786');
    const setup = (await t.call('POST', '/user/2fa/setup', { token })).body.data as { secret: string };
    await t.call('POST', '/user/2fa/enable', { token, body: { code: totpNow(setup.secret, t.clock.now()) } });
    const noCode = await t.call('POST', '/bank/add', { token, body: INDIA });
    expect(noCode.body.error).toBe('totp_required');
    const bad = await t.call('POST', '/bank/add', { token, body: { ...INDIA, totpCode: '000000' } });
    expect(bad.body.error).toBe('totp_incorrect');
    const good = await t.call('POST', '/bank/add', {
      token,
      body: { ...INDIA, totpCode: totpNow(setup.secret, t.clock.now()) },
    });
    expect(good.body.code).toBe(0);
  });

  it('serves each country’s form template without signing in', async () => {
    await start();
    const res = await t.call('GET', '/index/bank/tmpl?country=BR');
    expect(res.body.data.fields.map((f: { name: string }) => f.name)).toEqual([
      'holderName',
      'bankName',
      'branch',
      'accountNumber',
      'pixKey',
      'taxId',
    ]);
    expect((await t.call('GET', '/index/bank/tmpl?country=IN')).body.data.fields).toContainEqual({
      name: 'ifsc',
      required: true,
    });
  });

  it('refuses every call without a session', async () => {
    await start();
    expect((await t.call('GET', '/bank/list')).status).toBe(401);
    expect((await t.call('POST', '/bank/add', { body: INDIA })).status).toBe(401);
  });
});
