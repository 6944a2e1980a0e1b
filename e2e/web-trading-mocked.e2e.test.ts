// Proves the customer app's stock-trading screens at 390×844 in both languages while the server's
// trading calls are still being built: the real server serves the app, its props and its market data;
// the signed-in calls (/user/login/info, /user/assets, /stock/hold/*, /stock/order/*,
// /stock/collect/list, /user/tx/record) are answered with page.route from apps/web/test-fixtures.
// Covers the Trade tab (account summary, open orders, holdings with the T+1 lock), the order form
// (steppers, fee preview, confirmation sheet, 6-digit password on the NumberKeyboard, idempotency key,
// success → order list), the order list tabs with status chips, and the stock funds detail.
// Screenshots: test-results/screens/web-trading-*.png.
import { errorMessage, type Lang } from '@bourse/contract';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assets,
  historyOrders,
  holdings,
  ledger,
  loginInfo,
  openOrders,
  order,
  preview,
  statistics,
} from '../apps/web/test-fixtures/market.ts';
import { launchBrowser, phonePage, type Server, shot, startServer } from './harness.ts';

const TEXT = {
  'en-US': {
    buy: 'Buy',
    confirm: 'Confirm order',
    submitted: 'Order submitted',
    history: 'History',
    completed: 'Completed',
    fee: 'Fee',
    locked: 'locked until',
  },
  'pt-BR': {
    buy: 'Comprar',
    confirm: 'Confirmar ordem',
    submitted: 'Ordem enviada',
    history: 'Histórico',
    completed: 'Executada',
    fee: 'Taxa',
    locked: 'bloqueadas até',
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

const ok = (data: unknown) => ({
  status: 200,
  contentType: 'application/json',
  body: JSON.stringify({ code: 0, msg: 'success', data }),
});

interface Placed {
  path: string;
  body: Record<string, string>;
  idempotencyKey: string | undefined;
}

async function mockTrading(page: Page, placed: Placed[], lang: Lang) {
  let refusedOnce = false;
  const form = (request: Request) => Object.fromEntries(new URLSearchParams(request.postData() ?? ''));
  await page.route('**/ipor-api/**', async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const path = url.pathname.replace('/ipor-api', '');
    switch (path) {
      case '/user/login/info':
        return route.fulfill(ok(loginInfo));
      case '/user/assets':
        return route.fulfill(ok(assets));
      case '/stock/hold/list':
        return route.fulfill(ok(holdings));
      case '/stock/hold/info':
        return route.fulfill(ok(holdings.items.find((h) => h.symbol === url.searchParams.get('symbol')) ?? null));
      case '/stock/order/list':
        return route.fulfill(ok(url.searchParams.get('status') === 'history' ? historyOrders : openOrders));
      case '/stock/order/statistics':
        return route.fulfill(ok(statistics));
      case '/stock/collect/list':
        return route.fulfill(ok({ items: [] }));
      case '/user/tx/record':
        return route.fulfill(ok(ledger));
      case '/stock/order/preview': {
        const info = (await (
          await fetch(
            `${server.baseUrl}/ipor-api/stock/index/info?symbol=${encodeURIComponent(form(request).symbol ?? '')}`,
          )
        ).json()) as { data: { price: string; currency: string; isOpen: boolean } };
        return route.fulfill(ok(preview(form(request), info.data)));
      }
      case '/stock/order/buy':
      case '/stock/order/sell': {
        const body = form(request);
        placed.push({ path, body, idempotencyKey: request.headers()['idempotency-key'] });
        // The first order is refused (as the engine would, for a balance that fell meanwhile).
        if (!refusedOnce) {
          refusedOnce = true;
          return route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({
              code: -1001,
              msg: errorMessage('insufficient_balance', lang),
              data: null,
              error: 'insufficient_balance',
            }),
          });
        }
        return route.fulfill(
          ok({
            order: order({ id: 6001, symbol: body.symbol ?? '', status: 'pending', quantity: body.quantity ?? '0' }),
          }),
        );
      }
      default:
        return route.continue();
    }
  });
}

describe('customer app trading screens (mocked trading calls)', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    const text = TEXT[lang];
    it(`Trade tab, order form with confirmation, orders and funds in ${lang}`, async () => {
      const { context, page } = await phonePage(browser, lang);
      await context.addInitScript(() => {
        localStorage.setItem('userToken', 'e2e-token');
        localStorage.setItem(
          'userInfo',
          JSON.stringify({ id: 100234, account: '9876543210', status: 1, idStatus: 'succ' }),
        );
      });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const placed: Placed[] = [];
      await mockTrading(page, placed, lang);
      try {
        await page.goto(`${server.baseUrl}/pages/tabbar/trade?type=stock`);
        await page.getByTestId('account-summary').waitFor();
        await page.getByTestId('holding').first().waitFor();
        await expect(page.getByTestId('account-summary').textContent()).resolves.toContain('₹');
        await shot(page, `web-trading-trade-${lang}`);
        await page.getByTestId('lock-badge').first().scrollIntoViewIfNeeded();
        await expect(page.getByTestId('lock-badge').first().textContent()).resolves.toContain(text.locked);
        await shot(page, `web-trading-holdings-${lang}`);

        // Order form: limit buy, steppers, preview, confirmation, passcode, success → order list.
        await page.goto(`${server.baseUrl}/pages/stock/order?symbol=NSE:RELIANCE&side=buy`);
        await page.getByTestId('order-form').waitFor();
        await page.getByTestId('quantity-input').fill('3');
        await page
          .getByRole('button', { name: /Increase|Aumentar/ })
          .last()
          .click();
        await expect(page.getByTestId('quantity-input').inputValue()).resolves.toBe('4');
        await page.getByTestId('preview-fee').filter({ hasText: '₹' }).waitFor();
        await shot(page, `web-trading-order-${lang}`);
        await page.getByTestId('order-submit').click();
        await page.getByTestId('confirm-sheet').waitFor();
        await page.getByText(text.confirm).waitFor();
        // The sheet focuses the passcode, which opens the on-screen NumberKeyboard (touch screen).
        await page.locator('.adm-number-keyboard-key').first().waitFor();
        await page.waitForTimeout(300);
        await shot(page, `web-trading-confirm-${lang}`);
        const typePasscode = async () => {
          for (const digit of '123456') {
            await page.locator('.adm-number-keyboard-key').getByText(digit, { exact: true }).click();
          }
        };
        await typePasscode();
        // Refused: the sheet says why and stays open; the next attempt is a new order with a new key
        // (the server would answer the refused key with the same refusal).
        await page.getByTestId('confirm-sheet').getByText(errorMessage('insufficient_balance', lang)).waitFor();
        await shot(page, `web-trading-confirm-refused-${lang}`);
        expect(placed).toHaveLength(1);
        await typePasscode();
        await page.waitForURL(/\/pages\/stock\/list/);
        expect(placed).toHaveLength(2);
        for (const attempt of placed) {
          expect(attempt.path).toBe('/stock/order/buy');
          expect(attempt.body).toMatchObject({
            symbol: 'NSE:RELIANCE',
            orderType: 'market',
            quantity: '4',
            password: '123456',
          });
          expect(attempt.body.clientOrderId).toBe(attempt.idempotencyKey);
          expect(attempt.body.clientOrderId?.length).toBeGreaterThanOrEqual(8);
        }
        expect(placed[1]?.body.clientOrderId).not.toBe(placed[0]?.body.clientOrderId);

        // Order list: open tab, then history with the SPEC §4 status chips; detail sheet.
        await page.getByTestId('order-row').first().waitFor();
        await shot(page, `web-trading-orders-open-${lang}`);
        await page.getByTestId('order-tabs').getByRole('tab', { name: text.history }).click();
        await page.getByText(text.completed).first().waitFor();
        await shot(page, `web-trading-orders-history-${lang}`);
        await page.getByTestId('order-row').first().locator('.order-row__main').click();
        await page.getByTestId('order-detail').waitFor();
        await page.waitForTimeout(400);
        await shot(page, `web-trading-order-detail-${lang}`);

        // Funds detail: ledger lines by day, signed and coloured.
        await page.goto(`${server.baseUrl}/pages/fundsDetail/stockFundsDetail`);
        await page.getByTestId('ledger').first().waitFor();
        await expect(page.locator('.ledger-row__amount.num--down').count()).resolves.toBeGreaterThan(0);
        await expect(page.locator('.ledger-row__amount.num--up').count()).resolves.toBeGreaterThan(0);
        await shot(page, `web-trading-funds-${lang}`);

        // Sell side: sellable shares excluding the T+1 locked ones.
        await page.goto(`${server.baseUrl}/pages/stock/order?symbol=NSE:RELIANCE&side=sell&orderType=limit`);
        await page.getByTestId('available').filter({ hasText: '15' }).waitFor();
        await page.getByTestId('quantity-input').fill('20');
        await page.getByTestId('order-submit').click();
        await page.locator('#quantity-error').waitFor();
        await shot(page, `web-trading-sell-${lang}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
