// Withdrawals end to end against the real server, per language, at 390×844: a KYC-verified customer
// (approved by staff over the API) whose bank account is older than the 24-hour lock (the server's
// test clock starts 26 hours back and is moved forward) opens withdraw → bankWithdraw, sees the fee and
// what arrives before confirming, enters the withdrawal password on the keypad for an amount above the
// review threshold, and sees it under review; the demo administrator approves it in the console's
// withdrawal desk with a written reason; the app then shows it paid, with every state and its time.
// The address book is visited too. Screenshots: test-results/screens/web-withdraw-<lang>-*.png and
// admin-withdrawals-<lang>-*.png.
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  customerPage,
  launchBrowser,
  consolePage as openConsolePage,
  type Server,
  shot,
  solveCaptcha,
  staffApiSignIn,
  staffSignIn,
  startServer,
} from './harness.ts';

const PIN = '482913';
let server: Server;
let browser: Browser;
let photo = '';

beforeAll(async () => {
  // The server's clock starts 26 hours ago: a bank account added now is past its lock once the clock is
  // moved forward to the present (where the console's TOTP codes are right).
  server = await startServer({
    BOURSE_TEST_CLOCK: new Date(Date.now() - 26 * 3_600_000).toISOString(),
    WITHDRAW_PAYOUT_EVERY_MS: '500',
  });
  browser = await launchBrowser();
  photo = (
    await sharp({ create: { width: 64, height: 40, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer()
  ).toString('base64');
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function api(path: string, body: unknown, token?: string) {
  const res = await fetch(`${server.baseUrl}/ipor-api${path}`, {
    method: body === null ? 'GET' : 'POST',
    headers: { ...(body === null ? {} : { 'content-type': 'application/json' }), ...(token ? { token } : {}) },
    ...(body === null ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { code: number; msg: string; data: any };
  if (json.code !== 0) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json.data;
}

/** Registered, withdrawal password set, KYC submitted, an Indian bank account added (at the old clock). */
async function preparedCustomer(phone: string) {
  const captcha = await api('/common/captcha', null);
  const reg = await api('/user/register', {
    areaCode: '91',
    phone,
    password: 'secret12',
    confirmPassword: 'secret12',
    agree: '1',
    captchaId: captcha.captchaId,
    captchaCode: await solveCaptcha(captcha.challenge),
  });
  const token = reg.token as string;
  await api('/user/update/withdrawPassword', { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' }, token);
  const kyc = await api(
    '/user/auth',
    { docType: 'passport', fullName: 'Asha Rao', docNumber: 'P1234567', front: photo, back: photo },
    token,
  );
  await api(
    '/bank/add',
    {
      country: 'IN',
      holderName: 'Asha Rao',
      bankName: 'HDFC Bank',
      accountNumber: '50100012345678',
      ifsc: 'HDFC0CAGSBK',
      password: 'secret12',
    },
    token,
  );
  return { token, user: reg.user, kycId: kyc.submission.id as number };
}

const TEXT = {
  'en-US': {
    underReview: 'Under review',
    paid: 'Paid',
    badAddress: 'This is not a valid address on this network',
    saved: 'Address saved',
  },
  'pt-BR': {
    underReview: 'Em análise',
    paid: 'Pago',
    badAddress: 'Este não é um endereço válido nesta rede',
    saved: 'Endereço salvo',
  },
} as const;

async function enterPin(page: Page, pin: string) {
  await page.getByTestId('withdraw-confirm').waitFor();
  await page.locator('.adm-number-keyboard-key').first().waitFor();
  await page.waitForTimeout(350);
  for (const digit of pin) await page.locator('.adm-number-keyboard-key').getByText(digit, { exact: true }).click();
}

describe('customer withdrawal approved in the console (real server)', () => {
  it('prepares two customers, then moves the clock past their bank accounts’ lock', async () => {
    const a = await preparedCustomer('9123400001');
    const b = await preparedCustomer('9123400002');
    prepared['en-US'] = a;
    prepared['pt-BR'] = b;
    // To the present exactly, whatever the server's start-up took: the console's TOTP codes follow real
    // time, and a server a few seconds behind refuses the harness's next code.
    const { now } = await api('/test/clock/advance', { ms: 1 });
    await api('/test/clock/advance', { ms: Math.max(1, Date.now() - now + 1_000) });
    const staffToken = await staffApiSignIn(server);
    for (const c of [a, b])
      await api(`/admin/kyc/${c.kycId}/decide`, { decision: 'approve', reason: 'Documents match' }, staffToken);
  }, 60_000);

  for (const lang of ['en-US', 'pt-BR'] as const) {
    it(`withdraws by bank above the review threshold, approved in the console, shown paid (${lang})`, async () => {
      const text = TEXT[lang];
      const who = prepared[lang];
      if (!who) throw new Error('not prepared');
      const { context, page } = await customerPage(browser, lang, { token: who.token, user: who.user });
      try {
        await page.goto(`${server.baseUrl}/pages/withdraw/withdraw`);
        await page.getByTestId('choose-bank').waitFor();
        await shot(page, `web-withdraw-${lang}-01-choose`);
        await page.getByTestId('choose-bank').click();
        await page.getByTestId('withdraw-amount').locator('input').fill('60000');
        await expect.poll(() => page.getByTestId('withdraw-receive').textContent()).toContain('59,990');
        await shot(page, `web-withdraw-${lang}-02-bank-form`);
        await page.getByTestId('withdraw-next').click();
        await enterPin(page, PIN);
        await page.getByTestId('withdraw-detail').waitFor();
        await page.getByTestId('withdraw-status').getByText(text.underReview).waitFor();
        await shot(page, `web-withdraw-${lang}-03-under-review`);
        const id = new URL(page.url()).searchParams.get('id');

        const desk = await openConsolePage(browser, lang);
        try {
          await staffSignIn(desk, server);
          await desk.goto(`${server.baseUrl}/admin/withdrawals`);
          const card = desk.getByTestId(`withdrawal-item-${id}`);
          await card.waitFor();
          await shot(desk, `admin-withdrawals-${lang}-01-review`);
          await card.getByTestId('withdrawal-approve').click();
          await desk.getByTestId('reason-input').fill('Known customer, usual amount');
          await shot(desk, `admin-withdrawals-${lang}-02-approve`);
          await desk.getByTestId('reason-confirm').click();
          await card.waitFor({ state: 'detached' });
        } finally {
          await desk.context().close();
        }

        // The payout job pays it within a second or two; the detail page looks again by itself.
        await page.getByTestId('withdraw-status').getByText(text.paid).waitFor({ timeout: 20_000 });
        await expect.poll(() => page.getByTestId('withdraw-history').locator('li').count()).toBe(5);
        await shot(page, `web-withdraw-${lang}-04-paid`);
        const assets = await api('/user/assets', {}, who.token);
        expect(assets.items).toContainEqual(
          expect.objectContaining({ wallet: 'stock', asset: 'INR', balance: '940000.00', held: '0.00' }),
        );

        // The ledger line of the payout links back to the withdrawal.
        await page.goto(
          `${server.baseUrl}/pages/wallet/recordDetail?id=${encodeURIComponent(`withdrawal:${id}:paid`)}`,
        );
        await page.getByTestId('record-link').getByRole('link').waitFor();
        await shot(page, `web-withdraw-${lang}-05a-ledger-line`);
        await page.getByTestId('record-link').getByRole('link').click();
        await page.getByTestId('withdraw-detail').waitFor();
        await page.goto(`${server.baseUrl}/pages/withdraw/withdrawRecord`);
        await page.getByTestId('withdraw-record').first().waitFor();
        await shot(page, `web-withdraw-${lang}-05-records`);
        await page.goto(`${server.baseUrl}/pages/withdraw/cryptoWithdraw`);
        await page.getByTestId('withdraw-asset').waitFor();
        await shot(page, `web-withdraw-${lang}-06-crypto-form`);
        await page.goto(`${server.baseUrl}/pages/wallet/addAdress?asset=BTC`);
        await page.getByTestId('add-address-form').waitFor();
        const form = page.getByTestId('add-address-form');
        await form.locator('input').nth(0).fill('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'); // main network: refused
        await form.locator('input[type=password]').fill('secret12');
        await form.locator('button[type=submit]').click();
        await page.getByText(text.badAddress).first().waitFor();
        await shot(page, `web-withdraw-${lang}-07-add-address-refused`);
        await form.locator('input').nth(0).fill('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx');
        await form.locator('input').nth(1).fill('Ledger');
        await form.locator('button[type=submit]').click();
        // Saved: the form goes back to where it was opened from.
        await page.waitForURL((url) => !url.pathname.includes('addAdress'));
        await page.goto(`${server.baseUrl}/pages/wallet/addressList`);
        await page.getByTestId('address-item').first().waitFor();
        // A new address locks withdrawals for 24 hours, shown with its end.
        await page.getByTestId('address-lock').waitFor();
        await shot(page, `web-withdraw-${lang}-08-address-list`);
        await page.goto(`${server.baseUrl}/pages/withdraw/bankWithdraw`);
        await page.getByTestId('withdraw-lock').waitFor();
        await shot(page, `web-withdraw-${lang}-09-locked`);
      } finally {
        await context.close();
      }
    }, 120_000);
  }
});

const prepared: Partial<Record<'en-US' | 'pt-BR', { token: string; user: unknown; kycId: number }>> = {};
