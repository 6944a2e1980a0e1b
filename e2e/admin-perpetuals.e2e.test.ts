// Proves the staff console's perpetuals desk against the real server, in both languages: an administrator
// opens it from the side menu and sees the insurance fund, open interest and liquidations (empty on a fresh
// paper server, which registers no perpetual on this branch), with no control that changes anything. Then
// the same page with a populated desk (the server's answer replaced in the browser by one of the shape
// console-routes.test.ts proves the server gives) is photographed on a laptop and a phone screen.

import type { Lang, StaffPerpetualsDesk } from '@bourse/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePage, launchBrowser, type Server, shot, staffSignIn, startServer } from './harness.ts';

const TEXT = {
  'en-US': {
    menu: 'Perpetuals desk',
    fundEmpty: 'Nothing has moved in or out of the fund yet.',
    contractsEmpty: 'No perpetual contract is registered.',
    liquidationsEmpty: 'No liquidation yet.',
    notional: 'Notional at mark',
    cause: 'liquidation',
    balance: '1,250.5 USDT',
  },
  'pt-BR': {
    menu: 'Mesa de perpétuos',
    fundEmpty: 'Nada entrou ou saiu do fundo ainda.',
    contractsEmpty: 'Nenhum contrato perpétuo registrado.',
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
      // The real server's desk: nothing registered, nothing liquidated.
      await page.getByText(text.fundEmpty).waitFor();
      await page.getByText(text.contractsEmpty).waitFor();
      await page.getByText(text.liquidationsEmpty).waitFor();
      // Read only: the one button reloads.
      expect(await page.locator('main button, .ant-layout-content button').allTextContents()).toHaveLength(1);
      await shot(page, `admin-perpetuals-${lang}-1-empty`);

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
