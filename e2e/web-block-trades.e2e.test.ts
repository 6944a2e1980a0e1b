// Block trades end to end against the real server, in both languages, at 390×844. The server's clock
// starts at the present (the console's TOTP codes follow real time): new customers verify their identity
// (KYC approved by the demo administrator through the API), which with the paper grant in their stock
// wallet makes them eligible. The console's block desk is looked at while the clock is still real (staff
// sign-in codes follow it). The unverified demo customer is told why they cannot bid. Then the clock
// moves (POST /test/clock/advance) into the block window of the paper-mode demo offer; each customer
// opens the block list, the offer, bids two lots with the transaction password, sees the bid applied with
// the amount held (checked against the server's balances) and finds it in their block orders; after the
// window closes the bids are allotted and shown locked until T+1.
// Screenshots: test-results/screens/web-block-*.png, admin-block-*.png.
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, blocking, describeViolations } from './axe.ts';
import {
  consolePage,
  customerPage,
  launchBrowser,
  registerCustomer,
  type Server,
  shot,
  signInCustomer,
  staffApiSignIn,
  staffSignIn,
  startServer,
} from './harness.ts';

const PIN = '135790';
const TEXT = {
  'en-US': { open: 'Open for bids', applied: 'Applied', allotted: 'Allotted' },
  'pt-BR': { open: 'Aberta a lances', applied: 'Solicitada', allotted: 'Alocada' },
} as const;

/** No contrast failure and nothing serious or critical by axe (WCAG 2.0/2.1 A and AA) on the page as it is. */
async function expectAccessible(page: Page) {
  expect(describeViolations(blocking(await axeViolations(page)))).toBe('');
}

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
  const { token, user } = await registerCustomer(server, phone, { tradePassword: PIN });
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
  return { token, user, phone };
}

beforeAll(async () => {
  server = await startServer({ BOURSE_TEST_CLOCK: new Date().toISOString() });
  browser = await launchBrowser();
  customers['en-US'] = await customer('9123450001');
  customers['pt-BR'] = await customer('9123450002');
  const staffToken = await staffApiSignIn(server);
  const pending = (await api('/admin/kyc', null, staffToken)).data.items as { id: number; userId: number }[];
  for (const c of Object.values(customers)) {
    const item = pending.find((p) => p.userId === c.user.id);
    const decided = await api(
      `/admin/kyc/${item?.id}/decide`,
      { decision: 'approve', reason: 'Documents match' },
      staffToken,
    );
    expect(decided.code, JSON.stringify(decided)).toBe(0);
  }
}, 120_000);

/** Moves the server's clock forward to `at` (if it is not there yet) and signs the customers in afresh. */
async function moveTo(at: number) {
  const { now } = (await api('/test/clock/advance', { ms: 1 })).data;
  if (at > now) await api('/test/clock/advance', { ms: at - now });
  for (const c of Object.values(customers)) {
    const login = await api('/user/login', { areaCode: '91', phone: c.phone, password: 'secret12' });
    expect(login.code, JSON.stringify(login)).toBe(0);
    c.token = login.data.token;
    c.user = login.data.user;
  }
}

/** The paper-mode demo offer still to come when the server started. */
async function demoOffer(): Promise<{ id: number; opensAt: number; closesAt: number }> {
  const offers = (await api('/stock/index/bulk/list', null, customers['en-US']?.token)).data.items as {
    id: number;
    phase: string;
    opensAt: number;
    closesAt: number;
  }[];
  const coming = offers.find((o) => o.phase === 'upcoming' || o.phase === 'open' || o.phase === 'closed');
  if (!coming) throw new Error('no demo offer to bid on');
  return coming;
}

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('block trades against the real server', () => {
  it('the console desk lists the offers with their band, window and seller, and the coming windows (both languages)', async () => {
    for (const lang of ['en-US', 'pt-BR'] as const) {
      // The test clock stands still while the customers are prepared; staff sign-in codes follow the real
      // time, so the server's clock is brought up to it first (on a slow machine that took over a minute).
      const { now } = (await api('/test/clock/advance', { ms: 1 })).data;
      if (Date.now() > now) await api('/test/clock/advance', { ms: Date.now() - now });
      const page = await consolePage(browser, lang);
      try {
        await staffSignIn(page, server);
        await page.goto(`${server.baseUrl}/admin/block-trades`);
        await page.getByTestId('block-offers-table').locator('tbody tr').nth(1).waitFor();
        await page.waitForTimeout(400);
        await shot(page, `admin-block-desk-${lang}`);
        await page.getByTestId('block-new').click();
        await page.getByTestId('block-window').click();
        await page.locator('.ant-select-item-option').first().waitFor();
        await page.waitForTimeout(300);
        await shot(page, `admin-block-create-${lang}`);
      } finally {
        await page.context().close();
      }
    }
  }, 180_000);

  it('a customer without verified identity is told why they cannot bid (both languages)', async () => {
    for (const lang of ['en-US', 'pt-BR'] as const) {
      const { context, page } = await customerPage(browser, lang, await signInCustomer(server));
      try {
        await page.goto(`${server.baseUrl}/pages/stockBulk/bulkList`);
        await page.getByTestId('block-ineligible').waitFor();
        await page.waitForTimeout(300);
        await shot(page, `web-block-ineligible-${lang}`);
        await expectAccessible(page);
      } finally {
        await context.close();
      }
    }
  }, 60_000);

  for (const lang of ['en-US', 'pt-BR'] as const) {
    it(`an eligible new customer bids two lots in the open window and sees the amount held (${lang})`, async () => {
      const text = TEXT[lang];
      const offer = await demoOffer();
      await moveTo(offer.opensAt + 60_000);
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
        await expectAccessible(page);

        await card.click();
        await page.getByTestId('block-offer-detail').waitFor();
        await page.getByTestId('block-lots').fill('2');
        const toHold = await page.getByTestId('block-to-hold').locator('dd').textContent();
        await shot(page, `web-block-detail-${lang}`);
        await expectAccessible(page);
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
        // The "bid placed" toast fades out first: mid-fade its colours are neither the toast's nor the page's.
        await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
        await expectAccessible(page);

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
        await expectAccessible(page);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 90_000);
  }

  it('after the window closes each bid is allotted, locked until T+1 (both languages)', async () => {
    const offer = await demoOffer();
    await moveTo(offer.closesAt + 60_000);
    for (const lang of ['en-US', 'pt-BR'] as const) {
      const who = customers[lang]!;
      const order = (await api('/stock/order/trade/list', null, who.token)).data.items[0];
      // 40 shares bid for 2,000 offered: undersubscribed, so each bid is allotted in full.
      expect(order).toMatchObject({ status: 'allotted', allottedQuantity: '20', locked: true, released: '0.00' });
      const { context, page } = await customerPage(browser, lang, who);
      try {
        await page.goto(`${server.baseUrl}/pages/stockBulk/bulkOrder`);
        await expect(page.getByTestId('block-status').first().textContent()).resolves.toBe(TEXT[lang].allotted);
        await page.waitForTimeout(300);
        await shot(page, `web-block-allotted-${lang}`);
        await expectAccessible(page);
      } finally {
        await context.close();
      }
    }
  }, 90_000);
});
