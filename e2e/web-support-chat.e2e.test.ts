// Support chat end to end against the real server (decision 0041), in each language: a signed-out
// visitor reads common/service; a customer writes from the app's chat screen (user/service); a support
// staff member (role support, signed in over the API) takes it in the console's chat desk, sees the
// message and answers; the customer, on Mine meanwhile, sees the unread badge arrive, opens the chat and
// sees the answer, and the desk sees its reply read. Screenshots: test-results/screens/web-chat-*.png, admin-chat-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  blockingAxeViolations,
  consolePage,
  customerPage,
  DEMO_STAFF,
  launchBrowser,
  phonePage,
  registerCustomer,
  type Server,
  shot,
  staffTotp,
  startServer,
} from './harness.ts';

const TEXT = {
  'en-US': { ask: 'Hello, my deposit is still pending', answer: 'Hi! We are checking it now.', read: 'Read' },
  'pt-BR': { ask: 'Olá, meu depósito ainda está pendente', answer: 'Olá! Já estamos verificando.', read: 'lida' },
} as const;

let server: Server;
let browser: Browser;
let supportToken = '';
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
  for (const [n, lang] of (['en-US', 'pt-BR'] as const).entries()) {
    customers[lang] = (await registerCustomer(server, `91234700${n}1`)) as { token: string; user: { id: number } };
  }
  const admin = await api('/admin/auth/login', {
    username: DEMO_STAFF.username,
    password: DEMO_STAFF.password,
    totpCode: await staffTotp(),
  });
  expect(admin.code, JSON.stringify(admin)).toBe(0);
  const hired = await api(
    '/admin/staff/create',
    { username: 'sam', role: 'support', reason: 'support chat desk' },
    admin.data.token,
  );
  expect(hired.code, JSON.stringify(hired)).toBe(0);
  const signedIn = await api('/admin/auth/login', {
    username: 'sam',
    password: hired.data.initialPassword,
    totpCode: await staffTotp(hired.data.totpSecret),
  });
  expect(signedIn.code, JSON.stringify(signedIn)).toBe(0);
  supportToken = signedIn.data.token;
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

describe.each(['en-US', 'pt-BR'] as const)('support chat in %s', (lang) => {
  it('a customer writes in the app, support answers in the console, the customer sees the answer', async () => {
    const text = TEXT[lang];
    const customer = customers[lang]!;

    // Signed out: how support works, with sign-in.
    const visitor = await phonePage(browser, lang);
    await visitor.page.goto(`${server.baseUrl}/pages/common/service`);
    await visitor.page.getByTestId('service-sign-in').waitFor();
    await look(visitor.page, `web-chat-public-${lang}`);
    await visitor.context.close();

    const { context, page } = await customerPage(browser, lang, customer);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const desk = await consolePage(browser, lang);
    await desk.context().addInitScript(`localStorage.setItem('adminToken', ${JSON.stringify(supportToken)})`);
    try {
      await page.goto(`${server.baseUrl}/pages/user/service`);
      await page.getByTestId('chat-empty').waitFor();
      await page.getByTestId('chat-input').locator('textarea').first().fill(text.ask);
      await page.getByTestId('chat-send').click();
      await page.getByTestId('chat-message-customer').filter({ hasText: text.ask }).waitFor();
      await look(page, `web-chat-sent-${lang}`);
      // Away from the chat (an open chat screen reads an answer as it arrives): the badge counts it.
      await page.goto(`${server.baseUrl}/pages/tabbar/mine`);
      await page.getByTestId('mine-support').waitFor();

      // The console: the conversation waits in the queue; support takes it and answers.
      await desk.goto(`${server.baseUrl}/admin/chat`);
      const phone = lang === 'en-US' ? '912347000' : '912347001';
      await desk.getByTestId('desk-conversation').filter({ hasText: phone }).click();
      await desk.getByTestId('desk-message-customer').filter({ hasText: text.ask }).waitFor();
      await desk.getByTestId('desk-assign').click();
      await desk.getByTestId('desk-release').waitFor();
      await desk.getByTestId('desk-reply-input').fill(text.answer);
      await desk.getByTestId('desk-reply-send').click();
      await desk.getByTestId('desk-message-staff').filter({ hasText: text.answer }).waitFor();

      // The customer: the unread badge on Mine, then the answer in the chat.
      await page.getByTestId('mine-support-badge').filter({ hasText: '1' }).waitFor();
      await look(page, `web-chat-badge-${lang}`);
      await page.getByTestId('mine-support').click();
      await page.getByTestId('chat-message-staff').filter({ hasText: text.answer }).waitFor();
      await look(page, `web-chat-answered-${lang}`);
      // Reading it clears the count and shows the reply read on the desk (live, or at the next poll).
      await expect
        .poll(async () => (await apiCall(server, '/user/chat/unread', null, { token: customer.token })).data.unread)
        .toBe(0);
      await desk.getByTestId('desk-message-staff').filter({ hasText: text.read }).waitFor({ timeout: 15_000 });
      await shot(desk, `admin-chat-desk-${lang}`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await desk.context().close();
    }
  }, 90_000);
});
