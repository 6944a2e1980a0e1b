// Proves fiat deposits end to end against the real server, once per language, at 390×844: a fresh
// customer makes a PIX deposit (BRL), taps paper mode's "simulate payment" (the sandbox provider pays
// through the signed webhook) and sees the balance in the app raised by exactly the amount; then makes an
// offline deposit (INR) with a reference and a receipt photo, the demo administrator confirms it in the
// console's deposits desk with a written reason, and the app shows it credited with its history.
// Screenshots: test-results/screens/web-deposits-<lang>-*.png and admin-deposits-<lang>-*.png.

import type { Lang } from '@bourse/contract';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  blockingAxeViolations,
  customerPage,
  launchBrowser,
  consolePage as openConsolePage,
  registerCustomer,
  type Server,
  shot,
  staffSignIn,
  startServer,
} from './harness.ts';

let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const api = (path: string, body: Record<string, string> | null, token?: string) =>
  apiCall(server, path, body, { token });

async function stockBalance(token: string, asset: string): Promise<string> {
  const items = (await api('/user/assets', {}, token)).data.items as {
    wallet: string;
    asset: string;
    balance: string;
  }[];
  return items.find((i) => i.wallet === 'stock' && i.asset === asset)?.balance ?? '0';
}

const receipt = () =>
  sharp({ create: { width: 360, height: 480, channels: 3, background: '#f4f1e8' } })
    .jpeg()
    .toBuffer();

const TEXT = {
  'en-US': { pixAmount: '123.45', credited: 'Credited', pending: 'Under review', confirm: 'Confirm' },
  'pt-BR': { pixAmount: '123,45', credited: 'Creditado', pending: 'Em análise', confirm: 'Confirmar' },
} as const;

describe.each(['en-US', 'pt-BR'] as const)('deposits (%s)', (lang: Lang) => {
  it('a PIX deposit raises the balance; an offline deposit confirmed in the console shows as credited', async () => {
    const text = TEXT[lang];
    const session = await registerCustomer(server, lang === 'en-US' ? '9123450001' : '9123450002');
    const { context, page } = await customerPage(browser, lang, session);
    try {
      // An empty record list says what to do next.
      await page.goto(`${server.baseUrl}/pages/recharge/rechargeRecord`);
      await page.getByText(lang === 'en-US' ? 'No deposits yet' : 'Nenhum depósito ainda').waitFor();
      await shot(page, `web-deposits-${lang}-00-no-records`);
      // A US bank wire shows its sandbox account with SWIFT and routing number.
      await page.goto(`${server.baseUrl}/pages/recharge/bankRecharge?currency=USD`);
      await page.getByTestId('deposit-account').getByText('SBOXUS00XXX').waitFor();
      await shot(page, `web-deposits-${lang}-00-usd-wire`);

      // --- PIX ---
      await page.goto(`${server.baseUrl}/pages/recharge/recharge`);
      await page.getByTestId('deposit-currency-BRL').waitFor();
      await shot(page, `web-deposits-${lang}-01-currency`);
      await page.getByTestId('deposit-currency-BRL').click();
      await page.getByTestId('deposit-rail-pix').waitFor();
      await shot(page, `web-deposits-${lang}-02-channels`);
      expect(await blockingAxeViolations(page)).toEqual([]);
      await page.getByTestId('deposit-rail-pix').click();
      await page.getByTestId('pix-amount').locator('input').fill(text.pixAmount);
      await shot(page, `web-deposits-${lang}-02b-pix-form`);
      await page.getByTestId('pix-form').locator('button[type=submit]').click();
      await page.getByTestId('pix-panel').waitFor();
      await page.getByTestId('pix-countdown').waitFor();
      await shot(page, `web-deposits-${lang}-03-pix-code`);
      expect(await blockingAxeViolations(page)).toEqual([]);
      expect(await stockBalance(session.token, 'BRL')).toBe('50000.00');
      await page.getByTestId('pix-simulate').click();
      await page.locator('[data-testid=deposit-detail] [data-status=confirmed]').first().waitFor();
      expect(await page.getByTestId('deposit-status').first().textContent()).toBe(text.credited);
      await shot(page, `web-deposits-${lang}-04-pix-credited`);
      expect(await stockBalance(session.token, 'BRL')).toBe('50123.45');
      await page.getByTestId('deposit-assets-link').click();
      const totals = page.getByTestId('asset-totals');
      await totals.waitFor();
      await expect.poll(async () => (await totals.textContent())?.replace(/\u00a0/g, ' ')).toContain('R$ 50.123,45');
      await shot(page, `web-deposits-${lang}-05-balance`);

      // --- offline deposit, confirmed by finance ---
      await page.goto(`${server.baseUrl}/pages/recharge/offlineRecharge?currency=INR`);
      await page.getByTestId('deposit-account').waitFor();
      await shot(page, `web-deposits-${lang}-06-offline-form`);
      const reference = `UTR${lang === 'en-US' ? '1111' : '2222'}0001`;
      await page.getByTestId('deposit-amount').locator('input').fill('5000');
      await page.getByTestId('deposit-reference').locator('input').fill(reference);
      await page
        .getByTestId('deposit-proof')
        .locator('input[type=file]')
        .setInputFiles({ name: 'receipt.jpg', mimeType: 'image/jpeg', buffer: await receipt() });
      await page.locator('.adm-image-uploader-cell img').first().waitFor();
      await shot(page, `web-deposits-${lang}-07-offline-filled`);
      expect(await blockingAxeViolations(page)).toEqual([]);
      await page.getByTestId('deposit-form').locator('button[type=submit]').click();
      await page.locator('[data-testid=deposit-detail] [data-status=pending]').first().waitFor();
      await page.getByTestId('deposit-proof-image').waitFor();
      await shot(page, `web-deposits-${lang}-08-offline-pending`);

      const desk = await openConsolePage(browser, lang);
      try {
        await staffSignIn(desk, server);
        await desk.goto(`${server.baseUrl}/admin/deposits`);
        const card = desk.locator('[data-testid^=deposit-item-]').filter({ hasText: reference });
        await card.waitFor();
        await card.getByTestId('deposit-proof').waitFor();
        await shot(desk, `admin-deposits-${lang}-01-pending`);
        await card.getByTestId('deposit-confirm').click();
        await desk.getByTestId('reason-input').fill('Found on the bank statement with this reference');
        await desk.waitForTimeout(400); // the dialog's opening animation
        await shot(desk, `admin-deposits-${lang}-02-confirm`);
        await desk.getByTestId('reason-confirm').click();
        await card.waitFor({ state: 'detached' });
      } finally {
        await desk.context().close();
      }

      await page.reload();
      await page.locator('[data-testid=deposit-detail] [data-status=confirmed]').first().waitFor();
      const history = await page.getByTestId('deposit-history').textContent();
      expect(history).toContain('Found on the bank statement with this reference');
      await shot(page, `web-deposits-${lang}-09-offline-credited`);
      expect(await blockingAxeViolations(page)).toEqual([]);
      expect(await stockBalance(session.token, 'INR')).toBe('1005000.00');

      await page.goto(`${server.baseUrl}/pages/recharge/rechargeRecord`);
      await page.getByTestId('deposit-list').waitFor();
      expect(await page.getByTestId('deposit-row').count()).toBe(2);
      await shot(page, `web-deposits-${lang}-10-records`);
      expect(await blockingAxeViolations(page)).toEqual([]);
      await page.goto(`${server.baseUrl}/pages/recharge/bankRecord`);
      await page.getByTestId('deposit-list').waitFor();
      await shot(page, `web-deposits-${lang}-11-bank-records`);
    } finally {
      await context.close();
    }
  });
});
