// Screenshots of the console against a mocked API, for looking at layout in both languages
// without the server: node apps/admin/scripts/screenshots.ts [baseUrl]. Needs `vite preview`
// running (default http://localhost:4174/admin/) and Debian's chromium.
import { mkdirSync } from 'node:fs';
import { chromium, type Page, type Route } from 'playwright-core';

const BASE = process.argv[2] ?? 'http://localhost:4174/admin/';
const OUT = new URL('../../../test-results/admin/', import.meta.url).pathname;
mkdirSync(OUT, { recursive: true });

type Lang = 'en-US' | 'pt-BR';
const MESSAGES: Record<Lang, Record<string, string>> = {
  'en-US': { invalid_totp_code: 'The username, password or code is incorrect' },
  'pt-BR': { invalid_totp_code: 'O usuário, a senha ou o código está incorreto' },
};

function envelope(route: Route, data: unknown, code = 0, extra: object = {}) {
  return route.fulfill({
    contentType: 'application/json',
    body: JSON.stringify({ code, msg: code === 0 ? 'ok' : '', data, ...extra }),
  });
}

const users = Array.from({ length: 8 }, (_v, i) => ({
  id: 1001 + i,
  account: ['ana.souza@example.com', '+55 11 91234-5678', 'raj.mehta@example.in', 'john@example.com'][i % 4] ?? '',
  status: i === 2 ? 0 : 1,
  idStatus: ['none', 'pending', 'succ', 'fail'][i % 4],
  createdAt: new Date(Date.UTC(2026, 0, 10 + i, 9, 30)).toISOString(),
}));

const audit = [
  {
    id: 9,
    at: '2026-03-05T14:07:09.000Z',
    staffId: 1,
    staffUsername: 'admin',
    action: 'user.blocked',
    targetType: 'user',
    targetId: 1003,
    reason: 'Chargeback fraud reported by the bank',
    detail: { from: 1, to: 0 },
  },
  {
    id: 8,
    at: '2026-03-05T13:58:41.000Z',
    staffId: 1,
    staffUsername: 'admin',
    action: 'staff.created',
    targetType: 'staff',
    targetId: 2,
    reason: 'Compliance officer hired in March',
    detail: { username: 'carla', role: 'compliance' },
  },
  {
    id: 7,
    at: '2026-03-05T13:55:02.000Z',
    staffId: 1,
    staffUsername: 'admin',
    action: 'staff.sign_in',
    targetType: null,
    targetId: null,
    reason: null,
    detail: { ip: '127.0.0.1' },
  },
  {
    id: 6,
    at: '2026-03-04T18:12:00.000Z',
    staffId: 2,
    staffUsername: 'carla',
    action: 'staff.password_changed',
    targetType: 'staff',
    targetId: '2',
    reason: '',
    detail: {},
  },
];

async function mockApi(page: Page, role = 'admin') {
  await page.route('**/ipor-api/**', async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const lang = (request.headers().lang ?? 'en-US') as Lang;
    const path = url.pathname.replace('/ipor-api', '');
    if (path === '/admin/auth/login') {
      const body = request.postDataJSON() as { totpCode: string };
      if (body.totpCode === '000000') {
        return envelope(route, null, -1001, { msg: MESSAGES[lang].invalid_totp_code, error: 'invalid_totp_code' });
      }
      return envelope(route, { token: 'tok', staff: { id: 1, username: 'admin', role } });
    }
    if (path === '/admin/auth/me')
      return envelope(route, { staff: { id: 1, username: role === 'admin' ? 'admin' : 'carla', role }, mode: 'paper' });
    if (path === '/admin/audit') return envelope(route, { items: audit, total: 57 });
    if (path === '/admin/staff') {
      return envelope(route, {
        items: [
          { id: 1, username: 'admin', role: 'admin', status: 1, createdAt: '2026-01-01T00:00:00.000Z' },
          { id: 2, username: 'carla', role: 'compliance', status: 1, createdAt: '2026-03-05T13:58:41.000Z' },
          { id: 3, username: 'old.finance', role: 'finance', status: 0, createdAt: '2026-02-01T10:00:00.000Z' },
        ],
      });
    }
    if (path === '/admin/staff/create') {
      return envelope(route, {
        id: 4,
        username: 'sam',
        role: 'support',
        initialPassword: 'p7Q-x2m-Vb9-kLd',
        totpSecret: 'KRSXG5CTMVRXEZLU',
        otpauthUrl: 'otpauth://totp/Bourse:sam?secret=KRSXG5CTMVRXEZLU&issuer=Bourse',
      });
    }
    if (path === '/admin/users') return envelope(route, { items: users, total: 8 });
    return envelope(route, {});
  });
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});

async function session(lang: Lang, opts: { role?: string; signedIn?: boolean; width?: number; height?: number } = {}) {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1366, height: opts.height ?? 800 },
    locale: lang,
    timezoneId: 'America/Sao_Paulo',
  });
  await context.addInitScript(
    ([language, token]) => {
      localStorage.setItem('adminLanguage', language);
      if (token !== '') localStorage.setItem('adminToken', token);
    },
    [lang, opts.signedIn === false ? '' : 'tok'] as const,
  );
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('pageerror', error.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning')
      console.error('console', msg.type(), msg.text().slice(0, 300));
  });
  await mockApi(page, opts.role);
  return { context, page };
}

async function shot(page: Page, name: string) {
  await page.waitForTimeout(600); // let antd's fade-ins and the loading veil finish
  await page.screenshot({ path: `${OUT}${name}.png` });
}

for (const lang of ['en-US', 'pt-BR'] as const) {
  {
    const { context, page } = await session(lang, { signedIn: false });
    await page.goto(`${BASE}`);
    await page.getByTestId('sign-in-username').waitFor();
    await shot(page, `${lang}-01-sign-in`);
    await page.getByTestId('sign-in-username').fill('admin');
    await page.getByTestId('sign-in-password').fill('admin-demo-123');
    await page.getByTestId('sign-in-totp').fill('000000');
    await page.getByTestId('sign-in-submit').click();
    await page.getByTestId('sign-in-error').waitFor();
    await shot(page, `${lang}-02-sign-in-refused`);
    await page.getByTestId('sign-in-totp').fill('123456');
    await page.getByTestId('sign-in-submit').click();
    await page.getByTestId('mode-banner').waitFor();
    await shot(page, `${lang}-03-dashboard`);
    await page
      .getByTestId('side-menu')
      .getByRole('link', { name: lang === 'en-US' ? 'Audit log' : 'Log de auditoria' })
      .click();
    await page.getByTestId('audit-table').locator('tbody tr').nth(2).waitFor();
    await shot(page, `${lang}-04-audit`);
    await page.goto(`${BASE}users`);
    await page.getByTestId('user-block-1001').click();
    await page.getByTestId('reason-confirm').click();
    await page.waitForTimeout(300);
    await shot(page, `${lang}-05-users-block-dialog`);
    await page.keyboard.press('Escape');
    await page.goto(`${BASE}staff`);
    await page.getByTestId('staff-add').click();
    await page.getByTestId('staff-create-username').fill('sam');
    await page.getByTestId('staff-create-role').click();
    await page.waitForTimeout(300);
    await shot(page, `${lang}-06-staff-create`);
    await page.locator('.ant-select-item-option').first().click();
    await page.getByTestId('reason-input').fill('Covers the night shift');
    await page.getByTestId('staff-create-submit').click();
    await page.getByTestId('staff-created').waitFor();
    await page.waitForTimeout(400);
    await shot(page, `${lang}-07-staff-created`);
    await page.getByTestId('staff-created-done').click();
    await page.goto(`${BASE}password`);
    await page.getByTestId('password-submit').click();
    await page.waitForTimeout(300);
    await shot(page, `${lang}-08-password`);
    await context.close();
  }
}
{
  const { context, page } = await session('en-US', { role: 'compliance' });
  await page.goto(`${BASE}staff`);
  await page.waitForTimeout(800);
  await shot(page, 'en-US-09-compliance-staff-forbidden');
  await context.close();
}
{
  const { context, page } = await session('pt-BR', { role: 'support', width: 820, height: 1180 });
  await page.goto(`${BASE}users`);
  await page.getByTestId('users-table').locator('tbody tr').nth(2).waitFor();
  await shot(page, 'pt-BR-10-support-users-tablet');
  await context.close();
}
await browser.close();
console.log(`screenshots in ${OUT}`);
