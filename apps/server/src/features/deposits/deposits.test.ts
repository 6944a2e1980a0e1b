// API tests of fiat deposits through the real HTTP stack, on SQLite and on PostgreSQL: a bank deposit the
// finance desk confirms raises the balance by exactly its amount with a ledger line linked to it; a
// rejection changes nothing; PIX is credited once through the signed webhook; every refusal in both
// languages changes nothing; retries with one key make one deposit; a crash between the confirmation and
// the credit is repaired at start-up without crediting twice.

import { crc32, deflateSync } from 'node:zlib';
import { testDatabases } from '@bourse/db';
import { parsePix } from 'pix-utils';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PIX_SIGNATURE_HEADER, signPixBody } from '../../adapters/payments/pix-port.ts';
import { SandboxPix } from '../../adapters/payments/sandbox/sandbox-pix.ts';
import { loadConfig } from '../../config.ts';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';

const dbs = await testDatabases();
type T = Awaited<ReturnType<typeof testApp>>;

const SECRET = 'test-pix-webhook-secret-0123456789abcdef';
let proof = '';
beforeAll(async () => {
  const raw = { create: { width: 48, height: 32, channels: 3 as const, background: '#1cd7c0' } };
  proof = `data:image/png;base64,${(await sharp(raw).png().toBuffer()).toString('base64')}`;
});

/** A PNG whose header declares side×side pixels with only a kilobyte of image data behind it. */
function pixelBomb(side: number): string {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(2, 9);
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    sig,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1000))),
    chunk('IEND', Buffer.alloc(0)),
  ]).toString('base64');
}

const bankBody = (over: Record<string, string | undefined> = {}) => ({
  rail: 'bank',
  currency: 'INR',
  amount: '2500.50',
  reference: 'UTR123456789',
  proof,
  ...over,
});

describe.each(dbs)('deposits on $dialect', ({ open }) => {
  let t: T;
  let closeDb: () => Promise<void>;
  const settings = (env: Record<string, string> = {}) =>
    loadConfig({ PIX_WEBHOOK_SECRET: SECRET, ...env }, { dataDir: null }).deposits;
  const start = async (env: Record<string, string> = {}) => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db, { deposits: settings(env) });
    return db;
  };
  afterEach(async () => {
    await t.close();
    await closeDb();
  });
  const customer = async (phone: string) => {
    const data = (await t.register(phone)).body.data;
    return { token: data.token as string, id: data.user.id as number };
  };
  const signIn = async (username: string, password: string, totpSecret: string) => {
    const answer = await t.call('POST', '/admin/auth/login', {
      json: { username, password, totpCode: totpNow(totpSecret, t.clock.now()) },
    });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    return answer.body.data.token as string;
  };
  const admin = () => signIn(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
  const balance = async (token: string, asset: string) => {
    const items = (await t.call('POST', '/user/assets', { token })).body.data.items as {
      wallet: string;
      asset: string;
      balance: string;
    }[];
    return items.find((i) => i.wallet === 'stock' && i.asset === asset)?.balance ?? '0';
  };
  const deposits = async (token: string) => (await t.call('GET', '/user/recharge/order', { token })).body.data;
  const add = (token: string, json: Record<string, unknown>, lang?: string, headers?: Record<string, string>) =>
    t.call('POST', '/user/recharge/add', { token, json, ...(lang ? { lang } : {}), ...(headers ? { headers } : {}) });
  const decide = (
    staff: string,
    id: number,
    decision: string,
    reason = 'Receipt matches the bank statement',
    lang?: string,
  ) =>
    t.call('POST', `/admin/deposits/${id}/decide`, {
      token: staff,
      json: { decision, reason },
      ...(lang ? { lang } : {}),
    });
  const webhook = (rawBody: string, signature: string) =>
    t.app.http.inject({
      method: 'POST',
      url: '/ipor-api/webhooks/pix/sandbox',
      headers: { 'content-type': 'application/json', [PIX_SIGNATURE_HEADER]: signature },
      payload: rawBody,
    });
  const ledgerLines = async (token: string) =>
    (await t.call('GET', '/user/tx/record?limit=100', { token })).body.data.items as {
      cause: string;
      link: string;
      amount: string;
      asset: string;
      counterparty: string;
    }[];

  it('lists the open rails per currency with limits and the labelled sandbox receiving accounts', async () => {
    await start();
    const all = (await t.call('GET', '/index/bank/recharge')).body.data.items;
    expect(all.map((c: { currency: string; rail: string }) => `${c.currency}:${c.rail}`)).toEqual([
      'INR:bank',
      'INR:offline',
      'BRL:pix',
      'BRL:bank',
      'BRL:offline',
      'USD:bank',
    ]);
    const inr = (await t.call('GET', '/index/bank/recharge?currency=INR')).body.data.items[0];
    expect(inr).toMatchObject({
      currency: 'INR',
      rail: 'bank',
      minAmount: '100.00',
      isOpen: true,
      account: { isSandbox: true, ifsc: 'SBOX0000001' },
    });
    expect(inr.account.holderName).toContain('SANDBOX');
    const pix = all.find((c: { rail: string }) => c.rail === 'pix');
    expect(pix).toMatchObject({ account: null, isOpen: true, expiresInMin: 30 });
  });

  it('a deployment without a receiving account shows those rails closed and refuses them, changing nothing', async () => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db, { deposits: { ...settings(), accounts: {} } });
    const { token } = await customer('9123400013');
    const items = (await t.call('GET', '/index/bank/recharge')).body.data.items as { rail: string; isOpen: boolean }[];
    expect(items.filter((c) => c.rail !== 'pix').every((c) => !c.isOpen)).toBe(true);
    expect(items.find((c) => c.rail === 'pix')?.isOpen).toBe(true);
    for (const [lang, msg] of [
      ['en-US', 'Deposits cannot be made at the current time'],
      ['pt-BR', 'Não é possível fazer depósitos no momento'],
    ] as const) {
      expect((await add(token, bankBody(), lang)).body).toMatchObject({ error: 'deposits_closed', msg });
    }
    expect(await deposits(token)).toEqual({ items: [], total: 0 });
  });

  it('a bank deposit confirmed by finance raises the balance by exactly its amount, linked and audited', async () => {
    await start();
    const { token } = await customer('9123400001');
    const before = await balance(token, 'INR');
    const sent = await add(token, bankBody(), 'pt-BR');
    expect(sent.body, JSON.stringify(sent.body)).toMatchObject({
      code: 0,
      msg: 'Enviado',
      data: { status: 'pending', amount: '2500.50', currency: 'INR', rail: 'bank', hasProof: true, transferId: null },
    });
    const id = sent.body.data.id as number;
    expect(await balance(token, 'INR')).toBe(before);

    const staff = await admin();
    const desk = (await t.call('GET', '/admin/deposits', { token: staff })).body.data.items;
    expect(desk).toEqual([expect.objectContaining({ id, amount: '2500.50', reference: 'UTR123456789' })]);
    const image = await t.app.http.inject({ url: `/ipor-api/admin/deposits/${id}/proof`, headers: { token: staff } });
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(image.rawPayload).metadata()).format).toBe('jpeg');

    expect((await decide(staff, id, 'confirm')).body.code).toBe(0);
    expect(await balance(token, 'INR')).toBe('1002500.50');
    const lines = (await ledgerLines(token)).filter((l) => l.cause === 'deposit');
    expect(lines).toEqual([
      expect.objectContaining({
        link: `deposit:${id}`,
        amount: '2500.50',
        asset: 'INR',
        counterparty: 'platform:rail:bank',
      }),
    ]);
    const status = (await t.call('GET', `/user/recharge/status?id=${id}`, { token })).body.data;
    expect(status).toMatchObject({ status: 'confirmed', transferId: `deposit:${id}` });
    expect(
      status.history.map((h: { from: string; to: string; actor: string }) => `${h.from}>${h.to}:${h.actor}`),
    ).toEqual(['new>pending:customer', 'pending>confirmed:staff']);
    expect(status.history[1].reason).toBe('Receipt matches the bank statement');
    // Confirming twice is refused and credits nothing more.
    expect((await decide(staff, id, 'confirm')).body.error).toBe('deposit_transition_refused');
    expect(await balance(token, 'INR')).toBe('1002500.50');
    const audit = (await t.call('GET', '/admin/audit?action=deposits.confirm', { token: staff })).body.data;
    expect(audit.items).toEqual([
      expect.objectContaining({ targetId: String(id), reason: 'Receipt matches the bank statement' }),
    ]);
    expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
  });

  it('a rejected offline deposit changes no balance and shows the reason; it cannot be confirmed later', async () => {
    await start();
    const { token } = await customer('9123400002');
    const before = await balance(token, 'BRL');
    const id = (await add(token, bankBody({ rail: 'offline', currency: 'BRL', amount: '300' }))).body.data.id as number;
    const staff = await admin();
    for (const [lang, msg] of [
      ['en-US', 'Please write the reason for this action'],
      ['pt-BR', 'Escreva o motivo desta ação'],
    ] as const) {
      expect((await decide(staff, id, 'reject', ' ', lang)).body).toMatchObject({ error: 'reason_required', msg });
    }
    expect((await decide(staff, id, 'reject', 'No such transfer on the statement')).body.code).toBe(0);
    expect((await decide(staff, id, 'confirm')).body.error).toBe('deposit_transition_refused');
    const status = (await t.call('GET', `/user/recharge/status?id=${id}`, { token })).body.data;
    expect(status).toMatchObject({ status: 'rejected', reason: 'No such transfer on the statement', transferId: null });
    expect(await balance(token, 'BRL')).toBe(before);
    expect((await ledgerLines(token)).filter((l) => l.cause === 'deposit')).toEqual([]);
  });

  it('PIX: a dynamic BR Code with its QR; the sandbox payment credits once; a replay, a bad signature and a wrong amount change nothing', async () => {
    await start();
    const { token } = await customer('9123400003');
    const before = await balance(token, 'BRL');
    const sent = await add(token, { rail: 'pix', currency: 'BRL', amount: '250.00' });
    expect(sent.body.data).toMatchObject({ status: 'awaiting_payment', canSimulate: true });
    const { id, txid, pix, expiresAt } = sent.body.data;
    expect(txid).toMatch(/^[a-f0-9]{32}$/);
    expect(expiresAt).toBe(t.clock.now() + 30 * 60_000);
    const parsed = parsePix(pix.brCode);
    expect(parsed).toMatchObject({ type: 'DYNAMIC', url: `pix.sandbox.invalid/v2/cob/${txid}` });
    expect(pix.qrDataUrl).toMatch(/^data:image\/png;base64,/);

    const sandbox = new SandboxPix(SECRET);
    // A forged signature and a wrong amount: refused, nothing changed.
    const genuine = sandbox.notification(txid, '250.00', t.clock.now());
    const forged = await webhook(genuine, signPixBody(genuine, 'someone-else'));
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ error: 'webhook_signature_invalid' });
    const wrong = sandbox.notification(txid, '2500.00', t.clock.now());
    const wrongAnswer = await webhook(wrong, signPixBody(wrong, SECRET));
    expect(wrongAnswer.json()).toMatchObject({ error: 'deposit_amount_mismatch' });
    // Another provider's address, and a body that is not JSON (its exact bytes cannot be checked).
    const elsewhere = await t.app.http.inject({
      method: 'POST',
      url: '/ipor-api/webhooks/pix/other-bank',
      headers: { 'content-type': 'application/json', [PIX_SIGNATURE_HEADER]: signPixBody(genuine, SECRET) },
      payload: genuine,
    });
    expect(elsewhere.statusCode).toBe(404);
    const form = await t.app.http.inject({
      method: 'POST',
      url: '/ipor-api/webhooks/pix/sandbox',
      headers: { 'content-type': 'application/x-www-form-urlencoded', [PIX_SIGNATURE_HEADER]: 'sha256=00' },
      payload: 'pix=1',
    });
    expect(form.json()).toMatchObject({ error: 'unsupported_media_type' });
    expect(await balance(token, 'BRL')).toBe(before);
    expect((await t.call('GET', `/user/recharge/status?id=${id}`, { token })).body.data.status).toBe(
      'awaiting_payment',
    );

    // The finance desk cannot confirm a PIX charge by hand: only the provider's signed notification does.
    const staff = await admin();
    expect((await decide(staff, id, 'confirm')).body.error).toBe('deposit_transition_refused');
    expect(await balance(token, 'BRL')).toBe(before);

    const paid = await t.call('POST', '/user/recharge/simulate', { token, json: { id } });
    expect(paid.body.data).toMatchObject({ status: 'confirmed', transferId: `deposit:${id}`, canSimulate: false });
    expect(paid.body.data.history.at(-1)).toMatchObject({
      from: 'awaiting_payment',
      to: 'confirmed',
      actor: 'provider',
    });
    expect(await balance(token, 'BRL')).toBe('50250.00');
    // The provider repeats its notification: answered OK, nothing more credited.
    const replay = await webhook(genuine, signPixBody(genuine, SECRET));
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ code: 0, data: { credited: 0 } });
    expect((await t.call('POST', '/user/recharge/simulate', { token, json: { id } })).body.error).toBe(
      'deposit_transition_refused',
    );
    expect(await balance(token, 'BRL')).toBe('50250.00');
    const lines = (await ledgerLines(token)).filter((l) => l.cause === 'deposit');
    expect(lines).toEqual([
      expect.objectContaining({ link: `deposit:${id}`, amount: '250.00', counterparty: 'platform:rail:pix' }),
    ]);
  });

  it('an unpaid PIX charge expires, and a payment that still arrives late is credited', async () => {
    await start();
    const { token } = await customer('9123400004');
    const { id, txid } = (await add(token, { rail: 'pix', currency: 'BRL', amount: '10.00' })).body.data;
    t.clock.advance(31 * 60_000);
    const expired = (await t.call('GET', `/user/recharge/status?id=${id}`, { token })).body.data;
    expect(expired).toMatchObject({ status: 'expired', canSimulate: false });
    expect(expired.history.at(-1)).toMatchObject({ from: 'awaiting_payment', to: 'expired', actor: 'system' });
    const late = new SandboxPix(SECRET).notification(txid, '10.00', t.clock.now());
    expect((await webhook(late, signPixBody(late, SECRET))).json().data).toEqual({ credited: 1 });
    expect((await t.call('GET', `/user/recharge/status?id=${id}`, { token })).body.data.status).toBe('confirmed');
  });

  it('limits PIX to R$ 1,000 between 20:00 and 06:00 in São Paulo (DOMAIN.md), and not by day', async () => {
    const cases = [
      ['2026-11-28T02:00:00Z', '1000.00', '1000.01', '9123400011'], // 23:00 in São Paulo
      ['2026-11-28T15:00:00Z', '100000.00', '100000.01', '9123400012'], // 12:00 in São Paulo
    ] as const;
    for (const [i, [at, max, over, phone]] of cases.entries()) {
      if (i > 0) {
        await t.close();
        await closeDb();
      }
      const db = await open();
      closeDb = () => db.close();
      t = await testApp(db, { deposits: settings() }, Date.parse(at));
      const { token } = await customer(phone);
      const pix = (await t.call('GET', '/index/bank/recharge?currency=BRL')).body.data.items[0];
      expect(pix).toMatchObject({ rail: 'pix', maxAmount: max });
      expect((await add(token, { rail: 'pix', currency: 'BRL', amount: over })).body.error).toBe(
        'deposit_above_maximum',
      );
      expect((await add(token, { rail: 'pix', currency: 'BRL', amount: max })).body.code).toBe(0);
    }
    // Two servers start in this test: allow for both on a busy machine.
  }, 60_000);

  it('refuses each bad request in both languages and changes nothing', async () => {
    await start({ DEPOSITS_CLOSED: 'USD:bank' });
    const { token } = await customer('9123400005');
    const cases: [string, Record<string, string | undefined>, string, string][] = [
      [
        'below the minimum',
        { amount: '99.99' },
        'deposit_below_minimum',
        'O valor está abaixo do depósito mínimo (₹ 100,00)',
      ],
      ['above the maximum', { amount: '1000000.01' }, 'deposit_above_maximum', 'O valor está acima do depósito máximo'],
      ['a closed rail', { currency: 'USD' }, 'deposits_closed', 'Não é possível fazer depósitos no momento'],
      [
        'a rail not offered',
        { rail: 'pix', currency: 'INR' },
        'deposit_rail_unavailable',
        'Este meio de depósito não é oferecido para esta moeda',
      ],
      ['letters for an amount', { amount: '12abc' }, 'invalid_amount', 'O valor não é válido'],
      ['three decimals', { amount: '100.001' }, 'invalid_amount', 'O valor não é válido'],
      ['a zero amount', { amount: '0' }, 'invalid_amount', 'O valor não é válido'],
      [
        'no reference',
        { reference: undefined },
        'deposit_reference_required',
        'Informe a referência da sua transferência',
      ],
      ['no proof', { proof: undefined }, 'deposit_proof_required', 'Anexe uma foto do comprovante da transferência'],
      [
        'a PDF as proof',
        { proof: Buffer.from('%PDF-1.4 not a photo').toString('base64') },
        'kyc_image_type',
        'A foto deve ser uma imagem JPEG, PNG ou WebP',
      ],
      ['a pixel bomb', { proof: pixelBomb(10_000) }, 'kyc_image_too_large', 'A foto é grande demais'],
      [
        'a huge file',
        { proof: Buffer.alloc(5 * 1024 * 1024 + 1, 0xff).toString('base64') },
        'kyc_image_too_large',
        'A foto é grande demais',
      ],
    ];
    for (const [name, over, error, pt] of cases) {
      const body = bankBody(over);
      const en = await add(token, body, 'en-US');
      expect(en.body.error, name).toBe(error);
      expect(en.body.msg, name).not.toContain(pt.slice(0, 12));
      const ptAnswer = await add(token, body, 'pt-BR');
      expect(ptAnswer.body.error, name).toBe(error);
      expect(ptAnswer.body.msg.replace(/\u00a0/g, ' '), name).toContain(pt);
    }
    expect((await add(token, bankBody({ amount: '99.99' }), 'en-US')).body.msg).toBe(
      'The amount is below the minimum deposit (₹100.00)',
    );
    expect(await deposits(token)).toEqual({ items: [], total: 0 });
  });

  it('answers another customer’s deposit as not found, in both languages, and leaves it alone', async () => {
    await start();
    const owner = await customer('9123400006');
    const other = await customer('9123400007');
    const bank = (await add(owner.token, bankBody())).body.data.id as number;
    const pix = (await add(owner.token, { rail: 'pix', currency: 'BRL', amount: '20.00' })).body.data.id as number;
    for (const [lang, msg] of [
      ['en-US', 'Deposit not found'],
      ['pt-BR', 'Depósito não encontrado'],
    ] as const) {
      const status = await t.call('GET', `/user/recharge/status?id=${bank}`, { token: other.token, lang });
      expect(status).toMatchObject({ status: 404, body: { error: 'deposit_not_found', msg } });
      const proofImage = await t.call('GET', `/user/recharge/proof/${bank}`, { token: other.token, lang });
      expect(proofImage.body).toMatchObject({ error: 'deposit_not_found', msg });
      const simulate = await t.call('POST', '/user/recharge/simulate', { token: other.token, lang, json: { id: pix } });
      expect(simulate.body).toMatchObject({ error: 'deposit_not_found', msg });
    }
    const mine = await t.app.http.inject({
      url: `/ipor-api/user/recharge/proof/${bank}`,
      headers: { token: owner.token },
    });
    expect(mine.headers['content-type']).toBe('image/jpeg');
    expect((await deposits(owner.token)).items.map((d: { status: string }) => d.status)).toEqual([
      'awaiting_payment',
      'pending',
    ]);
    expect(await deposits(other.token)).toEqual({ items: [], total: 0 });
    // Filters: one rail, several rails, a status; a rail that is not one is refused.
    const list = async (query: string) =>
      (await t.call('GET', `/user/recharge/order?${query}`, { token: owner.token })).body.data;
    expect((await list('rail=pix')).items.map((d: { id: number }) => d.id)).toEqual([pix]);
    expect((await list('rail=bank,offline')).items.map((d: { id: number }) => d.id)).toEqual([bank]);
    expect((await list('rail=bank,pix')).total).toBe(2);
    expect((await list('status=pending')).items.map((d: { id: number }) => d.id)).toEqual([bank]);
    expect((await t.call('GET', '/user/recharge/order?rail=cash', { token: owner.token })).body.error).toBe(
      'validation_failed',
    );
  });

  it('a retry with the same key answers the first deposit; the key with another body is refused', async () => {
    await start();
    const { token } = await customer('9123400008');
    const first = await add(token, { ...bankBody(), requestId: 'deposit-key-0001' });
    const again = await add(token, { ...bankBody(), requestId: 'deposit-key-0001' });
    expect(again.body.data.id).toBe(first.body.data.id);
    const header = await add(token, bankBody(), undefined, { 'idempotency-key': 'deposit-key-0001' });
    expect(header.body.data.id).toBe(first.body.data.id);
    for (const [lang, msg] of [
      ['en-US', 'This request was already sent with different content'],
      ['pt-BR', 'Esta solicitação já foi enviada com conteúdo diferente'],
    ] as const) {
      const other = await add(token, { ...bankBody({ amount: '999.00' }), requestId: 'deposit-key-0001' }, lang);
      expect(other.body).toMatchObject({ error: 'idempotency_key_reused', msg });
    }
    const pixKey = { rail: 'pix', currency: 'BRL', amount: '15.00', requestId: 'deposit-key-0002' };
    const [a, b] = await Promise.all([add(token, pixKey), add(token, pixKey)]);
    expect(a.body.data.id).toBe(b.body.data.id);
    expect((await deposits(token)).total).toBe(2);
  });

  it('the finance desk is refused to a customer and to staff without deposits.confirm', async () => {
    await start();
    const { token } = await customer('9123400009');
    const id = (await add(token, bankBody())).body.data.id as number;
    const staff = await admin();
    const created = await t.call('POST', '/admin/staff/create', {
      token: staff,
      json: { username: 'carla', role: 'compliance', reason: 'new compliance officer' },
    });
    t.clock.advance(30_000);
    const compliance = await signIn('carla', created.body.data.initialPassword, created.body.data.totpSecret);
    for (const [lang, msg] of [
      ['en-US', 'You do not have permission to do this'],
      ['pt-BR', 'Você não tem permissão para fazer isso'],
    ] as const) {
      expect((await t.call('GET', '/admin/deposits', { token: compliance, lang })).body).toMatchObject({
        error: 'forbidden',
        msg,
      });
      expect((await t.call('GET', `/admin/deposits/${id}/proof`, { token: compliance, lang })).body).toMatchObject({
        error: 'forbidden',
        msg,
      });
      expect((await decide(compliance, id, 'confirm', 'looks fine', lang)).body).toMatchObject({
        error: 'forbidden',
        msg,
      });
      expect((await decide(token, id, 'confirm', 'looks fine', lang)).body).toMatchObject({ error: 'forbidden', msg });
    }
    expect((await t.call('GET', `/user/recharge/status?id=${id}`, { token })).body.data.status).toBe('pending');
    expect((await decide(staff, 999_999, 'confirm')).body.error).toBe('deposit_not_found');
  });

  it('a confirmation committed without its credit (a crash) is credited at start-up, exactly once', async () => {
    const db = await start();
    const { token } = await customer('9123400010');
    const staff = await admin();
    const credited = (await add(token, bankBody({ amount: '1000.00' }))).body.data.id as number;
    expect((await decide(staff, credited, 'confirm')).body.code).toBe(0);
    const crashed = (await add(token, bankBody({ amount: '700.00' }))).body.data.id as number;
    // What a crash right after the confirming transaction leaves: confirmed, no credit, not marked.
    await db.run(`UPDATE deposits SET status = 'confirmed' WHERE id = $1`, [crashed]);
    await db.run('UPDATE deposits SET credited_at = NULL WHERE id = $1', [credited]);
    expect(await balance(token, 'INR')).toBe('1001000.00');
    await t.close();
    t = await testApp(db, { deposits: settings() });
    const login = await t.call('POST', '/user/login', {
      body: { areaCode: '91', phone: '9123400010', password: 'secret12' },
    });
    const again = login.body.data.token as string;
    expect(await balance(again, 'INR')).toBe('1001700.00');
    const lines = (await ledgerLines(again)).filter((l) => l.cause === 'deposit').map((l) => l.link);
    expect(lines.sort()).toEqual([`deposit:${crashed}`, `deposit:${credited}`].sort());
    expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
  });
});
