// API tests of manual adjustments through the real HTTP stack on SQLite and PostgreSQL: one staff member
// proposes, the same one cannot decide, a second approves (a ledger line with the reason's row as link)
// or rejects; a debit beyond the available balance and a role without the permission are refused, in
// both languages, with nothing changed; every action is in the audit log.

import { testDatabases } from '@bourse/db';
import { afterEach, describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';

const dbs = await testDatabases();
type T = Awaited<ReturnType<typeof testApp>>;

describe.each(dbs)('manual adjustments on $dialect', ({ open }) => {
  let t: T;
  let closeDb: () => Promise<void>;
  const start = async () => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db);
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
  /** A second staff member, created by the administrator through the staff API. */
  const colleague = async (adminToken: string, username: string, role: string) => {
    const created = (
      await t.call('POST', '/admin/staff/create', {
        token: adminToken,
        json: { username, role, reason: 'second approver for adjustments' },
      })
    ).body.data;
    await t.advance(30_000); // a new TOTP step: each code signs in once
    return signIn(username, created.initialPassword, created.totpSecret);
  };
  const customer = async (phone: string) => {
    const data = (await t.register(phone)).body.data;
    return { token: data.token as string, id: data.user.id as number };
  };
  const usd = async (token: string) => {
    const items = (await t.call('POST', '/user/assets', { token })).body.data.items as {
      wallet: string;
      asset: string;
      balance: string;
    }[];
    return items.find((i) => i.wallet === 'stock' && i.asset === 'USD')?.balance;
  };
  const propose = (staff: string, json: Record<string, unknown>, lang = 'en-US') =>
    t.call('POST', '/admin/adjustments', { token: staff, json, lang });
  const decide = (staff: string, id: number, decision: string, reason: string, lang = 'en-US') =>
    t.call('POST', `/admin/adjustments/${id}/decide`, { token: staff, json: { decision, reason }, lang });

  it('is proposed by one staff member, refused to the same one, approved by another: one ledger line', async () => {
    await start();
    const alice = await customer('9200000001');
    const a = await admin();
    const b = await colleague(a, 'fiona', 'finance');
    const proposed = await propose(a, {
      userId: alice.id,
      wallet: 'stock',
      asset: 'USD',
      amount: '25.5',
      reason: 'Refund of a duplicated fee on 3 March',
    });
    expect(proposed.body.code, JSON.stringify(proposed.body)).toBe(0);
    const id = proposed.body.data.id as number;
    expect(proposed.body.data).toMatchObject({ status: 'pending', amount: '25.50', proposedByName: 'admin' });
    expect(await usd(alice.token)).toBe('10000.00');

    for (const [lang, msg] of [
      ['en-US', 'A different staff member must approve or reject this adjustment'],
      ['pt-BR', 'Outro membro da equipe deve aprovar ou rejeitar este ajuste'],
    ] as const) {
      for (const decision of ['approve', 'reject']) {
        expect((await decide(a, id, decision, 'I checked it myself', lang)).body).toMatchObject({
          error: 'adjustment_same_staff',
          msg,
        });
      }
    }
    expect(await usd(alice.token)).toBe('10000.00');

    const approved = await decide(b, id, 'approve', 'Fee statement matches');
    expect(approved.body.code, JSON.stringify(approved.body)).toBe(0);
    expect(approved.body.data).toMatchObject({
      status: 'approved',
      decidedByName: 'fiona',
      transferId: `adjustment:${id}`,
    });
    expect(await usd(alice.token)).toBe('10025.50');
    const lines = (await t.call('GET', '/user/tx/record?cause=adjustment', { token: alice.token })).body.data.items;
    expect(lines).toEqual([
      expect.objectContaining({
        id: `adjustment:${id}`,
        asset: 'USD',
        amount: '25.50',
        cause: 'adjustment',
        link: `adjustment:${id}`,
        counterparty: 'platform:adjustments',
      }),
    ]);
    // Decided once: a second decision is refused and changes nothing.
    expect((await decide(b, id, 'approve', 'again, by mistake')).body.error).toBe('adjustment_already_decided');
    expect(await usd(alice.token)).toBe('10025.50');

    const audit = JSON.stringify((await t.call('GET', '/admin/audit', { token: a })).body.data);
    for (const action of ['adjustment.propose', 'adjustment.approve'])
      expect(audit, action).toContain(`"action":"${action}"`);
    expect(audit).toContain('Refund of a duplicated fee on 3 March');
    expect(audit).toContain('Fee statement matches');
  });

  it('debits through a hold when approved, and refuses a debit above the available balance, changing nothing', async () => {
    await start();
    const alice = await customer('9200000002');
    const a = await admin();
    const b = await colleague(a, 'felix', 'admin');
    const tooMuch = (
      await propose(a, {
        userId: alice.id,
        wallet: 'stock',
        asset: 'USD',
        amount: '-10000.01',
        reason: 'Reverse a mistaken credit',
      })
    ).body.data.id as number;
    for (const [lang, msg] of [
      ['en-US', 'Insufficient balance'],
      ['pt-BR', 'Saldo insuficiente'],
    ] as const) {
      expect((await decide(b, tooMuch, 'approve', 'Looks right', lang)).body).toMatchObject({
        error: 'insufficient_balance',
        msg,
      });
    }
    expect(await usd(alice.token)).toBe('10000.00');
    const list = (await t.call('GET', '/admin/adjustments?status=pending', { token: b })).body.data.items;
    expect(list.map((x: { id: number }) => x.id)).toContain(tooMuch);
    // Once the customer has the funds (a credit approved), the same debit is approved.
    const credit = (
      await propose(a, { userId: alice.id, wallet: 'stock', asset: 'USD', amount: '1', reason: 'Make room' })
    ).body.data.id as number;
    expect((await decide(b, credit, 'approve', 'Agreed')).body.code).toBe(0);
    expect((await decide(b, tooMuch, 'approve', 'Now covered')).body.code).toBe(0);
    expect(await usd(alice.token)).toBe('0.99');

    const debit = (
      await propose(a, { userId: alice.id, wallet: 'stock', asset: 'USD', amount: '-100', reason: 'Chargeback' })
    ).body.data.id as number;
    expect((await decide(b, debit, 'approve', 'Bank confirmed the chargeback')).body).toMatchObject({
      error: 'insufficient_balance',
    });
    expect(await usd(alice.token)).toBe('0.99');
    const lines = (await t.call('GET', '/user/tx/record?cause=adjustment', { token: alice.token })).body.data.items;
    expect(lines.map((l: { amount: string; link: string }) => [l.amount, l.link])).toEqual([
      ['-10000.01', `adjustment:${tooMuch}`],
      ['1.00', `adjustment:${credit}`],
    ]);
  });

  it('rejects with a reason (no money moves), and refuses staff without the permission and bad proposals', async () => {
    await start();
    const alice = await customer('9200000003');
    const a = await admin();
    const b = await colleague(a, 'fatima', 'finance');
    const s = await colleague(a, 'sam', 'support');
    const id = (
      await propose(b, { userId: alice.id, wallet: 'stock', asset: 'USD', amount: '5', reason: 'Goodwill credit' })
    ).body.data.id as number;
    const rejected = await decide(a, id, 'reject', 'No ticket behind it');
    expect(rejected.body.data).toMatchObject({
      status: 'rejected',
      decisionReason: 'No ticket behind it',
      transferId: null,
    });
    expect(await usd(alice.token)).toBe('10000.00');
    expect((await t.call('GET', '/user/tx/record?cause=adjustment', { token: alice.token })).body.data.items).toEqual(
      [],
    );

    for (const [lang, msg] of [
      ['en-US', 'You do not have permission to do this'],
      ['pt-BR', 'Você não tem permissão para fazer isso'],
    ] as const) {
      const body = { userId: alice.id, wallet: 'stock', asset: 'USD', amount: '5', reason: 'support credit' };
      expect((await propose(s, body, lang)).body).toMatchObject({ error: 'forbidden', msg });
      expect((await t.call('GET', '/admin/adjustments', { token: s, lang })).body).toMatchObject({
        error: 'forbidden',
        msg,
      });
    }
    const bad: [Record<string, unknown>, string][] = [
      [
        { userId: 999_999, wallet: 'stock', asset: 'USD', amount: '5', reason: 'nobody here' },
        'adjustment_customer_not_found',
      ],
      [{ userId: alice.id, wallet: 'stock', asset: 'USD', amount: '0', reason: 'zero amount' }, 'invalid_amount'],
      [{ userId: alice.id, wallet: 'stock', asset: 'USD', amount: '5', reason: 'no' }, 'reason_required'],
      [{ userId: alice.id, wallet: 'stock', asset: 'ZZZ', amount: '5', reason: 'unknown asset' }, 'unknown_asset'],
      [{ userId: alice.id, wallet: 'stock', asset: 'USD', amount: '5.001', reason: 'too precise' }, 'invalid_amount'],
    ];
    for (const [json, error] of bad) expect((await propose(a, json)).body.error, JSON.stringify(json)).toBe(error);
    const pt = await propose(
      a,
      { userId: alice.id, wallet: 'stock', asset: 'USD', amount: '5', reason: 'no' },
      'pt-BR',
    );
    expect(pt.body).toMatchObject({
      error: 'reason_required',
      msg: 'Escreva o motivo desta ação',
    });
    const all = (await t.call('GET', '/admin/adjustments', { token: a })).body.data.items;
    expect(all).toHaveLength(1);
  });
});
