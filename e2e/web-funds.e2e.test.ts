// The customer's profile, assets and funds records end to end against the real server, in both
// languages, at 390×844: the demo customer (granted paper money at start-up, so ledger lines exist)
// opens user/userInfo and changes the nickname, user/assets (totals per currency, one line per wallet and
// asset, no amount wrapping), fundsDetail/index (filtered by asset) and one wallet/recordDetail.
// Screenshots: test-results/screens/web-funds-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerPage, launchBrowser, type Server, shot, signInCustomer, startServer } from './harness.ts';

const TEXT = {
  'en-US': {
    profile: 'My profile',
    nickname: 'Nickname',
    notSet: 'Not set',
    save: 'Save',
    saved: 'Nickname saved',
    kyc: 'Not verified',
    assets: 'Assets',
    totalInr: 'Total INR',
    records: 'Funds records',
    fundsTitle: 'Fund details',
    grant: 'Virtual money grant',
    detailTitle: 'Record details',
    reference: 'Reference',
  },
  'pt-BR': {
    profile: 'Meu perfil',
    nickname: 'Apelido',
    notSet: 'Não definido',
    save: 'Salvar',
    saved: 'Apelido salvo',
    kyc: 'Não verificado',
    assets: 'Patrimônio',
    totalInr: 'Total em INR',
    records: 'Extrato',
    fundsTitle: 'Extrato',
    grant: 'Crédito de dinheiro virtual',
    detailTitle: 'Detalhes',
    reference: 'Referência',
  },
} as const;

let server: Server;
let browser: Browser;
let demo: { token: string; user: unknown };

beforeAll(async () => {
  // No demo IPOs or coin offerings: they pay for the demo customer's allotments; this test reads the paper
  // grants as granted.
  server = await startServer({ IPO_DEMO: '0', DEMO_LAUNCHPAD: '0' });
  browser = await launchBrowser();
  demo = await signInCustomer(server);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Every amount on the page stays on one line and inside its box. */
async function expectNoWrappedAmounts(page: Page) {
  const wrapped = await page.locator('.amount').evaluateAll((nodes) =>
    nodes
      .filter((n) => {
        // The browser's global, typed here since the e2e project has no DOM globals.
        const { getComputedStyle } = globalThis as unknown as {
          getComputedStyle: (node: unknown) => { lineHeight: string; fontSize: string };
        };
        const style = getComputedStyle(n);
        const lineHeight = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.5;
        return n.getClientRects().length > 1 || n.getBoundingClientRect().height > lineHeight * 1.5;
      })
      .map((n) => n.textContent),
  );
  expect(wrapped).toEqual([]);
}

describe('customer profile, assets and funds records (real server)', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    it(`shows the profile, assets, records and one record (${lang})`, async () => {
      const text = TEXT[lang];
      const nickname = lang === 'en-US' ? 'Demo Asha' : 'Asha Demo';
      const { context, page } = await customerPage(browser, lang, demo);
      try {
        // Profile: the demo customer's phone, verification and links; the nickname is changed.
        await page.goto(`${server.baseUrl}/pages/user/userInfo`);
        await page.getByTestId('profile-phone').getByText('+91 9876543210').waitFor();
        await expect.poll(() => page.getByTestId('profile-kyc').textContent()).toBe(text.kyc);
        for (const href of [
          '/pages/user/kyc',
          '/pages/wallet/bankList',
          '/pages/user/security',
          '/pages/user/assets',
        ]) {
          expect(await page.locator(`a[href="${href}"]`).count(), href).toBeGreaterThan(0);
        }
        await shot(page, `web-funds-profile-${lang}`);
        await page.getByTestId('edit-nickname').click();
        const input = page.getByTestId('nickname-form').locator('input');
        await input.fill(nickname);
        // The sheet has finished sliding up when it rests on the bottom edge.
        await expect
          .poll(async () => {
            const box = await page.locator('.adm-popup-body.sheet').boundingBox();
            return box ? Math.round(box.y + box.height) : 0;
          })
          .toBe(844);
        await shot(page, `web-funds-nickname-${lang}`);
        await page.getByRole('button', { name: text.save }).click();
        await page.getByText(text.saved).waitFor();
        // The toast fades out before the next screenshots.
        await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
        await expect.poll(() => page.getByTestId('profile-nickname').textContent()).toBe(nickname);
        await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe(nickname);

        // Assets: totals per currency, then one row per wallet and asset linking to its records.
        await page.locator('a[href="/pages/user/assets"]').click();
        await page.getByRole('region', { name: text.totalInr }).waitFor();
        await expect
          .poll(() => page.getByRole('region', { name: text.totalInr }).locator('.account-card-x__total').textContent())
          .toBe('₹10,00,000.00');
        expect(await page.getByTestId('asset-row').count()).toBeGreaterThanOrEqual(3);
        await expectNoWrappedAmounts(page);
        await shot(page, `web-funds-assets-${lang}`);

        // Funds records: the four paper grants (three currencies, and USDT for crypto), then only the USD one.
        await page.getByTestId('records-link').click();
        await expect.poll(() => page.getByTestId('ledger-line').count()).toBe(4);
        await expect.poll(() => page.getByTestId('ledger-line').first().textContent()).toContain(text.grant);
        // The grants were made at one instant: one clock shows them at one time.
        const times = await page.locator('[data-testid="ledger-line"] .ledger-row__time').allTextContents();
        expect(new Set(times).size).toBe(1);
        await expectNoWrappedAmounts(page);
        await shot(page, `web-funds-records-${lang}`);
        await page.getByTestId('filter-asset').getByRole('button', { name: 'USD', exact: true }).click();
        await expect.poll(() => page.getByTestId('ledger-line').count()).toBe(1);
        expect(page.url()).toContain('asset=USD');
        await expect.poll(() => page.getByTestId('ledger-line').textContent()).toContain('+$10,000.00');
        await shot(page, `web-funds-records-usd-${lang}`);

        // One record in full: its cause, amount, time and reference.
        await page.getByTestId('ledger-line').click();
        await page.getByTestId('record-detail').waitFor();
        expect(page.url()).toContain('/pages/wallet/recordDetail?id=');
        await expect.poll(() => page.getByTestId('record-cause').textContent()).toBe(text.grant);
        await expect.poll(() => page.getByTestId('record-headline').textContent()).toBe('+$10,000.00');
        expect(await page.getByTestId('record-amount').textContent()).toBe('+$10,000.00');
        expect(await page.getByTestId('record-link').textContent()).not.toBe('');
        expect(await page.getByTestId('record-time').textContent()).toMatch(/\d{2}-\d{2}-\d{4} \d{2}:\d{2}/);
        await page.getByText(text.reference).waitFor();
        await expectNoWrappedAmounts(page);
        await shot(page, `web-funds-record-${lang}`);
      } finally {
        await context.close();
      }
    });
  }
});
