// Accessibility and layout of the customer app's main pages against the real server, at 390×844 in both
// languages, on a Saturday (BOURSE_TEST_CLOCK) with every stock market closed:
// - axe-core (WCAG 2.0/2.1 A and AA) finds no colour-contrast violation and no serious or critical one;
// - money on the Trade tab's account cards stays on one line (a number never wraps inside itself);
// - Home and Markets show Friday's session (change and volume), not a dead 0.00% market.
// Screenshots: test-results/screens/web-a11y-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, blocking, describeViolations } from './axe.ts';
import { customerPage, launchBrowser, type Server, shot, signInCustomer, startServer } from './harness.ts';

// Evaluated through the DevTools protocol: the app's CSP (script-src 'self') would block a script tag.
const SATURDAY = '2026-01-10T12:00:00Z';

let server: Server;
let browser: Browser;
let demo: { token: string; user: unknown };

beforeAll(async () => {
  // No demo IPOs: the drawn one has paid for the demo customer's allotment, and the account cards' test
  // measures the paper grant's ₹10,00,000 as it is.
  server = await startServer({ BOURSE_TEST_CLOCK: SATURDAY, IPO_DEMO: '0' });
  browser = await launchBrowser();
  demo = await signInCustomer(server);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const LINE_COUNTS = `(selector) => [...document.querySelectorAll(selector)].map((el) => {
  const tops = new Set();
  let text = '';
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement?.closest('.visually-hidden')) continue;
    text += node.textContent ?? '';
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) tops.add(Math.round(r.top));
  }
  const boxes = [el, ...el.querySelectorAll('.amount')];
  const clipped = boxes.some((b) => b.scrollWidth > b.clientWidth + 1);
  return { text, full: el.textContent ?? '', lines: tops.size, clipped };
})`;

/**
 * The lines each element's visible text takes (one per distinct line box its text fragments sit on; text
 * kept for screen readers only is left out), and whether it is cut off.
 */
async function lineCounts(
  page: Page,
  selector: string,
): Promise<{ text: string; full: string; lines: number; clipped: boolean }[]> {
  return page.evaluate(`(${LINE_COUNTS})(${JSON.stringify(selector)})`);
}

type Visit = { name: string; path: string; ready: (page: Page) => Promise<unknown>; signedIn: boolean };

const VISITS: Visit[] = [
  {
    name: 'home',
    path: '/pages/tabbar/home',
    signedIn: false,
    ready: (p) => p.getByTestId('quote-row').first().waitFor(),
  },
  {
    name: 'markets',
    path: '/pages/tabbar/markets',
    signedIn: false,
    ready: (p) => p.getByTestId('quote-row').first().waitFor(),
  },
  {
    name: 'kline',
    path: '/pages/stock/stockKline?symbol=NSE:RELIANCE',
    signedIn: false,
    // The chart's legend too: its SMA colours are text.
    ready: (p) => p.getByTestId('kline-legend').waitFor(),
  },
  {
    name: 'news',
    path: '/pages/news/list',
    signedIn: false,
    ready: (p) => p.locator('.news-row__title').first().waitFor(),
  },
  {
    name: 'sign-in',
    path: '/pages/account/login',
    signedIn: false,
    ready: (p) => p.getByTestId('login-form').waitFor(),
  },
  {
    name: 'register',
    path: '/pages/account/reg',
    signedIn: false,
    ready: (p) => p.getByTestId('register-form').waitFor(),
  },
  {
    name: 'trade',
    path: '/pages/tabbar/trade?type=stock',
    signedIn: true,
    ready: (p) => p.getByTestId('account-summary').waitFor(),
  },
  { name: 'mine', path: '/pages/tabbar/mine', signedIn: true, ready: (p) => p.getByTestId('account-card').waitFor() },
  {
    name: 'order',
    path: '/pages/stock/order?symbol=NSE:RELIANCE&side=buy',
    signedIn: true,
    ready: (p) => p.getByTestId('order-form').waitFor(),
  },
  {
    name: 'notices',
    path: '/pages/notice/list',
    signedIn: true,
    ready: (p) => p.getByTestId('message-list').waitFor(),
  },
  {
    name: 'withdraw',
    path: '/pages/withdraw/withdraw',
    signedIn: true,
    ready: (p) => p.getByTestId('choose-bank').waitFor(),
  },
  {
    name: 'crypto-withdraw',
    path: '/pages/withdraw/cryptoWithdraw',
    signedIn: true,
    ready: (p) => p.getByTestId('withdraw-asset').waitFor(),
  },
];

const openPage = (lang: 'en-US' | 'pt-BR', signedIn: boolean) =>
  customerPage(browser, lang, signedIn ? demo : undefined);

describe('customer app accessibility and layout (real server, market closed)', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    it(`main pages have no contrast or serious axe violations (${lang})`, async () => {
      const found: string[] = [];
      for (const signedIn of [false, true]) {
        const { context, page } = await openPage(lang, signedIn);
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        try {
          for (const visit of VISITS.filter((v) => v.signedIn === signedIn)) {
            await page.goto(`${server.baseUrl}${visit.path}`);
            await visit.ready(page);
            // Let skeletons give way and the live values settle.
            await page.waitForTimeout(600);
            await shot(page, `web-a11y-${visit.name}-${lang}`);
            const bad = blocking(await axeViolations(page));
            if (bad.length > 0) found.push(`${visit.name}:\n${describeViolations(bad)}`);
          }
        } finally {
          await context.close();
        }
        expect(errors).toEqual([]);
      }
      expect(found.join('\n\n')).toBe('');
    });

    it(`a flat (0.00%) change pill and the unselected tab labels are readable (${lang})`, async () => {
      const { context, page } = await openPage(lang, false);
      try {
        await page.goto(`${server.baseUrl}/pages/tabbar/markets`);
        await page.getByTestId('quote-row').first().waitFor();
        // On a closed Saturday nearly nothing is flat, so a flat pill is added as the app renders one.
        await page.evaluate(`{
          const pill = document.createElement('span');
          pill.className = 'change-pill change-pill--flat tabular';
          pill.id = 'flat-pill-probe';
          pill.textContent = '0.00%';
          document.querySelector('[data-testid="quote-row"]').append(pill);
        }`);
        const pill = await axeViolations(page, '#flat-pill-probe');
        expect(describeViolations(pill.filter((v) => v.id === 'color-contrast'))).toBe('');
        const tabs = await axeViolations(page, '.tab-bar');
        expect(describeViolations(tabs.filter((v) => v.id === 'color-contrast'))).toBe('');
      } finally {
        await context.close();
      }
    });

    it(`keeps every amount of the Trade tab's account cards on one line (${lang})`, async () => {
      // The app's font stack ends in the device's system font; DejaVu Sans (Debian's) is a wide one, as on
      // the phone where "₹10,00,000.\n00" was seen.
      // And a narrow phone (320 px) with the wide font, where the long figures must be abbreviated.
      const cases = [
        { font: 'default', width: 390 },
        { font: 'DejaVu Sans', width: 390 },
        { font: 'DejaVu Sans', width: 320 },
      ];
      for (const { font, width } of cases) {
        const { context, page } = await openPage(lang, true);
        if (width !== 390) await page.setViewportSize({ width, height: 568 });
        try {
          if (font !== 'default') {
            // Set as soon as the document has its root element, before the app renders.
            await context.addInitScript(`{
              const apply = () => document.documentElement.style.setProperty('--adm-font-family', ${JSON.stringify(`"${font}", sans-serif`)});
              if (document.documentElement) apply();
              else {
                new MutationObserver((_, observer) => {
                  if (!document.documentElement) return;
                  apply();
                  observer.disconnect();
                }).observe(document, { childList: true });
              }
            }`);
          }
          await page.goto(`${server.baseUrl}/pages/tabbar/trade?type=stock`);
          await page.getByTestId('account-summary').waitFor();
          await page.waitForTimeout(400);
          const family = await page.evaluate<string>('getComputedStyle(document.body).fontFamily');
          expect(family).toContain(font === 'default' ? 'system-ui' : font);
          await shot(page, `web-a11y-trade-cards-${font.replace(/\W/g, '')}-${width}-${lang}`);
          const amounts = await lineCounts(
            page,
            '[data-testid="account-summary"] .account-card-x__total, [data-testid="account-summary"] dd',
          );
          // INR, USD and BRL cards: a total and five amounts each.
          expect(amounts.length).toBeGreaterThanOrEqual(12);
          expect(amounts.filter((a) => a.lines !== 1 || a.clipped)).toEqual([]);
          // The full figures are there (shown, or kept for screen readers when abbreviated).
          const all = amounts.map((a) => a.full).join(' ');
          expect(all).toMatch(/₹10,00,000\.00/);
          expect(all).toMatch(/R\$\s50\.000,00/);
          // Where ₹10,00,000.00 cannot fit even in a smaller font, ₹10L is shown instead.
          if (width === 320) expect(amounts.map((a) => a.text)).toContain('₹10L');
        } finally {
          await context.close();
        }
      }
    });

    it(`shows Friday's change and volume on Home and Markets while the markets are closed (${lang})`, async () => {
      const { context, page } = await openPage(lang, false);
      try {
        for (const path of ['/pages/tabbar/home', '/pages/tabbar/markets']) {
          await page.goto(`${server.baseUrl}${path}`);
          await page.getByTestId('quote-row').first().waitFor();
          await page.waitForTimeout(400);
          const pills = await page.locator('[data-testid="quote-row"] .change-pill').allTextContents();
          const volumes = await page.locator('[data-testid="quote-row"] .quote-row__volume').allTextContents();
          expect(pills.length).toBeGreaterThan(0);
          // Most stocks moved on Friday; none shows a volume of 0.
          expect(pills.filter((p) => !/^0[.,]00%$/.test(p)).length).toBeGreaterThan(pills.length / 2);
          expect(volumes.length).toBeGreaterThan(0);
          expect(volumes.filter((v) => /^0([.,]0+)?$/.test(v.trim()))).toEqual([]);
        }
        await page.goto(`${server.baseUrl}/pages/tabbar/home`);
        await page.getByTestId('index-card').first().waitFor();
        const indexChanges = await page.locator('.index-card__change').allTextContents();
        expect(indexChanges.some((c) => /[1-9]/.test(c))).toBe(true);
      } finally {
        await context.close();
      }
    });
  }
});
