// API tests of crypto deposits through the real HTTP stack on SQLite and PostgreSQL: the coins list,
// addresses (idempotent, one per customer and network), a paper test deposit gaining confirmations as
// the clock moves and credited once by exactly its amount, below-minimum deposits, a foreign deposit id,
// and every rejection in both languages with nothing changed.

import { testDatabases } from '@bourse/db';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { isValidAddress } from '../../platform/crypto-networks.ts';
import { STOCK_GRANTS_ONLY, testApp } from '../../testing.ts';
import { loadCryptoDepositSettings } from './settings.ts';

const dbs = await testDatabases();
type T = Awaited<ReturnType<typeof testApp>>;

const settings = (env: Record<string, string> = {}) => ({
  // The watcher runs only when the test asks (scan() or a call that scans).
  cryptoDeposits: loadCryptoDepositSettings({ CRYPTO_SCAN_EVERY_MS: '0', ...env }, 'paper'),
});

describe.each(dbs)('crypto deposits on $dialect', ({ open }) => {
  let t: T;
  let db: Awaited<ReturnType<typeof open>>;
  let closeDb: () => Promise<void>;
  const start = async (overrides: Partial<Config> = settings()) => {
    db = await open();
    closeDb = () => db.close();
    // Coin wallets start empty, so each balance below is the deposits' own.
    t = await testApp(db, { paperGrants: STOCK_GRANTS_ONLY, ...overrides });
    return t;
  };
  afterEach(async () => {
    await t.close();
    await closeDb();
  });
  const customer = async (phone: string) => (await t.register(phone)).body.data.token as string;
  const address = (token: string, asset: string, network: string, generate = false, lang?: string) =>
    t.call('POST', `/coin/recharge/address${generate ? '/generate' : ''}`, {
      token,
      body: { asset, network },
      ...(lang ? { lang } : {}),
    });
  const send = (token: string, body: Record<string, string>, lang?: string) =>
    t.call('POST', '/coin/recharge/add', { token, body, ...(lang ? { lang } : {}) });
  const orders = async (token: string, query = '') =>
    (await t.call('GET', `/coin/recharge/order${query}`, { token })).body;
  const spot = async (token: string, asset: string) => {
    const items = (await t.call('POST', '/user/assets', { token })).body.data.items as {
      wallet: string;
      asset: string;
      balance: string;
    }[];
    return items.find((b) => b.wallet === 'spot' && b.asset === asset)?.balance ?? '0';
  };
  const advanceAndScan = async (ms: number) => {
    t.clock.advance(ms);
    return t.app.cryptoDeposits.watcher.scan();
  };

  it('lists the depositable coins with their networks, confirmations, minimums and open state, without a session', async () => {
    await start();
    const { body } = await t.call('GET', '/index/recharge/coins');
    expect(body.code).toBe(0);
    expect(body.data.isPaper).toBe(true);
    const byAsset = Object.fromEntries(body.data.items.map((c: { asset: string }) => [c.asset, c]));
    expect(Object.keys(byAsset)).toEqual(['USDT', 'BTC', 'ETH']);
    expect(byAsset.BTC).toEqual({
      asset: 'BTC',
      isOpen: true,
      networks: [{ network: 'BTC', name: 'Bitcoin testnet', confirmations: 2, minimum: '0.00010000', isOpen: true }],
    });
    expect(byAsset.USDT.networks).toEqual([
      { network: 'ETH', name: 'Ethereum Sepolia (ERC-20)', confirmations: 12, minimum: '10.000000', isOpen: true },
    ]);
  });

  it('derives one address per customer and network, the same on every request; ETH and USDT share the EVM one', async () => {
    await start();
    const asha = await customer('9123456780');
    const ravi = await customer('9123456781');
    expect((await address(asha, 'BTC', 'BTC')).body.data).toMatchObject({ asset: 'BTC', address: null, qr: null });
    const first = (await address(asha, 'BTC', 'BTC', true)).body.data;
    expect(isValidAddress('BTC', first.address, 'paper')).toBe(true);
    expect(first.address).toMatch(/^tb1q/);
    expect(first.qr).toMatch(/^data:image\/png;base64,/);
    expect((await address(asha, 'btc', 'btc', true)).body.data.address).toBe(first.address);
    expect((await address(asha, 'BTC', 'BTC')).body.data.address).toBe(first.address);
    const other = (await address(ravi, 'BTC', 'BTC', true)).body.data.address;
    expect(other).not.toBe(first.address);
    expect(isValidAddress('BTC', other, 'paper')).toBe(true);

    const eth = (await address(asha, 'ETH', 'ETH', true)).body.data.address;
    expect(isValidAddress('ETH', eth, 'paper')).toBe(true);
    expect(eth).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect((await address(asha, 'USDT', 'ETH')).body.data.address).toBe(eth);
    // Indexes are allocated in the table, one per (customer, network), each network counting from 0.
    const rows = await db.query<{ network: string; derivation_index: number | string; address: string }>(
      'SELECT network, derivation_index, address FROM crypto_deposit_addresses ORDER BY id',
    );
    expect(rows.map((r) => [r.network, Number(r.derivation_index), r.address])).toEqual([
      ['BTC', 0, first.address],
      ['BTC', 1, other],
      ['ETH', 0, eth],
    ]);
  });

  it('a test deposit is seen, confirms block by block and is credited once, by exactly its amount', async () => {
    await start();
    const token = await customer('9123456782');
    expect(await spot(token, 'BTC')).toBe('0');
    const sent = await send(token, { asset: 'BTC', network: 'BTC', amount: '0.5', requestId: 'test-deposit-0001' });
    expect(sent.body, JSON.stringify(sent.body)).toMatchObject({
      code: 0,
      data: {
        asset: 'BTC',
        network: 'BTC',
        amount: '0.50000000',
        status: 'seen',
        confirmations: 0,
        confirmationsRequired: 2,
      },
    });
    const deposit = sent.body.data;
    expect(deposit.address).toBe((await address(token, 'BTC', 'BTC')).body.data.address);
    expect(deposit.txid).toMatch(/^[0-9a-f]{64}$/);
    // A retry of the same request sends nothing new.
    const again = await send(token, { asset: 'BTC', network: 'BTC', amount: '0.5', requestId: 'test-deposit-0001' });
    expect(again.body.data.id).toBe(deposit.id);
    // The key may come as the Idempotency-Key header too; one contradicting the body is refused.
    const byHeader = await t.call('POST', '/coin/recharge/add', {
      token,
      body: { asset: 'BTC', network: 'BTC', amount: '0.5' },
      headers: { 'idempotency-key': 'test-deposit-0001' },
    });
    expect(byHeader.body.data.id).toBe(deposit.id);
    const contradicting = await t.call('POST', '/coin/recharge/add', {
      token,
      body: { asset: 'BTC', network: 'BTC', amount: '0.5', requestId: 'test-deposit-0001' },
      headers: { 'idempotency-key': 'test-deposit-0002' },
    });
    expect(contradicting.body).toMatchObject({
      error: 'field_invalid',
      fields: { requestId: 'This value is not valid' },
    });
    expect((await orders(token)).data.total).toBe(1);

    await advanceAndScan(60_000);
    expect((await orders(token, `?id=${deposit.id}`)).data.items[0]).toMatchObject({
      status: 'confirming',
      confirmations: 1,
    });
    expect(await spot(token, 'BTC')).toBe('0');

    expect(await advanceAndScan(60_000)).toMatchObject({ credited: 1 });
    const credited = (await orders(token, `?id=${deposit.id}`)).data.items[0];
    expect(credited).toMatchObject({
      status: 'credited',
      confirmations: 2,
      transferId: `crypto-deposit:${deposit.id}`,
      creditedAt: t.clock.now(),
    });
    expect(await spot(token, 'BTC')).toBe('0.50000000');
    // The ledger line says where the money came from and what caused it.
    const record = (await t.call('GET', '/user/tx/record?wallet=spot', { token })).body.data.items;
    expect(record[0]).toMatchObject({ asset: 'BTC', cause: 'deposit', link: `crypto-deposit:${deposit.id}` });

    // Later scans, and a retried notice, credit nothing more.
    await advanceAndScan(600_000);
    await send(token, { asset: 'BTC', network: 'BTC', amount: '0.5', requestId: 'test-deposit-0001' });
    await advanceAndScan(600_000);
    expect(await spot(token, 'BTC')).toBe('0.50000000');
    expect((await orders(token)).data.total).toBe(1);
  });

  it('USDT on the EVM network is credited after 12 confirmations; a notice by txid finds the deposit', async () => {
    await start();
    const token = await customer('9123456783');
    const sent = (await send(token, { asset: 'USDT', network: 'ETH', amount: '250.5' })).body.data;
    expect(sent).toMatchObject({ amount: '250.500000', status: 'seen', confirmationsRequired: 12 });
    expect(sent.txid).toMatch(/^0x[0-9a-f]{64}$/);
    const byTxid = await send(token, { asset: 'USDT', network: 'ETH', txid: sent.txid });
    expect(byTxid.body.data.id).toBe(sent.id);
    const bare = await send(token, { asset: 'USDT', network: 'ETH', txid: sent.txid.slice(2).toUpperCase() });
    expect(bare.body.data.id).toBe(sent.id);
    await advanceAndScan(11 * 12_000);
    expect((await orders(token)).data.items[0]).toMatchObject({ status: 'confirming', confirmations: 11 });
    expect(await spot(token, 'USDT')).toBe('0');
    await advanceAndScan(12_000);
    expect((await orders(token)).data.items[0]).toMatchObject({ status: 'credited', confirmations: 12 });
    expect(await spot(token, 'USDT')).toBe('250.500000');
  });

  it('records a deposit below the minimum as not credited, with the reason', async () => {
    await start();
    const token = await customer('9123456784');
    const sent = (await send(token, { asset: 'BTC', network: 'BTC', amount: '0.00005' })).body.data;
    expect(sent).toMatchObject({ status: 'below_minimum', reason: 'below_minimum:0.00010000' });
    await advanceAndScan(3_600_000);
    expect((await orders(token)).data.items).toEqual([
      expect.objectContaining({ id: sent.id, status: 'below_minimum', transferId: null, creditedAt: null }),
    ]);
    expect(await spot(token, 'BTC')).toBe('0');
  });

  it("answers another customer's deposit id as not found, in both languages", async () => {
    await start();
    const owner = await customer('9123456785');
    const stranger = await customer('9123456786');
    const id = (await send(owner, { asset: 'ETH', network: 'ETH', amount: '1' })).body.data.id;
    for (const [lang, msg] of [
      ['en-US', 'Deposit not found'],
      ['pt-BR', 'Depósito não encontrado'],
    ] as const) {
      const answer = await t.call('GET', `/coin/recharge/order?id=${id}`, { token: stranger, lang });
      expect(answer.body).toMatchObject({ code: -1001, error: 'crypto_deposit_not_found', msg });
      const missing = await t.call('GET', '/coin/recharge/order?id=999999', { token: owner, lang });
      expect(missing.body).toMatchObject({ error: 'crypto_deposit_not_found', msg });
    }
    expect((await orders(stranger)).data).toEqual({ items: [], total: 0 });
    const unseen = await send(stranger, {
      asset: 'ETH',
      network: 'ETH',
      txid: (await orders(owner)).data.items[0].txid,
    });
    expect(unseen.body.error).toBe('crypto_tx_not_seen');
  });

  it('live mode: a network takes deposits only with its xpub and chain endpoint, and there are no test deposits', async () => {
    await start({
      mode: 'live',
      testHooks: false,
      cryptoDeposits: loadCryptoDepositSettings(
        {
          CRYPTO_SCAN_EVERY_MS: '0',
          CRYPTO_XPUB_BTC:
            'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB',
          CRYPTO_BTC_ESPLORA_URL: 'https://esplora.invalid/api',
        },
        'live',
      ),
    });
    const coins = (await t.call('GET', '/index/recharge/coins')).body.data;
    expect(coins.isPaper).toBe(false);
    expect(coins.items.map((c: { asset: string; isOpen: boolean }) => [c.asset, c.isOpen])).toEqual([
      ['USDT', false],
      ['BTC', true],
      ['ETH', false],
    ]);
    expect(coins.items[1].networks[0].name).toBe('Bitcoin');
    const token = await customer('9123456788');
    const btc = (await address(token, 'BTC', 'BTC', true)).body.data.address;
    expect(isValidAddress('BTC', btc, 'live')).toBe(true);
    expect(btc).toMatch(/^bc1q/);
    const test = await send(token, { asset: 'BTC', network: 'BTC', amount: '1' }, 'pt-BR');
    expect(test.body).toMatchObject({
      error: 'crypto_test_deposit_paper_only',
      msg: 'Depósitos de teste só podem ser enviados no modo simulado',
    });
    expect((await send(token, { asset: 'ETH', network: 'ETH', amount: '1' })).body.error).toBe('deposits_closed');
    expect((await orders(token)).data.total).toBe(0);
  });

  it('refuses an unknown coin, a network not carrying it, a bad amount and closed deposits, in both languages, changing nothing', async () => {
    await start(settings({ CRYPTO_DEPOSITS_CLOSED: 'USDT' }));
    const token = await customer('9123456787');
    const cases: [Record<string, string>, string, string, string][] = [
      [
        { asset: 'DOGE', network: 'BTC', amount: '1' },
        'crypto_asset_unknown',
        'This coin cannot be deposited',
        'Esta moeda não pode ser depositada',
      ],
      [
        { asset: 'BTC', network: 'ETH', amount: '1' },
        'crypto_network_unsupported',
        'This coin cannot be sent on this network',
        'Esta moeda não pode ser enviada nesta rede',
      ],
      [
        { asset: 'ETH', network: 'TRON', amount: '1' },
        'crypto_network_unsupported',
        'This coin cannot be sent on this network',
        'Esta moeda não pode ser enviada nesta rede',
      ],
      [
        { asset: 'USDT', network: 'ETH', amount: '1' },
        'deposits_closed',
        'Deposits cannot be made at the current time',
        'Não é possível fazer depósitos no momento',
      ],
      [
        { asset: 'BTC', network: 'BTC', amount: '0' },
        'invalid_amount',
        'The amount is not valid',
        'O valor não é válido',
      ],
      [
        { asset: 'BTC', network: 'BTC', amount: '0.000000001' },
        'invalid_amount',
        'The amount is not valid',
        'O valor não é válido',
      ],
      [
        { asset: 'BTC', network: 'BTC', amount: '-1' },
        'invalid_amount',
        'The amount is not valid',
        'O valor não é válido',
      ],
      [
        { asset: 'BTC', network: 'BTC', amount: '1e3' },
        'invalid_amount',
        'The amount is not valid',
        'O valor não é válido',
      ],
      [
        { asset: 'BTC', network: 'BTC', amount: '100.00000001' },
        'invalid_amount',
        'The amount is not valid',
        'O valor não é válido',
      ],
    ];
    for (const [body, error, en, pt] of cases) {
      for (const [lang, msg] of [
        ['en-US', en],
        ['pt-BR', pt],
      ] as const) {
        const answer = await send(token, body, lang);
        expect(answer.body, `${JSON.stringify(body)} ${lang}`).toMatchObject({ code: -1001, error, msg });
        if (!['invalid_amount'].includes(error)) {
          const generate = await address(token, body.asset as string, body.network as string, true, lang);
          expect(generate.body).toMatchObject({ error, msg });
        }
      }
    }
    // Nothing was recorded: no address, no deposit, no balance.
    expect((await address(token, 'BTC', 'BTC')).body.data.address).toBeNull();
    expect((await orders(token)).data).toEqual({ items: [], total: 0 });
    await advanceAndScan(3_600_000);
    expect(await spot(token, 'BTC')).toBe('0');
    const coins = (await t.call('GET', '/index/recharge/coins')).body.data.items;
    expect(coins.find((c: { asset: string }) => c.asset === 'USDT').isOpen).toBe(false);
    // Neither txid nor amount: which one is missing is said.
    const empty = await send(token, { asset: 'BTC', network: 'BTC' });
    expect(empty.body).toMatchObject({ error: 'field_required', fields: { txid: 'This field is required' } });
    // Without a session: signed out.
    expect((await t.call('POST', '/coin/recharge/address', { body: { asset: 'BTC', network: 'BTC' } })).body.code).toBe(
      -1000,
    );
  });
});
