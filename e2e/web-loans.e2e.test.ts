// Loans end to end against the real server at 390×844 (decision 0039). en-US, the whole path: a new
// customer (KYC approved through the API) reads their credit score and its factors, opens the loan
// application, sees every term before agreeing, applies with the transaction password; a staff member
// approves it in the console's loan desk (named on the loan as its manager); the customer sees it in
// progress with the money in their stock wallet and repays it; staff confirm the repayment and the loan
// shows repaid. pt-BR: the same screens, the approval and repayment made through the API. The server's
// clock starts at the present (staff sign-in codes follow real time). Screenshots:
// test-results/screens/web-loans-*.png, admin-loans-*.png.
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  blockingAxeViolations,
  consolePage,
  customerPage,
  DEMO_STAFF,
  launchBrowser,
  registerCustomer,
  type Server,
  shot,
  staffApiSignIn,
  staffSignIn,
  startServer,
} from './harness.ts';

const PIN = '135790';
const TEXT = {
  'en-US': { review: 'Under review', progress: 'In progress', repaying: 'Repayment under review', repaid: 'Repaid' },
  'pt-BR': { review: 'Em análise', progress: 'Em andamento', repaying: 'Pagamento em análise', repaid: 'Quitado' },
} as const;

let server: Server;
let browser: Browser;
let staffToken = '';
let deskToken = '';
const customers: Record<string, { token: string; user: { id: number } }> = {};

async function api(path: string, body: Record<string, unknown> | null, token?: string) {
  const res = await fetch(`${server.baseUrl}/ipor-api${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { token } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as { code: number; msg: string; data: any; error?: string };
}

beforeAll(async () => {
  server = await startServer({ BOURSE_TEST_CLOCK: new Date().toISOString(), IPO_DEMO: '0', DEMO_LAUNCHPAD: '0' });
  browser = await launchBrowser();
  const photo = `data:image/jpeg;base64,${(
    await sharp({ create: { width: 480, height: 300, channels: 3, background: '#dfe7f1' } })
      .jpeg()
      .toBuffer()
  ).toString('base64')}`;
  for (const [n, lang] of (['en-US', 'pt-BR'] as const).entries()) {
    const c = await registerCustomer(server, `91234600${n}1`, { tradePassword: PIN });
    const kyc = await api(
      '/user/auth',
      { docType: 'passport', fullName: 'Loan Borrower', docNumber: `P400000${n}`, front: photo, back: photo },
      c.token,
    );
    expect(kyc.code, JSON.stringify(kyc)).toBe(0);
    customers[lang] = c as { token: string; user: { id: number } };
  }
  staffToken = await staffApiSignIn(server);
  const pending = (await api('/admin/kyc', null, staffToken)).data.items as { id: number; userId: number }[];
  for (const c of Object.values(customers)) {
    const item = pending.find((p) => p.userId === c.user.id);
    const decided = await api(
      `/admin/kyc/${item?.id}/decide`,
      { decision: 'approve', reason: 'Documents match' },
      staffToken,
    );
    expect(decided.code, JSON.stringify(decided)).toBe(0);
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function look(page: Page, name: string) {
  await page.locator('.adm-toast-mask').waitFor({ state: 'hidden' });
  await page.waitForTimeout(200);
  await shot(page, name);
  expect(await blockingAxeViolations(page), name).toEqual([]);
}

async function enterPin(page: Page, pin: string) {
  await page.getByTestId('confirm-sheet').waitFor();
  await page.locator('.adm-number-keyboard-key').first().waitFor();
  await page.waitForTimeout(350);
  for (const digit of pin) await page.locator('.adm-number-keyboard-key').getByText(digit, { exact: true }).click();
}

/** The score page, then the application with every term shown, applied for with the PIN. */
async function applyInApp(page: Page, lang: 'en-US' | 'pt-BR'): Promise<number> {
  await page.goto(`${server.baseUrl}/pages/user/creditScore`);
  await page.getByTestId('score-value').filter({ hasText: '450' }).waitFor();
  await page.getByTestId('score-log').waitFor();
  await look(page, `web-loans-score-${lang}`);
  await page.getByTestId('score-log').scrollIntoViewIfNeeded();
  await shot(page, `web-loans-score-log-${lang}`);
  await page.getByTestId('go-apply').click();
  await page.getByTestId('apply-amount').fill('1000');
  await page.getByTestId('apply-days-7').click();
  await page.getByTestId('apply-terms').waitFor();
  await page
    .getByTestId('apply-terms')
    .getByText('1,003.50', { exact: false }) // INR is written the Indian way in both languages
    .waitFor();
  await look(page, `web-loans-apply-${lang}`);
  await page.getByTestId('apply-submit').click();
  await page.getByTestId('confirm-sheet').waitFor();
  await shot(page, `web-loans-apply-confirm-${lang}`);
  await enterPin(page, PIN);
  await page.getByTestId('loan-list').waitFor();
  const loans = (await apiCall(server, '/user/loan/order/list', null, { token: customers[lang]?.token })).data.items;
  expect(loans[0]).toMatchObject({ status: 'under_review', amount: '1000.00', repaymentAmount: '1003.50' });
  await page.getByTestId(`loan-status-${loans[0].id}`).filter({ hasText: TEXT[lang].review }).waitFor();
  await look(page, `web-loans-list-review-${lang}`);
  return loans[0].id as number;
}

/** The customer sees the loan in progress (the money paid out) and repays it with the PIN. */
async function repayInApp(page: Page, lang: 'en-US' | 'pt-BR', id: number) {
  const before = (await apiCall(server, '/user/assets', {}, { token: customers[lang]?.token })).data;
  await page.reload();
  await page.getByTestId(`loan-status-${id}`).filter({ hasText: TEXT[lang].progress }).waitFor();
  await look(page, `web-loans-list-progress-${lang}`);
  await page.getByTestId(`loan-repay-${id}`).click();
  await page.getByTestId('confirm-sheet').waitFor();
  await shot(page, `web-loans-repay-confirm-${lang}`);
  await enterPin(page, PIN);
  await page.getByTestId(`loan-status-${id}`).filter({ hasText: TEXT[lang].repaying }).waitFor();
  expect(before).toBeTruthy();
}

describe('loans against the real server', () => {
  it('applies, is approved in the console, sees the money, repays, and is confirmed repaid (en-US)', async () => {
    const lang = 'en-US';
    const { context, page } = await customerPage(browser, lang, customers[lang]);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const desk = await consolePage(browser, lang);
    try {
      const id = await applyInApp(page, lang);

      // The console: staff sign-in codes follow the real time, so bring the server's clock up to it.
      const { now } = (await api('/test/clock/advance', { ms: 1 })).data;
      if (Date.now() > now) await api('/test/clock/advance', { ms: Date.now() - now });
      await staffSignIn(desk, server);
      await desk.goto(`${server.baseUrl}/admin/loans`);
      await desk.getByTestId(`loan-approve-${id}`).waitFor();
      await shot(desk, `admin-loans-queue-${lang}`);
      await desk.getByTestId(`loan-approve-${id}`).click();
      await desk.getByTestId('reason-input').fill('Score and KYC fine');
      await desk.getByTestId('reason-confirm').click();
      await desk.locator('.ant-modal').waitFor({ state: 'hidden' });

      // The disbursement reached the stock wallet; the loan names the reviewer as its manager.
      const loan = (await apiCall(server, `/user/loan/${id}`, null, { token: customers[lang]?.token })).data;
      expect(loan).toMatchObject({
        status: 'in_progress',
        manager: DEMO_STAFF.username,
        disbursementId: `loan:${id}:disburse`,
      });
      await repayInApp(page, lang, id);
      await look(page, `web-loans-list-repaying-${lang}`);

      await desk.getByText('Repayment under review', { exact: true }).first().click();
      await desk.getByTestId(`loan-confirm-${id}`).click();
      await desk.getByTestId('reason-input').fill('Repayment received in full');
      await desk.getByTestId('reason-confirm').click();
      await desk.locator('.ant-modal').waitFor({ state: 'hidden' });
      await desk.getByText('All', { exact: true }).first().click();
      await desk.getByTestId(`loan-status-${id}`).filter({ hasText: 'Repaid' }).waitFor();
      await shot(desk, `admin-loans-all-${lang}`);
      // The console's session, for the Portuguese desk below (a second sign-in would wait for a new code).
      deskToken = String(await desk.evaluate(`(() => localStorage.getItem('adminToken'))()`));

      await page.reload();
      await page.getByTestId(`loan-status-${id}`).filter({ hasText: TEXT[lang].repaid }).waitFor();
      await look(page, `web-loans-list-repaid-${lang}`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await desk.context().close();
    }
  }, 90_000);

  it('shows the same screens in Portuguese (approval and confirmation through the API)', async () => {
    const lang = 'pt-BR';
    const { context, page } = await customerPage(browser, lang, customers[lang]);
    try {
      const id = await applyInApp(page, lang);
      if (deskToken) {
        // The console's loan desk in Portuguese, signed in with the session the first test opened.
        const desk = await consolePage(browser, lang);
        await desk.context().addInitScript(`localStorage.setItem('adminToken', ${JSON.stringify(deskToken)})`);
        await desk.goto(`${server.baseUrl}/admin/loans`);
        await desk.getByTestId(`loan-approve-${id}`).waitFor();
        await shot(desk, `admin-loans-queue-${lang}`);
        await desk.context().close();
      }
      const approved = await api(
        `/admin/loans/${id}/decide`,
        { decision: 'approve', reason: 'Score e KYC ok' },
        staffToken,
      );
      expect(approved.code, JSON.stringify(approved)).toBe(0);
      await repayInApp(page, lang, id);
      await look(page, `web-loans-list-repaying-${lang}`);
      const confirmed = await api(`/admin/loans/${id}/confirm-repayment`, { reason: 'Pagamento recebido' }, staffToken);
      expect(confirmed.code, JSON.stringify(confirmed)).toBe(0);
      await page.reload();
      await page.getByTestId(`loan-status-${id}`).filter({ hasText: TEXT[lang].repaid }).waitFor();
      await look(page, `web-loans-list-repaid-${lang}`);
      await page.goto(`${server.baseUrl}/pages/user/creditScore`);
      await page.getByTestId('score-value').waitFor();
      await look(page, `web-loans-score-after-${lang}`);
    } finally {
      await context.close();
    }
  }, 60_000);
});
