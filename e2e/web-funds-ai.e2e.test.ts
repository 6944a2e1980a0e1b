// AI funds end to end against the real server, one short path per language at 390×844: a new customer
// (paper grant: 1,000,000 INR in the stock wallet) opens the MF tab, the demo momentum fund (paper mode
// seeds one over BSE), reads its rule and the realized-history label, subscribes 10,000 INR with the
// transaction password (held: waiting for the valuation), the test clock moves past the market's
// close (the valuation converts it), and the fund page shows the units — the same units the server
// reports, with its realized NAV drawn as a line chart above the valuations' table. The subscription
// carries the confirm sheet's idempotency key (body and header alike). Screenshots:
// test-results/screens/web-funds-ai-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, customerPage, launchBrowser, registerCustomer, type Server, shot, startServer } from './harness.ts';

const PIN = '135790';
/** A Monday, 09:30 in Mumbai: BSE is open. */
const START = '2026-01-05T04:00:00Z';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TEXT = {
  'en-US': {
    past: 'Realized history: past valuations of this fund, not a forecast.',
    waiting: 'Waiting',
    chart: 'Chart of the fund’s net asset value per unit at its past valuations; realized history only, no forecast.',
  },
  'pt-BR': {
    past: 'Histórico realizado: avaliações passadas deste fundo, não uma previsão.',
    waiting: 'Aguardando',
    chart: 'Gráfico do valor da cota do fundo nas suas avaliações passadas; só histórico realizado, sem previsão.',
  },
} as const;

let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ BOURSE_TEST_CLOCK: START, IPO_DEMO: '0', DEMO_LAUNCHPAD: '0', ROBOTS_DEMO: '0' });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function typePin(page: Page) {
  await page.getByTestId('confirm-sheet').waitFor();
  await page.locator('.adm-number-keyboard-key').first().waitFor();
  await page.waitForTimeout(350);
  for (const digit of PIN) await page.locator('.adm-number-keyboard-key').getByText(digit, { exact: true }).click();
}

async function advance(ms: number) {
  const res = await fetch(`${server.baseUrl}/ipor-api/test/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms }),
  });
  expect(res.ok).toBe(true);
}

describe('AI funds in the customer app', () => {
  for (const [i, lang] of (['en-US', 'pt-BR'] as const).entries()) {
    it(`subscribes to the demo fund and sees the units after the valuation (${lang})`, async () => {
      const text = TEXT[lang];
      const who = await registerCustomer(server, `91234570${i}1`, { tradePassword: PIN });
      const { context, page } = await customerPage(browser, lang, who);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(`${server.baseUrl}/pages/robot/list`);
        const card = page.getByTestId('fund-card').first();
        await card.waitFor();
        await page.waitForTimeout(300);
        await card.scrollIntoViewIfNeeded();
        await shot(page, `web-funds-ai-list-${lang}`);
        await card.click();
        await page.getByTestId('fund-terms').waitFor();
        await expect(page.locator('.rbt-backtest__label').textContent()).resolves.toBe(text.past);
        await page.waitForTimeout(300);
        await shot(page, `web-funds-ai-detail-${lang}`);

        await page.getByTestId('fund-subscribe').click();
        await page.getByTestId('fund-subscribe-value').fill('10000');
        // Nothing on the page is wider than the phone (the keypad would be off by the overflow).
        await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBe(390);
        await shot(page, `web-funds-ai-subscribe-${lang}`);
        const sent = page.waitForRequest((r) => r.url().endsWith('/stock/ai/buy'));
        await page.getByTestId('fund-subscribe-confirm').click();
        await typePin(page);
        const request = await sent;
        const key = request.headers()['idempotency-key'];
        expect(key).toMatch(/^[\w-]{8,64}$/);
        expect(request.postData()).toContain(key);
        await page.getByTestId('fund-pending').waitFor();
        await expect(page.getByTestId('fund-pending').textContent()).resolves.toContain(text.waiting);
        await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
        await page.getByTestId('fund-mine').scrollIntoViewIfNeeded();
        await shot(page, `web-funds-ai-pending-${lang}`);

        // Past the close (Monday 17:30 in Mumbai, then Tuesday's): the valuation converts the
        // subscription at its NAV.
        await advance(i === 0 ? 8 * HOUR : DAY);
        const fundId = new URL(page.url()).searchParams.get('id') as string;
        const info = (await apiCall(server, '/stock/ai/info', { kind: 'fund', id: fundId }, { token: who.token })).data;
        expect(Number(info.myUnits)).toBeGreaterThan(0);
        await page.reload();
        await page.getByTestId('fund-history').waitFor();
        const units = (await page.getByTestId('fund-my-units').textContent()) ?? '';
        const shown = Number(
          units
            .replace(/[^\d,.]/g, '')
            .replace(lang === 'pt-BR' ? /\./g : /,/g, '')
            .replace(',', '.'),
        );
        expect(shown).toBeCloseTo(Number(info.myUnits), 4);
        await page.getByTestId('fund-mine').scrollIntoViewIfNeeded();
        await page.waitForTimeout(300);
        await shot(page, `web-funds-ai-units-${lang}`);
        // The NAV chart (one valuation in the first run, two in the second) above the table it draws.
        await page.locator('[data-testid="fund-nav-chart"] canvas').first().waitFor();
        await expect(page.getByTestId('fund-nav-chart').getAttribute('aria-label')).resolves.toBe(text.chart);
        await expect(page.getByTestId('fund-history').locator('tbody tr').count()).resolves.toBe(i + 1);
        await page.locator('.fund-chart').evaluate((node) => node.scrollIntoView({ block: 'start' }));
        await page.waitForTimeout(300);
        await shot(page, `web-funds-ai-chart-${lang}`);

        await page.goto(`${server.baseUrl}/pages/robot/record`);
        await page.getByTestId('fund-order').first().waitFor();
        await page.waitForTimeout(300);
        await shot(page, `web-funds-ai-record-${lang}`);
        await page.getByTestId('fund-order').first().click();
        await page.getByTestId('fund-order-status').waitFor();
        await page.waitForTimeout(300);
        await shot(page, `web-funds-ai-order-${lang}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 60_000);
  }
});
