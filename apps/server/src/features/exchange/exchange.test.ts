// API tests of currency exchange through the real HTTP stack on SQLite and PostgreSQL: a quote, then its
// acceptance moving exactly the quoted amounts as one convert; expiry, a foreign quote, a short balance,
// an idempotent retry and bad requests, each refusal in both languages with nothing changed. The same for
// crypto convert (POST /coin/convert): coin pairs priced through their USDT pairs, in the spot wallet.

import { testDatabases } from '@bourse/db';
import { formatDecimal, parseDecimal } from '@bourse/money';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STOCK_GRANTS_ONLY, testApp } from '../../testing.ts';
import { COIN_SPREAD_BPS, QUOTE_VALIDITY_MS } from './service.ts';

const dbs = await testDatabases();
type T = Awaited<ReturnType<typeof testApp>>;

describe.each(dbs)('currency exchange on $dialect', ({ open }) => {
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
  const customer = async (phone: string) => (await t.register(phone)).body.data.token as string;
  const cash = async (token: string) => {
    const items = (await t.call('POST', '/user/assets', { token })).body.data.items as {
      wallet: string;
      asset: string;
      balance: string;
    }[];
    return Object.fromEntries(items.filter((i) => i.wallet === 'stock').map((i) => [i.asset, i.balance]));
  };
  const quote = (token: string, from: string, to: string, amount: string, lang = 'en-US') =>
    t.call('POST', '/user/exchange', { token, lang, json: { action: 'quote', from, to, amount } });
  const accept = (token: string, quoteId: number, lang = 'en-US') =>
    t.call('POST', '/user/exchange', { token, lang, json: { action: 'accept', quoteId } });
  const lines = async (token: string, cause = 'convert') =>
    (await t.call('GET', `/user/tx/record?cause=${cause}&limit=50`, { token })).body.data.items as {
      asset: string;
      amount: string;
      cause: string;
      link: string;
    }[];

  it('quotes USD → BRL with the spread shown and, accepted in time, moves exactly the quoted amounts', async () => {
    await start();
    const token = await customer('9100000001');
    expect(await cash(token)).toEqual({ INR: '1000000.00', USD: '10000.00', BRL: '50000.00' });
    const q = (await quote(token, 'USD', 'BRL', '100')).body;
    expect(q.code, JSON.stringify(q)).toBe(0);
    expect(q.data).toMatchObject({ from: 'USD', to: 'BRL', amount: '100.00', spreadBps: 50, status: 'quoted' });
    expect(q.data.expiresAt - q.data.createdAt).toBe(QUOTE_VALIDITY_MS);
    // The spread is visible: mid-rate amount = received + spread cost.
    const receive = Number(q.data.receive);
    expect(Number(q.data.midRate) * 100).toBeCloseTo(receive + Number(q.data.spreadCost), 1);
    expect(Number(q.data.rate)).toBeLessThan(Number(q.data.midRate));

    await t.advance(QUOTE_VALIDITY_MS - 1_000);
    const done = (await accept(token, q.data.id)).body;
    expect(done.code, JSON.stringify(done)).toBe(0);
    expect(done.data).toMatchObject({ id: q.data.id, status: 'accepted', receive: q.data.receive, virtual: true });
    // Exact decimal arithmetic on the balances: 50,000.00 BRL + the quoted amount.
    const [whole, cents] = (q.data.receive as string).split('.') as [string, string];
    const brl = 50_000 * 100 + Number(whole) * 100 + Number(cents);
    expect(await cash(token)).toEqual({
      INR: '1000000.00',
      USD: '9900.00',
      BRL: `${Math.floor(brl / 100)}.${String(brl % 100).padStart(2, '0')}`,
    });
    // Two ledger lines, both linked to the quote.
    const got = await lines(token);
    expect(got.map((l) => [l.asset, l.amount, l.link]).sort()).toEqual([
      ['BRL', q.data.receive, `exchange_quote:${q.data.id}`],
      ['USD', '-100.00', `exchange_quote:${q.data.id}`],
    ]);

    // A retry (a lost answer) answers the same and moves nothing again, even after the quote's time.
    await t.advance(60_000);
    const again = (await accept(token, q.data.id)).body;
    expect(again.data).toEqual(done.data);
    expect((await cash(token)).USD).toBe('9900.00');
    expect(await lines(token)).toHaveLength(2);
  });

  it('quotes BRL → USD and INR → USD the other way round', async () => {
    await start();
    const token = await customer('9100000002');
    for (const from of ['BRL', 'INR']) {
      const q = (await quote(token, from, 'USD', '1000')).body.data;
      expect(Number(q.rate)).toBeLessThan(Number(q.midRate));
      expect(Number(q.receive)).toBeGreaterThan(0);
      expect((await accept(token, q.id)).body.code).toBe(0);
    }
    const after = await cash(token);
    expect(after.BRL).toBe('49000.00');
    expect(after.INR).toBe('999000.00');
    expect(Number(after.USD)).toBeGreaterThan(10_000);
    const rates = (await t.call('GET', '/user/exchange/rates', { token })).body.data;
    expect(rates.rates.map((r: { from: string; to: string }) => `${r.from}${r.to}`)).toEqual([
      'USDBRL',
      'BRLUSD',
      'USDINR',
      'INRUSD',
    ]);
  });

  it('refuses an expired quote in both languages, changing nothing', async () => {
    await start();
    const token = await customer('9100000003');
    const q = (await quote(token, 'USD', 'BRL', '50')).body.data;
    await t.advance(QUOTE_VALIDITY_MS + 1);
    for (const [lang, msg] of [
      ['en-US', 'This quote has expired. Nothing was exchanged; please get a new quote.'],
      ['pt-BR', 'Esta cotação expirou. Nada foi trocado; peça uma nova cotação.'],
    ] as const) {
      expect((await accept(token, q.id, lang)).body).toMatchObject({ error: 'exchange_quote_expired', msg });
    }
    expect(await cash(token)).toEqual({ INR: '1000000.00', USD: '10000.00', BRL: '50000.00' });
    expect(await lines(token)).toEqual([]);
  });

  it("answers another customer's quote as not found, and refuses what the balance cannot pay", async () => {
    await start();
    const alice = await customer('9100000004');
    const bob = await customer('9100000005');
    const q = (await quote(alice, 'USD', 'BRL', '10')).body.data;
    for (const [lang, msg] of [
      ['en-US', 'Quote not found'],
      ['pt-BR', 'Cotação não encontrada'],
    ] as const) {
      expect((await accept(bob, q.id, lang)).body).toMatchObject({ error: 'exchange_quote_not_found', msg });
      expect((await accept(bob, 999_999, lang)).body).toMatchObject({ error: 'exchange_quote_not_found', msg });
    }
    const big = (await quote(bob, 'USD', 'INR', '10000.01')).body.data;
    for (const [lang, msg] of [
      ['en-US', 'Insufficient balance'],
      ['pt-BR', 'Saldo insuficiente'],
    ] as const) {
      expect((await accept(bob, big.id, lang)).body).toMatchObject({ error: 'insufficient_balance', msg });
    }
    expect(await cash(bob)).toEqual({ INR: '1000000.00', USD: '10000.00', BRL: '50000.00' });
    expect(await cash(alice)).toEqual({ INR: '1000000.00', USD: '10000.00', BRL: '50000.00' });
    // Once bob has the dollars (another exchange), the same quote is accepted within its time.
    const topUp = (await quote(bob, 'BRL', 'USD', '100')).body.data;
    expect((await accept(bob, topUp.id)).body.code).toBe(0);
    const later = await accept(bob, big.id);
    expect(later.body, JSON.stringify(later.body)).toMatchObject({ code: 0, data: { status: 'accepted' } });
    expect((await cash(bob)).INR).toBe(
      formatDecimal(parseDecimal('1000000.00', 2) + parseDecimal(big.receive as string, 2), 2),
    );
  });

  it('refuses an unsupported pair, one currency twice, a tiny or malformed amount, in both languages', async () => {
    await start();
    const token = await customer('9100000006');
    const cases: [string, string, string, string, string, string][] = [
      [
        'BRL',
        'INR',
        '10',
        'exchange_pair_unsupported',
        'This currency pair cannot be exchanged',
        'Este par de moedas não pode ser trocado',
      ],
      ['USD', 'USD', '10', 'same_asset', 'Choose two different currencies', 'Escolha duas moedas diferentes'],
      [
        'USD',
        'BRL',
        '0.99',
        'exchange_amount_too_small',
        'The amount is below the minimum of 1.00 USD',
        'O valor está abaixo do mínimo de 1.00 USD',
      ],
      ['USD', 'BRL', '1.234', 'invalid_amount', 'The amount is not valid', 'O valor não é válido'],
    ];
    for (const [from, to, amount, error, en, pt] of cases) {
      expect((await quote(token, from, to, amount, 'en-US')).body, `${from}${to} ${amount}`).toMatchObject({
        error,
        msg: en,
      });
      expect((await quote(token, from, to, amount, 'pt-BR')).body).toMatchObject({ error, msg: pt });
    }
    expect(await cash(token)).toEqual({ INR: '1000000.00', USD: '10000.00', BRL: '50000.00' });
    expect(
      (await t.call('POST', '/user/exchange', { json: { action: 'quote', from: 'USD', to: 'BRL', amount: '5' } })).body
        .code,
    ).toBe(-1000);
  });
});

describe.each(dbs)('crypto convert on $dialect', ({ open }) => {
  let t: T;
  let closeDb: () => Promise<void>;
  let phone = 9_300_000_000;
  beforeAll(async () => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db, { paperGrants: STOCK_GRANTS_ONLY });
  });
  afterAll(async () => {
    await t.close();
    await closeDb();
  });
  let grants = 0;
  /** A customer with `usdt` paper USDT in the spot wallet (granted by the faucet, as a ledger line). */
  const customer = async (usdt: string) => {
    const data = (await t.register(String(++phone))).body.data;
    const result = await t.app.engine.submit({
      type: 'deposit',
      id: `test-usdt:${++grants}`,
      userId: String(data.user.id),
      wallet: 'spot',
      asset: 'USDT',
      amount: usdt,
      from: 'faucet',
      cause: 'paper_grant',
    });
    expect(result.ok).toBe(true);
    return data.token as string;
  };
  const coins = async (token: string) => {
    const spot = (await t.call('POST', '/coin/assets', { token })).body.data.spot as {
      asset: string;
      balance: string;
    }[];
    return Object.fromEntries(spot.map((b) => [b.asset, b.balance]));
  };
  const quote = (token: string, from: string, to: string, amount: string, lang = 'en-US') =>
    t.call('POST', '/coin/convert', { token, lang, json: { action: 'quote', from, to, amount } });
  const accept = (token: string, quoteId: number, lang = 'en-US') =>
    t.call('POST', '/coin/convert', { token, lang, json: { action: 'accept', quoteId } });
  const lines = async (token: string) =>
    (await t.call('GET', '/user/tx/record?cause=convert&limit=50', { token })).body.data.items as {
      asset: string;
      amount: string;
      wallet: string;
      link: string;
      counterparty: string;
    }[];
  /** The pair's last price in cents of USDT (BTC and ETH tick at 0.01). */
  const cents = (asset: string) => BigInt(t.app.market.lastTicks(`CRYPTO:${asset}USDT`)?.lastTicks ?? 0);

  it('lists every coin against USDT both ways, with the spread', async () => {
    const token = await customer('1');
    const rates = (await t.call('GET', '/coin/convert/rates', { token })).body.data;
    expect(rates.assets.slice(0, 3)).toEqual(['USDT', 'BTC', 'ETH']);
    expect(rates.assets).toEqual(expect.arrayContaining(['SOL', 'BNB', 'XRP', 'DOGE', 'LTC', 'LINK', 'AVAX', 'DOT']));
    expect(rates.rates).toHaveLength((rates.assets.length - 1) * 2);
    expect(rates.rates[0]).toMatchObject({ from: 'BTC', to: 'USDT', spreadBps: COIN_SPREAD_BPS });
    expect(Number(rates.rates[0].rate)).toBeLessThan(Number(rates.rates[0].midRate));
    expect(rates).toMatchObject({ quoteValiditySec: QUOTE_VALIDITY_MS / 1000, minValueUsdt: '1' });
  });

  it('quotes USDT → BTC at the reference price less the spread and, accepted, moves exactly the quoted amounts', async () => {
    const token = await customer('5000');
    const price = cents('BTC');
    const q = (await quote(token, 'USDT', 'BTC', '1000')).body;
    expect(q.code, JSON.stringify(q)).toBe(0);
    // 1,000 USDT = 100,000 cents; BTC in satoshis, rounded down: at mid and after the 20 bps spread.
    const atMid = (100_000n * 100_000_000n) / price;
    const receive = (100_000n * 100_000_000n * BigInt(10_000 - COIN_SPREAD_BPS)) / (price * 10_000n);
    expect(q.data).toMatchObject({
      from: 'USDT',
      to: 'BTC',
      amount: '1000.000000',
      receive: formatDecimal(receive, 8),
      spreadCost: formatDecimal(atMid - receive, 8),
      spreadBps: COIN_SPREAD_BPS,
      status: 'quoted',
      wallet: 'spot',
      virtual: true,
    });
    expect(q.data.expiresAt - q.data.createdAt).toBe(QUOTE_VALIDITY_MS);

    await t.advance(QUOTE_VALIDITY_MS - 1_000);
    const done = (await accept(token, q.data.id)).body;
    expect(done.code, JSON.stringify(done)).toBe(0);
    expect(done.data).toMatchObject({ status: 'accepted', receive: q.data.receive });
    expect(await coins(token)).toEqual({ USDT: '4000.000000', BTC: formatDecimal(receive, 8) });
    const got = await lines(token);
    expect(got.map((l) => [l.asset, l.amount, l.wallet, l.link, l.counterparty]).sort()).toEqual([
      ['BTC', formatDecimal(receive, 8), 'spot', `exchange_quote:${q.data.id}`, 'platform:exchange:crypto'],
      ['USDT', '-1000.000000', 'spot', `exchange_quote:${q.data.id}`, 'platform:exchange:crypto'],
    ]);
    // A retry answers the same and moves nothing again.
    await t.advance(60_000);
    expect((await accept(token, q.data.id)).body.data).toEqual(done.data);
    expect(await lines(token)).toHaveLength(2);

    // Coin to coin: the BTC into ETH through both USDT prices.
    const btcPrice = cents('BTC');
    const ethPrice = cents('ETH');
    const q2 = (await quote(token, 'BTC', 'ETH', formatDecimal(receive, 8))).body.data;
    // ETH has 18 decimals; received to 8 of them (10^10 wei steps).
    const wei =
      ((receive * btcPrice * BigInt(10_000 - COIN_SPREAD_BPS) * 10n ** 10n) / (ethPrice * 10_000n) / 10n ** 10n) *
      10n ** 10n;
    expect(q2.receive).toBe(formatDecimal(wei, 18));
    expect((await accept(token, q2.id)).body.code).toBe(0);
    // A coin back at zero is no longer listed (USDT always is).
    expect(await coins(token)).toEqual({ USDT: '4000.000000', ETH: formatDecimal(wei, 18) });
  });

  it('refuses an expired quote, a foreign one and what the balance cannot pay, in both languages', async () => {
    const alice = await customer('100');
    const bob = await customer('100');
    const q = (await quote(alice, 'USDT', 'ETH', '50')).body.data;
    for (const [lang, msg] of [
      ['en-US', 'Quote not found'],
      ['pt-BR', 'Cotação não encontrada'],
    ] as const) {
      expect((await accept(bob, q.id, lang)).body).toMatchObject({ error: 'exchange_quote_not_found', msg });
    }
    const big = (await quote(bob, 'USDT', 'BTC', '100.000001')).body.data;
    for (const [lang, msg] of [
      ['en-US', 'Insufficient balance'],
      ['pt-BR', 'Saldo insuficiente'],
    ] as const) {
      expect((await accept(bob, big.id, lang)).body).toMatchObject({ error: 'insufficient_balance', msg });
    }
    await t.advance(QUOTE_VALIDITY_MS + 1);
    for (const [lang, msg] of [
      ['en-US', 'This quote has expired. Nothing was exchanged; please get a new quote.'],
      ['pt-BR', 'Esta cotação expirou. Nada foi trocado; peça uma nova cotação.'],
    ] as const) {
      expect((await accept(alice, q.id, lang)).body).toMatchObject({ error: 'exchange_quote_expired', msg });
    }
    expect(await coins(alice)).toEqual({ USDT: '100.000000' });
    expect(await coins(bob)).toEqual({ USDT: '100.000000' });
    expect(await lines(alice)).toEqual([]);
  });

  it('refuses one coin twice, a coin not on the desk, a tiny or malformed amount, in both languages', async () => {
    const token = await customer('10');
    const min = (100_000_000n * 100n + cents('BTC') - 1n) / cents('BTC');
    const cases: [string, string, string, string, string, string][] = [
      ['BTC', 'BTC', '1', 'same_asset', 'Choose two different currencies', 'Escolha duas moedas diferentes'],
      [
        'USDT',
        'USD',
        '10',
        'exchange_pair_unsupported',
        'This currency pair cannot be exchanged',
        'Este par de moedas não pode ser trocado',
      ],
      [
        'USDT',
        'BTC',
        '0.99',
        'exchange_amount_too_small',
        'The amount is below the minimum of 1.000000 USDT',
        'O valor está abaixo do mínimo de 1.000000 USDT',
      ],
      [
        'BTC',
        'USDT',
        '0.000001',
        'exchange_amount_too_small',
        `The amount is below the minimum of ${formatDecimal(min, 8)} BTC`,
        `O valor está abaixo do mínimo de ${formatDecimal(min, 8)} BTC`,
      ],
      ['USDT', 'BTC', '1.0000001', 'invalid_amount', 'The amount is not valid', 'O valor não é válido'],
      ['USDT', 'BTC', '0', 'invalid_amount', 'The amount is not valid', 'O valor não é válido'],
    ];
    for (const [from, to, amount, error, en, pt] of cases) {
      expect((await quote(token, from, to, amount, 'en-US')).body, `${from}${to} ${amount}`).toMatchObject({
        error,
        msg: en,
      });
      expect((await quote(token, from, to, amount, 'pt-BR')).body).toMatchObject({ error, msg: pt });
    }
    expect(await coins(token)).toEqual({ USDT: '10.000000' });
    expect(
      (await t.call('POST', '/coin/convert', { json: { action: 'quote', from: 'USDT', to: 'BTC', amount: '5' } })).body
        .code,
    ).toBe(-1000);
  });
});
