// Robots end to end against the real server, one short path per language at 390×844: a new customer
// (paper grant: 10,000 USDT in the spot wallet) opens the MF tab, the demo grid robot (paper mode seeds one
// template per strategy), reads its terms and the back-test labelled as such, starts it with 500 USDT and
// the transaction password, sees its trades (the grid's opening buy on the spot book), stops it and sees
// what came back; the money is checked against the server. The demo stock robot (RELIANCE through the
// paper venue, in INR) is listed too. Screenshots: test-results/screens/web-robots-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, blocking, describeViolations } from './axe.ts';
import { apiCall, customerPage, launchBrowser, registerCustomer, type Server, shot, startServer } from './harness.ts';

const PIN = '135790';
const TEXT = {
  'en-US': {
    label: 'Back-test, past simulated prices, not a promise',
    realized: 'Realized by finished runs: past results, not a promise',
    stocks: 'NSE:RELIANCE · Stocks',
    stopped: 'Stopped',
    running: 'Running',
  },
  'pt-BR': {
    label: 'Backtest, preços simulados passados, não é promessa',
    realized: 'Realizado por execuções encerradas: resultado passado, não é promessa',
    stocks: 'NSE:RELIANCE · Ações',
    stopped: 'Parado',
    running: 'Em execução',
  },
} as const;

let server: Server;
let browser: Browser;

beforeAll(async () => {
  // No demo IPOs or coin offerings: they would spend the demo customer's money; ours are new customers.
  server = await startServer({ IPO_DEMO: '0', DEMO_LAUNCHPAD: '0' });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** No contrast failure and nothing serious or critical by axe (WCAG 2.0/2.1 A and AA) on the page as it is. */
async function expectAccessible(page: Page) {
  expect(describeViolations(blocking(await axeViolations(page)))).toBe('');
}

async function typePin(page: Page) {
  await page.getByTestId('confirm-sheet').waitFor();
  await page.locator('.adm-number-keyboard-key').first().waitFor();
  await page.waitForTimeout(350);
  for (const digit of PIN) await page.locator('.adm-number-keyboard-key').getByText(digit, { exact: true }).click();
}

describe('robots in the customer app', () => {
  for (const [i, lang] of (['en-US', 'pt-BR'] as const).entries()) {
    it(`starts the grid robot, sees its trades and stops it (${lang})`, async () => {
      const text = TEXT[lang];
      const who = await registerCustomer(server, `91234560${i}1`, { tradePassword: PIN });
      const { context, page } = await customerPage(browser, lang, who);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(`${server.baseUrl}/pages/robot/list`);
        const card = page.getByTestId('robot-card').filter({ hasText: 'BTC grid' });
        await card.waitFor();
        // The past figure is always labelled: the back-test's, or (after the first language's run has
        // finished) the realized one of finished runs.
        const past = (await card.getByTestId('robot-past').textContent()) ?? '';
        expect(past.includes(text.label) || past.includes(text.realized), past).toBe(true);
        await page.waitForTimeout(300);
        await shot(page, `web-robots-list-${lang}`);
        await expectAccessible(page);
        // The stock robot is offered next to the crypto ones, in the market's currency.
        const stock = page.getByTestId('robot-card').filter({ hasText: 'RELIANCE daily DCA' });
        await expect(stock.textContent()).resolves.toContain(text.stocks);
        await expect(stock.textContent()).resolves.toContain('₹');

        await card.click();
        await page.getByTestId('robot-backtest').waitFor();
        await expect(page.getByTestId('robot-backtest').textContent()).resolves.toContain(text.label);
        await page.waitForTimeout(300);
        await shot(page, `web-robots-detail-${lang}`);
        await expectAccessible(page);
        await page.getByTestId('robot-amount').fill('500');
        await page.getByTestId('robot-start').scrollIntoViewIfNeeded();
        await shot(page, `web-robots-start-${lang}`);
        await page.getByTestId('robot-start').click();
        await typePin(page);
        await shot(page, `web-robots-confirm-${lang}`);

        // The run's page: running, with the grid's opening buy among its trades.
        await page.getByTestId('robot-trade').first().waitFor();
        await expect(page.getByTestId('robot-status').textContent()).resolves.toBe(text.running);
        await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
        await shot(page, `web-robots-run-${lang}`);
        await expectAccessible(page);
        const runs = (await apiCall(server, '/stock/ai/order/list', {}, { token: who.token })).data.items;
        expect(runs).toHaveLength(1);
        expect(runs[0]).toMatchObject({ status: 'running', capital: '500.000000' });
        expect(runs[0].trades).toBeGreaterThan(0);

        await page.getByTestId('robot-stop').click();
        await typePin(page);
        await page.getByTestId('robot-returned').waitFor();
        // The figures are written before the run's last move (stopping → stopped); the page polls for it.
        await page
          .getByTestId('robot-status')
          .filter({ hasText: new RegExp(`^${text.stopped}$`) })
          .waitFor();
        await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
        await shot(page, `web-robots-stopped-${lang}`);
        await expectAccessible(page);
        const end = (await apiCall(server, '/stock/ai/order/details', { id: String(runs[0].id) }, { token: who.token }))
          .data.run;
        expect(end.status).toBe('stopped');
        // Everything came back to the spot wallet: 10,000 less 500 plus what was returned.
        const balance = (await apiCall(server, '/stock/ai/info', { id: String(end.templateId) }, { token: who.token }))
          .data.available as string;
        expect(Number(balance)).toBeCloseTo(9_500 + Number(end.returned), 6);

        await page.goto(`${server.baseUrl}/pages/robot/record`);
        await page.getByTestId('robot-run').first().waitFor();
        await page.waitForTimeout(300);
        await shot(page, `web-robots-record-${lang}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 60_000);
  }
});
