// API tests of the customer's API keys on SQLite and PostgreSQL: created with the transaction password,
// the secret answered once and stored only sealed, listed without it, revoked; every refusal in both
// languages; a foreign key answers not found.

import type { Db } from '@bourse/db';
import { testDatabases } from '@bourse/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../testing.ts';

const dbs = await testDatabases();
type T = Awaited<ReturnType<typeof testApp>>;
const PIN = '246810';

describe.each(dbs)('API keys on $dialect', ({ open }) => {
  let t: T;
  let db: Db;
  beforeAll(async () => {
    db = await open();
    t = await testApp(db);
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  const customer = async (phone: string, pin = true) => {
    const token = (await t.register(phone)).body.data.token as string;
    if (pin) {
      const set = await t.call('POST', '/user/update/tradePassword', {
        token,
        body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
      });
      expect(set.body.code, JSON.stringify(set.body)).toBe(0);
    }
    return token;
  };
  const add = (token: string, body: Record<string, string | undefined>, lang = 'en-US') =>
    t.call('POST', '/user/apikey/add', { token, lang, body: { label: 'bot', password: PIN, ...body } });
  const list = async (token: string) => (await t.call('GET', '/user/apikey/list', { token })).body.data;

  it('creates a key with the transaction password, answers its secret once and stores it only sealed', async () => {
    const token = await customer('9100000201');
    const made = await add(token, { label: 'My bot', permission: 'trade', ips: '10.0.0.1, 2001:db8::1 10.0.0.1' });
    expect(made.body.code, JSON.stringify(made.body)).toBe(0);
    const { key, secret } = made.body.data;
    expect(secret).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(key).toMatchObject({
      label: 'My bot',
      permission: 'trade',
      ips: ['10.0.0.1', '2001:db8::1'],
      lastUsedAt: null,
      lastUsedIp: null,
    });
    expect(key.apiKey).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(key.apiKey).not.toBe(secret);

    const listed = await list(token);
    expect(listed.max).toBe(10);
    expect(listed.items).toEqual([key]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    const rows = await db.query<{ secret_sealed: string }>('SELECT secret_sealed FROM api_keys WHERE id = $1', [
      key.id,
    ]);
    expect(rows[0]?.secret_sealed).toMatch(/^v1\./);
    expect(rows[0]?.secret_sealed).not.toContain(secret);

    // A read key by default, open to any address.
    const plain = await add(token, { label: 'sheet' });
    expect(plain.body.data.key).toMatchObject({ permission: 'read', ips: [] });
    expect((await list(token)).items.map((k: { label: string }) => k.label)).toEqual(['sheet', 'My bot']);
  });

  it('refuses a missing or wrong transaction password, or none set, in both languages', async () => {
    const token = await customer('9100000202');
    const missing = await add(token, { password: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.fields?.password).toBe('This field is required');
    for (const [lang, msg] of [
      ['en-US', 'The transaction password is incorrect, please re-enter'],
      ['pt-BR', 'A senha de transação está incorreta, digite novamente'],
    ] as const) {
      const wrong = await add(token, { password: '111111' }, lang);
      expect(wrong.body).toMatchObject({ error: 'trade_password_incorrect', msg });
    }
    const noPin = await customer('9100000203', false);
    expect((await add(noPin, {}, 'pt-BR')).body).toMatchObject({
      error: 'trade_password_not_set',
      msg: 'Defina uma senha de transação primeiro',
    });
    expect((await list(token)).items).toEqual([]);
    expect((await list(noPin)).items).toEqual([]);
  });

  it('refuses a bad allow-list, a bad permission and an empty label', async () => {
    const token = await customer('9100000204');
    for (const [lang, msg] of [
      ['en-US', 'Enter up to 20 IPv4 or IPv6 addresses, separated by commas'],
      ['pt-BR', 'Informe até 20 endereços IPv4 ou IPv6, separados por vírgulas'],
    ] as const) {
      for (const ips of [
        '10.0.0.256',
        'example.com',
        '1::2::3',
        Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`).join(','),
      ]) {
        const res = await add(token, { ips }, lang);
        expect(res.body.fields?.ips, ips).toBe(msg);
      }
    }
    expect((await add(token, { permission: 'withdraw' })).body.fields?.permission).toBe('This value is not valid');
    expect((await add(token, { label: '' })).body.fields?.label).toBe('This field is required');
    expect((await list(token)).items).toEqual([]);
  });

  it('holds at most 10 live keys; a revoked one frees its place', async () => {
    const token = await customer('9100000205');
    for (let i = 0; i < 10; i++) expect((await add(token, { label: `k${i}` })).body.code).toBe(0);
    for (const [lang, msg] of [
      ['en-US', 'You already have the maximum of 10 API keys: revoke one first'],
      ['pt-BR', 'Você já tem o máximo de 10 chaves de API: revogue uma primeiro'],
    ] as const) {
      expect((await add(token, { label: 'one more' }, lang)).body).toMatchObject({ error: 'api_key_limit', msg });
    }
    const first = (await list(token)).items[9];
    expect((await t.call('POST', '/user/apikey/del', { token, body: { id: String(first.id) } })).body.code).toBe(0);
    expect((await add(token, { label: 'one more' })).body.code).toBe(0);
  });

  it('revokes only the customer’s own key; a foreign or unknown id answers not found in both languages', async () => {
    const owner = await customer('9100000206');
    const stranger = await customer('9100000207');
    const { key } = (await add(owner, {})).body.data;
    for (const [lang, msg] of [
      ['en-US', 'API key not found'],
      ['pt-BR', 'Chave de API não encontrada'],
    ] as const) {
      const foreign = await t.call('POST', '/user/apikey/del', { token: stranger, lang, body: { id: String(key.id) } });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ error: 'api_key_not_found', msg });
      const unknown = await t.call('POST', '/user/apikey/del', { token: owner, lang, body: { id: '999999' } });
      expect(unknown.body).toMatchObject({ error: 'api_key_not_found', msg });
    }
    expect((await list(owner)).items).toHaveLength(1);
    expect((await list(stranger)).items).toEqual([]);
    const revoked = await t.call('POST', '/user/apikey/del', { token: owner, body: { id: String(key.id) } });
    expect(revoked.body.code).toBe(0);
    expect((await list(owner)).items).toEqual([]);
    // Twice is not found: the key is gone.
    expect((await t.call('POST', '/user/apikey/del', { token: owner, body: { id: String(key.id) } })).body.error).toBe(
      'api_key_not_found',
    );
  });

  it('answers -1000 without a session, before reading the body', async () => {
    for (const [method, url] of [
      ['GET', '/user/apikey/list'],
      ['POST', '/user/apikey/add'],
      ['POST', '/user/apikey/del'],
    ] as const) {
      const res = await t.call(method, url, method === 'POST' ? { body: { id: 'x' } } : {});
      expect(res.body.code, url).toBe(-1000);
    }
  });
});

describe.each(dbs.slice(0, 1))('API keys without a sealing key on $dialect', ({ open }) => {
  it('offers no keys (live mode without API_KEY_ENCRYPTION_KEY), in both languages', async () => {
    const db = await open();
    const t = await testApp(db, { apiKeySealingKey: null });
    try {
      const token = (await t.register('9100000299')).body.data.token as string;
      await t.call('POST', '/user/update/tradePassword', {
        token,
        body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
      });
      for (const [lang, msg] of [
        ['en-US', 'API keys are not available on this server'],
        ['pt-BR', 'Chaves de API não estão disponíveis neste servidor'],
      ] as const) {
        const res = await t.call('POST', '/user/apikey/add', { token, lang, body: { label: 'bot', password: PIN } });
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ error: 'api_keys_unavailable', msg });
      }
      expect((await t.call('GET', '/user/apikey/list', { token })).body.data.items).toEqual([]);
    } finally {
      await t.close();
      await db.close();
    }
  });
});
