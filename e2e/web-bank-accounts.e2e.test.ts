// Bank accounts end to end against the real server, in both languages, at 390×844: the demo customer
// adds an Indian account (IFSC) — and in pt-BR a Brazilian one with a CPF — sees it listed with the
// 24 h withdrawal lock, then deletes it. Screenshots: test-results/screens/web-bank-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  customerPage,
  DEMO_CUSTOMER,
  launchBrowser,
  type Server,
  shot,
  signInCustomer,
  startServer,
} from './harness.ts';

const TEXT = {
  'en-US': {
    add: 'Add bank account',
    save: 'Save',
    holder: 'Account holder',
    bank: 'Bank',
    account: 'Account number',
    branch: 'Branch',
    pix: 'PIX key',
    tax: 'CPF or CNPJ',
    password: 'Login password',
    brazil: 'Brazil',
    lock: 'Withdrawals are locked until',
    empty: 'No bank accounts yet.',
    badIfsc: 'This IFSC code is not valid',
    del: 'Delete',
  },
  'pt-BR': {
    add: 'Adicionar conta bancária',
    save: 'Salvar',
    holder: 'Titular da conta',
    bank: 'Banco',
    account: 'Número da conta',
    branch: 'Agência',
    pix: 'Chave PIX',
    tax: 'CPF ou CNPJ',
    password: 'Senha de login',
    brazil: 'Brasil',
    lock: 'Os saques ficam bloqueados até',
    empty: 'Nenhuma conta bancária ainda.',
    badIfsc: 'Este código IFSC não é válido',
    del: 'Excluir',
  },
} as const;

let server: Server;
let browser: Browser;
let demo: { token: string; user: unknown };

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  demo = await signInCustomer(server);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

// A form item by its label's own text (the label also holds the required mark).
const field = (page: Page, label: string) =>
  page
    .locator('.adm-form-item')
    .filter({ has: page.locator('.adm-form-item-label', { hasText: new RegExp(`^${label}\\s*\\*?$`) }) })
    .locator('input');

async function deleteFirst(page: Page, confirmText: string) {
  await page.getByTestId('bank-item').first().getByRole('button').click();
  await shot(page, `web-bank-delete-confirm-${await page.evaluate('document.documentElement.lang')}`);
  // Named in the app's language (the static dialog once showed antd-mobile's Chinese default).
  await page.locator('.adm-dialog-button-bold', { hasText: confirmText }).click();
}

describe('customer bank accounts (real server)', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    it(`adds, lists and deletes bank accounts (${lang})`, async () => {
      const text = TEXT[lang];
      const { context, page } = await customerPage(browser, lang, demo);
      try {
        await page.goto(`${server.baseUrl}/pages/wallet/bankList?type=2`);
        await page.getByText(text.empty).waitFor();
        await page.getByRole('button', { name: text.add }).click();
        await page.getByTestId('add-bank-form').waitFor();
        await field(page, text.holder).fill('Asha Rao');
        await field(page, text.bank).fill('HDFC Bank');
        await field(page, text.account).fill('50100012345678');
        await field(page, 'IFSC').fill('HDFC1CAGSBK');
        await field(page, text.password).fill(DEMO_CUSTOMER.password);
        await page.getByRole('button', { name: text.save }).click();
        await page.getByText(text.badIfsc).first().waitFor();
        await shot(page, `web-bank-add-refused-${lang}`);
        await field(page, 'IFSC').fill('hdfc0cagsbk');
        await page.getByRole('button', { name: text.save }).click();
        await page.getByTestId('bank-item').first().waitFor();
        await expect.poll(() => page.getByTestId('bank-item').first().textContent()).toContain('HDFC0CAGSBK');
        await page.getByTestId('bank-lock').getByText(text.lock).waitFor();

        if (lang === 'pt-BR') {
          await page.getByRole('button', { name: text.add }).click();
          await page.getByTestId('add-bank-form').waitFor();
          await page.getByText(text.brazil, { exact: true }).click();
          await field(page, text.holder).fill('João Silva');
          await field(page, text.bank).fill('Banco do Brasil');
          await field(page, text.branch).fill('1234');
          await field(page, text.account).fill('12345-6');
          await field(page, text.pix).fill('joao@example.com');
          await field(page, text.tax).fill('111.444.777-35');
          await shot(page, `web-bank-add-br-${lang}`);
          await field(page, text.password).fill(DEMO_CUSTOMER.password);
          await page.getByRole('button', { name: text.save }).click();
          await expect.poll(() => page.getByTestId('bank-item').count()).toBe(2);
          await expect.poll(() => page.getByTestId('bank-item').first().textContent()).toContain('11144477735');
        }
        await shot(page, `web-bank-list-${lang}`);

        const count = await page.getByTestId('bank-item').count();
        for (let i = count; i > 0; i--) {
          await deleteFirst(page, text.del);
          await expect.poll(() => page.getByTestId('bank-item').count()).toBe(i - 1);
        }
        await page.getByText(text.empty).waitFor();
        // The dialog and the toast fade out before they leave the page.
        await page.locator('.adm-dialog-footer').waitFor({ state: 'detached' });
        await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
        await shot(page, `web-bank-empty-${lang}`);
      } finally {
        await context.close();
      }
    });
  }
});
