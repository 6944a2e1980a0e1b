// Robots through the real HTTP stack on SQLite and PostgreSQL: staff create a grid template and a second
// staff member approves it (never the creator); a customer starts a run (capital moved into the run's own
// engine account), the strategy trades the spot books as ordinary orders, capital is added, the run is
// stopped (orders cancelled, coin sold, money returned through the ledger); the performance fee is taken
// only from profit above the high-water mark; a period's end finishes a run; every rejection answers in
// both languages with nothing changed; another customer's run is not found; a retired template takes no
// new runs.

import { type Db, testDatabases } from '@bourse/db';
import { platformOwner } from '@bourse/engine';
import { parseDecimal } from '@bourse/money';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommandInput } from '../../engine-host/trading-engine.ts';
import { totpNow } from '../../platform/totp.ts';
import { STOCK_GRANTS_ONLY, testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';
import { robotAccount, robotClearing } from './service.ts';

const dbs = await testDatabases();
const PIN = '246810';
type T = Awaited<ReturnType<typeof testApp>>;
const usdt = (text: string) => parseDecimal(text, 6);

describe.each(dbs)('robots on $dialect', ({ open }) => {
  let t: T;
  let closeDb: () => Promise<void>;
  let database: Db;
  afterEach(async () => {
    await t.close();
    await closeDb();
  });
  const start = async () => {
    const db = await open();
    database = db;
    closeDb = () => db.close();
    t = await testApp(db, { paperGrants: STOCK_GRANTS_ONLY });
  };

  const signIn = async (username: string, password: string, secret: string) => {
    const answer = await t.call('POST', '/admin/auth/login', {
      json: { username, password, totpCode: totpNow(secret, t.clock.now()) },
    });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    return answer.body.data.token as string;
  };
  const staffPair = async () => {
    const admin = await signIn(DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
    const created = (
      await t.call('POST', '/admin/staff/create', {
        token: admin,
        json: { username: 'fiona', role: 'finance', reason: 'second approver for robots' },
      })
    ).body.data;
    t.clock.advance(30_000);
    return { admin, fiona: await signIn('fiona', created.initialPassword, created.totpSecret) };
  };
  const customer = async (phone: string, amount = '10000') => {
    const token = (await t.register(phone)).body.data.token as string;
    const set = await t.call('POST', '/user/update/tradePassword', {
      token,
      body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
    });
    expect(set.body.code, JSON.stringify(set.body)).toBe(0);
    const userId = (await t.call('GET', '/user/login/info', { token })).body.data.user.id as number;
    const grant = await t.app.engine.submit({
      type: 'deposit',
      id: `test-grant:${userId}`,
      userId: String(userId),
      wallet: 'spot',
      asset: 'USDT',
      amount,
      from: 'faucet',
      cause: 'paper_grant',
      link: 'robots-test',
    });
    expect(grant.ok).toBe(true);
    return { token, userId };
  };
  const spot = (owner: string, asset = 'USDT') => t.app.engine.state.balance(owner, 'spot', asset);
  /** The run's pass-through platform account (nets to zero once each move is complete). */
  const clearing = (runId: number, asset = 'USDT') =>
    t.app.engine.state.balance(platformOwner(robotClearing(runId)), 'platform', asset).balance;
  const last = () => t.app.market.lastTicks('CRYPTO:BTCUSDT')?.lastTicks as number;
  /** A BTC price `bps` basis points from the last, to the pair's tick (0.01). */
  const price = (bps: number) => (Math.round((last() * bps) / 10_000) / 100).toFixed(2);
  const gridTemplate = (over: Record<string, unknown> = {}) => ({
    name: 'BTC grid test',
    symbol: 'BTCUSDT',
    params: { kind: 'grid', lowPrice: price(9_800), highPrice: price(10_200), levels: 4 },
    level: 3,
    periodDays: 7,
    minAmount: '100',
    maxAmount: '2000',
    profitRatio: 20,
    ...over,
  });
  const approved = async (over: Record<string, unknown> = {}) => {
    const { admin, fiona } = await staffPair();
    const created = await t.call('POST', '/admin/robots/templates', { token: admin, json: gridTemplate(over) });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const id = created.body.data.id as number;
    const ok = await t.call('POST', '/admin/robots/templates/review', {
      token: fiona,
      json: { id, approve: true, reason: 'parameters checked' },
    });
    expect(ok.body.code, JSON.stringify(ok.body)).toBe(0);
    return { id, admin, fiona };
  };
  const buy = (token: string, json: Record<string, unknown>, lang = 'en-US') =>
    t.call('POST', '/stock/ai/buy', { token, lang, json: { password: PIN, ...json } });

  it('staff create, a second staff member approves, customers see it with a labelled back-test', async () => {
    await start();
    const { admin, fiona } = await staffPair();
    const created = await t.call('POST', '/admin/robots/templates', { token: admin, json: gridTemplate() });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const id = created.body.data.id as number;
    expect(created.body.data.status).toBe('pending_approval');
    // Not listed before approval; the creator cannot approve.
    expect((await t.call('POST', '/stock/ai/list')).body.data.items).toEqual([]);
    for (const [lang, text] of [
      ['en-US', 'A different staff member must approve or reject this robot'],
      ['pt-BR', 'Outro membro da equipe deve aprovar ou rejeitar este robô'],
    ] as const) {
      const own = await t.call('POST', '/admin/robots/templates/review', {
        token: admin,
        lang,
        json: { id, approve: true, reason: 'my own' },
      });
      expect(own.body).toMatchObject({ code: -1001, msg: text });
    }
    // Parameters that do not fit are refused (a range upside down), in both languages.
    const bad = await t.call('POST', '/admin/robots/templates', {
      token: admin,
      lang: 'pt-BR',
      json: gridTemplate({ params: { kind: 'grid', lowPrice: price(10_200), highPrice: price(9_800), levels: 4 } }),
    });
    expect(bad.body.code).not.toBe(0);
    expect(JSON.stringify(bad.body)).toContain('Estes parâmetros da estratégia não servem para o par');
    const review = await t.call('POST', '/admin/robots/templates/review', {
      token: fiona,
      json: { id, approve: true, reason: 'parameters checked' },
    });
    expect(review.body.data).toMatchObject({ status: 'approved', approvedBy: expect.any(Number) });
    const list = (await t.call('POST', '/stock/ai/list')).body.data.items;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      kind: 'robot',
      id,
      strategy: 'grid',
      symbol: 'BTCUSDT',
      level: 3,
      periodDays: 7,
      minAmount: '100.000000',
      maxAmount: '2000.000000',
      currency: 'USDT',
      profitRatio: '20',
      past: { source: 'backtest' },
    });
    const info = (await t.call('POST', '/stock/ai/info', { json: { id } })).body.data;
    expect(info.backtest).toMatchObject({ start: '100.000000', trades: expect.any(Number) });
    expect(info.backtest.toMs - info.backtest.fromMs).toBeGreaterThan(6 * 86_400_000);
    expect(info.available).toBeNull();
    // A change is a new template naming the one it replaces: the old stays offered until the change is
    // approved, then it is retired (runs already started keep their own copy of the terms).
    const change = await t.call('POST', '/admin/robots/templates', {
      token: admin,
      json: gridTemplate({
        name: 'BTC grid test v2',
        params: { kind: 'grid', lowPrice: price(9_800), highPrice: price(10_200), levels: 5 },
        replaces: id,
      }),
    });
    expect(change.body.data).toMatchObject({ status: 'pending_approval', replaces: id });
    const v2 = change.body.data.id as number;
    for (const [lang, text] of [
      ['en-US', 'Only an offered robot can be changed'],
      ['pt-BR', 'Só um robô oferecido pode ser alterado'],
    ] as const) {
      const pending = await t.call('POST', '/admin/robots/templates', {
        token: admin,
        lang,
        json: gridTemplate({ replaces: v2 }),
      });
      expect(JSON.stringify(pending.body)).toContain(text);
    }
    expect((await t.call('POST', '/stock/ai/list')).body.data.items.map((i: { id: number }) => i.id)).toEqual([id]);
    await t.call('POST', '/admin/robots/templates/review', {
      token: fiona,
      json: { id: v2, approve: true, reason: 'new levels checked' },
    });
    expect((await t.call('POST', '/stock/ai/list')).body.data.items.map((i: { id: number }) => i.id)).toEqual([v2]);
    const templates = (await t.call('GET', '/admin/robots/templates', { token: admin })).body.data.items;
    expect(templates.find((x: { id: number }) => x.id === id).status).toBe('retired');
    // Every action is in the audit log.
    const audit = (await t.call('GET', '/admin/audit?action=robot.approve', { token: admin })).body.data;
    expect(JSON.stringify(audit)).toContain('robot.approve');
    // Nothing in the console can set a run's results: its only call about runs reads them.
    const doc = (await t.call('GET', '/openapi.json')).body as unknown as {
      paths: Record<string, Record<string, unknown>>;
    };
    const runCalls = Object.entries(doc.paths)
      .filter(([path]) => path.includes('/admin/robots/runs'))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(runCalls).toEqual(['get /admin/robots/runs']);
    const retiredLog = (await t.call('GET', '/admin/audit?action=robot.retire', { token: admin })).body.data;
    expect(JSON.stringify(retiredLog)).toContain(`replaced by template ${v2}`);
  });

  it('starts a run, trades on the books, adds capital and stops, with every rejection in both languages', async () => {
    await start();
    const { id, admin } = await approved();
    const alice = await customer('9000000301');
    const bob = await customer('9000000302', '150');
    const before = spot(String(alice.userId)).balance;

    // --- rejections: nothing changes ---
    const cases: [string, Record<string, unknown>, string, string, string][] = [
      [alice.token, { id, amount: '50' }, 'robot_amount_below_minimum', '100.000000 USDT', '100.000000 USDT'],
      [alice.token, { id, amount: '2500' }, 'robot_amount_above_limit', '2000.000000 USDT', '2000.000000 USDT'],
      [bob.token, { id, amount: '200' }, 'insufficient_balance', 'Insufficient balance', 'Saldo insuficiente'],
      [alice.token, { id: 9999, amount: '200' }, 'robot_not_found', 'Robot not found', 'Robô não encontrado'],
      [alice.token, { id, amount: '200', password: '111111' }, 'trade_password_incorrect', '', ''],
    ];
    for (const [token, json, _code, en, pt] of cases) {
      const a = await buy(token, json, 'en-US');
      const b = await buy(token, json, 'pt-BR');
      expect(a.body.code, JSON.stringify(a.body)).not.toBe(0);
      expect(JSON.stringify(a.body)).toContain(en);
      expect(JSON.stringify(b.body)).toContain(pt);
      expect(a.body.msg).not.toBe(b.body.msg);
    }
    expect(spot(String(alice.userId)).balance).toBe(before);
    expect((await t.call('POST', '/stock/ai/order/list', { token: alice.token, json: {} })).body.data.total).toBe(0);

    // --- start: the capital moves into the run's own account; the grid's opening buy trades ---
    const started = await buy(alice.token, { id, amount: '1000' });
    expect(started.body.code, JSON.stringify(started.body)).toBe(0);
    const run = started.body.data.run;
    expect(run).toMatchObject({ status: 'running', capital: '1000.000000', strategy: 'grid', symbol: 'BTCUSDT' });
    expect(spot(String(alice.userId)).balance).toBe(before - usdt('1000'));
    const account = robotAccount(run.id);
    expect(spot(account, 'BTC').balance).toBeGreaterThan(0n);
    expect(clearing(run.id)).toBe(0n);
    let details = (await t.call('POST', '/stock/ai/order/details', { token: alice.token, json: { id: run.id } })).body
      .data;
    expect(details.totalTrades).toBeGreaterThan(0);
    expect(details.trades[0]).toMatchObject({ side: 'buy', liquidity: 'taker' });
    expect(usdt(details.run.fees)).toBeGreaterThan(0n);

    // --- the job: the next tick puts up the grid's resting pair ---
    t.clock.advance(10_000);
    await t.app.robots.tick();
    details = (await t.call('POST', '/stock/ai/order/details', { token: alice.token, json: { id: run.id } })).body.data;
    expect(details.openOrders.map((o: { side: string }) => o.side).sort()).toEqual(['buy', 'sell']);
    // A second tick in the same tick number sends nothing more.
    await t.app.robots.tick();
    expect(t.app.engine.state.openOrders(account)).toHaveLength(2);

    // --- add capital, up to the single limit ---
    const added = await t.call('POST', '/stock/ai/order/add/amount', {
      token: alice.token,
      json: { id: run.id, amount: '500', password: PIN },
    });
    expect(added.body.data.run.capital).toBe('1500.000000');
    for (const lang of ['en-US', 'pt-BR']) {
      const over = await t.call('POST', '/stock/ai/order/add/amount', {
        token: alice.token,
        lang,
        json: { id: run.id, amount: '600', password: PIN },
      });
      expect(JSON.stringify(over.body)).toContain('2000.000000 USDT');
    }
    // Another customer's run is not found, in both languages.
    for (const [lang, text] of [
      ['en-US', 'Robot order not found'],
      ['pt-BR', 'Ordem de robô não encontrada'],
    ] as const) {
      const foreign = await t.call('POST', '/stock/ai/order/details', { token: bob.token, lang, json: { id: run.id } });
      expect(foreign.body).toMatchObject({ code: -1001, msg: text });
      const stopForeign = await t.call('POST', '/stock/ai/order/stop', {
        token: bob.token,
        lang,
        json: { id: run.id, password: PIN },
      });
      expect(stopForeign.body).toMatchObject({ code: -1001, msg: text });
    }

    // --- stop: orders cancelled, coin sold, everything back through the ledger ---
    const stopped = await t.call('POST', '/stock/ai/order/stop', {
      token: alice.token,
      json: { id: run.id, password: PIN },
    });
    expect(stopped.body.code, JSON.stringify(stopped.body)).toBe(0);
    const end = stopped.body.data.run;
    expect(end).toMatchObject({ status: 'stopped', endReason: 'customer' });
    expect(t.app.engine.state.openOrders(account)).toHaveLength(0);
    expect(spot(account).balance).toBe(0n);
    expect(spot(account, 'BTC').balance).toBe(0n);
    expect(clearing(run.id)).toBe(0n);
    // The grid paid fees on its trades and the price hardly moved: no profit, so no performance fee.
    const returned = usdt(end.returned);
    expect(end.performanceFee).toBe('0.000000');
    expect(spot(String(alice.userId)).balance).toBe(before - usdt('1500') + returned);
    expect(returned).toBeLessThan(usdt('1500'));
    // The ledger and the read tables agree after the run's orders, fills and transfers.
    const report = await t.app.reconciliation.run('staff');
    expect(report.status, JSON.stringify(report)).toBe('ok');
    // Stopping again is refused.
    for (const [lang, text] of [
      ['en-US', 'This robot is not running'],
      ['pt-BR', 'Este robô não está em execução'],
    ] as const) {
      const again = await t.call('POST', '/stock/ai/order/stop', {
        token: alice.token,
        lang,
        json: { id: run.id, password: PIN },
      });
      expect(again.body.msg).toBe(text);
    }
    const mine = (await t.call('POST', '/stock/ai/order/list', { token: alice.token, json: { status: 'ended' } })).body
      .data;
    expect(mine.items.map((r: { id: number }) => r.id)).toEqual([run.id]);
    // The finished run is now the template's realized history; the list keeps the back-test's figure
    // until finished runs have lasted a day on average (a daily rate over seconds would mean nothing).
    expect((await t.call('POST', '/stock/ai/info', { json: { id } })).body.data.realized).toMatchObject({
      runs: 1,
      capital: '1500.000000',
      returned: end.returned,
    });
    expect((await t.call('POST', '/stock/ai/list')).body.data.items[0].past.source).toBe('backtest');

    // --- retired: no new runs, in both languages ---
    const retired = await t.call('POST', '/admin/robots/templates/retire', {
      token: admin,
      json: { id, reason: 'replaced by a newer range' },
    });
    expect(retired.body.data.status).toBe('retired');
    for (const [lang, text] of [
      ['en-US', 'This robot is no longer offered'],
      ['pt-BR', 'Este robô não está mais disponível'],
    ] as const) {
      expect((await buy(alice.token, { id, amount: '200' }, lang)).body.msg).toBe(text);
    }
    const runs = (await t.call('GET', '/admin/robots/runs?status=all', { token: admin })).body.data;
    expect(runs.items[0]).toMatchObject({ id: run.id, userId: alice.userId, account });
  });

  it('takes the performance fee only from profit above the high-water mark, and finishes at the period end', async () => {
    await start();
    const { id } = await approved({
      params: { kind: 'dca', everyMinutes: 60, buyAmount: '50' },
      periodDays: 1,
    });
    const alice = await customer('9000000311');
    const run = (await buy(alice.token, { id, amount: '1000' })).body.data.run;
    // A stand-in for a profitable trade: 300 USDT arrives in the run's account (the test's faucet).
    const gain = await t.app.engine.submit({
      type: 'deposit',
      id: `test-gain:${run.id}`,
      userId: robotAccount(run.id),
      wallet: 'spot',
      asset: 'USDT',
      amount: '300',
      from: 'faucet',
      cause: 'paper_grant',
      link: 'robots-test',
    });
    expect(gain.ok).toBe(true);
    const fees = () => t.app.engine.state.balance('platform:fees', 'platform', 'USDT').balance;
    const feesBefore = fees();
    const before = spot(String(alice.userId)).balance;
    // The period ends: the job finishes the run.
    t.clock.advance(86_400_000 + 1_000);
    await t.app.robots.tick();
    const end = (await t.call('POST', '/stock/ai/order/details', { token: alice.token, json: { id: run.id } })).body
      .data.run;
    expect(end).toMatchObject({ status: 'finished', endReason: 'period_end' });
    const final = usdt(end.currentValue);
    expect(final).toBeGreaterThan(usdt('1000'));
    // 20% of what is above the 1,000 put in, rounded down; the rest comes back.
    const fee = ((final - usdt('1000')) * 2_000n) / 10_000n;
    expect(usdt(end.performanceFee)).toBe(fee);
    expect(usdt(end.returned)).toBe(final - fee);
    expect(spot(String(alice.userId)).balance - before).toBe(final - fee);
    // The fee reached platform:fees (with the sell's taker fee from the close).
    expect(fees() - feesBefore).toBeGreaterThanOrEqual(fee);
    // A run of a day: the list's past figure is now the realized one, measured over its day.
    const past = (await t.call('POST', '/stock/ai/list')).body.data.items[0].past;
    expect(past).toMatchObject({ source: 'realized', fromMs: end.startedAt, toMs: end.endedAt });
    const total = (Number(final - fee) / 1_000_000_000 - 1) * 100;
    expect(Number(past.totalPercent)).toBeCloseTo(total, 1);
  });

  /** The engine throws (as if unreachable) on the commands `fails` picks, until restored. */
  const failing = (fails: (id: string) => boolean) => {
    const real = t.app.engine.submit.bind(t.app.engine);
    return vi.spyOn(t.app.engine, 'submit').mockImplementation(async (command: CommandInput) => {
      if (fails(command.id)) throw new Error('engine unreachable (test)');
      return real(command);
    });
  };
  const run = async (token: string, id: number) =>
    (await t.call('POST', '/stock/ai/order/details', { token, json: { id } })).body.data.run;
  const MOVE_PENDING = [
    ['en-US', 'Received: the money is still being moved'],
    ['pt-BR', 'Recebido: o dinheiro ainda está sendo movimentado'],
  ] as const;

  it('an addition cut short by an exception is finished by the next tick and counted once moved; keys answer retries', async () => {
    await start();
    const { id } = await approved();
    const alice = await customer('9000000331');
    const before = spot(String(alice.userId)).balance;
    // A start with a key: the retry (a lost answer) gets the same run and moves nothing more.
    const first = await buy(alice.token, { id, amount: '1000', clientOrderId: 'robot-buy-key-01' });
    expect(first.body.code, JSON.stringify(first.body)).toBe(0);
    const runId = first.body.data.run.id as number;
    const retry = await buy(alice.token, { id, amount: '1000', clientOrderId: 'robot-buy-key-01' });
    expect(retry.body.data.run.id).toBe(runId);
    expect(spot(String(alice.userId)).balance).toBe(before - usdt('1000'));
    expect((await t.call('POST', '/stock/ai/order/list', { token: alice.token, json: {} })).body.data.total).toBe(1);
    const other = await buy(alice.token, { id, amount: '900', clientOrderId: 'robot-buy-key-01' });
    expect(other.body.msg).toBe('This request was already sent with different content');

    // The addition's credit step throws: the customer is told it is under way (a contract code in both
    // languages, never a bare 500); the money sits in the pass-through account, not yet capital.
    const spy = failing((cid) => cid.startsWith('robot-in:') && cid.endsWith(':credit'));
    const add = (lang: string) =>
      t.call('POST', '/stock/ai/order/add/amount', {
        token: alice.token,
        lang,
        headers: { 'idempotency-key': 'robot-add-key-01' },
        json: { id: runId, amount: '500', password: PIN },
      });
    for (const [lang, text] of MOVE_PENDING) {
      const answer = await add(lang);
      expect(answer.body.code).not.toBe(0);
      expect(answer.body.msg).toContain(text);
    }
    expect((await run(alice.token, runId)).capital).toBe('1000.000000');
    expect(clearing(runId)).toBe(usdt('500'));
    const subBefore = spot(robotAccount(runId)).balance;
    spy.mockRestore();
    // The regular tick (no restart) finishes the chain with the same ids: credited once, capital raised.
    t.clock.advance(10_000);
    await t.app.robots.tick();
    expect(clearing(runId)).toBe(0n);
    expect((await run(alice.token, runId)).capital).toBe('1500.000000');
    expect(spot(robotAccount(runId)).balance - subBefore).toBeGreaterThanOrEqual(0n);
    // The retry now answers the completed addition, and nothing moves again.
    const again = await add('en-US');
    expect(again.body.code, JSON.stringify(again.body)).toBe(0);
    expect(again.body.data.run.capital).toBe('1500.000000');
    expect(spot(String(alice.userId)).balance).toBe(before - usdt('1500'));
    await t.app.robots.tick();
    expect(spot(String(alice.userId)).balance).toBe(before - usdt('1500'));
    expect((await t.app.reconciliation.run('staff')).status).toBe('ok');
  });

  it('two concurrent additions cannot pass the single limit together', async () => {
    await start();
    const { id } = await approved();
    const alice = await customer('9000000341');
    const runId = (await buy(alice.token, { id, amount: '1000' })).body.data.run.id as number;
    const before = spot(String(alice.userId)).balance;
    const add = () =>
      t.call('POST', '/stock/ai/order/add/amount', {
        token: alice.token,
        json: { id: runId, amount: '600', password: PIN },
      });
    // Both requests pass their early checks before either reaches the serial section: the password
    // check of each waits until both have arrived.
    const real = t.app.accounts.checkPin.bind(t.app.accounts);
    let arrived = 0;
    let release: () => void = () => undefined;
    const bothIn = new Promise<void>((resolve) => {
      release = resolve;
    });
    const spy = vi.spyOn(t.app.accounts, 'checkPin').mockImplementation(async (...args) => {
      arrived += 1;
      if (arrived === 2) release();
      await bothIn;
      return real(...args);
    });
    const answers = await Promise.all([add(), add()]);
    spy.mockRestore();
    expect(arrived).toBe(2);
    expect(answers.map((a) => a.body.code === 0).sort()).toEqual([false, true]);
    expect(JSON.stringify(answers.find((a) => a.body.code !== 0)?.body)).toContain('2000.000000 USDT');
    expect((await run(alice.token, runId)).capital).toBe('1600.000000');
    expect(spot(String(alice.userId)).balance).toBe(before - usdt('600'));
  });

  it('a start and a stop that throw half-way are finished by the next tick, not only at a restart', async () => {
    await start();
    const { id } = await approved();
    const alice = await customer('9000000351');
    const before = spot(String(alice.userId)).balance;
    let spy = failing((cid) => cid.startsWith('robot-in:') && cid.endsWith(':post'));
    for (const [lang, text] of MOVE_PENDING.slice(0, 1)) {
      const answer = await buy(alice.token, { id, amount: '1000', clientOrderId: 'robot-buy-key-02' }, lang);
      expect(answer.body.msg).toContain(text);
    }
    spy.mockRestore();
    const [starting] = (await t.call('POST', '/stock/ai/order/list', { token: alice.token, json: {} })).body.data.items;
    expect(starting).toMatchObject({ status: 'starting', capital: '0.000000' });
    t.clock.advance(10_000);
    await t.app.robots.tick();
    const running = await run(alice.token, starting.id);
    expect(running).toMatchObject({ status: 'running', capital: '1000.000000' });
    expect(clearing(starting.id)).toBe(0n);
    // The stop's credit back throws: the run stays stopping and the next tick finishes it.
    spy = failing((cid) => cid === `robot-out:${starting.id}:USDT:credit`);
    const stop = await t.call('POST', '/stock/ai/order/stop', {
      token: alice.token,
      lang: 'pt-BR',
      json: { id: starting.id, password: PIN },
    });
    expect(stop.body.msg).toContain(MOVE_PENDING[1][1]);
    expect((await run(alice.token, starting.id)).status).toBe('stopping');
    spy.mockRestore();
    t.clock.advance(10_000);
    await t.app.robots.tick();
    const end = await run(alice.token, starting.id);
    expect(end.status).toBe('stopped');
    expect(spot(robotAccount(starting.id)).balance).toBe(0n);
    expect(clearing(starting.id)).toBe(0n);
    expect(spot(String(alice.userId)).balance).toBe(before - usdt('1000') + usdt(end.returned));
  });

  it('never sells again once the end figures are written: coin left then comes back as coin', async () => {
    await start();
    const { id } = await approved();
    const alice = await customer('9000000361');
    const before = spot(String(alice.userId)).balance;
    const runId = (await buy(alice.token, { id, amount: '500' })).body.data.run.id as number;
    const account = robotAccount(runId);
    const coin = spot(account, 'BTC').balance;
    expect(coin).toBeGreaterThan(0n);
    const cash = spot(account).balance;
    // A crash after the end's figures were written, before anything moved back.
    await database.run(
      `UPDATE robot_runs SET status = 'stopping', end_reason = 'customer', final_minor = $1, fee_minor = 0 WHERE id = $2`,
      [cash.toString(), runId],
    );
    t.clock.advance(10_000);
    await t.app.robots.tick();
    expect((await run(alice.token, runId)).status).toBe('stopped');
    // No closing sale: nothing stranded in the sub-account; the coin came back as coin.
    expect(spot(account).balance).toBe(0n);
    expect(spot(account, 'BTC').balance).toBe(0n);
    expect(spot(String(alice.userId), 'BTC').balance).toBe(coin);
    expect(spot(String(alice.userId)).balance).toBe(before - usdt('500') + cash);
  });

  it('counts every fill of a run in its figures, however many', async () => {
    await start();
    // A DCA buy below the spot minimum is never sent: the run's only fills are the ones written here.
    const { id } = await approved({ params: { kind: 'dca', everyMinutes: 60, buyAmount: '1' } });
    const alice = await customer('9000000371');
    const runId = (await buy(alice.token, { id, amount: '500' })).body.data.run.id as number;
    const account = robotAccount(runId);
    expect((await run(alice.token, runId)).trades).toBe(0);
    // 10,100 fills (more than any page): buy 1 lot for 1000, sell it for 1010, each with a fee of 1.
    const fills = async (from: number, count: number) =>
      database.run(
        `INSERT INTO trades (id, seq, instrument_id, price_ticks, qty_lots, taker_side, maker_order_id, taker_order_id,
           maker_user_id, taker_user_id, notional, maker_fee, taker_fee, at)
         WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${from + count - 1})
         SELECT 900000000 + i, 900000000 + i, 'CRYPTO:BTCUSDT', 100, 1, CASE WHEN i % 2 = 0 THEN 'buy' ELSE 'sell' END,
           1, 2, 'mm:test', $1, CASE WHEN i % 2 = 0 THEN 1000 ELSE 1010 END, 0, 1, 0 FROM n`,
        [account],
      );
    await fills(0, 10_100);
    const figures = await run(alice.token, runId);
    expect(figures).toMatchObject({ trades: 10_100, fees: '0.010100', realizedPnl: '0.040400' });
    // Saved as running totals: the next read folds only what is new.
    await fills(10_100, 2);
    expect(await run(alice.token, runId)).toMatchObject({ trades: 10_102, fees: '0.010102', realizedPnl: '0.040408' });
    const listed = (await t.call('POST', '/stock/ai/order/list', { token: alice.token, json: {} })).body.data.items;
    expect(listed[0]).toMatchObject({ trades: 10_102, realizedPnl: '0.040408' });
  });

  it('survives a restart: a stop a crash interrupted is finished at start-up, nothing moved twice', async () => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db, { paperGrants: STOCK_GRANTS_ONLY });
    const { id } = await approved();
    const alice = await customer('9000000321');
    const before = spot(String(alice.userId)).balance;
    const run = (await buy(alice.token, { id, amount: '500' })).body.data.run;
    t.clock.advance(10_000);
    await t.app.robots.tick();
    expect(t.app.engine.state.openOrders(robotAccount(run.id)).length).toBeGreaterThan(0);
    // The process stops right after the run moved to stopping, before any of its commands were sent.
    await db.run(`UPDATE robot_runs SET status = 'stopping', end_reason = 'customer' WHERE id = $1`, [run.id]);
    await t.close();
    t = await testApp(db, { paperGrants: STOCK_GRANTS_ONLY });
    const end = (await t.call('POST', '/stock/ai/order/details', { token: alice.token, json: { id: run.id } })).body
      .data.run;
    expect(end.status).toBe('stopped');
    expect(t.app.engine.state.openOrders(robotAccount(run.id))).toHaveLength(0);
    expect(spot(robotAccount(run.id)).balance).toBe(0n);
    expect(spot(String(alice.userId)).balance).toBe(before - usdt('500') + usdt(end.returned));
    // A second start-up finds nothing to do.
    await t.close();
    t = await testApp(db, { paperGrants: STOCK_GRANTS_ONLY });
    expect(spot(String(alice.userId)).balance).toBe(before - usdt('500') + usdt(end.returned));
  });
});

describe.each(dbs.slice(0, 1))('demo robots on $dialect', ({ open }) => {
  it('paper mode seeds one approved template per strategy and a stock robot, once', async () => {
    const db = await open();
    const t = await testApp(db, { paperGrants: STOCK_GRANTS_ONLY, robots: { demo: true, tickEveryMs: 0 } });
    try {
      type Item = { strategy: string; kind: string; market: string; symbol: string; currency: string };
      const items = (await t.call('POST', '/stock/ai/list')).body.data.items as Item[];
      expect(items.map((i) => [i.strategy, i.market, i.symbol, i.currency])).toEqual([
        ['grid', 'crypto', 'BTCUSDT', 'USDT'],
        ['dca', 'crypto', 'BTCUSDT', 'USDT'],
        ['trend', 'crypto', 'BTCUSDT', 'USDT'],
        ['dca', 'stock', 'NSE:RELIANCE', 'INR'],
      ]);
      expect(items.every((i) => i.kind === 'robot')).toBe(true);
      await t.app.robots.seedDemo();
      expect((await t.call('POST', '/stock/ai/list')).body.data.items).toHaveLength(4);
    } finally {
      await t.close();
      await db.close();
    }
  });
});
