// Crypto convert, transfer and records end to end against the real server (paper mode) at 390×844, in
// both languages: a fresh customer is funded with USDT by the sandbox chain's faucet (a test deposit,
// confirmed by moving the server's clock), sees the coin wallets on the assets page, converts USDT → BTC
// at a quote (rate, spread, countdown, accept), moves USDT from the crypto account to the contract
// account (no fee), and finds the deposit, both convert legs and the transfer in coin/assetsRecord.
// Screenshots: test-results/screens/web-crypto-convert-*.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blockingAxeViolations,
  customerPage,
  launchBrowser,
  type Server,
  shot,
  solveCaptcha,
  startServer,
} from './harness.ts';

const TEXT = {
  'en-US': {
    getQuote: 'Get a quote',
    accept: 'Accept and convert',
    noFee: 'No fee',
    transfer: 'Transfer',
    causeConvert: 'Currency exchange',
    causeTransfer: 'Transfer between accounts',
    contract: 'Contract account',
    usdt: /^10,000\.00\sUSDT$/,
  },
  'pt-BR': {
    getQuote: 'Pedir cotação',
    accept: 'Aceitar e converter',
    noFee: 'Sem tarifa',
    transfer: 'Transferir',
    causeConvert: 'Câmbio',
    causeTransfer: 'Transferência entre contas',
    contract: 'Conta de contratos',
    usdt: /^10\.000,00\sUSDT$/,
  },
} as const;

let server: Server;
let browser: Browser;

beforeAll(async () => {
  // The server's clock is the present, moved on by hand to confirm the test deposits.
  server = await startServer({ BOURSE_TEST_CLOCK: new Date().toISOString(), CRYPTO_SCAN_EVERY_MS: '0' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function api<T>(path: string, init: { token?: string; json?: unknown } = {}): Promise<T> {
  const res = await fetch(`${server.baseUrl}/ipor-api${path}`, {
    method: init.json === undefined ? 'GET' : 'POST',
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

type CoinAssets = {
  spot: { asset: string; balance: string }[];
  contract: { asset: string; balance: string }[];
};
const coins = async (token: string) => {
  const data = await api<CoinAssets>('/coin/assets', { token, json: {} });
  const of = (list: CoinAssets['spot']) => Object.fromEntries(list.map((b) => [b.asset, b.balance]));
  return { spot: of(data.spot), contract: of(data.contract) };
};

/** Paper mode grants each new customer 10,000 USDT in the spot wallet at sign-up. */
async function fundUsdt(token: string) {
  await expect.poll(async () => (await coins(token)).spot.USDT, { timeout: 15_000 }).toBe('10000.000000');
}

describe('crypto convert and transfer (real server)', () => {
  for (const [lang, phone] of [
    ['en-US', '9822200001'],
    ['pt-BR', '9822200002'],
  ] as const) {
    it(`converts USDT → BTC, moves USDT to the contract account and sees both in the records (${lang})`, async () => {
      const session = await newCustomer(phone);
      await fundUsdt(session.token);
      const { context, page } = await customerPage(browser, lang, session);
      try {
        // The coin wallets on the assets page, valued in USDT.
        await page.goto(`${server.baseUrl}/pages/user/assets`);
        await page.getByTestId('coin-spot-USDT').waitFor();
        expect(await page.getByTestId('coin-spot-USDT').locator('.coin-card__amount').first().textContent()).toMatch(
          /10[,.]000[.,]00\sUSDT/,
        );
        await shot(page, `web-crypto-convert-assets-${lang}`);
        expect(await blockingAxeViolations(page)).toEqual([]);

        // Convert: USDT → BTC (the desk's default pair), a quote with rate, spread and countdown.
        await page.getByTestId('coin-convert').click();
        await page.waitForURL(/\/pages\/exchange\/cryptoConvert$/);
        await page.getByTestId('cc-market-rate').waitFor();
        await expect.poll(() => page.getByTestId('cc-from').inputValue()).toBe('USDT');
        await expect.poll(() => page.getByTestId('cc-to').inputValue()).toBe('BTC');
        await expect.poll(() => page.getByTestId('cc-amount-available').textContent()).toMatch(/10[,.]000[.,]00/);
        await page.getByTestId('cc-amount').locator('input').fill('1000');
        await page.getByRole('button', { name: TEXT[lang].getQuote }).click();
        await page.getByTestId('fx-countdown').waitFor();
        expect(await page.getByTestId('fx-spread').textContent()).toMatch(/^0[.,]20%/);
        expect(await page.getByTestId('fx-rate').textContent()).toMatch(/^1 USDT = 0[.,]0000\d+ BTC$/);
        await shot(page, `web-crypto-convert-quote-${lang}`);
        expect(await blockingAxeViolations(page)).toEqual([]);
        const receive = ((await page.getByTestId('fx-receive').textContent()) ?? '').replace(/\s/g, ' ');
        // Shown with the decimals it has (up to 8: a satoshi).
        expect(receive).toMatch(/^0[.,]0\d{1,7} BTC$/);
        await page.getByRole('button', { name: TEXT[lang].accept }).click();
        await page.getByTestId('fx-done').waitFor();
        await expect.poll(() => page.getByTestId('cc-amount-available').textContent()).toMatch(/9[,.]000[.,]00/);
        const afterConvert = await coins(session.token);
        expect(afterConvert.spot.USDT).toBe('9000.000000');
        // What the screen said it would receive is exactly what arrived.
        expect(receive.replace(',', '.')).toBe(`${afterConvert.spot.BTC?.replace(/0+$/, '')} BTC`);
        await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
        await shot(page, `web-crypto-convert-done-${lang}`);

        // Transfer: 250 USDT from the crypto account to the contract account, no fee.
        await page.goto(`${server.baseUrl}/pages/exchange/cryptoTransfer`);
        await page.getByTestId('ct-amount').waitFor();
        expect(await page.getByTestId('ct-fee').textContent()).toBe(TEXT[lang].noFee);
        await page.getByTestId('ct-amount').locator('input').fill('250');
        // The button turns enabled with the amount; axe measures it once its fade-in has finished.
        const sendOpacity = `(() => {
          const b = [...document.querySelectorAll('button')].find(
            (x) => x.textContent.trim() === ${JSON.stringify(TEXT[lang].transfer)},
          );
          return b && !b.disabled ? getComputedStyle(b).opacity : '';
        })()`;
        await expect.poll(() => page.evaluate(sendOpacity)).toBe('1');
        await shot(page, `web-crypto-convert-transfer-${lang}`);
        expect(await blockingAxeViolations(page)).toEqual([]);
        await page.getByRole('button', { name: TEXT[lang].transfer, exact: true }).click();
        await page.getByTestId('ct-done').waitFor();
        const afterTransfer = await coins(session.token);
        expect(afterTransfer.spot.USDT).toBe('8750.000000');
        expect(afterTransfer.contract.USDT).toBe('250.000000');
        await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
        await shot(page, `web-crypto-convert-transferred-${lang}`);

        // The crypto records: the deposit, the two convert legs and the transfer, in both wallets.
        await page.goto(`${server.baseUrl}/pages/coin/assetsRecord`);
        await page.getByTestId('ledger-line').first().waitFor();
        await expect.poll(() => page.getByTestId('ledger-line').count()).toBe(4);
        const lines = (await page.getByTestId('ledger-line').allTextContents()).join('\n');
        expect(lines).toContain(TEXT[lang].causeConvert);
        expect(lines).toContain(TEXT[lang].causeTransfer);
        await shot(page, `web-crypto-convert-records-${lang}`);
        expect(await blockingAxeViolations(page)).toEqual([]);
        // The contract account alone: the transfer arriving (+250 USDT).
        await page.getByTestId('filter-wallet').getByRole('button', { name: TEXT[lang].contract }).click();
        await expect.poll(() => page.getByTestId('ledger-line').count()).toBe(1);
        expect(await page.getByTestId('ledger-line').first().textContent()).toMatch(/\+250[.,]00/);
        await shot(page, `web-crypto-convert-records-contract-${lang}`);
      } finally {
        await context.close();
      }
    });
  }
});
