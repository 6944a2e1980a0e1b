// IPO subscription through the real HTTP stack on SQLite and PostgreSQL: the console creates an IPO
// and a second staff member publishes it; customers apply online (held) and offline (not held), cancel,
// and are refused with every rule's code in both languages (nothing changed); the close runs the seeded
// draw and settles the holds through the engine (checked on balances); the public record re-runs
// (in-process and through scripts/verify-ipo-draw.ts); an offline allottee pays or forfeits; listing day
// releases the locked shares; auto-subscribe applies or skips with a record.
// In batches of 2 (batchMax) a draw settles in one command per batch, and a fresh job resumes after a
// crash between batches without re-sending the one that went through.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyIpoDrawRecord } from '@bourse/contract/ipo-draw';
import { testDatabases } from '@bourse/db';
import { ALLOTMENT_BATCH_MAX, decodeCommand } from '@bourse/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { loadStockSettings } from '../../config.ts';
import { totpNow } from '../../platform/totp.ts';
import { allotmentSpy, testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';
import * as ipoRepo from './repo.ts';
import { applicationHoldId } from './service.ts';

const dbs = await testDatabases();
const PIN = '246810';
type T = Awaited<ReturnType<typeof testApp>>;
const root = new URL('../../../../../', import.meta.url).pathname;

/** Each customer starts with ₹1,00,000 (so the retail ceiling is above what they hold). */
const GRANTS = [{ wallet: 'stock' as const, asset: 'INR', amount: '100000.00' }];
// The test clock starts on Monday 5 January 2026, 09:30 in Mumbai.
const IPO = {
  issuer: 'Acme Rail Ltd',
  exchange: 'NSE',
  symbol: 'ACMERAIL',
  name: 'Acme Rail',
  priceLow: '95',
  priceHigh: '100',
  lotSize: 100,
  totalShares: '600',
  retailPct: 50,
  niiPct: 35,
  qibPct: 15,
  opensOn: '2026-01-06',
  closesOn: '2026-01-08',
};

describe.each(dbs)('IPO subscription on $dialect', ({ dialect, open }) => {
  let t: T;
  let closeDb: () => Promise<void>;
  let db: Awaited<ReturnType<typeof open>>;
  const start = async (overrides: Record<string, unknown> = {}) => {
    db = await open();
    closeDb = () => db.close();
    t = await testApp(db, { paperGrants: GRANTS, ...overrides });
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
  const staffPair = async () => {
    const admin = await signIn(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
    const created = (
      await t.call('POST', '/admin/staff/create', {
        token: admin,
        json: { username: 'fiona', role: 'finance', reason: 'second approver for IPOs' },
      })
    ).body.data;
    t.clock.advance(30_000); // a new TOTP step: each code signs in once
    return { admin, fiona: await signIn('fiona', created.initialPassword, created.totpSecret) };
  };
  /** The administrator signed in anew (staff sessions end long before an IPO's listing day). */
  const adminNow = () => {
    t.clock.advance(30_000);
    return signIn(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
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
  // Listing adds to the process's one instrument catalogue: the test that lists uses a symbol per database.
  const LISTED = `RAIL${dialect === 'sqlite' ? 'SQ' : 'PG'}`;
  const shares = (userId: number) => t.app.engine.state.balance(String(userId), 'stock', `SHARE:NSE:${LISTED}`);
  const published = async (symbol = IPO.symbol) => {
    const { admin, fiona } = await staffPair();
    const created = await t.call('POST', '/admin/ipos', { token: admin, json: { ...IPO, symbol } });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const id = created.body.data.id as number;
    const approved = await t.call('POST', '/admin/ipos/review', {
      token: fiona,
      json: { id, approve: true, reason: 'prospectus checked' },
    });
    expect(approved.body.data.status).toBe('upcoming');
    return { admin, fiona, id };
  };
  /** Moves the clock to `iso` and runs the IPO job. */
  const at = async (iso: string) => {
    t.clock.set(Date.parse(iso));
    await t.app.ipos.tick();
  };
  const apply = (token: string, body: Record<string, string | undefined>, lang = 'en-US') =>
    t.call('POST', '/stock/order/new/apply', { token, lang, body: { password: PIN, ...body } });

  it('publishes only after a second staff member approves; every action audited; bad listings refused', async () => {
    await start();
    const { admin, fiona } = await staffPair();
    const created = await t.call('POST', '/admin/ipos', { token: admin, json: IPO });
    expect(created.body.data).toMatchObject({
      status: 'draft',
      opensAt: Date.parse('2026-01-06T09:15:00+05:30'),
      closesAt: Date.parse('2026-01-08T15:30:00+05:30'),
      // T+3 working days after Thursday the 8th: Tuesday the 13th.
      listingAt: Date.parse('2026-01-13T09:15:00+05:30'),
      seedHash: null,
    });
    const id = created.body.data.id as number;
    // A draft is not public.
    expect((await t.call('GET', `/stock/index/new/info?id=${id}`)).body.error).toBe('ipo_not_found');
    for (const [lang, msg] of [
      ['en-US', 'A different staff member must approve or reject this IPO'],
      ['pt-BR', 'Outro membro da equipe deve aprovar ou rejeitar este IPO'],
    ]) {
      const self = await t.call('POST', '/admin/ipos/review', {
        token: admin,
        lang,
        json: { id, approve: true, reason: 'my own listing' },
      });
      expect(self.body).toMatchObject({ error: 'ipo_second_approver', msg });
    }
    expect((await t.call('GET', `/admin/ipos/info?id=${id}`, { token: admin })).body.data.status).toBe('draft');
    const approved = await t.call('POST', '/admin/ipos/review', {
      token: fiona,
      json: { id, approve: true, reason: 'prospectus checked' },
    });
    expect(approved.body.data).toMatchObject({ status: 'upcoming', approvedBy: expect.any(Number) });
    expect(
      (await t.call('GET', '/stock/index/new/list/coming')).body.data.items.map((i: { id: number }) => i.id),
    ).toEqual([id]);
    const again = await t.call('POST', '/admin/ipos/review', {
      token: fiona,
      json: { id, approve: false, reason: 'not needed' },
    });
    expect(again.body.error).toBe('ipo_not_reviewable');
    const audit = (await t.call('GET', '/admin/audit?limit=50', { token: admin })).body.data.items as {
      action: string;
      targetType: string;
      targetId: string;
    }[];
    expect(
      audit
        .filter((a) => a.targetType === 'ipo' && a.targetId === String(id))
        .map((a) => a.action)
        .sort(),
    ).toEqual(['ipo.approve', 'ipo.create']);

    const bad: [Record<string, unknown>, string, string][] = [
      [{ priceLow: '101' }, 'ipo_band_invalid', 'A faixa de preço precisa'],
      [{ retailPct: 60 }, 'ipo_split_invalid', 'As parcelas de varejo'],
      [{ totalShares: '650' }, 'ipo_shares_invalid', 'O número de ações'],
      // One lot must cost ₹10,000–15,000 at the top of the band (100 × ₹99 and 100 × ₹151 do not).
      [{ priceLow: '90', priceHigh: '99' }, 'ipo_lot_value_invalid', ''],
      [{ priceHigh: '151' }, 'ipo_lot_value_invalid', ''],
      [{ lotSize: 3000, totalShares: '6000' }, 'ipo_lot_value_invalid', ''],
      [{ opensOn: '2026-01-05' }, 'ipo_dates_invalid', 'A oferta deve abrir'],
      [{ opensOn: '2026-01-10' }, 'ipo_dates_invalid', 'A oferta deve abrir'], // a Saturday
      [{ symbol: 'RELIANCE' }, 'ipo_symbol_taken', 'Este código já é usado'],
      [{}, 'ipo_symbol_taken', 'Este código já é usado'], // ACMERAIL exists now
      [{ symbol: 'acme' }, 'ipo_symbol_invalid', 'Use de 2 a 16 letras'],
    ];
    for (const [change, code, pt] of bad) {
      const en = await t.call('POST', '/admin/ipos', { token: admin, json: { ...IPO, ...change } });
      expect(en.body.error, JSON.stringify(change)).toBe(code);
      const ptAnswer = await t.call('POST', '/admin/ipos', {
        token: admin,
        lang: 'pt-BR',
        json: { ...IPO, ...change },
      });
      if (pt) expect(ptAnswer.body.msg).toContain(pt);
    }
    for (const [lang, msg] of [
      ['en-US', 'One lot at the top of the price band must cost from ₹10,000.00 to ₹15,000.00'],
      ['pt-BR', 'Um lote no topo da faixa de preço deve custar de ₹\u00a010.000,00 a ₹\u00a015.000,00'],
    ]) {
      const dear = await t.call('POST', '/admin/ipos', { token: admin, lang, json: { ...IPO, priceHigh: '151' } });
      expect(dear.body).toMatchObject({ error: 'ipo_lot_value_invalid', msg });
    }
    expect((await t.call('GET', '/admin/ipos', { token: admin })).body.data.total).toBe(1);
    // A customer cannot reach the desk.
    const someone = await customer('9300000099');
    expect((await t.call('GET', '/admin/ipos', { token: someone.token })).body.error).toBe('forbidden');
  });

  it('applies, refuses, cancels, draws by the committed seed, settles on balances, pays, forfeits and lists', async () => {
    await start();
    const { id } = await published(LISTED);
    const c = await Promise.all(
      ['01', '02', '03', '04', '05', '06', '07', '08', '09'].map((n) => customer(`93000000${n}`)),
    );
    type C = (typeof c)[number];
    const [a, b, cc, d, e, f, g, h, i] = c as [C, C, C, C, C, C, C, C, C];
    // Not open yet.
    expect((await apply(a.token, { ipoId: String(id), bid1Lots: '1', bid1Price: 'cutoff' })).body.error).toBe(
      'ipo_not_open',
    );

    await at('2026-01-06T09:15:00+05:30');
    const info = (await t.call('GET', `/stock/index/new/info?id=${id}`)).body.data;
    expect(info).toMatchObject({ status: 'open', seed: null, maxRetailLots: 20, issuePrice: null });
    expect(info.seedHash).toMatch(/^[0-9a-f]{64}$/);
    // The beacon round the draw will mix in is fixed now: the first published 30 s or more after the close.
    const closesAt = Date.parse('2026-01-08T15:30:00+05:30');
    expect(info.beacon.source).toBe('sandbox');
    expect(info.beacon.roundTime).toBeGreaterThanOrEqual(closesAt + 30_000);
    expect(info.beacon.roundTime).toBeLessThan(closesAt + 33_000);
    // The commitment is in the append-only audit log too (a replaced seed or round would contradict it).
    const committed = (await t.call('GET', '/admin/audit?limit=50', { token: await adminNow() })).body.data.items.find(
      (a: { action: string; targetId: string }) => a.action === 'ipo.draw_committed' && a.targetId === String(id),
    );
    expect(committed.detail).toEqual({
      seedHash: info.seedHash,
      beacon: { source: 'sandbox', round: info.beacon.round },
    });
    expect((await t.call('GET', '/stock/index/new/today')).body.data.items).toHaveLength(1);

    // Every rule's refusal, in both languages, changing nothing.
    const before = inr(a.id);
    const cases: [string, Record<string, string>, string, string, string][] = [
      [
        'zero lots',
        { bid1Lots: '0', bid1Price: 'cutoff' },
        'ipo_lots_invalid',
        'IPO bids are in a minimum lot and its multiples',
        'Os lances de IPO são em lote mínimo e seus múltiplos',
      ],
      [
        'a bid without its price',
        { bid1Lots: '1', bid1Price: 'cutoff', bid2Lots: '2' },
        'ipo_bid_incomplete',
        'Each bid needs both its number of lots and its price',
        'Cada lance precisa do número de lotes e do preço',
      ],
      [
        'below the band',
        { bid1Lots: '1', bid1Price: '94.95' },
        'ipo_price_out_of_band',
        'The bid price must be within the price band (95.00 – 100.00)',
        'O preço do lance deve estar dentro da faixa de preço (95.00 – 100.00)',
      ],
      [
        'above the retail ceiling',
        { bid1Lots: '21', bid1Price: 'cutoff' },
        'ipo_retail_limit',
        'An online application can bid at most ₹200,000.00; apply offline for more',
        'Um pedido online pode ser de no máximo ₹\u00a0200.000,00; faça um pedido offline para valores maiores',
      ],
      [
        'more than the account holds',
        { bid1Lots: '11', bid1Price: 'cutoff' },
        'ipo_insufficient_funds',
        'Account insufficient for the subscription amount',
        'Saldo da conta insuficiente para o valor da subscrição',
      ],
      [
        'a wrong transaction password',
        { bid1Lots: '1', bid1Price: 'cutoff', password: '111111' },
        'trade_password_incorrect',
        '',
        '',
      ],
      [
        'an IPO that does not exist',
        { ipoId: '999', bid1Lots: '1', bid1Price: 'cutoff' },
        'ipo_not_found',
        'IPO not found',
        'IPO não encontrado',
      ],
    ];
    for (const [name, body, code, en, pt] of cases) {
      const x = await apply(a.token, { ipoId: String(id), ...body }, 'en-US');
      expect(x.body.error, `${name}: ${JSON.stringify(x.body)}`).toBe(code);
      if (en) expect(x.body.msg, name).toBe(en);
      const y = await apply(a.token, { ipoId: String(id), ...body }, 'pt-BR');
      if (pt) expect(y.body.msg, name).toBe(pt);
      else expect(y.body.msg, name).not.toBe(x.body.msg);
    }
    expect(inr(a.id)).toEqual(before);
    expect((await t.call('GET', '/stock/order/new/list', { token: a.token })).body.data.total).toBe(0);

    // a: two bids; the larger amount (3 lots at 97 = ₹29,100) is held; 2 lots count at the issue price.
    const aApp = await apply(a.token, {
      ipoId: String(id),
      bid1Lots: '2',
      bid1Price: 'cutoff',
      bid2Lots: '3',
      bid2Price: '97',
    });
    expect(aApp.body.data.application).toMatchObject({ status: 'applying', heldAmount: '29100.00', channel: 'online' });
    expect(inr(a.id)).toMatchObject({ balance: 10_000_000n, held: 2_910_000n });
    expect((await apply(a.token, { ipoId: String(id), bid1Lots: '1', bid1Price: 'cutoff' })).body.error).toBe(
      'ipo_already_applied',
    );
    for (const [who, price] of [
      [b, '100'],
      [cc, 'cutoff'],
      [d, '96'], // below the issue price: cannot be allotted
      [e, 'cutoff'],
      [f, 'cutoff'],
      [g, '100'],
    ] as const) {
      const r = await apply(who.token, { ipoId: String(id), bid1Lots: '1', bid1Price: price });
      expect(r.body.code, JSON.stringify(r.body)).toBe(0);
    }
    // e cancels before the close: the hold is released. Another customer's id answers not found.
    const eApp = (await t.call('GET', '/stock/order/new/list', { token: e.token })).body.data.items[0];
    expect(
      (await t.call('POST', '/stock/order/new/cancel', { token: a.token, body: { id: String(eApp.id) } })).body.error,
    ).toBe('ipo_application_not_found');
    const cancelled = await t.call('POST', '/stock/order/new/cancel', {
      token: e.token,
      body: { id: String(eApp.id) },
    });
    expect(cancelled.body.data.application.status).toBe('unsubscribed');
    expect(inr(e.id)).toMatchObject({ held: 0n, balance: 10_000_000n });

    // Offline: above ₹2,00,000, no cut-off, nothing held.
    const offline = (token: string, body: Record<string, string>, lang = 'en-US') =>
      t.call('POST', '/stock/order/offline/apply', {
        token,
        lang,
        body: { password: PIN, ipoId: String(id), ...body },
      });
    expect((await offline(h.token, { lots: '20', price: '100' })).body.error).toBe('ipo_offline_minimum');
    expect((await offline(h.token, { lots: '20', price: '100' }, 'pt-BR')).body.msg).toBe(
      'Um pedido offline deve ser de mais de ₹\u00a0200.000,00',
    );
    expect((await offline(h.token, { lots: '25', price: 'cutoff' })).body.error).toBe('ipo_cutoff_not_allowed');
    expect((await offline(h.token, { lots: '25', price: '100' })).body.data.application).toMatchObject({
      channel: 'offline',
      heldAmount: '0.00',
    });
    expect((await offline(i.token, { lots: '30', price: '100' })).body.code).toBe(0);
    expect(inr(h.id).held).toBe(0n);

    const subscription = (await t.call('GET', `/stock/index/new/info?id=${id}`)).body.data.subscription;
    expect(subscription[0]).toMatchObject({ category: 'retail', offered: '300', applied: '600', applications: 6 });
    expect(subscription[1]).toMatchObject({ category: 'nii', offered: '200', applied: '5500', times: '27.50' });

    // The close: applications stop, and the draw waits for the beacon round (published after the close).
    await at('2026-01-08T15:30:00+05:30');
    expect((await t.call('GET', `/stock/index/new/info?id=${id}`)).body.data).toMatchObject({
      status: 'closed',
      seed: null,
    });
    expect((await t.call('GET', `/stock/index/new/draw?ipoId=${id}`)).body.error).toBe('ipo_draw_not_ready');
    // The round is out: the draw runs on SHA-256(committed seed ‖ round); retail is a lottery of 3 one-lot winners among 5.
    t.clock.set(info.beacon.roundTime);
    await t.app.ipos.tick();
    const drawn = (await t.call('GET', `/stock/index/new/info?id=${id}`)).body.data;
    expect(drawn).toMatchObject({ status: 'allotted', drawMode: 'lottery', issuePrice: '100.00' });
    expect(createHash('sha256').update(Buffer.from(drawn.seed, 'hex')).digest('hex')).toBe(info.seedHash);
    const record = (await t.call('GET', `/stock/index/new/draw?ipoId=${id}`)).body.data;
    expect(record.applications).toHaveLength(5);
    expect(record.allotments).toHaveLength(3);
    expect(record).toMatchObject({
      algorithm: 'bourse-ipo-draw-v2',
      closesAt,
      beacon: { source: 'sandbox', round: info.beacon.round, signature: null },
    });
    expect(verifyIpoDrawRecord(record)).toEqual({ ok: true, problems: [], beacon: 'sandbox' });
    // The command-line verifier agrees from the file, and catches a forged record.
    const dir = mkdtempSync(join(tmpdir(), 'ipo-draw-'));
    writeFileSync(join(dir, 'record.json'), JSON.stringify({ code: 0, msg: '', data: record }));
    const out = execFileSync(process.execPath, ['scripts/verify-ipo-draw.ts', join(dir, 'record.json')], {
      cwd: root,
    }).toString();
    expect(JSON.parse(out)).toMatchObject({ ok: true, allottees: 3, mode: 'lottery', beacon: 'sandbox' });
    const loser = record.applications.find(
      (x: { ref: string }) => !record.allotments.some((w: { ref: string }) => w.ref === x.ref),
    );
    writeFileSync(
      join(dir, 'forged.json'),
      JSON.stringify({ ...record, allotments: [loser, ...record.allotments.slice(1)] }),
    );
    expect(() =>
      execFileSync(process.execPath, ['scripts/verify-ipo-draw.ts', join(dir, 'forged.json')], {
        cwd: root,
        stdio: 'pipe',
      }),
    ).toThrow();

    // Balances: each winner paid ₹10,000 (hold posted) and holds 100 locked shares; every other hold released.
    const winners = new Set(record.allotments.map((w: { ref: string }) => w.ref));
    let allotted = 0;
    for (const who of [a, b, cc, d, f, g]) {
      const app = (await t.call('GET', '/stock/order/new/list', { token: who.token })).body.data.items[0];
      if (winners.has(app.ref)) {
        allotted++;
        expect(app).toMatchObject({ status: 'allocated', allottedShares: '100', allottedAmount: '10000.00' });
        expect(inr(who.id)).toMatchObject({ balance: 9_000_000n, held: 0n });
        expect(shares(who.id)).toMatchObject({ balance: 100n, held: 100n });
      } else {
        expect(app.status).toBe('not_allotted');
        expect(inr(who.id)).toMatchObject({ balance: 10_000_000n, held: 0n });
      }
    }
    expect(allotted).toBe(3);
    const dApp = (await t.call('GET', '/stock/order/new/list', { token: d.token })).body.data.items[0];
    expect(dApp).toMatchObject({ status: 'not_allotted', reason: 'every bid was below the issue price' });

    // NII pro-rata: 200 shares between asks of 2,500 and 3,000: one lot each (largest remainder).
    const hApp = (await t.call('GET', '/stock/order/offline/list', { token: h.token })).body.data.items[0];
    const iApp = (await t.call('GET', '/stock/order/offline/list', { token: i.token })).body.data.items[0];
    expect(hApp).toMatchObject({ status: 'wait_for_payment', allottedShares: '100', allottedAmount: '10000.00' });
    expect(iApp.paymentDueAt).toBe(info.beacon.roundTime + 24 * 3_600_000); // 24 h from the draw
    // h pays: held and settled in one step, shares locked until listing.
    const pay = (token: string, appId: number, lang = 'en-US') =>
      t.call('POST', '/stock/order/offline/pay', { token, lang, body: { id: String(appId), password: PIN } });
    expect((await pay(a.token, hApp.id)).body.error).toBe('ipo_application_not_found');
    expect((await pay(h.token, hApp.id)).body.data.application.status).toBe('paid');
    expect(inr(h.id)).toMatchObject({ balance: 9_000_000n, held: 0n });
    expect(shares(h.id)).toMatchObject({ balance: 100n, held: 100n });
    // Before listing day the holding is there, locked, valued at the issue price it was paid at.
    const preListing = (await t.call('GET', '/stock/hold/list', { token: h.token })).body.data.items;
    expect(preListing).toContainEqual(
      expect.objectContaining({
        symbol: `NSE:${LISTED}`,
        quantity: '100',
        sellable: '0',
        locked: '100',
        avgPrice: '100.00',
        marketValue: '10000.00',
        currency: 'INR',
      }),
    );
    expect((await pay(h.token, hApp.id, 'pt-BR')).body.error).toBe('ipo_not_payable');
    // i lets the window pass: forfeited with the reason; nothing moved.
    await at('2026-01-09T15:31:00+05:30');
    const iAfter = (await t.call('GET', '/stock/order/offline/list', { token: i.token })).body.data.items[0];
    expect(iAfter).toMatchObject({ status: 'forfeited', reason: 'payment window passed' });
    expect(inr(i.id)).toMatchObject({ balance: 10_000_000n, held: 0n });
    expect((await pay(i.token, iApp.id)).body.error).toBe('ipo_not_payable');

    // Listing day: not before it; then the locked shares are released.
    expect(
      (await t.call('POST', '/admin/ipos/list', { token: await adminNow(), json: { id, reason: 'listing' } })).body
        .error,
    ).toBe('ipo_not_listable');
    await at('2026-01-13T09:15:00+05:30');
    expect((await t.call('GET', `/admin/ipos/info?id=${id}`, { token: await adminNow() })).body.data.status).toBe(
      'listed',
    );
    expect(shares(h.id)).toMatchObject({ balance: 100n, held: 0n });
    for (const who of [a, b, cc, f, g]) expect(shares(who.id).held).toBe(0n);
    // The stock is on the market (runtime listing), starting at the issue price, and the holding is sellable.
    expect(t.app.market.instrument(`NSE:${LISTED}`)).toMatchObject({ exchange: 'NSE', symbol: LISTED });
    const holding = await t.call('GET', `/stock/hold/info?symbol=NSE:${LISTED}`, { token: h.token });
    expect(holding.body.data, JSON.stringify(holding.body)).toMatchObject({
      quantity: '100',
      sellable: '100',
      locked: '0',
      // Bought in the allotment at the issue price (₹10,000 for 100 shares).
      avgPrice: '100.00',
    });
    // The issuer received exactly the allotted money: 4 lots of ₹10,000.
    // Its account is the IPO's own (issuer:ipo-<id>): a symbol may be shared by two exchanges or a coin offering.
    const issuer = t.app.engine.state.balance(`platform:issuer:ipo-${id}`, 'platform', 'INR');
    expect(issuer.balance).toBe(4_000_000n);
  }, 90_000); // nine customers and four timed steps: slow on a shared machine

  it('repairs what a crash or a race leaves: holds of cancelled, late and forfeited rows released; a settled payment kept', async () => {
    await start();
    const symbol = `CRSH${dialect === 'sqlite' ? 'SQ' : 'PG'}`;
    const { id } = await published(symbol);
    const all = await Promise.all(['11', '12', '13', '14', '15', '16', '17'].map((n) => customer(`93000004${n}`)));
    type C = (typeof all)[number];
    const [a, b, c, d, e, f, g] = all as [C, C, C, C, C, C, C];
    const holdOf = (appId: number) => `ipo-app:${appId}`;
    const engineHold = (userId: number, appId: number) =>
      t.app.engine.submit({
        type: 'hold_funds',
        id: holdOf(appId),
        userId: String(userId),
        wallet: 'stock',
        asset: 'INR',
        amount: '10000.00',
        cause: 'allotment',
        link: `ipo-application:${appId}`,
      });
    const rowOf = async (appId: number) => (await ipoRepo.findApplication(db, appId)) as ipoRepo.ApplicationRow;
    const bareRow = (userId: number) =>
      ipoRepo.insertApplication(db, {
        ipoId: id,
        userId,
        channel: 'online',
        auto: false,
        bids: [{ lots: 1, priceMinor: '10000', cutOff: true }],
        demandLots: 1,
        holdMinor: 1_000_000n,
        at: t.clock.now(),
      });
    await at('2026-01-06T09:15:00+05:30');

    // a cancels, and the server dies between the row's move and the release: start-up releases the hold.
    const aApp = (await apply(a.token, { ipoId: String(id), bid1Lots: '1', bid1Price: 'cutoff' })).body.data
      .application;
    await ipoRepo.moveApplication(db, aApp.id, 'applying', 'unsubscribed', t.clock.now(), 'customer', '');
    expect(inr(a.id).held).toBe(1_000_000n);
    await t.app.ipos.resume();
    expect(inr(a.id).held).toBe(0n);

    // b cancels while the apply's hold is still on its way: the late hold is not recorded, and released.
    const bId = (await bareRow(b.id)) as number;
    const cancelled = await t.call('POST', '/stock/order/new/cancel', { token: b.token, body: { id: String(bId) } });
    expect(cancelled.body.data.application.status).toBe('unsubscribed');
    expect((await engineHold(b.id, bId)).ok).toBe(true);
    expect(await ipoRepo.setHoldId(db, bId, holdOf(bId), 1_000_000n, t.clock.now(), 'applying')).toBe(false);
    await t.app.ipos.tick();
    expect(inr(b.id).held).toBe(0n);

    // c's application is recorded but its hold still on its way when the close runs: left out of the draw,
    // unsubscribed, its hold released. f applies normally; d and e offline (one lot each after the draw).
    const cId = (await bareRow(c.id)) as number;
    expect((await apply(f.token, { ipoId: String(id), bid1Lots: '1', bid1Price: 'cutoff' })).body.code).toBe(0);
    for (const who of [d, e]) {
      const r = await t.call('POST', '/stock/order/offline/apply', {
        token: who.token,
        body: { password: PIN, ipoId: String(id), lots: '25', price: '100' },
      });
      expect(r.body.code, JSON.stringify(r.body)).toBe(0);
    }
    expect((await engineHold(c.id, cId)).ok).toBe(true);
    await at('2026-01-08T15:30:00+05:30');
    await at('2026-01-08T15:30:33+05:30'); // the beacon round is out: the draw runs
    expect(await rowOf(cId)).toMatchObject({ status: 'unsubscribed', reason: 'received after the close' });
    expect(inr(c.id).held).toBe(0n);
    const record = (await t.call('GET', `/stock/index/new/draw?ipoId=${id}`)).body.data;
    expect(record.applications.map((x: { ref: string }) => x.ref)).not.toContain(
      (await t.call('GET', '/stock/order/new/list', { token: c.token })).body.data.items[0].ref,
    );
    // An application arriving after the close is not recorded at all.
    expect(await bareRow(g.id)).toBeNull();

    // d pays and the server dies after the engine settled it; e's payment dies after its hold.
    const offlineApp = async (token: string) =>
      (await t.call('GET', '/stock/order/offline/list', { token })).body.data.items[0];
    const dApp = await offlineApp(d.token);
    const eApp = await offlineApp(e.token);
    expect(dApp.status).toBe('wait_for_payment');
    expect((await engineHold(d.id, dApp.id)).ok).toBe(true);
    const settled = await t.app.engine.submit({
      type: 'settle_allotment',
      id: `${holdOf(dApp.id)}:pay`,
      to: `issuer:ipo-${id}`,
      asset: `SHARE:NSE:${symbol}`,
      wallet: 'stock',
      lock: true,
      entries: [[holdOf(dApp.id), '10000.00', '100']],
      link: `ipo:${id}`,
    });
    expect(settled.ok).toBe(true);
    expect((await engineHold(e.id, eApp.id)).ok).toBe(true);
    // The window passes (24 h after the draw): d's settled payment is recorded as paid (not forfeited); e's hold is released.
    await at('2026-01-09T15:31:00+05:30');
    expect(await offlineApp(d.token)).toMatchObject({ status: 'paid', allottedShares: '100' });
    expect(inr(d.id)).toMatchObject({ balance: 9_000_000n, held: 0n });
    expect(await offlineApp(e.token)).toMatchObject({ status: 'forfeited', reason: 'payment window passed' });
    expect(inr(e.id)).toMatchObject({ balance: 10_000_000n, held: 0n });
    // Listing day releases d's locked shares like any paid allotment.
    const dShares = () => t.app.engine.state.balance(String(d.id), 'stock', `SHARE:NSE:${symbol}`);
    expect(dShares()).toMatchObject({ balance: 100n, held: 100n });
    await at('2026-01-13T09:15:00+05:30');
    expect(dShares()).toMatchObject({ balance: 100n, held: 0n });
  }, 90_000);

  it('settles a draw in batches of 2 with distinct ids, and a fresh job resumes after a crash between batches', async () => {
    await start();
    const symbol = `BTCH${dialect === 'sqlite' ? 'SQ' : 'PG'}`;
    const { id } = await published(symbol);
    const people = [];
    for (const n of ['21', '22', '23', '24', '25']) people.push(await customer(`93000005${n}`));
    await at('2026-01-06T09:15:00+05:30');
    const apps: { id: number; ref: string }[] = [];
    for (const who of people) {
      const r = await apply(who.token, { ipoId: String(id), bid1Lots: '1', bid1Price: 'cutoff' });
      expect(r.body.code, JSON.stringify(r.body)).toBe(0);
      apps.push(r.body.data.application);
    }
    const holds = apps.map((a) => applicationHoldId(a.id));
    await at('2026-01-08T15:30:00+05:30');
    // A batch size the engine would refuse (or none at all) is refused when the service is made.
    for (const wrong of [0, 2.5, ALLOTMENT_BATCH_MAX + 1])
      expect(() => t.app.ipos.withBatches(wrong)).toThrow(RangeError);

    // The beacon round is out: a job settling in batches of 2 (three batches) draws, then dies just after
    // the engine took the first batch.
    t.clock.set(Date.parse('2026-01-08T15:30:33+05:30'));
    const crashed = allotmentSpy(t.app.engine, { at: 1, when: 'after' });
    await expect(t.app.ipos.withBatches(2, crashed.engine).tick()).rejects.toThrow('simulated crash');
    expect(crashed.sent).toEqual([{ id: `ipo:${id}:draw:${apps[0]?.id}`, holds: holds.slice(0, 2), ok: true }]);
    for (const [k, who] of people.entries()) expect(inr(who.id).held, `applicant ${k}`).toBe(k < 2 ? 0n : 1_000_000n);

    // A fresh job (same batch size) sends only the two batches left, under ids of their own.
    const resumed = allotmentSpy(t.app.engine);
    await t.app.ipos.withBatches(2, resumed.engine).tick();
    expect(resumed.sent.map((b) => [b.holds, b.ok])).toEqual([
      [holds.slice(2, 4), true],
      [holds.slice(4), true],
    ]);
    const ids = [...crashed.sent, ...resumed.sent].map((b) => b.id);
    expect(new Set(ids).size).toBe(3);
    const idle = allotmentSpy(t.app.engine);
    await t.app.ipos.withBatches(2, idle.engine).tick();
    expect(idle.sent).toEqual([]);

    // Exactly what one batch would have left: the draw's 3 winners (of 5, one lot each) paid ₹10,000 and
    // hold 100 locked shares, every other hold released; each application recorded settled once.
    const record = (await t.call('GET', `/stock/index/new/draw?ipoId=${id}`)).body.data;
    expect(verifyIpoDrawRecord(record).ok).toBe(true);
    const winners = new Set(record.allotments.map((w: { ref: string }) => w.ref));
    expect(winners.size).toBe(3);
    const held = (userId: number) => t.app.engine.state.balance(String(userId), 'stock', `SHARE:NSE:${symbol}`);
    for (const [k, who] of people.entries()) {
      const won = winners.has(apps[k]?.ref);
      expect(inr(who.id), `applicant ${k}`).toEqual({
        balance: won ? 9_000_000n : 10_000_000n,
        held: 0n,
        available: won ? 9_000_000n : 10_000_000n,
      });
      expect(held(who.id)).toEqual({ balance: won ? 100n : 0n, held: won ? 100n : 0n, available: 0n });
      const row = (await ipoRepo.findApplication(db, apps[k]?.id as number)) as ipoRepo.ApplicationRow;
      expect(row).toMatchObject({ status: won ? 'allocated' : 'not_allotted', settled_at: expect.any(Number) });
    }
    expect(t.app.engine.state.balance(`platform:issuer:ipo-${id}`, 'platform', 'INR').balance).toBe(3_000_000n);
    // The journal holds the three batches once each, every hold in exactly one of them.
    const settles = (await db.query<{ command: string }>('SELECT command FROM engine_journal ORDER BY seq'))
      .map((r) => decodeCommand(r.command))
      .filter((x) => x.type === 'settle_allotment' && x.to === `issuer:ipo-${id}`);
    expect(settles.map((x) => x.id)).toEqual(ids);
    expect(settles.flatMap((x) => (x.type === 'settle_allotment' ? x.entries.map((e) => e[0]) : []))).toEqual(holds);
    expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
  }, 60_000);

  it('auto-subscribes consenting customers with the funds at the open, skipping the rest with a record', async () => {
    await start({ openAutoApply: 1 });
    const { id } = await published();
    const rich = await customer('9300000201');
    const poor = await customer('9300000202');
    const off = await customer('9300000203');
    expect((await t.call('GET', '/user/update/autoapply', { token: rich.token })).body.data).toEqual({
      enabled: false,
      openAutoApply: 1,
    });
    for (const who of [rich, poor])
      expect(
        (await t.call('POST', '/user/update/autoapply', { token: who.token, body: { enabled: '1' } })).body.data
          .enabled,
      ).toBe(true);
    // poor's money is committed elsewhere: a hold placed straight on the engine leaves ₹5,000 available.
    await t.app.engine.submit({
      type: 'hold_funds',
      id: 'test:poor',
      userId: String(poor.id),
      wallet: 'stock',
      asset: 'INR',
      amount: '95000.00',
      cause: 'adjustment',
      link: 'test',
    });
    await at('2026-01-06T09:15:00+05:30');
    const mine = (await t.call('GET', '/stock/order/new/list', { token: rich.token })).body.data.items;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ auto: true, status: 'applying', heldAmount: '10000.00' });
    expect(mine[0].bids).toEqual([{ lots: 1, price: '100.00', cutOff: true, amount: '10000.00' }]);
    expect((await t.call('GET', '/stock/order/new/list', { token: poor.token })).body.data.total).toBe(0);
    expect((await t.call('GET', '/stock/order/new/list', { token: off.token })).body.data.total).toBe(0);
    const logged = await t.call('GET', `/admin/ipos/auto-apply?id=${id}`, { token: await adminNow() });
    expect(logged.body.code, JSON.stringify(logged.body)).toBe(0);
    const log = logged.body.data.items;
    expect(log).toEqual([
      { userId: rich.id, outcome: 'applied', reason: '' },
      { userId: poor.id, outcome: 'skipped', reason: 'ipo_insufficient_funds' },
    ]);
  });

  it('auto-subscribe skips a consenting customer without verified KYC where KYC is required', async () => {
    await start({ openAutoApply: 1, stocks: { ...loadStockSettings({}), kycRequired: true } });
    const { id } = await published();
    const verified = await customer('9300000211');
    const unverified = await customer('9300000212');
    for (const who of [verified, unverified])
      await t.call('POST', '/user/update/autoapply', { token: who.token, body: { enabled: '1' } });
    await db.run(`UPDATE users SET id_status = 'succ' WHERE id = ${verified.id}`);
    await at('2026-01-06T09:15:00+05:30');
    expect((await t.call('GET', '/stock/order/new/list', { token: unverified.token })).body.data.total).toBe(0);
    expect(inr(unverified.id).held).toBe(0n);
    expect(inr(verified.id).held).toBe(1_000_000n);
    const log = (await t.call('GET', `/admin/ipos/auto-apply?id=${id}`, { token: await adminNow() })).body.data.items;
    expect(log).toEqual([
      { userId: verified.id, outcome: 'applied', reason: '' },
      { userId: unverified.id, outcome: 'skipped', reason: 'kyc_required' },
    ]);
  });

  it('refuses the auto-subscribe switch where the deployment does not offer it, in both languages', async () => {
    await start({ openAutoApply: 0 });
    const who = await customer('9300000301');
    const en = await t.call('POST', '/user/update/autoapply', { token: who.token, body: { enabled: '1' } });
    expect(en.body).toMatchObject({
      error: 'ipo_auto_apply_unavailable',
      msg: 'Auto-subscribe is not offered on this platform',
    });
    const pt = await t.call('POST', '/user/update/autoapply', {
      token: who.token,
      lang: 'pt-BR',
      body: { enabled: '1' },
    });
    expect(pt.body.msg).toBe('A subscrição automática não é oferecida nesta plataforma');
    expect((await t.call('GET', '/user/update/autoapply', { token: who.token })).body.data.enabled).toBe(false);
  });
});
