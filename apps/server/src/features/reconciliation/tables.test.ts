// The stored tables' checks on their own, on SQLite and PostgreSQL: transfers summed exactly past 2^63
// (SQLite's SUM is not), only up to the run's seq; lost trade and order rows found among the ids the engine
// had given out, the newest included; and of many discrepancies the first 100 kept and all of them counted.

import { type Db, testDatabases } from '@bourse/db';
import { describe, expect, it } from 'vitest';
import type { EngineFigures } from './engine-figures.ts';
import { checkTables, DISCREPANCIES_KEPT } from './tables.ts';

const dbs = await testDatabases();
const NINE_ETH = 9_000_000_000_000_000_000n; // 9 ETH in wei: past 2^63 once three are added
const FAUCET = 'platform:faucet/platform/ETH';
const USER = 'u1/spot/ETH';
const noPause = async () => {};

const figures = (seq: number, balances: [bigint, bigint], lastIds = { orderId: 0, tradeId: 0 }): EngineFigures => ({
  seq,
  accountKeys: [FAUCET, USER],
  balances,
  scales: { ETH: 18 },
  liveOrderIds: [],
  liveStatuses: [],
  liveFilledLots: [],
  lastOrderId: lastIds.orderId,
  lastTradeId: lastIds.tradeId,
});

async function transfer(db: Db, seq: number, amount: bigint) {
  await db.run(
    `INSERT INTO ledger_transfers (transfer_id, seq, at, debit, credit, debit_owner, credit_owner, asset, amount, cause, link)
     VALUES ($1, $2, 0, $3, $4, 'platform:faucet', 'u1', 'ETH', $5, 'paper_grant', 'user:1')`,
    [`t${seq}`, seq, FAUCET, USER, String(amount)],
  );
}

async function orderRow(db: Db, id: number, lastSeq: number) {
  await db.run(
    `INSERT INTO orders (id, command_id, user_id, instrument_id, side, order_type, time_in_force, price_ticks, qty_lots,
       status, hold_asset, hold_amount, created_at, updated_at, last_seq)
     VALUES ($1, $2, 'u1', 'NSE:TCS', 'buy', 'limit', 'gtc', 100, 1, 'cancelled', 'INR', '0', 0, 0, $3)`,
    [id, `o${id}`, lastSeq],
  );
}

async function tradeRow(db: Db, id: number, seq: number) {
  await db.run(
    `INSERT INTO trades (id, seq, instrument_id, price_ticks, qty_lots, taker_side, maker_order_id, taker_order_id,
       maker_user_id, taker_user_id, notional, maker_fee, taker_fee, at)
     VALUES ($1, $2, 'NSE:TCS', 100, 1, 'buy', 1, 1, 'u2', 'u1', '5', '0', '0', 0)`,
    [id, seq],
  );
}

describe.each(dbs)('stored tables on $dialect', ({ open }) => {
  it('sums an account past 2^63 exactly, and only the transfers up to the seq', async () => {
    const db = await open();
    try {
      for (const seq of [1, 2, 3]) await transfer(db, seq, NINE_ETH);
      await transfer(db, 4, 1n); // after the run's seq
      const total = 3n * NINE_ETH;
      const sound = await checkTables(db, figures(3, [-total, total]), null, noPause);
      expect(sound).toMatchObject({ discrepancies: [], discrepancyCount: 0, transfers: 3 });
      const off = await checkTables(db, figures(3, [-total, total + 1n]), null, noPause);
      expect(off.discrepancies).toEqual([
        {
          kind: 'balance_mismatch',
          account: USER,
          asset: 'ETH',
          engine: '27.000000000000000001',
          readModel: '27.000000000000000000',
        },
      ]);
    } finally {
      await db.close();
    }
  });

  it('finds lost trade and order rows among the ids given out, the newest included, keeping the first 100 of many', async () => {
    const db = await open();
    try {
      for (const id of [1, 2, 4]) await tradeRow(db, id, id);
      await tradeRow(db, 6, 9); // made after the run's seq: not one of its trades
      for (const id of [1, 3, 250]) await orderRow(db, id, 1);
      // By the run's seq the engine had given out trades 1 … 5 and orders 1 … 251.
      const found = await checkTables(db, figures(4, [0n, 0n], { orderId: 251, tradeId: 5 }), null, noPause);
      expect(found.trades).toBe(3);
      expect(found.discrepancies.slice(0, 2)).toEqual([
        { kind: 'trade_row_missing', tradeId: 3 },
        { kind: 'trade_row_missing', tradeId: 5 },
      ]);
      // Orders 2, 4 … 249 and 251: 248 rows lost, the first 98 of them kept.
      expect(found.discrepancyCount).toBe(2 + 248);
      expect(found.discrepancies).toHaveLength(DISCREPANCIES_KEPT);
      expect(found.discrepancies.slice(2, 5)).toEqual([
        { kind: 'order_row_missing', orderId: 2 },
        { kind: 'order_row_missing', orderId: 4 },
        { kind: 'order_row_missing', orderId: 5 },
      ]);
      expect(found.discrepancies.at(-1)).toEqual({ kind: 'order_row_missing', orderId: 100 });
    } finally {
      await db.close();
    }
  });

  it('accounts for the ids of quotes that kept no row by their unrecorded ranges, and still finds a lost row among them', async () => {
    const db = await open();
    try {
      for (const id of [1, 3, 250]) await orderRow(db, id, 1);
      const ranges = async (list: [number, number][]) => {
        await db.run('DELETE FROM unrecorded_order_ids');
        for (const [from, to] of list)
          await db.run('INSERT INTO unrecorded_order_ids (from_id, to_id) VALUES ($1, $2)', [from, to]);
      };
      const check = () => checkTables(db, figures(4, [0n, 0n], { orderId: 251, tradeId: 0 }), null, noPause);
      // Every id from 1 to 251 is a row or in a range: nothing lost.
      await ranges([
        [2, 2],
        [4, 249],
        [251, 400],
      ]);
      expect(await check()).toMatchObject({ discrepancies: [], discrepancyCount: 0 });
      // Ranges that leave 201 … 249 and 251 uncovered: those are lost rows.
      await ranges([
        [2, 2],
        [4, 120],
        [121, 200],
      ]);
      const found = await check();
      expect(found.discrepancyCount).toBe(49 + 1);
      expect(found.discrepancies[0]).toEqual({ kind: 'order_row_missing', orderId: 201 });
      expect(found.discrepancies.at(-1)).toEqual({ kind: 'order_row_missing', orderId: 251 });
    } finally {
      await db.close();
    }
  });
});
