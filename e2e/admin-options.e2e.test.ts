// The console's options desk against the real server, in both languages, at a laptop's size: two
// customers buy options over the API on a trading day two weeks ago (one closes early); the server's clock then
// moves to real time, the expiry job settles what expired; a staff member opens the desk and sees the
// market maker's balance and exposure, the underlyings with their contract sizes, and the settlements
// done. There is no control on the desk. Then the listings desk: the catalogue, searchable, each instrument
// with where it came from. Screenshots: test-results/screens/admin-options-*.png, admin-listings-*.png.
import { isTradingDay } from '@bourse/market';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  consolePage,
  launchBrowser,
  registerCustomer,
  type Server,
  shot,
  staffSignIn,
  startServer,
} from './harness.ts';

const PIN = '246802';
/**
 * 09:30 in Mumbai on an NSE trading day (Monday to Thursday) two to three weeks ago: its week's expiry has
 * passed by now, and moving the clock to real time takes one step (a long jump took over a minute).
 */
function startDay(): string {
  for (let back = 14; ; back++) {
    const day = new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday >= 1 && weekday <= 4 && isTradingDay('NSE', day)) return `${day}T04:00:00Z`;
  }
}
const START = startDay();

let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ BOURSE_TEST_CLOCK: START, IPO_DEMO: '0', DEMO_LAUNCHPAD: '0' });
  browser = await launchBrowser();
  const chain = (await apiCall(server, '/stock/index/option/chain?underlying=NSE:NIFTY50')).data;
  const row = chain.rows[5];
  for (const [i, series] of [row.call.series, row.put.series].entries()) {
    const { token } = await registerCustomer(server, `90000028${i}7`, { tradePassword: PIN });
    const bought = await apiCall(
      server,
      '/stock/order/option/apply',
      { series, contracts: '2', password: PIN },
      { token },
    );
    expect(bought.code, JSON.stringify(bought)).toBe(0);
    if (i === 0) {
      const closed = await apiCall(
        server,
        '/stock/order/option/close',
        { id: String(bought.data.option.id), password: PIN },
        { token },
      );
      expect(closed.code, JSON.stringify(closed)).toBe(0);
    }
  }
  // To real time (staff sign-in codes follow the server's clock), at most 30 days a step; the expiry job
  // settles on the way.
  for (let left = Date.now() - Date.parse(START); left > 0; ) {
    const ms = Math.min(left, 30 * 86_400_000);
    const res = await fetch(`${server.baseUrl}/ipor-api/test/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms }),
    });
    expect(res.ok).toBe(true);
    left = Date.now() - ((await res.json()) as { data: { now: number } }).data.now;
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the options desk', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    it(`shows the market maker, the underlyings and the settlements (${lang})`, async () => {
      const page = await consolePage(browser, lang);
      try {
        await staffSignIn(page, server);
        await page.goto(`${server.baseUrl}/admin/options`);
        await page.getByTestId('options-settlements').locator('.ant-tag').first().waitFor();
        await page.getByTestId('options-underlyings').getByText('NIFTY50').waitFor();
        await shot(page, `admin-options-desk-${lang}`);
        // Read-only: no button but the refresh.
        expect(await page.locator('main button').count()).toBe(1);

        // The listings desk (read-only too): the catalogue, searchable, each with where it came from.
        await page.goto(`${server.baseUrl}/admin/listings`);
        const table = page.getByTestId('listings-table');
        await table.getByText('NSE:NIFTY50').waitFor();
        await page.getByTestId('listings-search').locator('input').fill('nse:tcs');
        await expect.poll(() => table.locator('tbody tr.ant-table-row').count()).toBe(1);
        const row = ((await table.locator('tbody tr.ant-table-row').first().textContent()) ?? '').replace(/\s+/g, ' ');
        expect(row).toContain('NSE:TCS');
        expect(row).toContain(lang === 'en-US' ? 'Catalogue' : 'Catálogo');
        await page.getByTestId('listings-search').locator('input').fill('');
        await shot(page, `admin-listings-${lang}`);
      } finally {
        await page.context().close();
      }
    }, 60_000);
  }
});
