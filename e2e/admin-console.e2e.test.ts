// Proves the staff console's main path against the real server, in both languages: TOTP sign-in (a
// wrong code is refused with the server's translated message), blocking a customer with a written
// reason, and finding that action, with its reason, in the append-only audit log.

import { errorMessage, type Lang } from '@bourse/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CUSTOMER, DEMO_STAFF, launchBrowser, type Server, shot, startServer, staffTotp } from './harness.ts';

const DESKTOP = { width: 1366, height: 800 };

const TEXT = {
  'en-US': {
    paper: 'Paper mode: virtual money',
    blocked: 'Blocked',
    blockedAction: 'User blocked',
    auditMenu: 'Audit log',
    appendOnly: 'Append-only',
    reason: 'Suspected account takeover (e2e)',
  },
  'pt-BR': {
    paper: 'Modo simulado: dinheiro virtual',
    blocked: 'Bloqueado',
    blockedAction: 'Usuário bloqueado',
    auditMenu: 'Log de auditoria',
    appendOnly: 'Somente inclusão',
    reason: 'Suspeita de invasão de conta (e2e)',
  },
} as const satisfies Record<Lang, Record<string, string>>;

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

async function consolePage(lang: Lang): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, locale: lang });
  await context.addInitScript((l) => localStorage.setItem('adminLanguage', l), lang);
  return context.newPage();
}

/** Confirms the reason dialog that every status change opens. */
async function confirmWithReason(page: Page, reason: string) {
  await page.getByTestId('reason-input').fill(reason);
  await page.getByTestId('reason-confirm').click();
  await page.getByTestId('reason-input').waitFor({ state: 'detached' });
}

describe('staff console', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    const text = TEXT[lang];

    it(`${lang}: signs in with TOTP, blocks a customer with a reason and shows it in the audit log`, async () => {
      const page = await consolePage(lang);

      // Sign-in: a wrong code is refused with the server's message in this language.
      await page.goto(`${server.baseUrl}/admin/`);
      await page.getByTestId('sign-in-username').fill(DEMO_STAFF.username);
      await page.getByTestId('sign-in-password').fill(DEMO_STAFF.password);
      const code = staffTotp();
      const wrongCode = String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');
      await page.getByTestId('sign-in-totp').fill(wrongCode);
      await page.getByTestId('sign-in-submit').click();
      const refusal = page.getByTestId('sign-in-error');
      await refusal.waitFor();
      expect(await refusal.innerText()).toContain(errorMessage('staff_login_failed', lang));
      await shot(page, `admin-${lang}-1-sign-in-refused`);

      await page.getByTestId('sign-in-totp').fill(staffTotp());
      await page.getByTestId('sign-in-submit').click();
      const banner = page.getByTestId('mode-banner');
      await banner.waitFor();
      expect(await banner.innerText()).toContain(text.paper);
      expect(await page.getByTestId('mode-badge').innerText()).toBe(text.paper);
      await shot(page, `admin-${lang}-2-dashboard`);

      // Block the demo customer (the first language's run left it blocked: unblock it first).
      await page.goto(`${server.baseUrl}/admin/users?keyword=${DEMO_CUSTOMER.phone}`);
      const row = page.getByTestId('users-table').locator('tbody tr', { hasText: DEMO_CUSTOMER.phone });
      await row.waitFor();
      const unblock = row.locator('[data-testid^="user-unblock-"]');
      if ((await unblock.count()) > 0) {
        await unblock.click();
        await confirmWithReason(page, `${text.reason}: reset`);
      }
      await row.locator('[data-testid^="user-block-"]').click();
      await page.getByTestId('reason-input').fill(text.reason);
      await shot(page, `admin-${lang}-3-block-dialog`);
      await page.getByTestId('reason-confirm').click();
      await page.getByTestId('reason-input').waitFor({ state: 'detached' });
      await row.getByText(text.blocked, { exact: true }).waitFor();
      await shot(page, `admin-${lang}-4-user-blocked`);

      // The audit log: newest first, the block with its reason; no way to edit or delete.
      await page.getByTestId('side-menu').getByRole('link', { name: text.auditMenu }).click();
      await page.getByTestId('audit-append-only').getByText(text.appendOnly).waitFor();
      await page.getByTestId('audit-action-filter').fill('user.blocked');
      await page.getByTestId('audit-action-filter').press('Enter');
      await page.waitForURL(/action=user\.blocked/);
      const newest = page.getByTestId('audit-table').locator('tbody tr.ant-table-row').first();
      await newest.getByText(text.reason, { exact: true }).waitFor();
      const entry = await newest.innerText();
      expect(entry).toContain(text.blockedAction);
      expect(entry).toContain(DEMO_STAFF.username);
      const rows = await page.getByTestId('audit-table').locator('tbody tr.ant-table-row').allInnerTexts();
      for (const other of rows) expect(other).toContain(text.blockedAction);
      expect(await page.getByRole('button', { name: /edit|delete|editar|excluir/i }).count()).toBe(0);
      await shot(page, `admin-${lang}-5-audit-log`);

      await page.context().close();
    });
  }
});
