// Proves the staff console's reconciliation page against the real server, in both languages: an
// administrator runs a reconciliation and sees it balanced (every asset nets to zero, the audit chain
// intact); a transfer record removed behind the server's back shows as discrepancies, in red, each with
// what it means; put back, the next run is balanced again. Each state is photographed.

import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Lang } from '@bourse/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePage, shot as harnessShot, launchBrowser, type Server, staffSignIn, startServer } from './harness.ts';

const TEXT = {
  'en-US': {
    menu: 'Reconciliation',
    balanced: 'Balanced',
    failed: 'Discrepancies found',
    mismatch: 'Stored transfers disagree with the balance',
    intact: 'Intact',
  },
  'pt-BR': {
    menu: 'Conciliação',
    balanced: 'Tudo fecha',
    failed: 'Divergências encontradas',
    mismatch: 'Transferências gravadas divergem do saldo',
    intact: 'Íntegra',
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

/** A screenshot once antd's fades have finished. */
async function shot(page: Page, name: string) {
  await page.waitForTimeout(400);
  await harnessShot(page, name);
}

/** Runs one from the page and waits for the report it answers to show with `status`. */
async function runNow(page: Page, status: 'ok' | 'failed') {
  const answered = page.waitForResponse((r) => r.url().includes('/admin/reconciliation/run'));
  await page.getByTestId('reconciliation-run').click();
  await answered;
  await page.locator(`[data-testid="reconciliation-status"][data-status="${status}"]`).waitFor();
}

/** The server's own database file, written behind its back as only a fault or an intruder would. */
function serverDatabase(): DatabaseSync {
  const db = new DatabaseSync(join(server.dataDir, 'bourse.sqlite'));
  db.exec('PRAGMA busy_timeout = 5000');
  return db;
}

describe('reconciliation page', () => {
  for (const lang of ['en-US', 'pt-BR'] as const) {
    const text = TEXT[lang];

    it(`${lang}: runs a reconciliation, shows it balanced, and shows a lost transfer record as discrepancies`, async () => {
      const page = await consolePage(browser, lang);
      await staffSignIn(page, server);
      await page.getByTestId('side-menu').getByRole('link', { name: text.menu }).click();
      await page.waitForURL(/\/admin\/reconciliation$/);

      await runNow(page, 'ok');
      const status = page.getByTestId('reconciliation-status');
      expect(await status.textContent()).toContain(text.balanced);
      expect(await page.getByTestId('reconciliation-audit-chain').textContent()).toContain(text.intact);
      const assets = page.getByTestId('reconciliation-assets');
      expect(await assets.locator('tbody tr.ant-table-row').count()).toBeGreaterThan(0);
      // Every net on show reads zero (a non-zero one is shown in red).
      expect(await assets.locator('.ant-typography-danger').count()).toBe(0);
      await shot(page, `admin-reconciliation-${lang}-1-balanced`);
      await assets.scrollIntoViewIfNeeded();
      await shot(page, `admin-reconciliation-${lang}-2-assets`);

      // A paper grant's transfer record removed behind the server's back.
      const db = serverDatabase();
      const row = db.prepare(`SELECT * FROM ledger_transfers WHERE cause = 'paper_grant' LIMIT 1`).get() as Record<
        string,
        string | number
      >;
      db.prepare('DELETE FROM ledger_transfers WHERE transfer_id = ?').run(row.transfer_id as string);
      try {
        await page.getByTestId('reconciliation-run').scrollIntoViewIfNeeded();
        await runNow(page, 'failed');
        expect(await status.textContent()).toContain(text.failed);
        const listed = page.getByTestId('reconciliation-discrepancies');
        expect(await listed.locator('tbody tr.ant-table-row').count()).toBe(2); // the grant's two accounts
        expect(await listed.textContent()).toContain(text.mismatch);
        await shot(page, `admin-reconciliation-${lang}-3-discrepancies`);
      } finally {
        const columns = Object.keys(row);
        db.prepare(
          `INSERT INTO ledger_transfers (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        ).run(...columns.map((c) => row[c] as string | number));
        db.close();
      }
      await runNow(page, 'ok');
      await page.context().close();
    });
  }
});
