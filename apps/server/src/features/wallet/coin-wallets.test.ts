// API tests of the coin wallets through the real HTTP stack on SQLite and PostgreSQL: /coin/assets valued
// exactly at the reference price with totals; /coin/transfer both ways as one ledger line each, an
// idempotent retry by clientId, and every refusal in both languages with nothing moved.

import { testDatabases } from '@bourse/db';
import { INSTRUMENTS } from '@bourse/market';
import { formatDecimal, parseDecimal } from '@bourse/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STOCK_GRANTS_ONLY, testApp } from '../../testing.ts';

const dbs = await testDatabases();
type T = Awaited<ReturnType<typeof testApp>>;

describe.each(dbs)('coin wallets on $dialect', ({ open }) => {
  let t: T;
  let closeDb: () => Promise<void>;
  let phone = 9_200_000_000;
  beforeAll(async () => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db, { paperGrants: STOCK_GRANTS_ONLY });
  });
  afterAll(async () => {
    await t.close();
    await closeDb();
  });
  const ids = new Map<string, string>();
  const customer = async () => {
    const data = (await t.register(String(++phone))).body.data;
    ids.set(data.token, String(data.user.id));
    return data.token as string;
  };
  let grants = 0;
  /** Paper coins into the spot wallet, as the faucet grants them. */
  const grant = async (token: string, asset: string, amount: string) => {
    const result = await t.app.engine.submit({
      type: 'deposit',
      id: `test-grant:${++grants}`,
      userId: ids.get(token) as string,
      wallet: 'spot',
      asset,
      amount,
      from: 'faucet',
      cause: 'paper_grant',
    });
    expect(result.ok).toBe(true);
  };
  const assets = async (token: string) => (await t.call('POST', '/coin/assets', { token })).body;
  const transfer = (token: string, json: Record<string, string>, lang = 'en-US') =>
    t.call('POST', '/coin/transfer', { token, lang, json });
  const lines = async (token: string) =>
    (await t.call('GET', '/user/tx/record?cause=wallet_transfer&limit=50', { token })).body.data.items as {
      id: string;
      asset: string;
      amount: string;
      wallet: string;
      cause: string;
      link: string;
    }[];
  const priceCents = (asset: string) => {
    const pair = INSTRUMENTS.find((i) => i.id === `CRYPTO:${asset}USDT`);
    const last = pair && t.app.market.lastTicks(pair.id);
    if (!pair || !last) throw new Error(`no price for ${asset}`);
    // Tick 0.01 USDT for BTC and ETH: ticks are cents.
    expect(pair.tickSize).toBe('0.01');
    return BigInt(last.lastTicks);
  };

  it('lists USDT in both wallets for a new customer, virtual, with zero totals', async () => {
    const token = await customer();
    expect((await assets(token)).data).toEqual({
      spot: [
        {
          wallet: 'spot',
          asset: 'USDT',
          balance: '0.000000',
          held: '0.000000',
          available: '0.000000',
          valueUsdt: '0.00',
        },
      ],
      contract: [
        {
          wallet: 'contract',
          asset: 'USDT',
          balance: '0.000000',
          held: '0.000000',
          available: '0.000000',
          valueUsdt: '0.00',
        },
      ],
      totalUsdt: '0.00',
      spotUsdt: '0.00',
      contractUsdt: '0.00',
      virtual: true,
    });
    expect((await t.call('POST', '/coin/assets')).body.code).toBe(-1000);
  });

  it('values each coin at the reference price, exactly, and moves coins both ways as one ledger line each', async () => {
    const token = await customer();
    await grant(token, 'USDT', '1500.25');
    await grant(token, 'BTC', '0.12345678');
    await grant(token, 'ETH', '2');
    const btc = priceCents('BTC');
    const eth = priceCents('ETH');
    // Value in USDT cents, rounded down: 0.12345678 BTC × price.
    const btcCents = (12_345_678n * btc) / 100_000_000n;
    const ethCents = 2n * eth;
    const spotCents = 150_025n + btcCents + ethCents;
    const before = (await assets(token)).data;
    expect(before.spot.map((b: { asset: string }) => b.asset)).toEqual(['USDT', 'BTC', 'ETH']);
    expect(before.spot[1]).toEqual({
      wallet: 'spot',
      asset: 'BTC',
      balance: '0.12345678',
      held: '0.00000000',
      available: '0.12345678',
      valueUsdt: formatDecimal(btcCents, 2),
    });
    expect(before.spotUsdt).toBe(formatDecimal(spotCents, 2));
    expect(before.totalUsdt).toBe(formatDecimal(spotCents, 2));

    // spot → contract, then part of it back.
    const out = (await transfer(token, { asset: 'USDT', amount: '1000.5', from: 'spot', to: 'contract' })).body;
    expect(out.code, JSON.stringify(out)).toBe(0);
    expect(out.data).toMatchObject({
      asset: 'USDT',
      amount: '1000.500000',
      from: 'spot',
      to: 'contract',
      fee: '0.000000',
    });
    const back = (await transfer(token, { asset: 'USDT', amount: '0.000001', from: 'contract', to: 'spot' })).body;
    expect(back.code, JSON.stringify(back)).toBe(0);
    const btcMove = (await transfer(token, { asset: 'BTC', amount: '0.12345678', from: 'spot', to: 'contract' })).body;
    expect(btcMove.code).toBe(0);

    const after = (await assets(token)).data;
    expect(after.spot.find((b: { asset: string }) => b.asset === 'USDT').balance).toBe('499.750001');
    expect(after.contract.map((b: { asset: string; balance: string }) => [b.asset, b.balance])).toEqual([
      ['USDT', '1000.499999'],
      ['BTC', '0.12345678'],
    ]);
    // Nothing was lost or made: the two wallets still add up to the same value.
    expect(after.totalUsdt).toBe(before.totalUsdt);
    expect(parseDecimal(after.spotUsdt, 2) + parseDecimal(after.contractUsdt, 2)).toBe(spotCents);

    const got = await lines(token);
    expect(got).toHaveLength(3);
    // The crypto records: both coin wallets' lines (the three grants and the three transfers).
    const record = (await t.call('GET', '/user/tx/record?wallet=spot,contract&limit=50', { token })).body.data;
    expect(record.total).toBe(6);
    // The contract wallet's own view: the transfers arriving (or, the way back, leaving) it.
    const contract = (await t.call('GET', '/user/tx/record?wallet=contract&limit=50', { token })).body.data;
    expect(
      contract.items.map((l: { asset: string; amount: string; wallet: string }) => [l.asset, l.amount, l.wallet]),
    ).toEqual([
      ['BTC', '0.12345678', 'contract'],
      ['USDT', '-0.000001', 'contract'],
      ['USDT', '1000.500000', 'contract'],
    ]);
    const usdtOut = got.find((l) => l.id === out.data.id);
    expect(usdtOut).toMatchObject({ asset: 'USDT', cause: 'wallet_transfer', link: `command:${out.data.id}` });
    expect(usdtOut?.amount).toBe('-1000.500000');
    expect(usdtOut?.wallet).toBe('spot');
  });

  it('answers a retry with the same clientId as the first transfer, moving nothing again', async () => {
    const token = await customer();
    await grant(token, 'USDT', '100');
    const body = { asset: 'USDT', amount: '60', from: 'spot', to: 'contract', clientId: 'retry-0001' };
    const first = (await transfer(token, body)).body;
    expect(first.code).toBe(0);
    await t.advance(5_000);
    // Retried after the balance no longer covers it: still the first answer, not a refusal.
    const again = (await transfer(token, body)).body;
    expect(again.data).toEqual(first.data);
    expect((await lines(token)).length).toBe(1);
    expect((await assets(token)).data.spot[0].balance).toBe('40.000000');
    // The same key with other content is refused, in both languages.
    for (const [lang, msg] of [
      ['en-US', 'This request was already sent with different content'],
      ['pt-BR', 'Esta solicitação já foi enviada com conteúdo diferente'],
    ] as const) {
      expect((await transfer(token, { ...body, amount: '10' }, lang)).body).toMatchObject({
        error: 'idempotency_key_reused',
        msg,
      });
    }
    expect((await assets(token)).data.contract[0].balance).toBe('60.000000');
  });

  it('refuses the same wallet, a zero amount, more than available and an unknown coin, in both languages', async () => {
    const token = await customer();
    await grant(token, 'USDT', '10');
    const cases: [Record<string, string>, string, string, string][] = [
      [
        { asset: 'USDT', amount: '1', from: 'spot', to: 'spot' },
        'same_account',
        'Choose two different accounts',
        'Escolha duas contas diferentes',
      ],
      [
        { asset: 'USDT', amount: '0', from: 'spot', to: 'contract' },
        'invalid_amount',
        'The amount is not valid',
        'O valor não é válido',
      ],
      [
        { asset: 'USDT', amount: '0.0000001', from: 'spot', to: 'contract' },
        'invalid_amount',
        'The amount is not valid',
        'O valor não é válido',
      ],
      [
        { asset: 'USDT', amount: '10.000001', from: 'spot', to: 'contract' },
        'insufficient_balance',
        'Insufficient balance',
        'Saldo insuficiente',
      ],
      [
        { asset: 'BTC', amount: '1', from: 'contract', to: 'spot' },
        'insufficient_balance',
        'Insufficient balance',
        'Saldo insuficiente',
      ],
      [
        { asset: 'USD', amount: '1', from: 'spot', to: 'contract' },
        'unknown_asset',
        'Unknown asset',
        'Ativo desconhecido',
      ],
      [
        { asset: 'NOPE', amount: '1', from: 'spot', to: 'contract' },
        'unknown_asset',
        'Unknown asset',
        'Ativo desconhecido',
      ],
    ];
    for (const [body, error, en, pt] of cases) {
      expect((await transfer(token, body, 'en-US')).body, JSON.stringify(body)).toMatchObject({ error, msg: en });
      expect((await transfer(token, body, 'pt-BR')).body).toMatchObject({ error, msg: pt });
    }
    // A wallet that is not a coin wallet is a bad field.
    const bad = { asset: 'USDT', amount: '1', from: 'stock', to: 'spot' };
    expect((await transfer(token, bad)).body.fields).toEqual({ from: 'This value is not valid' });
    expect((await transfer(token, bad, 'pt-BR')).body.fields).toEqual({ from: 'Este valor não é válido' });
    expect((await assets(token)).data.spot[0].balance).toBe('10.000000');
    expect(await lines(token)).toEqual([]);
  });
});
