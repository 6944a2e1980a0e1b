// The stock sentiment vote and the install page end to end against the real server, at 390×844, in
// both languages: a new customer opens a stock's chart, follows its "Sentiment vote" entry, votes
// bullish (confirming that it cannot be changed that day), sees their vote and the tally; opens the
// voting page staff set (framed for an allow-listed host, a link that opens outside for another) with
// its address shown; and opens the install page (PWA steps, no store badge). The console's vote desk
// is shot once. axe-core checks the vote and install screens. Screenshots: test-results/screens/web-vote-*.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  blockingAxeViolations,
  consolePage,
  customerPage,
  launchBrowser,
  registerCustomer,
  type Server,
  shot,
  staffApiSignIn,
  staffSignIn,
  startServer,
} from './harness.ts';

const TEXT = {
  'en-US': {
    stock: 'NSE:TCS',
    confirm: 'Vote',
    mine: 'Your vote for this session: Bullish',
    tally: '1 vote',
    pwa: 'PWA',
  },
  'pt-BR': {
    stock: 'NSE:RELIANCE',
    confirm: 'Votar',
    mine: 'Seu voto neste pregão: Em alta',
    tally: '1 voto',
    pwa: 'PWA',
  },
} as const;

let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ VOTE_FRAME_HOSTS: 'evoting.example.com' });
  browser = await launchBrowser();
  // Staff set the voting page: one for every stock (an allow-listed host) and TCS's own (another host).
  const token = await staffApiSignIn(server);
  for (const [symbol, url] of [
    ['', 'https://evoting.example.com/agm'],
    ['NSE:TCS', 'https://registrar.example.org/tcs'],
  ] as const)
    expect((await apiCall(server, '/admin/votes/url', { symbol, url, reason: 'AGM e-voting' }, { token })).code).toBe(
      0,
    );
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe.each(['en-US', 'pt-BR'] as const)('sentiment vote and install page in %s', (lang) => {
  const text = TEXT[lang];
  it('votes bullish from the stock page, sees the tally and the voting page, opens the install page', async () => {
    const session = await registerCustomer(server, lang === 'en-US' ? '9811100001' : '9811100002');
    const { context, page } = await customerPage(browser, lang, session);
    try {
      await page.goto(`${server.baseUrl}/pages/stock/stockKline?symbol=${encodeURIComponent(text.stock)}`);
      await page.getByTestId('vote-entry').scrollIntoViewIfNeeded();
      await shot(page, `web-vote-entry-${lang}`);
      await page.getByTestId('vote-entry').click();
      await page.getByTestId('vote-bullish').waitFor();
      await shot(page, `web-vote-before-${lang}`);
      await page.getByTestId('vote-bullish').click();
      await page.getByRole('button', { name: text.confirm, exact: true }).click();
      await expect.poll(() => page.getByTestId('vote-mine').textContent()).toBe(text.mine);
      expect(await page.getByTestId('vote-today').textContent()).toContain(text.tally);
      expect(await page.getByTestId('vote-bearish').count()).toBe(0);
      await page.locator('.adm-toast-mask').waitFor({ state: 'detached' }); // the toast fades
      await shot(page, `web-vote-${lang}`);
      expect(await blockingAxeViolations(page)).toEqual([]);

      // The voting page: its address always shown; framed only for the allow-listed host.
      await page.getByTestId('vote-url-link').click();
      await page.getByTestId('vote-url-bar').waitFor();
      if (lang === 'en-US') {
        expect(await page.getByTestId('vote-url-address').textContent()).toBe('https://registrar.example.org/tcs');
        await page.getByTestId('vote-url-not-framed').waitFor();
        expect(await page.getByTestId('vote-url-frame').count()).toBe(0);
      } else {
        expect(await page.getByTestId('vote-url-address').textContent()).toBe('https://evoting.example.com/agm');
        expect(await page.getByTestId('vote-url-frame').getAttribute('src')).toBe('https://evoting.example.com/agm');
      }
      await shot(page, `web-vote-url-${lang}`);

      // The install page: PWA steps, no store badges or downloads.
      await page.goto(`${server.baseUrl}/pages/common/download`);
      await page.getByTestId('install-link-android').waitFor();
      expect(await page.locator('main').textContent()).toContain(text.pwa);
      expect(await page.locator('a[href$=".apk"], a[href*="play.google"], a[href*="apps.apple"]').count()).toBe(0);
      await shot(page, `web-download-${lang}`);
      expect(await blockingAxeViolations(page)).toEqual([]);
      for (const name of ['androidAPP', 'iosAPP', 'companyIntroduction', 'loanService']) {
        await page.goto(`${server.baseUrl}/pages/common/${name}`);
        await page.locator('main article').first().waitFor();
        await shot(page, `web-${name}-${lang}`);
      }
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('console vote desk and content pages', () => {
  it('shows the addresses, the tallies and the editable pages', async () => {
    const page = await consolePage(browser, 'en-US');
    try {
      await staffSignIn(page, server);
      await page.goto(`${server.baseUrl}/admin/votes`);
      await page.getByTestId('vote-tallies').getByText('NSE:TCS').first().waitFor();
      await shot(page, 'admin-votes-en-US');
      // The staff-edited pages: Content → Pages, showing the default text until first saved.
      await page.goto(`${server.baseUrl}/admin/content?tab=pages`);
      await page.getByTestId('content-page-companyIntroduction').waitFor();
      await shot(page, 'admin-content-pages-en-US');
    } finally {
      await page.context().close();
    }
  }, 60_000);
});
