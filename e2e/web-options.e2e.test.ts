// Options end to end against the real server, at 390×844, in both languages: a new customer opens the
// Trade tab's Options view (the NIFTY 50 chain, its first weekly expiry), taps the at-the-money call, sees
// the premium, fee, breakeven and the most they can lose, buys one contract with the transaction
// password, sees the position (premium paid, value at the bid, P&L, Greeks) and the premium gone from
// the INR account, closes it early at the bid, and finds it in the history; then the rule page. axe-core
// checks each screen. Screenshots: test-results/screens/web-options-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  blockingAxeViolations,
  customerPage,
  launchBrowser,
  registerCustomer,
  type Server,
  shot,
  startServer,
} from './harness.ts';

const PIN = '246802';
// Monday 5 January 2026, 09:30 in Mumbai: NSE is open; the clock runs on from there.
const START = '2026-01-05T04:00:00Z';

const TEXT = {
  'en-US': { tab: 'Options', review: 'Review order', close: 'Close early', closed: 'Closed early', rule: 'Rules' },
  'pt-BR': {
    tab: 'Opções',
    review: 'Revisar ordem',
    close: 'Encerrar antes',
    closed: 'Encerrada antes',
    rule: 'Regras',
  },
} as const;

let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ BOURSE_TEST_CLOCK: START, IPO_DEMO: '0', DEMO_LAUNCHPAD: '0' });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function look(page: Page, name: string) {
  await page.locator('.adm-toast-mask').waitFor({ state: 'hidden' });
  await shot(page, name);
  expect(await blockingAxeViolations(page), name).toEqual([]);
}

async function enterPin(page: Page) {
  await page.getByTestId('confirm-sheet').waitFor();
  await page.locator('.adm-number-keyboard-key').first().waitFor();
  await page.waitForTimeout(350);
  for (const digit of PIN) await page.locator('.adm-number-keyboard-key').getByText(digit, { exact: true }).click();
}

async function inr(token: string): Promise<string> {
  const items = (await apiCall(server, '/user/assets', {}, { token })).data.items as {
    wallet: string;
    asset: string;
    available: string;
  }[];
  return items.find((b) => b.wallet === 'stock' && b.asset === 'INR')?.available ?? '0';
}

describe('options against the real server', () => {
  for (const [n, lang] of (['en-US', 'pt-BR'] as const).entries()) {
    const text = TEXT[lang];
    it(`buys an at-the-money call from the chain and closes it early (${lang})`, async () => {
      const session = await registerCustomer(server, `90000027${n}7`, { tradePassword: PIN });
      const before = await inr(session.token);
      const { context, page } = await customerPage(browser, lang, session);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(`${server.baseUrl}/pages/tabbar/trade?type=option`);
        await page.getByTestId('trade-type').getByRole('tab', { name: text.tab }).waitFor();
        await page.locator('.opt-row--atm').waitFor();
        await look(page, `web-options-chain-${lang}`);

        await page.locator('.opt-row--atm').click();
        await page.getByTestId('option-order').waitFor();
        const premium = (await page.getByTestId('option-premium').textContent()) ?? '';
        expect(await page.getByTestId('option-max-loss').textContent()).toBe(premium);
        await look(page, `web-options-order-${lang}`);
        await page.getByRole('button', { name: text.review }).click();
        await shot(page, `web-options-confirm-${lang}`);
        await enterPin(page);
        await page.waitForTimeout(1000);
        await shot(page, `web-options-bought-${lang}`);
        await page.waitForURL(/stockOption\/positions/);
        const card = page.locator('[data-testid^=option-position-]').first();
        await card.waitFor();
        await look(page, `web-options-positions-${lang}`);
        expect(await inr(session.token)).not.toBe(before);

        await card.getByRole('button', { name: text.close }).click();
        await shot(page, `web-options-close-${lang}`);
        await enterPin(page);
        await page.waitForTimeout(1500);
        await shot(page, `web-options-closed-${lang}`);
        await page.getByTestId('empty-state').waitFor();
        await page.goto(`${server.baseUrl}/pages/stockOption/history`);
        await page.getByTestId('option-history').waitFor();
        expect(await page.getByTestId('option-status').first().textContent()).toBe(text.closed);
        await look(page, `web-options-history-${lang}`);

        await page.goto(`${server.baseUrl}/pages/stockOption/rule`);
        await page.getByTestId('option-rule').locator('.opt-card').first().waitFor();
        await look(page, `web-options-rule-${lang}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 60_000);
  }
});
