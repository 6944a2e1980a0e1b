// Stock robots through the real HTTP stack on SQLite and PostgreSQL (decision 0035, "Stock robots"): a
// template on NSE:RELIANCE takes capital in INR from the stock wallet; its orders are ordinary orders of
// `robot:<id>` on the paper venue's book (fills against the disclosed market maker, the stock's fee); it is
// idle while NSE is closed; a grid offers no sale of locked shares; a stop is refused while closed; a stop
// sells only settled shares at market and returns shares still locked until settlement as shares once
// they settle; the pass-through account nets to zero in cash and shares; the performance fee is taken
// only from realized profit above the high-water mark, in INR; every refusal answers in both languages;
// another customer's run is not found.

import { testDatabases } from '@bourse/db';
import { platformOwner } from '@bourse/engine';
import { parseDecimal, shareAsset } from '@bourse/money';
import { afterEach, describe, expect, it } from 'vitest';
import { refusedInBothLanguages, STOCK_GRANTS_ONLY, testApp } from '../../testing.ts';
import { robotAccount, robotClearing } from './service.ts';

const dbs = await testDatabases();
const PIN = '246810';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
type T = Awaited<ReturnType<typeof testApp>>;
const inr = (text: string) => parseDecimal(text, 2);
const STOCK = 'NSE:RELIANCE';
const SHARES = shareAsset('NSE', 'RELIANCE').code;

describe.each(dbs)('stock robots on $dialect', ({ open }) => {
  let t: T;
  let closeDb: () => Promise<void>;
  afterEach(async () => {
    await t.close();
    await closeDb();
  });
  /** The default test clock starts on Monday 5 January 2026 at 09:30 IST: NSE is in session. */
  const start = async (clockStartMs?: number) => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db, { paperGrants: STOCK_GRANTS_ONLY }, clockStartMs);
  };
  /** A DCA on RELIANCE: 5,000 INR at the start and every hour (while NSE is open). */
  const template = (over: Record<string, unknown> = {}) => ({
    name: 'RELIANCE hourly DCA test',
    symbol: STOCK,
    params: { kind: 'dca', everyMinutes: 60, buyAmount: '5000' },
    level: 2,
    periodDays: 7,
    minAmount: '10000',
    maxAmount: '1500000',
    profitRatio: 20,
    ...over,
  });
  const approved = async (over: Record<string, unknown> = {}) => {
    const { admin, colleague: fiona } = await t.adminAndColleague('fiona', 'finance', 'second approver for robots');
    const created = await t.call('POST', '/admin/robots/templates', { token: admin, json: template(over) });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    expect(created.body.data).toMatchObject({ status: 'pending_approval', market: 'stock', currency: 'INR' });
    const id = created.body.data.id as number;
    const ok = await t.call('POST', '/admin/robots/templates/review', {
      token: fiona,
      json: { id, approve: true, reason: 'parameters checked' },
    });
    expect(ok.body.code, JSON.stringify(ok.body)).toBe(0);
    return id;
  };
  const customer = async (phone: string) => {
    const token = (await t.register(phone)).body.data.token as string;
    const set = await t.call('POST', '/user/update/tradePassword', {
      token,
      body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
    });
    expect(set.body.code, JSON.stringify(set.body)).toBe(0);
    const userId = (await t.call('GET', '/user/login/info', { token })).body.data.user.id as number;
    return { token, userId };
  };
  const stockBal = (owner: string, asset = 'INR') => t.app.engine.state.balance(owner, 'stock', asset);
  const clearing = (runId: number, asset = 'INR') =>
    t.app.engine.state.balance(platformOwner(robotClearing(runId)), 'platform', asset).balance;
  const buy = (token: string, json: Record<string, unknown>, lang = 'en-US') =>
    t.call('POST', '/stock/ai/buy', { token, lang, json: { password: PIN, ...json } });
  const details = async (token: string, id: number) =>
    (await t.call('POST', '/stock/ai/order/details', { token, json: { id } })).body.data;

  it('trades through the venue in session, idles while closed, stops with a sale of settled shares only', {
    timeout: 60_000,
  }, async () => {
    await start();
    const id = await approved();
    const listed = (await t.call('POST', '/stock/ai/list')).body.data.items;
    expect(listed).toEqual([
      expect.objectContaining({
        kind: 'robot',
        id,
        symbol: STOCK,
        market: 'stock',
        currency: 'INR',
        minAmount: '10000.00',
        maxAmount: '1500000.00',
      }),
    ]);
    const alice = await customer('9000000401');
    const bob = await customer('9000000402');
    const me = String(alice.userId);
    const info = (await t.call('POST', '/stock/ai/info', { token: alice.token, json: { id } })).body.data;
    // The stock wallet's cash (the paper grant), not the spot wallet's USDT.
    expect(info).toMatchObject({ available: '1000000.00', session: { open: true, nextOpenMs: null } });

    // --- refusals, in both languages, with nothing moved ---
    const before = stockBal(me).balance;
    await refusedInBothLanguages(
      (lang) => buy(alice.token, { id, amount: '9999.95' }, lang),
      "below this robot's start-up capital of 10000.00 INR",
      'abaixo do capital inicial deste robô, de 10000.00 INR',
    );
    await refusedInBothLanguages(
      (lang) => buy(alice.token, { id, amount: '1500000.01' }, lang),
      "above the robot's single limit of 1500000.00 INR",
      'acima do limite único do robô, de 1500000.00 INR',
    );
    // 1,200,000 INR is within the limits but more than the stock wallet's 1,000,000.
    await refusedInBothLanguages(
      (lang) => buy(alice.token, { id, amount: '1200000' }, lang),
      'Insufficient balance',
      'Saldo insuficiente',
    );
    expect(stockBal(me).balance).toBe(before);
    expect((await t.call('POST', '/stock/ai/order/list', { token: alice.token, json: {} })).body.data.total).toBe(0);

    // --- start in session: the INR moves in; the first DCA buy fills on the venue's book ---
    const started = await buy(alice.token, { id, amount: '50000' });
    expect(started.body.code, JSON.stringify(started.body)).toBe(0);
    const run = started.body.data.run;
    const account = robotAccount(run.id);
    expect(run).toMatchObject({ status: 'running', market: 'stock', currency: 'INR', capital: '50000.00' });
    expect(stockBal(me).balance).toBe(before - inr('50000'));
    expect(clearing(run.id)).toBe(0n);
    let d = await details(alice.token, run.id);
    expect(d.totalTrades).toBe(1);
    const first = d.trades[0];
    expect(first).toMatchObject({ side: 'buy', liquidity: 'taker' });
    // Whole shares (a lot of one), about 5,000 INR's worth, against the disclosed market maker, with a fee.
    const shares1 = BigInt(first.quantity);
    expect(first.quantity).toMatch(/^\d+$/);
    expect(inr(first.amount)).toBeLessThanOrEqual(inr('5000'));
    expect(inr(first.fee)).toBeGreaterThan(0n);
    // An IOC: nothing left resting.
    expect(d.openOrders).toEqual([]);
    expect(stockBal(account, SHARES).balance).toBe(shares1);
    // Bought today, locked until settlement (T+1): the run shows it and cannot sell them yet.
    expect(d.run).toMatchObject({ lockedQuantity: String(shares1), session: { open: true } });
    expect(d.run.unlocksAt).toBeGreaterThan(t.clock.now());
    expect(stockBal(account, SHARES).available).toBe(0n);

    // Another customer's run is not found, in both languages.
    await refusedInBothLanguages(
      (lang) => t.call('POST', '/stock/ai/order/details', { token: bob.token, lang, json: { id: run.id } }),
      'Robot order not found',
      'Ordem de robô não encontrada',
    );
    await refusedInBothLanguages(
      (lang) => t.call('POST', '/stock/ai/order/stop', { token: bob.token, lang, json: { id: run.id, password: PIN } }),
      'Robot order not found',
      'Ordem de robô não encontrada',
    );

    // --- 17:30 IST: NSE closed. The DCA's next buy is due, but the robot is idle ---
    await t.advance(8 * HOUR);
    await t.app.robots.tick();
    d = await details(alice.token, run.id);
    expect(d.totalTrades).toBe(1);
    // Not even an order queued for the open.
    expect(t.app.engine.state.openOrders(account)).toEqual([]);
    expect(d.run.session.open).toBe(false);
    // Tuesday 6 January, 09:15 IST.
    expect(d.run.session.nextOpenMs).toBe(Date.UTC(2026, 0, 6, 3, 45));
    // A stop is a sale at market: refused while the market is closed, with the next open.
    await refusedInBothLanguages(
      (lang) =>
        t.call('POST', '/stock/ai/order/stop', { token: alice.token, lang, json: { id: run.id, password: PIN } }),
      "This stock robot's market is closed: it can be stopped while the market is open (next open: Jan 6, 2026",
      'O mercado deste robô de ações está fechado: ele pode ser parado com o mercado aberto (próxima abertura: 6 de jan. de 2026',
    );
    expect((await details(alice.token, run.id)).run.status).toBe('running');
    // Capital may be added while closed (it waits in cash), up to the single limit, from the stock wallet.
    const add = (amount: string, lang = 'en-US') =>
      t.call('POST', '/stock/ai/order/add/amount', {
        token: alice.token,
        lang,
        json: { id: run.id, amount, password: PIN },
      });
    await refusedInBothLanguages(
      (lang) => add('1450000.01', lang),
      "above the robot's single limit of 1500000.00 INR",
      'acima do limite único do robô, de 1500000.00 INR',
    );
    const beforeAdd = stockBal(me).balance;
    const added = await add('10000');
    expect(added.body.data.run.capital, JSON.stringify(added.body)).toBe('60000.00');
    expect(stockBal(me).balance).toBe(beforeAdd - inr('10000'));
    expect(clearing(run.id)).toBe(0n);

    // --- Tuesday 09:30 IST: open again. Monday's buy has settled; one buy (not one per missed hour) ---
    await t.advance(16 * HOUR);
    await t.app.robots.tick();
    d = await details(alice.token, run.id);
    expect(d.totalTrades).toBe(2);
    const shares2 = BigInt(d.trades[0].quantity);
    expect(d.run.lockedQuantity).toBe(String(shares2));
    expect(stockBal(account, SHARES)).toMatchObject({ balance: shares1 + shares2, available: shares1 });

    // --- stop: the settled shares are sold at market; the locked ones come back as shares later ---
    const cashBefore = stockBal(me).balance;
    const stopped = await t.call('POST', '/stock/ai/order/stop', {
      token: alice.token,
      json: { id: run.id, password: PIN },
    });
    expect(stopped.body.code, JSON.stringify(stopped.body)).toBe(0);
    expect(stopped.body.data.run).toMatchObject({ status: 'stopping', endReason: 'customer' });
    d = await details(alice.token, run.id);
    expect(d.totalTrades).toBe(3);
    expect(d.trades[0]).toMatchObject({ side: 'sell', quantity: String(shares1), liquidity: 'taker' });
    // The cash is back (a loss of fees and spread: no performance fee); the pass-through nets to zero.
    expect(d.run.performanceFee).toBe('0.00');
    expect(stockBal(account).balance).toBe(0n);
    const back = stockBal(me).balance - cashBefore;
    expect(back).toBe(inr(d.run.currentValue));
    // The money is back and shown as returned while the locked shares wait.
    expect(inr(d.run.returned)).toBe(back);
    expect(back).toBeLessThan(inr('60000'));
    expect(clearing(run.id)).toBe(0n);
    expect(stockBal(account, SHARES).balance).toBe(shares2);
    expect(stockBal(me, SHARES).balance).toBe(0n);
    // Stopping again is refused.
    await refusedInBothLanguages(
      (lang) =>
        t.call('POST', '/stock/ai/order/stop', { token: alice.token, lang, json: { id: run.id, password: PIN } }),
      'This robot is not running',
      'Este robô não está em execução',
    );

    // --- Wednesday: Tuesday's buy has settled; the job returns those shares as shares ---
    await t.advance(24 * HOUR);
    await t.app.robots.tick();
    d = await details(alice.token, run.id);
    expect(inr(d.run.returned)).toBe(back);
    expect(d.run).toMatchObject({
      status: 'stopped',
      returnedQuantity: String(shares2),
      lockedQuantity: '0',
      session: null,
    });
    expect(stockBal(me, SHARES).balance).toBe(shares2);
    expect(stockBal(account, SHARES).balance).toBe(0n);
    expect(clearing(run.id)).toBe(0n);
    expect(clearing(run.id, SHARES)).toBe(0n);
    expect(t.app.engine.state.openOrders(account)).toEqual([]);
    // The customer's holding takes the returned shares at the run's average cost (its buys), not as free shares.
    const buys = (d.trades as { side: string; quantity: string; amount: string }[]).filter((x) => x.side === 'buy');
    const boughtLots = buys.reduce((sum, x) => sum + BigInt(x.quantity), 0n);
    const boughtCost = buys.reduce((sum, x) => sum + inr(x.amount), 0n);
    const holding = (
      (await t.call('GET', '/stock/hold/list', { token: alice.token })).body.data.items as {
        symbol: string;
        quantity: string;
        avgPrice: string;
      }[]
    ).find((h) => h.symbol === 'NSE:RELIANCE');
    expect(holding?.quantity).toBe(String(shares2));
    expect(Number(holding?.avgPrice)).toBeCloseTo(Number(boughtCost) / 100 / Number(boughtLots), 1);
    const report = await t.app.reconciliation.run('staff');
    expect(report.status, JSON.stringify(report)).toBe('ok');
  });

  it('takes the performance fee in INR only from realized profit above the high-water mark', {
    timeout: 60_000,
  }, async () => {
    await start();
    const id = await approved({ params: { kind: 'dca', everyMinutes: 1_440, buyAmount: '5000' } });
    const alice = await customer('9000000411');
    const me = String(alice.userId);
    const run = (await buy(alice.token, { id, amount: '20000' })).body.data.run;
    expect(run.status).toBe('running');
    // A stand-in for a winning trade: 10,000 INR arrives in the run's account (the test's faucet).
    const gain = await t.app.engine.submit({
      type: 'deposit',
      id: `test-gain:${run.id}`,
      userId: robotAccount(run.id),
      wallet: 'stock',
      asset: 'INR',
      amount: '10000',
      from: 'faucet',
      cause: 'paper_grant',
      link: 'robots-test',
    });
    expect(gain.ok).toBe(true);
    const fees = () => t.app.engine.state.balance('platform:fees', 'platform', 'INR').balance;
    const feesBefore = fees();
    const cashBefore = stockBal(me).balance;
    const stopped = await t.call('POST', '/stock/ai/order/stop', {
      token: alice.token,
      json: { id: run.id, password: PIN },
    });
    expect(stopped.body.code, JSON.stringify(stopped.body)).toBe(0);
    const end = (await details(alice.token, run.id)).run;
    // The shares bought at the start are locked (T+1): they are not sold, so the figure is the cash only.
    const final = inr(end.currentValue);
    const [opening] = (await details(alice.token, run.id)).trades;
    expect(opening.side).toBe('buy');
    expect(final).toBe(inr('20000') + inr('10000') - inr(opening.amount) - inr(opening.fee));
    // 20% of what is above the 20,000 put in, rounded down (in paise).
    const fee = ((final - inr('20000')) * 2_000n) / 10_000n;
    expect(fee).toBeGreaterThan(0n);
    expect(inr(end.performanceFee)).toBe(fee);
    expect(stockBal(me).balance - cashBefore).toBe(final - fee);
    expect(fees() - feesBefore).toBe(fee);
    expect(clearing(run.id)).toBe(0n);
  });

  it("a stock grid rests whole-share limits on the venue's book and offers no sale until its shares settle", {
    timeout: 60_000,
  }, async () => {
    await start();
    const id = await approved({
      name: 'RELIANCE grid test',
      params: { kind: 'grid', lowPrice: '1300', highPrice: '1700', levels: 4 },
      minAmount: '40000',
    });
    const alice = await customer('9000000431');
    const run = (await buy(alice.token, { id, amount: '40000' })).body.data.run;
    const account = robotAccount(run.id);
    // The opening buy (the parts above the price) filled at once, in whole shares, all locked (T+1).
    const bought = stockBal(account, SHARES).balance;
    expect(bought).toBeGreaterThan(0n);
    expect(t.app.engine.state.settlementLocks(account, STOCK).reduce((n, l) => n + BigInt(l.qtyLots), 0n)).toBe(bought);
    // The next tick rests a buy below the price, but no sell above it: its shares are locked.
    t.clock.advance(10_000);
    await t.app.robots.tick();
    const resting = t.app.engine.state.openOrders(account);
    expect(resting.map((o) => [o.side, o.orderType])).toEqual([['buy', 'limit']]);
    // The next session: settled, so the sell goes up (the day's band allowing).
    await t.advance(24 * HOUR);
    await t.app.robots.tick();
    expect(t.app.engine.state.settlementLocks(account, STOCK)).toEqual([]);
    expect(t.app.engine.state.openOrders(account).map((o) => o.side)).toContain('sell');
  });

  it('a run started while closed waits for the open; a period that ends while closed ends at the next open', {
    timeout: 60_000,
  }, async () => {
    // Monday 5 January 2026, 16:00 IST: NSE closed for the day.
    await start(Date.UTC(2026, 0, 5, 10, 30));
    const id = await approved({ periodDays: 1, params: { kind: 'dca', everyMinutes: 1_440, buyAmount: '5000' } });
    const alice = await customer('9000000421');
    const run = (await buy(alice.token, { id, amount: '10000' })).body.data.run;
    expect(run).toMatchObject({ status: 'running', capital: '10000.00', trades: 0, session: { open: false } });
    expect(stockBal(robotAccount(run.id)).balance).toBe(inr('10000'));
    // Tuesday 09:30 IST: the first buy.
    await t.advance(17 * HOUR + 30 * MINUTE);
    await t.app.robots.tick();
    expect((await details(alice.token, run.id)).totalTrades).toBe(1);
    // Tuesday 16:00 IST: the day's period is over but NSE is closed: still running, idle.
    await t.advance(6 * HOUR + 30 * MINUTE);
    await t.app.robots.tick();
    expect((await details(alice.token, run.id)).run.status).toBe('running');
    // Wednesday 09:30 IST by the calendar, before the venue has lifted the book's halt (it does so on its
    // own beat): a sale now would queue and fill after the run's figures were written, so the run waits.
    t.clock.advance(17 * HOUR + 30 * MINUTE);
    await t.app.robots.tick();
    expect((await details(alice.token, run.id)).run.status).toBe('running');
    expect(t.app.engine.state.openOrders(robotAccount(run.id))).toEqual([]);
    // Once the book trades, it ends at the open, selling the (now settled) shares at market.
    await t.advance(0);
    await t.app.robots.tick();
    const d = await details(alice.token, run.id);
    expect(d.run).toMatchObject({ status: 'finished', endReason: 'period_end', returnedQuantity: '0' });
    expect(d.trades.map((x: { side: string }) => x.side)).toEqual(['sell', 'buy']);
    expect(stockBal(robotAccount(run.id), SHARES).balance).toBe(0n);
    // Everything came back: nothing of the sale is left in the sub-account, and the pass-through is empty.
    expect(stockBal(robotAccount(run.id)).balance).toBe(0n);
    expect(clearing(run.id)).toBe(0n);
  });
});
