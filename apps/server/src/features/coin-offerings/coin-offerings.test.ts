// The launchpad through the real HTTP stack on SQLite and PostgreSQL: one staff member creates an
// offering, the same one cannot approve it, a second does (audited); customers commit USDT in the window
// (held, not paid), cancel before the close (released), and at the close the allotment is pro rata with the
// excess refunded in the same engine step; the coin is then listed with its USDT pair, which trades. Every
// rejection is checked in both languages with nothing changed, and another customer's id answers not found.
// Crashes around the settlement, and in batches of 2 (batchMax) a fresh job resuming between batches.

import { ERRORS, type ErrorCode } from '@bourse/contract';
import { type Db, testDatabases } from '@bourse/db';
import { ALLOTMENT_BATCH_MAX, decodeCommand } from '@bourse/engine';
import { afterEach, describe, expect, it } from 'vitest';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { totpNow } from '../../platform/totp.ts';
import { allotmentSpy, STOCK_GRANTS_ONLY, testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';
import { CoinOfferings, commitmentHoldId, LAUNCHPAD_ISSUER } from './service.ts';

const dbs = await testDatabases();
type T = Awaited<ReturnType<typeof testApp>>;
const PIN = '246810';
const HOUR = 3_600_000;
const USDT = (text: string) => BigInt(text) * 1_000_000n;
const COIN = 10n ** 8n;

describe.each(dbs)('coin offerings on $dialect', ({ open, dialect }) => {
  // The catalogue is process-wide: each database's run lists its own coin.
  const symbol = dialect === 'sqlite' ? 'NOVS' : 'NOVP';
  let t: T;
  let closeDb: () => Promise<void>;
  let db: Db;
  afterEach(async () => {
    await t.close();
    await closeDb();
  });
  const start = async () => {
    db = await open();
    closeDb = () => db.close();
    t = await testApp(db, { paperGrants: STOCK_GRANTS_ONLY });
  };
  const signIn = async (username: string, password: string, secret: string) => {
    const answer = await t.call('POST', '/admin/auth/login', {
      json: { username, password, totpCode: totpNow(secret, t.clock.now()) },
    });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    return answer.body.data.token as string;
  };
  const colleague = async (adminToken: string, username = 'fiona', role = 'finance') => {
    const created = (
      await t.call('POST', '/admin/staff/create', {
        token: adminToken,
        json: { username, role, reason: 'second approver for the launchpad' },
      })
    ).body.data;
    t.clock.advance(30_000); // a new TOTP step: each code signs in once
    return signIn(username, created.initialPassword, created.totpSecret);
  };
  const customer = async (phone: string, usdt: string) => {
    const token = (await t.register(phone)).body.data.token as string;
    const set = await t.call('POST', '/user/update/tradePassword', {
      token,
      body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
    });
    expect(set.body.code).toBe(0);
    const id = String((await t.call('GET', '/user/login/info', { token })).body.data.user.id);
    const granted = await t.app.engine.submit({
      type: 'deposit',
      id: `test-grant:${id}`,
      userId: id,
      wallet: 'spot',
      asset: 'USDT',
      amount: usdt,
      from: 'faucet',
      cause: 'paper_grant',
      link: 'coin-offerings-test',
    });
    expect(granted.ok).toBe(true);
    return { token, id };
  };
  const spot = (userId: string, asset: string) => t.app.engine.state.balance(userId, 'spot', asset);
  const apply = (token: string, json: Record<string, unknown>, lang = 'en-US') =>
    t.call('POST', '/coin/order/new/apply', { token, lang, json: { password: PIN, ...json } });
  /** The call is refused with `code` and its message in both languages, and changes nothing. */
  const refused = async (
    call: (lang: string) => Promise<{ body: { code: number; error?: string; msg: string } }>,
    code: ErrorCode,
    params: Record<string, string> = {},
    footprint: () => Promise<unknown> = async () => null,
  ) => {
    const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, k: string) => params[k] ?? `{${k}}`);
    const before = await footprint();
    for (const [lang, msg] of [
      ['en-US', fill(ERRORS[code].en)],
      ['pt-BR', fill(ERRORS[code].pt)],
    ] as const) {
      const answer = await call(lang);
      expect(answer.body, `${code} in ${lang}`).toMatchObject({ error: code, msg });
      expect(answer.body.code).toBeLessThan(0);
    }
    expect(await footprint()).toEqual(before);
  };

  const terms = (now: number) => ({
    symbol,
    name: 'Nova Token',
    scale: 8,
    price: '0.10',
    cap: '1000',
    unit: '1',
    minCommit: '10',
    maxCommit: '100',
    opensAt: now + HOUR,
    closesAt: now + 3 * HOUR,
    summary: 'Nova is a test coin. Its price can fall to zero; nothing here promises an allotment or a return.',
    reason: 'Launchpad listing agreed with the issuer',
  });

  it('runs an offering end to end: approval by a second staff member, commitments, pro-rata allotment with refunds, listing', async () => {
    await start();
    const admin = await signIn(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
    const fiona = await colleague(admin);
    const created = await t.call('POST', '/admin/coin-offerings', { token: admin, json: terms(t.clock.now()) });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const id = created.body.data.id as number;
    expect(created.body.data).toMatchObject({ status: 'pending_approval', price: '0.100000', createdByName: 'admin' });

    // Not published before a second staff member approves: customers see nothing.
    const alice = await customer('9300000001', '200');
    await refused(
      (lang) => t.call('POST', '/coin/new/info', { token: alice.token, lang, json: { id } }),
      'coin_offering_not_found',
    );
    await refused(
      (lang) =>
        t.call('POST', `/admin/coin-offerings/${id}/decide`, {
          token: admin,
          lang,
          json: { decision: 'approve', reason: 'looks fine to me' },
        }),
      'coin_offering_same_staff',
    );
    const approved = await t.call('POST', `/admin/coin-offerings/${id}/decide`, {
      token: fiona,
      json: { decision: 'approve', reason: 'terms and risk text checked' },
    });
    expect(approved.body.data).toMatchObject({ status: 'approved', approvedByName: 'fiona', phase: 'upcoming' });
    await refused(
      (lang) =>
        t.call('POST', `/admin/coin-offerings/${id}/decide`, {
          token: fiona,
          lang,
          json: { decision: 'reject', reason: 'again' },
        }),
      'coin_offering_already_decided',
    );
    const audit = await t.call('GET', '/admin/audit?limit=50', { token: admin });
    const actions = (audit.body.data?.items ?? []).map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['coin_offering.create', 'coin_offering.approve']));

    // Upcoming: listed as coming, refused to commit.
    const coming = (await t.call('POST', '/coin/new/list/coming', { json: {} })).body.data.items;
    expect(coming.map((o: { id: number }) => o.id)).toEqual([id]);
    await refused((lang) => apply(alice.token, { id, amount: '50' }, lang), 'coin_offering_not_open');

    await t.advance(HOUR);
    const today = (await t.call('POST', '/coin/new/today', { json: {} })).body.data.items;
    expect(today).toMatchObject([{ id, phase: 'open', committed: '0.000000', mine: null }]);

    const bob = await customer('9300000002', '60');
    const carol = await customer('9300000003', '50');
    const aliceFootprint = async () => ({
      usdt: spot(alice.id, 'USDT'),
      mine: (await t.call('POST', '/coin/order/new/list', { token: alice.token, json: {} })).body.data.total,
    });
    // Every refusal of a commitment, with nothing held or recorded.
    await refused(
      (lang) => apply(alice.token, { id, amount: '9.99' }, lang),
      'coin_commitment_below_minimum',
      { min: '10' },
      aliceFootprint,
    );
    await refused(
      (lang) => apply(alice.token, { id, amount: '100.01' }, lang),
      'coin_commitment_above_maximum',
      { max: '100' },
      aliceFootprint,
    );
    await refused((lang) => apply(alice.token, { id, amount: 'ten' }, lang), 'invalid_amount', {}, aliceFootprint);
    await refused(
      (lang) => apply(alice.token, { id, amount: '50', password: '111111' }, lang),
      'trade_password_incorrect',
      {},
      aliceFootprint,
    );
    await refused(
      (lang) => apply(carol.token, { id, amount: '60' }, lang),
      'subscription_funds',
      {},
      async () => spot(carol.id, 'USDT'),
    );
    await refused(
      (lang) => apply(alice.token, { id: 999_999, amount: '50' }, lang),
      'coin_offering_not_found',
      {},
      aliceFootprint,
    );
    // A customer without a transaction password is told to set one first.
    const noPin = (await t.register('9300000009')).body.data.token as string;
    await refused(
      (lang) => t.call('POST', '/coin/order/new/apply', { token: noPin, lang, json: { id, amount: '50' } }),
      'trade_password_not_set',
    );

    // Alice commits 100, Bob 60, Carol 40 and cancels: the USDT is held, then released.
    const a = await apply(alice.token, { id, amount: '100' });
    expect(a.body.code, JSON.stringify(a.body)).toBe(0);
    expect(a.body.data).toMatchObject({ status: 'subscribed', amount: '100.000000', symbol });
    expect(spot(alice.id, 'USDT')).toMatchObject({ balance: USDT('200'), held: USDT('100') });
    await refused(
      (lang) => apply(alice.token, { id, amount: '20' }, lang),
      'coin_commitment_exists',
      {},
      aliceFootprint,
    );
    expect((await apply(bob.token, { id, amount: '60' })).body.code).toBe(0);
    const c = await apply(carol.token, { id, amount: '40' });
    expect(spot(carol.id, 'USDT').held).toBe(USDT('40'));
    // Another customer's commitment is not found for Alice; Carol cancels her own.
    await refused(
      (lang) => t.call('POST', '/coin/order/new/cancel', { token: alice.token, lang, json: { id: c.body.data.id } }),
      'coin_commitment_not_found',
      {},
      async () => spot(carol.id, 'USDT'),
    );
    const cancelled = await t.call('POST', '/coin/order/new/cancel', {
      token: carol.token,
      json: { id: c.body.data.id },
    });
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', refunded: '40.000000' });
    expect(spot(carol.id, 'USDT')).toMatchObject({ balance: USDT('50'), held: 0n });
    const info = (await t.call('POST', '/coin/new/info', { token: alice.token, json: { id } })).body.data;
    expect(info).toMatchObject({ committed: '160.000000', mine: { status: 'subscribed', amount: '100.000000' } });

    // The console sees the commitments (read-only).
    const desk = await t.call('GET', `/admin/coin-offerings/${id}/commitments`, { token: fiona });
    expect(desk.body.data.items.map((i: { status: string }) => i.status)).toEqual([
      'subscribed',
      'subscribed',
      'cancelled',
    ]);

    // The close: 1,600 coins asked for 1,000 → Alice 625 (pays 62.50, 37.50 back), Bob 375 (37.50, 22.50 back).
    await t.advance(2 * HOUR);
    const mine = (await t.call('POST', '/coin/order/new/list', { token: alice.token, json: {} })).body.data.items;
    expect(mine[0]).toMatchObject({
      status: 'allotted',
      allotted: '625.00000000',
      paid: '62.500000',
      refunded: '37.500000',
    });
    expect(spot(alice.id, 'USDT')).toMatchObject({ balance: USDT('200') - 62_500_000n, held: 0n });
    expect(spot(alice.id, symbol).balance).toBe(625n * COIN);
    expect(spot(bob.id, 'USDT')).toMatchObject({ balance: 60_000_000n - 37_500_000n, held: 0n });
    expect(spot(bob.id, symbol).balance).toBe(375n * COIN);
    await refused(
      (lang) => t.call('POST', '/coin/order/new/cancel', { token: alice.token, lang, json: { id: a.body.data.id } }),
      'coin_commitment_not_cancellable',
    );
    const listed = (await t.call('POST', '/coin/new/info', { json: { id } })).body.data;
    expect(listed).toMatchObject({ phase: 'listed', sold: '1000.00000000', pair: `${symbol}USDT`, mine: null });

    // The pair trades: Alice sells 100 of her coins to the liquidity bot.
    const sell = await t.call('POST', '/coin/order/add', {
      token: alice.token,
      json: { symbol: `${symbol}USDT`, side: 'sell', type: 'market', quantity: '100', password: PIN },
    });
    expect(sell.body.code, JSON.stringify(sell.body)).toBe(0);
    expect(spot(alice.id, symbol).balance).toBe(525n * COIN);
    expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
  }, 60_000);

  it('seeds the demo launchpad in paper mode: one listed (the demo customer allotted), one open, one upcoming', async () => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db, { demoLaunchpad: true });
    const all = (await t.call('POST', '/coin/new/list', { json: {} })).body.data.items as {
      symbol: string;
      phase: string;
      pair: string | null;
    }[];
    expect(all.map((o) => [o.symbol, o.phase, o.pair])).toEqual([
      ['ORBT', 'open', null],
      ['TERA', 'upcoming', null],
      ['LUMA', 'listed', 'LUMAUSDT'],
    ]);
    const pairs = (await t.call('POST', '/coin/infos')).body.data.items.map((p: { symbol: string }) => p.symbol);
    expect(pairs).toContain('LUMAUSDT');
    const demoId = (await db.query<{ id: number }>('SELECT id FROM users WHERE is_demo = 1'))[0]?.id;
    // 500 USDT at 0.05 in an undersubscribed offering: 10,000 coins, nothing refunded.
    expect(spot(String(demoId), 'LUMA').balance).toBe(10_000n * COIN);
  });

  it('refuses bad terms and a taken symbol to staff, and the desk to a role without the permission', async () => {
    await start();
    const admin = await signIn(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
    const now = t.clock.now();
    const create = (json: Record<string, unknown>) => (lang: string) =>
      t.call('POST', '/admin/coin-offerings', { token: admin, lang, json: { ...terms(now), ...json } });
    await refused(create({ opensAt: now - 1 }), 'coin_offering_window_invalid');
    await refused(create({ closesAt: now + HOUR }), 'coin_offering_window_invalid');
    await refused(create({ minCommit: '200' }), 'coin_offering_terms_invalid');
    await refused(create({ unit: '0.00000001', price: '0.10' }), 'coin_offering_terms_invalid');
    await refused(create({ symbol: 'BTC' }), 'coin_offering_symbol_taken');
    const listed = (await t.call('GET', '/admin/coin-offerings', { token: admin })).body.data.items;
    expect(listed).toEqual([]);
    // Support staff may not open the desk, nor create an offering.
    const sam = await colleague(admin, 'sam', 'support');
    await refused((lang) => t.call('GET', '/admin/coin-offerings', { token: sam, lang }), 'forbidden');
    await refused(
      (lang) => t.call('POST', '/admin/coin-offerings', { token: sam, lang, json: terms(t.clock.now()) }),
      'forbidden',
    );

    await refused((lang) => t.call('POST', '/coin/order/new/list', { lang, json: {} }), 'not_logged_in');
  });

  // --- crashes and the close -------------------------------------------------------------------------

  /** An approved offering of 10 lots of 100 coins at 0.10 (10 USDT a lot), open now. */
  const openOffering = async () => {
    const admin = await signIn(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
    const fiona = await colleague(admin);
    const created = await t.call('POST', '/admin/coin-offerings', {
      token: admin,
      json: { ...terms(t.clock.now()), unit: '100' },
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const id = created.body.data.id as number;
    const decided = await t.call('POST', `/admin/coin-offerings/${id}/decide`, {
      token: fiona,
      json: { decision: 'approve', reason: 'terms and risk text checked' },
    });
    expect(decided.body.code).toBe(0);
    await t.advance(HOUR);
    return id;
  };
  /** The same service on the same database and engine, whose engine "crashes" around one kind of command. */
  const crashingService = (crash: (command: { type: string }) => 'before' | 'after' | null | Promise<null>) => {
    const engine = new Proxy(t.app.engine, {
      get(target, prop) {
        if (prop === 'submit') {
          return async (command: Parameters<TradingEngine['submit']>[0]) => {
            const when = await crash(command);
            if (when === 'before') throw new Error('simulated crash');
            const answer = await target.submit(command);
            if (when === 'after') throw new Error('simulated crash');
            return answer;
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return new CoinOfferings({
      db,
      engine: engine as TradingEngine,
      clock: t.clock,
      accounts: t.app.accounts,
      listings: t.app.listings,
    });
  };
  const stored = async (id: number) =>
    db.query<Record<string, unknown>>(
      'SELECT id, status, alloc_coins, alloc_pay, alloc_refund FROM coin_commitments WHERE offering_id = $1 ORDER BY id',
      [id],
    );
  /** 21 lots asked for 10: Alice and Bob (10 lots each) get 5, Carol (1 lot) gets nothing. */
  const oversubscribe = async (id: number) => {
    const people = [
      await customer('9300000011', '100'),
      await customer('9300000012', '100'),
      await customer('9300000013', '10'),
    ];
    for (const [k, amount] of ['100', '100', '10'].entries()) {
      const answer = await apply((people[k] as { token: string }).token, { id, amount });
      expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    }
    return people as [{ id: string; token: string }, { id: string; token: string }, { id: string; token: string }];
  };
  /** Every hold settled or released once: what each one paid and got, and nothing left held. */
  const expectSettled = async (id: number, people: { id: string }[]) => {
    const rows = (await stored(id)).slice(0, 3);
    expect(rows.map((r) => r.status)).toEqual(['allotted', 'allotted', 'not_allotted']);
    const [alice, bob, carol] = people as [{ id: string }, { id: string }, { id: string }];
    expect(spot(alice.id, 'USDT')).toMatchObject({ balance: USDT('50'), held: 0n });
    expect(spot(bob.id, 'USDT')).toMatchObject({ balance: USDT('50'), held: 0n });
    expect(spot(carol.id, 'USDT')).toMatchObject({ balance: USDT('10'), held: 0n });
    expect(spot(alice.id, symbol).balance).toBe(500n * COIN);
    expect(spot(bob.id, symbol).balance).toBe(500n * COIN);
    expect(spot(carol.id, symbol).balance).toBe(0n);
    for (const r of rows) expect(t.app.engine.state.fundsHold(commitmentHoldId(Number(r.id)))).toBeUndefined();
    const info = (await t.call('POST', '/coin/new/info', { json: { id } })).body.data;
    expect(info).toMatchObject({ phase: 'listed', sold: '1000.00000000' });
    expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
  };

  it('finishes an allotment interrupted after its settlement was sent, with the allocation it stored', async () => {
    await start();
    const id = await openOffering();
    const people = await oversubscribe(id);
    t.clock.advance(2 * HOUR);
    // The settlement goes through, then the process dies before any status moved.
    const crashed = crashingService((c) => (c.type === 'settle_allotment' ? 'after' : null));
    await expect(crashed.settleDue()).rejects.toThrow('simulated crash');
    const before = await stored(id);
    expect(before).toEqual([
      expect.objectContaining({ status: 'subscribed', alloc_coins: '500.00000000', alloc_pay: '50.000000' }),
      expect.objectContaining({ status: 'subscribed', alloc_coins: '500.00000000', alloc_refund: '50.000000' }),
      expect.objectContaining({ status: 'subscribed', alloc_coins: '0.00000000', alloc_refund: '10.000000' }),
    ]);
    // Restarted: the job resumes from the stored rows (Carol, who got nothing, is still counted).
    await t.advance(0);
    expect((await stored(id)).map((r) => [r.alloc_coins, r.alloc_pay, r.alloc_refund])).toEqual(
      before.map((r) => [r.alloc_coins, r.alloc_pay, r.alloc_refund]),
    );
    await expectSettled(id, people);
  }, 60_000);

  it('finishes an allotment interrupted before its settlement was sent, and releases a hold it did not count', async () => {
    await start();
    const id = await openOffering();
    const people = await oversubscribe(id);
    t.clock.advance(2 * HOUR);
    const crashed = crashingService((c) => (c.type === 'settle_allotment' ? 'before' : null));
    await expect(crashed.settleDue()).rejects.toThrow('simulated crash');
    const allocated = await db.query<{ allocated_at: unknown }>(
      'SELECT allocated_at FROM coin_offerings WHERE id = $1',
      [id],
    );
    expect(allocated[0]?.allocated_at).not.toBeNull();
    // After the close no commitment is recorded, even one whose window check passed a moment before.
    const late = await customer('9300000014', '50');
    const lateRow = await db.query(
      `INSERT INTO coin_commitments (offering_id, user_id, amount, status, created_at, updated_at)
       SELECT CAST($1 AS BIGINT), CAST($2 AS BIGINT), '50.000000', 'subscribed', CAST($3 AS BIGINT), CAST($3 AS BIGINT)
        WHERE EXISTS (SELECT 1 FROM coin_offerings WHERE id = CAST($1 AS BIGINT) AND status = 'approved'
          AND allocated_at IS NULL AND closes_at > CAST($3 AS BIGINT)) RETURNING id`,
      [id, Number(late.id), t.clock.now()],
    );
    expect(lateRow).toEqual([]);
    await refused(
      (lang) => apply(late.token, { id, amount: '50' }, lang),
      'coin_offering_not_open',
      {},
      async () => spot(late.id, 'USDT'),
    );
    // A commitment whose hold landed after the allotment read the list (as a request in flight at the
    // close would): left out of the stored allocation, its hold is released by the job, all of it.
    const [straggler] = await db.query<{ id: number }>(
      `INSERT INTO coin_commitments (offering_id, user_id, amount, status, created_at, updated_at)
       VALUES ($1, $2, '50.000000', 'subscribed', $3, $3) RETURNING id`,
      [id, Number(late.id), t.clock.now() - 1],
    );
    const strayId = Number(straggler?.id);
    const held = await t.app.engine.submit({
      type: 'hold_funds',
      id: commitmentHoldId(strayId),
      userId: late.id,
      wallet: 'spot',
      asset: 'USDT',
      amount: '50',
      cause: 'allotment',
      link: commitmentHoldId(strayId),
    });
    expect(held.ok).toBe(true);
    await t.advance(0);
    await expectSettled(id, people);
    expect(spot(late.id, 'USDT')).toMatchObject({ balance: USDT('50'), held: 0n });
    const stray = (await stored(id)).find((r) => Number(r.id) === strayId);
    expect(stray).toMatchObject({ status: 'not_allotted', alloc_coins: null });
    const mine = (await t.call('POST', '/coin/order/new/list', { token: late.token, json: {} })).body.data.items;
    expect(mine[0]).toMatchObject({ status: 'not_allotted', refunded: '50.000000', paid: '0.000000' });
  }, 60_000);

  it('settles in batches of 2 with distinct ids, and a fresh job resumes after a crash between batches', async () => {
    await start();
    const id = await openOffering();
    // 20 lots asked for 10: pro-rata is exactly half of each commitment.
    const amounts = ['40', '40', '20', '60', '40'];
    const people = [];
    for (const [k, amount] of amounts.entries()) {
      const who = await customer(`93000000${21 + k}`, '100');
      const answer = await apply(who.token, { id, amount });
      expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
      people.push(who);
    }
    const holds = (await stored(id)).map((r) => commitmentHoldId(Number(r.id)));
    const service = (engine: TradingEngine) =>
      new CoinOfferings({
        db,
        engine,
        clock: t.clock,
        accounts: t.app.accounts,
        listings: t.app.listings,
        batchMax: 2,
      });
    const made = (batchMax: number) => () =>
      new CoinOfferings({
        db,
        engine: t.app.engine,
        clock: t.clock,
        accounts: t.app.accounts,
        listings: t.app.listings,
        batchMax,
      });
    for (const wrong of [0, 2.5, ALLOTMENT_BATCH_MAX + 1]) expect(made(wrong)).toThrow(RangeError);
    t.clock.advance(2 * HOUR);

    // The close: a job with batches of 2 (three batches) dies just after the engine took the first.
    const crashed = allotmentSpy(t.app.engine, { at: 1, when: 'after' });
    await expect(service(crashed.engine).settleDue()).rejects.toThrow('simulated crash');
    expect(crashed.sent).toEqual([
      { id: `coin-offering:${id}:allot:${holds[0]?.split(':')[1]}`, holds: holds.slice(0, 2), ok: true },
    ]);
    for (const [k, who] of people.entries())
      expect(spot(who.id, 'USDT').held, `customer ${k}`).toBe(k < 2 ? 0n : USDT(amounts[k]!));
    expect((await stored(id)).map((r) => r.status)).toEqual(amounts.map(() => 'subscribed'));

    // A fresh job (same batch size) sends only the two batches left, under ids of their own.
    const resumed = allotmentSpy(t.app.engine);
    await service(resumed.engine).settleDue();
    expect(resumed.sent.map((b) => [b.holds, b.ok])).toEqual([
      [holds.slice(2, 4), true],
      [holds.slice(4), true],
    ]);
    const ids = [...crashed.sent, ...resumed.sent].map((b) => b.id);
    expect(new Set(ids).size).toBe(3);
    const idle = allotmentSpy(t.app.engine);
    await service(idle.engine).settleDue();
    expect(idle.sent).toEqual([]);

    // Exactly what one batch would have left: half of each commitment paid for half its coins, the rest
    // refunded, nothing held; 1,000 coins sold for 100 USDT.
    for (const [k, who] of people.entries()) {
      const paid = USDT(amounts[k]!) / 2n;
      expect(spot(who.id, 'USDT'), `customer ${k}`).toMatchObject({ balance: USDT('100') - paid, held: 0n });
      expect(spot(who.id, symbol).balance).toBe(BigInt(amounts[k]!) * 5n * COIN);
    }
    expect((await stored(id)).map((r) => [r.status, r.alloc_pay])).toEqual(
      amounts.map((a) => ['allotted', `${Number(a) / 2}.000000`]),
    );
    expect(t.app.engine.state.balance(`platform:${LAUNCHPAD_ISSUER}`, 'platform', 'USDT').balance).toBe(USDT('100'));
    const info = (await t.call('POST', '/coin/new/info', { json: { id } })).body.data;
    expect(info).toMatchObject({ phase: 'listed', sold: '1000.00000000' });
    // The journal holds the three batches once each, every hold in exactly one of them.
    const settles = (await db.query<{ command: string }>('SELECT command FROM engine_journal ORDER BY seq'))
      .map((r) => decodeCommand(r.command))
      .filter((x) => x.type === 'settle_allotment' && x.to === LAUNCHPAD_ISSUER);
    expect(settles.map((x) => x.id)).toEqual(ids);
    expect(settles.flatMap((x) => (x.type === 'settle_allotment' ? x.entries.map((e) => e[0]) : []))).toEqual(holds);
    expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
  }, 60_000);

  it('releases at once a hold that lands after the allotment was stored without it', async () => {
    await start();
    const id = await openOffering();
    const people = await oversubscribe(id);
    const late = await customer('9300000015', '50');
    const userId = Number(late.id);
    // The close passes and the job allots (and sweeps) while this commitment's hold is in flight.
    const racing = crashingService(async (c) => {
      if (c.type === 'hold_funds') await t.advance(2 * HOUR);
      return null;
    });
    const view = await racing.apply(userId, { id: String(id), amount: '50', password: PIN });
    expect(view).toMatchObject({ status: 'not_allotted', refunded: '50.000000' });
    expect(spot(late.id, 'USDT')).toMatchObject({ balance: USDT('50'), held: 0n });
    await expectSettled(id, people);
  }, 60_000);
});
