// Block trades through the HTTP API on both databases: a staff member creates an offer within the band
// for a coming window, a second one approves it; marked-HNI customers bid whole lots during the window
// (funds held), one cancels a bid (released); at the close the job allots pro-rata and settles in one
// batch (paid, shares delivered locked, the rest released), and at T+1 the lock is released. Every
// rejection in both languages with nothing changed; another customer's bid and an unpublished offer
// answer not found; the paper-mode demo offers are there. Crashes: a bid whose hold was released without its
// cancel recorded, and a cancel recorded without its release, are left out of the allotment (the rest
// settles); a bid landing after the allotment is refused at the insert or released by the job.
// In batches of 2 (batchMax) the settlement is one command per batch, each id its own, and a fresh job
// resumes after a crash between batches. A cancel landing while the allotment is being recorded wins (the
// run records nothing; the next allots without it); one landing after it was recorded is refused.

import { type Db, testDatabases } from '@bourse/db';
import { ALLOTMENT_BATCH_MAX, decodeCommand } from '@bourse/engine';
import { formatDecimal } from '@bourse/money';
import { describe, expect, it } from 'vitest';
import { loadStockSettings } from '../../config.ts';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { totpNow } from '../../platform/totp.ts';
import { allotmentSpy, testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';
import { BlockTrades } from './service.ts';

const dbs = await testDatabases();
const PIN = '246810';
const MINUTE = 60_000;
const SYMBOL = 'NSE:TCS';
const SHARE = `SHARE:${SYMBOL}`;
type T = Awaited<ReturnType<typeof testApp>>;
// The clock starts Monday 5 January 2026, 09:30 in India; today's afternoon block window is 14:05–14:20.
const ist = (text: string) => Date.parse(`${text}+05:30`);

async function setup(t: T) {
  const signIn = async (username: string, password: string, secret: string) => {
    const answer = await t.call('POST', '/admin/auth/login', {
      json: { username, password, totpCode: totpNow(secret, t.clock.now()) },
    });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    return answer.body.data.token as string;
  };
  const admin = await signIn(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
  const created = (
    await t.call('POST', '/admin/staff/create', {
      token: admin,
      json: { username: 'desk.two', role: 'admin', reason: 'second approver for block offers' },
    })
  ).body.data;
  await t.advance(30_000);
  const second = await signIn('desk.two', created.initialPassword, created.totpSecret);
  return { admin, second };
}

async function customer(t: T, phone: string) {
  const data = (await t.register(phone)).body.data;
  const token = data.token as string;
  const id = data.user.id as number;
  const set = await t.call('POST', '/user/update/tradePassword', {
    token,
    body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
  });
  expect(set.body.code, JSON.stringify(set.body)).toBe(0);
  return { token, id, uid: String(id) };
}

/**
 * A published offer of 200 TCS in lots of 10 in the first coming block window, and one marked-HNI
 * customer with verified identity per phone; the clock is moved into the window.
 */
async function openOffer(t: T, db: Db, phones: string[]) {
  const { admin, second } = await setup(t);
  const windows = (await t.call('GET', `/admin/block-trades/windows?symbol=${SYMBOL}`, { token: admin })).body.data
    .items;
  const reference = t.app.market.quote(t.app.market.instrument(SYMBOL)!).price;
  const offer = (
    await t.call('POST', '/admin/block-trades', {
      token: admin,
      json: {
        symbol: SYMBOL,
        quantity: '200',
        lot: '10',
        price: reference,
        opensAt: windows[0].opensAt,
        seller: 'Promoter Group Trust',
        reason: 'Promoter stake sale, ticket B-19',
      },
    })
  ).body.data;
  const approved = await t.call('POST', `/admin/block-trades/${offer.id}/decide`, {
    token: second,
    json: { decision: 'approve', reason: 'Band and seller checked' },
  });
  expect(approved.body.data.status).toBe('published');
  const people = [];
  for (const phone of phones) {
    const who = await customer(t, phone);
    await db.run(`UPDATE users SET id_status = 'succ' WHERE id = ${who.id}`);
    await t.call('POST', '/admin/block-trades/hni', { token: admin, json: { userId: who.id, reason: 'HNI' } });
    people.push(who);
  }
  t.clock.set(windows[0].opensAt + MINUTE);
  await t.advance(0);
  const bid = async (who: { token: string }, quantity: string) => {
    const answer = await t.call('POST', '/stock/order/bulk/apply', {
      token: who.token,
      body: { offerId: String(offer.id), quantity, password: PIN },
    });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    return answer.body.data as { id: number; amount: string };
  };
  const lotAmount = BigInt(
    (
      await t.call('GET', `/stock/index/bulk/info?id=${offer.id}`, { token: people[0]!.token })
    ).body.data.offer.lotAmount.replace('.', ''),
  );
  return {
    second,
    offer: offer as { id: number },
    people,
    bid,
    lotAmount,
    closesAt: windows[0].closesAt as number,
    // The job's own service, with another engine and database when a test swaps them.
    service: (opts: { engine?: TradingEngine; db?: Db; batchMax?: number } = {}) =>
      new BlockTrades({
        db: opts.db ?? db,
        engine: opts.engine ?? t.app.engine,
        market: t.app.market,
        clock: t.clock,
        settings: loadStockSettings({}),
        ...(opts.batchMax !== undefined ? { batchMax: opts.batchMax } : {}),
      }),
  };
}

describe.each(dbs)('block trades on $dialect', ({ open }) => {
  it('creates, approves, takes bids in the window, allots pro-rata, settles and unlocks at T+1', async () => {
    const db = await open();
    // Nobody reaches the wallet threshold here: customers qualify as HNI only by a staff member's mark.
    const t = await testApp(db, {
      stocks: { ...loadStockSettings({}), blockHniMinAssets: { INR: '1000000.01' } },
    });
    try {
      const { admin, second } = await setup(t);
      const balance = (uid: string, asset = 'INR') => t.app.engine.state.balance(uid, 'stock', asset);

      // --- the paper-mode demo offers: one settled (the demo customer's bid allotted), one coming ---
      const demoOffers = (await t.call('GET', '/admin/block-trades', { token: admin })).body.data.items;
      expect(demoOffers.map((o: { status: string }) => o.status).sort()).toEqual(['published', 'settled']);

      // --- the desk: windows, band, lots, second approver ---
      const windows = (await t.call('GET', `/admin/block-trades/windows?symbol=${SYMBOL}`, { token: admin })).body.data
        .items;
      expect(windows[0]).toEqual({
        exchange: 'NSE',
        opensAt: ist('2026-01-05T14:05:00'),
        closesAt: ist('2026-01-05T14:20:00'),
      });
      const instrument = t.app.market.instrument(SYMBOL)!;
      const reference = t.app.market.quote(instrument).price;
      const base = { symbol: SYMBOL, quantity: '200', lot: '10', price: reference, opensAt: windows[0].opensAt };
      const create = (json: Record<string, unknown>, lang = 'en-US') =>
        t.call('POST', '/admin/block-trades', {
          token: admin,
          lang,
          json: { seller: 'Promoter Group Trust', reason: 'Promoter stake sale, ticket B-17', ...base, ...json },
        });
      const far = (Number(reference) * 1.05).toFixed(0);
      const outside = await create({ price: far });
      expect(outside.body.error).toBe('block_price_outside_band');
      expect(outside.body.msg).toMatch(
        /^The price must be between [\d.]+ and [\d.]+ \(the block band around the reference price/,
      );
      expect((await create({ price: far }, 'pt-BR')).body.msg).toMatch(/^O preço deve estar entre/);
      expect((await create({ opensAt: ist('2026-01-05T14:06:00') })).body.error).toBe('block_window_invalid');
      expect((await create({ opensAt: ist('2026-01-05T08:45:00') }, 'pt-BR')).body.msg).toBe(
        'Escolha uma das próximas janelas de bloco da bolsa desta ação',
      );
      expect((await create({ quantity: '205' })).body.error).toBe('block_lot_invalid');
      expect((await create({ symbol: 'NYSE:BRK.B' })).body.error).toBe('block_stock_not_offered');
      const made = await create({});
      expect(made.body.code, JSON.stringify(made.body)).toBe(0);
      const offer = made.body.data;
      expect(offer).toMatchObject({
        status: 'pending_approval',
        price: reference,
        sellerAccount: `issuer:block-${offer.id}`,
      });

      // --- customers: two marked HNI, one without KYC, one verified but not HNI ---
      const asha = await customer(t, '9000000201');
      const bala = await customer(t, '9000000202');
      const chen = await customer(t, '9000000203');
      const dev = await customer(t, '9000000204');
      await db.run(`UPDATE users SET id_status = 'succ' WHERE id IN (${asha.id}, ${bala.id}, ${dev.id})`);
      for (const who of [asha, bala]) {
        const marked = await t.call('POST', '/admin/block-trades/hni', {
          token: admin,
          json: { userId: who.id, reason: 'HNI documents checked' },
        });
        expect(marked.body.code, JSON.stringify(marked.body)).toBe(0);
      }
      expect(
        (
          await t.call('POST', '/admin/block-trades/hni', {
            token: admin,
            json: { userId: 999_999, reason: 'typo check' },
          })
        ).body.error,
      ).toBe('block_customer_not_found');

      // A pending offer is not found by customers.
      const pendingInfo = await t.call('GET', `/stock/index/bulk/info?id=${offer.id}`, { token: asha.token });
      expect(pendingInfo.body.error).toBe('block_offer_not_found');

      const sameStaff = await t.call('POST', `/admin/block-trades/${offer.id}/decide`, {
        token: admin,
        lang: 'pt-BR',
        json: { decision: 'approve', reason: 'looks right' },
      });
      expect(sameStaff.body).toMatchObject({
        error: 'block_offer_same_staff',
        msg: 'Outro membro da equipe deve aprovar esta oferta',
      });
      const approved = await t.call('POST', `/admin/block-trades/${offer.id}/decide`, {
        token: second,
        json: { decision: 'approve', reason: 'Band and seller checked' },
      });
      expect(approved.body.data).toMatchObject({ status: 'published', decidedByName: 'desk.two' });
      const again = await t.call('POST', `/admin/block-trades/${offer.id}/decide`, {
        token: second,
        json: { decision: 'reject', reason: 'changed my mind' },
      });
      expect(again.body.error).toBe('block_offer_already_decided');
      const audit = await db.query<{ action: string }>(
        `SELECT action FROM audit_log WHERE target_type = 'block_offer' AND target_id = $1 ORDER BY id`,
        [String(offer.id)],
      );
      expect(audit.map((a) => a.action)).toEqual(['block_offer.create', 'block_offer.approve']);

      // --- eligibility as the list says it ---
      const list = async (token: string, lang = 'en-US') =>
        (await t.call('GET', '/stock/index/bulk/list', { token, lang })).body.data;
      expect((await list(asha.token)).eligibility).toEqual({ eligible: true, reason: null, message: '' });
      expect((await list(chen.token)).eligibility).toMatchObject({ eligible: false, reason: 'kyc' });
      expect((await list(dev.token, 'pt-BR')).eligibility).toEqual({
        eligible: false,
        reason: 'not_hni',
        message:
          'Operações em bloco são para clientes HNI: pelo menos 1.000.000,01 INR na sua carteira de ações, ou uma conta HNI configurada pela nossa equipe',
      });
      const listed = (await list(asha.token)).items.find((o: { id: number }) => o.id === offer.id);
      expect(listed).toMatchObject({ phase: 'upcoming', seller: 'Promoter Group Trust', lot: '10', quantity: '200' });

      const bid = (who: { token: string }, quantity: string, lang = 'en-US', extra: Record<string, string> = {}) =>
        t.call('POST', '/stock/order/bulk/apply', {
          token: who.token,
          lang,
          body: { offerId: String(offer.id), quantity, password: PIN, ...extra },
        });
      const footprint = async () => ({
        asha: balance(asha.uid),
        bala: balance(bala.uid),
        dev: balance(dev.uid),
        chen: balance(chen.uid),
        bids: (await db.query('SELECT id, status FROM block_bids ORDER BY id')).length,
      });

      // --- before the window: refused, nothing changes ---
      const before = await footprint();
      const early = await bid(asha, '100');
      expect(early.body).toMatchObject({
        error: 'block_outside_window',
        msg: 'Bids are taken only while the block window is open (Jan 5, 2026, 2:05 PM to 2:20 PM)',
      });
      expect((await bid(asha, '100', 'pt-BR')).body.msg).toBe(
        'Lances são aceitos apenas com a janela de bloco aberta (5 de jan. de 2026, 14:05 a 14:20)',
      );
      expect(await footprint()).toEqual(before);

      // --- inside the window ---
      t.clock.set(ist('2026-01-05T14:06:00'));
      await t.advance(0);
      const unit = (await t.call('GET', `/stock/index/bulk/info?id=${offer.id}`, { token: asha.token })).body.data;
      expect(unit.offer.phase).toBe('open');
      const lotAmount = BigInt(unit.offer.lotAmount.replace('.', ''));

      const rejections: [string, string, string, string, Record<string, string>?][] = [
        // [who, quantity, code, pt-BR message, extra]
        [
          'chen',
          '100',
          'block_not_eligible_kyc',
          'Operações em bloco são para clientes HNI verificados: conclua primeiro a verificação de identidade (KYC)',
        ],
        [
          'dev',
          '100',
          'block_not_eligible',
          'Operações em bloco são para clientes HNI: pelo menos 1.000.000,01 INR na sua carteira de ações, ou uma conta HNI configurada pela nossa equipe',
        ],
        ['asha', '15', 'block_quantity_not_in_lots', 'A quantidade deve ser um número inteiro de lotes de 10 ações'],
        ['asha', '1.5', 'block_quantity_not_in_lots', 'A quantidade deve ser um número inteiro de lotes de 10 ações'],
        ['asha', '210', 'block_quantity_above_offer', 'A quantidade é maior que as 200 ações ofertadas'],
        ['asha', '100', 'trade_password_incorrect', 'Senha de transação incorreta', { password: '111111' }],
      ];
      const who = { asha, bala, chen, dev } as Record<string, { token: string }>;
      for (const [name, quantity, code, pt, extra] of rejections) {
        const en = await bid(who[name]!, quantity, 'en-US', extra);
        expect(en.body.error, `${name} ${quantity}`).toBe(code);
        expect(en.body.msg).not.toBe('');
        const ptAnswer = await bid(who[name]!, quantity, 'pt-BR', extra);
        expect(ptAnswer.body.error).toBe(code);
        if (code !== 'trade_password_incorrect') expect(ptAnswer.body.msg).toBe(pt);
      }
      expect(await footprint()).toEqual(before);

      // Asha bids 150 shares (a retry with the same key answers the same bid), Bala 100 and then 10
      // more, which he cancels.
      const a1 = await bid(asha, '150', 'en-US', { clientOrderId: 'asha-block-0001' });
      expect(a1.body.code, JSON.stringify(a1.body)).toBe(0);
      const retry = await bid(asha, '150', 'en-US', { clientOrderId: 'asha-block-0001' });
      expect(retry.body.data.id).toBe(a1.body.data.id);
      const reused = await bid(asha, '140', 'pt-BR', { clientOrderId: 'asha-block-0001' });
      expect(reused.body.error).toBe('idempotency_key_reused');
      expect(a1.body.data).toMatchObject({ status: 'applied', quantity: '150', locked: false });
      const ashaHeld = lotAmount * 15n;
      expect(balance(asha.uid)).toEqual({
        balance: 100_000_000n,
        held: ashaHeld,
        available: 100_000_000n - ashaHeld,
      });
      // More than what is left available: insufficient funds, nothing changes.
      const lotsLeft = (100_000_000n - ashaHeld) / lotAmount;
      const tooMuch = String((lotsLeft + 1n) * 10n);
      const midway = await footprint();
      expect(lotsLeft + 1n <= 20n).toBe(true); // within the offer: only the funds are short
      expect((await bid(asha, tooMuch, 'pt-BR')).body).toMatchObject({
        error: 'insufficient_balance',
        msg: 'Saldo insuficiente',
      });
      expect((await bid(asha, tooMuch)).body).toMatchObject({
        error: 'insufficient_balance',
        msg: 'Insufficient balance',
      });
      expect(await footprint()).toEqual(midway);
      const b1 = (await bid(bala, '100')).body.data;
      const b2 = (await bid(bala, '10')).body.data;
      expect(balance(bala.uid).held).toBe(lotAmount * 11n);

      // Another customer's bid is not found; the owner cancels it and the hold is released.
      const foreign = await t.call('POST', '/stock/order/bulk/cancel', {
        token: asha.token,
        lang: 'pt-BR',
        body: { id: String(b2.id) },
      });
      expect(foreign.body).toMatchObject({ error: 'block_bid_not_found', msg: 'Ordem de block trade não encontrada' });
      const cancelled = await t.call('POST', '/stock/order/bulk/cancel', {
        token: bala.token,
        body: { id: String(b2.id) },
      });
      expect(cancelled.body.data).toMatchObject({ status: 'cancelled', released: unit.offer.lotAmount });
      expect(balance(bala.uid).held).toBe(lotAmount * 10n);

      // --- the window closes: pro-rata 150 : 100 of 200 → 120 and 80, one settle_allotment ---
      t.clock.set(ist('2026-01-05T14:21:00'));
      await t.advance(0);
      const late = await bid(asha, '10');
      expect(late.body.error).toBe('block_offer_closed');
      const lateCancel = await t.call('POST', '/stock/order/bulk/cancel', {
        token: asha.token,
        body: { id: String(a1.body.data.id) },
      });
      expect(lateCancel.body.error).toBe('block_bid_not_cancellable');

      const ashaBids = (await t.call('GET', '/stock/order/trade/list', { token: asha.token })).body.data;
      expect(ashaBids.total).toBe(1);
      expect(ashaBids.items[0]).toMatchObject({
        status: 'partly_allotted',
        allottedQuantity: '120',
        paid: formatMinor(lotAmount * 12n),
        released: formatMinor(lotAmount * 3n),
        locked: true,
        unlocksAt: ist('2026-01-06T00:00:00'),
      });
      expect(balance(asha.uid)).toEqual({
        balance: 100_000_000n - lotAmount * 12n,
        held: 0n,
        available: 100_000_000n - lotAmount * 12n,
      });
      expect(balance(asha.uid, SHARE)).toEqual({ balance: 120n, held: 120n, available: 0n });
      // The holding shows the allotted shares locked until T+1, bought at the offer's price.
      const holding = (await t.call('GET', `/stock/hold/info?symbol=${SYMBOL}`, { token: asha.token })).body.data;
      expect(holding).toMatchObject({
        quantity: '120',
        sellable: '0',
        locked: '120',
        avgPrice: formatMinor(lotAmount / 10n),
      });
      const balaBids = (await t.call('POST', '/stock/order/trade/list', { token: bala.token, body: {} })).body.data
        .items;
      expect(balaBids.map((b: { id: number; status: string }) => [b.id, b.status])).toEqual([
        [b2.id, 'cancelled'],
        [b1.id, 'partly_allotted'],
      ]);
      expect(balance(bala.uid, SHARE)).toEqual({ balance: 80n, held: 80n, available: 0n });
      const settles = (await db.query<{ command: string }>('SELECT command FROM engine_journal ORDER BY seq'))
        .map((r) => decodeCommand(r.command))
        .filter((c) => c.type === 'settle_allotment' && c.to === `issuer:block-${offer.id}`);
      expect(settles).toHaveLength(1);
      const desk = (await t.call('GET', `/admin/block-trades/${offer.id}`, { token: second })).body.data;
      expect(desk.offer).toMatchObject({
        status: 'settled',
        phase: 'settled',
        bidQuantity: '250',
        allottedQuantity: '200',
      });
      expect(desk.bids).toHaveLength(3);

      // --- T+1: the job releases the locks ---
      t.clock.set(ist('2026-01-06T00:01:00'));
      await t.advance(0);
      expect(balance(asha.uid, SHARE)).toEqual({ balance: 120n, held: 0n, available: 120n });
      const unlocked = (await t.call('GET', '/stock/order/trade/list', { token: asha.token })).body.data.items[0];
      expect(unlocked).toMatchObject({ status: 'partly_allotted', locked: false });
      // The customer's ledger lines: the allotment's payment and its release, with the offer as link.
      const lines = (await t.call('GET', '/user/tx/record?asset=INR', { token: asha.token })).body.data.items as {
        cause: string;
        link?: string;
      }[];
      expect(lines.some((l) => l.cause === 'allotment')).toBe(true);
    } finally {
      await t.close();
      await db.close();
    }
  }, 60_000);

  it('a hold released without its cancel recorded, a cancel cut short, and a bid after the allotment', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { admin, second } = await setup(t);
      const balance = (uid: string, asset = 'INR') => t.app.engine.state.balance(uid, 'stock', asset);
      const windows = (await t.call('GET', `/admin/block-trades/windows?symbol=${SYMBOL}`, { token: admin })).body.data
        .items;
      const reference = t.app.market.quote(t.app.market.instrument(SYMBOL)!).price;
      const offer = (
        await t.call('POST', '/admin/block-trades', {
          token: admin,
          json: {
            symbol: SYMBOL,
            quantity: '200',
            lot: '10',
            price: reference,
            opensAt: windows[0].opensAt,
            seller: 'Promoter Group Trust',
            reason: 'Promoter stake sale, ticket B-18',
          },
        })
      ).body.data;
      const approved = await t.call('POST', `/admin/block-trades/${offer.id}/decide`, {
        token: second,
        json: { decision: 'approve', reason: 'Band and seller checked' },
      });
      expect(approved.body.data.status).toBe('published');
      const hni = async (phone: string) => {
        const who = await customer(t, phone);
        await db.run(`UPDATE users SET id_status = 'succ' WHERE id = ${who.id}`);
        await t.call('POST', '/admin/block-trades/hni', { token: admin, json: { userId: who.id, reason: 'HNI' } });
        return who;
      };
      const asha = await hni('9000000221');
      const bala = await hni('9000000222');
      const chen = await hni('9000000223');
      const dina = await hni('9000000224');
      const esha = await hni('9000000225');
      t.clock.set(windows[0].opensAt + MINUTE);
      await t.advance(0);
      const bid = async (who: { token: string }, quantity: string) => {
        const answer = await t.call('POST', '/stock/order/bulk/apply', {
          token: who.token,
          body: { offerId: String(offer.id), quantity, password: PIN },
        });
        expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
        return answer.body.data as { id: number; amount: string };
      };
      const a = await bid(asha, '150');
      const b = await bid(bala, '100');
      const c = await bid(chen, '50');
      const d = await bid(dina, '50');
      const start = 100_000_000n;

      // A crash after the release of Chen's hold, before his cancel was recorded: the bid is still 'applied'.
      const voided = await t.app.engine.submit({ type: 'void_hold', id: 'test-crash', holdId: `block-bid:${c.id}` });
      expect(voided.ok).toBe(true);
      // A crash after Dina's cancel was recorded, before her hold was released.
      await db.run(`UPDATE block_bids SET status = 'cancelled' WHERE id = ${d.id}`);
      expect(balance(dina.uid).held).toBeGreaterThan(0n);

      // The close: the offer settles without those two, 150 : 100 of 200 → 120 and 80.
      t.clock.set(windows[0].closesAt + MINUTE);
      await t.advance(0);
      const desk = (await t.call('GET', `/admin/block-trades/${offer.id}`, { token: second })).body.data;
      expect(desk.offer).toMatchObject({ status: 'settled', bidQuantity: '250', allottedQuantity: '200' });
      const statusOf = (id: number) => desk.bids.find((x: { id: number }) => x.id === id);
      expect(statusOf(a.id)).toMatchObject({ status: 'partly_allotted', allottedQuantity: '120' });
      expect(statusOf(b.id)).toMatchObject({ status: 'partly_allotted', allottedQuantity: '80' });
      expect(statusOf(c.id)).toMatchObject({ status: 'cancelled', allottedQuantity: '0', released: c.amount });
      expect(statusOf(d.id)).toMatchObject({ status: 'cancelled', released: d.amount });
      expect(balance(asha.uid, SHARE)).toEqual({ balance: 120n, held: 120n, available: 0n });
      expect(balance(bala.uid, SHARE)).toEqual({ balance: 80n, held: 80n, available: 0n });
      for (const who of [chen, dina!]) expect(balance(who.uid)).toEqual({ balance: start, held: 0n, available: start });
      expect(balance(asha.uid).held).toBe(0n);
      expect(balance(bala.uid).held).toBe(0n);

      // A bid checked just before the close lands after the allotment: the insert refuses it...
      const { insertBid } = await import('./repo.ts');
      const refused = await insertBid(db, {
        offerId: offer.id,
        userId: esha.id,
        quantity: 10n,
        amountMinor: 1n,
        at: windows[0].closesAt - 1,
      });
      expect(refused).toBeUndefined();
      expect((await db.query(`SELECT 1 FROM block_bids WHERE user_id = ${esha.id}`)).length).toBe(0);
      // ...and one that got in anyway (held, then applied) is released by the job and cancelled.
      const late = await db.query<{ id: number }>(
        `INSERT INTO block_bids (offer_id, user_id, quantity, amount_minor, status, created_at, updated_at)
         VALUES ($1, $2, 10, $3, 'applied', $4, $4) RETURNING id`,
        [offer.id, esha.id, 100n, windows[0].closesAt - 1],
      );
      const lateId = Number(late[0]?.id);
      const held = await t.app.engine.submit({
        type: 'hold_funds',
        id: `block-bid:${lateId}`,
        userId: esha.uid,
        wallet: 'stock',
        asset: 'INR',
        amount: '1.00',
        cause: 'allotment',
        link: `block-offer:${offer.id}`,
      });
      expect(held.ok).toBe(true);
      expect(balance(esha.uid).held).toBe(100n);
      await t.advance(0);
      expect(balance(esha.uid)).toEqual({ balance: start, held: 0n, available: start });
      const eshaBids = (await t.call('GET', '/stock/order/trade/list', { token: esha.token })).body.data.items;
      expect(eshaBids).toMatchObject([{ id: lateId, status: 'cancelled', allottedQuantity: '0', released: '1.00' }]);
      // Still one settled batch for the offer.
      const settles = (await db.query<{ command: string }>('SELECT command FROM engine_journal ORDER BY seq'))
        .map((r) => decodeCommand(r.command))
        .filter((x) => x.type === 'settle_allotment' && x.to === `issuer:block-${offer.id}`);
      expect(settles).toHaveLength(1);
    } finally {
      await t.close();
      await db.close();
    }
  }, 60_000);

  it('settles in batches of 2 with distinct ids, and a fresh job resumes after a crash between batches', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const phones = ['9000000231', '9000000232', '9000000233', '9000000234', '9000000235'];
      const { offer, people, bid, lotAmount, closesAt, service } = await openOffer(t, db, phones);
      const balance = (uid: string, asset = 'INR') => t.app.engine.state.balance(uid, 'stock', asset);
      // 40 lots asked for 20: pro-rata is exactly half of each bid.
      const asked = ['40', '80', '120', '80', '80'];
      const bids = [];
      for (const [k, quantity] of asked.entries()) bids.push(await bid(people[k]!, quantity));
      const holds = bids.map((b) => `block-bid:${b.id}`);
      const start = 100_000_000n;
      for (const wrong of [0, 2.5, ALLOTMENT_BATCH_MAX + 1])
        expect(() => service({ batchMax: wrong })).toThrow(RangeError);

      // The close: a job with batches of 2 (three batches) dies just after the engine took the first.
      t.clock.set(closesAt + MINUTE);
      const crashed = allotmentSpy(t.app.engine, { at: 1, when: 'after' });
      await expect(service({ engine: crashed.engine, batchMax: 2 }).run()).rejects.toThrow('simulated crash');
      expect(crashed.sent).toEqual([
        { id: expect.stringMatching(/^block-settle:/), holds: holds.slice(0, 2), ok: true },
      ]);
      // The allotment is recorded on every bid; the first batch's holds are settled, the rest still held.
      for (const [k, who] of people.entries())
        expect(balance(who.uid).held, `bidder ${k}`).toBe(k < 2 ? 0n : (lotAmount * BigInt(asked[k]!)) / 10n);
      expect((await db.query(`SELECT status FROM block_offers WHERE id = ${offer.id}`))[0]).toEqual({
        status: 'published',
      });

      // A fresh job (same batch size) sends only the two batches left, under ids of their own.
      const resumed = allotmentSpy(t.app.engine);
      await service({ engine: resumed.engine, batchMax: 2 }).run();
      expect(resumed.sent.map((b) => [b.holds, b.ok])).toEqual([
        [holds.slice(2, 4), true],
        [holds.slice(4), true],
      ]);
      const ids = [...crashed.sent, ...resumed.sent].map((b) => b.id);
      expect(new Set(ids).size).toBe(3);
      // Another run sends nothing.
      const idle = allotmentSpy(t.app.engine);
      await service({ engine: idle.engine, batchMax: 2 }).run();
      expect(idle.sent).toEqual([]);

      // Exactly what one batch would have left: each paid half its bid, got half its shares (locked), no funds held.
      for (const [k, who] of people.entries()) {
        const lots = BigInt(asked[k]!) / 20n;
        expect(balance(who.uid), `bidder ${k}`).toEqual({
          balance: start - lotAmount * lots,
          held: 0n,
          available: start - lotAmount * lots,
        });
        expect(balance(who.uid, SHARE)).toEqual({ balance: lots * 10n, held: lots * 10n, available: 0n });
      }
      expect(t.app.engine.state.balance(`platform:issuer:block-${offer.id}`, 'platform', 'INR').balance).toBe(
        lotAmount * 20n,
      );
      expect(t.app.engine.state.balance(`platform:issuer:block-${offer.id}`, 'platform', SHARE).balance).toBe(-200n);
      const rows = await db.query<{ status: string; allotted: unknown }>(
        `SELECT status, allotted FROM block_bids WHERE offer_id = ${offer.id} ORDER BY id`,
      );
      expect(rows.map((r) => [r.status, String(r.allotted)])).toEqual(
        asked.map((q) => ['partly_allotted', String(Number(q) / 2)]),
      );
      // The journal holds the three batches once each, every hold in exactly one of them.
      const settles = (await db.query<{ command: string }>('SELECT command FROM engine_journal ORDER BY seq'))
        .map((r) => decodeCommand(r.command))
        .filter((x) => x.type === 'settle_allotment' && x.to === `issuer:block-${offer.id}`);
      expect(settles.map((x) => x.id)).toEqual(ids);
      expect(settles.flatMap((x) => (x.type === 'settle_allotment' ? x.entries.map((e) => e[0]) : []))).toEqual(holds);
      expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
    } finally {
      await t.close();
      await db.close();
    }
  }, 60_000);

  it('a cancel landing while the allotment is recorded wins; one after it is recorded is refused', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const phones = ['9000000241', '9000000242', '9000000243'];
      const { offer, people, bid, lotAmount, closesAt, service, second } = await openOffer(t, db, phones);
      const [asha, bala, chen] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]];
      const balance = (uid: string, asset = 'INR') => t.app.engine.state.balance(uid, 'stock', asset);
      const a = await bid(asha, '150');
      const b = await bid(bala, '100');
      const c = await bid(chen, '50');
      const start = 100_000_000n;
      const statuses = async () =>
        (
          await db.query<{ status: string }>(`SELECT status FROM block_bids WHERE offer_id = ${offer.id} ORDER BY id`)
        ).map((r) => r.status);

      // Chen's cancel passed its checks just before the close; its writes land after the job read this
      // offer's applied bids, before the job's transaction moved them (the demo offer of the same window
      // closes too: its transaction is let through).
      t.clock.set(closesAt + MINUTE);
      let cancelAnswer: Awaited<ReturnType<T['call']>> | undefined;
      let stage: 'reading' | 'read' | 'raced' = 'reading';
      const racingDb = new Proxy(db, {
        get(target, prop) {
          if (prop === 'query' && stage === 'reading') {
            return async (...args: Parameters<Db['query']>) => {
              const [, params] = args;
              if (params?.[0] === offer.id && params[1] === 'applied') stage = 'read';
              return target.query(...args);
            };
          }
          if (prop === 'transaction' && stage === 'read') {
            return async (...args: Parameters<Db['transaction']>) => {
              stage = 'raced';
              const now = t.clock.now();
              t.clock.set(closesAt - 1);
              cancelAnswer = await t.call('POST', '/stock/order/bulk/cancel', {
                token: chen.token,
                body: { id: String(c.id) },
              });
              t.clock.set(now);
              return target.transaction(...args);
            };
          }
          const value = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const raced = allotmentSpy(t.app.engine);
      await service({ db: racingDb, engine: raced.engine }).run();
      expect(stage).toBe('raced');
      // The customer was told the cancel succeeded, with everything released.
      expect(cancelAnswer?.body.code, JSON.stringify(cancelAnswer?.body)).toBe(0);
      expect(cancelAnswer?.body.data).toMatchObject({ id: c.id, status: 'cancelled', released: c.amount });
      // Nothing was recorded or sent this run (the transaction rolled back whole).
      expect(raced.sent).toEqual([]);
      expect(await statuses()).toEqual(['applied', 'applied', 'cancelled']);
      expect(balance(chen.uid)).toEqual({ balance: start, held: 0n, available: start });
      expect(balance(asha.uid).held).toBe(lotAmount * 15n);
      expect(balance(bala.uid).held).toBe(lotAmount * 10n);

      // The next run allots without Chen: 150 : 100 of 200 → 120 and 80. It dies before sending, so the
      // allotment is recorded and the holds are still there.
      const dying = allotmentSpy(t.app.engine, { at: 1, when: 'before' });
      await expect(service({ engine: dying.engine }).run()).rejects.toThrow('simulated crash');
      expect(await statuses()).toEqual(['partly_allotted', 'partly_allotted', 'cancelled']);

      // Asha's cancel, its checks passed just before the close, arrives now: refused in both languages,
      // nothing changes (her hold stays for the settlement).
      const footprint = async () => ({
        statuses: await statuses(),
        asha: balance(asha.uid),
        bala: balance(bala.uid),
        chen: balance(chen.uid),
        shares: balance(asha.uid, SHARE),
      });
      const before = await footprint();
      const now = t.clock.now();
      t.clock.set(closesAt - 1);
      for (const [lang, msg] of [
        ['en-US', 'This bid can no longer be cancelled'],
        ['pt-BR', 'Este lance não pode mais ser cancelado'],
      ] as const) {
        const refused = await t.call('POST', '/stock/order/bulk/cancel', {
          token: asha.token,
          lang,
          body: { id: String(a.id) },
        });
        expect(refused.body, lang).toMatchObject({ error: 'block_bid_not_cancellable', msg });
      }
      t.clock.set(now);
      expect(await footprint()).toEqual(before);

      // Restarted: the job settles the recorded allotment; Chen is out of it.
      const settled = allotmentSpy(t.app.engine);
      await service({ engine: settled.engine }).run();
      expect(settled.sent).toEqual([
        { id: expect.any(String), holds: [`block-bid:${a.id}`, `block-bid:${b.id}`], ok: true },
      ]);
      const desk = (await t.call('GET', `/admin/block-trades/${offer.id}`, { token: second })).body.data;
      expect(desk.offer).toMatchObject({ status: 'settled', bidQuantity: '250', allottedQuantity: '200' });
      expect(balance(asha.uid)).toEqual({
        balance: start - lotAmount * 12n,
        held: 0n,
        available: start - lotAmount * 12n,
      });
      expect(balance(bala.uid)).toEqual({
        balance: start - lotAmount * 8n,
        held: 0n,
        available: start - lotAmount * 8n,
      });
      expect(balance(asha.uid, SHARE)).toEqual({ balance: 120n, held: 120n, available: 0n });
      expect(balance(bala.uid, SHARE)).toEqual({ balance: 80n, held: 80n, available: 0n });
      expect(balance(chen.uid)).toEqual({ balance: start, held: 0n, available: start });
      expect(balance(chen.uid, SHARE).balance).toBe(0n);
      expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
    } finally {
      await t.close();
      await db.close();
    }
  }, 60_000);

  it('a bid of an offer not found, the demo offers, and another customer’s bid not found', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const asha = await customer(t, '9000000211');
      const missing = await t.call('POST', '/stock/order/bulk/apply', {
        token: asha.token,
        lang: 'pt-BR',
        body: { offerId: '424242', quantity: '10', password: PIN },
      });
      expect(missing.body).toMatchObject({ error: 'block_offer_not_found', msg: 'Oferta de bloco não encontrada' });
      const offers = (await t.call('GET', '/stock/index/bulk/list', { token: asha.token })).body.data.items;
      expect(offers.map((o: { phase: string }) => o.phase).sort()).toEqual(['settled', 'upcoming']);
      const settled = offers.find((o: { phase: string }) => o.phase === 'settled');
      const detail = (await t.call('GET', `/stock/index/bulk/info?id=${settled.id}`, { token: asha.token })).body.data;
      expect(detail).toMatchObject({ bids: [], offer: { bidQuantity: '0', allottedQuantity: '0' } });
      // A new customer has identity unverified: told why, in the list and the detail.
      expect(detail.eligibility).toEqual({
        eligible: false,
        reason: 'kyc',
        message: 'Block trades are for verified HNI customers: complete your identity verification (KYC) first',
      });
      // Another customer's bid: not found to cancel, absent from the list.
      await db.run(`UPDATE users SET id_status = 'succ' WHERE id = ${asha.id}`);
      const bala = await customer(t, '9000000212');
      await db.run(`UPDATE users SET id_status = 'succ' WHERE id = ${bala.id}`);
      const coming = offers.find((o: { phase: string }) => o.phase === 'upcoming');
      t.clock.set(coming.opensAt + MINUTE);
      await t.advance(0);
      const placed = await t.call('POST', '/stock/order/bulk/apply', {
        token: bala.token,
        body: { offerId: String(coming.id), quantity: coming.lot, password: PIN },
      });
      expect(placed.body.code, JSON.stringify(placed.body)).toBe(0);
      const cancel = await t.call('POST', '/stock/order/bulk/cancel', {
        token: asha.token,
        body: { id: String(placed.body.data.id) },
      });
      expect(cancel.body.error).toBe('block_bid_not_found');
      expect((await t.call('GET', '/stock/order/trade/list', { token: asha.token })).body.data).toEqual({
        items: [],
        total: 0,
      });
      expect(
        (await t.call('GET', `/stock/index/bulk/info?id=${coming.id}`, { token: asha.token })).body.data.bids,
      ).toEqual([]);
    } finally {
      await t.close();
      await db.close();
    }
  }, 60_000);
});

const formatMinor = (minor: bigint) => formatDecimal(minor, 2);
