// The staff console's AI funds desk against the real paper server, in both languages: the demo
// administrator opens it from the side menu, sees the demo fund (offered), creates a low-volatility
// fund, which waits for another staff member's approval (the shared second-approval buttons are
// disabled for its creator). Nothing on the desk sets a valuation. Screenshots:
// test-results/screens/admin-funds-ai-*.png.
import type { Lang } from '@bourse/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePage, launchBrowser, type Server, shot, staffSignIn, startServer } from './harness.ts';

const TEXT = {
  'en-US': { menu: 'AI funds', offered: 'Offered', waiting: 'Waiting for approval' },
  'pt-BR': { menu: 'Fundos de IA', offered: 'Oferecido', waiting: 'Aguardando aprovação' },
} as const satisfies Record<Lang, Record<string, string>>;

let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ IPO_DEMO: '0', DEMO_LAUNCHPAD: '0', ROBOTS_DEMO: '0' });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('AI funds desk', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    const text = TEXT[lang];
    it(`${lang}: lists the funds and creates one that waits for a second staff member`, async () => {
      const page = await consolePage(browser, lang);
      await staffSignIn(page, server);
      await page.getByTestId('side-menu').getByRole('link', { name: text.menu }).click();
      await page.waitForURL(/\/admin\/ai-funds$/);
      const table = page.getByTestId('ai-funds-table');
      const demo = table.locator('tbody tr.ant-table-row', { hasText: 'BSE momentum 3' });
      await demo.waitFor();
      await expect(demo.textContent()).resolves.toContain(text.offered);
      await shot(page, `admin-funds-ai-${lang}-list`);

      await page.getByTestId('ai-funds-new').click();
      await page.getByTestId('ai-funds-name').fill(`Low vol ${lang}`);
      await page.waitForTimeout(400); // the modal's opening animation
      await shot(page, `admin-funds-ai-${lang}-create`);
      await page.getByTestId('ai-funds-create-submit').click();
      const row = table.locator('tbody tr.ant-table-row', { hasText: `Low vol ${lang}` });
      await row.waitFor();
      await expect(row.textContent()).resolves.toContain(text.waiting);
      const id = (await row.locator('td').first().textContent())?.trim();
      await expect(page.getByTestId(`ai-funds-approve-${id}`).isDisabled()).resolves.toBe(true);
      await page.waitForTimeout(300);
      await shot(page, `admin-funds-ai-${lang}-created`);
      await page.context().close();
    }, 60_000);
  }
});
