// API tests of the reconciliation on SQLite in memory (the tables read on the server's own connection), an
// SQLite file and PostgreSQL (read on a worker thread with a connection of its own): a fresh server with
// demo data and a customer's trades balances; each way of damaging the stored tables or the audit log
// behind the engine's back is reported as its own kind of discrepancy and nothing else, the newest trade
// and order rows included; the audit log's newest entries removed, or the log rewritten with its hashes
// recomputed, are found by the previous run's tip; orders placed, filled and cancelled during a run are
// never reported; only permitted roles see it, and a run asked for is audited.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DISCREPANCY_KINDS, type ReconciliationReport } from '@bourse/contract';
import { type Db, openDb, type Row, testDatabases } from '@bourse/db';
import { afterAll, describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';
import { type AuditRow, appendAudit, verifyChain } from '../staff/audit.ts';

const files = mkdtempSync(join(tmpdir(), 'bourse-reconcile-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));
let fileCount = 0;
const dbs = [
  ...(await testDatabases()),
  { dialect: 'sqlite file', open: () => openDb({ dataDir: join(files, String(fileCount++)) }) },
];

const PIN = '246810';
type T = Awaited<ReturnType<typeof testApp>>;

async function trader(t: T, phone: string) {
  const token = (await t.register(phone)).body.data.token as string;
  const pin = await t.call('POST', '/user/update/tradePassword', {
    token,
    body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
  });
  expect(pin.body.code).toBe(0);
  return token;
}

const order = (t: T, token: string, side: 'buy' | 'sell', body: Record<string, string>) =>
  t.call('POST', `/stock/order/${side}`, { token, body: { orderType: 'market', password: PIN, ...body } });

/** A resting limit buy a few percent under the market: it stays pending. */
async function restingBuy(t: T, token: string, symbol: string, quantity = '1') {
  const quote = (await t.call('GET', `/stock/index/info?symbol=${symbol}`)).body.data;
  const price = (Number(quote.price) * 0.97).toFixed(1);
  const placed = await order(t, token, 'buy', { symbol, orderType: 'limit', price, quantity });
  expect(placed.body.data.order.status, JSON.stringify(placed.body)).toBe('pending');
  return placed.body.data.order.id as number;
}

async function signIn(t: T, username: string, password: string, secret: string) {
  const answer = await t.call('POST', '/admin/auth/login', {
    json: { username, password, totpCode: totpNow(secret, t.clock.now()) },
  });
  expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
  return answer.body.data.token as string;
}

const admin = (t: T) => signIn(t, DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);

async function run(t: T, token: string): Promise<ReconciliationReport> {
  const answer = await t.call('POST', '/admin/reconciliation/run', { token });
  expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
  return answer.body.data;
}

const kinds = (report: ReconciliationReport) => [...new Set(report.discrepancies.map((d) => d.kind))];

/** What the audit log refuses (UPDATE, DELETE) made possible, as someone with the database's keys could. */
async function dropAuditTriggers(db: Db) {
  if (db.dialect === 'sqlite') {
    await db.run('DROP TRIGGER audit_log_no_update');
    await db.run('DROP TRIGGER audit_log_no_delete');
  } else await db.run('DROP TRIGGER audit_log_no_change ON audit_log');
}

/** Puts a row read with SELECT * back as it was. */
async function putBack(db: Db, table: string, row: Row) {
  const columns = Object.keys(row);
  await db.run(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, k) => `$${k + 1}`).join(', ')})`,
    columns.map((c) => row[c] as string | number | null),
  );
}

/** A server whose customer has bought at market and has a buy resting; no scheduled runs. */
async function tradedServer(db: Db) {
  const t = await testApp(db, { reconcileEveryMin: 0 });
  const token = await trader(t, '9000000301');
  const bought = await order(t, token, 'buy', { symbol: 'NSE:RELIANCE', quantity: '10' });
  expect(bought.body.data.order.status, JSON.stringify(bought.body)).toBe('completed');
  const resting = await restingBuy(t, token, 'NSE:TCS', '5');
  return { t, token, boughtId: bought.body.data.order.id as number, resting };
}

describe.each(dbs)('reconciliation on $dialect', ({ dialect, open }) => {
  it("balances on a fresh server with demo data and a customer's trades, and keeps the last report", async () => {
    const db = await open();
    const { t } = await tradedServer(db);
    try {
      const staff = await admin(t);
      expect((await t.call('GET', '/admin/reconciliation', { token: staff })).body.data).toEqual({
        last: null,
        running: false,
        everyMin: 0,
      });
      const report = await run(t, staff);
      expect(report).toMatchObject({
        status: 'ok',
        trigger: 'staff',
        discrepancies: [],
        discrepancyCount: 0,
        auditChain: {
          ok: true,
          firstBrokenId: null,
          tipId: expect.any(Number),
          previousTipId: null, // the first run in this server's lifetime
          previousTipChanged: false,
        },
      });
      expect(report.seq).toBeGreaterThan(0);
      expect(report.seq).toBeLessThanOrEqual(t.app.engine.seq);
      expect(report.checked.trades).toBeGreaterThan(0);
      expect(report.checked.transfers).toBeGreaterThan(report.checked.trades);
      expect(report.checked.liveOrders).toBeGreaterThan(1); // the market maker's quotes and the resting buy
      for (const asset of report.assets) expect(asset.net, asset.asset).toMatch(/^0(\.0+)?$/);
      const inr = report.assets.find((a) => a.asset === 'INR');
      // Two customers were granted 1,000,000.00 INR each from the faucet; the buy paid a fee.
      expect(inr?.platformByKind.faucet).toBe('-2000000.00');
      expect(Number(inr?.platformByKind.fees)).toBeGreaterThan(0);
      expect(Number(inr?.customersHeld)).toBeGreaterThan(0); // the resting buy's hold
      expect(Number(inr?.marketMakers)).toBeGreaterThan(0);
      const shares = report.assets.find((a) => a.asset === 'SHARE:NSE:RELIANCE');
      expect(shares?.customers).toBe('10');
      // Money first, then shares.
      expect(report.assets.findIndex((a) => a.asset.startsWith('SHARE:'))).toBeGreaterThan(
        report.assets.findIndex((a) => a.asset === 'USD'),
      );
      const state = (await t.call('GET', '/admin/reconciliation', { token: staff })).body.data;
      expect(state).toEqual({ last: report, running: false, everyMin: 0 });
      // The report's schema, every kind of discrepancy with it, is in the OpenAPI document.
      const doc = (await t.app.http.inject({ method: 'GET', url: '/ipor-api/openapi.json' })).json();
      expect(doc.paths['/admin/reconciliation'].get).toBeDefined();
      const documented = JSON.stringify(doc.paths['/admin/reconciliation/run'].post.responses['200']);
      for (const kind of DISCREPANCY_KINDS) expect(documented).toContain(`"${kind}"`);
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('reports each kind of damage to the stored tables and the audit log as its own discrepancy, and nothing else', async () => {
    const db = await open();
    const { t, boughtId } = await tradedServer(db);
    try {
      const staff = await admin(t);
      expect((await run(t, staff)).status).toBe('ok');

      // A transfer row deleted: the two accounts it moved no longer sum to their balances.
      const [fee] = await db.query<Row & { transfer_id: string; debit: string; credit: string; amount: unknown }>(
        `SELECT * FROM ledger_transfers WHERE cause = 'fee' ORDER BY seq LIMIT 1`,
      );
      if (!fee) throw new Error('no fee transfer');
      await db.run('DELETE FROM ledger_transfers WHERE transfer_id = $1', [fee.transfer_id]);
      let report = await run(t, staff);
      expect(report.status).toBe('failed');
      expect(kinds(report)).toEqual(['balance_mismatch']);
      expect(report.discrepancyCount).toBe(2);
      expect(report.discrepancies.map((d) => (d.kind === 'balance_mismatch' ? d.account : '')).sort()).toEqual(
        [fee.debit, fee.credit].sort(),
      );
      await putBack(db, 'ledger_transfers', fee);
      expect((await run(t, staff)).status).toBe('ok');

      // Its amount altered: the same two accounts, off by what was added.
      const amount = BigInt(String(fee.amount));
      await db.run('UPDATE ledger_transfers SET amount = $1 WHERE transfer_id = $2', [
        String(amount + 100n),
        fee.transfer_id,
      ]);
      report = await run(t, staff);
      expect(kinds(report)).toEqual(['balance_mismatch']);
      const credit = report.discrepancies.find((d) => d.kind === 'balance_mismatch' && d.account === fee.credit);
      expect(credit).toMatchObject({ asset: 'INR' });
      if (credit?.kind === 'balance_mismatch')
        expect(Number(credit.readModel) - Number(credit.engine)).toBeCloseTo(1, 6);
      expect(report.discrepancyCount).toBe(2);
      if (dialect !== 'postgres') {
        // SQLite keeps amounts as text: one that is not a number is named, and left out of the sums.
        await db.run('UPDATE ledger_transfers SET amount = $1 WHERE transfer_id = $2', ['12.5', fee.transfer_id]);
        report = await run(t, staff);
        expect(kinds(report)).toEqual(['transfer_amount_invalid', 'balance_mismatch']);
        expect(report.discrepancies[0]).toEqual({
          kind: 'transfer_amount_invalid',
          transferId: fee.transfer_id,
          amount: '12.5',
        });
      }
      await db.run('UPDATE ledger_transfers SET amount = $1 WHERE transfer_id = $2', [String(amount), fee.transfer_id]);
      expect((await run(t, staff)).status).toBe('ok');

      // An order row's status rewound: the filled buy shows as waiting, which the engine no longer has.
      const [bought] = await db.query<Row>('SELECT * FROM orders WHERE id = $1', [boughtId]);
      if (!bought) throw new Error('no order row');
      expect(bought.status).toBe('filled');
      await db.run(`UPDATE orders SET status = 'pending', filled_lots = 0 WHERE id = $1`, [boughtId]);
      report = await run(t, staff);
      expect(report.discrepancies).toEqual([
        { kind: 'order_status_mismatch', orderId: boughtId, readModel: 'pending', engine: 'closed' },
      ]);
      await db.run('UPDATE orders SET status = $1, filled_lots = $2 WHERE id = $3', [
        bought.status as string,
        bought.filled_lots as number,
        boughtId,
      ]);
      expect((await run(t, staff)).status).toBe('ok');

      // An order row deleted: its id was given out (later orders and its trade name higher or equal ones).
      await db.run('DELETE FROM orders WHERE id = $1', [boughtId]);
      report = await run(t, staff);
      expect(report.discrepancies).toEqual([{ kind: 'order_row_missing', orderId: boughtId }]);
      await putBack(db, 'orders', bought);
      expect((await run(t, staff)).status).toBe('ok');

      // An audit entry rewritten (its triggers dropped first): reported with its id, on its own.
      await dropAuditTriggers(db);
      const [first] = await db.query<{ id: number; reason: string }>(
        'SELECT id, reason FROM audit_log ORDER BY id LIMIT 1',
      );
      if (!first) throw new Error('no audit entry');
      await db.run(`UPDATE audit_log SET reason = 'nothing to see' WHERE id = $1`, [first.id]);
      report = await run(t, staff);
      expect(report.discrepancies).toEqual([{ kind: 'audit_chain_broken', auditId: Number(first.id) }]);
      expect(report.auditChain).toMatchObject({
        ok: false,
        firstBrokenId: Number(first.id),
        previousTipChanged: false,
      });
      await db.run('UPDATE audit_log SET reason = $1 WHERE id = $2', [first.reason, first.id]);
      expect(await run(t, staff)).toMatchObject({ status: 'ok', auditChain: { ok: true } });
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('reports the newest trade row lost, and the newest order row when it is a closed order nothing else names', async () => {
    const db = await open();
    const { t, token, resting } = await tradedServer(db);
    try {
      const staff = await admin(t);
      // The resting buy cancelled: closed, in no trade, and the last order the engine gave out.
      expect((await t.call('GET', `/stock/order/cancel?id=${resting}`, { token })).body.code).toBe(0);
      expect((await run(t, staff)).status).toBe('ok');
      const newest = async (table: string) => {
        const [row] = await db.query<Row>(`SELECT * FROM ${table} ORDER BY id DESC LIMIT 1`);
        if (!row) throw new Error(`no ${table} row`);
        return row;
      };
      const lastIds = t.app.engine.state.lastIds();

      const trade = await newest('trades');
      expect(Number(trade.id)).toBe(lastIds.tradeId);
      await db.run('DELETE FROM trades WHERE id = $1', [trade.id as number]);
      let report = await run(t, staff);
      expect(report.discrepancies).toEqual([{ kind: 'trade_row_missing', tradeId: lastIds.tradeId }]);
      await putBack(db, 'trades', trade);
      expect((await run(t, staff)).status).toBe('ok');

      const cancelled = await newest('orders');
      expect(cancelled).toMatchObject({ status: 'cancelled' });
      expect(Number(cancelled.id)).toBe(resting);
      expect(resting).toBe(lastIds.orderId);
      await db.run('DELETE FROM orders WHERE id = $1', [resting]);
      report = await run(t, staff);
      expect(report.discrepancies).toEqual([{ kind: 'order_row_missing', orderId: resting }]);
      await putBack(db, 'orders', cancelled);
      expect((await run(t, staff)).status).toBe('ok');
      expect(t.app.engine.state.lastIds()).toEqual(lastIds); // nothing else was placed or traded meanwhile
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('reports nothing for orders placed, filled and cancelled while it runs', async () => {
    const db = await open();
    const { t, token } = await tradedServer(db);
    try {
      const staff = await admin(t);
      const waiting: number[] = [];
      for (let i = 0; i < 6; i++) waiting.push(await restingBuy(t, token, 'NSE:INFY'));
      // Between the run's figures and its reading of the tables: orders open at its seq are cancelled,
      // market maker quotes live at its seq are filled, new orders rest, all committed before the reading.
      const engine = t.app.engine;
      const committed = engine.committed.bind(engine);
      let during: Promise<unknown> | null = null;
      engine.committed = async (seq: number) => {
        await committed(seq);
        during ??= Promise.all([
          ...waiting.slice(0, 3).map((id) => t.call('GET', `/stock/order/cancel?id=${id}`, { token })),
          order(t, token, 'buy', { symbol: 'NSE:RELIANCE', quantity: '3' }),
          restingBuy(t, token, 'NSE:WIPRO'),
        ]);
        await during;
      };
      // And a stream of orders around it.
      const stream = (async () => {
        for (let i = 0; i < 8; i++) {
          const id = await restingBuy(t, token, 'NSE:HDFCBANK');
          if (i % 2 === 0) await t.call('GET', `/stock/order/cancel?id=${id}`, { token });
        }
      })();
      const report = await run(t, staff);
      await stream;
      expect(during).not.toBeNull();
      expect(report).toMatchObject({ status: 'ok', discrepancyCount: 0 });
      // The run did meet rows written after its seq: transfers, and order rows moved on since.
      const later = await db.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM ledger_transfers WHERE seq > $1', [
        report.seq,
      ]);
      expect(Number(later[0]?.n)).toBeGreaterThan(0);
      const moved = await db.query<{ id: unknown }>('SELECT id FROM orders WHERE id = $1 AND last_seq > $2', [
        waiting[0]!,
        report.seq,
      ]);
      expect(moved.length).toBe(1);
      engine.committed = committed;
      expect((await run(t, staff)).status).toBe('ok');
    } finally {
      await t.close();
      await db.close();
    }
  });

  it("reports the audit log's newest entries removed, by the previous run's tip, though the chain verifies", async () => {
    const db = await open();
    const t = await testApp(db, { reconcileEveryMin: 0 });
    try {
      const staff = await admin(t);
      const first = await run(t, staff);
      const second = await run(t, staff);
      // The second run looks for the first one's tip, and reads a newer one (the first run's own entry).
      expect(second.auditChain).toEqual({
        ok: true,
        firstBrokenId: null,
        tipId: expect.any(Number),
        previousTipId: first.auditChain.tipId,
        previousTipChanged: false,
      });
      const tip = second.auditChain.tipId as number;
      expect(tip).toBeGreaterThan(first.auditChain.tipId as number);

      // The second run's tip and the entry after it removed: what is left is a chain that verifies.
      await dropAuditTriggers(db);
      await db.run('DELETE FROM audit_log WHERE id >= $1', [tip]);
      for (let i = 0; i < 2; i++) {
        // Found, and found again by the run after (the tip kept is the one that went missing).
        const report = await run(t, staff);
        expect(report.discrepancies).toEqual([{ kind: 'audit_tip_changed', auditId: tip }]);
        expect(report.auditChain).toMatchObject({
          ok: false,
          firstBrokenId: null,
          previousTipId: tip,
          previousTipChanged: true,
        });
      }
    } finally {
      await t.close();
      await db.close();
    }
  });

  it("reports the audit log rewritten with every hash recomputed, by the previous run's tip", async () => {
    const db = await open();
    const t = await testApp(db, { reconcileEveryMin: 0 });
    try {
      const staff = await admin(t);
      const tip = (await run(t, staff)).auditChain.tipId as number;

      // Every entry written again with the same id and content but the first's reason, each hash from the
      // one before: a chain that verifies, ending in another hash.
      const entries = await db.query<AuditRow>('SELECT * FROM audit_log ORDER BY id');
      await dropAuditTriggers(db);
      await db.run('DELETE FROM audit_log');
      for (const [k, e] of entries.entries()) {
        await db.transaction((tx) =>
          appendAudit(
            tx,
            {
              staffId: e.staff_id === null ? null : Number(e.staff_id),
              action: e.action,
              targetType: e.target_type,
              targetId: e.target_id,
              reason: k === 0 ? 'nothing to see' : e.reason,
              detail: JSON.parse(e.detail),
            },
            Number(e.at),
          ),
        );
        // Appended under a new id: moved back to its own (the newest id is always the one just written).
        await db.run('UPDATE audit_log SET id = $1 WHERE id = (SELECT MAX(id) FROM audit_log)', [e.id]);
      }
      expect((await verifyChain(db)).firstBrokenId).toBeNull();

      const report = await run(t, staff);
      expect(report.discrepancies).toEqual([{ kind: 'audit_tip_changed', auditId: tip }]);
      expect(report.auditChain).toMatchObject({ ok: false, firstBrokenId: null, previousTipChanged: true });
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('answers only staff whose role reads the reconciliation, and audits each run asked for', async () => {
    const db = await open();
    const t = await testApp(db, { reconcileEveryMin: 0 });
    try {
      const staff = await admin(t);
      const member = async (username: string, role: string) => {
        const created = (
          await t.call('POST', '/admin/staff/create', {
            token: staff,
            json: { username, role, reason: 'Reconciliation permission test' },
          })
        ).body.data;
        return signIn(t, username, created.initialPassword, created.totpSecret);
      };
      const support = await member('sam', 'support');
      for (const [method, url] of [
        ['GET', '/admin/reconciliation'],
        ['POST', '/admin/reconciliation/run'],
      ] as const) {
        const refused = await t.call(method, url, { token: support, lang: 'pt-BR' });
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ error: 'forbidden', msg: 'Você não tem permissão para fazer isso' });
      }
      expect(t.app.reconciliation.state().last).toBeNull(); // the refused run did not run
      const finance = await member('fin', 'finance');
      const report = await run(t, finance);
      expect(report.status).toBe('ok');
      const audit = (await t.call('GET', '/admin/audit?action=reconciliation.run', { token: staff })).body.data;
      expect(audit.items).toEqual([
        expect.objectContaining({
          staffUsername: 'fin',
          targetType: 'reconciliation',
          targetId: String(report.seq),
          detail: { status: 'ok', discrepancyCount: 0 },
        }),
      ]);
    } finally {
      await t.close();
      await db.close();
    }
  });
});
