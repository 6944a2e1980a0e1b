// VIP membership end to end against the real server, in both languages, at 390×844: a new customer opens
// VIP from the Mine tab (not a member: the advice posts are closed), claims the free trial ("VIP
// received"), sees the members-only advice post a staff member published (labelled as education), then
// buys 30 days with the transaction password (a renewal: it starts when the trial ends) and sees the
// paid period and the price gone from the stock wallet. The console's VIP desk is looked at in both
// languages. axe-core checks each app screen. Screenshots: test-results/screens/web-vip-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  blockingAxeViolations,
  consolePage,
  launchBrowser,
  phonePage,
  registerCustomer,
  type Server,
  shot,
  staffApiSignIn,
  staffSignIn,
  startServer,
} from './harness.ts';

const PIN = '135790';
const TEXT = {
  'en-US': { received: 'VIP received', purchased: 'Membership purchased', trial: 'Free trial', member: 'Member' },
  'pt-BR': {
    received: 'VIP recebido',
    purchased: 'Assinatura comprada',
    trial: 'Avaliação gratuita',
    member: 'Assinante',
  },
} as const;

let server: Server;
let browser: Browser;

beforeAll(async () => {
  // No demo IPOs or coin offerings: nothing here needs them, and they slow the start.
  server = await startServer({ IPO_DEMO: '0', DEMO_LAUNCHPAD: '0' });
  browser = await launchBrowser();
  const token = await staffApiSignIn(server);
  const post = await fetch(`${server.baseUrl}/ipor-api/admin/vip/advice`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify({
      titleEn: 'What a block window is',
      titlePt: 'O que é uma janela de bloco',
      bodyEn:
        'Exchanges set short windows for large negotiated trades. This explains how they work; it is not a recommendation.',
      bodyPt:
        'As bolsas definem janelas curtas para negociações grandes. Isto explica como funcionam; não é uma recomendação.',
      reason: 'education post for members',
    }),
  });
  expect(((await post.json()) as { code: number }).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function look(page: Page, name: string) {
  await page.locator('.adm-toast-mask').waitFor({ state: 'hidden' });
  await shot(page, name);
  expect(await blockingAxeViolations(page), name).toEqual([]);
}

async function enterPin(page: Page, pin: string) {
  await page.getByTestId('confirm-sheet').waitFor();
  await page.locator('.adm-number-keyboard-key').first().waitFor();
  await page.waitForTimeout(350);
  for (const digit of pin) await page.locator('.adm-number-keyboard-key').getByText(digit, { exact: true }).click();
}

describe('VIP membership against the real server', () => {
  for (const [n, lang] of (['en-US', 'pt-BR'] as const).entries()) {
    const text = TEXT[lang];
    it(`claims the trial, reads the members-only advice, then buys 30 days (${lang})`, async () => {
      const { token, user } = await registerCustomer(server, `90000028${n}1`, { tradePassword: PIN });
      const { context, page } = await phonePage(browser, lang);
      await context.addInitScript(
        ([t, u]) => {
          localStorage.setItem('userToken', t as string);
          localStorage.setItem('userInfo', u as string);
        },
        [token, JSON.stringify(user)],
      );
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(`${server.baseUrl}/pages/tabbar/mine`);
        await page.locator('a[href="/pages/stock/vip"]').click();
        await page.getByTestId('vip-status').waitFor();
        await page.getByTestId('vip-advice-locked').waitFor();
        await look(page, `web-vip-none-${lang}`);

        // The free trial: "VIP received", and the advice post opens (labelled as education).
        await page.getByTestId('vip-claim').click();
        await page.getByText(text.received).waitFor();
        await page.getByTestId('vip-state').filter({ hasText: text.trial }).waitFor();
        await page.getByTestId('vip-advice-list').waitFor();
        await look(page, `web-vip-trial-${lang}`);
        await page.getByTestId('vip-advice-list').scrollIntoViewIfNeeded();
        await shot(page, `web-vip-advice-${lang}`);

        // Buy 30 days: a renewal, starting when the trial ends.
        const before = (await apiCall(server, '/user/vip/info', null, { token })).data;
        await page.getByTestId('vip-plan-30').getByRole('button').click();
        await page.getByTestId('confirm-sheet').waitFor();
        await shot(page, `web-vip-confirm-${lang}`);
        await enterPin(page, PIN);
        await page.getByText(text.purchased).waitFor();
        await page.getByTestId('vip-state').filter({ hasText: text.member }).waitFor();
        await page.getByTestId('vip-periods').scrollIntoViewIfNeeded();
        await look(page, `web-vip-member-${lang}`);
        const after = (await apiCall(server, '/user/vip/info', null, { token })).data;
        expect(after.state).toBe('member');
        expect(after.expiresAt).toBe(before.expiresAt + 30 * 86_400_000);
        expect(after.periods[0]).toMatchObject({ kind: 'paid', amount: '499.00', currency: 'INR' });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 90_000);
  }

  it('shows the console VIP desk with the members and the advice posts, in both languages', async () => {
    // A member of its own, so the list has a row however the tests are picked.
    const { token } = await registerCustomer(server, '9000002899');
    expect((await apiCall(server, '/user/vip/get', null, { token })).code).toBe(0);
    const page = await consolePage(browser, 'en-US');
    try {
      await staffSignIn(page, server);
      await page.goto(`${server.baseUrl}/admin/vip`);
      for (const lang of ['en-US', 'pt-BR'] as const) {
        if (lang === 'pt-BR') {
          // The console's own language switch (the stored choice is reset at each navigation here).
          await page.getByTestId('language-switch').click();
          await page.locator('.ant-select-item-option').nth(1).click();
          await page.getByRole('tab').first().click();
        }
        const members = page.getByTestId('vip-members');
        await members.locator('tr.ant-table-row').first().waitFor();
        await members.locator('.ant-spin-spinning').waitFor({ state: 'detached' });
        await page.waitForTimeout(300); // the table's fade-in
        await shot(page, `admin-vip-members-${lang}`);
        await page.getByRole('tab').nth(1).click();
        const advice = page.getByTestId('vip-advice');
        await advice.locator('tr.ant-table-row').first().waitFor();
        await advice.locator('.ant-spin-spinning').waitFor({ state: 'detached' });
        await page.waitForTimeout(300);
        await shot(page, `admin-vip-advice-${lang}`);
      }
    } finally {
      await page.context().close();
    }
  }, 90_000);
});
