// Proves the customer app's market screens against the real server (its market-data calls and the
// simulator) at 390×844 in both languages: Home (status line, live index cards, hot list, news),
// Markets (stocks by country, sorting, the load-more footer, crypto), search with its local history,
// and a K-line page (quote header, chart with the TradingView attribution, interval tabs, order book).
// The home feed (banners, notices, news) is the server's seeded paper-mode content, in the page's
// language. Screenshots: test-results/screens/web-markets-*.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    paperNotice: 'Paper mode: every balance here is virtual money',
    firstNews: 'How the paper market works',
  },
  'pt-BR': {
    virtualMoney: 'Dinheiro virtual',
    hot: 'Mais negociadas',
    crypto: 'Cripto',
    noMore: 'Não há mais',
    loadMore: 'Carregar mais',
    orderBook: 'Livro de ofertas',
    buy: 'Comprar',
    paperNotice: 'Modo simulado: todo saldo aqui é dinheiro virtual',
    firstNews: 'Como funciona o mercado simulado',
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

describe('customer app market screens (real server)', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    const text = TEXT[lang];
    it(`Home, Markets, search and a K-line page in ${lang}`, async () => {
      const { context, page } = await phonePage(browser, lang);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        // Home: status line, live index cards, hot list, news.
        await page.goto(`${server.baseUrl}/pages/tabbar/home`);
        await page.getByTestId('index-card').first().waitFor();
        await page.getByTestId('quote-row').first().waitFor();
        await page.getByTestId('market-status').waitFor();
        // The seeded feed: banners, the notice bar and the news, in this language.
        await page.locator('.banners__item img').first().waitFor();
        await expect(page.getByTestId('notice-bar').textContent()).resolves.toContain(text.paperNotice);
        await expect(page.locator('.news-row__title').first().textContent()).resolves.toBe(text.firstNews);
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
