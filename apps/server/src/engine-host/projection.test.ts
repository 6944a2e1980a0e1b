// The read model written from the engine's events, on both databases: batches that share a commit
// (places, fills, cancels of orders placed in the same batch) leave exactly the engine's state in the
// orders table, and a retried command (its first answer remembered by the engine) never rewinds an order
// that moved on after it.

import type { Param, Sql } from '@bourse/db';
import { testDatabases } from '@bourse/db';
import { type ApplyResult, type Command, Engine, LoggedResult } from '@bourse/engine';
import { btcUsdt, CommandFactory, SeededRandom } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../platform/clock.ts';
import { projectBatch } from './projection.ts';
import { TradingEngine } from './trading-engine.ts';

const SPEC = btcUsdt();

type OrderRow = { id: number; status: string; filled_lots: number; qty_lots: number; last_seq: number };

const dbs = await testDatabases();

describe.each(dbs)('projection on $dialect', ({ open }) => {
  async function setUp() {
    const db = await open();
    const clock = manualClock();
    const engine = await TradingEngine.open(db, clock);
    const ok = async (p: ReturnType<TradingEngine['submit']>) => {
      const r = await p;
      if (!r.ok) throw new Error(r.code);
      return r;
    };
    await ok(engine.submit({ type: 'register_instrument', id: 'instrument', instrument: SPEC }));
    for (const user of ['a', 'b', 'c', 'd']) {
      for (const [asset, amount] of [
        ['USDT', '1000000'],
        ['BTC', '100'],
      ] as const) {
        await ok(
          engine.submit({
            type: 'deposit',
            id: `deposit:${user}:${asset}`,
            userId: user,
            wallet: 'spot',
            asset,
            amount,
            from: 'faucet',
            cause: 'paper_grant',
          }),
        );
      }
    }
    const rows = async () =>
      (await db.query<OrderRow>('SELECT id, status, filled_lots, qty_lots, last_seq FROM orders ORDER BY id')).map(
        (r) => ({ ...r, id: Number(r.id), filled_lots: Number(r.filled_lots), qty_lots: Number(r.qty_lots) }),
      );
    const close = async () => {
      await engine.close();
      await db.close();
    };
    return { db, clock, engine, ok, rows, close };
  }

  it('updates an order placed in the batch before, while that batch is still committing', async () => {
    const t = await setUp();
    try {
      // Each place goes out in one batch and its cancel in the next, before the place is answered: the
      // cancel's batch is written while the place's batch may still be committing (pipelined commits).
      const pending: Promise<unknown>[] = [];
      const placedIds: number[] = [];
      for (let i = 0; i < 40; i++) {
        const placed = t.engine.apply({
          type: 'place_order',
          id: `rest${i}`,
          userId: 'a',
          instrumentId: SPEC.id,
          side: 'buy',
          orderType: 'limit',
          priceTicks: 4_000_000 + i,
          qtyLots: 1,
        });
        const event = placed.result?.ok ? placed.result.events[0] : undefined;
        if (event?.type !== 'order_placed') throw new Error('not placed');
        placedIds.push(event.orderId);
        pending.push(placed.committed);
        await new Promise((r) => setImmediate(r)); // the place's batch starts committing
        pending.push(t.ok(t.engine.submit({ type: 'cancel_order', id: `c${i}`, userId: 'a', orderId: event.orderId })));
      }
      await Promise.all(pending);
      const rows = await t.rows();
      expect(rows.filter((r) => placedIds.includes(r.id)).map((r) => r.status)).toEqual(
        placedIds.map(() => 'cancelled'),
      );
    } finally {
      await t.close();
    }
  });

  it("keeps no row for a market maker's quote that ended without a fill, and records its id as unrecorded", async () => {
    const t = await setUp();
    try {
      const mm = `mm:${SPEC.id}`;
      for (const [asset, amount] of [
        ['USDT', '1000000'],
        ['BTC', '100'],
      ] as const) {
        await t.ok(
          t.engine.submit({
            type: 'deposit',
            id: `deposit:mm:${asset}`,
            userId: mm,
            wallet: 'spot',
            asset,
            amount,
            from: 'faucet',
            cause: 'paper_grant',
          }),
        );
      }
      const place = async (id: string, userId: string, side: 'buy' | 'sell', priceTicks: number, qtyLots: number) => {
        const r = await t.ok(
          t.engine.submit({
            type: 'place_order',
            id,
            userId,
            instrumentId: SPEC.id,
            side,
            orderType: 'limit',
            priceTicks,
            qtyLots,
          }),
        );
        const placed = r.events[0];
        if (placed?.type !== 'order_placed') throw new Error('not placed');
        return placed.orderId;
      };
      const cancel = (userId: string, orderId: number) =>
        t.ok(t.engine.submit({ type: 'cancel_order', id: `cancel:${orderId}`, userId, orderId }));
      // Two ladders of quotes, each withdrawn unfilled; between them a customer's order and a quote that trades.
      const first = [await place('q1', mm, 'buy', 4_000_000, 1), await place('q2', mm, 'sell', 6_000_000, 1)];
      const customer = await place('c1', 'a', 'buy', 3_000_000, 1);
      const traded = await place('q3', mm, 'sell', 5_500_000, 2);
      await place('c2', 'b', 'buy', 5_500_000, 1); // takes one lot of q3
      const second = [await place('q4', mm, 'buy', 4_100_000, 1), await place('q5', mm, 'sell', 6_100_000, 1)];
      for (const id of [...second, ...first, traded]) await cancel(mm, id);
      await cancel('a', customer);
      const ids = (await t.rows()).map((r) => r.id);
      expect(ids).toContain(customer);
      expect(ids).toContain(traded);
      for (const id of [...first, ...second]) expect(ids).not.toContain(id);
      const ranges = await t.db.query<{ from_id: unknown; to_id: unknown }>(
        'SELECT from_id, to_id FROM unrecorded_order_ids ORDER BY from_id',
      );
      // q1 and q2 are consecutive ids: one range; q4 and q5 another (the customer's order c2 lies between).
      expect(ranges.map((r) => [Number(r.from_id), Number(r.to_id)])).toEqual([
        [first[0], first[1]],
        [second[0], second[1]],
      ]);
    } finally {
      await t.close();
    }
  });

  it('writes a shared commit of places, fills and cancels as the engine has them', async () => {
    const t = await setUp();
    try {
      const users = ['a', 'b', 'c', 'd'];
      // One batch: resting orders on both sides, crossing ones, and cancels of orders placed just before.
      const answers = await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          t.engine.submit({
            type: 'place_order',
            id: `o${i}`,
            userId: users[i % 4]!,
            instrumentId: SPEC.id,
            side: i % 2 === 0 ? 'buy' : 'sell',
            orderType: 'limit',
            priceTicks: 5_000_000 + (i % 2 === 0 ? i % 7 : 3 - (i % 5)),
            qtyLots: 1 + (i % 9),
          }),
        ),
      );
      const placedIds = answers.flatMap((r) =>
        r.ok && r.events[0]?.type === 'order_placed' ? [r.events[0].orderId] : [],
      );
      expect(placedIds.length).toBe(120);
      const cancels = await Promise.all(
        placedIds
          .filter((_, k) => k % 3 === 0)
          .map((orderId, k) =>
            t.engine.submit({
              type: 'cancel_order',
              id: `cancel:${orderId}`,
              userId: users[(k * 3) % 4]!,
              orderId,
            }),
          ),
      );
      expect(cancels.some((r) => r.ok)).toBe(true);
      const rows = await t.rows();
      expect(rows.map((r) => r.id)).toEqual(placedIds);
      const trades = await t.db.query<{ maker_order_id: number; taker_order_id: number; qty_lots: number }>(
        'SELECT maker_order_id, taker_order_id, qty_lots FROM trades',
      );
      expect(trades.length).toBeGreaterThan(0);
      for (const row of rows) {
        const live = t.engine.state.order(row.id);
        const filled = trades
          .filter((tr) => Number(tr.maker_order_id) === row.id || Number(tr.taker_order_id) === row.id)
          .reduce((s, tr) => s + Number(tr.qty_lots), 0);
        expect(row.filled_lots, `order ${row.id}`).toBe(filled);
        if (live) {
          expect(row.status, `order ${row.id}`).toBe(live.status);
          expect(row.filled_lots).toBe(live.filledLots);
        } else {
          expect(['filled', 'cancelled', 'rejected']).toContain(row.status);
        }
      }
    } finally {
      await t.close();
    }
  });

  // The retry stamped later, in the same millisecond as the first command, or after the clock stepped
  // back: the host's own repeat flag says it is a repeat, whatever the times.
  it.each([1_000, 0, -5_000])(
    'does not rewind an order when a retry answers its first result again (clock %i ms)',
    async (step) => {
      const t = await setUp();
      try {
        await t.ok(
          t.engine.submit({
            type: 'place_order',
            id: 'maker',
            userId: 'b',
            instrumentId: SPEC.id,
            side: 'sell',
            orderType: 'limit',
            priceTicks: 5_000_000,
            qtyLots: 2,
          }),
        );
        t.clock.advance(1_000);
        const buy = {
          type: 'place_order',
          id: 'buy-1',
          userId: 'a',
          instrumentId: SPEC.id,
          side: 'buy',
          orderType: 'limit',
          priceTicks: 5_000_000,
          qtyLots: 5,
        } as const;
        const first = await t.ok(t.engine.submit(buy));
        const placed = first.events.find((e) => e.type === 'order_placed');
        const orderId = placed?.type === 'order_placed' ? placed.orderId : 0;
        expect((await t.rows()).find((r) => r.id === orderId)).toMatchObject({ status: 'partial', filled_lots: 2 });
        // Cancelled in the same millisecond; the retry `step` ms after both.
        await t.ok(t.engine.submit({ type: 'cancel_order', id: 'cancel-1', userId: 'a', orderId }));
        t.clock.advance(step);
        const again = await t.ok(t.engine.submit(buy)); // the client retries with the same id and body
        expect(again.events.map((e) => e.type)).toEqual(first.events.map((e) => e.type));
        expect((await t.rows()).find((r) => r.id === orderId)).toMatchObject({ status: 'cancelled', filled_lots: 2 });
      } finally {
        await t.close();
      }
    },
  );
});

describe('projection rows', () => {
  /** The statements projectBatch runs for a batch, with their parameters, on a recording SQLite stand-in. */
  async function statementsFor(batch: { seq: number; command: Command; result: ApplyResult; repeat: boolean }[]) {
    const ran: [string, readonly Param[] | undefined][] = [];
    const tx: Sql = {
      dialect: 'sqlite',
      query: async () => [],
      run: async (text, params) => {
        ran.push([text, params]);
        return 1;
      },
    };
    await projectBatch(tx, batch);
    return ran;
  }

  it('writes the same rows from results read in place as from their events made into objects', async () => {
    // Fills with both fees, an amount beyond 2^53 (1 ETH lots), rests, cancels and amends.
    const random = new SeededRandom(5);
    const c = new CommandFactory('BTC-USDT');
    const e = new CommandFactory('ETH-USDT1');
    const engine = new Engine();
    const commands: Command[] = [
      c.register(btcUsdt()),
      { ...e.register(btcUsdt({ id: 'ETH-USDT1', base: 'ETH', lotSize: '1', tickSize: '0.013' })), id: 'e-reg' },
    ];
    for (const user of ['a', 'b', 'c']) {
      commands.push(
        c.deposit(user, 'USDT', '100000000'),
        c.deposit(user, 'BTC', '1000'),
        c.deposit(user, 'ETH', '1000'),
      );
    }
    for (let n = 0; n < 400; n++) {
      const f = random.chance(0.3) ? e : c;
      const user = ['a', 'b', 'c'][random.int(0, 2)] as string;
      const side = random.chance(0.5) ? 'buy' : 'sell';
      const command =
        n > 10 && random.chance(0.2)
          ? f.cancel(user, random.int(1, n))
          : n > 10 && random.chance(0.1)
            ? f.amend(user, random.int(1, n), { qtyLots: random.int(1, 9) })
            : f.limit(user, side, 1_000 + random.int(-5, 5), random.int(1, 9));
      commands.push(f === e ? { ...command, id: `e-${command.id}` } : command);
    }
    const batch = commands.map((command, i) => {
      const result = engine.apply(command);
      return { seq: i + 1, command, result, repeat: engine.lastApplyWasRepeat };
    });
    const logged = batch.filter((b) => b.result instanceof LoggedResult).length;
    expect(logged).toBeGreaterThan(250);
    const inPlace = await statementsFor(batch);
    for (const b of batch) if (b.result instanceof LoggedResult) b.result.keep();
    const fromObjects = await statementsFor(batch);
    expect(inPlace.length).toBeGreaterThan(1_000);
    expect(inPlace).toEqual(fromObjects);
    // Both kinds of trade record came up: fills (one record) and trades with bigint amounts.
    const transfers = inPlace.filter(([text]) => text.startsWith('INSERT INTO ledger_transfers'));
    expect(transfers.some(([, p]) => String(p?.[0]).endsWith(':buyer_fee'))).toBe(true);
    expect(transfers.some(([, p]) => String(p?.[8]).length > 16)).toBe(true);
  });
});
