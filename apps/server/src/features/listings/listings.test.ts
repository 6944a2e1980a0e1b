// Runtime listing through the real app on both databases: a stock after its IPO and a coin after its
// offering are listed while the server runs; the simulator prices each from its start price, the paper
// venue or the liquidity bot quotes its book, a customer's order trades, and a restart keeps all of it
// (the row re-applied, the engine's registrations from the journal, the simulator from its snapshot).

import { testDatabases } from '@bourse/db';
import { findInstrument } from '@bourse/market';
import { describe, expect, it } from 'vitest';
import { marketMakerOf } from '../../adapters/venue/quote-ladder.ts';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';

const dbs = await testDatabases();
const PIN = '246810';
type T = Awaited<ReturnType<typeof testApp>>;

async function trader(t: T, phone: string) {
  const token = (await t.register(phone)).body.data.token as string;
  const set = await t.call('POST', '/user/update/tradePassword', {
    token,
    body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
  });
  expect(set.body.code, JSON.stringify(set.body)).toBe(0);
  const userId = (await t.call('GET', '/user/login/info', { token })).body.data.user.id as number;
  return { token, userId: String(userId) };
}

describe.each(dbs)('runtime listing on $dialect', ({ open, dialect }) => {
  // Ids are per database so the two runs do not meet in the process-wide catalogue.
  const tag = dialect === 'sqlite' ? 'S' : 'P';
  const stockSymbol = `NOVAIND${tag}`;
  const coinSymbol = `NOVA${tag}`;

  it('lists a stock and a coin at run time: priced, quoted, tradable, and still there after a restart', async () => {
    const db = await open();
    let t = await testApp(db);
    try {
      const stock = await t.app.listings.listStock(
        { exchange: 'NSE', symbol: stockSymbol, name: 'Nova Industries', issuePrice: '120.00' },
        'test:ipo',
      );
      const coin = await t.app.listings.listCoin(
        { symbol: coinSymbol, name: 'Nova', scale: 8, startPrice: '0.1000' },
        'test:coin-offering',
      );
      expect(stock).toMatchObject({ id: `NSE:${stockSymbol}`, tickSize: '0.05', lotSize: '1', priceBandPct: 20 });
      expect(coin).toMatchObject({ id: `CRYPTO:${coinSymbol}USDT`, tickSize: '0.000001', lotSize: '1' });
      expect(t.app.engine.state.asset(coinSymbol)).toMatchObject({ scale: 8, kind: 'crypto' });

      // The simulator starts each at its start price and moves it from there (within the 20% band).
      expect(t.app.market.lastTicks(stock.id)?.lastTicks).toBe(2400);
      await t.advance(60_000);
      const stockPrice = Number((await t.call('GET', `/stock/index/info?symbol=${stock.id}`)).body.data.price);
      expect(stockPrice).toBeGreaterThan(96);
      expect(stockPrice).toBeLessThan(144);
      expect(t.app.market.tape(coin.id).length).toBeGreaterThan(0);
      // Nothing before the listing is made up: the candles begin at the listing.
      const candles = (
        await t.call('POST', '/stock/index/candles', { json: { symbol: stock.id, interval: '1m', limit: 100 } })
      ).body.data.items as unknown[];
      expect(candles.length).toBeLessThanOrEqual(2);

      // The paper venue quotes the stock and a customer buys it; the bot quotes the coin and she buys it.
      const alice = await trader(t, '9000000901');
      const book = (await t.call('POST', '/stock/index/books', { body: { symbol: stock.id } })).body.data;
      expect(book.asks.length).toBe(5);
      const buy = await t.call('POST', '/stock/order/buy', {
        token: alice.token,
        body: { symbol: stock.id, quantity: '10', orderType: 'market', password: PIN },
      });
      expect(buy.body.code, JSON.stringify(buy.body)).toBe(0);
      expect(buy.body.data.order).toMatchObject({ status: 'completed', filledQuantity: '10' });
      const pairs = (await t.call('POST', '/coin/infos')).body.data.items as { symbol: string }[];
      expect(pairs.map((p) => p.symbol)).toContain(`${coinSymbol}USDT`);
      const coinBuy = await t.call('POST', '/coin/order/add', {
        token: alice.token,
        json: { symbol: `${coinSymbol}USDT`, side: 'buy', type: 'market', quantity: '200', password: PIN },
      });
      expect(coinBuy.body.code, JSON.stringify(coinBuy.body)).toBe(0);
      expect(coinBuy.body.data.order).toMatchObject({ status: 'completed', filledQuantity: '200.00000000' });
      expect(t.app.engine.state.balance(alice.userId, 'spot', coinSymbol).balance).toBe(200n * 10n ** 8n);
      // The coin wallet lists and values the new coin.
      const assets = (await t.call('POST', '/coin/assets', { token: alice.token })).body.data;
      expect(assets.spot.map((a: { asset: string }) => a.asset)).toContain(coinSymbol);

      // Listing the same definition again is a no-op; a different one under the same id is refused.
      await t.app.listings.listCoin({ symbol: coinSymbol, name: 'Nova', scale: 8, startPrice: '0.1000' }, 'again');
      await expect(
        t.app.listings.listCoin({ symbol: coinSymbol, name: 'Nova', scale: 8, startPrice: '0.2000' }, 'again'),
      ).rejects.toThrow(/already/);
      const rows = await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM runtime_listings');
      expect(Number(rows[0]?.n)).toBe(2);

      // The console's listings desk shows each with what listed it; the built-in catalogue says so.
      const login = await t.call('POST', '/admin/auth/login', {
        json: {
          username: DEMO_STAFF.username,
          password: DEMO_STAFF.password,
          totpCode: totpNow(DEMO_STAFF.totpSecret, t.clock.now()),
        },
      });
      const staffToken = login.body.data.token as string;
      const desk = (await t.call('GET', '/admin/listings', { token: staffToken })).body.data;
      type Item = { id: string; source: string; listedAt: number | null; kind: string; price: string };
      const byId = new Map((desk.items as Item[]).map((item) => [item.id, item]));
      expect(byId.get(stock.id)).toMatchObject({ source: 'test:ipo', kind: 'stock', exchange: 'NSE', bandPct: 20 });
      expect(byId.get(stock.id)?.listedAt).toBe(t.clock.now() - 60_000);
      expect(Number(byId.get(stock.id)?.price)).toBe(stockPrice);
      expect(byId.get(coin.id)).toMatchObject({ source: 'test:coin-offering', kind: 'crypto', isOpen: true });
      expect(byId.get('NSE:RELIANCE')).toMatchObject({ source: 'catalogue', listedAt: null, listed: true });
      expect(desk.counts.runtime).toBe(2);
      expect(desk.counts.stock).toBe((desk.items as Item[]).filter((item) => item.kind === 'stock').length);
      // Staff without listings.manage, and customers, are refused.
      const support = (
        await t.call('POST', '/admin/staff/create', {
          token: staffToken,
          json: { username: `sup${tag.toLowerCase()}`, role: 'support', reason: 'support hire' },
        })
      ).body.data;
      await t.advance(30_000);
      const supportLogin = await t.call('POST', '/admin/auth/login', {
        json: {
          username: `sup${tag.toLowerCase()}`,
          password: support.initialPassword,
          totpCode: totpNow(support.totpSecret, t.clock.now()),
        },
      });
      expect((await t.call('GET', '/admin/listings', { token: supportLogin.body.data.token })).body.error).toBe(
        'forbidden',
      );
      expect((await t.call('GET', '/admin/listings', { token: alice.token })).body.code).not.toBe(0);

      const ladder = t.app.engine.state.openOrders(marketMakerOf(coin.id)).length;
      expect(ladder).toBeGreaterThan(0);
      await t.close();
      t = await testApp(db);
      // After the restart: still in the catalogue, priced, quoted, registered once, and tradable.
      expect(findInstrument(stock.id)).toBeDefined();
      expect(t.app.venue.stocks.map((s) => s.id)).toContain(stock.id);
      expect(t.app.spot.bot.pairs.map((p) => p.id)).toContain(coin.id);
      expect(t.app.market.lastTicks(coin.id)).not.toBeNull();
      // The engine rebuilt its registrations from the journal.
      expect(t.app.engine.state.asset(coinSymbol)).toMatchObject({ scale: 8 });
      expect(t.app.engine.state.instrument(stock.id)).toBeDefined();
      await t.advance(60_000);
      const sell = await t.call('POST', '/coin/order/add', {
        token: alice.token,
        json: { symbol: `${coinSymbol}USDT`, side: 'sell', type: 'market', quantity: '100', password: PIN },
      });
      expect(sell.body.code, JSON.stringify(sell.body)).toBe(0);
      expect(t.app.engine.state.balance(alice.userId, 'spot', coinSymbol).balance).toBe(100n * 10n ** 8n);
      expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
