// The staff console's perpetuals desk: after a liquidation partly in the book and partly by ADL (seeded
// through engine commands), it shows the insurance fund's balance and line, open interest at the mark, and
// the liquidation with its ADL counterparty; staff only; there is no call that changes anything.

import { testDatabases } from '@bourse/db';
import { formatDecimal } from '@bourse/money';
import { btcPerp } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';

const dbs = await testDatabases();
const PERP = 'BTCUSDT-PERP';
type T = Awaited<ReturnType<typeof testApp>>;
// tick 0.1 USDT, lot 0.001 BTC
const P = (usdt: number) => usdt * 10;

/** Sends engine commands straight to the engine (not through the server's desk), each expected to pass. */
function runner(t: T, prefix: string) {
  let n = 0;
  return async (command: Record<string, unknown>) => {
    n += 1;
    const result = await t.app.engine.submit({ id: `${prefix}:${n}`, ...command } as never);
    expect(result.ok ? 'ok' : result.code, String(command.type)).toBe('ok');
  };
}

async function seed(t: T) {
  const run = runner(t, 'desk-test');
  await run({ type: 'register_instrument', instrument: btcPerp({ makerFeeBps: 0, takerFeeBps: 0 }) });
  for (const user of ['9001', '9002', '9003', '9004']) {
    await run({
      type: 'deposit',
      userId: user,
      wallet: 'contract',
      asset: 'USDT',
      amount: '60000',
      from: 'faucet',
      cause: 'paper_grant',
    });
    await run({ type: 'set_leverage', userId: user, instrumentId: PERP, leverage: 10 });
  }
  const order = { type: 'place_order', instrumentId: PERP, orderType: 'limit' };
  // 9001 long 1 BTC at 50,000 (10x: margin 5,000) against 9002 short.
  await run({ ...order, userId: '9002', side: 'sell', priceTicks: P(50_000), qtyLots: 1_000 });
  await run({ ...order, userId: '9001', side: 'buy', priceTicks: P(50_000), qtyLots: 1_000 });
  // 9004 long 0.2 BTC at 50,000 against 9002 too.
  await run({ ...order, userId: '9002', side: 'sell', priceTicks: P(50_000), qtyLots: 200 });
  await run({ ...order, userId: '9004', side: 'buy', priceTicks: P(50_000), qtyLots: 200 });
  // 9003 bids 1 BTC at 46,000: 9001's liquidation sells there (a loss of 4,000 of its 5,000 margin: 1,000
  // to the fund); 9004's finds no bid and is deleveraged against 9002 at its bankruptcy price.
  await run({ ...order, userId: '9003', side: 'buy', priceTicks: P(46_000), qtyLots: 1_000 });
  await run({ type: 'set_mark_price', instrumentId: PERP, priceTicks: P(45_000) });
  await run({ type: 'liquidate', instrumentId: PERP, userId: '9001' });
  await run({ type: 'liquidate', instrumentId: PERP, userId: '9004' });
}

async function staffToken(t: T): Promise<string> {
  const login = await t.call('POST', '/admin/auth/login', {
    json: {
      username: DEMO_STAFF.username,
      password: DEMO_STAFF.password,
      totpCode: totpNow(DEMO_STAFF.totpSecret, t.clock.now()),
    },
  });
  return login.body.data.token as string;
}

describe.each(dbs)('perpetuals desk on $dialect', ({ open }) => {
  it('shows the insurance fund, open interest and the liquidation with its ADL, to staff only', async () => {
    const db = await open();
    const t = await testApp(db);
    try {
      const token = await staffToken(t);
      const empty = await t.call('GET', '/admin/perpetuals/desk', { token });
      expect(empty.body.code, JSON.stringify(empty.body)).toBe(0);
      // What the server seeded the fund with from platform liquidity (PERP_INSURANCE_SEED).
      const seeded = t.app.engine.state.balance('platform:insurance_fund', 'platform', 'USDT').balance;
      await seed(t);
      await t.app.engine.committed(t.app.engine.seq);
      const desk = (await t.call('GET', '/admin/perpetuals/desk', { token })).body.data;
      const fund = t.app.engine.state.balance('platform:insurance_fund', 'platform', 'USDT').balance;
      expect(fund - seeded).toBe(1_000_000_000n);
      expect(desk.insuranceFund.asset).toBe('USDT');
      expect(desk.insuranceFund.balance).toBe(formatDecimal(fund, 6));
      // Besides the server's seed line: the customer's liquidation.
      const liquidationLines = desk.insuranceFund.lines.filter(
        (l: { counterparty: string }) => l.counterparty === '9001',
      );
      expect(liquidationLines).toHaveLength(1);
      expect(liquidationLines[0]).toMatchObject({ amount: '1000.000000', cause: 'liquidation', counterparty: '9001' });
      const oi = desk.openInterest.find((row: { instrumentId: string }) => row.instrumentId === PERP);
      // Left: 9003 long 1 (bought in the liquidation), 9002 short 1 (0.2 of 1.2 deleveraged).
      expect(oi).toEqual({
        instrumentId: PERP,
        base: 'BTC',
        quote: 'USDT',
        positions: 2,
        longSize: '1.00000000',
        shortSize: '1.00000000',
        markPrice: '45000.000000',
        notionalAtMark: '45000.000000',
      });
      // Newest first.
      expect(desk.liquidations).toHaveLength(2);
      expect(desk.liquidations[0]).toMatchObject({
        userId: '9004',
        asset: 'USDT',
        insuranceFund: '0.000000',
        adlCounterparties: ['9002'],
      });
      expect(desk.liquidations[1]).toMatchObject({
        userId: '9001',
        asset: 'USDT',
        insuranceFund: '1000.000000',
        adlCounterparties: [],
      });
      expect(desk.liquidations[0].link).toMatch(/^perp:liquidation:/);

      // 9005 long 0.1 BTC at 50,000 (10x: margin 500, bankruptcy 45,000) is liquidated into 9003's bid at
      // exactly 45,000: no margin is left for the fund and no ADL, so no ledger line carries the
      // liquidation's link. Its record (written with the command) still lists it.
      const run = runner(t, 'desk-test:bankruptcy');
      const order = { type: 'place_order', instrumentId: PERP, orderType: 'limit' };
      await run({
        type: 'deposit',
        userId: '9005',
        wallet: 'contract',
        asset: 'USDT',
        amount: '1000',
        from: 'faucet',
        cause: 'paper_grant',
      });
      await run({ type: 'set_leverage', userId: '9005', instrumentId: PERP, leverage: 10 });
      await run({ ...order, userId: '9002', side: 'sell', priceTicks: P(50_000), qtyLots: 100 });
      await run({ ...order, userId: '9005', side: 'buy', priceTicks: P(50_000), qtyLots: 100 });
      await run({ ...order, userId: '9003', side: 'buy', priceTicks: P(45_000), qtyLots: 100 });
      await run({ type: 'liquidate', instrumentId: PERP, userId: '9005' });
      await t.app.engine.committed(t.app.engine.seq);
      const after = (await t.call('GET', '/admin/perpetuals/desk', { token })).body.data;
      expect(after.liquidations).toHaveLength(3);
      expect(after.liquidations[0]).toMatchObject({
        userId: '9005',
        asset: 'USDT',
        insuranceFund: '0.000000',
        adlCounterparties: [],
      });
      const lines = await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM ledger_transfers WHERE link = $1', [
        after.liquidations[0].link,
      ]);
      expect(Number(lines[0]?.n)).toBe(0);

      for (const lang of ['en-US', 'pt-BR']) {
        const anonymous = await t.call('GET', '/admin/perpetuals/desk', { lang });
        expect(anonymous.body.code).not.toBe(0);
        expect(anonymous.body.msg.length).toBeGreaterThan(0);
      }
      const en = (await t.call('GET', '/admin/perpetuals/desk', { lang: 'en-US' })).body.msg;
      const pt = (await t.call('GET', '/admin/perpetuals/desk', { lang: 'pt-BR' })).body.msg;
      expect(pt).not.toBe(en);
      // Read only: the desk has no other method.
      expect((await t.call('POST', '/admin/perpetuals/desk', { token, json: {} })).status).toBe(404);
    } finally {
      await t.close();
      await db.close();
    }
  }, 60_000);
});
