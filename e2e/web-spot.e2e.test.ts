// Crypto spot trading end to end against the real server (paper mode), in both languages at 390×844: a
// new customer is funded with USDT through the sandbox chain (a test deposit, confirmed by moving the
// server's clock), opens the trading screen from the Trade tab (crypto by default), picks a price from
// the order book, places a limit buy away from the market (it rests and shows in open orders), cancels it
// (order history says so), then buys at market against the liquidity bot and sees the fill in the trade
// history with its taker fee. Also: the pair sheet, the Markets tab's crypto list opening the trading
// screen, the favourites star and filter, and the crypto sign-in landing on the trading screen.
// Screenshots: test-results/screens/web-spot-*.png.
import { compareDecimal } from '@bourse/money';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  blockingAxeViolations,
  customerPage,
  launchBrowser,
  phonePage,
  registerCustomer,
  type Server,
  shot,
  startServer,
} from './harness.ts';

const PIN = '135790';

const TEXT = {
  'en-US': {
    available: '10,000.00 USDT',
    amended: 'Quantity lowered',
    waiting: 'Waiting',
    recentTrades: 'Trades',
    chart: 'Chart',
    stocks: 'Stocks',
    rests: 'Order placed on the book',
    cancel: 'Cancel',
    cancelled: 'Cancelled',
    filled: 'Order filled',
    taker: 'Taker',
    history: 'Order history',
    favourites: 'Favourite pairs',
    signIn: 'Sign in',
  },
  'pt-BR': {
    available: '10.000,00 USDT',
    amended: 'Quantidade reduzida',
    waiting: 'Aguardando',
    recentTrades: 'Negócios',
    chart: 'Gráfico',
    stocks: 'Ações',
    rests: 'Ordem enviada ao livro',
    cancel: 'Cancelar',
    cancelled: 'Cancelada',
    filled: 'Ordem executada',
    taker: 'Taker',
    history: 'Histórico',
    favourites: 'Pares favoritos',
    signIn: 'Entrar',
  },
} as const;

let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ BOURSE_TEST_CLOCK: '2026-01-05T04:00:00Z', CRYPTO_SCAN_EVERY_MS: '0' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const api = (path: string, body: Record<string, string> | null, token?: string) =>
  apiCall(server, path, body, { token });

async function spotBalance(token: string, asset: string): Promise<string> {
  const items = (await api('/user/assets', {}, token)).data.items as {
    wallet: string;
    asset: string;
    available: string;
  }[];
  return items.find((b) => b.wallet === 'spot' && b.asset === asset)?.available ?? '0';
}

/** A fresh customer with a transaction password and paper mode's 10,000 USDT grant in the spot wallet. */
async function fundedCustomer(phone: string) {
  const { token, user } = await registerCustomer(server, phone, { tradePassword: PIN });
  await expect.poll(() => spotBalance(token, 'USDT'), { timeout: 15_000 }).toBe('10000.000000');
  return { token, user, phone };
}

/** `price` × pct / 100, at the price's own decimals (rounded down). */
function percentOf(price: string, pct: bigint): string {
  const scale = price.includes('.') ? (price.split('.')[1] as string).length : 0;
  const digits = ((BigInt(price.replace('.', '')) * pct) / 100n).toString().padStart(scale + 1, '0');
  return scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
}

async function enterPin(page: Page, pin: string) {
  await page.getByTestId('confirm-sheet').waitFor();
  await page.locator('.adm-number-keyboard-key').first().waitFor();
  await page.waitForTimeout(350);
  for (const digit of pin) await page.locator('.adm-number-keyboard-key').getByText(digit, { exact: true }).click();
}

async function openOrders(token: string) {
  return (await api('/coin/order/list', { status: 'open', symbol: 'BTCUSDT' }, token)).data.items as {
    id: number;
    status: string;
    quantity: string;
  }[];
}

describe('crypto spot trading against the real server', () => {
  for (const [n, lang] of (['en-US', 'pt-BR'] as const).entries()) {
    const text = TEXT[lang];
    it(`rests, amends and cancels a limit buy, buys at market with its fee, waits on a stop-limit (${lang})`, async () => {
      const { token, user } = await fundedCustomer(`90000003${n}1`);
      const { page } = await customerPage(browser, lang, { token, user });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        // The Trade tab opens on crypto.
        await page.goto(`${server.baseUrl}/pages/tabbar/trade`);
        await page.getByTestId('spot-screen').waitFor();
        await page.getByTestId('spot-form').waitFor();
        await page.getByTestId('order-book').locator('.book-row').first().waitFor();
        await expect.poll(() => page.getByTestId('available').textContent()).toContain(text.available);
        await shot(page, `web-spot-trade-tab-${lang}`);
        expect(await blockingAxeViolations(page)).toEqual([]);

        // The pair sheet lists the pairs with their prices.
        await page.getByTestId('pair-pick').click();
        await page.getByTestId('pair-sheet').getByTestId('pair-row').nth(3).waitFor();
        await shot(page, `web-spot-pairs-${lang}`);
        await page.getByTestId('pair-sheet').getByTestId('pair-row').filter({ hasText: 'BTCUSDT' }).click();
        await page.getByTestId('pair-sheet').waitFor({ state: 'hidden' });

        // A tapped bid fills the price; then a limit buy 5 % under the best bid rests on the book.
        const book = (await api('/coin/books', { symbol: 'BTCUSDT' })).data as { bids: [string, string][] };
        const bestBid = book.bids.map((b) => b[0]).sort((a, b) => compareDecimal(b, a))[0] as string;
        await page.getByTestId('price-input').fill('');
        // Read the row's price and tap it in one step: the live book moves every second.
        const tapped = (await page.evaluate(`(() => {
          const row = document.querySelector('.book-row--bid');
          const price = row.querySelector('.book-row__price').textContent;
          row.click();
          return price;
        })()`)) as string;
        await expect
          .poll(async () => (await page.getByTestId('price-input').inputValue()).replace(/\D/g, ''))
          .toBe(tapped.replace(/\D/g, ''));
        await page.getByTestId('price-input').fill(percentOf(bestBid, 95n));
        // Half of the available USDT, fee included, in whole lots: the box shows it and the preview agrees.
        const track = page.locator('.spot-form .adm-slider-track-container');
        const box = await track.boundingBox();
        if (!box) throw new Error('no slider');
        await track.click({ position: { x: box.width / 2, y: box.height / 2 } });
        await expect.poll(() => page.getByTestId('quantity-input').inputValue()).toMatch(/^0\.0\d{3}$/);
        await page
          .getByTestId('preview-total')
          .filter({ hasText: /4[.,]9\d{2}[.,]\d{2}/ })
          .waitFor();
        await page.getByTestId('quantity-input').fill('0.01');
        await page
          .getByTestId('preview-fee')
          .filter({ hasText: /BTC|USDT/ })
          .waitFor();
        await page.getByRole('button', { name: /Advanced|Avançado/ }).click();
        await page.getByTestId('post-only').waitFor();
        await page.getByTestId('order-submit').scrollIntoViewIfNeeded();
        await shot(page, `web-spot-form-${lang}`);
        expect(await blockingAxeViolations(page)).toEqual([]);
        await page.getByTestId('order-submit').click();
        await page.getByTestId('confirm-sheet').waitFor();
        await shot(page, `web-spot-confirm-${lang}`);
        await enterPin(page, PIN);
        await page.getByText(text.rests).waitFor();
        await page.getByTestId('open-orders').getByTestId('spot-order').first().waitFor();
        await page.getByTestId('open-orders').scrollIntoViewIfNeeded();
        await shot(page, `web-spot-open-${lang}`);
        expect(await openOrders(token)).toHaveLength(1);
        // The confirmation toast fades out first (axe would measure its text mid-fade).
        await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
        expect(await blockingAxeViolations(page)).toEqual([]);

        // Amend it down: the quantity falls from 0.01 to 0.005 and the order keeps resting.
        await page.getByTestId('amend-order').first().click();
        await page.getByTestId('amend-sheet').waitFor();
        await page.getByTestId('amend-quantity-input').fill('0.005');
        await shot(page, `web-spot-amend-${lang}`);
        await page.getByTestId('amend-submit').click();
        await page.getByText(text.amended).waitFor();
        await expect.poll(async () => (await openOrders(token))[0]?.quantity).toMatch(/^0\.0050*$/);
        await page
          .getByTestId('open-orders')
          .getByText(/0[.,]005/)
          .waitFor();

        // Cancel it: gone from open orders, in the history as cancelled.
        await page.getByTestId('cancel-order').first().click();
        await page.locator('.adm-dialog').getByRole('button', { name: text.cancel, exact: true }).click();
        await page.getByTestId('open-orders').waitFor({ state: 'detached' });
        expect(await openOrders(token)).toHaveLength(0);
        await page.getByTestId('account-tabs').getByRole('tab', { name: text.history }).click();
        await page.getByTestId('order-history').getByText(text.cancelled).first().waitFor();
        await shot(page, `web-spot-history-${lang}`);

        // A market buy fills against the liquidity bot: the trade shows with its taker fee.
        await page.getByTestId('type-market').click();
        await page.getByTestId('quantity-input').fill('0.01');
        await page
          .getByTestId('preview-fee')
          .filter({ hasText: /BTC|USDT/ })
          .waitFor();
        await page.getByTestId('order-submit').click();
        await enterPin(page, PIN);
        await page.getByText(text.filled).waitFor();
        const trade = page.getByTestId('trade-history').getByTestId('spot-trade').first();
        await trade.waitFor();
        expect(await trade.textContent()).toContain(text.taker);
        const fills = (await api('/coin/order/trades', { symbol: 'BTCUSDT' }, token)).data.items as {
          fee: string;
          feeAsset: string;
        }[];
        expect(fills.length).toBeGreaterThan(0);
        expect(compareDecimal(fills[0]!.fee, '0')).toBe(1);
        expect(await trade.getByTestId('trade-fee').textContent()).toContain(fills[0]!.feeAsset);
        await trade.scrollIntoViewIfNeeded();
        await shot(page, `web-spot-trades-${lang}`);
        expect(compareDecimal(await spotBalance(token, 'BTC'), '0')).toBe(1);
        // Every pair's fills at once: an ETH buy placed through the API joins the list, then leaves it again.
        const eth = { symbol: 'ETHUSDT', side: 'buy', type: 'market', quantity: '0.01', password: PIN };
        expect((await api('/coin/order/add', eth, token)).code).toBe(0);
        const ethRows = () => page.getByTestId('trade-history').getByText('ETHUSDT').count();
        await page.getByTestId('all-pairs').check();
        await expect.poll(ethRows).toBeGreaterThan(0);
        await page.getByTestId('all-pairs').uncheck();
        await expect.poll(ethRows).toBe(0);

        // A stop-limit buy above the market waits for its stop price, shown as waiting; then cancelled.
        const asks = (await api('/coin/books', { symbol: 'BTCUSDT' })).data.asks as [string, string][];
        const bestAsk = asks.map((a) => a[0]).sort(compareDecimal)[0] as string;
        await page.getByTestId('type-stop_limit').click();
        await page.getByTestId('stop-price-input').fill(percentOf(bestAsk, 110n));
        await page.getByTestId('price-input').fill(percentOf(bestAsk, 111n));
        await page.getByTestId('quantity-input').fill('0.001');
        await page
          .getByTestId('preview-fee')
          .filter({ hasText: /BTC|USDT/ })
          .waitFor();
        await page.getByTestId('stop-price-input').scrollIntoViewIfNeeded();
        await shot(page, `web-spot-stop-limit-${lang}`);
        await page.getByTestId('order-submit').click();
        await enterPin(page, PIN);
        await page.getByTestId('open-orders').getByText(text.waiting).waitFor();
        expect((await openOrders(token))[0]?.status).toBe('untriggered');
        await page.getByTestId('cancel-order').first().click();
        await page.locator('.adm-dialog').getByRole('button', { name: text.cancel, exact: true }).click();
        await page.getByTestId('open-orders').waitFor({ state: 'detached' });

        // The recent trades panel, then the chart panel: candles with SMA and volume.
        await page.getByTestId('market-panel').getByRole('tab', { name: text.recentTrades }).click();
        await page.getByTestId('recent-trades').waitFor();
        await page.getByTestId('market-panel').scrollIntoViewIfNeeded();
        await shot(page, `web-spot-recent-trades-${lang}`);
        // The chart panel: candles with SMA and volume.
        await page.getByTestId('market-panel').getByRole('tab', { name: text.chart }).click();
        await page.getByTestId('kline-legend').waitFor();
        await page.locator('.kline-chart canvas').first().waitFor();
        await page.getByTestId('market-panel').scrollIntoViewIfNeeded();
        await shot(page, `web-spot-chart-${lang}`);

        // The favourites star, then the Markets tab's crypto list filtered to favourites.
        await page.getByTestId('coin-star').click();
        await expect.poll(() => page.getByTestId('coin-star').getAttribute('aria-pressed')).toBe('true');
        await page.goto(`${server.baseUrl}/pages/tabbar/markets`);
        await page
          .getByTestId('markets-segment')
          .getByRole('tab', { name: /Crypto|Cripto/ })
          .click();
        await page.getByTestId('coin-filter').getByRole('button', { name: text.favourites }).click();
        await page.getByTestId('quote-row').filter({ hasText: 'BTCUSDT' }).waitFor();
        await shot(page, `web-spot-markets-favourites-${lang}`);
        await page.getByTestId('quote-row').filter({ hasText: 'BTCUSDT' }).click();
        await page.waitForURL(/\/pages\/coin\/index\?symbol=BTCUSDT/);
        await page.getByTestId('spot-form').waitFor();

        // The stock side stays one tap away on the Trade tab.
        await page.goto(`${server.baseUrl}/pages/tabbar/trade`);
        await page.getByTestId('trade-type').getByRole('tab', { name: text.stocks }).click();
        await page.getByTestId('account-summary').waitFor();
        await shot(page, `web-spot-trade-stocks-${lang}`);
        expect(errors).toEqual([]);
      } catch (error) {
        // What the screen showed when it failed, for whoever reads the run.
        await shot(page, `web-spot-failure-${lang}`).catch(() => undefined);
        throw error;
      } finally {
        await page.context().close();
      }
    });
  }

  it('the crypto sign-in lands on the trading screen', async () => {
    const { page } = await phonePage(browser, 'pt-BR');
    try {
      // Signed out, the screen shows the market and asks to sign in where the form would be.
      await page.goto(`${server.baseUrl}/pages/coin/index?symbol=ETHUSDT`);
      await page.getByTestId('order-book').waitFor();
      await page.getByTestId('sign-in-prompt').scrollIntoViewIfNeeded();
      await shot(page, 'web-spot-signed-out-pt-BR');
      await page.goto(`${server.baseUrl}/pages/account/coinLogin`);
      await page.getByTestId('login-form').waitFor();
      await shot(page, 'web-spot-coin-login-pt-BR');
      await page.locator('input[name="phone"]').fill('9000000301');
      await page.locator('input[name="password"]').fill('secret12');
      await page.getByTestId('login-form').getByRole('button', { name: TEXT['pt-BR'].signIn, exact: true }).click();
      await page.waitForURL(/\/pages\/coin\/index$/);
      await page.getByTestId('spot-form').waitFor();
    } finally {
      await page.context().close();
    }
  });
});
