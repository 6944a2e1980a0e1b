// Loans and the credit score through the real HTTP stack on SQLite and PostgreSQL: the score and its
// change log, every term before applying, apply → approve → disburse → daily interest → repay → confirm
// → repaid as ledger transfers on the loan's own account, a rejection with its reason, a second staff
// member's approval above the threshold, overdue days at the overdue rate and a late repayment lowering
// the score, every refusal in both languages changing nothing, and a foreign loan id answering not found.

import { testDatabases } from '@bourse/db';
import { afterEach, describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';
import { loadLoanSettings } from './settings.ts';

const dbs = await testDatabases();
const PIN = '246810';
const DAY = 86_400_000;
type T = Awaited<ReturnType<typeof testApp>>;
const GRANTS = [{ wallet: 'stock' as const, asset: 'INR', amount: '1000.00' }];

describe.each(dbs)('loans on $dialect', ({ open }) => {
  let t: T;
  let closeDb: () => Promise<void>;
  let db: Awaited<ReturnType<typeof open>>;
  const start = async (env: Record<string, string> = {}) => {
    db = await open();
    closeDb = () => db.close();
    t = await testApp(db, { paperGrants: GRANTS, loans: { ...loadLoanSettings(env), accrueEveryMs: 0 } });
  };
  afterEach(async () => {
    await t.close();
    await closeDb();
  });

  const signIn = async (username: string, password: string, secret: string) => {
    const answer = await t.call('POST', '/admin/auth/login', {
      json: { username, password, totpCode: totpNow(secret, t.clock.now()) },
    });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    return answer.body.data.token as string;
  };
  const admin = () => signIn(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
  const colleague = async (adminToken: string, username: string) => {
    const created = (
      await t.call('POST', '/admin/staff/create', {
        token: adminToken,
        json: { username, role: 'finance', reason: 'second approver for loans' },
      })
    ).body.data;
    await t.advance(30_000);
    return signIn(username, created.initialPassword, created.totpSecret);
  };
  const customer = async (phone: string, kyc = true) => {
    const data = (await t.register(phone)).body.data;
    const token = data.token as string;
    const set = await t.call('POST', '/user/update/tradePassword', {
      token,
      body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
    });
    expect(set.body.code, JSON.stringify(set.body)).toBe(0);
    if (kyc) await db.run("UPDATE users SET id_status = 'succ' WHERE id = $1", [data.user.id]);
    return { token, id: data.user.id as number };
  };
  const inr = (userId: number) => t.app.engine.state.balance(String(userId), 'stock', 'INR');
  const loanAccount = (id: number) => t.app.engine.state.balance(`platform:loan:${id}`, 'platform', 'INR').balance;
  const fees = () => t.app.engine.state.balance('platform:fees', 'platform', 'INR').balance;
  const apply = (token: string, body: Record<string, unknown>, lang = 'en-US') =>
    t.call('POST', '/user/loan/apply', { token, lang, json: { password: PIN, amount: '2000', days: 7, ...body } });
  const decide = (staff: string, id: number, decision: string, reason: string, lang = 'en-US') =>
    t.call('POST', `/admin/loans/${id}/decide`, { token: staff, json: { decision, reason }, lang });
  const confirm = (staff: string, id: number, lang = 'en-US') =>
    t.call('POST', `/admin/loans/${id}/confirm-repayment`, {
      token: staff,
      json: { reason: 'repayment received in full' },
      lang,
    });
  const repay = (token: string, id: number, lang = 'en-US', password = PIN) =>
    t.call('POST', '/user/loan/repay', { token, lang, json: { id, password } });
  const log = async (token: string) =>
    (
      (await t.call('POST', '/user/point/change/log', { token, body: { limit: '50' } })).body.data.items as {
        reason: string;
        delta: number;
      }[]
    )
      .map((l) => [l.reason, l.delta])
      .reverse();

  it('scores, shows the terms, lends, charges daily interest, takes the repayment and records it', async () => {
    await start();
    const asha = await customer('9300000001');
    const score = (await t.call('GET', '/user/credit/score', { token: asha.token })).body.data;
    expect(score).toMatchObject({ score: 450, max: 1000, currency: 'INR', limit: '5000.00' });
    expect(score.factors.map((f: { factor: string; points: number }) => [f.factor, f.points])).toEqual([
      ['base', 300],
      ['kyc_verified', 150],
      ['account_age', 0],
      ['trading', 0],
      ['repaid_on_time', 0],
      ['late_repayments', 0],
    ]);
    expect(await log(asha.token)).toEqual([
      ['base', 300],
      ['kyc_verified', 150],
    ]);

    // Every term before applying: 2,000.00 for 7 days at 0.05 % a day.
    const info = (await t.call('GET', '/user/loan?amount=2000&days=7', { token: asha.token })).body.data;
    expect(info).toMatchObject({
      score: 450,
      limit: '5000.00',
      daysOffered: [7, 14, 30],
      dailyRate: '0.05',
      overdueDailyRate: '0.1',
      kycRequired: true,
      kycVerified: true,
      open: null,
      terms: {
        currency: 'INR',
        amount: '2000.00',
        days: 7,
        dailyRate: '0.05',
        dailyInterest: '1.00',
        interest: '7.00',
        actualAmount: '2000.00',
        repaymentAmount: '2007.00',
        overdueDailyRate: '0.1',
        overdueDailyInterest: '2.00',
      },
    });

    const applied = await apply(asha.token, {});
    expect(applied.body.msg, JSON.stringify(applied.body)).toBe('Loan application submitted');
    const id = applied.body.data.id as number;
    expect(applied.body.data).toMatchObject({ status: 'under_review', amount: '2000.00', manager: null });
    expect(inr(asha.id).balance).toBe(100_000n);

    const staff = await admin();
    const queue = (await t.call('GET', '/admin/loans?status=under_review', { token: staff })).body.data.items;
    expect(queue.map((l: { id: number; phone: string }) => l.id)).toEqual([id]);
    const approved = await decide(staff, id, 'approve', 'score and KYC fine');
    expect(approved.body.data, JSON.stringify(approved.body)).toMatchObject({
      status: 'in_progress',
      manager: DEMO_STAFF.username,
      needsSecondApproval: false,
      accruedDays: 1,
      interestAccrued: '1.00',
      outstanding: '2001.00',
      disbursementId: `loan:${id}:disburse`,
    });
    const t0 = approved.body.data.disbursedAt as number;
    expect(approved.body.data.dueAt).toBe(t0 + 7 * DAY);
    // The disbursement reached the stock wallet; the loan's account owes principal and day 1's interest.
    expect(inr(asha.id).balance).toBe(300_000n);
    expect(loanAccount(id)).toBe(-200_100n);
    expect(fees()).toBe(100n);

    // Three more days start: the job charges each once, however often it runs.
    t.clock.set(t0 + 3 * DAY + 1);
    expect(await t.app.loans.accrue()).toBe(3);
    expect(await t.app.loans.accrue()).toBe(0);
    const mine = (await t.call('GET', '/user/loan/order/list', { token: asha.token })).body.data.items;
    expect(mine[0]).toMatchObject({ id, accruedDays: 4, interestAccrued: '4.00', outstanding: '2004.00' });
    expect(loanAccount(id)).toBe(-200_400n);
    const lines = await db.query<{ transfer_id: string; cause: string }>(
      'SELECT transfer_id, cause FROM ledger_transfers WHERE link = $1 ORDER BY seq',
      [`loan:${id}`],
    );
    expect(lines.map((l) => [l.transfer_id, l.cause])).toEqual([
      [`loan:${id}:disburse`, 'loan'],
      [`loan:${id}:interest:1`, 'interest'],
      [`loan:${id}:interest:2`, 'interest'],
      [`loan:${id}:interest:3`, 'interest'],
      [`loan:${id}:interest:4`, 'interest'],
    ]);

    const asked = await repay(asha.token, id);
    expect(asked.body.msg, JSON.stringify(asked.body)).toBe('Repayment submitted for review');
    expect(asked.body.data).toMatchObject({ status: 'repayment_review', repaidAmount: '2004.00', late: false });
    expect(inr(asha.id)).toMatchObject({ balance: 300_000n, available: 99_600n });
    // Interest stops once the repayment is asked for.
    t.clock.set(t0 + 5 * DAY);
    expect(await t.app.loans.accrue()).toBe(0);
    for (const [lang, msg] of [
      ['en-US', 'Only a loan in progress can be repaid'],
      ['pt-BR', 'Só um empréstimo em andamento pode ser quitado'],
    ] as const) {
      const again = await repay(asha.token, id, lang);
      expect([again.body.error, again.body.msg]).toEqual(['loan_not_repayable', msg]);
    }

    // Days have passed: the staff session has ended, so sign in again.
    const later = await admin();
    const done = await confirm(later, id);
    expect(done.body.data, JSON.stringify(done.body)).toMatchObject({ status: 'repaid', outstanding: '0.00' });
    expect(loanAccount(id)).toBe(0n);
    expect(inr(asha.id)).toMatchObject({ balance: 99_600n, available: 99_600n });
    expect(fees()).toBe(400n);
    for (const [lang, msg] of [
      ['en-US', 'Only a repayment under review can be confirmed'],
      ['pt-BR', 'Só um pagamento em análise pode ser confirmado'],
    ] as const) {
      const again = await confirm(later, id, lang);
      expect([again.body.error, again.body.msg]).toEqual(['loan_not_in_repayment', msg]);
    }
    // The repayment on time is a score event, linked to the loan; account age counted on read.
    const changes = (await t.call('GET', '/user/point/change/log', { token: asha.token })).body.data.items;
    expect(changes.find((c: { reason: string }) => c.reason === 'repaid_on_time')).toMatchObject({
      delta: 100,
      loanId: id,
    });
    expect((await t.call('GET', '/user/credit/score', { token: asha.token })).body.data.score).toBe(450 + 100 + 5 * 2);
    // The funds records name the loan beside each line.
    const audit = await db.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE target_type = 'loan' ORDER BY id",
    );
    expect(audit.map((a) => a.action)).toEqual(['loan.approve', 'loan.confirm_repayment']);
    // The ledger, the read tables and the audit chain still agree (the loan's account is a platform one).
    const report = await t.call('POST', '/admin/reconciliation/run', { token: later });
    expect(report.body.data, JSON.stringify(report.body)).toMatchObject({ status: 'ok', discrepancies: [] });
    // The customer's funds records name the loan beside its lines.
    for (const [cause, amount] of [
      ['loan', '2000.00'],
      ['loan_repayment', '-2004.00'],
    ]) {
      const lines = (await t.call('GET', `/user/tx/record?cause=${cause}`, { token: asha.token })).body.data.items;
      expect(lines, cause).toEqual([
        expect.objectContaining({ cause, amount, link: `loan:${id}`, counterparty: `platform:loan:${id}` }),
      ]);
    }
  });

  it('refuses with a reason in both languages and changes nothing', async () => {
    await start();
    const asha = await customer('9300000002');
    const noKyc = await customer('9300000003', false);
    const before = inr(asha.id);
    const cases: [string, Record<string, unknown>, string, string, string][] = [
      ['asha', { password: '111111' }, 'trade_password_incorrect', '', ''],
      [
        'asha',
        { amount: '6000' },
        'loan_above_limit',
        'The amount is above your credit limit of 5000.00 INR',
        'O valor está acima do seu limite de crédito de 5000.00 INR',
      ],
      [
        'asha',
        { days: 9 },
        'loan_days_not_offered',
        'Choose one of the borrowing periods offered',
        'Escolha um dos prazos oferecidos',
      ],
      ['asha', { amount: '0' }, 'invalid_amount', '', ''],
      [
        'noKyc',
        {},
        'loan_kyc_required',
        'Verify your identity (KYC) before applying for a loan',
        'Verifique sua identidade (KYC) antes de pedir um empréstimo',
      ],
    ];
    for (const [who, body, code, en, pt] of cases) {
      for (const [lang, msg] of [
        ['en-US', en],
        ['pt-BR', pt],
      ] as const) {
        const answer = await apply(who === 'asha' ? asha.token : noKyc.token, body, lang);
        expect(answer.body.error, JSON.stringify(answer.body)).toBe(code);
        if (msg) expect(answer.body.msg).toBe(msg);
        else expect(answer.body.msg.length).toBeGreaterThan(5);
      }
    }
    expect(await db.query('SELECT id FROM loans')).toEqual([]);

    // No credit line: KYC not required here, and the score (300) is below the first tier.
    await t.close();
    await closeDb();
    await start({ LOAN_KYC_REQUIRED: 'false' });
    const low = await customer('9300000004', false);
    for (const [lang, msg] of [
      ['en-US', 'Your credit score does not give a credit line yet; see how to raise it'],
      ['pt-BR', 'Sua pontuação de crédito ainda não dá uma linha de crédito; veja como aumentá-la'],
    ] as const) {
      const answer = await apply(low.token, {}, lang);
      expect([answer.body.error, answer.body.msg]).toEqual(['loan_no_credit_line', msg]);
    }
    const bala = await customer('9300000005');
    const first = await apply(bala.token, {});
    expect(first.body.code).toBe(0);
    for (const [lang, msg] of [
      ['en-US', 'You already have an open loan; repay it before applying for another'],
      ['pt-BR', 'Você já tem um empréstimo em aberto; quite-o antes de pedir outro'],
    ] as const) {
      const answer = await apply(bala.token, { amount: '100' }, lang);
      expect([answer.body.error, answer.body.msg]).toEqual(['loan_open_exists', msg]);
    }
    // A foreign loan id answers not found, to the customer and on repayment.
    const other = await customer('9300000006');
    for (const [lang, msg] of [
      ['en-US', 'Loan not found'],
      ['pt-BR', 'Empréstimo não encontrado'],
    ] as const) {
      const seen = await t.call('GET', `/user/loan/${first.body.data.id}`, { token: other.token, lang });
      expect([seen.body.error, seen.body.msg]).toEqual(['loan_not_found', msg]);
      const paid = await repay(other.token, first.body.data.id, lang);
      expect(paid.body.error).toBe('loan_not_found');
    }
    const staff = await admin();
    expect((await decide(staff, 99_999, 'approve', 'no such loan here')).body.error).toBe('loan_not_found');
    expect((await confirm(staff, 99_999)).body.error).toBe('loan_not_found');
    // A role without loans.review (support) is refused the desk.
    const created = (
      await t.call('POST', '/admin/staff/create', {
        token: staff,
        json: { username: 'sam', role: 'support', reason: 'support desk for customers' },
      })
    ).body.data;
    await t.advance(30_000);
    const support = await signIn('sam', created.initialPassword, created.totpSecret);
    const refused = await decide(support, first.body.data.id, 'approve', 'not mine to approve');
    expect(refused.body.code).not.toBe(0);
    expect((await t.call('GET', '/admin/loans', { token: support })).body.code).not.toBe(0);
    // Repaying more than the stock wallet holds is refused and holds nothing.
    await decide(staff, first.body.data.id, 'approve', 'fine for a first loan');
    const locked = await t.app.engine.submit({
      type: 'hold_funds',
      id: 'test:lock-all',
      userId: String(bala.id),
      wallet: 'stock',
      asset: 'INR',
      amount: '2500.00',
      cause: 'withdrawal',
      link: 'test',
    });
    expect(locked.ok).toBe(true);
    for (const [lang, msg] of [
      ['en-US', 'Insufficient balance'],
      ['pt-BR', 'Saldo insuficiente'],
    ] as const) {
      const short = await repay(bala.token, first.body.data.id, lang);
      expect([short.body.error, short.body.msg]).toEqual(['insufficient_balance', msg]);
    }
    expect((await t.call('GET', `/user/loan/${first.body.data.id}`, { token: bala.token })).body.data.status).toBe(
      'in_progress',
    );
    expect(inr(asha.id)).toEqual(before);
  });

  it('rejects with a reason; above the threshold a second staff member approves; overdue days cost more', async () => {
    await start({ LOAN_SECOND_APPROVAL_ABOVE: 'INR:1000' });
    const asha = await customer('9300000007');
    const a = await admin();
    const first = (await apply(asha.token, { amount: '500' })).body.data;
    const rejected = await decide(a, first.id, 'reject', 'please add a bank account first');
    expect(rejected.body.data).toMatchObject({
      status: 'rejected',
      rejectReason: 'please add a bank account first',
      manager: DEMO_STAFF.username,
    });
    expect(inr(asha.id).balance).toBe(100_000n);
    expect((await decide(a, first.id, 'approve', 'changed my mind')).body.error).toBe('loan_already_decided');

    const big = (await apply(asha.token, { amount: '2000' })).body.data;
    const one = await decide(a, big.id, 'approve', 'looks fine');
    expect(one.body.data).toMatchObject({
      status: 'under_review',
      needsSecondApproval: true,
      firstApprovedBy: DEMO_STAFF.username,
    });
    expect(inr(asha.id).balance).toBe(100_000n);
    for (const [lang, msg] of [
      ['en-US', 'A second approval must come from another staff member'],
      ['pt-BR', 'A segunda aprovação deve vir de outro membro da equipe'],
    ] as const) {
      const same = await decide(a, big.id, 'approve', 'again', lang);
      expect([same.body.error, same.body.msg]).toEqual(['loan_same_staff', msg]);
    }
    const b = await colleague(a, 'fatima');
    const two = await decide(b, big.id, 'approve', 'second look fine');
    expect(two.body.data, JSON.stringify(two.body)).toMatchObject({ status: 'in_progress', accruedDays: 1 });
    expect(inr(asha.id).balance).toBe(300_000n);

    // 10 started days on a 7-day loan: 7 × 1.00 + 3 overdue × 2.00.
    const t0 = two.body.data.disbursedAt as number;
    t.clock.set(t0 + 9 * DAY + 5);
    const late = (await t.call('GET', `/user/loan/${big.id}`, { token: asha.token })).body.data;
    expect(late).toMatchObject({ status: 'in_progress', accruedDays: 10, interestAccrued: '13.00', overdueDays: 3 });
    expect(loanAccount(big.id)).toBe(-201_300n);
    const asked = await repay(asha.token, big.id);
    expect(asked.body.data).toMatchObject({ repaidAmount: '2013.00', late: true });
    const confirmed = await confirm(await admin(), big.id);
    expect(confirmed.body.data, JSON.stringify(confirmed.body)).toMatchObject({ status: 'repaid', late: true });
    const changes = (await t.call('GET', '/user/point/change/log', { token: asha.token })).body.data.items;
    expect(changes.find((c: { reason: string }) => c.reason === 'late_repayments')).toMatchObject({
      delta: -150,
      loanId: big.id,
    });
    const audit = await db.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE target_type = 'loan' ORDER BY id",
    );
    expect(audit.map((x) => x.action)).toEqual([
      'loan.reject',
      'loan.approve_first',
      'loan.approve',
      'loan.confirm_repayment',
    ]);
  });
  it('catches up the interest days missed while the server was down, once each', async () => {
    await start();
    const asha = await customer('9300000008');
    const id = (await apply(asha.token, { amount: '1000', days: 14 })).body.data.id as number;
    const approved = await decide(await admin(), id, 'approve', 'fine for a first loan');
    const t0 = approved.body.data.disbursedAt as number;
    expect(loanAccount(id)).toBe(-100_050n);
    // The server stops; it starts again five days later on the same database.
    await t.close();
    t = await testApp(
      db,
      { paperGrants: GRANTS, loans: { ...loadLoanSettings({}), accrueEveryMs: 0 } },
      t0 + 5 * DAY + 1,
    );
    expect(loanAccount(id)).toBe(-100_300n); // days 1–6 at 0.50
    expect(await t.app.loans.accrue()).toBe(0);
    const lines = await db.query<{ n: number }>(
      "SELECT COUNT(*) AS n FROM ledger_transfers WHERE link = $1 AND cause = 'interest'",
      [`loan:${id}`],
    );
    expect(Number(lines[0]?.n)).toBe(6);
  });
});
