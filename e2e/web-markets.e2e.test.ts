// Proves the customer app's market screens against the real server (its market-data calls and the
// simulator) at 390×844 in both languages: Home (status line, live index cards, hot list, news),
// Markets (stocks by country, sorting, the load-more footer, crypto), search with its local history,
// and a K-line page (quote header, chart with the TradingView attribution, interval tabs, order book).
// The home feed (/index/ads, /index/notice, /index/news) is not served yet: those three calls are
// answered from apps/web/test-fixtures with page.route. Screenshots: test-results/screens/web-markets-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ads, news, newsInfo, notices } from '../apps/web/test-fixtures/market.ts';
import { launchBrowser, phonePage, type Server, shot, startServer } from './harness.ts';

const TEXT = {
  'en-US': {
    virtualMoney: 'Virtual money',
    hot: 'Most active',
    crypto: 'Crypto',
    noMore: 'No more',
    loadMore: 'Load more',
    orderBook: 'Order book',
    buy: 'Buy',
  },
  'pt-BR': {
    virtualMoney: 'Dinheiro virtual',
    hot: 'Mais negociadas',
    crypto: 'Cripto',
    noMore: 'Não há mais',
    loadMore: 'Carregar mais',
    orderBook: 'Livro de ofertas',
    buy: 'Comprar',
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

function envelope(data: unknown) {
  return { status: 200, contentType: 'application/json', body: JSON.stringify({ code: 0, msg: 'success', data }) };
}

async function mockHomeFeed(page: Page) {
  await page.route('**/ipor-api/index/**', (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.endsWith('/index/ads')) return route.fulfill(envelope(ads));
    if (url.pathname.endsWith('/index/notice')) return route.fulfill(envelope(notices));
    if (url.pathname.endsWith('/index/news/info')) return route.fulfill(envelope(newsInfo));
    if (url.pathname.endsWith('/index/news')) return route.fulfill(envelope(news));
    return route.continue();
  });
}

describe('customer app market screens (real server)', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    const text = TEXT[lang];
    it(`Home, Markets, search and a K-line page in ${lang}`, async () => {
      const { context, page } = await phonePage(browser, lang);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await mockHomeFeed(page);
      try {
        // Home: status line, live index cards, hot list, news.
        await page.goto(`${server.baseUrl}/pages/tabbar/home`);
        await page.getByTestId('index-card').first().waitFor();
        await page.getByTestId('quote-row').first().waitFor();
        await page.getByTestId('market-status').waitFor();
        await expect(page.getByTestId('paper-badge').textContent()).resolves.toContain(text.virtualMoney);
        await expect(page.getByText(text.hot).count()).resolves.toBeGreaterThan(0);
        const firstChange = (await page.locator('.change-pill').first().textContent()) ?? '';
        expect(firstChange).toMatch(/^[+-]?\d+[.,]\d{2}%$/);
        // Home must not have loaded the chart library.
        const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
        expect(scripts.some((name) => /\/chart-[^/]+\.js$/.test(name))).toBe(false);
        await page.waitForTimeout(400);
        await shot(page, `web-markets-home-${lang}`);
        await page.mouse.wheel(0, 700);
        await page.waitForTimeout(300);
        await shot(page, `web-markets-home-news-${lang}`);

        // Markets: stocks of the country, sorted by change; footer; crypto.
        await page.goto(`${server.baseUrl}/pages/tabbar/markets`);
        await page.getByTestId('quote-row').first().waitFor();
        expect(await page.getByTestId('quote-row').count()).toBeGreaterThanOrEqual(10);
        await expect(page.getByTestId('load-more').textContent()).resolves.toMatch(
          new RegExp(`${text.noMore}|${text.loadMore}|…`),
        );
        await shot(page, `web-markets-list-${lang}`);
        await page.getByTestId('country-switch').getByRole('tab').nth(2).click(); // Brazil
        await page
          .getByText(/R\$|PETR4|VALE3/)
          .first()
          .waitFor({ timeout: 15_000 })
          .catch(() => undefined);
        await page.getByTestId('quote-row').first().waitFor();
        await shot(page, `web-markets-list-br-${lang}`);
        await page.getByTestId('markets-segment').getByRole('tab', { name: text.crypto }).click();
        await page.getByTestId('quote-row').first().waitFor();
        expect(await page.getByTestId('quote-row').first().textContent()).toMatch(/USDT/);
        await shot(page, `web-markets-crypto-${lang}`);

        // Search, remembered locally.
        await page.goto(`${server.baseUrl}/pages/stock/search`);
        await page.getByTestId('search-input').fill('rel');
        await page.getByTestId('search-results').waitFor();
        await page.getByTestId('search-input').press('Enter');
        const history = await page.evaluate(() => localStorage.getItem('searchHistory'));
        expect(history).toContain('rel');
        await shot(page, `web-markets-search-${lang}`);

        // K-line page: header, chart (dynamic chunk) with the attribution, order book, Buy/Sell.
        await page.goto(`${server.baseUrl}/pages/stock/stockKline?symbol=NSE:RELIANCE`);
        await page.getByTestId('quote-header').waitFor();
        await page.locator('[data-testid=kline-canvas] canvas').first().waitFor({ timeout: 20_000 });
        await page.locator('a[href*="tradingview.com"]').first().waitFor({ state: 'attached' });
        await page.getByText(text.orderBook).first().waitFor();
        await expect(page.getByTestId('buy-button').textContent()).resolves.toBe(text.buy);
        await page.waitForTimeout(500);
        await shot(page, `web-markets-kline-${lang}`);
        await page.getByRole('tab', { name: '1W' }).click();
        await page.waitForTimeout(600);
        await page.mouse.wheel(0, 600);
        await page.waitForTimeout(300);
        await shot(page, `web-markets-kline-depth-${lang}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
