// Stock trading end to end against the real server, in both languages, at 390×844: the server's clock
// starts on a Monday at 09:30 in India (BOURSE_TEST_CLOCK), a new customer buys RELIANCE at market,
// sees the holding locked until T+1, is refused a sale of the locked shares and a wrong transaction
// password (nothing changes), the clock moves to the next trading day (POST /test/clock/advance), the
// shares unlock, the customer sells at market and sees the realized P&L and the ledger lines.
// Screenshots: test-results/screens/web-trade-real-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, launchBrowser, phonePage, registerCustomer, type Server, shot, startServer } from './harness.ts';

const PIN = '135790';
const DAY = 86_400_000;

const TEXT = {
  'en-US': {
    locked: 'locked until',
    completed: 'Completed',
    history: 'History',
    wrongPin: 'incorrect',
    zeroQuantity: 'The quantity cannot be 0',
    zeroPrice: 'The price cannot be 0',
    offTick: 'The price must be a multiple of the tick size',
    outsideBand: 'The price is outside today’s price band',
    aboveMaximum: 'The order amount is above the maximum',
    unlisted: 'This stock is unlisted and cannot be traded.',
  },
  'pt-BR': {
    locked: 'bloqueadas até',
    completed: 'Executada',
    history: 'Histórico',
    wrongPin: 'incorreta',
    zeroQuantity: 'A quantidade não pode ser 0',
    zeroPrice: 'O preço não pode ser 0',
    offTick: 'O preço deve ser múltiplo do tick',
    outsideBand: 'O preço está fora da faixa de hoje',
    aboveMaximum: 'O valor da ordem está acima do máximo',
    unlisted: 'Esta ação está fora de listagem e não pode ser negociada.',
  },
} as const;

let server: Server;
let browser: Browser;

beforeAll(async () => {
  // A deployment limit on order amounts, so one server-side rule shows through the preview.
  server = await startServer({ BOURSE_TEST_CLOCK: '2026-01-05T04:00:00Z', STOCK_MAX_AMOUNT: 'INR:500000.00' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const api = (path: string, body: Record<string, string> | null, token?: string, lang = 'en-US') =>
  apiCall(server, path, body, { token, lang });

/** A fresh customer with a transaction password, signed in through the API. */
async function customer(phone: string) {
  const { token, user } = await registerCustomer(server, phone, { tradePassword: PIN });
  return { token, user };
}

async function enterPin(page: Page, pin: string) {
  await page.getByTestId('confirm-sheet').waitFor();
  await page.locator('.adm-number-keyboard-key').first().waitFor();
  await page.waitForTimeout(350);
  for (const digit of pin) await page.locator('.adm-number-keyboard-key').getByText(digit, { exact: true }).click();
}

async function placeMarketOrder(page: Page, side: 'buy' | 'sell', quantity: string, { preview = true } = {}) {
  await page.goto(`${server.baseUrl}/pages/stock/order?symbol=NSE:RELIANCE&side=${side}`);
  await page.getByTestId('order-form').waitFor();
  await page.getByTestId('quantity-input').fill(quantity);
  if (preview) await page.getByTestId('preview-fee').filter({ hasText: '₹' }).waitFor();
}

describe('stock trading against the real server', () => {
  for (const [n, lang] of (['en-US', 'pt-BR'] as const).entries()) {
    const text = TEXT[lang];
    it(`buys at market, sees the T+1 lock, sells the next day and sees realized P&L (${lang})`, async () => {
      const { token, user } = await customer(`90000002${n}1`);
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
        // Buy 5 at market, confirmed with the transaction password.
        await placeMarketOrder(page, 'buy', '5');
        await shot(page, `web-trade-real-buy-${lang}`);
        await page.getByTestId('order-submit').click();
        await enterPin(page, PIN);
        await page.waitForURL(/\/pages\/stock\/list/);
        await page.getByTestId('order-tabs').getByRole('tab', { name: text.history }).click();
        await page.getByTestId('order-row').filter({ hasText: text.completed }).first().waitFor();
        await shot(page, `web-trade-real-orders-${lang}`);

        // The holding: 5 shares, all locked until the next trading day.
        await page.goto(`${server.baseUrl}/pages/tabbar/trade?type=stock`);
        await page.getByTestId('lock-badge').first().waitFor();
        await expect(page.getByTestId('lock-badge').first().textContent()).resolves.toContain(text.locked);
        await page.getByTestId('holding').first().scrollIntoViewIfNeeded();
        await shot(page, `web-trade-real-locked-${lang}`);

        // Refused and nothing changed: selling locked shares (sellable is 0), and a wrong password.
        const before = await api('/stock/order/list', null, token);
        await placeMarketOrder(page, 'sell', '5', { preview: false });
        await page.getByTestId('available').filter({ hasText: /^0/ }).waitFor();
        await page.getByTestId('order-submit').click();
        await page.locator('#quantity-error').waitFor();
        await shot(page, `web-trade-real-sell-locked-${lang}`);
        await placeMarketOrder(page, 'buy', '1');
        await page.getByTestId('order-submit').click();
        await enterPin(page, '000000');
        await page.getByTestId('order-error').waitFor();
        await expect(page.getByTestId('order-error').textContent()).resolves.toMatch(new RegExp(text.wrongPin, 'i'));
        await shot(page, `web-trade-real-wrong-pin-${lang}`);
        expect((await api('/stock/order/list', null, token)).data.total).toBe(before.data.total);

        // Each rule's message in this language, from the form's checks and from the server's preview.
        const info = (await api('/stock/index/info?symbol=NSE:RELIANCE', null)).data;
        const rules: [string, string, string, string][] = [
          ['side=buy', '0', '', text.zeroQuantity],
          ['side=buy&orderType=limit', '5', '0', text.zeroPrice],
          ['side=buy&orderType=limit', '5', '1500.03', text.offTick],
          ['side=buy&orderType=limit', '5', (Number(info.bandHi) + 10).toFixed(2), text.outsideBand],
          ['side=buy', '400', '', text.aboveMaximum],
        ];
        for (const [query, quantity, price, message] of rules) {
          await page.goto(`${server.baseUrl}/pages/stock/order?symbol=NSE:RELIANCE&${query}`);
          await page.getByTestId('order-form').waitFor();
          if (price) await page.getByTestId('price-input').fill(price);
          await page.getByTestId('quantity-input').fill(quantity);
          await page.getByTestId('order-submit').click();
          await page.getByRole('alert').filter({ hasText: message }).first().waitFor();
        }
        await shot(page, `web-trade-real-rule-${lang}`);
        await page.goto(`${server.baseUrl}/pages/stock/order?symbol=NSE:JETAIRWAYS&side=buy`);
        await page.getByText(text.unlisted).waitFor();
        await expect(page.getByTestId('order-submit').isDisabled()).resolves.toBe(true);
        expect((await api('/stock/order/list', null, token)).data.total).toBe(before.data.total);

        // The next trading day: the settlement job unlocks the shares; sell them at market.
        const moved = await api('/test/clock/advance', { ms: String(DAY) });
        expect(moved.code).toBe(0);
        const holding = (await api('/stock/hold/info?symbol=NSE:RELIANCE', null, token)).data;
        expect(holding).toMatchObject({ quantity: '5', sellable: '5', locked: '0' });
        await placeMarketOrder(page, 'sell', '5');
        await page.getByTestId('available').filter({ hasText: /^5/ }).waitFor();
        await page.getByTestId('order-submit').click();
        await enterPin(page, PIN);
        await page.waitForURL(/\/pages\/stock\/list/);

        // Realized P&L on the income page and the ledger lines in the funds detail.
        await page.goto(`${server.baseUrl}/pages/stock/income`);
        await page.getByTestId('income-card').first().waitFor();
        const realized = (await api('/stock/hold/info?symbol=NSE:RELIANCE', null, token)).data.realizedPnl as string;
        expect(Number(realized)).not.toBe(0);
        await expect(page.getByTestId('order-stats').textContent()).resolves.toContain('2');
        await shot(page, `web-trade-real-income-${lang}`);
        await page.goto(`${server.baseUrl}/pages/fundsDetail/stockFundsDetail`);
        await page.getByTestId('ledger').first().waitFor();
        await expect(page.locator('.ledger-row').count()).resolves.toBeGreaterThanOrEqual(5);
        await shot(page, `web-trade-real-ledger-${lang}`);
        expect(errors).toEqual([]);
        // Move the clock back to the same weekday time for the next language's run.
        await api('/test/clock/advance', { ms: String(6 * DAY) });
      } finally {
        await context.close();
      }
    });
  }
});
