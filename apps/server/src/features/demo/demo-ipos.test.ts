// Paper mode's demo IPOs on a fresh start: one drawn (the demo customer's application allotted, the
// public record reproducing), one open, one upcoming; seeded once.

import { verifyIpoDrawRecord } from '@bourse/contract/ipo-draw';
import { testDatabases } from '@bourse/db';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { testApp } from '../../testing.ts';
import { DEMO_CUSTOMER } from './seed.ts';

const dbs = await testDatabases();

describe.each(dbs)('demo IPOs on $dialect', ({ open }) => {
  it('seeds a drawn, an open and an upcoming IPO once, through the real life cycle', async () => {
    const db = await open();
    const base = loadConfig({}, { dataDir: null });
    const t = await testApp(db, { ipo: { ...base.ipo, jobEveryMs: 0, demo: true } });
    try {
      await t.app.ipos.tick();
      const all = (await t.call('GET', '/stock/index/new/list')).body.data;
      const bySymbol = Object.fromEntries(all.items.map((i: { symbol: string }) => [i.symbol, i]));
      expect(all.total).toBe(3);
      expect(bySymbol.SURYAPWR).toMatchObject({ status: 'allotted', drawMode: 'proportionate' });
      expect(bySymbol.KAVERIAGRO.status).toBe('open');
      expect(bySymbol.KAVERIAGRO.seedHash).toMatch(/^[0-9a-f]{64}$/);
      expect(bySymbol.BHARATEV).toMatchObject({ status: 'upcoming', seedHash: null });
      const record = (await t.call('GET', `/stock/index/new/draw?ipoId=${bySymbol.SURYAPWR.id}`)).body.data;
      expect(record.applications).toHaveLength(1);
      expect(verifyIpoDrawRecord(record).ok).toBe(true);

      const login = await t.call('POST', '/user/login', {
        body: { areaCode: DEMO_CUSTOMER.areaCode, phone: DEMO_CUSTOMER.phone, password: DEMO_CUSTOMER.password },
      });
      const token = login.body.data.token as string;
      const mine = (await t.call('GET', '/stock/order/new/list', { token })).body.data.items;
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ symbol: 'SURYAPWR', status: 'allocated', allottedShares: '134' });
      const shares = t.app.engine.state.balance(String(login.body.data.user.id), 'stock', 'SHARE:NSE:SURYAPWR');
      expect(shares).toMatchObject({ balance: 134n, held: 134n });
    } finally {
      await t.close();
    }
    // A restart seeds nothing more.
    const again = await testApp(db, { ipo: { ...base.ipo, jobEveryMs: 0, demo: true } });
    try {
      expect((await again.call('GET', '/stock/index/new/list')).body.data.total).toBe(3);
    } finally {
      await again.close();
      await db.close();
    }
  }, 60_000);
});
