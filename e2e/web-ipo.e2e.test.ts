// IPO subscription end to end against the real server (two IPOs published through the console by two
// staff members; one drawn before the tests by a lottery among five applicants), in both
// languages, at 390×844: a new customer opens the IPO list (open, upcoming, closed), opens the open
// IPO, applies for one lot at cut-off, sees the amount that will be held before confirming, confirms
// with the transaction password, sees the application (Applying, the held amount) in the list and the
// same amount held on the INR account, cancels it (the hold is released); applies as NII (offline) above
// the retail ceiling (nothing held) and cancels that too; turns auto-subscribe on and
// off (OPEN_AUTO_APPLY=1); and the public verification page, without signing in, re-runs a drawn
// IPO's draw in the browser and reproduces its allottees. axe-core checks each screen (contrast, serious).
// Screenshots: test-results/screens/web-ipo-*.png.
import * as OTPAuth from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiAnswer,
  apiCall,
  blockingAxeViolations,
  DEMO_STAFF,
  launchBrowser,
  phonePage,
  registerCustomer,
  type Server,
  shot,
  startServer,
} from './harness.ts';

const PIN = '246802';

const TEXT = {
  'en-US': {
    upcoming: 'Upcoming',
    closed: 'Closed & listed',
    applying: 'Applying',
    cancelled: 'Cancelled',
    cancel: 'Cancel application',
    offline: 'NII (offline)',
    reproduced: 'Reproduced:',
    lockedUntilListing: 'allotted, locked until the stock lists',
    sandbox: 'Paper mode: this beacon round was produced by this server',
    on: 'On',
    off: 'Off',
    noApplications: 'No applications yet',
  },
  'pt-BR': {
    upcoming: 'Em breve',
    closed: 'Encerrados',
    applying: 'Em subscrição',
    cancelled: 'Cancelado',
    cancel: 'Cancelar pedido',
    offline: 'NII (offline)',
    reproduced: 'Reproduzido:',
    lockedUntilListing: 'alocadas, bloqueadas até a ação ser listada',
    sandbox: 'Modo simulado: esta rodada do farol foi produzida por este servidor',
    on: 'Ligada',
    off: 'Desligada',
    noApplications: 'Nenhum pedido ainda',
  },
} as const;

let server: Server;
let browser: Browser;
/** The five customers who applied for DRAWN (two of them win a lot each). */
const drawnApplicants: { token: string; user: unknown }[] = [];

// The server's clock starts on Monday 5 January 2026, 09:30 in Mumbai, and runs on from there.
const START = '2026-01-05T04:00:00Z';
const HOUR = 3_600_000;
const IPO_BASE = {
  exchange: 'NSE',
  priceLow: '95',
  priceHigh: '100',
  lotSize: 50,
  retailPct: 25,
  niiPct: 25,
  qibPct: 50,
};
/** Drawn before the tests: 2 retail lots for 5 applicants, so a lottery. */
const DRAWN = {
  ...IPO_BASE,
  issuer: 'Deccan Foods Ltd',
  symbol: 'DECCANFD',
  name: 'Deccan Foods',
  // One lot must cost ₹10,000–15,000 (DOMAIN.md): 100 shares at ₹100.
  lotSize: 100,
  totalShares: '800',
  opensOn: '2026-01-06',
  closesOn: '2026-01-07',
};
/** Open while the tests run. */
const OPEN = {
  ...IPO_BASE,
  issuer: 'Sahyadri Solar Ltd',
  symbol: 'SAHYADRI',
  name: 'Sahyadri Solar',
  priceLow: '285',
  priceHigh: '300',
  totalShares: '60000',
  opensOn: '2026-01-06',
  closesOn: '2026-01-09',
};
/** Approved, opening next week. */
const UPCOMING = {
  ...IPO_BASE,
  issuer: 'Konkan Logistics Ltd',
  symbol: 'KONKANLG',
  name: 'Konkan Logistics',
  priceLow: '112',
  priceHigh: '118',
  lotSize: 125,
  totalShares: '100000',
  opensOn: '2026-01-12',
  closesOn: '2026-01-14',
};

beforeAll(async () => {
  server = await startServer({ OPEN_AUTO_APPLY: '1', BOURSE_TEST_CLOCK: START });
  browser = await launchBrowser();
  await publishIpos();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const api = (path: string, body: Record<string, string> | null, token?: string) =>
  apiCall(server, path, body, { token });

/** A fresh customer with a transaction password, signed in through the API. */
async function customer(phone: string) {
  const { token, user } = await registerCustomer(server, phone, { tradePassword: PIN });
  return { token, user };
}

/** Moves the server's clock on (its jobs catch up before it answers); returns its new time. */
async function advance(ms: number): Promise<number> {
  const res = await fetch(`${server.baseUrl}/ipor-api/test/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms }),
  });
  return ((await res.json()) as ApiAnswer).data.now as number;
}

async function staffCall(path: string, json: Record<string, unknown>, token?: string): Promise<ApiAnswer> {
  const res = await fetch(`${server.baseUrl}/ipor-api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(json),
  });
  return (await res.json()) as ApiAnswer;
}

/** A staff sign-in with the TOTP code of the server's (test) time, one 30 s step after the last. */
async function staffSignIn(username: string, password: string, secret: string): Promise<string> {
  const now = await advance(30_000);
  const totpCode = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: now,
  });
  const answer = await staffCall('/admin/auth/login', { username, password, totpCode });
  expect(answer.code, JSON.stringify(answer)).toBe(0);
  return answer.data.token as string;
}

/**
 * Two IPOs through the console as staff would: created by the administrator, published by a second
 * staff member; on Tuesday both open; five customers apply for DRAWN (2 retail lots), which closes on
 * Wednesday and is drawn by lottery. OPEN stays open until Friday.
 */
async function publishIpos() {
  const admin = await staffSignIn(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
  const second = await staffCall(
    '/admin/staff/create',
    { username: 'fiona', role: 'finance', reason: 'second approver for IPOs' },
    admin,
  );
  expect(second.code, JSON.stringify(second)).toBe(0);
  const fiona = await staffSignIn('fiona', second.data.initialPassword, second.data.totpSecret);
  const ids: number[] = [];
  for (const ipo of [DRAWN, OPEN, UPCOMING]) {
    const created = await staffCall('/admin/ipos', ipo, admin);
    expect(created.code, JSON.stringify(created)).toBe(0);
    const approved = await staffCall(
      '/admin/ipos/review',
      { id: created.data.id, approve: true, reason: 'checked' },
      fiona,
    );
    expect(approved.data?.status, JSON.stringify(approved)).toBe('upcoming');
    ids.push(created.data.id);
  }
  await advance(25 * HOUR); // Tuesday 10:30: both open
  for (let i = 0; i < 5; i++) {
    const applicant = await customer(`90000027${i}1`);
    drawnApplicants.push(applicant);
    const { token } = applicant;
    const applied = await api(
      '/stock/order/new/apply',
      { ipoId: String(ids[0]), bid1Lots: '1', bid1Price: 'cutoff', password: PIN },
      token,
    );
    expect(applied.code, JSON.stringify(applied)).toBe(0);
  }
  await advance(30 * HOUR); // Wednesday 16:30: DRAWN closed and drawn
}

/** The INR cash account's held amount, in paise. */
async function inrHeld(token: string): Promise<bigint> {
  const items = (await api('/user/assets', {}, token)).data.items as { wallet: string; asset: string; held: string }[];
  const inr = items.find((b) => b.wallet === 'stock' && b.asset === 'INR');
  return paise(inr?.held ?? '0');
}

function paise(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}

/** The screenshot, then axe-core: no contrast failure and nothing serious or critical on the screen. */
async function look(page: Page, name: string) {
  // A toast fading out would be measured mid-fade (and cover the screen): wait until it has gone.
  await page.locator('.adm-toast-mask').waitFor({ state: 'hidden' });
  await shot(page, name);
  expect(await blockingAxeViolations(page), name).toEqual([]);
}

async function enterPin(page: Page, pin: string) {
  await page.getByTestId('confirm-sheet').waitFor();
  await page.locator('.adm-number-keyboard-key').first().waitFor();
  await page.waitForTimeout(350);
  for (const digit of pin) await page.locator('.adm-number-keyboard-key').getByText(digit, { exact: true }).click();
}

describe('IPO subscription against the real server', () => {
  for (const [n, lang] of (['en-US', 'pt-BR'] as const).entries()) {
    const text = TEXT[lang];
    it(`applies for one lot at cut-off, sees the hold and the application, cancels it (${lang})`, async () => {
      const { token, user } = await customer(`90000026${n}1`);
      const { context, page } = await phonePage(browser, lang);
      await context.addInitScript(
        ([t, u]) => {
          localStorage.setItem('userToken', t as string);
          localStorage.setItem('userInfo', u as string);
        },
        [token, JSON.stringify(user)],
      );
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        // The IPO list, reached from the Trade tab's links: open, upcoming and closed issues.
        await page.goto(`${server.baseUrl}/pages/tabbar/trade?type=stock`);
        await page.locator('.trade-links').waitFor();
        await page.evaluate(`document.querySelector('.trade-links').scrollIntoView({ block: 'center' })`);
        await shot(page, `web-ipo-trade-links-${lang}`);
        await page.locator('.trade-links').getByRole('link', { name: 'IPOs' }).click();
        await page.getByTestId('ipo-card').first().waitFor();
        await look(page, `web-ipo-list-open-${lang}`);
        await page.getByTestId('ipo-tabs').getByRole('tab', { name: text.upcoming }).click();
        await page.locator('[data-testid=ipo-card], [data-testid=empty-state]').first().waitFor();
        await shot(page, `web-ipo-list-upcoming-${lang}`);
        await page.getByTestId('ipo-tabs').getByRole('tab', { name: text.closed }).click();
        await page.getByTestId('ipo-card').first().waitFor();
        await look(page, `web-ipo-list-closed-${lang}`);

        // The open IPO's page: band, lot, dates, subscription, the committed seed hash.
        const open = (await api('/stock/index/new/today', null)).data.items.find(
          (ipo: { symbol: string }) => ipo.symbol === OPEN.symbol,
        );
        expect(open?.status).toBe('open');
        await page.goto(`${server.baseUrl}/pages/stockIPO/ipoList`);
        await page.getByTestId('ipo-card').filter({ hasText: open.symbol }).click();
        await page.getByTestId('ipo-detail').waitFor();
        await expect(page.getByTestId('seed-hash').textContent()).resolves.toBe(open.seedHash);
        await look(page, `web-ipo-detail-${lang}`);
        await page.getByTestId('ipo-fairness').scrollIntoViewIfNeeded();
        await shot(page, `web-ipo-detail-fairness-${lang}`);

        // Apply: one lot at cut-off holds lot size × the top of the band, shown before confirming.
        const lotCost = paise(open.priceHigh) * BigInt(open.lotSize);
        await page.getByTestId('ipo-apply').click();
        await page.getByTestId('ipo-form').waitFor();
        await expect(page.getByTestId('bid1-lots-input').inputValue()).resolves.toBe('1');
        await expect(page.getByTestId('bid1-cutoff').isChecked()).resolves.toBe(true);
        await page.getByTestId('available').filter({ hasText: '₹' }).waitFor();
        const willHold = (await page.getByTestId('will-hold').textContent()) ?? '';
        expect(paise(willHold.replace(/[^\d.]/g, ''))).toBe(lotCost);
        await look(page, `web-ipo-order-${lang}`);
        const heldBefore = await inrHeld(token);
        await page.getByTestId('ipo-review').click();
        await page.getByTestId('confirm-sheet').waitFor();
        await shot(page, `web-ipo-confirm-${lang}`);
        await enterPin(page, PIN);

        // The application in the list: Applying, with the same held amount; the INR account holds it.
        await page.waitForURL(/\/pages\/stockIPO\/list/);
        const row = page.getByTestId('application-row').filter({ hasText: open.symbol });
        await row.getByTestId('application-status').filter({ hasText: text.applying }).waitFor();
        await expect(row.getByTestId('application-held').textContent()).resolves.toBe(willHold);
        await look(page, `web-ipo-applications-${lang}`);
        const mine = (await api('/stock/order/new/list', null, token)).data.items;
        expect(mine).toHaveLength(1);
        expect(mine[0]).toMatchObject({ status: 'applying', channel: 'online', ipoId: open.id });
        expect(paise(mine[0].heldAmount)).toBe(lotCost);
        expect(mine[0].bids).toEqual([expect.objectContaining({ lots: 1, cutOff: true })]);
        expect(await inrHeld(token)).toBe(heldBefore + lotCost);

        // Cancel before the close: Cancelled, and the hold released.
        await row.getByTestId('cancel-application').click();
        await page.locator('.adm-dialog').getByRole('button', { name: text.cancel, exact: true }).click();
        await row.getByTestId('application-status').filter({ hasText: text.cancelled }).waitFor();
        await expect(row.getByTestId('application-held').count()).resolves.toBe(0);
        await shot(page, `web-ipo-cancelled-${lang}`);
        expect((await api('/stock/order/new/list', null, token)).data.items[0].status).toBe('unsubscribed');
        expect(await inrHeld(token)).toBe(heldBefore);
        // One application per customer and IPO (a cancelled one included): the IPO's page says so, no Apply.
        await page.goto(`${server.baseUrl}/pages/stockIPO/ipoDetail?id=${open.id}`);
        await page.getByTestId('already-applied').waitFor();
        await expect(page.getByTestId('ipo-apply').count()).resolves.toBe(0);
        await page.goto(`${server.baseUrl}/pages/stockIPO/list`);

        // The offline tab (no NII application yet).
        await page.getByTestId('channel-tabs').getByRole('tab', { name: text.offline }).click();
        await page.getByTestId('empty-state').filter({ hasText: text.noApplications }).waitFor();
        await look(page, `web-ipo-applications-empty-offline-${lang}`);

        // Auto-subscribe (offered: OPEN_AUTO_APPLY=1): off by default, turned on, then off again.
        await page.goto(`${server.baseUrl}/pages/user/ipoSwitch`);
        await page
          .getByTestId('auto-apply-state')
          .filter({ hasText: new RegExp(`^${text.off}$`) })
          .waitFor();
        await look(page, `web-ipo-switch-${lang}`);
        await page.getByTestId('auto-apply-switch').click();
        // Whole-text matches: "Ligada" is inside "Desligada", so a substring match would pass at once.
        const state = (label: string) =>
          page.getByTestId('auto-apply-state').filter({ hasText: new RegExp(`^${label}$`) });
        await state(text.on).waitFor();
        expect((await api('/user/update/autoapply', null, token)).data.enabled).toBe(true);
        await page.getByTestId('auto-apply-switch').click();
        await state(text.off).waitFor();
        expect((await api('/user/update/autoapply', null, token)).data.enabled).toBe(false);

        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);

    it(`applies as NII (offline) above the retail ceiling, nothing held, and cancels (${lang})`, async () => {
      const { token, user } = await customer(`90000028${n}1`);
      const { context, page } = await phonePage(browser, lang);
      await context.addInitScript(
        ([t, u]) => {
          localStorage.setItem('userToken', t as string);
          localStorage.setItem('userInfo', u as string);
        },
        [token, JSON.stringify(user)],
      );
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        const open = (await api('/stock/index/new/today', null)).data.items.find(
          (ipo: { symbol: string }) => ipo.symbol === OPEN.symbol,
        );
        const heldBefore = await inrHeld(token);
        // An NII (offline) application above the retail ceiling: 14 lots at ₹300 = ₹2,10,000, nothing held.
        await page.goto(`${server.baseUrl}/pages/stockIPO/ipoOrder?id=${open.id}`);
        await page.getByTestId('channel-switch').getByRole('tab', { name: text.offline }).click();
        await page.getByTestId('offline-lots-input').fill('14');
        await page.getByTestId('offline-amount').filter({ hasText: '₹' }).waitFor();
        await look(page, `web-ipo-order-offline-${lang}`);
        await page.getByTestId('ipo-review').click();
        await page.getByTestId('confirm-sheet').waitFor();
        await shot(page, `web-ipo-confirm-offline-${lang}`);
        await enterPin(page, PIN);
        await page.waitForURL(/\/pages\/stockIPO\/list\?channel=offline/);
        const nii = page.getByTestId('application-row').filter({ hasText: open.symbol });
        await nii.getByTestId('application-status').filter({ hasText: text.applying }).waitFor();
        await expect(nii.getByTestId('application-held').count()).resolves.toBe(0);
        await look(page, `web-ipo-applications-offline-${lang}`);
        const offline = (await api('/stock/order/offline/list', null, token)).data.items;
        expect(offline[0]).toMatchObject({ status: 'applying', channel: 'offline', heldAmount: '0.00' });
        expect(offline[0].bids).toEqual([expect.objectContaining({ lots: 14, amount: '210000.00' })]);
        expect(await inrHeld(token)).toBe(heldBefore);
        await nii.getByTestId('cancel-application').click();
        await page.locator('.adm-dialog').getByRole('button', { name: text.cancel, exact: true }).click();
        await nii.getByTestId('application-status').filter({ hasText: text.cancelled }).waitFor();

        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);

    it(`re-runs a drawn IPO's draw in the browser without signing in and reproduces it (${lang})`, async () => {
      const drawn = (
        (await api('/stock/index/new/list', null)).data.items as { id: number; seed: string | null }[]
      ).find((ipo) => ipo.seed);
      expect(drawn, 'the demo data has a drawn IPO').toBeTruthy();
      const record = (await api(`/stock/index/new/draw?ipoId=${drawn?.id}`, null)).data;
      const { context, page } = await phonePage(browser, lang);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        // The drawn IPO's page shows the revealed seed and links to the check.
        await page.goto(`${server.baseUrl}/pages/stockIPO/ipoDetail?id=${drawn?.id}`);
        await page.getByTestId('seed').waitFor();
        await expect(page.getByTestId('seed').textContent()).resolves.toBe(record.seed);
        await page.getByTestId('ipo-fairness').scrollIntoViewIfNeeded();
        await look(page, `web-ipo-detail-drawn-${lang}`);
        await page.getByTestId('verify-link').click();

        const verdict = page.getByTestId('draw-verdict');
        await verdict.waitFor();
        await expect(verdict.getAttribute('data-reproduced')).resolves.toBe('true');
        await expect(verdict.textContent()).resolves.toContain(`${text.reproduced} ${record.allotments.length}`);
        await look(page, `web-ipo-verify-${lang}`);

        // Looking one allottee's reference up.
        const first = record.allotments[0];
        await page.getByTestId('draw-ref').fill(first.ref);
        await page.getByTestId('draw-ref-result').filter({ hasText: first.ref }).waitFor();
        await page.getByTestId('draw-ref').scrollIntoViewIfNeeded();
        await shot(page, `web-ipo-verify-lookup-${lang}`);

        // The beacon round: a sandbox round in paper mode, and the page says what that does not prove.
        await expect(page.getByTestId('draw-beacon').getAttribute('data-beacon')).resolves.toBe('sandbox');
        await expect(page.getByTestId('draw-beacon').textContent()).resolves.toContain(text.sandbox);

        // Without an id, the page offers the drawn IPOs.
        await page.goto(`${server.baseUrl}/pages/stockIPO/drawVerify`);
        await page.getByTestId('drawn-ipos').waitFor();
        await look(page, `web-ipo-verify-choose-${lang}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);

    it(`a winner of the draw sees the allotted shares as a holding, locked until listing day (${lang})`, async () => {
      // DRAWN had 2 retail lots for 5 applicants: a lottery, two winners (one per language here).
      const winners: { token: string; user: unknown }[] = [];
      for (const applicant of drawnApplicants) {
        const application = (await api('/stock/order/new/list', null, applicant.token)).data.items[0];
        if (application.status === 'allocated') winners.push(applicant);
      }
      expect(winners).toHaveLength(2);
      const winner = winners[n] as { token: string; user: unknown };
      const { context, page } = await phonePage(browser, lang);
      await context.addInitScript(
        ([t, u]) => {
          localStorage.setItem('userToken', t as string);
          localStorage.setItem('userInfo', u as string);
        },
        [winner.token, JSON.stringify(winner.user)],
      );
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(`${server.baseUrl}/pages/tabbar/trade?type=stock`);
        const holding = page.locator('[data-testid=holding][data-listed=false]');
        await holding.waitFor();
        await expect(holding.textContent()).resolves.toContain(DRAWN.symbol);
        await expect(holding.getByTestId('lock-badge').textContent()).resolves.toContain(text.lockedUntilListing);
        // Not listed yet: no market page to open (the card is not a link).
        await expect(holding.getByRole('link').count()).resolves.toBe(0);
        await holding.scrollIntoViewIfNeeded();
        await look(page, `web-ipo-allotted-holding-${lang}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  }
});
