// Coin offerings (the launchpad) end to end against the real server in paper mode, in both languages at
// 390×844. The server seeds its demo launchpad (ORBT open, TERA upcoming, LUMA finished and listed). A new
// customer with paper mode's 10,000 USDT opens the launchpad, reads the open offering (the allotment rule
// and the risks are on the page), commits 100 USDT after the transaction password and sees it held in
// "My applications". In English she cancels it (the USDT is released); in Portuguese the server's clock
// moves past the close: the allotment (all 500 ORBT, nothing to return: undersubscribed) shows in her
// applications and the new ORBT/USDT pair opens from the offering. Screenshots:
// test-results/screens/web-coin-offerings-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  consolePage,
  customerPage,
  launchBrowser,
  registerCustomer,
  type Server,
  shot,
  staffSignIn,
  startServer,
} from './harness.ts';

const PIN = '135790';
const DAY = 86_400_000;

const TEXT = {
  'en-US': { subscribed: 'Subscribed (USDT held)', cancelled: 'Cancelled', allotted: 'Allotted', risk: 'high risk' },
  'pt-BR': {
    subscribed: 'Subscrito (USDT reservado)',
    cancelled: 'Cancelado',
    allotted: 'Alocado',
    risk: 'alto risco',
  },
} as const;

let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ BOURSE_TEST_CLOCK: '2026-01-05T04:00:00Z', CRYPTO_SCAN_EVERY_MS: '0' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const api = (path: string, body: Record<string, string> | null, token?: string) =>
  apiCall(server, path, body, { token });

async function spot(token: string, asset: string): Promise<{ available: string; held: string }> {
  const items = (await api('/coin/assets', {}, token)).data.spot as {
    asset: string;
    available: string;
    held: string;
  }[];
  return items.find((b) => b.asset === asset) ?? { available: '0', held: '0' };
}

async function customer(phone: string) {
  const { token, user } = await registerCustomer(server, phone, { tradePassword: PIN });
  await expect.poll(async () => (await spot(token, 'USDT')).available, { timeout: 15_000 }).toBe('10000.000000');
  return { token, user };
}

async function enterPin(page: Page, pin: string) {
  await page.getByTestId('confirm-sheet').waitFor();
  await page.locator('.adm-number-keyboard-key').first().waitFor();
  await page.waitForTimeout(350);
  for (const digit of pin) await page.locator('.adm-number-keyboard-key').getByText(digit, { exact: true }).click();
}

describe('coin offerings against the real server', () => {
  for (const [n, lang] of (['en-US', 'pt-BR'] as const).entries()) {
    const text = TEXT[lang];
    it(`commits USDT to the open offering and sees it in the applications, then ${n === 0 ? 'cancels it' : 'sees the allotment'} (${lang})`, async () => {
      const { token, user } = await customer(`90000009${n}1`);
      const { page } = await customerPage(browser, lang, { token, user });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(`${server.baseUrl}/pages/coinICO/icoList`);
        const card = page.getByTestId('ico-card').filter({ hasText: 'ORBT' });
        await card.waitFor();
        await shot(page, `web-coin-offerings-list-${lang}`);
        await page.getByTestId('ico-tabs').getByRole('tab').nth(2).click();
        await page.getByTestId('ico-card').filter({ hasText: 'LUMA' }).waitFor();
        await page.getByTestId('ico-card').filter({ hasText: 'TERA' }).waitFor();
        await shot(page, `web-coin-offerings-all-${lang}`);

        await page.getByTestId('ico-card').filter({ hasText: 'ORBT' }).click();
        await page.getByTestId('ico-apply').waitFor();
        expect(await page.getByTestId('ico-risk').textContent()).toContain(text.risk);
        await shot(page, `web-coin-offerings-detail-${lang}`);

        await page.getByTestId('ico-apply').click();
        await page.locator('.ico-field input').fill('100');
        await page.getByTestId('ico-estimate').waitFor();
        await shot(page, `web-coin-offerings-order-${lang}`);
        await page.getByTestId('ico-submit').click();
        await enterPin(page, PIN);
        await page.waitForURL(/\/pages\/coinICO\/applyList/);
        const row = page.getByTestId('commitment').filter({ hasText: 'ORBT' });
        await row.getByTestId('commitment-status').getByText(text.subscribed).waitFor();
        expect(await spot(token, 'USDT')).toMatchObject({ available: '9900.000000', held: '100.000000' });
        await shot(page, `web-coin-offerings-applied-${lang}`);

        if (n === 0) {
          await row.getByTestId('commitment-cancel').click();
          await page.locator('.adm-dialog-footer .adm-dialog-action-row button').last().click();
          await row.getByTestId('commitment-status').getByText(text.cancelled).waitFor();
          await expect.poll(async () => (await spot(token, 'USDT')).held).toBe('0.000000');
          expect((await spot(token, 'USDT')).available).toBe('10000.000000');
          await page.locator('.adm-dialog').waitFor({ state: 'hidden' });
          await shot(page, `web-coin-offerings-cancelled-${lang}`);
        } else {
          // Past the close: the server allots (undersubscribed: all 500 ORBT) and lists ORBT/USDT.
          const moved = await api('/test/clock/advance', { ms: String(8 * DAY) });
          expect(moved.code, JSON.stringify(moved)).toBe(0);
          await page.reload();
          await row.getByTestId('commitment-status').getByText(text.allotted).waitFor();
          expect(await row.getByTestId('commitment-allotted').textContent()).toContain('500');
          expect(await row.getByTestId('commitment-refunded').textContent()).toMatch(/0[.,]00/);
          expect(await spot(token, 'ORBT')).toMatchObject({ available: '500.00000000', held: '0.00000000' });
          expect(await spot(token, 'USDT')).toMatchObject({ available: '9900.000000', held: '0.000000' });
          await shot(page, `web-coin-offerings-allotted-${lang}`);
          await row.getByRole('link').first().click();
          await page.getByTestId('ico-trade').click();
          await page.waitForURL(/\/pages\/coin\/index\?symbol=ORBTUSDT/);
          await page.getByTestId('spot-form').waitFor();
          await shot(page, `web-coin-offerings-pair-${lang}`);
        }
        expect(errors).toEqual([]);
      } finally {
        await page.context().close();
      }
    }, 120_000);
  }
});

describe('the console launchpad desk', () => {
  // Staff sign in with a TOTP code of the real time: this server keeps the real clock.
  let desk: Server;
  beforeAll(async () => {
    desk = await startServer({ CRYPTO_SCAN_EVERY_MS: '0' });
  });
  afterAll(async () => {
    await desk?.stop();
  });
  for (const [lang, menu, listed] of [
    ['en-US', 'Launchpad', 'Listed'],
    ['pt-BR', 'Launchpad', 'Listada'],
  ] as const) {
    it(`${lang}: lists the offerings with their terms and, for one, its commitments and allocation`, async () => {
      const page = await consolePage(browser, lang);
      await staffSignIn(page, desk);
      await page.getByTestId('side-menu').getByRole('link', { name: menu }).click();
      await page.waitForURL(/\/admin\/launchpad$/);
      const table = page.getByTestId('launchpad-table');
      await table.locator('tbody tr.ant-table-row').nth(2).waitFor();
      const text = (await table.textContent()) ?? '';
      for (const symbol of ['ORBT', 'TERA', 'LUMA']) expect(text).toContain(symbol);
      expect(text).toContain(listed);
      // The finished offering's commitments: the demo customer's, allotted (read-only).
      await table
        .locator('tbody tr.ant-table-row')
        .filter({ hasText: 'LUMA' })
        .locator('.ant-table-row-expand-icon')
        .click();
      const expanded = table.locator('.ant-table-expanded-row tbody tr.ant-table-row').first();
      await expanded.waitFor();
      expect(await expanded.textContent()).toContain('10,000'.replace(',', lang === 'en-US' ? ',' : '.'));
      await expanded.scrollIntoViewIfNeeded();
      await page.waitForTimeout(400);
      await shot(page, `admin-launchpad-${lang}`);
      await page.context().close();
    }, 90_000);
  }
});
