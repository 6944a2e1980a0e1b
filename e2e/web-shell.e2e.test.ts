// Proves the customer app's shell against the real server at 390×844 in both languages: register →
// sign in → the drawer (account, "ID " + id, verification label) → switch language → sign out; and
// that a wrong captcha, mismatched passwords, a short password and a bad phone number each show the
// catalogue's translated message under the field, keep what was typed, and create no account.

import { errorMessage, type Lang } from '@bourse/contract';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captchaAnswer, launchBrowser, phonePage, type Server, shot, startServer } from './harness.ts';

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

/** Opens the registration page and returns the id of the captcha it shows. */
async function openRegister(page: Page): Promise<string> {
  const captcha = page.waitForResponse(isCaptcha);
  await page.goto(`${server.baseUrl}/pages/account/reg`);
  const body = (await (await captcha).json()) as { data: { captchaId: string } };
  await page.locator('.captcha img').waitFor();
  return body.data.captchaId;
}

async function fillRegister(
  page: Page,
  values: { phone: string; password: string; confirmPassword: string; captchaCode: string },
) {
  await page.locator('input[name=phone]').fill(values.phone);
  await page.locator('input[name=password]').fill(values.password);
  await page.locator('input[name=confirmPassword]').fill(values.confirmPassword);
  await page.locator('input[name=captchaCode]').fill(values.captchaCode);
  await page.locator('.agreement .adm-checkbox').click();
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

        const captchaId = await openRegister(page);
        await fillRegister(page, {
          phone,
          password: PASSWORD,
          confirmPassword: PASSWORD,
          captchaCode: await captchaAnswer(server, captchaId),
        });
        await shot(page, `web-${lang}-02-register-filled`);
        await page.locator('input[name=captchaCode]').press('Enter');
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
        name: 'a wrong captcha',
        field: 'captchaCode',
        code: 'captcha_incorrect',
        phone: badPhone,
        values: { password: PASSWORD, confirmPassword: PASSWORD, captchaCode: 'zzzz' },
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
          const captchaId = await openRegister(page);
          const captchaCode = 'captchaCode' in c.values ? c.values.captchaCode : await captchaAnswer(server, captchaId);
          await fillRegister(page, { phone: c.phone, ...c.values, captchaCode });
          await page.locator('input[name=captchaCode]').press('Enter');
          const message = errorMessage(c.code, lang);
          const item = page.locator('.adm-form-item').filter({ has: page.locator(`[name=${c.field}]`) });
          await item.getByText(message).waitFor();
          expect(page.url()).toContain('/pages/account/reg');
          // What the user typed is kept.
          expect(await page.locator('input[name=phone]').inputValue()).toBe(c.phone);
          expect(await page.locator('input[name=password]').inputValue()).toBe(c.values.password);
          await shot(page, `web-${lang}-reg-${c.code}`);
          expect(await accountExists(badPhone)).toBe(false);
        } finally {
          await context.close();
        }
      });
    }
  }
});
