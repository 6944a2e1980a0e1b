// API keys end to end against the real server at 390×844, per language: from the security settings the
// customer opens API keys, creates a trade key limited to one address with the transaction password,
// sees the secret once, and that secret signs a real call to the Binance-shaped API (/api/v3/account);
// then revokes the key after confirming, and the API refuses it.
// Screenshots: test-results/screens/web-api-keys-*.png.
import { createHmac } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerPage, launchBrowser, type Server, shot, solveCaptcha, startServer } from './harness.ts';

const PIN = '135790';
const TEXT = {
  'en-US': {
    apiKeys: 'API keys',
    create: 'Create API key',
    trade: 'Read and trade',
    revoke: 'Revoke',
    empty: 'You have no API keys.',
  },
  'pt-BR': {
    apiKeys: 'Chaves de API',
    create: 'Criar chave de API',
    trade: 'Leitura e negociação',
    revoke: 'Revogar',
    empty: 'Você não tem chaves de API.',
  },
} as const;

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

async function post<T>(path: string, body: Record<string, string>, token?: string): Promise<T> {
  const res = await fetch(`${server.baseUrl}/ipor-api${path}`, {
    method: path.endsWith('/captcha') ? 'GET' : 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(token ? { token } : {}) },
    ...(path.endsWith('/captcha') ? {} : { body: new URLSearchParams(body).toString() }),
  });
  const answer = (await res.json()) as { code: number; msg: string; data: T };
  if (answer.code !== 0) throw new Error(`${path}: ${answer.msg}`);
  return answer.data;
}

/** A fresh customer with a transaction password, registered over the API. */
async function newCustomer(phone: string) {
  const captcha = await post<{ captchaId: string; challenge: Parameters<typeof solveCaptcha>[0] }>(
    '/common/captcha',
    {},
  );
  const session = await post<{ token: string; user: { id: number } }>('/user/register', {
    areaCode: '91',
    phone,
    password: 'secret12',
    confirmPassword: 'secret12',
    agree: '1',
    captchaId: captcha.captchaId,
    captchaCode: await solveCaptcha(captcha.challenge),
  });
  await post(
    '/user/update/tradePassword',
    { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
    session.token,
  );
  return session;
}

/** A signed GET /api/v3/account as a Binance client sends it. */
async function account(apiKey: string, secret: string) {
  const query = `timestamp=${Date.now()}`;
  const signature = createHmac('sha256', secret).update(query).digest('hex');
  const res = await fetch(`${server.baseUrl}/api/v3/account?${query}&signature=${signature}`, {
    headers: { 'X-MBX-APIKEY': apiKey },
  });
  return { status: res.status, body: (await res.json()) as { code?: number; accountType?: string } };
}

describe('API keys (real server)', () => {
  for (const [lang, phone] of [
    ['en-US', '9811200001'],
    ['pt-BR', '9811200002'],
  ] as const) {
    it(`creates a key, shows its secret once, signs a call with it and revokes it (${lang})`, async () => {
      const session = await newCustomer(phone);
      const { context, page } = await customerPage(browser, lang, session);
      try {
        await page.goto(`${server.baseUrl}/pages/user/security`);
        await page.getByTestId('row-api-keys').waitFor();
        await shot(page, `web-api-keys-security-${lang}`);
        await page.getByTestId('row-api-keys').click();
        await page.getByText(TEXT[lang].empty).waitFor();
        await shot(page, `web-api-keys-empty-${lang}`);

        await page.getByTestId('api-key-create').click();
        await page.getByTestId('api-key-label').locator('input').fill('My bot');
        await page.getByText(TEXT[lang].trade).click();
        await page.getByTestId('api-key-ips').locator('textarea').fill('127.0.0.1, 203.0.113.7');
        await page.getByTestId('api-key-password').locator('input').fill(PIN);
        await shot(page, `web-api-keys-form-${lang}`);
        await page.getByTestId('api-key-form').getByRole('button', { name: TEXT[lang].create }).click();
        await page.getByTestId('api-key-created').waitFor();
        await shot(page, `web-api-keys-secret-${lang}`);
        const values = await page.locator('[data-testid="api-key-created"] .copy-value__text').allTextContents();
        const [apiKey, secret] = values as [string, string];
        expect(apiKey).toMatch(/^[A-Za-z0-9]{64}$/);
        expect(secret).toMatch(/^[A-Za-z0-9]{64}$/);

        // The secret signs a real call (from 127.0.0.1, on the allow-list).
        const signed = await account(apiKey, secret);
        expect(signed.status, JSON.stringify(signed.body)).toBe(200);
        expect(signed.body.accountType).toBe('SPOT');

        await page.getByTestId('api-key-done').click();
        await page.getByTestId('api-key-created').waitFor({ state: 'detached' });
        await page.getByTestId('api-key').first().waitFor();
        await expect.poll(() => page.getByTestId('api-key').first().textContent()).toContain('My bot');
        await expect.poll(() => page.getByTestId('api-key').first().textContent()).toContain('203.0.113.7');
        // The list never shows the secret again; the key's use is there.
        await expect.poll(() => page.getByTestId('api-key').first().textContent()).toContain('127.0.0.1');
        expect(await page.content()).not.toContain(secret);
        await shot(page, `web-api-keys-list-${lang}`);

        await page.getByTestId('api-key').getByRole('button', { name: TEXT[lang].revoke }).click();
        const confirm = page.locator('.adm-dialog-button-bold', { hasText: TEXT[lang].revoke });
        await confirm.waitFor();
        await page.waitForTimeout(300);
        await shot(page, `web-api-keys-revoke-${lang}`);
        await confirm.click();
        await page.getByText(TEXT[lang].empty).waitFor();
        const refused = await account(apiKey, secret);
        expect(refused.body.code).toBe(-2015);
      } finally {
        await context.close();
      }
    });
  }
});
