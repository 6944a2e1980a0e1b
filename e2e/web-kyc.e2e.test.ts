// Proves KYC end to end against the real server, once per language: a fresh customer opens
// /pages/user/kyc at 390×844, submits a document with two small generated photos and sees it under
// review with what it sent; the demo administrator rejects it in the console's KYC review with a
// written reason, which the app shows; the customer submits again, the administrator approves, and
// the app shows the customer verified (the badge reads users.id_status, as the drawer's does).
// Screenshots: test-results/screens/web-kyc-<lang>-*.png and admin-kyc-<lang>-*.png.

import type { Lang } from '@bourse/contract';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  customerPage,
  launchBrowser,
  consolePage as openConsolePage,
  registerCustomer,
  type Server,
  shot,
  staffSignIn,
  startServer,
} from './harness.ts';

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

const photo = (color: string) =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: color } })
    .jpeg()
    .toBuffer();

const TEXT = {
  'en-US': { passport: 'Passport', pending: 'Under review', verified: 'Verified' },
  'pt-BR': { passport: 'Passaporte', pending: 'Em análise', verified: 'Verificado' },
} as const;

describe.each(['en-US', 'pt-BR'] as const)('KYC (%s)', (lang: Lang) => {
  it('submits in the app, is rejected with a reason, resubmits, is approved in the console, and shows verified', async () => {
    const text = TEXT[lang];
    const session = await registerCustomer(server, lang === 'en-US' ? '9123400001' : '9123400002');
    const { context, page } = await customerPage(browser, lang, session);
    const fillAndSend = async (number: string, step: string) => {
      await page.getByTestId('kyc-form').waitFor();
      await page.getByText(text.passport, { exact: true }).click();
      await page.getByTestId('kyc-name').locator('input').fill('Asha Rao');
      await page.getByTestId('kyc-number').locator('input').fill(number);
      await page
        .getByTestId('kyc-front')
        .locator('input[type=file]')
        .setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: await photo('#3366cc') });
      await page
        .getByTestId('kyc-back')
        .locator('input[type=file]')
        .setInputFiles({ name: 'back.jpg', mimeType: 'image/jpeg', buffer: await photo('#cc6633') });
      await page.locator('.adm-image-uploader-cell img').nth(1).waitFor();
      await shot(page, `web-kyc-${lang}-${step}-filled`);
      await page.getByTestId('kyc-form').locator('button[type=submit]').click();
      await page.locator('[data-testid=kyc-state][data-status=pending]').waitFor();
    };
    const desk = await openConsolePage(browser, lang);
    const decideInConsole = async (
      number: string,
      action: 'kyc-approve' | 'kyc-reject',
      reason: string,
      step: string,
    ) => {
      await desk.goto(`${server.baseUrl}/admin/kyc`);
      const card = desk.locator('[data-testid^=kyc-item-]').filter({ hasText: number }).last();
      await card.waitFor();
      await card.getByTestId('kyc-photo-back').waitFor();
      await shot(desk, `admin-kyc-${lang}-${step}-pending`);
      await card.getByTestId(action).click();
      await desk.getByTestId('reason-input').fill(reason);
      await desk.waitForTimeout(400); // the dialog's opening animation
      await shot(desk, `admin-kyc-${lang}-${step}-decide`);
      await desk.getByTestId('reason-confirm').click();
      await card.waitFor({ state: 'detached' });
    };
    try {
      await page.goto(`${server.baseUrl}/pages/user/kyc`);
      await page.getByTestId('kyc-form').waitFor();
      await shot(page, `web-kyc-${lang}-01-form`);
      await fillAndSend('P1234567', '02');
      expect(await page.getByTestId('id-status').textContent()).toContain(text.pending);
      // The customer sees what they sent, photos included (fetched with their session).
      await page.getByTestId('kyc-own-photo-back').waitFor();
      expect(await page.getByTestId('kyc-submission').textContent()).toContain('P1234567');
      await shot(page, `web-kyc-${lang}-03-pending`);

      await staffSignIn(desk, server);
      await decideInConsole('P1234567', 'kyc-reject', 'The back photo is blurred', '01');
      await page.reload();
      await page.locator('[data-testid=kyc-state][data-status=fail]').waitFor();
      expect(await page.getByTestId('kyc-reason').textContent()).toContain('The back photo is blurred');
      await shot(page, `web-kyc-${lang}-04-failed`);
      await page.getByTestId('kyc-resubmit').click();
      await fillAndSend('P7654321', '05');

      await decideInConsole('P7654321', 'kyc-approve', 'Photos match the name and number', '02');
      await page.reload();
      await page.locator('[data-testid=kyc-state][data-status=succ]').waitFor();
      expect(await page.getByTestId('id-status').textContent()).toContain(text.verified);
      await shot(page, `web-kyc-${lang}-06-verified`);
    } finally {
      await desk.context().close();
      await context.close();
    }
  });
});
