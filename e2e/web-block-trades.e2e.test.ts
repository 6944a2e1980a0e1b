// Block trades end to end against the real server, in both languages, at 390×844. The server's clock
// starts at the present (the console's TOTP codes follow real time): new customers verify their identity
// (KYC approved by the demo administrator through the API), which with the paper grant in their stock
// wallet makes them eligible. Then the clock moves (POST /test/clock/advance) into the block window of
// the paper-mode demo offer; each customer opens the block list, the offer, bids two lots with the
// transaction password, sees the bid applied with the amount held, and finds it in their block orders.
// The held amount is checked against the server's balances. Screenshots: test-results/screens/web-block-*.png.
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  customerPage,
  DEMO_STAFF,
  launchBrowser,
  type Server,
  shot,
  solveCaptcha,
  staffTotp,
  startServer,
} from './harness.ts';

const PIN = '135790';
const TEXT = {
  'en-US': { open: 'Open for bids', applied: 'Applied', myOrders: 'My block orders' },
  'pt-BR': { open: 'Aberta a lances', applied: 'Solicitada', myOrders: 'Minhas ordens em bloco' },
} as const;

let server: Server;
let browser: Browser;
const customers: Record<string, { token: string; user: { id: number }; phone: string }> = {};

async function api(path: string, body: Record<string, unknown> | null, token?: string, lang = 'en-US') {
  const res = await fetch(`${server.baseUrl}/ipor-api${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { token } : {}), lang },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as { code: number; msg: string; data: any; error?: string };
}

async function customer(phone: string) {
  const captcha = (await api('/common/captcha', null)).data;
  const reg = await api('/user/register', {
    areaCode: '91',
    phone,
    password: 'secret12',
    confirmPassword: 'secret12',
    agree: '1',
    captchaId: captcha.captchaId,
    captchaCode: await solveCaptcha(captcha.challenge),
  });
  expect(reg.code, JSON.stringify(reg)).toBe(0);
  const token = reg.data.token as string;
  const pin = await api(
    '/user/update/tradePassword',
    { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
    token,
  );
  expect(pin.code, JSON.stringify(pin)).toBe(0);
  const photo = `data:image/jpeg;base64,${(
    await sharp({ create: { width: 480, height: 300, channels: 3, background: '#dfe7f1' } })
      .jpeg()
      .toBuffer()
  ).toString('base64')}`;
  const kyc = await api(
    '/user/auth',
    { docType: 'passport', fullName: 'Block Bidder', docNumber: `P${phone.slice(-7)}`, front: photo, back: photo },
    token,
  );
  expect(kyc.code, JSON.stringify(kyc)).toBe(0);
  return { token, user: reg.data.user, phone };
}

beforeAll(async () => {
  server = await startServer({ BOURSE_TEST_CLOCK: new Date().toISOString() });
  browser = await launchBrowser();
  customers['en-US'] = await customer('9123450001');
  customers['pt-BR'] = await customer('9123450002');
  const staff = await api('/admin/auth/login', {
    username: DEMO_STAFF.username,
    password: DEMO_STAFF.password,
    totpCode: await staffTotp(),
  });
  expect(staff.code, JSON.stringify(staff)).toBe(0);
  const pending = (await api('/admin/kyc', null, staff.data.token)).data.items as { id: number; userId: number }[];
  for (const c of Object.values(customers)) {
    const item = pending.find((p) => p.userId === c.user.id);
    const decided = await api(
      `/admin/kyc/${item?.id}/decide`,
      { decision: 'approve', reason: 'Documents match' },
      staff.data.token,
    );
    expect(decided.code, JSON.stringify(decided)).toBe(0);
  }
  // Into the demo offer's block window (the next one after the server started).
  const offers = (await api('/stock/index/bulk/list', null, customers['en-US']?.token)).data.items as {
    phase: string;
    opensAt: number;
  }[];
  const coming = offers.find((o) => o.phase === 'upcoming');
  expect(coming).toBeDefined();
  const { now } = (await api('/test/clock/advance', { ms: 1 })).data;
  await api('/test/clock/advance', { ms: (coming?.opensAt ?? 0) + 60_000 - now });
  // Fresh sessions at the new time.
  for (const c of Object.values(customers)) {
    const login = await api('/user/login', { areaCode: '91', phone: c.phone, password: 'secret12' });
    expect(login.code, JSON.stringify(login)).toBe(0);
    c.token = login.data.token;
    c.user = login.data.user;
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('block trades against the real server', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    it(`an eligible new customer bids two lots in the open window and sees the amount held (${lang})`, async () => {
      const text = TEXT[lang];
      const who = customers[lang]!;
      const { context, page } = await customerPage(browser, lang, who);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(`${server.baseUrl}/pages/stockBulk/bulkList`);
        const card = page.getByTestId('block-offer').filter({ hasText: text.open }).first();
        await card.waitFor();
        expect(await page.getByTestId('block-ineligible').count()).toBe(0);
        await page.waitForTimeout(300);
        await shot(page, `web-block-list-${lang}`);

        await card.click();
        await page.getByTestId('block-offer-detail').waitFor();
        await page.getByTestId('block-lots').fill('2');
        const toHold = await page.getByTestId('block-to-hold').locator('dd').textContent();
        await shot(page, `web-block-detail-${lang}`);
        await page.getByTestId('block-bid').click();
        await page.getByTestId('confirm-sheet').waitFor();
        await page.locator('.adm-number-keyboard-key').first().waitFor();
        await page.waitForTimeout(350);
        await shot(page, `web-block-confirm-${lang}`);
        for (const digit of PIN)
          await page.locator('.adm-number-keyboard-key').getByText(digit, { exact: true }).click();

        const bid = page.getByTestId('block-bid').filter({ hasText: text.applied }).first();
        await bid.waitFor();
        await expect(bid.getByTestId('block-held').locator('dd').textContent()).resolves.toBe(toHold);
        await bid.scrollIntoViewIfNeeded();
        await page.waitForTimeout(300);
        await shot(page, `web-block-applied-${lang}`);

        // The server holds exactly the amount shown: two lots at the offer price.
        const detail = (await api('/stock/order/trade/list', null, who.token)).data.items[0];
        expect(detail).toMatchObject({ status: 'applied', quantity: '20' });
        const assets = (await api('/user/assets', {}, who.token)).data.items as {
          wallet: string;
          asset: string;
          held: string;
        }[];
        expect(assets.find((a) => a.wallet === 'stock' && a.asset === 'INR')?.held).toBe(detail.amount);

        await page.goto(`${server.baseUrl}/pages/stockBulk/bulkOrder`);
        await page.getByTestId('block-orders').getByTestId('block-bid').first().waitFor();
        await expect(page.getByTestId('block-status').first().textContent()).resolves.toBe(text.applied);
        await page.waitForTimeout(300);
        await shot(page, `web-block-orders-${lang}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 90_000);
  }
});
