// The staff console's robots desk against the real paper server, in both languages: the demo
// administrator opens it from the side menu, sees the demo templates (offered, each with its measured
// back-test figure), creates a grid template, which waits for another staff member's approval (its own
// approve and reject buttons are disabled), and opens the reason dialog to retire one. Nothing on the desk sets a run's results. Screenshots:
// test-results/screens/admin-robots-*.png.
import type { Lang } from '@bourse/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePage, launchBrowser, type Server, shot, staffSignIn, startServer } from './harness.ts';

const TEXT = {
  'en-US': { menu: 'Robots', offered: 'Offered', waiting: 'Waiting for approval', retire: 'Retire BTC grid' },
  'pt-BR': { menu: 'Robôs', offered: 'Oferecido', waiting: 'Aguardando aprovação', retire: 'Retirar BTC grid' },
} as const satisfies Record<Lang, Record<string, string>>;

let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ IPO_DEMO: '0', DEMO_LAUNCHPAD: '0' });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('robots desk', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    const text = TEXT[lang];
    it(`${lang}: lists the templates and creates one that waits for a second staff member`, async () => {
      const page = await consolePage(browser, lang);
      await staffSignIn(page, server);
      await page.getByTestId('side-menu').getByRole('link', { name: text.menu }).click();
      await page.waitForURL(/\/admin\/robots$/);
      const table = page.getByTestId('robots-table');
      await table.locator('tbody tr.ant-table-row').nth(2).waitFor();
      expect((await table.locator('tbody tr.ant-table-row').allTextContents()).join('\n')).toContain(text.offered);
      await shot(page, `admin-robots-${lang}-list`);

      await page.getByTestId('robots-new').click();
      await page.getByTestId('robots-name').fill(`Grid ${lang}`);
      await page.getByTestId('robots-low').fill('90000');
      await page.getByTestId('robots-high').fill('100000');
      await page.getByTestId('robots-min').fill('300');
      await page.getByTestId('robots-max').fill('10000');
      await shot(page, `admin-robots-${lang}-create`);
      await page.getByTestId('robots-create-submit').click();
      const row = table.locator('tbody tr.ant-table-row', { hasText: `Grid ${lang}` });
      await row.waitFor();
      await expect(row.textContent()).resolves.toContain(text.waiting);
      // The creator cannot approve or reject their own template.
      const id = (await row.locator('td').first().textContent()) ?? '';
      await expect(page.getByTestId(`robots-approve-${id}`).isDisabled()).resolves.toBe(true);
      await expect(page.getByTestId(`robots-reject-${id}`).isDisabled()).resolves.toBe(true);
      await page.waitForTimeout(300);
      await shot(page, `admin-robots-${lang}-created`);
      // A change of an offered template opens the form filled with its terms.
      const offered = table.locator('tbody tr.ant-table-row', { hasText: 'BTC grid' });
      await offered.getByRole('button').first().click();
      await page.getByTestId('robots-name').waitFor();
      await expect(page.getByTestId('robots-name').inputValue()).resolves.toBe('BTC grid');
      await page.waitForTimeout(400); // the modal's opening animation
      await shot(page, `admin-robots-${lang}-change`);
      await page.keyboard.press('Escape');
      await page.getByTestId('robots-name').waitFor({ state: 'detached' });
      // Retiring asks for a reason in the shared dialog: its title names the template, its button is red.
      await offered.getByRole('button').last().click();
      const dialog = page.getByRole('dialog', { name: text.retire });
      await dialog.waitFor();
      await expect(page.getByTestId('reason-confirm').getAttribute('class')).resolves.toContain('ant-btn-dangerous');
      // It says the template's parameters, as its row does.
      const params = (await offered.locator('td').nth(3).textContent()) ?? '';
      expect(params).not.toBe('');
      await expect(dialog.textContent()).resolves.toContain(params);
      await page.waitForTimeout(400); // the modal's opening animation
      await shot(page, `admin-robots-${lang}-retire`);
      await dialog.getByRole('button', { name: lang === 'en-US' ? 'Cancel' : 'Cancelar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.context().close();
    }, 60_000);
  }
});
