// VIP membership through the real HTTP stack on SQLite and PostgreSQL: the trial once ("received VIP"),
// a purchase as one ledger transfer to the platform's fees account ("purchase membership"), a renewal
// that starts at the membership's end, expiry, refusals that change nothing (in both languages), the
// entitlement check as block trades and the advice posts ask it, and the audited stock-strategy switch.

import { testDatabases } from '@bourse/db';
import { afterEach, describe, expect, it } from 'vitest';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';
import * as repo from './repo.ts';
import { Vip } from './service.ts';
import { loadVipSettings } from './settings.ts';

const dbs = await testDatabases();
const PIN = '246810';
const DAY = 86_400_000;
type T = Awaited<ReturnType<typeof testApp>>;
const GRANTS = [{ wallet: 'stock' as const, asset: 'INR', amount: '1500.00' }];

describe.each(dbs)('VIP membership on $dialect', ({ open }) => {
  let t: T;
  let closeDb: () => Promise<void>;
  let db: Awaited<ReturnType<typeof open>>;
  const start = async (env: Record<string, string> = {}) => {
    db = await open();
    closeDb = () => db.close();
    t = await testApp(db, { paperGrants: GRANTS, vip: loadVipSettings(env) });
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
  const customer = async (phone: string) => {
    const data = (await t.register(phone)).body.data;
    const token = data.token as string;
    const set = await t.call('POST', '/user/update/tradePassword', {
      token,
      body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
    });
    expect(set.body.code, JSON.stringify(set.body)).toBe(0);
    return { token, id: data.user.id as number };
  };
  const inr = (userId: number) => t.app.engine.state.balance(String(userId), 'stock', 'INR');
  const fees = () => t.app.engine.state.balance('platform:fees', 'platform', 'INR').balance;
  const status = async (token: string) => (await t.call('GET', '/user/vip/info', { token })).body.data;
  const buy = (token: string, body: Record<string, string | undefined>, lang = 'en-US') =>
    t.call('POST', '/user/vip/buy', { token, lang, body: { password: PIN, plan: '30', ...body } });

  it('grants the trial once, sells a plan through the ledger, renews from the end, and lapses', async () => {
    await start();
    const asha = await customer('9000000001');
    const before = await status(asha.token);
    expect(before).toMatchObject({ state: 'none', member: false, trialDays: 7, trialAvailable: true, currency: 'INR' });
    expect(before.plans.map((p: { plan: string; prices: unknown[] }) => [p.plan, p.prices[0]])).toEqual([
      ['30', { currency: 'INR', amount: '499.00' }],
      ['90', { currency: 'INR', amount: '1497.00' }],
      ['180', { currency: 'INR', amount: '2994.00' }],
    ]);
    // By default only the advice posts are members-only: nothing that existed before VIP is gated.
    expect(
      before.features.filter((f: { membersOnly: boolean }) => f.membersOnly).map((f: { feature: string }) => f.feature),
    ).toEqual(['advice', 'strategy']);

    const t0 = t.clock.now();
    const claimed = await t.call('GET', '/user/vip/get', { token: asha.token });
    expect(claimed.body.msg).toBe('VIP received');
    expect(claimed.body.data).toMatchObject({
      state: 'trial',
      member: true,
      trialAvailable: false,
      expiresAt: t0 + 7 * DAY,
    });
    for (const [lang, msg] of [
      ['en-US', 'The free VIP trial can be claimed once, and yours has been claimed'],
      ['pt-BR', 'A avaliação gratuita do VIP pode ser resgatada uma vez, e a sua já foi resgatada'],
    ] as const) {
      const again = await t.call('GET', '/user/vip/get', { token: asha.token, lang });
      expect([again.body.error, again.body.msg]).toEqual(['vip_trial_used', msg]);
    }
    const bala = await customer('9000000002');
    expect((await t.call('GET', '/user/vip/get', { token: bala.token, lang: 'pt-BR' })).body.msg).toBe('VIP recebido');

    // The quote (GET) says what the purchase (POST) will do, and writes nothing.
    const quote = await t.call('GET', '/user/vip/buy?plan=30', { token: asha.token });
    expect(quote.body.data).toEqual({
      plan: '30',
      days: 30,
      currency: 'INR',
      amount: '499.00',
      available: '1500.00',
      startsAt: t0 + 7 * DAY,
      endsAt: t0 + 37 * DAY,
    });
    const badQuote = await t.call('GET', '/user/vip/buy?plan=30&currency=EUR', { token: asha.token, lang: 'pt-BR' });
    expect([badQuote.body.error, badQuote.body.msg]).toEqual([
      'vip_currency_not_sold',
      'O VIP não é vendido nesta moeda',
    ]);
    // Bought during the trial: the paid period starts when the trial ends (nothing is lost).
    const bought = await buy(asha.token, {});
    expect(bought.body.msg, JSON.stringify(bought.body)).toBe('Membership purchased');
    expect(bought.body.data.period).toMatchObject({
      kind: 'paid',
      status: 'active',
      startsAt: t0 + 7 * DAY,
      endsAt: t0 + 37 * DAY,
      amount: '499.00',
      currency: 'INR',
      transferId: expect.stringMatching(/^vip-period:\d+$/),
    });
    expect(bought.body.data.status).toMatchObject({ state: 'member', expiresAt: t0 + 37 * DAY });
    expect(inr(asha.id)).toMatchObject({ balance: 100_100n, available: 100_100n });
    expect(fees()).toBe(49_900n);
    const transfer = await db.query<{ cause: string; link: string }>(
      'SELECT cause, link FROM ledger_transfers WHERE transfer_id = $1',
      [bought.body.data.period.transferId],
    );
    expect(transfer).toEqual([{ cause: 'fee', link: bought.body.data.period.transferId }]);
    // The customer's funds records show the payment as a fee, noted with its period.
    const records = (await t.call('GET', '/user/tx/record', { token: asha.token })).body.data.items;
    expect(records.find((r: { link?: string; id?: string }) => JSON.stringify(r).includes('vip-period'))).toMatchObject(
      { cause: 'fee', note: 'VIP (30d)' },
    );

    // Renewal: a second plan starts at the first one's end.
    const renewed = await buy(bala.token, {}, 'pt-BR');
    expect(renewed.body.msg).toBe('Assinatura comprada');
    const renewedAgain = await buy(asha.token, { plan: '30' });
    expect(renewedAgain.body.data.period).toMatchObject({ startsAt: t0 + 37 * DAY, endsAt: t0 + 67 * DAY });
    expect(inr(asha.id).balance).toBe(50_200n);

    // Expiry: after the last period's end the membership has lapsed and the advice posts are closed.
    t.clock.set(t0 + 67 * DAY + 1);
    // Sessions end long before: sign in again.
    const login = await t.call('POST', '/user/login', {
      body: { areaCode: '91', phone: '9000000001', password: 'secret12' },
    });
    asha.token = login.body.data.token;
    expect(await status(asha.token)).toMatchObject({ state: 'lapsed', member: false, current: null });
    expect((await t.call('GET', '/user/vip/advice', { token: asha.token })).body.error).toBe('vip_required');
    // A lapsed member may buy again: from now (₹502 left buys 30 days).
    const back = await buy(asha.token, {});
    expect(back.body.data.period).toMatchObject({ startsAt: t0 + 67 * DAY + 1 });
    expect(back.body.data.status.state).toBe('member');
  });

  it('answers a retried purchase with the first one, and settles purchases a crash cut short', async () => {
    await start();
    const asha = await customer('9000000011');
    const first = await buy(asha.token, { clientOrderId: 'vip-order-0001' });
    const retry = await buy(asha.token, { clientOrderId: 'vip-order-0001' });
    expect(retry.body.data.period.id).toBe(first.body.data.period.id);
    expect(inr(asha.id).balance).toBe(100_100n);
    const reused = await buy(asha.token, { clientOrderId: 'vip-order-0001', plan: '90' });
    expect(reused.body.error).toBe('idempotency_key_reused');

    // A crash after the hold, before the post: the start-up settles it (posted, period active).
    const now = t.clock.now();
    const pending = (id: number) => ({
      user_id: id,
      kind: 'paid' as const,
      status: 'pending' as const,
      days: 30,
      starts_at: now,
      ends_at: now + 30 * DAY,
      amount: '499.00',
      currency: 'INR',
      client_key: null,
      created_at: now,
    });
    const bala = await customer('9000000012');
    const held = await repo.insertPeriod(db, pending(bala.id));
    const hold = await t.app.engine.submit({
      type: 'hold_funds',
      id: `vip-period:${held}:hold`,
      userId: String(bala.id),
      wallet: 'stock',
      asset: 'INR',
      amount: '499.00',
      cause: 'fee',
      link: `vip-period:${held}`,
    });
    expect(hold.ok).toBe(true);
    // A crash before the hold: nothing moved, the period is void.
    const dev = await customer('9000000013');
    const lost = await repo.insertPeriod(db, pending(dev.id));
    await t.app.vip.recover();
    expect(await repo.period(db, held)).toMatchObject({ status: 'active', transfer_id: `vip-period:${held}` });
    expect(inr(bala.id)).toMatchObject({ balance: 100_100n, available: 100_100n });
    expect((await status(bala.token)).state).toBe('member');
    expect(await repo.period(db, lost)).toMatchObject({ status: 'void', transfer_id: null });
    expect(inr(dev.id).balance).toBe(150_000n);
    expect(await status(dev.token)).toMatchObject({ state: 'none', periods: [] });
    expect(fees()).toBe(2n * 49_900n);
  });

  it('a status read racing a purchase (between its pending row and its hold) waits for it and voids nothing', async () => {
    await start();
    const asha = await customer('9000000014');
    let vip: Vip | undefined;
    let racing: Promise<unknown> | undefined;
    // The engine pauses before the purchase's hold while a status read (a second tab) comes in.
    const engine = new Proxy(t.app.engine, {
      get(target, prop) {
        if (prop === 'submit')
          return async (command: Parameters<TradingEngine['submit']>[0]) => {
            if (command.type === 'hold_funds' && !racing) {
              racing = (vip as Vip).status(asha.id);
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
            return target.submit(command);
          };
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    vip = new Vip({
      db,
      engine: engine as TradingEngine,
      clock: t.clock,
      settings: loadVipSettings({}),
      stockCountry: 'IN',
    });
    const bought = await vip.buy(asha.id, { plan: '30' });
    await racing;
    expect(bought.period.status).toBe('active');
    expect(inr(asha.id)).toMatchObject({ balance: 100_100n, held: 0n });
    expect(fees()).toBe(49_900n);
    expect((await status(asha.token)).state).toBe('member');
  });

  it('refuses with a reason in both languages and changes nothing', async () => {
    await start({ VIP_PRICES: 'INR:1600.00' });
    const asha = await customer('9000000003');
    const balance = inr(asha.id);
    const cases: [Record<string, string | undefined>, string, string, string][] = [
      [{ password: '111111' }, 'trade_password_incorrect', '', ''],
      [
        { plan: '45' },
        'vip_plan_unknown',
        'Choose one of the VIP plans on offer',
        'Escolha um dos planos VIP oferecidos',
      ],
      [
        { currency: 'EUR' },
        'vip_currency_not_sold',
        'VIP is not sold in this currency',
        'O VIP não é vendido nesta moeda',
      ],
      // USD is priced by default but the customer holds none; INR 1,600 is more than the 1,500 granted.
      [{ currency: 'USD' }, 'insufficient_balance', 'Insufficient balance', 'Saldo insuficiente'],
      [{}, 'insufficient_balance', 'Insufficient balance', 'Saldo insuficiente'],
    ];
    for (const [body, code, en, pt] of cases) {
      for (const [lang, msg] of [
        ['en-US', en],
        ['pt-BR', pt],
      ] as const) {
        const answer = await buy(asha.token, body, lang);
        expect(answer.body.error, JSON.stringify(answer.body)).toBe(code);
        if (msg) expect(answer.body.msg).toBe(msg);
        else expect(answer.body.msg.length).toBeGreaterThan(5);
      }
    }
    expect(inr(asha.id)).toEqual(balance);
    expect(fees()).toBe(0n);
    expect(await db.query(`SELECT id FROM vip_periods WHERE user_id = ${asha.id}`)).toEqual([]);
    for (const [lang, msg] of [
      ['en-US', 'This is for VIP members'],
      ['pt-BR', 'Isto é para membros VIP'],
    ] as const) {
      const closed = await t.call('GET', '/user/vip/advice', { token: asha.token, lang });
      expect([closed.body.error, closed.body.msg]).toEqual(['vip_required', msg]);
    }
    // No trial on offer.
    await t.close();
    await closeDb();
    await start({ VIP_TRIAL_DAYS: '0' });
    const dev = await customer('9000000004');
    expect((await status(dev.token)).trialAvailable).toBe(false);
    for (const [lang, msg] of [
      ['en-US', 'There is no free VIP trial on offer'],
      ['pt-BR', 'Não há avaliação gratuita do VIP disponível'],
    ] as const) {
      const claimed = await t.call('GET', '/user/vip/get', { token: dev.token, lang });
      expect([claimed.body.error, claimed.body.msg]).toEqual(['vip_trial_not_offered', msg]);
    }
  });

  it('makes a member eligible for block trades through the one entitlement check', async () => {
    await start();
    const asha = await customer('9000000005');
    await db.run(`UPDATE users SET id_status = 'succ' WHERE id = ${asha.id}`);
    const eligibility = async () =>
      (await t.call('GET', '/stock/index/bulk/list', { token: asha.token })).body.data.eligibility;
    // ₹1,500 is far below the HNI threshold.
    expect(await eligibility()).toMatchObject({ eligible: false, reason: 'not_hni' });
    expect((await t.call('GET', '/user/vip/get', { token: asha.token })).body.code).toBe(0);
    expect(await eligibility()).toMatchObject({ eligible: true, reason: null });
    expect(await t.app.vip.entitlement(asha.id, 'block_trades')).toMatchObject({ granted: true, required: false });
    // Options, US stocks and short-term trades are not gated by default: everyone is entitled.
    const bala = await customer('9000000006');
    expect(await t.app.vip.entitled(bala.id, 'options')).toBe(true);
    expect(await t.app.vip.entitled(bala.id, 'advice')).toBe(false);
  });

  it('with block trades members-only, an HNI who is not a member is told so', async () => {
    await start({ VIP_REQUIRED_FOR: 'advice,block_trades,options' });
    const asha = await customer('9000000007');
    await db.run(`UPDATE users SET id_status = 'succ' WHERE id = ${asha.id}`);
    await db.run(
      `INSERT INTO block_hni (user_id, marked_by, marked_at, reason) VALUES (${asha.id}, 1, 0, 'documents checked')`,
    );
    const list = async (lang = 'en-US') =>
      (await t.call('GET', '/stock/index/bulk/list', { token: asha.token, lang })).body.data.eligibility;
    expect(await list()).toEqual({ eligible: false, reason: 'not_vip', message: 'This is for VIP members' });
    expect((await list('pt-BR')).message).toBe('Isto é para membros VIP');
    expect(await t.app.vip.entitled(asha.id, 'options')).toBe(false);
    await t.call('GET', '/user/vip/get', { token: asha.token });
    expect(await list()).toMatchObject({ eligible: true });
    expect(await t.app.vip.entitled(asha.id, 'options')).toBe(true);
  });

  it('lets customer service switch the stock strategy (audited) and publish advice members read', async () => {
    await start();
    const admin = await signIn(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
    const made = async (username: string, role: string) => {
      const created = (
        await t.call('POST', '/admin/staff/create', { token: admin, json: { username, role, reason: 'new colleague' } })
      ).body.data;
      t.clock.advance(30_000);
      return signIn(username, created.initialPassword, created.totpSecret);
    };
    const sam = await made('sam', 'support');
    const fiona = await made('fiona', 'finance');
    const asha = await customer('9000000008');

    const refused = await t.call('POST', '/admin/vip/strategy', {
      token: fiona,
      json: { userId: asha.id, enabled: true, reason: 'asked by phone' },
    });
    expect(refused.body.error).toBe('forbidden');
    for (const [lang, msg] of [
      ['en-US', 'Please write the reason for this action'],
      ['pt-BR', 'Escreva o motivo desta ação'],
    ] as const) {
      const noReason = await t.call('POST', '/admin/vip/strategy', {
        token: sam,
        lang,
        json: { userId: asha.id, enabled: true, reason: '' },
      });
      expect([noReason.body.error, noReason.body.msg]).toEqual(['reason_required', msg]);
    }
    const missing = await t.call('POST', '/admin/vip/strategy', {
      token: sam,
      lang: 'pt-BR',
      json: { userId: 999_999, enabled: true, reason: 'asked by phone' },
    });
    expect([missing.body.error, missing.body.msg]).toEqual(['vip_customer_not_found', 'Cliente não encontrado']);

    const on = await t.call('POST', '/admin/vip/strategy', {
      token: sam,
      json: { userId: asha.id, enabled: true, reason: 'asked by phone' },
    });
    expect(on.body.code, JSON.stringify(on.body)).toBe(0);
    const audit = await db.query<{ action: string; reason: string }>(
      `SELECT action, reason FROM audit_log WHERE target_type = 'user' AND target_id = $1 ORDER BY id`,
      [String(asha.id)],
    );
    expect(audit).toEqual([{ action: 'vip.strategy_enable', reason: 'asked by phone' }]);
    // Switched on, but membership is what grants it.
    expect((await status(asha.token)).strategyEnabled).toBe(true);
    expect(await t.app.vip.entitled(asha.id, 'strategy')).toBe(false);
    await t.call('GET', '/user/vip/get', { token: asha.token });
    expect(await t.app.vip.entitled(asha.id, 'strategy')).toBe(true);

    const post = await t.call('POST', '/admin/vip/advice', {
      token: sam,
      json: {
        titleEn: 'Reading a block window',
        titlePt: 'Como ler uma janela de bloco',
        bodyEn: 'Education only, not a recommendation.',
        bodyPt: 'Apenas educação, não é recomendação.',
        reason: 'monthly education post',
      },
    });
    expect(post.body.code, JSON.stringify(post.body)).toBe(0);
    const read = await t.call('GET', '/user/vip/advice', { token: asha.token, lang: 'pt-BR' });
    expect(read.body.data.items).toMatchObject([{ title: 'Como ler uma janela de bloco', author: 'sam' }]);
    const members = await t.call('GET', '/admin/vip/members', { token: sam });
    expect(members.body.data.items).toMatchObject([{ userId: asha.id, state: 'trial', strategyEnabled: true }]);
    const withdrawn = await t.call('POST', '/admin/vip/advice/withdraw', {
      token: sam,
      json: { id: post.body.data.id, reason: 'out of date' },
    });
    expect(withdrawn.body.code).toBe(0);
    expect((await t.call('GET', '/user/vip/advice', { token: asha.token })).body.data.items).toEqual([]);
    const again = await t.call('POST', '/admin/vip/advice/withdraw', {
      token: sam,
      json: { id: post.body.data.id, reason: 'out of date' },
    });
    expect(again.body.error).toBe('vip_advice_not_found');
  });
});
