// The registration captcha (ALTCHA proof of work) through the real stack: a solved challenge registers
// once; a wrong, forged, borrowed, replayed or expired solution is refused with captcha_* codes.

import { testDatabases } from '@bourse/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../testing.ts';
import { CAPTCHA_TTL_MS } from './captcha.ts';
import { solveCaptcha } from './captcha-solver.ts';

const dbs = await testDatabases();

// One app per database: the captchas table's one-use UPDATE … RETURNING runs on both dialects.
describe.each(dbs)('captcha on $dialect', ({ open }) => {
  let t: Awaited<ReturnType<typeof testApp>>;
  let db: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    db = await open();
    t = await testApp(db, { captcha: { cost: 2, tries: 40 } });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  const form = (phone: string, captchaId: string, captchaCode: string) => ({
    areaCode: '91',
    phone,
    password: 'secret12',
    confirmPassword: 'secret12',
    agree: '1',
    captchaId,
    captchaCode,
  });
  const decode = (payload: string) => JSON.parse(Buffer.from(payload, 'base64').toString());
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
  const newCaptcha = async () => (await t.call('GET', '/common/captcha')).body.data;

  it('hands out a signed PBKDF2 challenge at the configured cost, with no answer in it', async () => {
    const c = await newCaptcha();
    expect(c.captchaId).toMatch(/^[0-9a-f]{32}$/);
    expect(c.challenge.parameters).toMatchObject({
      algorithm: 'PBKDF2/SHA-256',
      cost: 2,
      data: { captchaId: c.captchaId },
    });
    expect(c.challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(c)).not.toMatch(/counter|derivedKey/);
  });

  it('registers with a solved challenge and refuses a replay of it', async () => {
    const c = await newCaptcha();
    const solution = await solveCaptcha(c.challenge);
    expect(
      (await t.call('POST', '/user/register', { body: form('9100000201', c.captchaId, solution) })).body.code,
    ).toBe(0);
    const replay = await t.call('POST', '/user/register', { body: form('9100000202', c.captchaId, solution) });
    expect(replay.body).toMatchObject({ error: 'captcha_incorrect', fields: { captchaCode: 'Captcha code error' } });
  });

  it('refuses a wrong answer, a forged challenge and another captcha’s solution, each spending the captcha', async () => {
    const refused = async (captchaId: string, code: string) =>
      (await t.call('POST', '/user/register', { body: form('9100000203', captchaId, code), lang: 'pt-BR' })).body;

    const wrong = await newCaptcha();
    const solved = decode(await solveCaptcha(wrong.challenge));
    solved.solution.derivedKey = '00'.repeat(32);
    expect(await refused(wrong.captchaId, encode(solved))).toMatchObject({
      error: 'captcha_incorrect',
      msg: 'Código captcha incorreto',
    });
    // Spent: the right answer no longer helps.
    expect((await refused(wrong.captchaId, await solveCaptcha(wrong.challenge))).error).toBe('captcha_incorrect');

    // A solution whose challenge the client rewrote (here: cheaper) fails the signature.
    const forged = await newCaptcha();
    const rewritten = decode(await solveCaptcha(forged.challenge));
    rewritten.challenge.parameters.cost = 1;
    expect((await refused(forged.captchaId, encode(rewritten))).error).toBe('captcha_incorrect');

    // One solution does not open another captcha.
    const [a, b] = [await newCaptcha(), await newCaptcha()];
    expect((await refused(b.captchaId, await solveCaptcha(a.challenge))).error).toBe('captcha_incorrect');

    for (const junk of ['zzzz', encode({ challenge: null, solution: null, test: true }), encode([1])])
      expect((await refused((await newCaptcha()).captchaId, junk)).error).toBe('captcha_incorrect');
  });

  it('refuses a solution sent after the captcha expired', async () => {
    const c = await newCaptcha();
    const solution = await solveCaptcha(c.challenge);
    t.clock.advance(CAPTCHA_TTL_MS + 1);
    const late = await t.call('POST', '/user/register', { body: form('9100000204', c.captchaId, solution) });
    expect(late.body.error).toBe('captcha_expired');
  });
});
