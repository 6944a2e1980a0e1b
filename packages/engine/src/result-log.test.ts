// The engine's results in the result log: what an EventReader reads in place is exactly what `events`
// makes; the window's stored form is what encoding those events gives (so it depends on the events
// alone, as format-1 snapshots and the state hash need); a result older than the log keeps is refused.

import { btcUsdt, CommandFactory, reliance, SeededRandom } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { CommandMemory } from './command-memory.ts';
import type { Command } from './commands.ts';
import { Engine } from './engine.ts';
import type { ApplyResult } from './engine-state.ts';
import type { EngineEvent } from './events.ts';
import {
  EventReader,
  LoggedResult,
  MIN_RESULT_RETENTION,
  RECORD_EVENT,
  RECORD_FILL,
  RECORD_ORDER_PLACED,
  RECORD_ORDER_UPDATED,
  RECORD_TRADE,
  RECORD_TRANSFER,
  ResultLog,
} from './result-log.ts';
import { type EngineSnapshot, partsOfSnapshot } from './snapshot.ts';
import { hashParts } from './state-hash.ts';

/** The events an EventReader reads, made into objects field by field (as the projection reads them). */
function eventsRead(reader: EventReader, result: ApplyResult): EngineEvent[] {
  const big = (n: number, b: bigint | undefined) => (b !== undefined ? b : BigInt(n));
  const events: EngineEvent[] = [];
  reader.read(result);
  while (reader.next()) {
    const kind = reader.kind;
    if (kind === RECORD_EVENT) events.push(reader.event as EngineEvent);
    else if (kind === RECORD_ORDER_PLACED) {
      events.push({
        type: 'order_placed',
        orderId: reader.orderId,
        commandId: reader.commandId,
        userId: reader.userId,
        instrumentId: reader.instrumentId,
        side: reader.side,
        orderType: reader.orderType,
        priceTicks: reader.priceTicks,
        qtyLots: reader.qtyLots,
        timeInForce: reader.timeInForce,
        postOnly: reader.postOnly,
        trigger: reader.trigger,
        status: 'pending',
        holdAsset: reader.holdAsset,
        holdAmount: big(reader.holdAmount, reader.holdAmountBig),
        ...(reader.queued ? { queued: true as const } : {}),
        timeMs: reader.timeMs,
      });
    } else if (kind === RECORD_ORDER_UPDATED) {
      events.push({
        type: 'order_updated',
        orderId: reader.orderId,
        userId: reader.userId,
        instrumentId: reader.instrumentId,
        status: reader.status,
        priceTicks: reader.priceTicks,
        qtyLots: reader.qtyLots,
        filledLots: reader.filledLots,
        remainingLots: reader.remainingLots,
        reason: reader.reason,
        timeMs: reader.timeMs,
      });
    } else if (kind === RECORD_TRADE || kind === RECORD_FILL) {
      const notional = big(reader.notional, reader.notionalBig);
      const makerFee = big(reader.makerFee, reader.makerFeeBig);
      const takerFee = big(reader.takerFee, reader.takerFeeBig);
      const timeMs = reader.timeMs;
      const tradeId = reader.tradeId;
      events.push({
        type: 'trade',
        tradeId,
        instrumentId: reader.instrumentId,
        priceTicks: reader.priceTicks,
        qtyLots: reader.qtyLots,
        takerSide: reader.takerSide,
        makerOrderId: reader.makerOrderId,
        takerOrderId: reader.takerOrderId,
        makerUserId: reader.makerUserId,
        takerUserId: reader.takerUserId,
        notional,
        makerFee,
        takerFee,
        timeMs,
      });
      if (kind === RECORD_FILL) {
        const link = `trade:${tradeId}`;
        const transfer = (id: string, debit: string, credit: string, asset: string, amount: bigint, fee: boolean) =>
          events.push({
            type: 'transfer_posted',
            transferId: `${link}:${id}`,
            debit,
            credit,
            asset,
            amount,
            cause: fee ? 'fee' : 'trade',
            link,
            timeMs,
          });
        transfer('quote', reader.quoteDebit, reader.quoteCredit, reader.quoteAsset, notional, false);
        transfer('base', reader.baseDebit, reader.baseCredit, reader.baseAsset, BigInt(reader.qtyMinor), false);
        const takerBuys = reader.takerSide === 'buy';
        const buyerFee = reader.buyerFeeCredit;
        if (buyerFee !== undefined)
          transfer('buyer_fee', reader.quoteDebit, buyerFee, reader.quoteAsset, takerBuys ? takerFee : makerFee, true);
        const sellerFee = reader.sellerFeeCredit;
        if (sellerFee !== undefined)
          transfer(
            'seller_fee',
            reader.quoteCredit,
            sellerFee,
            reader.quoteAsset,
            takerBuys ? makerFee : takerFee,
            true,
          );
      }
    } else if (kind === RECORD_TRANSFER) {
      events.push({
        type: 'transfer_posted',
        transferId: reader.transferId,
        debit: reader.debit,
        credit: reader.credit,
        asset: reader.asset,
        amount: big(reader.amount, reader.amountBig),
        cause: reader.cause,
        link: reader.link,
        timeMs: reader.timeMs,
      });
    } else throw new Error(`record ${kind}`);
  }
  return events;
}

/**
 * Seeded commands over three instruments: BTC-USDT (every amount a safe integer: fills as one record),
 * ETH-USDT1 in 1 ETH lots (10^18 minor units: trades and transfers as records of their own, with
 * bigints), and a stock whose bought shares are locked until settled (holds as events kept whole);
 * with limits, markets, IOC, FOK, post-only, stops, amends, cancels, halts, fees and settlements.
 */
function* commands(seed: number, count: number): Generator<Command> {
  const random = new SeededRandom(seed);
  const btc = new CommandFactory('BTC-USDT');
  const eth = new CommandFactory('ETH-USDT1');
  const tcs = new CommandFactory('NSE:TCS');
  // The factories number their ids alike: each id gets its factory's instrument in front.
  const tag = (c: CommandFactory, command: Command): Command => ({ ...command, id: `${c.instrumentId}:${command.id}` });
  yield tag(btc, btc.register(btcUsdt({ maxPriceTicks: 100_000 })));
  yield tag(
    eth,
    eth.register(btcUsdt({ id: 'ETH-USDT1', base: 'ETH', lotSize: '1', tickSize: '0.013', maxPriceTicks: 100_000 })),
  );
  yield tag(
    tcs,
    tcs.register(reliance({ id: 'NSE:TCS', base: 'SHARE:NSE:TCS', lockBoughtUntilSettled: true, takerFeeBps: 3 })),
  );
  const users = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5'];
  for (const user of users) {
    yield tag(btc, btc.deposit(user, 'USDT', '1000000000'));
    yield tag(btc, btc.deposit(user, 'BTC', '1000'));
    yield tag(eth, eth.deposit(user, 'ETH', '100000'));
    yield tag(tcs, tcs.deposit(user, 'INR', '100000000', 'stock'));
    yield tag(tcs, tcs.deposit(user, 'SHARE:NSE:TCS', '10000', 'stock'));
  }
  const factories = [btc, eth, tcs];
  let placed = 0;
  for (let n = 0; n < count; n++) {
    const c = factories[random.int(0, 2)] as CommandFactory;
    const user = users[random.int(0, users.length - 1)] as string;
    const side = random.chance(0.5) ? 'buy' : 'sell';
    const price = 1_000 + random.int(-20, 20);
    const r = random.next();
    let command: Command;
    if (r < 0.45) {
      const options = random.chance(0.1)
        ? { timeInForce: random.chance(0.5) ? ('ioc' as const) : ('fok' as const) }
        : random.chance(0.05)
          ? { postOnly: true }
          : {};
      command = c.limit(user, side, price, random.int(1, 20), options);
      placed += 1;
    } else if (r < 0.55) {
      command = c.market(user, side, random.int(1, 20));
      placed += 1;
    } else if (r < 0.6) {
      command = c.market(user, side, random.int(1, 5), { kind: 'stop', priceTicks: price, by: 'mark' });
      placed += 1;
    } else if (r < 0.62) {
      command = c.mark(price);
    } else if (r < 0.78 && placed > 0) {
      command = c.cancel(user, random.int(1, placed));
    } else if (r < 0.86 && placed > 0) {
      const change = random.chance(0.5) ? { qtyLots: random.int(1, 20) } : { priceTicks: price };
      command = c.amend(user, random.int(1, placed), change);
    } else if (r < 0.89) {
      command = c.halt(random.chance(0.3));
    } else if (r < 0.9) {
      command = c.fees(random.int(0, 5), random.int(0, 9));
    } else if (r < 0.92) {
      command = { ...c.cancel(user, 0), type: 'settle_trades', instrumentId: 'NSE:TCS', upToTradeId: n } as Command;
    } else {
      command = c.deposit(user, 'USDT', '100');
    }
    yield tag(c, command);
  }
}

describe('the result log', () => {
  it('reads in place exactly the events it makes, and stores what encoding those events stores', () => {
    for (const seed of [1, 2, 3]) {
      const engine = new Engine({ rememberedCommandsMax: 500 });
      const reader = new EventReader();
      const kinds = new Set<string>();
      let logged = 0;
      for (const command of commands(seed, 3_000)) {
        const result = engine.apply(command);
        if (!result.ok) continue;
        if (result instanceof LoggedResult) logged += 1;
        // Read in place first: once `events` is read, the reader reads those.
        reader.read(result);
        while (reader.next()) kinds.add(`record ${reader.kind}`);
        const read = eventsRead(reader, result);
        expect(read, `seed ${seed} ${command.id}`).toEqual(result.events);
        for (const e of result.events) kinds.add(e.type);
      }
      // Every kind of record and event came up, bigints included.
      for (const kind of [
        RECORD_EVENT,
        RECORD_ORDER_PLACED,
        RECORD_ORDER_UPDATED,
        RECORD_TRADE,
        RECORD_TRANSFER,
        RECORD_FILL,
      ]) {
        expect(kinds.has(`record ${kind}`), `seed ${seed}: record ${kind}`).toBe(true);
      }
      expect(kinds.has('hold_placed')).toBe(true);
      expect(logged).toBeGreaterThan(1_000);
      // The window as the engine wrote it equals the window encoded from its decoded results.
      const memory = (engine as unknown as { state: { memory: CommandMemory } }).state.memory;
      const encoded = new CommandMemory(500);
      memory.forEach((id, command, result) => {
        encoded.addDecoded(id, command, result);
      });
      const text = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));
      expect(text(encoded.exportWindow())).toBe(text(memory.exportWindow()));
    }
  });

  it('stores the window exactly as the engine did before the result log (caaa7cc)', () => {
    // The v4 state hash covers the window's stored form (its numbers, references and counts). These are
    // what caaa7cc, which built event objects and then encoded them, gave for the same commands.
    const before: Record<number, string> = {
      1: 'v4:0227028bcca3c0616ab3b24855f4d643',
      2: 'v4:81d2af0191e3bddaa94e81fbe8c1da07',
      3: 'v4:e6d40c83db1c1a4d74dcb650677d2253',
    };
    for (const seed of [1, 2, 3]) {
      const engine = new Engine({ rememberedCommandsMax: 500 });
      for (const command of commands(seed, 3_000)) engine.apply(command);
      // Since issue 22 the snapshot is format 3 and lists the assets: without them, as format 2, it is
      // the snapshot caaa7cc hashed (the digest is the same; only the prefix moved on to v5).
      const { assets: _assets, ...rest } = engine.snapshot();
      const digest = hashParts(partsOfSnapshot({ ...rest, version: 2 } as unknown as EngineSnapshot)).slice(3);
      expect(`v4:${digest}`, `seed ${seed}`).toBe(before[seed]);
    }
  });

  it('drops what a command wrote before it threw, so the window still exports what it holds', () => {
    const c = new CommandFactory('BTC-USDT');
    const engine = new Engine({ rememberedCommandsMax: 10 });
    for (const command of [c.register(btcUsdt()), c.deposit('a', 'USDT', '1000000'), c.deposit('b', 'BTC', '10')]) {
      engine.apply(command);
    }
    engine.apply(c.limit('b', 'sell', 100, 1));
    // Settlement throws after the buy's order_placed was written (a broken invariant would, for real).
    const ledger = (engine as unknown as { state: { ledger: { postFromHoldQuietN: unknown } } }).state.ledger;
    const post = ledger.postFromHoldQuietN;
    ledger.postFromHoldQuietN = () => {
      throw new Error('boom');
    };
    expect(() => engine.apply(c.limit('a', 'buy', 100, 1))).toThrow('boom');
    ledger.postFromHoldQuietN = post;
    const snapshot = JSON.parse(JSON.stringify(engine.snapshot()));
    expect(Engine.restore(snapshot).stateHash()).toBe(engine.stateHash());
  });

  it('keeps the last MIN_RESULT_RETENTION results readable, and refuses an older one', () => {
    const c = new CommandFactory('BTC-USDT');
    const engine = new Engine({ rememberedCommandsMax: 0 });
    for (const command of [c.register(btcUsdt()), c.deposit('a', 'USDT', '1000000')]) engine.apply(command);
    const place = () => engine.apply(c.limit('a', 'buy', 100, 1, { timeInForce: 'ioc' }));
    const first = place();
    const second = place();
    expect(first).toBeInstanceOf(LoggedResult);
    for (let n = 0; n < MIN_RESULT_RETENTION - 1; n++) place();
    // `first` was the oldest of the last MIN_RESULT_RETENTION + 1: gone; `second` is still here.
    expect(() => first.ok && first.events).toThrow(/has left the result log/);
    expect(() => new EventReader().read(first)).toThrow(/has left the result log/);
    expect(second.ok && second.events.map((e) => e.type)).toEqual(['order_placed', 'order_updated']);
  });

  it('grows its rings with results wrapped round them, keeping every result it holds', () => {
    // A small retention, so the log forgets as it goes and its live part wraps round the rings; results
    // that get longer make the rings grow while wrapped.
    const log = new ResultLog(5);
    log.begin();
    log.push({ type: 'trading_status_set', instrumentId: 'X', halted: true, timeMs: 0 });
    const unread = log.finishResult();
    const made: { result: LoggedResult; events: EngineEvent[] }[] = [];
    for (let n = 0; n < 400; n++) {
      const events: EngineEvent[] = Array.from({ length: 1 + 3 * n }, (_, k) => ({
        type: 'hold_released',
        holdId: `h${n}:${k}`,
        account: `acct${k}`,
        amount: BigInt(n * 1_000 + k),
        timeMs: n,
      }));
      log.begin();
      for (const e of events) log.push(e);
      made.push({ result: log.finishResult(), events });
      // Decoded from the rings each time (result.events would give what its first read cached), so a
      // growth that lost any live position, in either half, shows in the results written before it.
      for (const { result, events: expected } of made.slice(-5)) {
        expect(log.decodeEvents(result.numStart, result.numEnd, result.refStart)).toEqual(expected);
      }
    }
    expect(() => unread.events).toThrow(/has left the result log/);
  });

  it('lets a kept result be read however far the log has moved on', () => {
    const c = new CommandFactory('BTC-USDT');
    const engine = new Engine({ rememberedCommandsMax: 0 });
    for (const command of [c.register(btcUsdt()), c.deposit('a', 'USDT', '1000000')]) engine.apply(command);
    const place = () => engine.apply(c.limit('a', 'buy', 100, 1, { timeInForce: 'ioc' }));
    const first = place();
    if (!(first instanceof LoggedResult)) throw new Error('not a logged result');
    const types = first.events.map((e) => e.type);
    const kept = place();
    if (!(kept instanceof LoggedResult)) throw new Error('not a logged result');
    kept.keep();
    expect(kept.made).toBe(true);
    for (let n = 0; n < MIN_RESULT_RETENTION + 1; n++) place();
    expect(kept.events.map((e) => e.type)).toEqual(types);
    // The reader reads a kept result from its own events.
    expect(eventsRead(new EventReader(), kept)).toEqual(kept.events);
  });
});
