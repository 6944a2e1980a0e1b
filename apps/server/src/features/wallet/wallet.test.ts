// Paper mode: a new customer's virtual funds arrive as visible ledger transfers from the platform's
// faucet, the balances equal those transfers, and signing up twice never grants twice.

import { testDatabases } from '@bourse/db';
import { describe, expect, it } from 'vitest';
import { testApp } from '../../testing.ts';

const dbs = await testDatabases();

describe.each(dbs)('wallet on $dialect', ({ open }) => {
  it('grants virtual funds on sign-up as paper_grant transfers, and shows balances that match them', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const token = (await t.register('9000000030')).body.data.token as string;
      const assets = (await t.call('POST', '/user/assets', { token })).body.data.items;
      expect(assets).toEqual(
        expect.arrayContaining([
          { wallet: 'stock', asset: 'INR', balance: '1000000.00', held: '0.00', available: '1000000.00' },
          { wallet: 'stock', asset: 'USD', balance: '10000.00', held: '0.00', available: '10000.00' },
          { wallet: 'stock', asset: 'BRL', balance: '50000.00', held: '0.00', available: '50000.00' },
          { wallet: 'spot', asset: 'USDT', balance: '10000.000000', held: '0.000000', available: '10000.000000' },
        ]),
      );
      const record = (await t.call('GET', '/user/tx/record?wallet=stock', { token })).body.data;
      expect(record.total).toBe(3);
      expect(record.items[0]).toMatchObject({ cause: 'paper_grant', counterparty: 'platform:faucet', wallet: 'stock' });
      expect(record.items.map((i: { amount: string }) => i.amount).sort()).toEqual([
        '10000.00',
        '1000000.00',
        '50000.00',
      ]);
      // The crypto exchange's USDT lands in the spot wallet.
      const spot = (await t.call('GET', '/user/tx/record?wallet=spot', { token })).body.data;
      expect(spot.items).toMatchObject([
        { cause: 'paper_grant', asset: 'USDT', amount: '10000.000000', wallet: 'spot' },
      ]);
      // The demo customer was granted at start-up, once, however often the server starts.
      const demo = (
        await t.call('POST', '/user/login', { body: { areaCode: '91', phone: '9876543210', password: 'demo1234' } })
      ).body.data.token;
      expect((await t.call('GET', '/user/tx/record', { token: demo })).body.data.total).toBe(4);
    } finally {
      await t.close();
    }
    const again = await testApp(db);
    try {
      const demo = (
        await again.call('POST', '/user/login', { body: { areaCode: '91', phone: '9876543210', password: 'demo1234' } })
      ).body.data.token;
      expect((await again.call('GET', '/user/tx/record', { token: demo })).body.data.total).toBe(4);
      expect(again.app.engine.state.findBrokenInvariant()).toBeUndefined();
    } finally {
      await again.close();
      await db.close();
    }
  });

  it('reads one ledger line by its id for its owner only (the record detail page)', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const owner = (await t.register('9000000031')).body.data.token as string;
      const other = (await t.register('9000000032')).body.data.token as string;
      const [line] = (await t.call('GET', '/user/tx/record?limit=1', { token: owner })).body.data.items;
      const one = await t.call('GET', `/user/tx/record?id=${encodeURIComponent(line.id)}`, { token: owner });
      expect(one.body.data).toEqual({ total: 1, items: [line] });
      // Another customer's line answers no line, exactly like an unknown id.
      const foreign = await t.call('GET', `/user/tx/record?id=${encodeURIComponent(line.id)}`, { token: other });
      expect(foreign.body.data).toEqual({ total: 0, items: [] });
      expect((await t.call('GET', '/user/tx/record?id=nope', { token: owner })).body.data).toEqual({
        total: 0,
        items: [],
      });
    } finally {
      await t.close();
      await db.close();
    }
  });
});
