// Proves the staff console's IPO desk against the real paper server, in both languages: an administrator
// opens it from the side menu and sees the demo IPOs (one drawn, one open, one upcoming) with their
// states; the drawn one expands to its subscription by category, the revealed seed and the draw's
// summary. Nothing on the desk names or picks an allottee. Photographed on a laptop and a phone screen.

import type { Lang } from '@bourse/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePage, launchBrowser, type Server, shot, staffSignIn, startServer } from './harness.ts';

const TEXT = {
  'en-US': {
    menu: 'IPO desk',
    allotted: 'Allotted',
    open: 'Open',
    upcoming: 'Upcoming',
    retail: 'Retail (online)',
    summary: 'One lot each plus a proportionate remainder: 1 allottees among 1 valid retail applications',
  },
  'pt-BR': {
    menu: 'Mesa de IPO',
    allotted: 'Alocado',
    open: 'Aberto',
    upcoming: 'Em breve',
    retail: 'Varejo (online)',
    summary: 'Um lote para cada mais o restante proporcional: 1 alocados entre 1 pedidos válidos do varejo',
  },
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

describe('IPO desk', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    const text = TEXT[lang];
    it(`${lang}: lists the IPOs with their states and shows a drawn one's subscription and draw`, async () => {
      const page = await consolePage(browser, lang);
      await staffSignIn(page, server);
      await page.getByTestId('side-menu').getByRole('link', { name: text.menu }).click();
      await page.waitForURL(/\/admin\/ipo$/);
      await page.getByRole('heading', { level: 3, name: text.menu }).waitFor();
      const table = page.getByTestId('ipo-table');
      await table.locator('tbody tr.ant-table-row').nth(2).waitFor();
      const rows = await table.locator('tbody tr.ant-table-row').allTextContents();
      expect(rows.join('\n')).toContain('NSE:SURYAPWR');
      for (const state of [text.allotted, text.open, text.upcoming]) expect(rows.join('\n')).toContain(state);
      await shot(page, `admin-ipo-${lang}-1-desktop`);

      // The drawn IPO: subscription by category, the seed revealed, the draw's summary.
      const drawn = table.locator('tbody tr.ant-table-row', { hasText: 'SURYAPWR' });
      await drawn.locator('.ant-table-row-expand-icon').click();
      await page.getByText(text.summary).waitFor();
      expect(await page.locator('[data-testid^="ipo-subscription-"]').first().textContent()).toContain(text.retail);
      await page.getByText(text.summary).scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await shot(page, `admin-ipo-${lang}-2-drawn`);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(400);
      await shot(page, `admin-ipo-${lang}-3-phone`);
      await page.context().close();
    }, 120_000);
  }
});
