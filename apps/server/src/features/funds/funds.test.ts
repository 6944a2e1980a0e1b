// AI funds through the real HTTP stack on SQLite and PostgreSQL: staff create a momentum fund over BSE
// and a second staff member approves it (never the creator); a customer subscribes (cash held now), the
// valuation after the close converts it to units at NAV 1; the next session's rebalance buys the rule's
// stocks with ordinary IOC orders on the venue's books (real fills); a redemption is priced at the next
// valuation's NAV, waits for cash, and is paid once the following rebalance has sold shares; every money
// move nets the fund's pass-through account to zero; every rejection answers in both languages with
// nothing changed; the console can change parameters (second approval) and retire, never set a figure.
// Keys: a retried or concurrent subscription or redemption with its key holds / redeems once.

import { testDatabases } from '@bourse/db';
import { parseDecimal } from '@bourse/money';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refusedInBothLanguages, STOCK_GRANTS_ONLY, testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';
import { fundAccount, fundClearing } from './service.ts';

const dbs = await testDatabases();
const PIN = '246810';
const MINUTE = 60_000;
type T = Awaited<ReturnType<typeof testApp>>;
const inr = (text: string) => parseDecimal(text, 2);

describe.each(dbs)('AI funds on $dialect', ({ open }) => {
  let t: T;
  let closeDb: () => Promise<void>;
  afterEach(async () => {
    await t.close();
    await closeDb();
  });

  const customer = async (phone: string) => {
    const token = (await t.register(phone)).body.data.token as string;
    const set = await t.call('POST', '/user/update/tradePassword', {
      token,
      body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
    });
    expect(set.body.code, JSON.stringify(set.body)).toBe(0);
    const userId = (await t.call('GET', '/user/login/info', { token })).body.data.user.id as number;
    return { token, userId };
  };
  const cash = (owner: string) => t.app.engine.state.balance(owner, 'stock', 'INR');
  const clearing = (fundId: number) =>
    t.app.engine.state.balance(`platform:${fundClearing(fundId)}`, 'platform', 'INR');
  const fund = (over: Record<string, unknown> = {}) => ({
    name: 'BSE momentum test',
    rule: 'momentum',
    market: 'BSE',
    size: 3,
    lookbackDays: 20,
    minAmount: '1000',
    ...over,
  });

  it('subscribe at the next valuation, rebalance through the venue, redeem at NAV; every rejection in both languages', {
    timeout: 60_000,
  }, async () => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db, { paperGrants: STOCK_GRANTS_ONLY });
    const second = await t.adminAndColleague('fiona', 'finance', 'second approver for funds');
    const { admin, colleague: fiona } = second;

    // --- the console: create, a second approver, parameters that do not fit ---
    const made = await t.call('POST', '/admin/funds', { token: admin, json: fund() });
    expect(made.body.data).toMatchObject({ status: 'pending_approval', currency: 'INR', minAmount: '1000.00' });
    const id = made.body.data.id as number;
    expect((await t.call('POST', '/stock/ai/list')).body.data.items).toEqual([]);
    await refusedInBothLanguages(
      (lang) =>
        t.call('POST', '/admin/funds/review', { token: admin, lang, json: { id, approve: true, reason: 'mine' } }),
      'A different staff member must approve or reject this fund',
      'Outro membro da equipe deve aprovar ou rejeitar este fundo',
    );
    // A change of a fund that is not offered (this one is still pending) is refused.
    await refusedInBothLanguages(
      (lang) => t.call('POST', '/admin/funds', { token: admin, lang, json: fund({ changes: id }) }),
      'Only an offered fund can be changed',
      'Só um fundo oferecido pode ser alterado',
    );
    expect((await t.call('POST', '/admin/funds', { token: admin, json: fund({ minAmount: '0' }) })).body.code).not.toBe(
      0,
    );
    const approved = await t.call('POST', '/admin/funds/review', {
      token: fiona,
      json: { id, approve: true, reason: 'rule checked' },
    });
    expect(approved.body.data).toMatchObject({ status: 'approved', valuations: 0, last: null });
    await refusedInBothLanguages(
      (lang) =>
        t.call('POST', '/admin/funds/review', { token: fiona, lang, json: { id, approve: true, reason: 'again' } }),
      'This fund is not waiting for approval',
      'Este fundo não está aguardando aprovação',
    );
    const list = (await t.call('POST', '/stock/ai/list')).body.data.items;
    expect(list).toEqual([
      expect.objectContaining({ kind: 'fund', id, rule: 'momentum', market: 'BSE', size: 3, last: null, since: null }),
    ]);

    // --- subscribing: every rejection, then one that holds the cash ---
    const { token, userId } = await customer('9000000001');
    const other = await customer('9000000002');
    const buy = (json: Record<string, unknown>, lang = 'en-US', who = token) =>
      t.call('POST', '/stock/ai/buy', { token: who, lang, json: { kind: 'fund', id, password: PIN, ...json } });
    const before = cash(String(userId));
    await refusedInBothLanguages(
      (lang) => buy({ amount: '999.99' }, lang),
      "The amount is below this fund's minimum subscription of 1000.00 INR",
      'O valor está abaixo da aplicação mínima deste fundo, de 1000.00 INR',
    );
    await refusedInBothLanguages(
      (lang) => buy({ amount: '2000000' }, lang),
      'Insufficient balance',
      'Saldo insuficiente',
    );
    await refusedInBothLanguages(
      (lang) => buy({ amount: '5000', id: 999 }, lang),
      'Fund not found',
      'Fundo não encontrado',
    );
    // A fund has no "add amount": that call is a robot run's, and a fund's kind is refused there.
    const add = await t.call('POST', '/stock/ai/order/add/amount', {
      token,
      json: { kind: 'fund', id, amount: '5000', password: PIN },
    });
    expect(add.body).toMatchObject({ code: -1001, fields: { kind: expect.any(String) } });
    const wrongPin = await buy({ amount: '5000', password: '135790' });
    expect(wrongPin.body.code).not.toBe(0);
    expect(cash(String(userId))).toEqual(before);
    expect(await db.query('SELECT id FROM fund_orders')).toEqual([]);

    const sub = await buy({ amount: '100000' });
    expect(sub.body.code, JSON.stringify(sub.body)).toBe(0);
    expect(sub.body.data.order).toMatchObject({
      side: 'subscribe',
      status: 'pending',
      amount: '100000.00',
      units: null,
    });
    const subId = sub.body.data.order.id as number;
    expect(cash(String(userId))).toMatchObject({ balance: before.balance, held: inr('100000') });
    // The other customer subscribes too, so NAV is shared.
    expect((await buy({ amount: '50000' }, 'en-US', other.token)).body.code).toBe(0);

    // No units can be redeemed before the valuation.
    await refusedInBothLanguages(
      (lang) => t.call('POST', '/stock/ai/order/redeem', { token, lang, json: { id, units: '1', password: PIN } }),
      'You do not hold that many free units of this fund',
      'Você não tem tantas cotas livres deste fundo',
    );

    // --- the valuation after the close: NAV 1 before any units, units rounded down ---
    await t.app.funds.tick(); // open: a rebalance with no cash buys nothing
    expect(t.app.engine.state.balance(fundAccount(id), 'stock', 'INR').balance).toBe(0n);
    await t.advance(8 * 60 * MINUTE); // 17:30 IST: NSE closed
    await t.app.funds.tick();
    await t.app.funds.tick(); // idempotent: one valuation per trading day
    const v1 = await db.query<{ day: string }>('SELECT day FROM fund_valuations WHERE fund_id = $1', [id]);
    expect(v1.map((r) => r.day)).toEqual(['2026-01-05']);
    const detail1 = (await t.call('POST', '/stock/ai/order/details', { token, json: { kind: 'fund', id: subId } })).body
      .data;
    expect(detail1.order).toMatchObject({ status: 'done', units: '100000.0000', nav: '1.000000' });
    // The valuation shows the NAV its orders converted at, and the net assets and units after them.
    expect(detail1.valuation).toMatchObject({
      day: '2026-01-05',
      nav: '1.000000',
      equity: '150000.00',
      units: '150000.0000',
    });
    expect(cash(String(userId))).toMatchObject({ balance: before.balance - inr('100000'), held: 0n });
    expect(cash(fundAccount(id)).balance).toBe(inr('150000'));
    expect(clearing(id).balance).toBe(0n);
    // Another customer's order is not found.
    await refusedInBothLanguages(
      (lang) =>
        t.call('POST', '/stock/ai/order/details', { token: other.token, lang, json: { kind: 'fund', id: subId } }),
      'Fund order not found',
      'Ordem de fundo não encontrada',
    );

    // --- the next session: the rebalance buys the rule's three stocks as ordinary orders ---
    await t.advance(16 * 60 * MINUTE); // 09:30 IST the next day
    await t.app.funds.tick();
    const info = (await t.call('POST', '/stock/ai/info', { token, json: { kind: 'fund', id } })).body.data;
    expect(info.holdings).toHaveLength(3);
    expect(info.myUnits).toBe('100000.0000');
    expect(info.myValue).toBe('100000.00');
    expect(info.history).toHaveLength(1);
    const fundCash = cash(fundAccount(id)).balance;
    expect(fundCash).toBeLessThan(inr('150000') / 10n);
    expect(fundCash).toBeGreaterThanOrEqual(0n);
    // Its shares came from real fills against the venue's market makers (the trades' read model).
    const trades = await db.query<{ instrument_id: string; maker_user_id: string }>(
      'SELECT instrument_id, maker_user_id FROM trades WHERE taker_user_id = $1',
      [fundAccount(id)],
    );
    expect(new Set(trades.map((r) => r.instrument_id)).size).toBe(3);
    expect(trades.every((r) => r.maker_user_id.startsWith('mm:'))).toBe(true);

    // --- a redemption: priced at the next valuation, paid once the cash is there ---
    const red = await t.call('POST', '/stock/ai/order/redeem', { token, json: { id, units: '40000', password: PIN } });
    expect(red.body.data.order).toMatchObject({ side: 'redeem', status: 'pending', units: '40000.0000', amount: null });
    const redId = red.body.data.order.id as number;
    await refusedInBothLanguages(
      (lang) =>
        t.call('POST', '/stock/ai/order/redeem', { token, lang, json: { id, units: '60000.0001', password: PIN } }),
      'You do not hold that many free units of this fund',
      'Você não tem tantas cotas livres deste fundo',
    );
    await t.advance(8 * 60 * MINUTE);
    const beforePay = cash(String(userId)).balance;
    await t.app.funds.tick();
    const v2 = (
      await db.query<{ equity_minor: unknown; units_minor: unknown; cash_minor: unknown }>(
        'SELECT equity_minor, units_minor, cash_minor FROM fund_valuations WHERE fund_id = $1 AND day = $2',
        [id, '2026-01-06'],
      )
    )[0];
    expect(BigInt(String(v2?.units_minor))).toBe(1_500_000_000n);
    const equity = BigInt(String(v2?.equity_minor));
    const owed = (4n * equity) / 15n; // 40 000 of 150 000 units, cash rounded down
    const priced = (await t.call('POST', '/stock/ai/order/details', { token, json: { kind: 'fund', id: redId } })).body
      .data.order;
    expect(priced).toMatchObject({ status: 'priced', amount: (Number(owed) / 100).toFixed(2) });
    expect(cash(String(userId)).balance).toBe(beforePay); // the fund's cash (~2%) cannot pay 40%: it waits
    const myUnits = await db.query<{ units_minor: unknown }>(
      'SELECT units_minor FROM fund_units WHERE fund_id = $1 AND user_id = $2',
      [id, userId],
    );
    expect(BigInt(String(myUnits[0]?.units_minor))).toBe(600_000_000n);
    // The next session's rebalance sells first, then the redemption is paid in full.
    await t.advance(16 * 60 * MINUTE);
    await t.app.funds.tick();
    expect(cash(String(userId)).balance).toBe(beforePay + owed);
    expect(clearing(id).balance).toBe(0n);
    // The units outstanding are the customers' units, exactly.
    const sums = await db.query<{ total: unknown; outstanding: unknown }>(
      `SELECT (SELECT SUM(units_minor) FROM fund_units WHERE fund_id = $1) AS total,
         (SELECT units_minor FROM funds WHERE id = $1) AS outstanding`,
      [id],
    );
    expect(BigInt(String(sums[0]?.total))).toBe(1_100_000_000n);
    expect(BigInt(String(sums[0]?.outstanding))).toBe(1_100_000_000n);
    const orders = (await t.call('POST', '/stock/ai/order/list', { token, json: { kind: 'fund' } })).body.data;
    expect(orders.total).toBe(2);
    expect(orders.items.map((o: { status: string }) => o.status)).toEqual(['done', 'done']);

    // --- the console: a change of parameters needs a second approval; retiring stops subscriptions ---
    // Two days later the staff sign in again (sessions expire).
    const admin2 = await t.staffSignIn(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
    t.clock.advance(30_000);
    const fiona2 = await t.staffSignIn('fiona', second.password, second.totpSecret);
    const change = await t.call('POST', '/admin/funds', {
      token: admin2,
      json: fund({ name: 'BSE momentum 4', size: 4, changes: id }),
    });
    expect(change.body.data).toMatchObject({ status: 'pending_approval', changes: id });
    await t.call('POST', '/admin/funds/review', {
      token: fiona2,
      json: { id: change.body.data.id, approve: true, reason: 'four stocks' },
    });
    const changed = (await t.call('POST', '/stock/ai/info', { json: { kind: 'fund', id } })).body.data;
    expect(changed).toMatchObject({ name: 'BSE momentum 4', size: 4, myUnits: null });
    expect((await t.call('POST', '/stock/ai/list')).body.data.items).toHaveLength(1);
    await t.call('POST', '/admin/funds/retire', { token: fiona2, json: { id, reason: 'closing the fund' } });
    await refusedInBothLanguages(
      (lang) => buy({ amount: '5000' }, lang),
      'This fund takes no new subscriptions',
      'Este fundo não aceita novas aplicações',
    );
    await refusedInBothLanguages(
      (lang) => t.call('POST', '/admin/funds/retire', { token: fiona2, lang, json: { id, reason: 'again please' } }),
      'Only an approved fund can be retired',
      'Só um fundo aprovado pode ser retirado',
    );
    // Holders of a retired fund may still redeem.
    expect(
      (await t.call('POST', '/stock/ai/order/redeem', { token, json: { id, units: '1', password: PIN } })).body.code,
    ).toBe(0);
    // Nothing in the console can set a fund's figures: its calls are create, review, retire and the list.
    const doc = (await t.call('GET', '/openapi.json')).body as unknown as {
      paths: Record<string, Record<string, unknown>>;
    };
    const calls = Object.entries(doc.paths)
      .filter(([path]) => path.includes('/admin/funds'))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`))
      .sort();
    expect(calls).toEqual([
      'get /admin/funds',
      'post /admin/funds',
      'post /admin/funds/retire',
      'post /admin/funds/review',
    ]);
    const audit = (await t.call('GET', '/admin/audit?action=fund.approve', { token: admin2 })).body.data;
    expect(JSON.stringify(audit)).toContain('fund.approve');
  });

  it('seeds the demo fund once; after a restart values only the last closed session; a repeated pay-out moves nothing twice', {
    timeout: 60_000,
  }, async () => {
    const db = await open();
    closeDb = () => db.close();
    const demo = { paperGrants: STOCK_GRANTS_ONLY, aiFunds: { demo: true, jobEveryMs: 0 } };
    t = await testApp(db, demo);
    const items = (await t.call('POST', '/stock/ai/list')).body.data.items as {
      kind: string;
      id: number;
      rule: string;
    }[];
    expect(items).toEqual([expect.objectContaining({ kind: 'fund', rule: 'momentum', market: 'BSE' })]);
    const id = items[0]?.id as number;
    await t.app.funds.seedDemo();
    expect((await t.call('POST', '/stock/ai/list')).body.data.items).toHaveLength(1);
    const { token, userId } = await customer('9000000003');
    const sub = await t.call('POST', '/stock/ai/buy', {
      token,
      json: { kind: 'fund', id, amount: '20000', password: PIN },
    });
    expect(sub.body.code, JSON.stringify(sub.body)).toBe(0);
    const before = cash(String(userId)).balance;
    // The server is down from Monday morning to Thursday evening: four sessions closed meanwhile; only
    // the last is valued, at its closing prices (a server back during a session waits for its close).
    await t.close();
    t = await testApp(db, demo, Date.parse('2026-01-08T07:00:00Z')); // Thursday 12:30 IST: open
    await t.app.funds.tick();
    expect(await db.query('SELECT day FROM fund_valuations WHERE fund_id = $1', [id])).toEqual([]);
    await t.advance(5 * 60 * MINUTE); // 17:30 IST: closed
    await t.app.funds.tick();
    const days = await db.query<{ day: string }>('SELECT day FROM fund_valuations WHERE fund_id = $1', [id]);
    expect(days.map((r) => r.day)).toEqual(['2026-01-08']);
    const order = (
      await t.call('POST', '/stock/ai/order/details', { token, json: { kind: 'fund', id: sub.body.data.order.id } })
    ).body.data.order;
    expect(order).toMatchObject({ status: 'done', units: '20000.0000' });
    expect(cash(String(userId))).toMatchObject({ balance: before - inr('20000'), held: 0n });
    // A crash between pricing and paying: the order is found priced again at the next run, and its
    // commands (named after the row) are answered as already done — nothing moves twice.
    const fundCash = cash(fundAccount(id)).balance;
    await db.run(`UPDATE fund_orders SET status = 'priced' WHERE id = $1`, [order.id]);
    await t.app.funds.tick();
    expect(cash(fundAccount(id)).balance).toBe(fundCash);
    expect(cash(String(userId)).balance).toBe(before - inr('20000'));
    expect(clearing(id).balance).toBe(0n);
    const again = await db.query<{ status: string }>('SELECT status FROM fund_orders WHERE id = $1', [order.id]);
    expect(again[0]?.status).toBe('done');
  });

  it('a subscription or redemption retried with its key (or sent twice at once) moves once; another body is refused', {
    timeout: 60_000,
  }, async () => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db, { paperGrants: STOCK_GRANTS_ONLY, aiFunds: { demo: true, jobEveryMs: 0 } });
    const id = (await t.call('POST', '/stock/ai/list')).body.data.items[0]?.id as number;
    const { token, userId } = await customer('9000000004');
    const me = String(userId);
    const before = cash(me).balance;
    const buy = (json: Record<string, unknown>, opts: { lang?: string; headers?: Record<string, string> } = {}) =>
      t.call('POST', '/stock/ai/buy', { token, ...opts, json: { kind: 'fund', id, password: PIN, ...json } });
    const redeem = (json: Record<string, unknown>, opts: { lang?: string; headers?: Record<string, string> } = {}) =>
      t.call('POST', '/stock/ai/order/redeem', { token, ...opts, json: { id, password: PIN, ...json } });
    const count = async () => Number((await db.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM fund_orders'))[0]?.n);

    // A retry (the body's key, then the header's) answers the first order and holds nothing more.
    const first = await buy({ amount: '20000', clientOrderId: 'fund-sub-key-01' });
    expect(first.body.code, JSON.stringify(first.body)).toBe(0);
    const subId = first.body.data.order.id as number;
    expect((await buy({ amount: '20000', clientOrderId: 'fund-sub-key-01' })).body.data.order).toMatchObject({
      id: subId,
      status: 'pending',
    });
    const byHeader = await buy({ amount: '20000' }, { headers: { 'idempotency-key': 'fund-sub-key-01' } });
    expect(byHeader.body.data.order.id).toBe(subId);
    expect(cash(me)).toMatchObject({ balance: before, held: inr('20000') });
    expect(await count()).toBe(1);
    // The header and the body must agree.
    const disagree = await buy(
      { amount: '20000', clientOrderId: 'fund-sub-key-01' },
      { headers: { 'idempotency-key': 'fund-sub-key-99' } },
    );
    expect(disagree.body).toMatchObject({ code: -1001, fields: { clientOrderId: expect.any(String) } });
    // The same key with another amount, or for a redemption, is refused in both languages; nothing moves.
    const REUSED = [
      'This request was already sent with different content',
      'Esta solicitação já foi enviada com conteúdo diferente',
    ] as const;
    await refusedInBothLanguages(
      (lang) => buy({ amount: '30000', clientOrderId: 'fund-sub-key-01' }, { lang }),
      ...REUSED,
    );
    await refusedInBothLanguages(
      (lang) => redeem({ units: '1', clientOrderId: 'fund-sub-key-01' }, { lang }),
      ...REUSED,
    );
    expect(cash(me)).toMatchObject({ balance: before, held: inr('20000') });
    expect(await count()).toBe(1);

    // Two identical requests at once: the second waits for the first and answers it.
    const both = await Promise.all([
      buy({ amount: '10000', clientOrderId: 'fund-sub-key-02' }),
      buy({ amount: '10000', clientOrderId: 'fund-sub-key-02' }),
    ]);
    expect(both.map((a) => a.body.code)).toEqual([0, 0]);
    expect(both[0]?.body.data.order.id).toBe(both[1]?.body.data.order.id);
    expect(cash(me)).toMatchObject({ balance: before, held: inr('30000') });
    expect(await count()).toBe(2);

    // A subscription whose hold the engine refused: its retry answers that refusal, and nothing is held.
    const real = t.app.engine.submit.bind(t.app.engine);
    const spy = vi
      .spyOn(t.app.engine, 'submit')
      .mockImplementation(async (command) =>
        command.type === 'hold_funds' ? { ok: false, code: 'insufficient_balance' } : real(command),
      );
    const refused = await buy({ amount: '5000', clientOrderId: 'fund-sub-key-03' });
    spy.mockRestore();
    expect(refused.body.msg).toBe('Insufficient balance');
    await refusedInBothLanguages(
      (lang) => buy({ amount: '5000', clientOrderId: 'fund-sub-key-03' }, { lang }),
      'Insufficient balance',
      'Saldo insuficiente',
    );
    expect(cash(me)).toMatchObject({ balance: before, held: inr('30000') });
    expect(await db.query('SELECT status FROM fund_orders WHERE client_key = $1', ['fund-sub-key-03'])).toEqual([
      { status: 'failed' },
    ]);

    // The valuation converts both at NAV 1 (the fund holds only cash: no rebalance ran while open).
    await t.advance(8 * 60 * MINUTE); // 17:30 IST: closed
    await t.app.funds.tick();
    expect(cash(me)).toMatchObject({ balance: before - inr('30000'), held: 0n });
    expect(cash(fundAccount(id)).balance).toBe(inr('30000'));
    // The retry of a converted order answers it as it is now, and moves nothing.
    expect((await buy({ amount: '20000', clientOrderId: 'fund-sub-key-01' })).body.data.order).toMatchObject({
      id: subId,
      status: 'done',
      units: '20000.0000',
      nav: '1.000000',
    });
    expect(cash(me).balance).toBe(before - inr('30000'));

    // Redemptions: a retry and a concurrent double each ask for their units once.
    const red = await redeem({ units: '5000', clientOrderId: 'fund-red-key-01' });
    expect(red.body.code, JSON.stringify(red.body)).toBe(0);
    const redId = red.body.data.order.id as number;
    const redRetry = await redeem({ units: '5000' }, { headers: { 'idempotency-key': 'fund-red-key-01' } });
    expect(redRetry.body.data.order).toMatchObject({ id: redId, side: 'redeem', status: 'pending' });
    const twice = await Promise.all([
      redeem({ units: '3000', clientOrderId: 'fund-red-key-02' }),
      redeem({ units: '3000', clientOrderId: 'fund-red-key-02' }),
    ]);
    expect(twice.map((a) => a.body.code)).toEqual([0, 0]);
    expect(twice[0]?.body.data.order.id).toBe(twice[1]?.body.data.order.id);
    await refusedInBothLanguages(
      (lang) => redeem({ units: '3001', clientOrderId: 'fund-red-key-02' }, { lang }),
      ...REUSED,
    );
    await refusedInBothLanguages(
      (lang) => buy({ amount: '3000', clientOrderId: 'fund-red-key-02' }, { lang }),
      ...REUSED,
    );
    const info = (await t.call('POST', '/stock/ai/info', { token, json: { kind: 'fund', id } })).body.data;
    expect(info.pending.map((o: { units: string }) => o.units).sort()).toEqual(['3000.0000', '5000.0000']);
    expect(await count()).toBe(5);

    // The next valuation pays 8 000 units at NAV 1 from the fund's cash, once; retries after it move nothing.
    await t.advance(24 * 60 * MINUTE);
    await t.app.funds.tick();
    expect(cash(me)).toMatchObject({ balance: before - inr('22000'), held: 0n });
    expect(cash(fundAccount(id))).toMatchObject({ balance: inr('22000'), held: 0n });
    expect(clearing(id).balance).toBe(0n);
    expect((await redeem({ units: '5000', clientOrderId: 'fund-red-key-01' })).body.data.order).toMatchObject({
      id: redId,
      status: 'done',
      amount: '5000.00',
    });
    await t.app.funds.tick();
    expect(cash(me).balance).toBe(before - inr('22000'));
    const units = await db.query<{ units_minor: unknown }>(
      'SELECT units_minor FROM fund_units WHERE fund_id = $1 AND user_id = $2',
      [id, userId],
    );
    expect(BigInt(String(units[0]?.units_minor))).toBe(220_000_000n);
  });
});
