// The crypto exchange through the HTTP API on both databases: the liquidity bot's ladder, orders of
// every type against it and between two customers, fees, amend and cancel, lists and fills, idempotent
// retries, favourites, and every rejection in both languages with nothing changed.

import { testDatabases } from '@bourse/db';
import { describe, expect, it } from 'vitest';
import { marketMakerOf } from '../../adapters/venue/quote-ladder.ts';
import { testApp } from '../../testing.ts';

const dbs = await testDatabases();
const PIN = '246810';
type T = Awaited<ReturnType<typeof testApp>>;

async function trader(t: T, phone: string, funds: Record<string, string> = { USDT: '100000' }, pin = true) {
  const token = (await t.register(phone)).body.data.token as string;
  if (pin) {
    const set = await t.call('POST', '/user/update/tradePassword', {
      token,
      body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
    });
    expect(set.body.code, JSON.stringify(set.body)).toBe(0);
  }
  const userId = (await t.call('GET', '/user/login/info', { token })).body.data.user.id as number;
  for (const [asset, amount] of Object.entries(funds)) {
    const result = await t.app.engine.submit({
      type: 'deposit',
      id: `test-grant:${userId}:${asset}`,
      userId: String(userId),
      wallet: 'spot',
      asset,
      amount,
      from: 'faucet',
      cause: 'paper_grant',
      link: 'spot-test',
    });
    expect(result.ok).toBe(true);
  }
  return { token, userId };
}

const balance = (t: T, userId: number, asset: string) => t.app.engine.state.balance(String(userId), 'spot', asset);

const add = (t: T, token: string, body: Record<string, unknown>, lang = 'en-US') =>
  t.call('POST', '/coin/order/add', { token, lang, json: { symbol: 'BTCUSDT', password: PIN, ...body } });

describe.each(dbs)('crypto exchange on $dialect', ({ open }) => {
  it('lists every pair with its filters and quotes a ladder on each book', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const infos = (await t.call('POST', '/coin/infos')).body.data.items as { symbol: string }[];
      const symbols = infos.map((p) => p.symbol);
      for (const base of ['BTC', 'ETH', 'SOL', 'BNB', 'XRP', 'DOGE', 'LTC', 'LINK', 'AVAX', 'DOT'])
        expect(symbols).toContain(`${base}USDT`);
      expect(infos[0]).toMatchObject({
        id: 'CRYPTO:BTCUSDT',
        base: 'BTC',
        quote: 'USDT',
        minNotional: '5',
        makerFeeBps: 10,
        takerFeeBps: 10,
        trading: true,
        liquidityAccount: marketMakerOf('CRYPTO:BTCUSDT'),
        favourite: false,
      });
      const book = (await t.call('POST', '/coin/books', { body: { symbol: 'CRYPTO:BTCUSDT' } })).body.data;
      expect(book.asks.length).toBe(5);
      expect(book.bids.length).toBe(5);
    } finally {
      await t.close();
    }
  });

  it('trades against the bot and between customers, with maker and taker fees exact', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const alice = await trader(t, '9000000201', { USDT: '100000', BTC: '1' });
      const bob = await trader(t, '9000000202');
      const last = t.app.market.lastTicks('CRYPTO:BTCUSDT')?.lastTicks as number;
      const book = (await t.call('POST', '/coin/books', { body: { symbol: 'BTCUSDT' } })).body.data;
      const bestAsk = book.asks[0][0] as string;

      // The fee is shown before confirming: the higher rate on price × quantity, rounded down.
      const preview = await t.call('POST', '/coin/order/preview', {
        token: bob.token,
        json: { symbol: 'BTC-USDT', side: 'buy', type: 'market', quantity: '0.01' },
      });
      expect(preview.body.data).toMatchObject({
        symbol: 'BTCUSDT',
        price: bestAsk,
        quantity: '0.01000000',
        feeAsset: 'USDT',
        makerFeeBps: 10,
        takerFeeBps: 10,
        available: '100000.000000',
        availableAsset: 'USDT',
      });
      const amount = micro(preview.body.data.amount);
      expect(micro(preview.body.data.fee)).toBe((amount * 10n) / 10_000n);

      // A market buy walks the bot's asks: it pays the notional and the taker fee, exactly.
      const usdtBefore = balance(t, bob.userId, 'USDT').balance;
      const market = await add(t, bob.token, { side: 'buy', type: 'market', quantity: '0.01' });
      expect(market.body.code, JSON.stringify(market.body)).toBe(0);
      const o = market.body.data.order;
      expect(o).toMatchObject({
        status: 'completed',
        type: 'market',
        timeInForce: 'ioc',
        price: '',
        quantity: '0.01000000',
        filledQuantity: '0.01000000',
        avgPrice: bestAsk,
        feeAsset: 'USDT',
        base: 'BTC',
        quote: 'USDT',
      });
      expect(micro(o.filledAmount)).toBe(amount);
      expect(micro(o.fee)).toBe((amount * 10n) / 10_000n);
      expect(balance(t, bob.userId, 'BTC').balance).toBe(1_000_000n);
      expect(usdtBefore - balance(t, bob.userId, 'USDT').balance).toBe(amount + micro(o.fee));
      const bobFills = (await t.call('POST', '/coin/order/trades', { token: bob.token, json: { orderId: o.id } })).body
        .data;
      expect(bobFills.total).toBe(1);
      expect(bobFills.items[0]).toMatchObject({ orderId: o.id, side: 'buy', liquidity: 'taker', symbol: 'BTCUSDT' });

      // ETH's own scale is 18: quantities show 8 decimals (its lot has 4), exactly.
      const eth = await add(t, bob.token, { symbol: 'ETHUSDT', side: 'buy', type: 'market', quantity: '0.01' });
      expect(eth.body.data.order).toMatchObject({
        symbol: 'ETHUSDT',
        quantity: '0.01000000',
        filledQuantity: '0.01000000',
      });
      expect(balance(t, bob.userId, 'ETH').balance).toBe(10_000_000_000_000_000n);

      // A market buy by quote amount spends no more than it names, fee included.
      const byQuote = await add(t, bob.token, { side: 'buy', type: 'market', quoteAmount: '100' });
      expect(byQuote.body.code, JSON.stringify(byQuote.body)).toBe(0);
      const q = byQuote.body.data.order;
      expect(q).toMatchObject({ type: 'market', status: 'completed' });
      expect(micro(q.filledAmount) + micro(q.fee)).toBeLessThanOrEqual(100_000_000n);
      // Short of it by less than one lot (0.0001 BTC) and its fee: whole lots only.
      const lotCost = micro(q.avgPrice) / 10_000n + 1n;
      expect(100_000_000n - (micro(q.filledAmount) + micro(q.fee))).toBeLessThan(lotCost + lotCost / 500n);

      // Alice rests a post-only ask inside the bot's spread; Bob's IOC buy at that price takes it.
      const inside = ticksText(last + 1);
      const ask = await add(t, alice.token, {
        side: 'sell',
        type: 'limit',
        price: inside,
        quantity: '0.002',
        postOnly: true,
      });
      expect(ask.body.code, JSON.stringify(ask.body)).toBe(0);
      expect(ask.body.data.order).toMatchObject({ status: 'pending', postOnly: true, price: inside });
      const aliceUsdt = balance(t, alice.userId, 'USDT').balance;
      const take = await add(t, bob.token, {
        side: 'buy',
        type: 'limit',
        price: inside,
        quantity: '0.002',
        timeInForce: 'ioc',
      });
      expect(take.body.data.order).toMatchObject({ status: 'completed', avgPrice: inside, timeInForce: 'ioc' });
      const notional = micro(inside) / 500n; // 0.002 BTC
      const aliceOrder = (
        await t.call('POST', '/coin/order/query', { token: alice.token, json: { id: ask.body.data.order.id } })
      ).body.data;
      expect(aliceOrder).toMatchObject({ status: 'completed', filledQuantity: '0.00200000' });
      expect(micro(aliceOrder.fee)).toBe((notional * 10n) / 10_000n);
      expect(balance(t, alice.userId, 'USDT').balance - aliceUsdt).toBe(notional - (notional * 10n) / 10_000n);
      expect(balance(t, alice.userId, 'BTC').balance).toBe(100_000_000n - 200_000n);
      const aliceFills = (await t.call('POST', '/coin/order/trades', { token: alice.token, json: {} })).body.data;
      expect(aliceFills.items[0]).toMatchObject({
        side: 'sell',
        liquidity: 'maker',
        price: inside,
        quantity: '0.00200000',
      });

      // The bot is a disclosed account funded by ordinary ledger deposits from platform liquidity.
      const funding = await db.query<{ asset: string; debit_owner: string }>(
        "SELECT asset, debit_owner FROM ledger_transfers WHERE credit_owner = 'mm:CRYPTO:BTCUSDT' AND cause = 'deposit'",
      );
      expect(funding.map((f) => f.asset).sort()).toEqual(['BTC', 'USDT']);
      expect(funding.map((f) => f.debit_owner)).toEqual(['platform:liquidity', 'platform:liquidity']);
      expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('refuses a post-only order that would take and an FOK it cannot fill, and closes an IOC remainder', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token, userId } = await trader(t, '9000000211');
      const book = (await t.call('POST', '/coin/books', { body: { symbol: 'BTCUSDT' } })).body.data;
      const bestAsk = book.asks[0][0] as string;
      const before = balance(t, userId, 'USDT');
      for (const [body, code, en, pt] of [
        [
          { side: 'buy', price: bestAsk, quantity: '0.001', postOnly: true },
          'post_only_would_take',
          'A post-only order cannot trade immediately',
          'Uma ordem somente-maker não pode ser executada imediatamente',
        ],
        [
          { side: 'buy', price: bestAsk, quantity: '0.5', timeInForce: 'fok' },
          'fok_not_fillable',
          'The order cannot be filled completely right now',
          'A ordem não pode ser executada integralmente agora',
        ],
      ] as const) {
        const a = await add(t, token, { type: 'limit', ...body });
        expect(a.body, JSON.stringify(a.body)).toMatchObject({ error: code, msg: en });
        const b = await add(t, token, { type: 'limit', ...body }, 'pt-BR');
        expect(b.body).toMatchObject({ error: code, msg: pt });
      }
      expect(balance(t, userId, 'USDT')).toEqual(before);
      // An FOK the best level covers fills whole.
      const fok = await add(t, token, {
        side: 'buy',
        type: 'limit',
        price: bestAsk,
        quantity: '0.001',
        timeInForce: 'fok',
      });
      expect(fok.body.data.order).toMatchObject({ status: 'completed', timeInForce: 'fok' });
      // An IOC for more than the best level holds: what is there fills, the rest is closed.
      const level = (await t.call('POST', '/coin/books', { body: { symbol: 'BTCUSDT' } })).body.data.asks[0];
      const ioc = await add(t, token, {
        side: 'buy',
        type: 'limit',
        price: level[0],
        quantity: (Number(level[1]) + 0.01).toFixed(4),
        timeInForce: 'ioc',
      });
      expect(ioc.body.data.order).toMatchObject({ status: 'partial', filledQuantity: Number(level[1]).toFixed(8) });
      expect(t.app.engine.state.openOrders(String(userId))).toEqual([]);
      expect(balance(t, userId, 'USDT').held).toBe(0n);
    } finally {
      await t.close();
    }
  });

  it('rests, amends down, cancels and lists orders, and answers an id of another customer as not found', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const alice = await trader(t, '9000000221');
      const eve = await trader(t, '9000000222');
      const last = t.app.market.lastTicks('CRYPTO:BTCUSDT')?.lastTicks as number;
      const low = ticksText(Math.floor(last * 0.9));
      const placed = await add(t, alice.token, { side: 'buy', type: 'limit', price: low, quantity: '0.01' });
      const id = placed.body.data.order.id as number;
      expect(placed.body.data.order).toMatchObject({ status: 'pending', type: 'limit', timeInForce: 'gtc' });
      const held = balance(t, alice.userId, 'USDT').held;
      expect(held).toBe(micro(low) / 100n + ((micro(low) / 100n) * 10n) / 10_000n);

      // Amend down keeps its place and releases the difference; up or unchanged is refused.
      const amended = await t.call('POST', '/coin/order/amend', {
        token: alice.token,
        json: { id, quantity: '0.004' },
      });
      expect(amended.body).toMatchObject({ code: 0, msg: 'Modified' });
      expect(amended.body.data.order).toMatchObject({ quantity: '0.00400000', status: 'pending' });
      expect(balance(t, alice.userId, 'USDT').held).toBe(micro(low) / 250n + ((micro(low) / 250n) * 10n) / 10_000n);
      const up = await t.call('POST', '/coin/order/amend', { token: alice.token, json: { id, quantity: '0.02' } });
      expect(up.body.error).toBe('invalid_quantity');
      const same = await t.call('POST', '/coin/order/amend', {
        token: alice.token,
        lang: 'pt-BR',
        json: { id, quantity: '0.004' },
      });
      expect(same.body).toMatchObject({ error: 'amend_no_change', msg: 'Nada a alterar nesta ordem' });

      // Another customer's id: not found, for query, cancel and amend, in both languages.
      for (const [url, json] of [
        ['/coin/order/query', { id }],
        ['/coin/order/trades', { orderId: id }],
        ['/coin/order/close', { id }],
        ['/coin/order/amend', { id, quantity: '0.001' }],
      ] as const) {
        const en = await t.call('POST', url, { token: eve.token, json });
        expect(en.body, url).toMatchObject({ error: 'order_not_found', msg: 'Order not found' });
        const pt = await t.call('POST', url, { token: eve.token, lang: 'pt-BR', json });
        expect(pt.body, url).toMatchObject({ error: 'order_not_found', msg: 'Ordem não encontrada' });
      }
      const stockCancel = await t.call('GET', `/stock/order/cancel?id=${id}`, { token: eve.token });
      expect(stockCancel.body.error).toBe('order_not_found');

      const open = (await t.call('POST', '/coin/order/list', { token: alice.token, json: { status: 'open' } })).body
        .data;
      expect(open.total).toBe(1);
      expect(open.items[0].id).toBe(id);
      const cancelled = await t.call('POST', '/coin/order/close', { token: alice.token, json: { id } });
      expect(cancelled.body).toMatchObject({ code: 0, msg: 'Cancelled' });
      expect(cancelled.body.data.order.status).toBe('cancelled');
      // A repeat answers the same; the funds are all free again.
      const again = await t.call('POST', '/coin/order/close', { token: alice.token, json: { id } });
      expect(again.body.data.order.status).toBe('cancelled');
      expect(balance(t, alice.userId, 'USDT')).toMatchObject({ held: 0n, balance: 100_000_000_000n });
      const lists = async (status: string) =>
        (await t.call('POST', '/coin/order/list', { token: alice.token, json: { status, symbol: 'BTCUSDT' } })).body
          .data.total;
      expect([await lists('open'), await lists('history'), await lists('all')]).toEqual([0, 1, 1]);
      const amendClosed = await t.call('POST', '/coin/order/amend', {
        token: alice.token,
        json: { id, quantity: '0.001' },
      });
      expect(amendClosed.body.error).toBe('order_not_amendable');
      expect((await t.call('POST', '/coin/order/list', { token: eve.token, json: {} })).body.data.total).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('fills a resting order when the simulated price reaches it, and fires a stop-limit at its stop', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token, userId } = await trader(t, '9000000231', { USDT: '100000', BTC: '1' });
      const last = t.app.market.lastTicks('CRYPTO:BTCUSDT')?.lastTicks as number;
      // A stop already passed is refused (a buy stop below the price fires at once).
      const passed = await add(t, token, {
        side: 'buy',
        type: 'stop_limit',
        stopPrice: ticksText(last - 100),
        price: ticksText(last),
        quantity: '0.001',
      });
      expect(passed.body).toMatchObject({ error: 'invalid_trigger_price', msg: 'The trigger price is not valid' });
      // One tick either side: whichever way the price moves, one bid or ask and one stop are reached.
      const bid = await add(t, token, { side: 'buy', type: 'limit', price: ticksText(last - 1), quantity: '0.001' });
      const ask = await add(t, token, { side: 'sell', type: 'limit', price: ticksText(last + 1), quantity: '0.001' });
      const stopUp = await add(t, token, {
        side: 'buy',
        type: 'stop_limit',
        stopPrice: ticksText(last + 1),
        price: ticksText(Math.floor(last * 1.01)),
        quantity: '0.001',
      });
      const stopDown = await add(t, token, {
        side: 'sell',
        type: 'stop_limit',
        stopPrice: ticksText(last - 1),
        price: ticksText(Math.floor(last * 0.99)),
        quantity: '0.001',
      });
      for (const r of [bid, ask, stopUp, stopDown]) expect(r.body.code, JSON.stringify(r.body)).toBe(0);
      expect(stopUp.body.data.order).toMatchObject({
        type: 'stop_limit',
        status: 'untriggered',
        stopPrice: ticksText(last + 1),
      });
      const status = async (id: number) =>
        (await t.call('POST', '/coin/order/query', { token, json: { id } })).body.data.status as string;
      let moved = 0;
      for (let i = 0; i < 120; i++) {
        await t.advance(1_000);
        moved = t.app.market.lastTicks('CRYPTO:BTCUSDT')?.lastTicks as number;
        if (moved !== last) break;
      }
      expect(moved).not.toBe(last);
      const [filled, resting] = moved > last ? [ask, bid] : [bid, ask];
      const [fired, waiting] = moved > last ? [stopUp, stopDown] : [stopDown, stopUp];
      expect(await status(filled.body.data.order.id)).toBe('completed');
      expect(await status(resting.body.data.order.id)).toBe('pending');
      expect(await status(fired.body.data.order.id)).not.toBe('untriggered');
      expect(await status(waiting.body.data.order.id)).toBe('untriggered');
      // The bot filled the customer at the customer's own limit.
      const fill = (await t.call('POST', '/coin/order/trades', { token, json: { orderId: filled.body.data.order.id } }))
        .body.data.items[0];
      expect(fill).toMatchObject({ price: filled.body.data.order.price, liquidity: 'maker' });
      expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
      void userId;
    } finally {
      await t.close();
    }
  });

  it('refuses every rule-breaking order in both languages and changes nothing', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token, userId } = await trader(t, '9000000241', { USDT: '50' });
      const nopin = await trader(t, '9000000242', { USDT: '50' }, false);
      const last = t.app.market.lastTicks('CRYPTO:BTCUSDT')?.lastTicks as number;
      const price = ticksText(last);
      const cases: [string, Record<string, unknown>, string, string, string][] = [
        [
          'zero quantity',
          { type: 'limit', price, quantity: '0' },
          'amount_zero',
          'The order amount or price cannot be 0',
          'O valor ou o preço da ordem não pode ser 0',
        ],
        [
          'zero price',
          { type: 'limit', price: '0.00', quantity: '0.001' },
          'amount_zero',
          'The order amount or price cannot be 0',
          'O valor ou o preço da ordem não pode ser 0',
        ],
        [
          'no quantity',
          { type: 'limit', price },
          'quantity_required',
          'Please enter the quantity',
          'Informe a quantidade',
        ],
        [
          'below the minimum value',
          { symbol: 'DOGEUSDT', type: 'limit', price: '0.16000', quantity: '30' },
          'notional_below_minimum',
          'The order value is below the minimum of 5 USDT',
          'O valor da ordem está abaixo do mínimo de 5 USDT',
        ],
        [
          'not enough USDT',
          { type: 'limit', price, quantity: '0.01' },
          'insufficient_balance',
          'Insufficient balance',
          'Saldo insuficiente',
        ],
        [
          'no BTC to sell',
          { side: 'sell', type: 'market', quantity: '0.001' },
          'insufficient_balance',
          'Insufficient balance',
          'Saldo insuficiente',
        ],
        [
          'off the tick',
          { type: 'limit', price: `${price}1`, quantity: '0.001' },
          'price_not_on_tick',
          'The price must be a multiple of the tick size',
          'O preço deve ser múltiplo do tick mínimo',
        ],
        [
          'off the lot',
          { type: 'limit', price, quantity: '0.00015' },
          'quantity_not_on_lot',
          'The quantity must be a multiple of the lot size',
          'A quantidade deve ser múltipla do lote',
        ],
        [
          'unknown pair',
          { symbol: 'FOOUSDT', type: 'limit', price, quantity: '0.001' },
          'unknown_instrument',
          'Unknown instrument',
          'Instrumento desconhecido',
        ],
        [
          'a stock is not a pair',
          { symbol: 'NSE:RELIANCE', type: 'market', quantity: '1' },
          'unknown_instrument',
          'Unknown instrument',
          'Instrumento desconhecido',
        ],
        ['market with a price', { type: 'market', price, quantity: '0.001' }, 'field_invalid', '', ''],
        ['limit without a price', { type: 'limit', quantity: '0.001' }, 'field_required', '', ''],
        [
          'post-only IOC',
          { type: 'limit', price, quantity: '0.001', postOnly: true, timeInForce: 'ioc' },
          'field_invalid',
          '',
          '',
        ],
        ['stop-limit without a stop', { type: 'stop_limit', price, quantity: '0.001' }, 'field_required', '', ''],
        [
          'wrong password',
          { type: 'market', quantity: '0.001', password: '111111' },
          'trade_password_incorrect',
          '',
          '',
        ],
        ['no password', { type: 'market', quantity: '0.001', password: undefined }, 'field_required', '', ''],
      ];
      const before = balance(t, userId, 'USDT');
      for (const [name, body, code, en, pt] of cases) {
        const a = await add(t, token, { side: 'buy', ...body });
        expect(a.body.error, `${name}: ${JSON.stringify(a.body)}`).toBe(code);
        if (en) expect(a.body.msg, name).toBe(en);
        const b = await add(t, token, { side: 'buy', ...body }, 'pt-BR');
        expect(b.body.error, name).toBe(code);
        if (pt) expect(b.body.msg, name).toBe(pt);
        else expect(b.body.msg, name).not.toBe(a.body.msg);
      }
      const unset = await add(t, nopin.token, { side: 'buy', type: 'market', quantity: '0.001' }, 'pt-BR');
      expect(unset.body.error).toBe('trade_password_not_set');
      expect(balance(t, userId, 'USDT')).toEqual(before);
      expect((await t.call('POST', '/coin/order/list', { token, json: {} })).body.data.total).toBe(0);
      const signedOut = await t.call('POST', '/coin/order/list', { json: {} });
      expect(signedOut.body.code).not.toBe(0);
    } finally {
      await t.close();
    }
  });

  it('answers a retry with the same clientOrderId with the first order, and refuses the key with another body', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token, userId } = await trader(t, '9000000251');
      const last = t.app.market.lastTicks('CRYPTO:BTCUSDT')?.lastTicks as number;
      const body = {
        side: 'buy',
        type: 'limit',
        price: ticksText(Math.floor(last * 0.95)),
        quantity: '0.001',
        clientOrderId: 'my-order-0001',
      };
      const first = await add(t, token, body);
      const retry = await add(t, token, body);
      expect(retry.body.data.order.id).toBe(first.body.data.order.id);
      expect(retry.body.data.order.clientOrderId).toBe('my-order-0001');
      expect(t.app.engine.state.openOrders(String(userId)).length).toBe(1);
      // Found by its client order id too (the Binance-shaped API's origClientOrderId), only by its owner.
      const byKey = await t.app.spot.exchange.orderByClientOrderId(userId, 'my-order-0001');
      expect(byKey.id).toBe(first.body.data.order.id);
      await expect(t.app.spot.exchange.orderByClientOrderId(userId + 1, 'my-order-0001')).rejects.toThrow(
        'order_not_found',
      );
      const other = await add(t, token, { ...body, quantity: '0.002' });
      expect(other.body.error).toBe('idempotency_key_reused');
      const otherKind = await add(t, token, { ...body, postOnly: true });
      expect(otherKind.body.error).toBe('idempotency_key_reused');
      // A market buy by quote amount is matched by its key alone.
      const quoted = { side: 'buy', type: 'market', quoteAmount: '20', clientOrderId: 'my-order-0002' };
      const q1 = await add(t, token, quoted);
      const q2 = await add(t, token, quoted);
      expect(q2.body.data.order.id).toBe(q1.body.data.order.id);
      expect((await t.call('POST', '/coin/order/list', { token, json: {} })).body.data.total).toBe(2);
    } finally {
      await t.close();
    }
  });

  it('keeps crypto favourites apart from the stock watchlist', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token } = await trader(t, '9000000261', {});
      expect((await t.call('POST', '/coin/collect/add', { token, json: { symbol: 'ETH/USDT' } })).body.code).toBe(0);
      expect((await t.call('POST', '/coin/collect/add', { token, json: { symbol: 'BTCUSDT' } })).body.code).toBe(0);
      expect((await t.call('POST', '/stock/collect/add', { token, body: { symbol: 'NSE:TCS' } })).body.code).toBe(0);
      const unknown = await t.call('POST', '/coin/collect/add', { token, lang: 'pt-BR', json: { symbol: 'NSE:TCS' } });
      expect(unknown.body).toMatchObject({ error: 'unknown_instrument', msg: 'Instrumento desconhecido' });
      const coins = (await t.call('POST', '/coin/collect/list', { token })).body.data.items.map(
        (q: { symbol: string }) => q.symbol,
      );
      expect(coins).toEqual(['BTCUSDT', 'ETHUSDT']);
      const stocks = (await t.call('POST', '/stock/collect/list', { token })).body.data.items.map(
        (q: { symbol: string }) => q.symbol,
      );
      expect(stocks).toEqual(['TCS']);
      const infos = (await t.call('POST', '/coin/infos', { token })).body.data.items as {
        symbol: string;
        favourite: boolean;
      }[];
      expect(
        infos
          .filter((p) => p.favourite)
          .map((p) => p.symbol)
          .sort(),
      ).toEqual(['BTCUSDT', 'ETHUSDT']);
      await t.call('POST', '/coin/collect/del', { token, json: { symbol: 'CRYPTO:BTCUSDT' } });
      const after = (await t.call('POST', '/coin/collect/list', { token })).body.data.items.map(
        (q: { symbol: string }) => q.symbol,
      );
      expect(after).toEqual(['ETHUSDT']);
    } finally {
      await t.close();
    }
  });
});

/** USDT text → micro-USDT (the asset's 6 decimals). */
function micro(text: string): bigint {
  const [whole, frac = ''] = text.split('.');
  return BigInt(whole as string) * 1_000_000n + BigInt(frac.padEnd(6, '0').slice(0, 6));
}

/** BTCUSDT ticks (0.01) → price text. */
function ticksText(ticks: number): string {
  return `${Math.floor(ticks / 100)}.${String(ticks % 100).padStart(2, '0')}`;
}
