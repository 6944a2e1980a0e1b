// Perpetual contracts end to end against the real server (paper mode), in both languages at 390×844: a
// new customer moves USDT from spot to the contract wallet (API), opens the Trade tab's Contracts side
// (?type=contract), sets 10× leverage in the leverage sheet, is stopped from sending a take-profit on the
// wrong side of the price, opens a leveraged long at market with TP/SL, sees the position (size, entry,
// mark, margin, margin ratio, P&L, liquidation price, TP/SL), moves its TP, adds margin, rests and cancels
// a limit order, closes an ETH short from its card, closes all, and
// is told there are no closable orders when nothing is left. Screenshots: test-results/screens/web-perp-*.png.
import { errorMessage } from '@bourse/contract';
import { compareDecimal } from '@bourse/money';
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

const PIN = '135790';

const TEXT = {
  'en-US': {
    available: '2,000.00 USDT',
    contracts: 'Contracts',
    leverageSet: 'Leverage set to 10×',
    leverageButton: '10× leverage',
    wrongSide: 'A long takes profit above',
    filled: /Order filled|Order placed/,
    tpSlSaved: 'TP/SL saved',
    marginAdded: 'Margin added',
    closeAll: 'Close all',
    close: 'Close',
    noClosable: 'There are no closable orders',
    noPositions: 'No open positions',
    history: 'History',
    orders: 'Orders',
    positions: 'Positions',
    rests: 'Order placed: it waits on the book',
    records: 'Records',
    closedEnd: 'Closed',
  },
  'pt-BR': {
    available: '2.000,00 USDT',
    contracts: 'Contratos',
    leverageSet: 'Alavancagem definida em 10×',
    leverageButton: 'Alavancagem 10×',
    wrongSide: 'Na compra, o lucro fica acima de',
    filled: /Ordem executada|Ordem enviada/,
    tpSlSaved: 'TP/SL salvos',
    marginAdded: 'Margem adicionada',
    closeAll: 'Fechar tudo',
    close: 'Fechar',
    noClosable: 'Não há ordens que possam ser fechadas',
    noPositions: 'Nenhuma posição aberta',
    history: 'Histórico',
    orders: 'Abertas',
    positions: 'Posições',
    rests: 'Ordem enviada: aguarda no livro',
    records: 'Registros',
    closedEnd: 'Encerrada',
  },
} as const;

let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ BOURSE_TEST_CLOCK: '2026-01-05T04:00:00Z', CRYPTO_SCAN_EVERY_MS: '0' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const api = (path: string, body: Record<string, string> | null, token?: string, lang?: string) =>
  apiCall(server, path, body, { token, lang });

async function balance(token: string, wallet: string, asset: string): Promise<string> {
  const items = (await api('/user/assets', {}, token)).data.items as {
    wallet: string;
    asset: string;
    available: string;
  }[];
  return items.find((b) => b.wallet === wallet && b.asset === asset)?.available ?? '0';
}

/** A fresh customer with a transaction password, 10,000 USDT in spot and 2,000 of it moved to contracts. */
async function fundedCustomer(phone: string) {
  const { token, user } = await registerCustomer(server, phone, { tradePassword: PIN });
  await expect.poll(() => balance(token, 'spot', 'USDT'), { timeout: 15_000 }).toBe('10000.000000');
  const moved = await api(
    '/coin/transfer',
    { asset: 'USDT', amount: '2000', from: 'spot', to: 'contract', clientId: `perp-${phone}` },
    token,
  );
  expect(moved.code, JSON.stringify(moved)).toBe(0);
  return { token, user, phone };
}

/** `price` × pct / 100, at the price's own decimals (rounded down). */
function percentOf(price: string, pct: bigint): string {
  const scale = price.includes('.') ? (price.split('.')[1] as string).length : 0;
  const digits = ((BigInt(price.replace('.', '')) * pct) / 100n).toString().padStart(scale + 1, '0');
  return scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
}

/** A price on the contract's tick (rounded down). */
function onTick(price: string, tick: string): string {
  const scale = tick.includes('.') ? (tick.split('.')[1] as string).length : 0;
  const [whole, fraction = ''] = price.split('.');
  const minor = BigInt(`${whole}${fraction.padEnd(scale, '0').slice(0, scale)}`);
  const step = BigInt(tick.replace('.', ''));
  const digits = ((minor / step) * step).toString().padStart(scale + 1, '0');
  return scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
}

async function enterPin(page: Page, pin: string) {
  await page.getByTestId('confirm-sheet').waitFor();
  await page.locator('.adm-number-keyboard-key').first().waitFor();
  await page.waitForTimeout(350);
  for (const digit of pin) await page.locator('.adm-number-keyboard-key').getByText(digit, { exact: true }).click();
}

async function positions(token: string) {
  return (await api('/coin/contract/order/list/active', {}, token)).data as {
    positions: { id: string; size: string; margin: string; takeProfit: string | null; stopLoss: string | null }[];
  };
}

describe('perpetual contracts against the real server', () => {
  for (const [n, lang] of (['en-US', 'pt-BR'] as const).entries()) {
    const text = TEXT[lang];
    it(`opens a leveraged long with TP/SL, moves the TP, adds margin and closes all (${lang})`, async () => {
      const { token, user } = await fundedCustomer(`90000025${n}1`);
      const { page } = await customerPage(browser, lang, { token, user });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(`${server.baseUrl}/pages/tabbar/trade?type=contract&symbol=BTCUSDT`);
        await page.getByTestId('perp-screen').waitFor();
        await page.getByTestId('perp-form').waitFor();
        expect(await page.getByTestId('trade-type').getByRole('tab', { selected: true }).textContent()).toBe(
          text.contracts,
        );
        await expect.poll(() => page.getByTestId('perp-available').textContent()).toContain(text.available);
        await expect.poll(() => page.getByTestId('mark-price').textContent()).toMatch(/\d/);
        await page
          .getByTestId('funding-countdown')
          .filter({ hasText: /^\d\d:\d\d:\d\d$/ })
          .waitFor();
        await shot(page, `web-perp-screen-${lang}`);
        expect(await blockingAxeViolations(page)).toEqual([]);

        // Leverage: 10× from the sheet's presets, set on the server.
        await page.getByTestId('leverage-open').click();
        await page.getByTestId('leverage-sheet').waitFor();
        await page.getByTestId('leverage-10').click();
        await shot(page, `web-perp-leverage-${lang}`);
        await page.getByTestId('leverage-save').click();
        await page.getByText(text.leverageSet).waitFor();
        await page.getByTestId('leverage-open').filter({ hasText: text.leverageButton }).waitFor();
        const lev = await api('/coin/contract/order/multiple', { symbol: 'BTCUSDT' }, token);
        expect(lev.data.leverage).toBe(10);

        // A take-profit below the mark is refused before sending; then TP +10 %, SL −10 %.
        const contracts = (await api('/coin/contract/infos', {})).data.items as {
          symbol: string;
          markPrice: string;
          tickSize: string;
        }[];
        const btc = contracts.find((c) => c.symbol === 'BTCUSDT');
        if (!btc) throw new Error('no BTCUSDT contract');
        await page.getByTestId('type-market').click();
        await page.getByTestId('quantity-input').fill('0.01');
        await page.getByTestId('tpsl-toggle').check();
        await page.getByTestId('take-profit-input').fill(onTick(percentOf(btc.markPrice, 90n), btc.tickSize));
        await page.getByText(text.wrongSide).waitFor();
        await page.getByTestId('take-profit-input').scrollIntoViewIfNeeded();
        await shot(page, `web-perp-wrong-side-${lang}`);
        const takeProfit = onTick(percentOf(btc.markPrice, 110n), btc.tickSize);
        const stopLoss = onTick(percentOf(btc.markPrice, 90n), btc.tickSize);
        await page.getByTestId('take-profit-input').fill(takeProfit);
        await page.getByTestId('stop-loss-input').fill(stopLoss);
        await page.getByText(text.wrongSide).waitFor({ state: 'detached' });
        await expect.poll(() => page.getByTestId('perp-cost').textContent()).toMatch(/\d/);
        await page.getByTestId('perp-submit').scrollIntoViewIfNeeded();
        await shot(page, `web-perp-form-${lang}`);
        expect(await blockingAxeViolations(page)).toEqual([]);
        await page.getByTestId('perp-submit').click();
        await page.getByTestId('confirm-sheet').waitFor();
        await shot(page, `web-perp-confirm-${lang}`);
        await enterPin(page, PIN);
        await page.getByText(text.filled).first().waitFor();

        // The position, with its figures and triggers.
        const card = page.getByTestId('positions').getByTestId('position').first();
        await card.waitFor();
        await expect.poll(async () => (await positions(token)).positions.length).toBe(1);
        const opened = (await positions(token)).positions[0]!;
        expect(compareDecimal(opened.size, '0.01')).toBe(0);
        expect(compareDecimal(opened.takeProfit, takeProfit)).toBe(0);
        expect(compareDecimal(opened.stopLoss, stopLoss)).toBe(0);
        await expect.poll(() => card.getByTestId('position-liq').textContent()).toMatch(/\d/);
        await expect.poll(() => page.locator('.adm-toast-mask').count(), { timeout: 8_000 }).toBe(0);
        await card.scrollIntoViewIfNeeded();
        await shot(page, `web-perp-position-${lang}`);
        expect(await blockingAxeViolations(page)).toEqual([]);

        // The server refuses a take-profit under a long's entry in the customer's language (the sheet checks
        // the same before sending).
        const refused = await api('/coin/contract/order/set/profit', { id: opened.id, price: stopLoss }, token, lang);
        expect(refused.code).not.toBe(0);
        expect(refused.msg).toBe(errorMessage('trigger_wrong_side', lang));

        // Move the take-profit to +20 %.
        const newTp = onTick(percentOf(btc.markPrice, 120n), btc.tickSize);
        await card.getByTestId('position-tpsl').click();
        await page.getByTestId('tpsl-sheet').waitFor();
        await page.getByTestId('position-tp-input').fill(newTp);
        await shot(page, `web-perp-tpsl-${lang}`);
        await page.getByTestId('tpsl-save').click();
        await page.getByText(text.tpSlSaved).waitFor();
        await expect.poll(async () => (await positions(token)).positions[0]?.takeProfit ?? null).toMatch(/\d/);
        expect(compareDecimal((await positions(token)).positions[0]?.takeProfit, newTp)).toBe(0);

        // Add 50 USDT of margin.
        await card.getByTestId('position-margin-add').click();
        await page.getByTestId('margin-sheet').waitFor();
        await page.getByTestId('margin-amount-input').fill('50');
        await shot(page, `web-perp-margin-${lang}`);
        await page.getByTestId('margin-save').click();
        await page.getByText(text.marginAdded).waitFor();
        await expect
          .poll(async () => compareDecimal((await positions(token)).positions[0]?.margin, opened.margin))
          .toBe(1);

        // A limit long 10 % under the mark rests: it shows under Orders, and is cancelled from there.
        await page.getByTestId('tpsl-toggle').uncheck();
        await page.getByTestId('type-limit').click();
        const limitPrice = onTick(percentOf(btc.markPrice, 90n), btc.tickSize);
        await page.getByTestId('price-input').fill(limitPrice);
        await page.getByTestId('quantity-input').fill('0.001');
        expect(await page.getByTestId('price-input').inputValue()).toBe(limitPrice);
        await page.getByTestId('perp-submit').click();
        await enterPin(page, PIN);
        await page.getByText(text.rests).waitFor();
        // The screen turns to Orders by itself (the toast fades first, as a tap would come after it).
        await expect.poll(() => page.locator('.adm-toast-mask').count(), { timeout: 8_000 }).toBe(0);
        await page.getByTestId('perp-tabs').getByRole('tab', { name: text.orders }).click();
        const resting = page.getByTestId('perp-open-orders').getByTestId('perp-order');
        await resting.first().waitFor();
        await resting.first().scrollIntoViewIfNeeded();
        await shot(page, `web-perp-orders-${lang}`);
        await resting.first().getByTestId('perp-cancel').click();
        await page.getByTestId('perp-open-orders').waitFor({ state: 'detached' });
        const open = (await api('/coin/contract/order/list', { status: 'open' }, token)).data.items as unknown[];
        expect(open).toHaveLength(0);
        await page.getByTestId('perp-tabs').getByRole('tab', { name: text.positions }).click();
        await card.waitFor();

        // Close one: a short on ETH opened through the API is closed from its card.
        const eth = { symbol: 'ETHUSDT', side: 'short', type: 'market', quantity: '0.01', password: PIN };
        const short = await api('/coin/contract/order/add', eth, token);
        expect(short.code, JSON.stringify(short)).toBe(0);
        const ethCard = page.getByTestId('position').filter({ hasText: 'ETHUSDT' });
        await ethCard.waitFor();
        await ethCard.getByTestId('position-close').click();
        await page.locator('.adm-dialog').getByRole('button', { name: text.close, exact: true }).click();
        await ethCard.waitFor({ state: 'detached' });
        await expect.poll(async () => (await positions(token)).positions.length).toBe(1);

        // Close all: the position goes; a second try is told there is nothing to close.
        await page.getByTestId('close-all').click();
        await page.locator('.adm-dialog').getByRole('button', { name: text.closeAll, exact: true }).click();
        await page.getByText(text.noPositions).waitFor();
        expect((await positions(token)).positions).toHaveLength(0);
        await expect.poll(() => page.locator('.adm-toast-mask').count(), { timeout: 8_000 }).toBe(0);
        await page.getByTestId('close-all').click();
        await page.getByText(text.noClosable).waitFor();
        await shot(page, `web-perp-closed-${lang}`);
        await page.getByTestId('perp-tabs').getByRole('tab', { name: text.history }).click();
        await page.getByTestId('perp-history').getByTestId('perp-order').first().waitFor();
        await page.getByTestId('perp-history').scrollIntoViewIfNeeded();
        await shot(page, `web-perp-history-${lang}`);
        // Closed positions: the ETH short and the BTC long, each closed by the customer.
        await page.getByTestId('history-kind').getByRole('tab', { name: text.positions }).click();
        const closed = page.getByTestId('closed-positions').locator('li');
        await expect.poll(() => closed.count()).toBe(2);
        await expect.poll(() => closed.filter({ hasText: text.closedEnd }).count()).toBe(2);
        await closed.filter({ hasText: 'ETHUSDT' }).waitFor();
        expect(await blockingAxeViolations(page)).toEqual([]);
        await shot(page, `web-perp-closed-positions-${lang}`);
        await page.getByTestId('perp-tabs').getByRole('tab', { name: text.records }).click();
        await page.getByTestId('record-kind').waitFor();
        await page.getByTestId('empty-state').waitFor();
        await shot(page, `web-perp-records-${lang}`);
        expect(errors).toEqual([]);
      } catch (error) {
        await shot(page, `web-perp-failure-${lang}`);
        throw error;
      } finally {
        await page.context().close();
      }
    }, 120_000);
  }
});
