// The liquidity bot: a ladder on every pair at start-up, nothing journaled while nobody trades or
// watches, a watched book following the price, a restart adopting the ladder it left, and a changed fee
// setting applied to new orders.

import { testDatabases } from '@bourse/db';
import { describe, expect, it } from 'vitest';
import { marketMakerOf } from '../../adapters/venue/quote-ladder.ts';
import { loadSpotSettings } from '../../config.ts';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';
import { spotPairs } from './pairs.ts';

const [sqlite] = await testDatabases();

describe('liquidity bot', () => {
  it('quotes every pair once, stays still unwatched, follows a watched book, and adopts its ladder after a restart', async () => {
    const db = await (sqlite as NonNullable<typeof sqlite>).open();
    const t = await testApp(db);
    let closed = false;
    try {
      const pairs = spotPairs();
      expect(pairs.length).toBeGreaterThanOrEqual(10);
      for (const pair of pairs) {
        const quotes = t.app.engine.state.openOrders(marketMakerOf(pair.id));
        expect(quotes.length, pair.id).toBe(10);
        expect(t.app.engine.state.market(pair.id)?.halted, pair.id).toBe(false);
      }
      // The staff console reads each account (reconciliation readers only).
      const login = await t.call('POST', '/admin/auth/login', {
        json: {
          username: DEMO_STAFF.username,
          password: DEMO_STAFF.password,
          totpCode: totpNow(DEMO_STAFF.totpSecret, t.clock.now()),
        },
      });
      const staffToken = login.body.data.token as string;
      const liquidity = (await t.call('GET', '/admin/spot/liquidity', { token: staffToken })).body.data.items;
      expect(liquidity.length).toBe(pairs.length);
      expect(liquidity[0]).toMatchObject({
        symbol: 'BTCUSDT',
        liquidityAccount: 'mm:CRYPTO:BTCUSDT',
        base: 'BTC',
        quote: 'USDT',
        openOrders: 10,
        referencePrice: '95000.00',
      });
      expect(Number(liquidity[0].baseHeld)).toBeGreaterThan(0);
      expect((await t.call('GET', '/admin/spot/liquidity')).body.code).not.toBe(0);
      // Ten minutes with nobody looking: not one command.
      const idle = t.app.engine.seq;
      for (let i = 0; i < 60; i++) await t.advance(10_000);
      expect(t.app.engine.seq).toBe(idle);

      // Someone watches BTC: its ladder follows the price (and only its ladder).
      const btc = 'CRYPTO:BTCUSDT';
      const before = t.app.engine.state.openOrders(marketMakerOf(btc)).map((o) => o.orderId);
      const eth = t.app.engine.state.openOrders(marketMakerOf('CRYPTO:ETHUSDT')).map((o) => o.orderId);
      let moved = false;
      for (let i = 0; i < 60 && !moved; i++) {
        await t.call('POST', '/coin/books', { body: { symbol: 'BTCUSDT' } });
        await t.advance(5_000);
        moved = t.app.engine.state.openOrders(marketMakerOf(btc)).every((o) => !before.includes(o.orderId));
      }
      expect(moved).toBe(true);
      expect(t.app.engine.state.openOrders(marketMakerOf('CRYPTO:ETHUSDT')).map((o) => o.orderId)).toEqual(eth);

      // A restart with another fee setting: no pair registered twice, the ladder kept, new fees in force.
      const ladder = t.app.engine.state.openOrders(marketMakerOf(btc)).map((o) => o.orderId);
      await t.close();
      closed = true;
      const again = await testApp(db, { spot: { ...loadSpotSettings({}), makerFeeBps: 2, takerFeeBps: 7 } });
      try {
        expect(again.app.engine.state.openOrders(marketMakerOf(btc)).map((o) => o.orderId)).toEqual(ladder);
        expect(again.app.engine.state.instrument(btc)?.spec).toMatchObject({ makerFeeBps: 2, takerFeeBps: 7 });
        const infos = (await again.call('POST', '/coin/infos')).body.data.items;
        expect(infos[0]).toMatchObject({ makerFeeBps: 2, takerFeeBps: 7 });
        const registered = await db.query<{ n: number }>(
          "SELECT COUNT(*) AS n FROM engine_journal WHERE command LIKE '%instrument:CRYPTO:BTCUSDT%'",
        );
        expect(Number(registered[0]?.n)).toBe(1);
      } finally {
        await again.close();
      }
    } finally {
      if (!closed) await t.close();
    }
  });
});
