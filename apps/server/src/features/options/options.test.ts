// Options through the real HTTP stack on SQLite and PostgreSQL: the rule page and the chain (bid below
// ask, premiums per contract, calendar expiries); buying a call at the ask (the premium to the market
// maker, on the ledger with its cause), the list and statistics; closing early at the bid; every refusal
// in both languages with nothing changed; a foreign position answering not found; the expiry job
// settling in- and out-of-the-money positions at intrinsic value against the underlying's close, once
// (again changes nothing), and catching up after a restart (resume()).

import { testDatabases } from '@bourse/db';
import { tryParseDecimal } from '@bourse/money';
import { afterEach, describe, expect, it } from 'vitest';
import { testApp } from '../../testing.ts';

const dbs = await testDatabases();
const PIN = '246810';
type T = Awaited<ReturnType<typeof testApp>>;
const GRANTS = [{ wallet: 'stock' as const, asset: 'INR', amount: '100000.00' }];
const MAKER = 'platform:options_maker';
// The test clock starts on Monday 5 January 2026, 09:30 in Mumbai: NSE is open; the first weekly expiry
// is Friday the 9th at 15:30 IST.
const FRIDAY_CLOSE = Date.parse('2026-01-09T15:30:00+05:30');

const minor = (text: string) => {
  const parsed = tryParseDecimal(text, 2);
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return parsed.minor;
};

describe.each(dbs)('options on $dialect', ({ open }) => {
  let t: T;
  let closeDb: () => Promise<void>;
  const start = async (overrides: Record<string, unknown> = {}) => {
    const db = await open();
    closeDb = () => db.close();
    t = await testApp(db, { paperGrants: GRANTS, ...overrides });
  };
  afterEach(async () => {
    await t.close();
    await closeDb();
  });

  const customer = async (phone: string) => {
    const data = (await t.register(phone)).body.data;
    const token = data.token as string;
    const set = await t.call('POST', '/user/update/tradePassword', {
      token,
      body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
    });
    expect(set.body.code, JSON.stringify(set.body)).toBe(0);
    return { token, id: data.user.id as number };
  };
  const inr = (owner: string, wallet: 'stock' | 'platform' = 'stock') =>
    t.app.engine.state.balance(owner, wallet, 'INR').balance;
  const chain = async (query = '') => {
    const answer = await t.call('GET', `/stock/index/option/chain${query}`);
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    return answer.body.data;
  };
  /** The at-the-money row of NIFTY 50's first expiry. */
  const atm = async () => {
    const c = await chain('?underlying=NSE:NIFTY50');
    const spot = Number(c.underlying.price);
    const row = c.rows.reduce((a: { strike: string }, b: { strike: string }) =>
      Math.abs(Number(b.strike) - spot) < Math.abs(Number(a.strike) - spot) ? b : a,
    );
    return { c, row };
  };
  const buy = (token: string, body: Record<string, string | undefined>, lang = 'en-US') =>
    t.call('POST', '/stock/order/option/apply', { token, lang, body: { password: PIN, contracts: '1', ...body } });

  it('quotes a chain and a rule page, buys a call at the ask, lists it, closes it early at the bid', async () => {
    await start();
    const rule = (await t.call('GET', '/stock/index/option/rule')).body.data;
    expect(rule).toMatchObject({
      currency: 'INR',
      minPurchaseAmount: '100.00',
      spreadPct: '4.00',
      feePerOrder: '0.00',
      vipOnly: false,
      marketMaker: MAKER,
    });
    expect(rule.underlyings.map((u: { id: string }) => u.id)).toContain('NSE:NIFTY50');

    const { c, row } = await atm();
    expect(c.underlying).toMatchObject({ id: 'NSE:NIFTY50', multiplier: 75, isOpen: true });
    expect(c.expiries[0]).toEqual({ day: '2026-01-09', closesAt: FRIDAY_CLOSE, cycle: 'weekly' });
    expect(c.expiries.some((e: { cycle: string }) => e.cycle === 'monthly')).toBe(true);
    expect(c.rows).toHaveLength(13);
    for (const r of c.rows) {
      for (const q of [r.call, r.put]) {
        expect(minor(q.bid)).toBeLessThan(minor(q.ask));
        expect(minor(q.premiumPerContract)).toBe(minor(q.ask) * 75n);
      }
    }

    const asha = await customer('9876500001');
    const premium = row.call.premiumPerContract as string;
    const bought = await buy(asha.token, { series: row.call.series, maxPremium: premium });
    expect(bought.body.code, JSON.stringify(bought.body)).toBe(0);
    expect(bought.body.msg).toBe('Submitted');
    const option = bought.body.data.option;
    expect(option).toMatchObject({
      status: 'open',
      direction: 'call',
      strike: row.strike,
      contracts: 1,
      multiplier: 75,
      buyingAmount: premium,
      premiumPerUnit: row.call.ask,
      openPrice: c.underlying.price,
      closePrice: null,
      expiryPrice: null,
      expiry: '2026-01-09',
      breakeven: (Number(row.strike) + Number(row.call.ask)).toFixed(2),
    });
    expect(option.current.bid).toBe(row.call.bid);
    expect(minor(option.current.pnl)).toBeLessThan(0n); // the spread, at once
    expect(Number(option.current.greeks.delta)).toBeGreaterThan(0);
    expect(inr(String(asha.id))).toBe(100_000_00n - minor(premium));
    expect(inr(MAKER, 'platform')).toBe(minor(premium));
    // The premium is one ledger line with its cause.
    await t.app.engine.committed(t.app.engine.seq);
    const lines = (await t.call('GET', '/user/tx/record?wallet=stock&cause=option', { token: asha.token })).body.data;
    expect(lines.total).toBe(1);
    expect(JSON.stringify(lines.items[0])).toContain(`option:${option.id}`);

    // A retry with the same Idempotency-Key (a lost answer) gets the first answer and buys nothing more;
    // the key for another order is refused.
    const key = 'option-buy-key-0001';
    const first = await t.call('POST', '/stock/order/option/apply', {
      token: asha.token,
      headers: { 'idempotency-key': key },
      body: { series: row.put.series, contracts: '1', password: PIN },
    });
    expect(first.body.code, JSON.stringify(first.body)).toBe(0);
    const paidSoFar = inr(String(asha.id));
    const again = await t.call('POST', '/stock/order/option/apply', {
      token: asha.token,
      headers: { 'idempotency-key': key },
      body: { series: row.put.series, contracts: '1', password: PIN },
    });
    expect(again.body.data.option.id).toBe(first.body.data.option.id);
    expect(inr(String(asha.id))).toBe(paidSoFar);
    const reused = await t.call('POST', '/stock/order/option/apply', {
      token: asha.token,
      headers: { 'idempotency-key': key },
      body: { series: row.put.series, contracts: '2', password: PIN },
    });
    expect(reused.body.error).toBe('idempotency_key_reused');
    const closedPut = await t.call('POST', '/stock/order/option/close', {
      token: asha.token,
      headers: { 'idempotency-key': 'option-close-key-01' },
      body: { id: String(first.body.data.option.id), password: PIN },
    });
    expect(closedPut.body.code, JSON.stringify(closedPut.body)).toBe(0);
    const closedAgain = await t.call('POST', '/stock/order/option/close', {
      token: asha.token,
      headers: { 'idempotency-key': 'option-close-key-01' },
      body: { id: String(first.body.data.option.id), password: PIN },
    });
    expect(closedAgain.body.data.option).toEqual(closedPut.body.data.option);
    const afterPut = inr(String(asha.id));

    const list = (await t.call('GET', '/stock/order/option/list?status=open', { token: asha.token })).body.data;
    expect(list.total).toBe(1);
    expect(list.items[0].id).toBe(option.id);
    const stats = (await t.call('GET', '/stock/order/option/statistics', { token: asha.token })).body.data;
    expect(stats).toMatchObject({ currency: 'INR', openCount: 1, closedCount: 1, openPremium: premium });

    // A foreign position answers not found, in both languages, and nothing moves.
    const bala = await customer('9876500002');
    for (const [lang, msg] of [
      ['en-US', 'Option position not found'],
      ['pt-BR', 'Posição de opção não encontrada'],
    ]) {
      const foreign = await t.call('POST', '/stock/order/option/close', {
        token: bala.token,
        lang,
        body: { id: String(option.id), password: PIN },
      });
      expect(foreign.body).toMatchObject({ error: 'option_not_found', msg });
    }
    const unknown = await t.call('POST', '/stock/order/option/close', {
      token: asha.token,
      body: { id: '999999', password: PIN },
    });
    expect(unknown.body.error).toBe('option_not_found');

    // Close early at the bid.
    const closed = await t.call('POST', '/stock/order/option/close', {
      token: asha.token,
      body: { id: String(option.id), password: PIN },
    });
    expect(closed.body.code, JSON.stringify(closed.body)).toBe(0);
    const after = closed.body.data.option;
    expect(after).toMatchObject({ status: 'closed', closeReason: 'closed', current: null, expiryPrice: null });
    expect(minor(after.proceeds)).toBe(minor(after.closePrice) * 75n);
    expect(minor(after.realisedPnl)).toBe(minor(after.proceeds) - minor(premium));
    expect(inr(String(asha.id))).toBe(afterPut + minor(after.proceeds));
    expect(inr(MAKER, 'platform')).toBe(100_000_00n - afterPut - minor(after.proceeds));
    expect(t.app.engine.state.optionPositions()).toEqual([]);
    // Closing again: already closed, in both languages.
    for (const [lang, msg] of [
      ['en-US', 'This option position is already closed'],
      ['pt-BR', 'Esta posição de opção já está encerrada'],
    ]) {
      const again = await t.call('POST', '/stock/order/option/close', {
        token: asha.token,
        lang,
        body: { id: String(option.id), password: PIN },
      });
      expect(again.body).toMatchObject({ error: 'option_closed', msg });
    }
    const stats2 = (await t.call('GET', '/stock/order/option/statistics', { token: asha.token })).body.data;
    expect(stats2).toMatchObject({ openCount: 0, closedCount: 2 });
    expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
  });

  it('refuses every rule in both languages, changing nothing', async () => {
    await start({
      options: {
        minPurchaseAmount: '100.00',
        spreadPct: 4,
        ratePct: 5.5,
        vipOnly: false,
        jobEveryMs: 0,
        weeks: 4,
        months: 3,
        strikesEachSide: 6,
      },
    });
    const asha = await customer('9876500003');
    const { row } = await atm();
    const balance = inr(String(asha.id));
    const cases: [string, Record<string, string>, string, string][] = [
      [
        'option_series_unknown',
        { series: 'NSE:NIFTY50/2026-01-09/C/12345.00' },
        'This option is not on the chain',
        'Esta opção não está na grade',
      ],
      [
        'option_series_unknown',
        { series: 'nonsense' },
        'This option is not on the chain',
        'Esta opção não está na grade',
      ],
      [
        'option_expired',
        { series: row.call.series.replace('2026-01-09', '2026-01-02') },
        'This option has expired: it can no longer be bought or closed',
        'Esta opção venceu: não pode mais ser comprada nem encerrada',
      ],
      [
        'option_price_changed',
        { series: row.call.series, maxPremium: '0.01' },
        'The price moved since it was shown. Check the new quote and try again.',
        'O preço mudou desde que foi exibido. Confira a nova cotação e tente novamente.',
      ],
      [
        'insufficient_balance',
        { series: row.call.series, contracts: '1000' },
        'Insufficient balance',
        'Saldo insuficiente',
      ],
      [
        'trade_password_incorrect',
        { series: row.call.series, password: '111111' },
        'The transaction password is incorrect, please re-enter',
        'A senha de transação está incorreta, digite novamente',
      ],
    ];
    for (const [code, body, en, pt] of cases) {
      for (const [lang, msg] of [
        ['en-US', en],
        ['pt-BR', pt],
      ] as const) {
        const answer = await buy(asha.token, body, lang);
        expect(answer.body, `${code} ${lang}`).toMatchObject({ error: code, msg });
      }
    }
    expect(inr(String(asha.id))).toBe(balance);
    expect(t.app.engine.state.optionPositions()).toEqual([]);
    expect((await t.call('GET', '/stock/order/option/list', { token: asha.token })).body.data.total).toBe(0);
  });

  it('refuses below the minimum purchase, for non-VIPs when options are VIP-only, and while the market is closed', async () => {
    await start({
      options: {
        minPurchaseAmount: '5000000.00',
        spreadPct: 4,
        ratePct: 5.5,
        vipOnly: false,
        jobEveryMs: 0,
        weeks: 4,
        months: 3,
        strikesEachSide: 6,
      },
    });
    const asha = await customer('9876500004');
    const { row } = await atm();
    const min = await buy(asha.token, { series: row.call.series }, 'en-US');
    expect(min.body).toMatchObject({ error: 'option_min_amount' });
    expect(min.body.msg).toBe('The premium is below the minimum option purchase of ₹5,000,000.00');
    const minPt = await buy(asha.token, { series: row.call.series }, 'pt-BR');
    expect(minPt.body.msg).toContain('O prêmio está abaixo da compra mínima de opções de');
    await t.close();
    await closeDb();

    await start({
      options: {
        minPurchaseAmount: '100.00',
        spreadPct: 4,
        ratePct: 5.5,
        vipOnly: true,
        jobEveryMs: 0,
        weeks: 4,
        months: 3,
        strikesEachSide: 6,
      },
    });
    const bala = await customer('9876500005');
    const vip = await atm();
    for (const [lang, msg] of [
      ['en-US', 'Options are available to VIP members'],
      ['pt-BR', 'Opções estão disponíveis para membros VIP'],
    ]) {
      const answer = await buy(bala.token, { series: vip.row.call.series }, lang);
      expect(answer.body).toMatchObject({ error: 'option_vip_only', msg });
    }
    await t.close();
    await closeDb();

    await start();
    const chen = await customer('9876500006');
    const late = await atm();
    // 18:00 IST: NSE has closed.
    t.clock.set(Date.parse('2026-01-05T18:00:00+05:30'));
    for (const [lang, msg] of [
      ['en-US', 'Options trade only while the underlying’s market is open'],
      ['pt-BR', 'Opções são negociadas apenas com o mercado do ativo-objeto aberto'],
    ]) {
      const answer = await buy(chen.token, { series: late.row.call.series }, lang);
      expect(answer.body).toMatchObject({ error: 'option_market_closed', msg });
    }
  });

  it('settles at expiry at intrinsic value against the close, once, and catches up after a restart', async () => {
    await start({ paperGrants: [{ wallet: 'stock' as const, asset: 'INR', amount: '1000000.00' }] });
    const asha = await customer('9876500007');
    const { c } = await atm();
    // A deep in-the-money call (lowest strike), a put near the money, a deep out-of-the-money call (highest
    // strike); enough contracts of each for the minimum purchase.
    const low = c.rows[0];
    const mid = c.rows[4];
    const high = c.rows[c.rows.length - 1];
    const bought = [];
    for (const q of [low.call, mid.put, high.call]) {
      const contracts = String(Number(100_00n / minor(q.premiumPerContract)) + 1);
      const answer = await buy(asha.token, { series: q.series, contracts });
      expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
      bought.push(answer.body.data.option);
    }
    const paid = bought.reduce((sum, o) => sum + minor(o.buyingAmount), 0n);
    expect(inr(String(asha.id))).toBe(1_000_000_00n - paid);

    // Thursday: still open, the job settles nothing.
    await t.advance(Date.parse('2026-01-08T10:00:00+05:30') - t.clock.now());
    await t.app.options.tick();
    expect(t.app.engine.state.optionPositions()).toHaveLength(3);
    // Closing after the expiry's close is refused (the job has not run yet).
    await t.advance(FRIDAY_CLOSE - t.clock.now() - 60_000);
    await t.advance(2 * 60_000);
    const late = await t.call('POST', '/stock/order/option/close', {
      token: asha.token,
      body: { id: String(bought[0].id), password: PIN },
    });
    expect(late.body.error).toBe('option_expired');
    // The server "restarts" a few minutes later: resume() settles what expired while it was down.
    await t.advance(5 * 60_000);
    await t.app.options.resume();
    expect(t.app.engine.state.optionPositions()).toEqual([]);
    const settled = (await t.call('GET', '/stock/order/option/list?status=closed', { token: asha.token })).body.data
      .items;
    expect(settled).toHaveLength(3);
    const close = settled[0].expiryPrice as string;
    // The underlying's last price of Friday's session (the market has not opened since).
    const last = t.app.market.lastTicks('NSE:NIFTY50');
    expect(last?.tradingDay).toBe('2026-01-09');
    expect(minor(close)).toBe(BigInt(last?.lastTicks ?? 0)); // NIFTY's tick is 0.01: ticks are paise
    let received = 0n;
    for (const o of settled) {
      expect(o).toMatchObject({ status: 'closed', closeReason: 'expired', expiryPrice: close });
      const unit = o.direction === 'call' ? minor(close) - minor(o.strike) : minor(o.strike) - minor(close);
      const intrinsic = unit > 0n ? unit : 0n;
      expect(minor(o.closePrice), o.series).toBe(intrinsic);
      expect(minor(o.proceeds), o.series).toBe(intrinsic * 75n * BigInt(o.contracts));
      received += intrinsic * 75n * BigInt(o.contracts);
    }
    // The deep in-the-money call paid out; the deep out-of-the-money call paid nothing.
    expect(minor(settled.find((o: { series: string }) => o.series === low.call.series).proceeds)).toBeGreaterThan(0n);
    expect(settled.find((o: { series: string }) => o.series === high.call.series).proceeds).toBe('0.00');
    expect(inr(String(asha.id))).toBe(1_000_000_00n - paid + received);
    expect(inr(MAKER, 'platform')).toBe(paid - received);
    // Running the job again changes nothing.
    const before = t.app.engine.seq;
    await t.app.options.tick();
    expect(t.app.engine.seq).toBe(before);
    expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
  }, 60_000); // a clock moved over a month: the simulator catches up first (20 s was short on a loaded machine)

  it('settles after a long downtime, when the market skipped ahead without candles', async () => {
    await start({ paperGrants: [{ wallet: 'stock' as const, asset: 'INR', amount: '1000000.00' }] });
    const asha = await customer('9876500008');
    const { row } = await atm();
    const bought = await buy(asha.token, { series: row.put.series, contracts: '2' });
    expect(bought.body.code, JSON.stringify(bought.body)).toBe(0);
    // Forty days later in one step (the server was down): the simulator skips ahead.
    t.clock.advance(40 * 86_400_000);
    await t.app.market.pump();
    await t.app.options.resume();
    expect(t.app.engine.state.optionPositions()).toEqual([]);
    // (The session has ended by now: the service is read directly.)
    const settled = (await t.app.options.list(asha.id, { status: 'closed', page: 1, limit: 10 })).items[0];
    if (!settled) throw new Error('not settled');
    expect(settled).toMatchObject({ status: 'closed', closeReason: 'expired' });
    expect(settled.expiryPrice).not.toBeNull();
    const unit = minor(row.strike) - minor(settled.expiryPrice as string);
    expect(minor(settled.proceeds as string)).toBe((unit > 0n ? unit : 0n) * 150n);
  });
});
