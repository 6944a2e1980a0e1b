// API tests of KYC through the real HTTP stack on SQLite and PostgreSQL: submit, review, resubmit,
// every refused transition and upload, each refusal in both languages with nothing changed.

import { crc32, deflateSync } from 'node:zlib';
import { testDatabases } from '@bourse/db';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';

const dbs = await testDatabases();
type T = Awaited<ReturnType<typeof testApp>>;

let jpeg = '';
let png = '';
beforeAll(async () => {
  const raw = { create: { width: 64, height: 40, channels: 3 as const, background: '#3366cc' } };
  // EXIF with a maker tag, so the test can see it gone after re-encoding.
  jpeg = (
    await sharp(raw)
      .jpeg()
      .withExif({ IFD0: { Make: 'SecretCam' } })
      .toBuffer()
  ).toString('base64');
  png = `data:image/png;base64,${(await sharp(raw).png().toBuffer()).toString('base64')}`;
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

const form = (over: Record<string, string> = {}) => ({
  docType: 'passport',
  fullName: 'Asha Rao',
  docNumber: 'P1234567',
  front: jpeg,
  back: png,
  ...over,
});

describe.each(dbs)('kyc on $dialect', ({ open }) => {
  let t: T;
  let closeDb: () => Promise<void>;
  const start = async () => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db);
    return t;
  };
  afterEach(async () => {
    await t.close();
    await closeDb();
  });
  const customer = async (phone: string) => (await t.register(phone)).body.data.token as string;
  const admin = async () => {
    const answer = await t.call('POST', '/admin/auth/login', {
      json: {
        username: DEMO_STAFF.username,
        password: DEMO_STAFF.password,
        totpCode: totpNow(DEMO_STAFF.totpSecret, t.clock.now()),
      },
    });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    return answer.body.data.token as string;
  };
  const state = async (token: string) => (await t.call('GET', '/user/auth', { token })).body.data;
  const submit = (token: string, over: Record<string, string> = {}, lang?: string) =>
    t.call('POST', '/user/auth', { token, json: form(over), ...(lang ? { lang } : {}) });
  const decide = (staff: string, id: number, decision: string, reason = 'Documents match', lang?: string) =>
    t.call('POST', `/admin/kyc/${id}/decide`, { token: staff, json: { decision, reason }, ...(lang ? { lang } : {}) });

  it('submits, shows pending in login info, and an approval makes the customer verified (audited)', async () => {
    await start();
    const token = await customer('9123456780');
    expect(await state(token)).toEqual({ idStatus: 'none', reason: '', submission: null });
    const sent = await submit(token, {}, 'pt-BR');
    expect(sent.body).toMatchObject({ code: 0, msg: 'Enviado', data: { idStatus: 'pending' } });
    const id = sent.body.data.submission.id as number;
    expect((await t.call('GET', '/user/login/info', { token })).body.data.user.idStatus).toBe('pending');

    const staff = await admin();
    const list = (await t.call('GET', '/admin/kyc', { token: staff })).body.data.items;
    expect(list).toEqual([
      expect.objectContaining({ id, fullName: 'Asha Rao', docType: 'passport', status: 'pending' }),
    ]);
    const photo = await t.app.http.inject({ url: `/ipor-api/admin/kyc/${id}/image/front`, headers: { token: staff } });
    expect(photo.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(photo.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();

    expect((await decide(staff, id, 'approve')).body.code).toBe(0);
    expect((await t.call('GET', '/user/login/info', { token })).body.data.user.idStatus).toBe('succ');
    const audit = (await t.call('GET', '/admin/audit?action=kyc.approve', { token: staff })).body.data;
    expect(JSON.stringify(audit)).toContain(`"${id}"`);
  });

  it('rejects with a written reason, shows it, and takes a resubmission', async () => {
    await start();
    const token = await customer('9123456781');
    const id = (await submit(token)).body.data.submission.id as number;
    const staff = await admin();
    for (const [lang, msg] of [
      ['en-US', 'Please write the reason for this action'],
      ['pt-BR', 'Escreva o motivo desta ação'],
    ] as const) {
      for (const decision of ['reject', 'approve']) {
        const noReason = await decide(staff, id, decision, ' ', lang);
        expect(noReason.body, JSON.stringify(noReason.body)).toMatchObject({ error: 'reason_required', msg });
      }
    }
    expect((await state(token)).idStatus).toBe('pending');
    expect((await decide(staff, id, 'reject', 'The photo is blurred')).body.code).toBe(0);
    expect(await state(token)).toMatchObject({ idStatus: 'fail', reason: 'The photo is blurred' });
    // The app posts a form body (SPEC §7's request wrapper), photos as data URLs.
    const again = await t.call('POST', '/user/auth', {
      token,
      body: form({ docNumber: 'P7654321', front: `data:image/jpeg;base64,${jpeg}` }),
    });
    expect(again.body.data).toMatchObject({ idStatus: 'pending', reason: '', submission: { docNumber: 'P7654321' } });
  });

  it('refuses every transition the table does not hold, in both languages, changing nothing', async () => {
    await start();
    const token = await customer('9123456782');
    const id = (await submit(token)).body.data.submission.id as number;
    const staff = await admin();
    const messages = {
      'en-US': 'This KYC action is not allowed in the current state',
      'pt-BR': 'Esta ação de KYC não é permitida no estado atual',
    };
    for (const [lang, msg] of Object.entries(messages)) {
      // pending → pending
      expect((await submit(token, {}, lang)).body).toMatchObject({ error: 'kyc_transition_refused', msg });
    }
    expect((await decide(staff, id, 'approve')).body.code).toBe(0);
    for (const [lang, msg] of Object.entries(messages)) {
      // succ → pending, succ → succ, succ → fail
      expect((await submit(token, {}, lang)).body).toMatchObject({ error: 'kyc_transition_refused', msg });
      expect((await decide(staff, id, 'approve', 'again', lang)).body).toMatchObject({
        error: 'kyc_transition_refused',
        msg,
      });
      expect((await decide(staff, id, 'reject', 'late', lang)).body).toMatchObject({
        error: 'kyc_transition_refused',
        msg,
      });
    }
    expect((await state(token)).idStatus).toBe('succ');
    expect((await t.call('GET', '/admin/kyc', { token: staff })).body.data.items).toEqual([]);
    expect((await decide(staff, 999_999, 'approve')).body.error).toBe('kyc_not_found');
  });

  it('refuses a wrong file type, a pixel bomb and a too-large file in both languages, changing nothing', async () => {
    await start();
    const token = await customer('9123456783');
    const cases = [
      [
        { front: Buffer.from('%PDF-1.4 not a photo').toString('base64') },
        'kyc_image_type',
        'A foto deve ser uma imagem JPEG, PNG ou WebP',
      ],
      [
        { back: Buffer.from('just text').toString('base64') },
        'kyc_image_type',
        'A foto deve ser uma imagem JPEG, PNG ou WebP',
      ],
      // 100 MP: over our 40 MP cap but under sharp's own default; 10 GP: over both.
      [{ front: pixelBomb(10_000) }, 'kyc_image_too_large', 'A foto é grande demais'],
      [{ back: pixelBomb(100_000) }, 'kyc_image_too_large', 'A foto é grande demais'],
      [
        { front: Buffer.alloc(5 * 1024 * 1024 + 1, 0xff).toString('base64') },
        'kyc_image_too_large',
        'A foto é grande demais',
      ],
    ] as const;
    for (const [over, error, pt] of cases) {
      const en = await submit(token, over, 'en-US');
      expect(en.body.error).toBe(error);
      expect(en.body.msg).not.toBe(pt);
      expect((await submit(token, over, 'pt-BR')).body).toMatchObject({ error, msg: pt });
    }
    expect(await state(token)).toEqual({ idStatus: 'none', reason: '', submission: null });
  });

  it("answers not found for someone else's photo, and refuses the desk to a customer", async () => {
    await start();
    const owner = await customer('9123456784');
    const other = await customer('9123456785');
    const id = (await submit(owner)).body.data.submission.id as number;
    const mine = await t.app.http.inject({ url: `/ipor-api/user/auth/image/${id}/back`, headers: { token: owner } });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('image/jpeg');
    for (const lang of ['en-US', 'pt-BR']) {
      const theirs = await t.call('GET', `/user/auth/image/${id}/back`, { token: other, lang });
      expect(theirs.body.error).toBe('kyc_not_found');
      expect(theirs.body.msg).toBe(lang === 'en-US' ? 'KYC submission not found' : 'Envio de KYC não encontrado');
    }
    const desk = await t.call('GET', '/admin/kyc', { token: owner });
    expect(desk.body.code).not.toBe(0);
  });

  it('lets a compliance officer review (photos included) and refuses support and finance staff', async () => {
    await start();
    const adminToken = await admin();
    const hire = async (username: string, role: string) => {
      const created = (
        await t.call('POST', '/admin/staff/create', { token: adminToken, json: { username, role, reason: 'new hire' } })
      ).body.data;
      const signedIn = await t.call('POST', '/admin/auth/login', {
        json: { username, password: created.initialPassword, totpCode: totpNow(created.totpSecret, t.clock.now()) },
      });
      return signedIn.body.data.token as string;
    };
    const compliance = await hire('cora', 'compliance');
    const others = [await hire('sam', 'support'), await hire('fin', 'finance')];
    const token = await customer('9123456786');
    const id = (await submit(token)).body.data.submission.id as number;

    for (const staffToken of others) {
      expect((await t.call('GET', '/admin/kyc', { token: staffToken })).body.error).toBe('forbidden');
      expect((await decide(staffToken, id, 'approve')).body.error).toBe('forbidden');
      const photo = await t.app.http.inject({
        url: `/ipor-api/admin/kyc/${id}/image/front`,
        headers: { token: staffToken },
      });
      expect(photo.statusCode).not.toBe(200);
    }
    expect((await state(token)).idStatus).toBe('pending');

    const pending = (await t.call('GET', '/admin/kyc', { token: compliance })).body.data.items;
    expect(pending.map((item: { id: number }) => item.id)).toContain(id);
    const photo = await t.app.http.inject({
      url: `/ipor-api/admin/kyc/${id}/image/front`,
      headers: { token: compliance },
    });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect((await decide(compliance, id, 'approve')).body.code).toBe(0);
    expect((await state(token)).idStatus).toBe('succ');
    const audit = (await t.call('GET', '/admin/audit?action=kyc.approve', { token: compliance })).body.data.items;
    expect(audit[0]).toMatchObject({ staffUsername: 'cora', targetId: String(id) });
  });

  it('answers -1000 to a submission without a session before reading its body, even one over the size limit', async () => {
    await start();
    const huge = 'A'.repeat(17 * 1024 * 1024);
    const answer = await t.app.http.inject({
      method: 'POST',
      url: '/ipor-api/user/auth',
      headers: { 'content-type': 'application/json' },
      payload: `{"front":"${huge}"}`,
    });
    // With the check after parsing, this would be a 413 "body too large" instead.
    expect(JSON.parse(answer.body)).toMatchObject({ code: -1000 });
  });
});
