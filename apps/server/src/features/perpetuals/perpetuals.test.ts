// Perpetual contracts through the HTTP API on both databases: a leveraged long against the disclosed
// liquidity account, TP/SL on the right side and fired by the mark, added margin, liquidation when the mark
// crosses (the index moved through the test hook), funding at 08:00 UTC, close one / close all / none, and
// every rejection in both languages; another customer's position or order answers not found.

import { testDatabases } from '@bourse/db';
import { parseDecimal } from '@bourse/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketMakerOf } from '../../adapters/venue/quote-ladder.ts';
import { loadPerpetualSettings } from '../../config.ts';
import { testApp } from '../../testing.ts';
import { customersIn } from '../stocks/account-changes.ts';
import { FUNDING_INTERVAL_MS, fundingSlotOf } from './desk.ts';

const dbs = await testDatabases();
const PIN = '246810';
const BTC = 'PERP:BTCUSDT';
type T = Awaited<ReturnType<typeof testApp>>;
const micro = (text: string) => (text.startsWith('-') ? -parseDecimal(text.slice(1), 6) : parseDecimal(text, 6));

/** A customer with a PIN and `contract` USDT moved from the paper grant's 10,000 in spot. */
async function trader(t: T, phone: string, contract = '5000') {
  const token = (await t.register(phone)).body.data.token as string;
  const set = await t.call('POST', '/user/update/tradePassword', {
    token,
    body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
  });
  expect(set.body.code, JSON.stringify(set.body)).toBe(0);
  const moved = await t.call('POST', '/coin/transfer', {
    token,
    json: { asset: 'USDT', amount: contract, from: 'spot', to: 'contract' },
  });
  expect(moved.body.code, JSON.stringify(moved.body)).toBe(0);
  const userId = (await t.call('GET', '/user/login/info', { token })).body.data.user.id as number;
  return { token, userId };
}

const contractUsdt = (t: T, userId: number) => t.app.engine.state.balance(String(userId), 'contract', 'USDT');

/** Both languages answer the same code with their own message. */
async function rejectsInBoth(
  send: (lang: string) => Promise<{ body: { code: number; msg: string; error?: string } }>,
  error: string,
  en: string,
  pt: string,
) {
  const a = await send('en-US');
  expect(a.body.error, JSON.stringify(a.body)).toBe(error);
  expect(a.body.msg).toBe(en);
  const b = await send('pt-BR');
  expect(b.body.error).toBe(error);
  expect(b.body.msg).toBe(pt);
}

describe.each(dbs)('perpetual contracts on $dialect', ({ open }) => {
  let t: T;
  let db: Awaited<ReturnType<typeof open>>;
  let alice: { token: string; userId: number };
  let bob: { token: string; userId: number };
  const call = (token: string, path: string, json: unknown = {}, lang = 'en-US') =>
    t.call('POST', `/coin/contract/order/${path}`, { token, json, lang });
  const add = (token: string, body: Record<string, unknown>, lang = 'en-US') =>
    call(token, 'add', { symbol: 'BTCUSDT', password: PIN, ...body }, lang);
  const position = async (token: string, symbol = 'BTCUSDT') =>
    (await call(token, 'list/active', { symbol })).body.data.positions[0];
  const index = (price: string | null) => t.app.perpetuals.engineDesk.overrideIndex(BTC, price);

  beforeAll(async () => {
    db = await open();
    t = await testApp(db);
    alice = await trader(t, '9000000301');
    bob = await trader(t, '9000000302');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists six contracts with tiers, the liquidity account quoting each, and a 20x cap for new accounts', async () => {
    const infos = (await t.call('POST', '/coin/contract/infos', { token: alice.token })).body.data.items;
    expect(infos.map((c: { symbol: string }) => c.symbol)).toEqual([
      'BTCUSDT',
      'ETHUSDT',
      'SOLUSDT',
      'BNBUSDT',
      'XRPUSDT',
      'DOGEUSDT',
    ]);
    expect(infos[0]).toMatchObject({
      id: BTC,
      quote: 'USDT',
      maxLeverage: 125,
      allowedMaxLeverage: 20,
      defaultLeverage: 20,
      makerFeeBps: 2,
      takerFeeBps: 5,
      indexPrice: '95000.00',
      markPrice: '95000.00',
      // Premium 0: the rate is the interest rate, 0.01%.
      fundingRate: '0.000100',
      nextFundingTime: fundingSlotOf(t.clock.now()) + FUNDING_INTERVAL_MS,
      liquidityAccount: marketMakerOf(BTC),
    });
    expect(infos[0].tiers[0]).toEqual({
      floor: '0.000000',
      maintenanceMarginRate: '0.004000',
      maintenanceAmount: '0.000000',
      maxLeverage: 125,
    });
    // Tier 2's maintenance amount: 50,000 × (0.5% − 0.4%) = 50 (DOMAIN.md's derivation).
    expect(infos[0].tiers[1]).toMatchObject({ floor: '50000.000000', maintenanceAmount: '50.000000' });
    for (const c of infos) expect(t.app.engine.state.openOrders(marketMakerOf(c.id)).length, c.id).toBe(10);
    const book = (await t.call('POST', '/coin/contract/books', { json: { symbol: 'BTCUSDT' } })).body.data;
    expect(book).toMatchObject({ symbol: BTC, bids: { length: 5 }, asks: { length: 5 } });
    expect(book.asks[0][0]).toBe('95047.50');
    // The insurance fund starts with PERP_INSURANCE_SEED from platform liquidity; the console reads it.
    expect(t.app.perpetuals.insuranceFund()).toBe('1000000.000000');
    expect(t.app.perpetuals.deskView().contracts[0]).toEqual({
      symbol: 'BTCUSDT',
      openInterest: '0.00000000',
      longs: 0,
      shorts: 0,
      markPrice: '95000.00',
    });
    // Signed out: no cap is known.
    expect((await t.call('POST', '/coin/contract/infos')).body.data.items[0].allowedMaxLeverage).toBe(125);
  });

  it('sets leverage within the cap and refuses beyond it in both languages', async () => {
    expect((await call(alice.token, 'multiple', { symbol: 'BTCUSDT' })).body.data).toEqual({
      symbol: 'BTCUSDT',
      leverage: 20,
      maxLeverage: 20,
    });
    await rejectsInBoth(
      (lang) => call(alice.token, 'multiple', { symbol: 'BTCUSDT', leverage: 50 }, lang),
      'invalid_leverage',
      'This leverage is not available for this contract and position size',
      'Esta alavancagem não está disponível para este contrato e tamanho de posição',
    );
    const set = await call(alice.token, 'multiple', { symbol: 'BTCUSDT', leverage: 10 });
    expect(set.body.data.leverage).toBe(10);
    expect(set.body.msg).toBe('Modified');
  });

  it('opens a 10x long against the liquidity account: margin held, fee paid, liquidation price shown', async () => {
    const before = contractUsdt(t, alice.userId);
    const placed = await add(alice.token, { side: 'long', type: 'market', quantity: '0.1' });
    expect(placed.body.code, JSON.stringify(placed.body)).toBe(0);
    const { order, position: p } = placed.body.data;
    expect(order).toMatchObject({
      symbol: 'BTCUSDT',
      side: 'buy',
      positionSide: 'long',
      purpose: 'open',
      reduceOnly: false,
      status: 'completed',
      quantity: '0.10000000',
      filledQuantity: '0.10000000',
    });
    expect(p).toMatchObject({ id: `${alice.userId}-BTCUSDT`, side: 'long', size: '0.10000000', leverage: 10 });
    const notional = micro(order.avgPrice) / 10n; // 0.1 BTC
    expect(micro(p.margin)).toBe(notional / 10n);
    // The taker fee, 0.05%, rounded down on each fill (the order walks a few of the ladder's levels).
    const fee = micro(order.fee);
    expect(fee).toBeLessThanOrEqual((notional * 5n) / 10_000n);
    expect(fee).toBeGreaterThanOrEqual((notional * 5n) / 10_000n - 5n);
    const after = contractUsdt(t, alice.userId);
    expect(before.available - after.available).toBe(micro(p.margin) + micro(order.fee));
    expect(after.held).toBe(micro(p.margin));
    // Isolated 10x long: LP = (WB − EP·Pos)/(Pos·MMR − Pos), a little above 90% of the entry.
    expect(Number(p.liquidationPrice)).toBeGreaterThan(Number(p.entryPrice) * 0.9);
    expect(Number(p.liquidationPrice)).toBeLessThan(Number(p.entryPrice) * 0.91);
    expect(p.markPrice).toBe('95000.00');
    const list = (await call(alice.token, 'list', {})).body.data;
    expect(list.total).toBe(1);
    expect((await call(alice.token, 'query', { id: order.id })).body.data.id).toBe(order.id);
  });

  it('keeps TP/SL on the right side of the entry, and the mark fires the take-profit as a reduce-only order', async () => {
    const p = await position(alice.token);
    const entry = Number(p.entryPrice);
    for (const [path, price] of [
      ['set/profit', (entry - 100).toFixed(2)],
      ['set/loss', (entry + 100).toFixed(2)],
    ] as const) {
      await rejectsInBoth(
        (lang) => call(alice.token, path, { id: p.id, price }, lang),
        'trigger_wrong_side',
        'The set price cannot be higher or lower than the order price',
        'O preço definido não pode ser maior ou menor que o preço da ordem',
      );
    }
    // Another customer's position is not found, whatever its id.
    await rejectsInBoth(
      (lang) => call(bob.token, 'set/profit', { id: p.id, price: '99000' }, lang),
      'position_not_found',
      'Position not found',
      'Posição não encontrada',
    );
    const tp = (await call(alice.token, 'set/profit', { id: p.id, price: '96000' })).body.data.position;
    expect(tp.takeProfit).toBe('96000.00');
    const sl = (await call(alice.token, 'set/loss', { id: p.id, price: '90000' })).body.data.position;
    expect(sl).toMatchObject({ takeProfit: '96000.00', stopLoss: '90000.00' });

    // The mark below the TP: nothing happens.
    index('95500.00');
    await t.advance(1_000);
    expect((await position(alice.token))?.size).toBe('0.10000000');
    // The mark reaches the TP: the position is closed at market by a reduce-only order.
    index('96000.00');
    await t.advance(1_000);
    expect(await position(alice.token)).toBeUndefined();
    const orders = (await call(alice.token, 'list', { status: 'history' })).body.data.items;
    expect(orders[0]).toMatchObject({ purpose: 'take_profit', reduceOnly: true, side: 'sell', status: 'completed' });
    expect(contractUsdt(t, alice.userId).held).toBe(0n);
    index(null);
  });

  it('adds margin to a position, refuses a foreign one, and what the wallet lacks', async () => {
    index('95000.00');
    const placed = await add(alice.token, { side: 'short', type: 'market', quantity: '0.05', leverage: 20 });
    expect(placed.body.code, JSON.stringify(placed.body)).toBe(0);
    const p = placed.body.data.position;
    expect(p).toMatchObject({ side: 'short', leverage: 20 });
    const lpBefore = Number(p.liquidationPrice);
    const added = await call(alice.token, 'add/mgn', { id: p.id, amount: '100' });
    expect(added.body.code, JSON.stringify(added.body)).toBe(0);
    expect(micro(added.body.data.position.margin)).toBe(micro(p.margin) + 100_000_000n);
    // More margin moves a short's liquidation price up, away from the mark.
    expect(Number(added.body.data.position.liquidationPrice)).toBeGreaterThan(lpBefore);
    await rejectsInBoth(
      (lang) => call(bob.token, 'add/mgn', { id: p.id, amount: '10' }, lang),
      'position_not_found',
      'Position not found',
      'Posição não encontrada',
    );
    await rejectsInBoth(
      (lang) => call(alice.token, 'add/mgn', { id: p.id, amount: '1000000' }, lang),
      'insufficient_balance',
      'Insufficient balance',
      'Saldo insuficiente',
    );
    expect(micro((await position(alice.token)).margin)).toBe(micro(p.margin) + 100_000_000n);
  });

  it('liquidates a position when the mark crosses its liquidation price, and records it with its reason', async () => {
    const p = await position(alice.token);
    expect(p.side).toBe('short');
    const lp = Number(p.liquidationPrice);
    const fundBefore = micro(t.app.perpetuals.insuranceFund());
    // Just short of the liquidation price: nothing.
    index((lp - 5).toFixed(2));
    await t.advance(1_000);
    expect((await position(alice.token))?.side).toBe('short');
    // Through it: the risk loop sends liquidate; the engine closes the position.
    index((lp + 1).toFixed(2));
    await t.advance(1_000);
    expect(await position(alice.token)).toBeUndefined();
    expect(contractUsdt(t, alice.userId).held).toBe(0n);
    const records = (await t.call('POST', '/coin/contract/records/liquidations', { token: alice.token, json: {} })).body
      .data;
    expect(records.total).toBe(1);
    expect(records.items[0]).toMatchObject({
      symbol: 'BTCUSDT',
      reason: 'liquidation',
      side: 'short',
      size: '0.05000000',
      amount: `-${p.margin}`,
    });
    // Closed in the book near the mark, better than the bankruptcy price: the margin left goes to the fund.
    expect(micro(records.items[0].insuranceFund)).toBeGreaterThan(0n);
    expect(micro(t.app.perpetuals.insuranceFund()) - fundBefore).toBe(micro(records.items[0].insuranceFund));
    // Another customer sees none of it; the console's list (everyone's) has it.
    expect(
      (await t.call('POST', '/coin/contract/records/liquidations', { token: bob.token, json: {} })).body.data.total,
    ).toBe(0);
    expect((await t.app.perpetuals.liquidations(null, { page: 1, limit: 10 })).total).toBe(1);
    index(null);
  });

  it('pays funding at 08:00 UTC from longs to shorts, as ledger transfers the customer sees', async () => {
    index('95000.00');
    const placed = await add(bob.token, { side: 'long', type: 'market', quantity: '0.02' });
    expect(placed.body.code, JSON.stringify(placed.body)).toBe(0);
    const margin = micro(placed.body.data.position.margin);
    const next = fundingSlotOf(t.clock.now()) + FUNDING_INTERVAL_MS;
    await t.advance(next - t.clock.now() - 1_000);
    expect(
      (await t.call('POST', '/coin/contract/records/funding', { token: bob.token, json: {} })).body.data.total,
    ).toBe(0);
    await t.advance(2_000);
    const funding = (await t.call('POST', '/coin/contract/records/funding', { token: bob.token, json: {} })).body.data;
    expect(funding.total).toBe(1);
    // 0.02 BTC × 95,000 × 0.01% = 0.19 USDT, paid by the long.
    expect(funding.items[0]).toMatchObject({
      symbol: 'BTCUSDT',
      side: 'long',
      size: '0.02000000',
      rate: '0.000100',
      markPrice: '95000.00',
      amount: '-0.190000',
    });
    expect(micro((await position(bob.token)).margin)).toBe(margin - 190_000n);
    // Once only: a second look at the same instant pays nothing more.
    await t.advance(1_000);
    expect(
      (await t.call('POST', '/coin/contract/records/funding', { token: bob.token, json: {} })).body.data.total,
    ).toBe(1);
    index(null);
  });

  it('closes one position, then all, and answers no closable orders when none are left', async () => {
    index('95000.00');
    const eth = await add(bob.token, { symbol: 'ETHUSDT', side: 'short', type: 'market', quantity: '1' });
    expect(eth.body.code, JSON.stringify(eth.body)).toBe(0);
    const btc = await position(bob.token);
    // Another customer's order is not found.
    await rejectsInBoth(
      (lang) => call(alice.token, 'query', { id: eth.body.data.order.id }, lang),
      'order_not_found',
      'Order not found',
      'Ordem não encontrada',
    );
    await rejectsInBoth(
      (lang) => call(alice.token, 'liquidate', { id: btc.id }, lang),
      'position_not_found',
      'Position not found',
      'Posição não encontrada',
    );
    const one = await call(bob.token, 'liquidate', { id: btc.id });
    expect(one.body.code, JSON.stringify(one.body)).toBe(0);
    expect(one.body.data.orders[0]).toMatchObject({ purpose: 'close', reduceOnly: true, status: 'completed' });
    expect(await position(bob.token)).toBeUndefined();
    expect(await position(bob.token, 'ETHUSDT')).toMatchObject({ side: 'short', size: '1.00000000' });
    const all = await call(bob.token, 'liquidate/all');
    expect(all.body.data.orders.length).toBe(1);
    expect((await call(bob.token, 'list/active')).body.data.positions).toEqual([]);
    expect(contractUsdt(t, bob.userId).held).toBe(0n);
    await rejectsInBoth(
      (lang) => call(bob.token, 'liquidate/all', {}, lang),
      'no_closable_orders',
      'There are no closable orders',
      'Não há ordens que possam ser fechadas',
    );
    index(null);
  });

  it('lists closed positions with entry and exit averages, P&L, fees, funding and why each ended', async () => {
    index('95000.00');
    const hana = await trader(t, '9000000306', '2000');
    const records = async (token: string) =>
      (await t.call('POST', '/coin/contract/records/positions', { token, json: {} })).body.data;
    expect(await records(hana.token)).toEqual({ items: [], total: 0 });
    // Opened in two fills' worth of orders, then closed at market.
    const first = await add(hana.token, { side: 'long', type: 'market', quantity: '0.01', leverage: 10 });
    const second = await add(hana.token, { side: 'long', type: 'market', quantity: '0.02' });
    expect(second.body.code, JSON.stringify(second.body)).toBe(0);
    const held = await position(hana.token);
    const closed = await call(hana.token, 'liquidate', { id: held.id });
    const close = closed.body.data.orders[0];
    const history = await records(hana.token);
    expect(history.total).toBe(1);
    const [row] = history.items;
    expect(row).toMatchObject({
      symbol: 'BTCUSDT',
      side: 'long',
      size: '0.03000000',
      entryPrice: held.entryPrice,
      exitPrice: close.avgPrice,
      funding: '0.000000',
      reason: 'closed',
    });
    // The fees of the three orders; realised P&L is the exit's notional less the entry's (the whole closed).
    const fees = [first, second].reduce((sum, o) => sum + micro(o.body.data.order.fee), micro(close.fee));
    expect(micro(row.fees)).toBe(fees);
    expect(micro(row.netPnl)).toBe(micro(row.realizedPnl) - fees);
    expect(micro(row.realizedPnl)).toBeLessThan(0n);
    expect(row.closedAt).toBeGreaterThanOrEqual(row.openedAt);
    // alice's short was liquidated earlier: her history says so; bob's closes are his, not hers.
    const alices = (await records(alice.token)).items;
    expect(alices.map((p: { reason: string; side: string }) => [p.side, p.reason])).toContainEqual([
      'short',
      'liquidated',
    ]);
    expect((await records(bob.token)).items.every((p: { reason: string }) => p.reason === 'closed')).toBe(true);
    index(null);
  });

  it('refuses bad orders in both languages with nothing changed', async () => {
    const before = contractUsdt(t, alice.userId);
    await rejectsInBoth(
      (lang) => add(alice.token, { side: 'long', type: 'market', quantity: '0.1', takeProfit: '1000' }, lang),
      'trigger_wrong_side',
      'The set price cannot be higher or lower than the order price',
      'O preço definido não pode ser maior ou menor que o preço da ordem',
    );
    // 100 BTC at 20x is 475,000 USDT of margin: more than the contract wallet holds.
    await rejectsInBoth(
      (lang) => add(alice.token, { side: 'long', type: 'market', quantity: '100' }, lang),
      'insufficient_balance',
      'Insufficient balance',
      'Saldo insuficiente',
    );
    await rejectsInBoth(
      (lang) => add(alice.token, { side: 'long', type: 'market', quantity: '0.1', leverage: 21 }, lang),
      'invalid_leverage',
      'This leverage is not available for this contract and position size',
      'Esta alavancagem não está disponível para este contrato e tamanho de posição',
    );
    // A resting limit order holds margin at the leverage of its time: leverage waits for it.
    const limit = await add(alice.token, { side: 'long', type: 'limit', price: '80000', quantity: '0.01' });
    expect(limit.body.data.order).toMatchObject({ type: 'limit', price: '80000.00', status: 'pending' });
    await rejectsInBoth(
      (lang) => call(alice.token, 'multiple', { symbol: 'BTCUSDT', leverage: 5 }, lang),
      'leverage_open_orders',
      'Cancel your open orders on this contract before changing its leverage',
      'Cancele suas ordens abertas neste contrato antes de mudar a alavancagem',
    );
    const cancelled = await call(alice.token, 'close', { id: limit.body.data.order.id });
    expect(cancelled.body.data.status).toBe('cancelled');
    expect((await call(alice.token, 'multiple', { symbol: 'BTCUSDT', leverage: 5 })).body.data.leverage).toBe(5);
    // A leverage sent with a refused order is put back: nothing half-applied.
    const refused = await add(alice.token, { side: 'long', type: 'market', quantity: '100', leverage: 15 });
    expect(refused.body.error).toBe('insufficient_balance');
    expect((await call(alice.token, 'multiple', { symbol: 'BTCUSDT' })).body.data.leverage).toBe(5);
    // The same client order id and body answers the first order; another body under it is refused.
    const keyed = { side: 'long', type: 'limit', price: '81000', quantity: '0.01', clientOrderId: 'perp-key-0001' };
    const first = await add(alice.token, keyed);
    const again = await add(alice.token, keyed);
    expect(again.body.data.order.id).toBe(first.body.data.order.id);
    expect(again.body.data.order.clientOrderId).toBe('perp-key-0001');
    expect((await add(alice.token, { ...keyed, price: '81001' })).body.error).toBe('idempotency_key_reused');
    expect((await call(alice.token, 'close', { id: first.body.data.order.id })).body.data.status).toBe('cancelled');
    // TP/SL sent with a resting limit order wait for the position it opens.
    const resting = await add(alice.token, {
      side: 'long',
      type: 'limit',
      price: '82000',
      quantity: '0.01',
      takeProfit: '90000',
      stopLoss: '80000',
    });
    expect(resting.body.data.position).toBeNull();
    await t.advance(1_000);
    expect(t.app.perpetuals.engineDesk.triggers(BTC, String(alice.userId))).toEqual({
      tp: 9_000_000,
      sl: 8_000_000,
    });
    await call(alice.token, 'close', { id: resting.body.data.order.id });
    await t.advance(1_000);
    expect(t.app.perpetuals.engineDesk.triggers(BTC, String(alice.userId))).toEqual({ tp: null, sl: null });
    const wrongPin = await add(alice.token, { side: 'long', type: 'market', quantity: '0.1', password: '135791' });
    expect(wrongPin.body.code).not.toBe(0);
    const unknown = await add(alice.token, { symbol: 'NOPEUSDT', side: 'long', quantity: '0.1' });
    expect(unknown.body.error).toBe('unknown_instrument');
    const after = contractUsdt(t, alice.userId);
    expect(after.balance).toBe(before.balance);
    expect(after.held).toBe(before.held);
  });

  it('keeps TP/SL, the seeded fund and the ladders across a restart, with the ledger whole', async () => {
    index('95000.00');
    const placed = await add(bob.token, {
      side: 'long',
      type: 'market',
      quantity: '0.01',
      takeProfit: '99000',
      stopLoss: '91000',
    });
    expect(placed.body.code, JSON.stringify(placed.body)).toBe(0);
    expect(placed.body.data.position).toMatchObject({ takeProfit: '99000.00', stopLoss: '91000.00' });
    expect(t.app.perpetuals.deskView().contracts[0]).toMatchObject({
      openInterest: '0.01000000',
      longs: 1,
      // The liquidity account holds the other side.
      shorts: 1,
    });
    expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
    const ladder = t.app.engine.state.openOrders(marketMakerOf(BTC)).map((o) => o.orderId);
    await t.close();
    t = await testApp(db);
    expect((await position(bob.token)).takeProfit).toBe('99000.00');
    expect(t.app.engine.state.openOrders(marketMakerOf(BTC)).map((o) => o.orderId)).toEqual(ladder);
    expect(t.app.perpetuals.insuranceFund()).not.toBe('0.000000');
    const seeds = await db.query<{ n: number }>(
      "SELECT COUNT(*) AS n FROM ledger_transfers WHERE transfer_id = 'insurance:seed:USDT'",
    );
    expect(Number(seeds[0]?.n)).toBe(1);
    expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
  });

  it('liquidates at the right mark after a restart: the risk loop indexes the restored engine', async () => {
    index('95000.00');
    const gail = await trader(t, '9000000305', '1000');
    expect((await call(gail.token, 'multiple', { symbol: 'BTCUSDT', leverage: 20 })).body.code).toBe(0);
    const placed = await add(gail.token, { side: 'long', type: 'market', quantity: '0.01' });
    expect(placed.body.code, JSON.stringify(placed.body)).toBe(0);
    const lp = Number((await position(gail.token)).liquidationPrice);
    await t.close();
    t = await testApp(db);
    // Above the liquidation price: nothing (a long's LP is the first tick the mark liquidates at).
    index((lp + 5).toFixed(2));
    await t.advance(1_000);
    expect((await position(gail.token))?.side).toBe('long');
    index((lp - 1).toFixed(2));
    await t.advance(1_000);
    expect(await position(gail.token)).toBeUndefined();
    const records = (await t.call('POST', '/coin/contract/records/liquidations', { token: gail.token, json: {} })).body
      .data;
    expect(records.items).toMatchObject([{ reason: 'liquidation', side: 'long', size: '0.01000000' }]);
    expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
    index(null);
  });

  it("shows DOMAIN.md's vector: 1 BTC at 50,000 with 5,000 margin, long LP 45,180.72, short LP in tier 2", async () => {
    const carol = await trader(t, '9000000303', '6000');
    const dave = await trader(t, '9000000304', '6000');
    for (const who of [carol, dave])
      expect((await call(who.token, 'multiple', { symbol: 'BTCUSDT', leverage: 10 })).body.code).toBe(0);
    index('50000.00');
    // Carol's ask at 50,000 rests below the liquidity account's asks; Dave's bid takes it: both at 50,000.
    const ask = await add(carol.token, { side: 'short', type: 'limit', price: '50000', quantity: '1' });
    expect(ask.body.data.order.status, JSON.stringify(ask.body)).toBe('pending');
    const bid = await add(dave.token, { side: 'long', type: 'limit', price: '50000', quantity: '1' });
    expect(bid.body.data.order.status).toBe('completed');
    const long = await position(dave.token);
    const short = await position(carol.token);
    expect(long).toMatchObject({ entryPrice: '50000.00', margin: '5000.000000', liquidationPrice: '45180.72' });
    // DOMAIN.md's one-tier figure is 54,780.88; its notional (54,780) is past Binance's 50,000 floor, so the
    // LP is recomputed with tier 2 (0.5%, maintenance amount 50): 54,776.12 (decision 0027).
    expect(short).toMatchObject({ entryPrice: '50000.00', margin: '5000.000000', liquidationPrice: '54776.12' });
    index(null);
  });
});

describe('the account channel', () => {
  it('tells a customer of a position change, a liquidation or an ADL, and never the liquidity account', () => {
    const at = { instrumentId: BTC, timeMs: 1 };
    const users = customersIn([
      { ...at, type: 'leverage_set', userId: '7', leverage: 5 },
      {
        ...at,
        type: 'auto_deleveraged',
        userId: '8',
        liquidatedUserId: '9',
        sizeLots: -1,
        lots: 1,
        priceTicks: 1,
        pnl: 0n,
        reason: 'insurance_fund_short',
      },
      {
        ...at,
        type: 'position_liquidated',
        userId: '9',
        sizeLots: 1,
        marginLost: 1n,
        markTicks: 1,
        bankruptcyTicks: 1,
        bookLots: 1,
        adlLots: 0,
        insuranceFund: 0n,
      },
      {
        ...at,
        type: 'position_changed',
        userId: marketMakerOf(BTC),
        sizeLots: 0,
        entryNotional: 0n,
        margin: 0n,
        realisedPnl: 0n,
        leverage: 1,
        reason: 'trade',
      },
    ]);
    expect([...users].sort()).toEqual(['7', '8', '9']);
  });
});

describe.each(dbs)('auto-deleveraging on $dialect', ({ open }) => {
  it('closes the most profitable opposite position at the bankruptcy price when the fund is empty, and tells its customer why', async () => {
    const t = await testApp(await open(), {
      perpetuals: { ...loadPerpetualSettings({}), insuranceSeed: '0' },
    });
    try {
      const erin = await trader(t, '9000000401');
      const frank = await trader(t, '9000000402');
      const add = (token: string, body: Record<string, unknown>) =>
        t.call('POST', '/coin/contract/order/add', {
          token,
          json: { symbol: 'BTCUSDT', password: PIN, type: 'market', quantity: '0.1', ...body },
        });
      expect((await add(erin.token, { side: 'long' })).body.code).toBe(0);
      expect((await add(frank.token, { side: 'short' })).body.code).toBe(0);
      expect(t.app.perpetuals.insuranceFund()).toBe('0.000000');
      const active = async (token: string) =>
        (await t.call('POST', '/coin/contract/order/list/active', { token, json: {} })).body.data.positions;
      const erinPosition = (await active(erin.token))[0];
      // A gap far below Erin's bankruptcy price: the book (requoted there) cannot take her position
      // within what the empty fund can pay, so it closes against Frank's short at the bankruptcy price.
      t.app.perpetuals.engineDesk.overrideIndex(BTC, '85000.00');
      await t.advance(1_000);
      expect(await active(erin.token)).toEqual([]);
      expect(await active(frank.token)).toEqual([]);
      const records = async (token: string) =>
        (await t.call('POST', '/coin/contract/records/liquidations', { token, json: {} })).body.data.items;
      const [erinRecord] = await records(erin.token);
      expect(erinRecord).toMatchObject({
        reason: 'liquidation',
        side: 'long',
        size: '0.10000000',
        insuranceFund: '0.000000',
      });
      expect(erinRecord.bankruptcyPrice).toBe(erinPosition.bankruptcyPrice);
      const [frankRecord] = await records(frank.token);
      expect(frankRecord).toMatchObject({ reason: 'auto_deleverage', side: 'short', size: '0.10000000' });
      // Frank's short closed at Erin's bankruptcy price, at a profit.
      expect(Number(frankRecord.amount)).toBeGreaterThan(0);
      const history = async (token: string) =>
        (await t.call('POST', '/coin/contract/records/positions', { token, json: {} })).body.data.items;
      expect(await history(erin.token)).toMatchObject([
        { side: 'long', reason: 'liquidated', exitPrice: erinPosition.bankruptcyPrice },
      ]);
      expect(await history(frank.token)).toMatchObject([
        { side: 'short', reason: 'adl', realizedPnl: frankRecord.amount },
      ]);
      expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe.each(dbs)('a funding instant missed while the server was down, on $dialect', ({ open }) => {
  it('is applied once at start-up, to the holders of then, and not again at the next start', async () => {
    const db = await open();
    const eight = Date.UTC(2026, 10, 28, 8);
    let t = await testApp(db, {}, eight - 3_600_000);
    try {
      const erin = await trader(t, '9000000501');
      const placed = await t.call('POST', '/coin/contract/order/add', {
        token: erin.token,
        json: { symbol: 'BTCUSDT', password: PIN, side: 'long', type: 'market', quantity: '0.02' },
      });
      expect(placed.body.code, JSON.stringify(placed.body)).toBe(0);
      const margin = micro(placed.body.data.position.margin);
      const funding = async () =>
        (await t.call('POST', '/coin/contract/records/funding', { token: erin.token, json: {} })).body.data;
      // Down from 07:00 to 08:30: the 08:00 instant passes with no server.
      await t.close();
      t = await testApp(db, {}, eight + 1_800_000);
      const paid = await funding();
      expect(paid.total).toBe(1);
      expect(paid.items[0]).toMatchObject({ symbol: 'BTCUSDT', side: 'long', size: '0.02000000', rate: '0.000100' });
      // 0.02 BTC × the mark at start-up × 0.01%, from the long's margin.
      const owed = (micro(paid.items[0].markPrice) * 2n * 100n) / 100n / 1_000_000n;
      expect(micro(paid.items[0].amount)).toBe(-owed);
      const active = await t.call('POST', '/coin/contract/order/list/active', { token: erin.token, json: {} });
      expect(micro(active.body.data.positions[0].margin)).toBe(margin - owed);
      // Another start before 16:00 pays nothing more.
      await t.close();
      t = await testApp(db, {}, eight + 3_600_000);
      expect((await funding()).total).toBe(1);
      expect(t.app.engine.state.findBrokenInvariant()).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
