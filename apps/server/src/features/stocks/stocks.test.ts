// Stock trading through the HTTP API on both databases: the paper venue's quotes, market and limit
// orders, partial fills, the T+1 lock and its journaled settlement, after-market queueing, idempotent
// retries, the watchlist, and every SPEC §5 rule's rejection in both languages with nothing changed.

import { testDatabases } from '@bourse/db';
import { decodeCommand } from '@bourse/engine';
import { describe, expect, it, vi } from 'vitest';
import { marketMakerOf } from '../../adapters/venue/paper/paper-venue.ts';
import type { Config } from '../../config.ts';
import { loadStockSettings } from '../../config.ts';
import { testApp } from '../../testing.ts';

const dbs = await testDatabases();
const PIN = '246810';
const MINUTE = 60_000;
const DAY = 86_400_000;
type T = Awaited<ReturnType<typeof testApp>>;

async function trader(t: T, phone: string, options: { pin?: boolean } = {}) {
  const token = (await t.register(phone)).body.data.token as string;
  if (options.pin !== false) {
    const set = await t.call('POST', '/user/update/tradePassword', {
      token,
      body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
    });
    expect(set.body.code, JSON.stringify(set.body)).toBe(0);
  }
  const info = (await t.call('GET', '/user/login/info', { token })).body.data.user;
  return { token, userId: String(info.id) };
}

const order = (t: T, token: string, side: 'buy' | 'sell', body: Record<string, string>, lang = 'en-US') =>
  t.call('POST', `/stock/order/${side}`, { token, lang, body: { orderType: 'market', password: PIN, ...body } });

/** Balances and orders: what a rejected order must leave exactly as it was. */
async function footprint(t: T, token: string) {
  const assets = (await t.call('POST', '/user/assets', { token })).body.data.items;
  const orders = (await t.call('GET', '/stock/order/list', { token })).body.data.total;
  return { assets, orders };
}

function settings(overrides: Partial<Config['stocks']>): Partial<Config> {
  return { stocks: { ...loadStockSettings({}), ...overrides } };
}

describe.each(dbs)('stock trading on $dialect', ({ open }) => {
  it('buys at market from the paper venue, locks the shares until T+1, settles them, sells, and books realized P&L', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token } = await trader(t, '9000000101');
      const book = (await t.call('POST', '/stock/index/books', { body: { symbol: 'NSE:RELIANCE' } })).body.data;
      expect(book.asks.length).toBe(5);
      expect(book.bids.length).toBe(5);
      const bestAsk = book.asks[0][0] as string;

      const preview = (
        await t.call('POST', '/stock/order/preview', {
          token,
          body: { symbol: 'NSE:RELIANCE', side: 'buy', orderType: 'market', quantity: '10' },
        })
      ).body.data;
      expect(preview).toMatchObject({ currency: 'INR', quantity: '10', available: '1000000.00', afterMarket: false });
      // 12 bps of the amount in paise, rounded down in the customer's favour.
      const paise = BigInt(preview.amount.replace('.', ''));
      expect(BigInt(preview.fee.replace('.', ''))).toBe((paise * 12n) / 10_000n);

      const buy = await order(t, token, 'buy', { symbol: 'NSE:RELIANCE', quantity: '10' });
      expect(buy.body.code, JSON.stringify(buy.body)).toBe(0);
      expect(buy.body.data.order).toMatchObject({
        status: 'completed',
        filledQuantity: '10',
        side: 'buy',
        avgFillPrice: bestAsk,
      });
      const fee = buy.body.data.order.fee as string;
      expect(Number(fee)).toBeGreaterThan(0);
      const held = (await t.call('GET', '/stock/hold/info?symbol=NSE:RELIANCE', { token })).body.data;
      expect(held).toMatchObject({ quantity: '10', locked: '10', sellable: '0', realizedPnl: '0.00' });
      expect(held.unlocksAt).toBe(Date.parse('2026-01-06T00:00:00+05:30'));

      // Locked shares cannot be sold until settlement: the refusal says so and names the day they
      // unlock (6 January in India), in both languages, and nothing changes.
      const before = await footprint(t, token);
      const early = await order(t, token, 'sell', { symbol: 'NSE:RELIANCE', quantity: '10' });
      expect(early.body).toMatchObject({
        code: -1001,
        error: 'shares_locked_until_settlement',
        msg: 'These shares are locked until settlement: you can sell them from January 6, 2026',
        fields: { quantity: 'These shares are locked until settlement: you can sell them from January 6, 2026' },
      });
      const earlyPt = await order(t, token, 'sell', { symbol: 'NSE:RELIANCE', quantity: '4' }, 'pt-BR');
      expect(earlyPt.body.msg).toBe(
        'Estas ações estão bloqueadas até a liquidação: você pode vendê-las a partir de 6 de janeiro de 2026',
      );
      // More than the locked and free shares together: simply not enough.
      const tooMany = await order(t, token, 'sell', { symbol: 'NSE:RELIANCE', quantity: '11' }, 'pt-BR');
      expect(tooMany.body).toMatchObject({ error: 'insufficient_quantity', msg: 'Quantidade insuficiente' });
      expect(await footprint(t, token)).toEqual(before);

      // The next trading day: the journaled settle_trades releases the lock.
      await t.advance(DAY);
      const settled = (await t.call('GET', '/stock/hold/info?symbol=NSE:RELIANCE', { token })).body.data;
      expect(settled).toMatchObject({ quantity: '10', locked: '0', sellable: '10', unlocksAt: null });
      const journal = (await db.query<{ command: string }>('SELECT command FROM engine_journal ORDER BY seq')).map(
        (row) => decodeCommand(row.command),
      );
      expect(journal.some((c) => c.type === 'settle_trades' && JSON.stringify(c).includes('NSE:RELIANCE'))).toBe(true);

      const sell = await order(t, token, 'sell', { symbol: 'NSE:RELIANCE', quantity: '10' });
      expect(sell.body.data.order).toMatchObject({ status: 'completed', side: 'sell', filledQuantity: '10' });
      const after = (await t.call('GET', '/stock/hold/info?symbol=NSE:RELIANCE', { token })).body.data;
      expect(after.quantity).toBe('0');
      const sellNet = Number(sell.body.data.order.amount) - Number(sell.body.data.order.fee);
      const buyCost = Number(buy.body.data.order.amount) + Number(fee);
      expect(Number(after.realizedPnl)).toBeCloseTo(sellNet - buyCost, 2);

      // The ledger lines behind it: the grant, two trades and two fees.
      const lines = (await t.call('GET', '/user/tx/record?asset=INR', { token })).body.data.items;
      expect(lines.map((l: { cause: string }) => l.cause).sort()).toEqual([
        'fee',
        'fee',
        'paper_grant',
        'trade',
        'trade',
      ]);
      const stats = (await t.call('GET', '/stock/order/statistics', { token })).body.data;
      expect(stats).toMatchObject({ orders: 2, completed: 2, cancelled: 0 });
      expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('rests a limit order below the market with funds held, cancels it and releases them', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token } = await trader(t, '9000000102');
      const quote = (await t.call('GET', '/stock/index/info?symbol=NSE:TCS')).body.data;
      const price = (Number(quote.price) * 0.97).toFixed(1);
      const placed = await order(
        t,
        token,
        'buy',
        { symbol: 'NSE:TCS', orderType: 'limit', price, quantity: '5' },
        'pt-BR',
      );
      expect(placed.body.data.order).toMatchObject({ status: 'pending', filledQuantity: '0', price: `${price}0` });
      // SPEC §8's success words, in the customer's language.
      expect(placed.body.msg).toBe('Enviado');
      const inr = async () =>
        (await t.call('POST', '/user/assets', { token })).body.data.items.find(
          (a: { asset: string }) => a.asset === 'INR',
        );
      expect(Number((await inr()).held)).toBeGreaterThan(Number(price) * 5);
      const open = (await t.call('GET', '/stock/order/list?status=open', { token })).body.data;
      expect(open.items.map((o: { id: number }) => o.id)).toEqual([placed.body.data.order.id]);
      // Another customer cannot cancel it (nor learn that it exists).
      const stranger = await trader(t, '9000000112', { pin: false });
      const theirs = await t.call('GET', `/stock/order/cancel?id=${placed.body.data.order.id}`, {
        token: stranger.token,
        lang: 'pt-BR',
      });
      expect(theirs.body).toMatchObject({ error: 'order_not_found', msg: 'Ordem não encontrada' });
      const cancelled = await t.call('GET', `/stock/order/cancel?id=${placed.body.data.order.id}`, {
        token,
        lang: 'pt-BR',
      });
      expect(cancelled.body.data.order.status).toBe('cancelled');
      expect(cancelled.body.msg).toBe('Cancelado');
      // Answered from the engine's memory: exactly what the read model says afterwards.
      const info = await t.call('GET', `/stock/order/info?id=${placed.body.data.order.id}`, { token });
      expect(cancelled.body.data.order).toEqual(info.body.data);
      expect(await inr()).toMatchObject({ held: '0.00', balance: '1000000.00' });
      // Cancelling again is the same request: the same answer, nothing more released.
      const again = await t.call('GET', `/stock/order/cancel?id=${placed.body.data.order.id}`, { token });
      expect(again.body.data.order.status).toBe('cancelled');
      expect(again.body.msg).toBe('Cancelled');
      expect(await inr()).toMatchObject({ held: '0.00', balance: '1000000.00' });
      // Someone else's order is not found either.
      const other = await trader(t, '9000000103');
      const foreign = await t.call('GET', `/stock/order/info?id=${placed.body.data.order.id}`, { token: other.token });
      expect(foreign.body.error).toBe('order_not_found');
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('cancels an order whose id was asked to be cancelled before it existed, and refuses a finished one', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token } = await trader(t, '9000000113');
      const quote = (await t.call('GET', '/stock/index/info?symbol=NSE:TCS')).body.data;
      const price = (Number(quote.price) * 0.97).toFixed(1);
      const limit = { symbol: 'NSE:TCS', orderType: 'limit', price, quantity: '1' };
      const first = (await order(t, token, 'buy', limit)).body.data.order.id as number;
      // An id or a page spelt other than in plain digits names nothing: z.coerce read each of these as
      // `first` (and cancelled it) or as a page.
      for (const [url, field] of [
        ...[`0x${first.toString(16)}`, `${first}e0`, `${first}.0`, `%20${first}%20`, `0${first}`].map(
          (id) => [`/stock/order/cancel?id=${id}`, 'id'] as const,
        ),
        [`/stock/order/info?id=${first}.0`, 'id'],
        ['/stock/order/list?page=1e0', 'page'],
        ['/stock/order/list?limit=0x10', 'limit'],
      ] as const) {
        for (const [lang, message] of [
          ['en-US', 'This value is not valid'],
          ['pt-BR', 'Este valor não é válido'],
        ] as const) {
          const bad = await t.call('GET', url, { token, lang });
          expect(bad.status, url).toBe(400);
          expect(bad.body, url).toMatchObject({
            code: -1001,
            error: 'validation_failed',
            fields: { [field]: message },
          });
        }
      }
      expect((await t.call('GET', `/stock/order/info?id=${first}`, { token })).body.data.status).toBe('pending');
      // The next ids are not orders yet: refused, and (not reaching the engine) not remembered as refused.
      for (let id = first + 1; id <= first + 20; id++) {
        const early = await t.call('GET', `/stock/order/cancel?id=${id}`, { token, lang: 'pt-BR' });
        expect(early.body).toMatchObject({ error: 'order_not_found', msg: 'Ordem não encontrada' });
      }
      const next = (await order(t, token, 'buy', limit)).body.data.order.id as number;
      expect(next).toBeGreaterThan(first);
      expect(next).toBeLessThanOrEqual(first + 20);
      const cancelled = await t.call('GET', `/stock/order/cancel?id=${next}`, { token });
      expect(cancelled.body.data.order).toMatchObject({ id: next, status: 'cancelled' });
      expect((await t.call('GET', `/stock/order/cancel?id=${next}`, { token })).body.data.order.status).toBe(
        'cancelled',
      );
      // A market order that filled is there to read, but no longer to cancel.
      const filled = (await order(t, token, 'buy', { symbol: 'NSE:TCS', quantity: '1' })).body.data.order;
      expect(filled.status).toBe('completed');
      const late = await t.call('GET', `/stock/order/cancel?id=${filled.id}`, { token, lang: 'pt-BR' });
      expect(late.body).toMatchObject({ error: 'order_not_amendable', msg: 'Esta ordem não pode mais ser alterada' });
      expect((await t.call('GET', `/stock/order/info?id=${filled.id}`, { token })).body.data.status).toBe('completed');
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('fills a resting limit order when the simulated price reaches it, at the limit price', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token } = await trader(t, '9000000104');
      const quote = (await t.call('GET', '/stock/index/info?symbol=NSE:INFY')).body.data;
      // Two ticks under the last price: above the market maker's best bid, so it rests at the top.
      const price = (Number(quote.price) - 0.1).toFixed(2);
      const placed = await order(t, token, 'buy', { symbol: 'NSE:INFY', orderType: 'limit', price, quantity: '3' });
      expect(placed.body.data.order.status).toBe('pending');
      let status = 'pending';
      for (let minute = 0; minute < 120 && status === 'pending'; minute++) {
        await t.advance(MINUTE);
        status = (await t.call('GET', `/stock/order/info?id=${placed.body.data.order.id}`, { token })).body.data.status;
      }
      const filled = (await t.call('GET', `/stock/order/info?id=${placed.body.data.order.id}`, { token })).body.data;
      expect(filled).toMatchObject({ status: 'completed', avgFillPrice: price, filledQuantity: '3' });
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('fills partially what the quotes can take; the rest waits in the book', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token, userId } = await trader(t, '9000000105');
      await t.app.engine.submit({
        type: 'deposit',
        id: 'test-topup',
        userId,
        wallet: 'stock',
        asset: 'INR',
        amount: '50000000.00',
        from: 'faucet',
        cause: 'paper_grant',
      });
      const book = (await t.call('POST', '/stock/index/books', { body: { symbol: 'NSE:ITC' } })).body.data;
      const depth = book.asks.reduce((n: number, [, q]: [string, string]) => n + Number(q), 0);
      const top = book.asks[book.asks.length - 1][0] as string;
      const placed = await order(t, token, 'buy', {
        symbol: 'NSE:ITC',
        orderType: 'limit',
        price: top,
        quantity: String(depth + 100),
      });
      expect(placed.body.data?.order, JSON.stringify(placed.body)).toMatchObject({
        status: 'partial',
        filledQuantity: String(depth),
      });
      // A market order larger than the fresh quotes takes them all and the venue closes the rest.
      const market = await order(t, token, 'buy', { symbol: 'NSE:ITC', quantity: String(depth + 2_000) });
      expect(market.body.data?.order, JSON.stringify(market.body)).toMatchObject({ status: 'closed' });
      const filled = Number(market.body.data.order.filledQuantity);
      expect(filled).toBeGreaterThan(0);
      expect(filled).toBeLessThan(depth + 2_000);
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('queues an after-market order with its funds held and fills it at the next open', async () => {
    const db = await open();
    // Snapshots every few commands, so the restart below starts from one taken after the open.
    const config = { engineSnapshotEvery: 5, engineSnapshots: 'writer' as const };
    let t = await testApp(db, config);
    try {
      const { token } = await trader(t, '9000000106');
      await t.advance(8 * 60 * MINUTE); // 17:30 IST: NSE is closed
      const preview = await t.call('POST', '/stock/order/preview', {
        token,
        body: { symbol: 'NSE:SBIN', side: 'buy', orderType: 'market', quantity: '4' },
      });
      expect(preview.body.data.afterMarket).toBe(true);
      const queued = await order(t, token, 'buy', { symbol: 'NSE:SBIN', quantity: '4' });
      expect(queued.body.data.order).toMatchObject({ status: 'pending', afterMarket: true });
      const assets = (await t.call('POST', '/user/assets', { token })).body.data.items;
      expect(Number(assets.find((a: { asset: string }) => a.asset === 'INR').held)).toBeGreaterThan(0);
      expect((await t.call('POST', '/stock/index/books', { body: { symbol: 'NSE:SBIN' } })).body.data.asks).toEqual([]);
      // A limit buy below the market, also after market: at the open it rests in the book.
      const last = Number((await t.call('GET', '/stock/index/info?symbol=NSE:SBIN')).body.data.price);
      const resting = await order(t, token, 'buy', {
        symbol: 'NSE:SBIN',
        orderType: 'limit',
        price: (last * 0.95).toFixed(1),
        quantity: '2',
      });
      expect(resting.body.data.order).toMatchObject({ status: 'pending', afterMarket: true });
      await t.advance(16 * 60 * MINUTE); // 09:30 IST the next day
      const filled = (await t.call('GET', `/stock/order/info?id=${queued.body.data.order.id}`, { token })).body.data;
      expect(filled).toMatchObject({ status: 'completed', filledQuantity: '4', afterMarket: true });
      // A restart in between: the engine comes back from a snapshot taken with the order in the book.
      const id = resting.body.data.order.id;
      const seqAtOpen = t.app.engine.seq;
      await t.close();
      t = await testApp(db, config);
      expect(t.app.engine.startup.snapshotSeq).toBeGreaterThanOrEqual(seqAtOpen - config.engineSnapshotEvery);
      expect(t.app.engine.state.order(id)).toMatchObject({ queued: false, afterMarket: true });
      await t.advance(24 * 60 * MINUTE); // its clock starts where the first one did: the same morning
      // Cancelled from the book: answered from the engine, still an after-market order, as the read model says.
      const cancelled = (await t.call('GET', `/stock/order/cancel?id=${id}`, { token })).body.data.order;
      expect(cancelled).toMatchObject({ status: 'cancelled', afterMarket: true });
      expect(cancelled).toEqual((await t.call('GET', `/stock/order/info?id=${id}`, { token })).body.data);
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('answers a retry with the same clientOrderId with the first order, and refuses the key with another body', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token } = await trader(t, '9000000107');
      const body = { symbol: 'NSE:ITC', quantity: '2', clientOrderId: 'retry-key-0001' };
      const first = await order(t, token, 'buy', body);
      t.clock.advance(3_000);
      const second = await order(t, token, 'buy', body);
      expect(second.body.data.order.id).toBe(first.body.data.order.id);
      expect((await t.call('GET', '/stock/order/list', { token })).body.data.total).toBe(1);
      const other = await order(t, token, 'buy', { ...body, quantity: '3' });
      expect(other.body.error).toBe('idempotency_key_reused');
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('honours an order key after more than 100,000 other commands (the engine window is gone) and refuses it with another body', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token, userId } = await trader(t, '9000000131');
      const body = { symbol: 'NSE:ITC', quantity: '2', clientOrderId: 'long-retry-0001' };
      const first = await order(t, token, 'buy', body);
      expect(first.body.code, JSON.stringify(first.body)).toBe(0);
      const cash = async () =>
        (await t.call('POST', '/user/assets', { token })).body.data.items.find(
          (a: { asset: string }) => a.asset === 'INR',
        );
      const before = await cash();
      // 100,001 other commands (what the market maker alone sends in about five minutes): the engine's
      // window of remembered ids no longer holds the first order's.
      const filler: Promise<unknown>[] = [];
      for (let i = 0; i < 100_001; i++) {
        filler.push(t.app.engine.submit({ type: 'cancel_order', id: `filler:${i}`, userId: 'nobody', orderId: 1 }));
      }
      await Promise.all(filler);
      t.clock.advance(60 * MINUTE);
      const retry = await order(t, token, 'buy', body);
      expect(retry.body.code, JSON.stringify(retry.body)).toBe(0);
      expect(retry.body.data.order.id).toBe(first.body.data.order.id);
      expect((await t.call('GET', '/stock/order/list', { token })).body.data.total).toBe(1);
      expect(await cash()).toEqual(before);
      const other = await order(t, token, 'buy', { ...body, quantity: '3' }, 'pt-BR');
      expect(other.body).toMatchObject({
        error: 'idempotency_key_reused',
        msg: 'Esta solicitação já foi enviada com conteúdo diferente',
      });
      expect(t.app.engine.state.openOrders(userId)).toHaveLength(0);
    } finally {
      await t.close();
      await db.close();
    }
  }, 120_000);

  it('refuses control characters in symbols, order keys and ledger filters with field_invalid in both languages, and goes on trading', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token } = await trader(t, '9000000130');
      await t.call('POST', '/stock/collect/add', { token, json: { symbol: 'NSE:TCS' } });
      const before = await footprint(t, token);
      // NUL in clientOrderId failed the engine's journal commit on PostgreSQL, which stops the server.
      const keyed = await order(
        t,
        token,
        'buy',
        { symbol: 'NSE:ITC', quantity: '2', clientOrderId: 'retry\u0000key01' },
        'pt-BR',
      );
      expect(keyed.body).toMatchObject({
        error: 'validation_failed',
        msg: 'Verifique os campos destacados',
        fields: { clientOrderId: 'Este valor não é válido' },
      });
      const symbol = await order(t, token, 'buy', { symbol: 'NSE:ITC\u001b', quantity: '2' });
      expect(symbol.body.fields).toEqual({ symbol: 'This value is not valid' });
      // Removing a watchlist entry looked the symbol up in the database: internal_error on PostgreSQL.
      const del = await t.call('POST', '/stock/collect/del', { token, json: { symbol: 'NSE:TCS\u0000' } });
      expect(del.body.fields).toEqual({ symbol: 'This value is not valid' });
      const search = await t.call('GET', '/stock/index/search?keyword=TC%00', { lang: 'pt-BR' });
      expect(search.body.fields).toEqual({ keyword: 'Este valor não é válido' });
      for (const filter of ['asset=INR%00', 'wallet=spot%7F']) {
        const ledger = await t.call('GET', `/user/tx/record?${filter}`, { token });
        expect(ledger.body.error, filter).toBe('validation_failed');
      }

      expect(await footprint(t, token)).toEqual(before);
      const list = (await t.call('POST', '/stock/collect/list', { token })).body.data.items;
      expect(list.map((q: { id: string }) => q.id)).toEqual(['NSE:TCS']);
      const placed = await order(t, token, 'buy', {
        symbol: 'NSE:ITC',
        quantity: '2',
        clientOrderId: 'retry-key-0001',
      });
      expect(placed.body.code, JSON.stringify(placed.body)).toBe(0);
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('keeps a watchlist', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token } = await trader(t, '9000000108', { pin: false });
      await t.call('POST', '/stock/collect/add', { token, body: { symbol: 'NSE:TCS' } });
      await t.call('POST', '/stock/collect/add', { token, body: { symbol: 'AAPL' } });
      await t.call('POST', '/stock/collect/add', { token, body: { symbol: 'NSE:TCS' } });
      const list = (await t.call('POST', '/stock/collect/list', { token })).body.data.items;
      expect(list.map((q: { id: string }) => q.id).sort()).toEqual(['NASDAQ:AAPL', 'NSE:TCS']);
      await t.call('POST', '/stock/collect/del', { token, body: { symbol: 'NSE:TCS' } });
      const left = (await t.call('POST', '/stock/collect/list', { token })).body.data.items;
      expect(left.map((q: { id: string }) => q.id)).toEqual(['NASDAQ:AAPL']);
      const unknown = await t.call('POST', '/stock/collect/add', { token, body: { symbol: 'NOPE' }, lang: 'pt-BR' });
      expect(unknown.body.error).toBe('unknown_instrument');
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('refuses every rule-breaking order with its translated message and changes nothing', async () => {
    const db = await open();
    const t = await testApp(
      db,
      settings({ minShares: 2, maxShares: 1000, maxAmount: { INR: '500000.00', USD: '200000.00', BRL: '1000000.00' } }),
    );
    try {
      const { token } = await trader(t, '9000000109');
      const noPin = await trader(t, '9000000110', { pin: false });
      const quote = (await t.call('GET', '/stock/index/info?symbol=NSE:RELIANCE')).body.data;
      const before = await footprint(t, token);
      const cases: [string, 'buy' | 'sell', Record<string, string | undefined>, string, string, string][] = [
        [
          'zero quantity',
          'buy',
          { symbol: 'NSE:RELIANCE', quantity: '0' },
          'amount_zero',
          'The order amount or price cannot be 0',
          'O valor ou o preço da ordem não pode ser 0',
        ],
        [
          'zero sale',
          'sell',
          { symbol: 'NSE:RELIANCE', quantity: '0' },
          'amount_zero',
          'The order amount or price cannot be 0',
          'O valor ou o preço da ordem não pode ser 0',
        ],
        [
          'zero price',
          'buy',
          { symbol: 'NSE:RELIANCE', orderType: 'limit', price: '0', quantity: '5' },
          'amount_zero',
          'The order amount or price cannot be 0',
          'O valor ou o preço da ordem não pode ser 0',
        ],
        [
          'no quantity',
          'buy',
          { symbol: 'NSE:RELIANCE', quantity: '' },
          'quantity_required',
          'Please enter the quantity',
          'Informe a quantidade',
        ],
        ...(['buy', 'sell'] as const).map(
          (side) =>
            [
              `a price on a market ${side}`,
              side,
              { symbol: 'NSE:RELIANCE', quantity: '5', price: '1500.00' },
              'field_invalid',
              'This value is not valid',
              'Este valor não é válido',
            ] as [string, 'buy' | 'sell', Record<string, string | undefined>, string, string, string],
        ),
        [
          'off tick',
          'buy',
          { symbol: 'NSE:RELIANCE', orderType: 'limit', price: '1500.03', quantity: '5' },
          'price_not_on_tick',
          'The price must be a multiple of the tick size',
          'O preço deve ser múltiplo do tick mínimo',
        ],
        [
          'below minimum shares',
          'buy',
          { symbol: 'NSE:RELIANCE', quantity: '1' },
          'quantity_below_minimum',
          'The quantity is below the minimum',
          'A quantidade está abaixo do mínimo',
        ],
        [
          'above maximum shares',
          'buy',
          { symbol: 'NSE:ITC', quantity: '1001' },
          'quantity_above_maximum',
          'The quantity is above the maximum',
          'A quantidade está acima do máximo',
        ],
        [
          'above maximum money',
          'buy',
          { symbol: 'NSE:RELIANCE', quantity: '400' },
          'amount_above_maximum',
          'The order amount is above the maximum',
          'O valor da ordem está acima do máximo',
        ],
        [
          'outside the band',
          'buy',
          {
            symbol: 'NSE:RELIANCE',
            orderType: 'limit',
            price: (Number(quote.bandHi) + 0.05).toFixed(2),
            quantity: '5',
          },
          'price_outside_band',
          "The price is outside today's price band",
          'O preço está fora da banda de preço de hoje',
        ],
        [
          'unlisted',
          'buy',
          { symbol: 'NSE:JETAIRWAYS', quantity: '5' },
          'instrument_unlisted',
          'The stock is currently unlisted and cannot be traded',
          'A ação não está listada no momento e não pode ser negociada',
        ],
        [
          'not enough money',
          'buy',
          { symbol: 'AAPL', quantity: '100' },
          'insufficient_balance',
          'Insufficient balance',
          'Saldo insuficiente',
        ],
        [
          'nothing to sell',
          'sell',
          { symbol: 'NSE:TCS', quantity: '5' },
          'insufficient_quantity',
          'Not enough quantity',
          'Quantidade insuficiente',
        ],
        [
          'wrong password',
          'buy',
          { symbol: 'NSE:RELIANCE', quantity: '5', password: '111111' },
          'trade_password_incorrect',
          '',
          '',
        ],
        // Not six digits is not a wrong password: it counts toward no lockout (below).
        ...(['12345', '1234567', 'abcdef', '', '١٢٣٤٥٦'] as const).map(
          (password) =>
            [
              `password ${JSON.stringify(password)}`,
              'buy',
              { symbol: 'NSE:RELIANCE', quantity: '5', password },
              'pin_format',
              'The password must be exactly 6 digits',
              'A senha deve ter exatamente 6 dígitos',
            ] as [string, 'buy' | 'sell', Record<string, string | undefined>, string, string, string],
        ),
        [
          'no password',
          'buy',
          { symbol: 'NSE:RELIANCE', quantity: '5', password: undefined },
          'field_required',
          '',
          '',
        ],
        [
          'a clientOrderId the Idempotency-Key header contradicts',
          'buy',
          { symbol: 'NSE:RELIANCE', quantity: '5', clientOrderId: 'key-in-the-body-01' },
          'field_invalid',
          '',
          '',
        ],
      ];
      const headers = (body: Record<string, string | undefined>) =>
        body.clientOrderId ? { 'idempotency-key': 'key-in-the-header-01' } : undefined;
      for (const [name, side, body, code, en, pt] of cases) {
        const send = (lang: string) =>
          t.call('POST', `/stock/order/${side}`, {
            token,
            lang,
            headers: headers(body),
            body: { orderType: 'market', password: PIN, ...body },
          });
        const a = await send('en-US');
        expect(a.body.error, `${name}: ${JSON.stringify(a.body)}`).toBe(code);
        expect(a.body.code).toBe(-1001);
        if (en) expect(a.body.msg, name).toBe(en);
        const b = await send('pt-BR');
        if (pt) expect(b.body.msg, name).toBe(pt);
        else expect(b.body.msg).not.toBe(a.body.msg);
      }
      expect(await footprint(t, token)).toEqual(before);
      // An Idempotency-Key header that is not a key is refused, not ignored (a retry would buy twice).
      for (const key of ['abc', 'ключ-ключ-ключ', 'x'.repeat(65)]) {
        const bad = await t.call('POST', '/stock/order/buy', {
          token,
          headers: { 'idempotency-key': key },
          body: { symbol: 'NSE:RELIANCE', quantity: '5', password: PIN },
        });
        expect(bad.body.error, key).toBe('field_invalid');
        expect(Object.keys(bad.body.fields ?? {}), key).toEqual(['Idempotency-Key']);
      }
      // A JSON body with a number where the contract has a decimal string: not valid, rather than missing.
      for (const [field, json] of [
        ['quantity', { symbol: 'NSE:RELIANCE', quantity: 5, password: PIN }],
        ['quantity', { symbol: 'NSE:RELIANCE', quantity: null, password: PIN }],
        ['password', { symbol: 'NSE:RELIANCE', quantity: '5', password: 246810 }],
      ] as const) {
        const typed = await t.call('POST', '/stock/order/buy', { token, json });
        expect(typed.body.error, JSON.stringify(json)).toBe('validation_failed');
        expect(typed.body.fields, JSON.stringify(json)).toEqual({ [field]: 'This value is not valid' });
      }
      expect(await footprint(t, token)).toEqual(before);
      // None of the malformed passwords counted as a wrong one: one wrong password was sent (twice,
      // once per language) before, so the lockout (from the sixth failure) is far, and the right one works.
      const placed = await order(t, token, 'buy', { symbol: 'NSE:RELIANCE', quantity: '2' });
      expect(placed.body.code, JSON.stringify(placed.body)).toBe(0);
      // A preview refuses a price outside the band, as placing does.
      const preview = await t.call('POST', '/stock/order/preview', {
        token,
        lang: 'pt-BR',
        body: {
          symbol: 'NSE:RELIANCE',
          side: 'buy',
          orderType: 'limit',
          price: (Number(quote.bandHi) + 0.05).toFixed(2),
          quantity: '5',
        },
      });
      expect(preview.body).toMatchObject({
        error: 'price_outside_band',
        fields: { price: 'O preço está fora da banda de preço de hoje' },
      });
      // A market order's preview refuses a price too, naming the field; an empty price field is no price.
      for (const [lang, message] of [
        ['en-US', 'This value is not valid'],
        ['pt-BR', 'Este valor não é válido'],
      ] as const) {
        const priced = await t.call('POST', '/stock/order/preview', {
          token,
          lang,
          body: { symbol: 'NSE:RELIANCE', side: 'sell', orderType: 'market', price: '1500.00', quantity: '5' },
        });
        expect(priced.body).toMatchObject({ error: 'field_invalid', msg: message, fields: { price: message } });
      }
      const blank = await t.call('POST', '/stock/order/preview', {
        token,
        body: { symbol: 'NSE:RELIANCE', side: 'buy', orderType: 'market', price: '', quantity: '5' },
      });
      expect(blank.body.code, JSON.stringify(blank.body)).toBe(0);
      // A call that does not exist answers in the language asked for.
      const missing = await t.call('POST', '/stock/order/amend', { token, lang: 'pt-BR', body: {} });
      const missingEn = await t.call('POST', '/stock/order/amend', { token, body: {} });
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe('not_found');
      expect(missing.body.msg).not.toBe(missingEn.body.msg);

      const afterPlacing = await footprint(t, token);
      const unset = await order(t, noPin.token, 'buy', { symbol: 'NSE:RELIANCE', quantity: '5' });
      expect(unset.body.error).toBe('trade_password_not_set');

      // At the upper circuit the stock cannot be bought (sold, yes).
      const last = t.app.market.lastTicks('NSE:RELIANCE')!;
      const spy = vi
        .spyOn(t.app.market, 'lastTicks')
        .mockImplementation((id) => (id === 'NSE:RELIANCE' ? { ...last, lastTicks: last.band!.upperTicks } : null));
      const limitUp = await order(t, token, 'buy', { symbol: 'NSE:RELIANCE', quantity: '5' }, 'pt-BR');
      expect(limitUp.body).toMatchObject({
        error: 'daily_limit_buy',
        msg: 'Ações no limite diário não podem ser compradas',
      });
      spy.mockRestore();
      expect(await footprint(t, token)).toEqual(afterPlacing);
      expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('refuses orders outside trading hours when the deployment says so, and requires KYC when it says so', async () => {
    const db = await open();
    const t = await testApp(db, settings({ afterMarket: 'refuse', kycRequired: true }));
    try {
      const { token } = await trader(t, '9000000111');
      const kyc = await order(t, token, 'buy', { symbol: 'NSE:RELIANCE', quantity: '5' }, 'pt-BR');
      expect(kyc.body.error).toBe('kyc_required');
      await db.run("UPDATE users SET id_status = 'succ' WHERE phone LIKE '%9000000111'");
      await t.advance(8 * 60 * MINUTE);
      const closed = await order(t, token, 'buy', { symbol: 'NSE:RELIANCE', quantity: '5' });
      expect(closed.body).toMatchObject({
        error: 'market_closed',
        msg: 'The market is closed: orders are accepted during trading hours only',
      });
      expect((await t.call('GET', '/stock/order/list', { token })).body.data.total).toBe(0);
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('applies a new fee schedule after a restart to new orders, while a resting order keeps the fee it was shown', async () => {
    const db = await open();
    const first = await testApp(db, settings({ feeBps: { IN: 12, US: 1, BR: 3 } }));
    let token: string;
    let restingId: number;
    let price: string;
    try {
      ({ token } = await trader(first, '9000000113'));
      const quote = (await first.call('GET', '/stock/index/info?symbol=NSE:TCS')).body.data;
      price = (Number(quote.price) * 0.97).toFixed(1);
      const resting = await order(first, token, 'buy', {
        symbol: 'NSE:TCS',
        orderType: 'limit',
        price,
        quantity: '10',
      });
      restingId = resting.body.data.order.id;
    } finally {
      await first.close();
    }
    const second = await testApp(db, settings({ feeBps: { IN: 30, US: 1, BR: 3 } }));
    try {
      const body = { symbol: 'NSE:TCS', side: 'buy', orderType: 'limit', price, quantity: '10' };
      const preview = (await second.call('POST', '/stock/order/preview', { token, body })).body.data;
      const paise = BigInt(preview.amount.replace('.', ''));
      expect(BigInt(preview.fee.replace('.', ''))).toBe((paise * 30n) / 10_000n);
      // The resting order still holds (and will pay) 12 bp: its hold is the amount plus 12 bp.
      const engineOrder = second.app.engine.state.order(restingId);
      expect(engineOrder?.holdAmount).toBe(paise + (paise * 12n) / 10_000n);
      expect(second.app.engine.state.findBrokenInvariant()).toBeUndefined();
    } finally {
      await second.close();
      await db.close();
    }
  });

  it('keeps each market maker within the open-order limit and every account reconciled', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const state = t.app.engine.state;
      expect(state.openOrders(marketMakerOf('NSE:RELIANCE')).length).toBe(10);
      await t.advance(30 * MINUTE);
      expect(state.findBrokenInvariant()).toBeUndefined();
    } finally {
      await t.close();
      await db.close();
    }
  });
});
