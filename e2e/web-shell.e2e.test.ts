// Proves the customer app's shell against the real server at 390×844 in both languages: register →
// sign in → the drawer (account, "ID " + id, verification label) → switch language → sign out; and
// that a forged captcha, mismatched passwords, a short password and a bad phone number each show the
// catalogue's translated message under the field, keep what was typed, and create no account. The
// captcha is the real proof of work, solved by the page in the browser.

import { errorMessage, type Lang } from '@bourse/contract';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, phonePage, type Server, shot, startServer } from './harness.ts';

const TEXT = {
  'en-US': {
    virtualMoney: 'Virtual money',
    notVerified: 'Not verified',
    mineTab: 'Mine',
    other: 'pt-BR',
    otherMineTab: 'Conta',
  },
  'pt-BR': {
    virtualMoney: 'Dinheiro virtual',
    notVerified: 'Não verificado',
    mineTab: 'Conta',
    other: 'en-US',
    otherMineTab: 'Mine',
  },
} as const satisfies Record<Lang, Record<string, string>>;

const PASSWORD = 'secret12';

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

function isCaptcha(response: Response): boolean {
  return response.url().includes('/ipor-api/common/captcha');
}

/** Opens the registration page, whose captcha the browser then solves. */
async function openRegister(page: Page): Promise<void> {
  const captcha = page.waitForResponse(isCaptcha);
  await page.goto(`${server.baseUrl}/pages/account/reg`);
  await captcha;
}

/** Fills the form, waits for the browser to finish the captcha's proof of work, and sends it. */
async function fillRegister(page: Page, values: { phone: string; password: string; confirmPassword: string }) {
  await page.locator('input[name=phone]').fill(values.phone);
  await page.locator('input[name=password]').fill(values.password);
  await page.locator('input[name=confirmPassword]').fill(values.confirmPassword);
  await page.locator('.agreement .adm-checkbox').click();
  await page.locator('[data-testid=captcha][data-solved=true]').waitFor({ timeout: 20_000 });
}

/**
 * Hands the page a captcha whose signature was tampered with: solvable, but the server refuses the
 * solution. Later captchas come late, so the refusal stays on screen until it has been read.
 */
async function forgeCaptchas(page: Page): Promise<void> {
  let served = 0;
  await page.route('**/ipor-api/common/captcha', async (route) => {
    if (served++ > 0) await new Promise((resolve) => setTimeout(resolve, 10_000));
    const response = await route.fetch();
    const body = await response.json();
    body.data.challenge.signature = '0'.repeat(64);
    await route.fulfill({ response, json: body });
  });
}

/** Whether the server knows this phone number (a sign-in attempt with the test password). */
async function accountExists(phone: string): Promise<boolean> {
  const res = await fetch(`${server.baseUrl}/ipor-api/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({ areaCode: '91', phone, password: PASSWORD }).toString(),
  });
  const body = (await res.json()) as { code: number };
  return body.code === 0;
}

describe('customer app shell', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    const text = TEXT[lang];
    const phone = lang === 'en-US' ? '9000000111' : '9000000222';

    it(`registers, signs in, uses the drawer, switches language and signs out (${lang})`, async () => {
      const { context, page } = await phonePage(browser, lang);
      try {
        await page.goto(`${server.baseUrl}/`);
        await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(lang);
        await page.getByTestId('paper-badge').waitFor();
        expect(await page.getByTestId('paper-badge').textContent()).toContain(text.virtualMoney);
        await shot(page, `web-${lang}-01-start`);

        await openRegister(page);
        await fillRegister(page, { phone, password: PASSWORD, confirmPassword: PASSWORD });
        await shot(page, `web-${lang}-02-register-filled`);
        await page.locator('input[name=confirmPassword]').press('Enter');
        await page.waitForURL('**/pages/tabbar/home');
        expect(await page.evaluate(() => localStorage.getItem('userToken'))).toBeTruthy();
        await shot(page, `web-${lang}-03-registered-home`);
      } finally {
        await context.close();
      }

      // A second device: sign in with the new account.
      const { context: second, page: p } = await phonePage(browser, lang);
      try {
        await p.goto(`${server.baseUrl}/pages/account/login`);
        await p.locator('input[name=phone]').fill(phone);
        await p.locator('input[name=password]').fill(PASSWORD);
        await p.locator('input[name=password]').press('Enter');
        await p.waitForURL('**/pages/tabbar/home');

        await p.getByTestId('open-drawer').click();
        const drawer = p.getByTestId('drawer');
        await drawer.waitFor();
        await expect.poll(() => drawer.textContent()).toContain(`+91 ${phone}`);
        expect(await drawer.textContent()).toMatch(/ID \d+/);
        expect(await drawer.getByTestId('id-status').textContent()).toContain(text.notVerified);
        await p.waitForTimeout(500); // let the slide-in animation finish before the screenshot
        await shot(p, `web-${lang}-04-drawer`);
        await p.keyboard.press('Escape');
        await drawer.waitFor({ state: 'detached' });

        await p.goto(`${server.baseUrl}/pages/common/lang`);
        await p.getByTestId(`lang-${text.other}`).click();
        await expect.poll(() => p.locator('html').getAttribute('lang')).toBe(text.other);
        expect(await p.evaluate(() => localStorage.getItem('smcLanguage'))).toBe(text.other);
        await shot(p, `web-${lang}-05-language-switched`);

        await p.goto(`${server.baseUrl}/pages/tabbar/mine`);
        await p.locator('.tab-bar').getByText(text.otherMineTab).waitFor();
        await p.getByTestId('open-drawer').click();
        await p.getByTestId('drawer-sign-out').click();
        const confirm = p.locator('.adm-dialog-footer .adm-dialog-button-bold');
        await confirm.waitFor();
        await p.waitForTimeout(400);
        await shot(p, `web-${lang}-06-sign-out-confirm`);
        await confirm.click();
        await p.waitForURL('**/pages/account/login');
        expect(await p.evaluate(() => localStorage.getItem('userToken'))).toBeNull();
        await shot(p, `web-${lang}-07-signed-out`);
      } finally {
        await second.close();
      }
    });

    const badPhone = lang === 'en-US' ? '9000000333' : '9000000444';
    const cases = [
      {
        name: 'a forged captcha',
        field: 'captchaCode',
        code: 'captcha_incorrect',
        phone: badPhone,
        values: { password: PASSWORD, confirmPassword: PASSWORD },
      },
      {
        name: 'mismatched passwords',
        field: 'confirmPassword',
        code: 'password_mismatch',
        phone: badPhone,
        values: { password: PASSWORD, confirmPassword: 'other123' },
      },
      {
        name: 'a short password',
        field: 'password',
        code: 'password_length',
        phone: badPhone,
        values: { password: '123', confirmPassword: '123' },
      },
      {
        name: 'a bad phone number',
        field: 'phone',
        code: 'phone_invalid',
        phone: '12345',
        values: { password: PASSWORD, confirmPassword: PASSWORD },
      },
    ] as const;

    for (const c of cases) {
      it(`refuses ${c.name} with the translated message and creates nothing (${lang})`, async () => {
        const { context, page } = await phonePage(browser, lang);
        try {
          if (c.field === 'captchaCode') await forgeCaptchas(page);
          await openRegister(page);
          await fillRegister(page, { phone: c.phone, ...c.values });
          await page.locator('input[name=confirmPassword]').press('Enter');
          const message = errorMessage(c.code, lang);
          const field = c.field === 'captchaCode' ? '[data-testid=captcha]' : `[name=${c.field}]`;
          const item = page.locator('.adm-form-item').filter({ has: page.locator(field) });
          await item.getByText(message).waitFor();
          expect(page.url()).toContain('/pages/account/reg');
          // What the user typed is kept.
          expect(await page.locator('input[name=phone]').inputValue()).toBe(c.phone);
          expect(await page.locator('input[name=password]').inputValue()).toBe(c.values.password);
          await shot(page, `web-${lang}-reg-${c.code}`);
          expect(await accountExists(badPhone)).toBe(false);
        } finally {
          // The forged captcha's late answers are still waiting: they end with the page.
          await page.unrouteAll({ behavior: 'ignoreErrors' });
          await context.close();
        }
      });
    }
  }
});
