// Currency exchange, funds records and manual adjustments end to end against the real server at 390×844:
// per language a customer quotes and accepts an exchange and sees both balances change, sees the exchange
// in the funds records filtered by cause, and (in English) watches a quote expire; in the console the
// administrator proposes an adjustment and a second staff member, created through the staff API, approves
// it, and the customer's funds record shows it with its reason.
// Screenshots: test-results/screens/web-exchange-*.png and admin-adjustments-*.png.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consolePage,
  customerPage,
  launchBrowser,
  type Server,
  shot,
  solveCaptcha,
  staffApiSignIn,
  staffSignIn,
  startServer,
} from './harness.ts';

const TEXT = {
  'en-US': {
    getQuote: 'Get a quote',
    accept: 'Accept and exchange',
    expired: 'This quote has expired. Nothing was exchanged.',
    causeExchange: 'Currency exchange',
    statement: 'Monthly statement',
  },
  'pt-BR': {
    getQuote: 'Pedir cotação',
    accept: 'Aceitar e trocar',
    expired: 'Esta cotação expirou. Nada foi trocado.',
    causeExchange: 'Câmbio',
    statement: 'Extrato mensal',
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

async function api<T>(path: string, init: { token?: string; json?: unknown; method?: string } = {}): Promise<T> {
  const res = await fetch(`${server.baseUrl}/ipor-api${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.token ? { token: init.token } : {}),
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  if (body.code !== 0) throw new Error(`${path}: ${body.msg}`);
  return body.data;
}

/** A fresh customer (paper grants: 10,000 USD, 50,000 BRL, 1,000,000 INR), registered over the API. */
async function newCustomer(phone: string): Promise<{ token: string; user: { id: number } }> {
  const captcha = await api<{ captchaId: string; challenge: Parameters<typeof solveCaptcha>[0] }>('/common/captcha');
  const res = await fetch(`${server.baseUrl}/ipor-api/user/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      areaCode: '91',
      phone,
      password: 'secret12',
      confirmPassword: 'secret12',
      agree: '1',
      captchaId: captcha.captchaId,
      captchaCode: await solveCaptcha(captcha.challenge),
    }).toString(),
  });
  const body = (await res.json()) as { code: number; msg: string; data: { token: string; user: { id: number } } };
  if (body.code !== 0) throw new Error(`register: ${body.msg}`);
  return body.data;
}

const stockCash = async (token: string) => {
  const items = (
    await api<{ items: { wallet: string; asset: string; balance: string }[] }>('/user/assets', {
      token,
      method: 'POST',
    })
  ).items;
  return Object.fromEntries(items.filter((i) => i.wallet === 'stock').map((i) => [i.asset, i.balance]));
};

async function getQuote(page: Page, lang: keyof typeof TEXT, amount: string) {
  await page.getByTestId('fx-amount').locator('input').fill(amount);
  await page.getByRole('button', { name: TEXT[lang].getQuote }).click();
  await page.getByTestId('fx-countdown').waitFor();
}

describe('currency exchange (real server)', () => {
  for (const [lang, phone] of [
    ['en-US', '9811100001'],
    ['pt-BR', '9811100002'],
  ] as const) {
    it(`quotes and accepts USD → BRL, the balances change, the records show it (${lang})`, async () => {
      const session = await newCustomer(phone);
      const { context, page } = await customerPage(browser, lang, session);
      try {
        await page.goto(`${server.baseUrl}/pages/exchange/index`);
        await page.getByTestId('fx-rate-row').first().waitFor();
        await expect.poll(() => page.getByTestId('fx-rate-row').count()).toBe(4);
        await shot(page, `web-exchange-index-${lang}`);

        await page.getByTestId('fx-open-desk').click();
        await page.getByTestId('fx-available-USD').waitFor();
        await expect.poll(() => page.getByTestId('fx-available-USD').textContent()).toMatch(/10,000\.00|10\.000,00/);
        await getQuote(page, lang, '100');
        await shot(page, `web-exchange-quote-${lang}`);
        const receive = (await page.getByTestId('fx-receive').textContent()) ?? '';
        expect(receive).toMatch(/R\$/);
        await page.getByRole('button', { name: TEXT[lang].accept }).click();
        await page.getByTestId('fx-done').waitFor();
        // The balances on the screen move: 100 USD out, the quoted BRL in.
        await expect.poll(() => page.getByTestId('fx-available-USD').textContent()).toMatch(/9,900\.00|9\.900,00/);
        const cash = await stockCash(session.token);
        expect(cash.USD).toBe('9900.00');
        expect(Number(cash.BRL)).toBeGreaterThan(50_000);
        await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
        await shot(page, `web-exchange-done-${lang}`);

        if (lang === 'en-US') {
          // A quote left alone runs out: nothing moves.
          await page.getByTestId('fx-again').click();
          await getQuote(page, lang, '50');
          await page.getByText(TEXT[lang].expired).waitFor({ timeout: 20_000 });
          await shot(page, `web-exchange-expired-${lang}`);
          expect((await stockCash(session.token)).USD).toBe('9900.00');
        }

        await page.goto(`${server.baseUrl}/pages/exchange/stock?market=BR`);
        await page.getByTestId('fx-market').waitFor();
        await shot(page, `web-exchange-stock-${lang}`);

        await page.goto(`${server.baseUrl}/pages/fundsDetail/index?cause=convert`);
        await page.getByTestId('ledger-line').first().waitFor();
        await expect.poll(() => page.getByTestId('ledger-line').count()).toBe(2);
        await page.getByText(TEXT[lang].statement).waitFor();
        await expect
          .poll(() => page.getByTestId('ledger-line').first().textContent())
          .toContain(TEXT[lang].causeExchange);
        await shot(page, `web-exchange-records-${lang}`);

        // The statement of this month downloads as a file in the app's language, with the exchange in it.
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByTestId('statement-csv').click(),
        ]);
        expect(download.suggestedFilename()).toMatch(/^statement-\d{4}-\d{2}\.csv$/);
        const csv = readFileSync((await download.path()) as string, 'utf8');
        expect(csv).toContain(lang === 'en-US' ? 'Currency exchange' : 'Câmbio');
        expect(csv).toContain('9900.00');

        // The crypto funds detail: the coin wallets and their records, filtered by crypto wallet only (this
        // customer has no crypto lines).
        await page.goto(`${server.baseUrl}/pages/fundsDetail/cryptoFundsDetail`);
        await page.getByTestId('filter-cause').waitFor();
        await page.getByTestId('coin-assets').waitFor();
        await expect.poll(() => page.getByTestId('filter-wallet').getByRole('button').count()).toBe(3);
        await shot(page, `web-exchange-crypto-funds-${lang}`);
      } finally {
        await context.close();
      }
    });
  }
});

describe('manual adjustment with a second approver (console)', () => {
  it('is proposed by the administrator and approved by a second staff member; the customer sees it', async () => {
    const customer = await newCustomer('9811100003');
    const adminToken = await staffApiSignIn(server);
    const second = await api<{ initialPassword: string; totpSecret: string }>('/admin/staff/create', {
      token: adminToken,
      json: { username: 'fin.two', role: 'finance', reason: 'second approver for adjustments (e2e)' },
    });

    const admin = await consolePage(browser, 'en-US');
    await admin.goto(`${server.baseUrl}/admin/`);
    await admin.evaluate(`localStorage.setItem('adminToken', ${JSON.stringify(adminToken)})`);
    await admin.goto(`${server.baseUrl}/admin/adjustments`);
    await admin.getByTestId('adjustment-new').click();
    await admin.getByTestId('adjustment-user').fill(String(customer.user.id));
    await admin.getByTestId('adjustment-amount').fill('12.50');
    await admin.getByTestId('reason-input').fill('Goodwill credit for ticket 4711 (e2e)');
    await admin.waitForTimeout(300);
    await shot(admin, 'admin-adjustments-propose-en-US');
    await admin.getByTestId('adjustment-propose-submit').click();
    await admin.getByTestId('adjustment-propose-submit').waitFor({ state: 'detached' });
    const [proposal] = (
      await api<{ items: { id: number; status: string }[] }>('/admin/adjustments?status=pending', { token: adminToken })
    ).items;
    expect(proposal?.status).toBe('pending');
    const id = proposal?.id as number;
    // The proposer's own decision buttons are disabled.
    await expect.poll(() => admin.getByTestId(`adjustment-approve-${id}`).isDisabled()).toBe(true);
    await admin.waitForTimeout(400);
    await shot(admin, 'admin-adjustments-pending-en-US');
    await admin.context().close();

    for (const lang of ['en-US', 'pt-BR'] as const) {
      const approver = await consolePage(browser, lang);
      await staffSignIn(approver, server, {
        username: 'fin.two',
        password: second.initialPassword,
        totpSecret: second.totpSecret,
      });
      await approver.goto(`${server.baseUrl}/admin/adjustments`);
      if (lang === 'en-US') {
        await approver.getByTestId(`adjustment-approve-${id}`).click();
        await approver.getByTestId('reason-input').fill('Ticket checked, credit agreed');
        await approver.waitForTimeout(300);
        await shot(approver, 'admin-adjustments-approve-en-US');
        await approver.getByTestId('reason-confirm').click();
        await approver.getByTestId('reason-input').waitFor({ state: 'detached' });
      }
      await approver.getByText(lang === 'en-US' ? 'All' : 'Todos', { exact: true }).click();
      await approver.getByTestId(`adjustment-status-${id}`).waitFor();
      await expect
        .poll(() => approver.getByTestId(`adjustment-status-${id}`).textContent())
        .toBe(lang === 'en-US' ? 'Approved' : 'Aprovado');
      await approver.waitForTimeout(400);
      await shot(approver, `admin-adjustments-approved-${lang}`);
      await approver.context().close();
    }

    expect((await stockCash(customer.token)).USD).toBe('10012.50');
    const { context, page } = await customerPage(browser, 'en-US', customer);
    try {
      await page.goto(`${server.baseUrl}/pages/fundsDetail/index?cause=adjustment`);
      await page.getByTestId('ledger-line').first().click();
      await page.getByTestId('record-note').waitFor();
      expect(await page.getByTestId('record-note').textContent()).toBe('Goodwill credit for ticket 4711 (e2e)');
      await shot(page, 'web-exchange-adjustment-record-en-US');
    } finally {
      await context.close();
    }
  });
});
