// API tests of monthly statements on SQLite and PostgreSQL, on real ledger lines (paper grants, a
// currency exchange, an approved adjustment): per account opening + lines = closing, closing equal to the
// engine's live balance, the same for a month with no lines; CSV with formula cells escaped; PDF with the
// DejaVu font embedded; months refused in both languages.

import { testDatabases } from '@bourse/db';
import { formatDecimal, parseDecimal } from '@bourse/money';
import { afterEach, describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';

const dbs = await testDatabases();
type T = Awaited<ReturnType<typeof testApp>>;
type Statement = {
  month: string;
  timeZone: string;
  virtual: boolean;
  accounts: { wallet: string; asset: string; opening: string; credits: string; debits: string; closing: string }[];
  lines: {
    wallet: string;
    asset: string;
    amount: string;
    balance: string;
    cause: string;
    link: string;
    note: string;
  }[];
};

const FORMULA_REASON = '=HYPERLINK("http://evil.example","refund")';

describe.each(dbs)('statements on $dialect', ({ open }) => {
  let t: T;
  let closeDb: () => Promise<void>;
  afterEach(async () => {
    await t.close();
    await closeDb();
  });
  const start = async () => {
    const db = await open();
    closeDb = () => db.close();
    // 2026-01-05 04:00 UTC: the deployment's zone (IN, Asia/Kolkata) is in January 2026.
    t = await testApp(db);
  };
  const staffToken = async (username: string, password: string, secret: string) =>
    (
      await t.call('POST', '/admin/auth/login', {
        json: { username, password, totpCode: totpNow(secret, t.clock.now()) },
      })
    ).body.data.token as string;

  /** A customer with three kinds of lines: paper grants, an exchange, and an approved adjustment. */
  const busyCustomer = async () => {
    const reg = (await t.register('9300000001')).body.data;
    const token = reg.token as string;
    const q = (
      await t.call('POST', '/user/exchange', {
        token,
        json: { action: 'quote', from: 'USD', to: 'INR', amount: '250' },
      })
    ).body.data;
    expect(
      (await t.call('POST', '/user/exchange', { token, json: { action: 'accept', quoteId: q.id } })).body.code,
    ).toBe(0);
    const admin = await staffToken(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
    const second = (
      await t.call('POST', '/admin/staff/create', {
        token: admin,
        json: { username: 'fred', role: 'finance', reason: 'second approver' },
      })
    ).body.data;
    await t.advance(30_000);
    const fred = await staffToken('fred', second.initialPassword, second.totpSecret);
    const proposed = await t.call('POST', '/admin/adjustments', {
      token: admin,
      json: { userId: reg.user.id, wallet: 'stock', asset: 'USD', amount: '-12.34', reason: FORMULA_REASON },
    });
    const id = proposed.body.data.id as number;
    expect(
      (
        await t.call('POST', `/admin/adjustments/${id}/decide`, {
          token: fred,
          json: { decision: 'approve', reason: 'checked' },
        })
      ).body.code,
    ).toBe(0);
    return { token, adjustmentId: id };
  };
  const statement = async (token: string, month: string) => {
    const answer = await t.call('GET', `/user/statement?month=${month}`, { token });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    return answer.body.data as Statement;
  };
  const liveBalances = async (token: string) => {
    const items = (await t.call('POST', '/user/assets', { token })).body.data.items as {
      wallet: string;
      asset: string;
      balance: string;
    }[];
    return Object.fromEntries(items.map((i) => [`${i.wallet}/${i.asset}`, i.balance]));
  };
  /** opening + credits - debits = closing, and opening + every line of the account = closing, exactly. */
  const expectBalanced = (s: Statement) => {
    for (const a of s.accounts) {
      // Each asset at its own scale (cents for fiat, micro-units for USDT).
      const scale = a.closing.split('.')[1]?.length ?? 0;
      const opening = parseDecimal(a.opening, scale);
      const closing = parseDecimal(a.closing, scale);
      expect(opening + parseDecimal(a.credits, scale) - parseDecimal(a.debits, scale), a.asset).toBe(closing);
      const mine = s.lines.filter((l) => l.wallet === a.wallet && l.asset === a.asset);
      const sum = mine.reduce((total, l) => total + parseDecimal(l.amount, scale), 0n);
      expect(formatDecimal(opening + sum, scale), `${a.wallet}/${a.asset}`).toBe(a.closing);
      if (mine.length > 0) expect(mine.at(-1)?.balance).toBe(a.closing);
    }
  };

  it('balances per account on real data, closing at the live balance, and carries the adjustment with its reason', async () => {
    await start();
    const { token, adjustmentId } = await busyCustomer();
    const january = await statement(token, '2026-01');
    expect(january).toMatchObject({ month: '2026-01', timeZone: 'Asia/Kolkata', virtual: true });
    expectBalanced(january);
    const closings = Object.fromEntries(january.accounts.map((a) => [`${a.wallet}/${a.asset}`, a.closing]));
    expect(closings).toEqual(await liveBalances(token));
    expect(closings['stock/USD']).toBe('9737.66'); // 10,000 − 250 exchanged − 12.34 adjusted
    expect(january.accounts.every((a) => /^0\.0+$/.test(a.opening))).toBe(true);
    expect(january.lines.map((l) => l.cause).sort()).toEqual([
      'adjustment',
      'convert',
      'convert',
      'paper_grant',
      'paper_grant',
      'paper_grant',
      'paper_grant',
    ]);
    expect(january.lines.find((l) => l.cause === 'adjustment')).toMatchObject({
      amount: '-12.34',
      link: `adjustment:${adjustmentId}`,
      note: FORMULA_REASON,
    });
    // The funds record shows the reason too.
    const record = (await t.call('GET', '/user/tx/record?cause=adjustment', { token })).body.data.items;
    expect(record[0]).toMatchObject({ note: FORMULA_REASON });

    // A month with no lines: opening = closing = the live balance, nothing in between.
    // Into February in Asia/Kolkata, within the session's 30 days; only the clock (the market need not move).
    t.clock.advance(27 * 86_400_000);
    const february = await statement(token, '2026-02');
    expect(february.lines).toEqual([]);
    expectBalanced(february);
    for (const a of february.accounts) {
      expect(a.opening, a.asset).toBe(closings[`${a.wallet}/${a.asset}`]);
      expect(a.closing, a.asset).toBe(a.opening);
    }
    // And a month before the customer existed: no accounts at all.
    expect((await statement(token, '2025-12')).accounts).toEqual([]);
  });

  it('writes CSV with formula cells escaped and unsigned amounts, and a PDF with DejaVu Sans embedded', async () => {
    await start();
    const { token } = await busyCustomer();
    const csv = await t.app.http.inject({
      url: '/ipor-api/user/statement?month=2026-01&format=csv',
      headers: { token },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="statement-2026-01.csv"');
    const text = csv.body;
    expect(text).toContain('Paper trading: virtual money, not real funds');
    expect(text).toContain('Times in,Asia/Kolkata');
    // The note someone typed starts with "=": written with a leading quote, so no spreadsheet runs it.
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""refund"")"`);
    expect(text).not.toMatch(/(^|,)[=+\-@]/m);
    expect(text).toMatch(/Manual adjustment,,12\.34,9737\.66,/);

    const pt = await t.app.http.inject({
      url: '/ipor-api/user/statement?month=2026-01&format=csv',
      headers: { token, lang: 'pt-BR' },
    });
    expect(pt.body).toContain('Extrato,2026-01');
    expect(pt.body).toContain('Ajuste manual');

    const pdf = await t.app.http.inject({
      url: '/ipor-api/user/statement?month=2026-01&format=pdf',
      headers: { token },
    });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.includes(Buffer.from('DejaVuSans'))).toBe(true);
    expect(pdf.rawPayload.length).toBeGreaterThan(5_000);
  });

  it('refuses a month in the future or malformed in both languages, and a visitor', async () => {
    await start();
    const token = (await t.register('9300000002')).body.data.token as string;
    for (const month of ['2026-02', '2026-13', 'january']) {
      for (const [lang, msg] of [
        ['en-US', 'Choose a past or current month'],
        ['pt-BR', 'Escolha um mês passado ou o mês atual'],
      ] as const) {
        const answer = await t.call('GET', `/user/statement?month=${month}`, { token, lang });
        expect(answer.body, month).toMatchObject({ error: 'statement_month_invalid', msg });
      }
    }
    expect((await t.call('GET', '/user/statement?month=2026-01')).body.code).toBe(-1000);
  });
});
