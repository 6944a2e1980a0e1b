// The durable record of idempotency keys on both databases: only keyed command ids are recorded, a
// refusal is recorded like a success, the same body finds the outcome and another body is told apart.

import { testDatabases } from '@bourse/db';
import type { ApplyResult, Command } from '@bourse/engine';
import { describe, expect, it } from 'vitest';
import { findKeyed, isKeyedCommandId, keyedCommandId, keyRow, projectKeys } from './idempotency-keys.ts';

const dbs = await testDatabases();

const order = (id: string, qtyLots = 2): Command => ({
  type: 'place_order',
  id,
  userId: '7',
  instrumentId: 'NSE:ITC',
  side: 'buy',
  orderType: 'market',
  qtyLots,
  timeMs: 1_000,
});

describe('keyed command ids', () => {
  it('tells a client-keyed id from a generated one, whatever the key holds', () => {
    expect(keyedCommandId('stock', 7, 'abc:key:def')).toBe('stock:7:key:abc:key:def');
    expect(isKeyedCommandId(keyedCommandId('stock', 7, 'retry-0001'))).toBe(true);
    expect(isKeyedCommandId('stock:7:0f1e2d3c-aaaa-4bbb-8ccc-123456789abc')).toBe(false);
    expect(isKeyedCommandId('mm:NSE:ITC:15:buy:100:gtc')).toBe(false);
    expect(isKeyedCommandId('cancel:7:12')).toBe(false);
    expect(keyRow(order('stock:7:generated'), { ok: false, code: 'insufficient_balance' })).toBeUndefined();
  });
});

describe.each(dbs)('idempotency keys on $dialect', ({ open }) => {
  it('finds a recorded success and a recorded refusal by the same body, and reports another body as reused', async () => {
    const db = await open();
    try {
      const placed = keyedCommandId('stock', 7, 'placed-0001');
      const refused = keyedCommandId('stock', 7, 'refused-0001');
      const success: ApplyResult = {
        ok: true,
        events: [
          {
            type: 'order_placed',
            orderId: 42,
            commandId: placed,
            userId: '7',
            instrumentId: 'NSE:ITC',
            side: 'buy',
            orderType: 'market',
            timeInForce: 'ioc',
            priceTicks: 0,
            qtyLots: 2,
            holdAsset: 'INR',
            holdAmount: 0n,
            timeMs: 1_000,
          } as never,
        ],
      };
      const rows = [
        keyRow(order(placed), success)!,
        keyRow(order(refused), { ok: false, code: 'insufficient_balance' })!,
      ];
      await db.transaction((tx) => projectKeys(tx, rows));
      // Written twice (a batch projected again) changes nothing.
      await db.transaction((tx) => projectKeys(tx, rows));
      // The sequencer's time is not part of the body: a retry comes later.
      const later: Command = { ...order(placed), timeMs: 99_000 };
      expect(await findKeyed(db, later)).toEqual({ ok: true, orderId: 42 });
      expect(await findKeyed(db, order(refused))).toEqual({ ok: false, code: 'insufficient_balance' });
      expect(await findKeyed(db, order(placed, 3))).toBe('reused');
      expect(await findKeyed(db, order(keyedCommandId('stock', 7, 'unknown-0001')))).toBeUndefined();
    } finally {
      await db.close();
    }
  });
});
