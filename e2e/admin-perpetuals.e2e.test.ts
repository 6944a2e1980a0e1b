// Proves the staff console's perpetuals desk against the real server, in both languages: an administrator
// opens it from the side menu and sees the insurance fund (its seed), open interest (every contract, nobody
// holding yet) and liquidations (none) on a fresh paper server, with no control that changes anything. Then
// the same page with a populated desk (the server's answer replaced in the browser by one of the shape
// console-routes.test.ts proves the server gives) is photographed on a laptop and a phone screen.

import type { Lang, StaffPerpetualsDesk } from '@bourse/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePage, launchBrowser, type Server, shot, staffSignIn, startServer } from './harness.ts';

const TEXT = {
  'en-US': {
    menu: 'Perpetuals desk',
    seed: '1,000,000 USDT',
    liquidationsEmpty: 'No liquidation yet.',
    notional: 'Notional at mark',
    cause: 'liquidation',
    balance: '1,250.5 USDT',
  },
  'pt-BR': {
    menu: 'Mesa de perpétuos',
    seed: '1.000.000 USDT',
    liquidationsEmpty: 'Nenhuma liquidação ainda.',
    notional: 'Nocional na marcação',
    cause: 'liquidação',
    balance: '1.250,5 USDT',
  },
} as const satisfies Record<Lang, Record<string, string>>;

const AT = Date.parse('2026-11-27T16:00:05Z');
const POPULATED: StaffPerpetualsDesk = {
  insuranceFund: {
    asset: 'USDT',
    balance: '1250.500000',
    lines: [
      {
        transferId: 'perp:liquidation:c42:margin',
        at: AT,
        amount: '1000.000000',
        cause: 'liquidation',
        link: 'perp:liquidation:c42',
        counterparty: '9001',
      },
      {
        transferId: 'perp:liquidation:c40:margin',
        at: AT - 3_600_000,
        amount: '250.500000',
        cause: 'liquidation',
        link: 'perp:liquidation:c40',
        counterparty: '9007',
      },
    ],
  },
  openInterest: [
    {
      instrumentId: 'BTCUSDT-PERP',
      base: 'BTC',
      quote: 'USDT',
      positions: 148,
      longSize: '12.34500000',
      shortSize: '12.34500000',
      markPrice: '95123.400000',
      notionalAtMark: '1174298.373000',
    },
    {
      instrumentId: 'ETHUSDT-PERP',
      base: 'ETH',
      quote: 'USDT',
      positions: 0,
      longSize: '0',
      shortSize: '0',
      markPrice: null,
      notionalAtMark: null,
    },
  ],
  liquidations: [
    {
      link: 'perp:liquidation:c44',
      at: AT + 1_000,
      userId: '9004',
      asset: 'USDT',
      insuranceFund: '0.000000',
      adlCounterparties: ['9002', '9011'],
    },
    {
      link: 'perp:liquidation:c42',
      at: AT,
      userId: '9001',
      asset: 'USDT',
      insuranceFund: '1000.000000',
      adlCounterparties: [],
    },
  ],
};

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

describe('perpetuals desk', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    const text = TEXT[lang];
    it(`${lang}: shows the fund, open interest and liquidations, read only`, async () => {
      const page = await consolePage(browser, lang);
      await staffSignIn(page, server);
      await page.getByTestId('side-menu').getByRole('link', { name: text.menu }).click();
      await page.waitForURL(/\/admin\/perpetuals$/);
      await page.getByRole('heading', { level: 3, name: text.menu }).waitFor();
      // The real server's desk: the fund holds its seed from platform liquidity, every contract is listed
      // (nobody holds a position yet), nothing has been liquidated.
      await page.getByTestId('perpetuals-fund').getByText(text.seed).first().waitFor();
      const listed = page.getByTestId('perpetuals-open-interest');
      await listed.locator('tbody tr.ant-table-row').first().waitFor();
      expect(await listed.textContent()).toContain('PERP:BTCUSDT');
      await page.getByText(text.liquidationsEmpty).waitFor();
      // Read only: besides copying a line's id, the one button reloads.
      const buttons = page.locator('main button, .ant-layout-content button').filter({
        hasNot: page.locator('.anticon-copy'),
      });
      expect(await buttons.allTextContents()).toHaveLength(1);
      await shot(page, `admin-perpetuals-${lang}-1-fresh`);

      // The same page over a populated desk.
      await page.route('**/admin/perpetuals/desk', async (route) => {
        const response = await route.fetch();
        const body = await response.json();
        await route.fulfill({ response, json: { ...body, data: POPULATED } });
      });
      await page.reload();
      const contracts = page.getByTestId('perpetuals-open-interest');
      await contracts.locator('tbody tr.ant-table-row').first().waitFor();
      expect(await contracts.textContent()).toContain('BTCUSDT-PERP');
      expect(await contracts.locator('thead').textContent()).toContain(text.notional);
      expect(await page.getByTestId('perpetuals-fund').textContent()).toContain(text.balance);
      expect(await page.getByTestId('perpetuals-fund-lines').textContent()).toContain(text.cause);
      expect(await page.getByTestId('perpetuals-liquidations').textContent()).toContain('9002, 9011');
      await page.waitForTimeout(400);
      await shot(page, `admin-perpetuals-${lang}-2-desktop`);
      await page.getByTestId('perpetuals-liquidations').scrollIntoViewIfNeeded();
      await shot(page, `admin-perpetuals-${lang}-2-desktop-liquidations`);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(400);
      await shot(page, `admin-perpetuals-${lang}-3-phone`);
      await page.context().close();
    }, 120_000);
  }
});
