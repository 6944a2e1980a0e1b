// Crypto deposits end to end against the real server (paper mode, sandbox chain), in both languages at
// 390×844: the demo customer chooses a coin, generates the deposit address (QR, copy, "send only …"
// warning), sends a test deposit from the sandbox faucet, watches it on the record page, the server's
// clock moves on (POST /test/clock/advance, which also runs the chain watcher), and the deposit shows
// as credited with the spot balance raised by exactly its amount. en-US: BTC (2 confirmations);
// pt-BR: USDT on the EVM network (12). Screenshots: test-results/screens/web-crypto-*.png.
import { formatDecimal, parseDecimal } from '@bourse/money';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  blockingAxeViolations,
  customerPage,
  launchBrowser,
  type Server,
  shot,
  signInCustomer,
  startServer,
} from './harness.ts';

const CASES = {
  'en-US': {
    asset: 'BTC',
    amount: '0.5',
    credited: '0.50000000',
    advanceMs: 2 * 60_000,
    generate: 'Generate address',
    warning: 'Send only BTC on Bitcoin testnet',
    send: 'Send test deposit',
    seen: 'Seen on the network',
    creditedLabel: 'Credited',
    records: 'Crypto deposit records',
    addressPrefix: /^tb1q/,
    small: '0.00001',
    shownBalance: /^0\.50\sBTC$/,
    belowMinimum: 'Not credited: below the minimum of',
  },
  'pt-BR': {
    asset: 'USDT',
    amount: '250.5',
    credited: '250.500000',
    advanceMs: 12 * 12_000,
    generate: 'Gerar endereço',
    warning: 'Envie somente USDT pela rede Ethereum Sepolia (ERC-20)',
    send: 'Enviar depósito de teste',
    seen: 'Visto na rede',
    creditedLabel: 'Creditado',
    records: 'Registros de depósitos de cripto',
    addressPrefix: /^0x[0-9a-fA-F]{40}$/,
    small: '1',
    // The demo customer also holds paper mode's 10,000 USDT grant.
    shownBalance: /^10\.250,50\sUSDT$/,
    belowMinimum: 'Não creditado: abaixo do mínimo de',
  },
} as const;

let server: Server;
let browser: Browser;
let demo: Awaited<ReturnType<typeof signInCustomer>>;

beforeAll(async () => {
  // The watcher's own timer is off: only the clock hook moves deposits on, so each step is seen.
  // No demo coin offerings: they spend some of the demo customer's USDT, whose balance this test reads.
  server = await startServer({
    BOURSE_TEST_CLOCK: '2026-01-05T04:00:00Z',
    CRYPTO_SCAN_EVERY_MS: '0',
    DEMO_LAUNCHPAD: '0',
  });
  browser = await launchBrowser();
  demo = await signInCustomer(server);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const api = (path: string, body: Record<string, string> | null = null) =>
  apiCall(server, path, body, { token: demo.token });

/** a + b, two decimal strings, at b's scale (exact: bigint minor units). */
function plus(a: string, b: string): string {
  const scale = b.split('.')[1]?.length ?? 0;
  return formatDecimal(parseDecimal(a, scale) + parseDecimal(b, scale), scale);
}

async function spot(asset: string): Promise<string> {
  const items = (await api('/user/assets', {})).data.items as { wallet: string; asset: string; balance: string }[];
  return items.find((b) => b.wallet === 'spot' && b.asset === asset)?.balance ?? '0';
}

describe('crypto deposits (real server)', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    it(`generates an address, sends a test deposit and sees it credited (${lang})`, async () => {
      const c = CASES[lang];
      // The demo customer may already hold the coin (paper mode grants USDT): the deposit adds exactly its amount.
      const before = await spot(c.asset);
      const credited = plus(before, c.credited);
      const { context, page } = await customerPage(browser, lang, demo);
      try {
        // From the deposit hub (the drawer's recharge button opens it) to the crypto screens.
        await page.goto(`${server.baseUrl}/pages/recharge/recharge`);
        await page.getByTestId('deposit-crypto').waitFor();
        await shot(page, `web-crypto-hub-${lang}`);
        await page.getByTestId('deposit-crypto').click();
        await page.waitForURL(/\/pages\/recharge\/coinRecharge$/);
        await page.getByTestId(`crypto-coin-${c.asset}`).waitFor();
        await shot(page, `web-crypto-coins-${lang}`);
        expect(await blockingAxeViolations(page)).toEqual([]);
        await page.getByTestId(`crypto-coin-${c.asset}`).click();
        await page.getByTestId('crypto-warning').getByText(c.warning).waitFor();
        await page.getByRole('button', { name: c.generate }).click();
        const address = (await page.getByTestId('crypto-address').textContent())?.trim() ?? '';
        expect(address).toMatch(c.addressPrefix);
        await page.locator('img.crypto-qr').waitFor();
        await shot(page, `web-crypto-address-${lang}`);
        expect(await blockingAxeViolations(page)).toEqual([]);

        await page.locator('#crypto-test-amount').fill(c.amount);
        await page.getByTestId('crypto-test-deposit').scrollIntoViewIfNeeded();
        await shot(page, `web-crypto-test-deposit-${lang}`);
        await page.getByRole('button', { name: c.send }).click();
        await page.waitForURL(/\/pages\/recharge\/cryptoRecord\?id=\d+/);
        const detail = page.getByTestId('crypto-deposit-detail');
        await detail.getByTestId('crypto-status').getByText(c.seen).waitFor();
        await expect.poll(() => detail.getByTestId('crypto-confirmations').textContent()).toMatch(/^0\/(2|12)$/);
        expect(await detail.textContent()).toContain(address);
        await shot(page, `web-crypto-seen-${lang}`);
        expect(await spot(c.asset)).toBe(before);

        const moved = await api('/test/clock/advance', { ms: String(c.advanceMs) });
        expect(moved.code).toBe(0);
        // The record page asks again by itself while the deposit confirms.
        await detail
          .getByTestId('crypto-status')
          .getByText(c.creditedLabel, { exact: true })
          .waitFor({ timeout: 15_000 });
        await page.getByTestId('crypto-ledger-link').waitFor();
        await shot(page, `web-crypto-credited-${lang}`);
        expect(await blockingAxeViolations(page)).toEqual([]);
        expect(await spot(c.asset)).toBe(credited);

        // Less than the minimum: recorded and shown with the reason, never credited.
        await page.goto(`${server.baseUrl}/pages/recharge/cryptoRecharge?asset=${c.asset}`);
        await page.locator('#crypto-test-amount').fill(c.small);
        await page.getByRole('button', { name: c.send }).click();
        await page.waitForURL(/\/pages\/recharge\/cryptoRecord\?id=\d+/);
        await page.getByTestId('crypto-deposit-detail').getByText(c.belowMinimum).waitFor();
        await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
        await shot(page, `web-crypto-below-minimum-${lang}`);
        expect(await spot(c.asset)).toBe(credited);

        await page.goto(`${server.baseUrl}/pages/recharge/coinRechargeList`);
        await page.getByTestId('crypto-deposit').first().waitFor();
        expect(await page.getByTestId('crypto-deposit').nth(1).textContent()).toContain(c.creditedLabel);
        await shot(page, `web-crypto-list-${lang}`);
        expect(await blockingAxeViolations(page)).toEqual([]);

        // The spot balance on the assets screen includes the credited amount.
        await page.goto(`${server.baseUrl}/pages/user/assets`);
        await page.getByText(c.shownBalance).first().waitFor();
        await shot(page, `web-crypto-assets-${lang}`);
      } finally {
        await context.close();
      }
    });
  }
});
