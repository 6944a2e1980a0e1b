// Proves the staff console's crypto liquidity page against the real server, in both languages: an
// administrator opens it from the side menu and sees every pair's liquidity account with its ten
// quotes, its coin and USDT, and the book's best prices. Photographed on a laptop and a phone screen.

import type { Lang } from '@bourse/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePage, launchBrowser, type Server, shot, staffSignIn, startServer } from './harness.ts';

const TEXT = {
  'en-US': { menu: 'Crypto liquidity', title: 'Crypto liquidity', openOrders: 'Open orders' },
  'pt-BR': { menu: 'Liquidez cripto', title: 'Liquidez cripto', openOrders: 'Ordens abertas' },
} as const satisfies Record<Lang, Record<string, string>>;

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

describe('crypto liquidity page', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    const text = TEXT[lang];
    it(`${lang}: lists every pair's liquidity account with its quotes and balances`, async () => {
      const page = await consolePage(browser, lang);
      await staffSignIn(page, server);
      await page.getByTestId('side-menu').getByRole('link', { name: text.menu }).click();
      await page.waitForURL(/\/admin\/liquidity$/);
      const table = page.getByTestId('liquidity-pairs');
      await table.locator('tbody tr.ant-table-row').first().waitFor();
      expect(await table.locator('tbody tr.ant-table-row').count()).toBeGreaterThanOrEqual(10);
      expect(await table.textContent()).toContain('mm:CRYPTO:BTCUSDT');
      expect(await table.locator('thead').textContent()).toContain(text.openOrders);
      expect(await page.getByRole('heading', { level: 3 }).textContent()).toBe(text.title);
      await page.waitForTimeout(400);
      await shot(page, `admin-liquidity-${lang}-1-desktop`);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(400);
      await shot(page, `admin-liquidity-${lang}-2-phone`);
      await page.context().close();
    });
  }
});
