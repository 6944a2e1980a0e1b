// Owns the deliberately naive reference engine: plain arrays, filter and sort, bigint balances in a Map.
// It implements the same rules as @bourse/engine in the most obvious way, so the simulation can compare.
// Must hold: obviously correct over fast. Must not: import engine internals (only its public types).
//
// Halted trading, as a specification: while an instrument is halted nothing trades. An order that would
// trade on arrival (not post-only, no trigger) is accepted and held but waits in a queue (a market order's
// price is the protection price from the reference price, else the last trade); fill-or-kill is refused;
// post-only orders rest at once; triggers do not fire. On resume the queue goes in arrival order (a limit
// outside the band is rejected, a market order with nothing opposite is cancelled, else it takes at no
// worse than the protection price from the best opposite now nor than its held price), then triggers fire.
//
// Fees, as a specification: an order pays the fees in force when it was placed. It keeps its maker and
// taker bps from then on (through amends, halts and triggers); a fill charges the taker order's taker fee
// and the maker order's maker fee; a buy holds notional plus the larger of its own two fees.
// set_instrument_fees changes the fees for orders placed afterwards only.

import type { Command, InstrumentSpec, PlaceOrder, TriggerSpec } from '@bourse/engine';
import { BUILT_IN_ASSETS, bpsOf, notionalMinor, tryParseDecimal, unitOf } from '@bourse/money';

type NaiveOrder = {
  id: number;
  instrumentId: string;
  user: string;
  side: 'buy' | 'sell';
  orderType: 'limit' | 'market';
  tif: 'gtc' | 'ioc' | 'fok';
  postOnly: boolean;
  stp: string;
  trigger: TriggerSpec | null;
  /** In the book, waiting for its trigger, or queued while trading is halted. */
  where: 'book' | 'trigger' | 'queue';
  price: number;
  qty: number;
  filled: number;
  hold: bigint;
  holdKey: string;
  seq: number;
  /** The instrument's fees when the order was placed. */
  makerFeeBps: number;
  takerFeeBps: number;
};

type NaiveInstrument = {
  spec: InstrumentSpec;
  tick: bigint;
  lot: bigint;
  unit: bigint;
  band: [number, number] | null;
  reference: number | null;
  halted: boolean;
  last: number | null;
  mark: number | null;
};

export type NaiveTrade = [priceTicks: number, qtyLots: number, makerOrderId: number, takerOrderId: number];
/** Bought quantity held until settle_trades: [instrument id, trade id, user, lots]. */
export type NaiveLock = [instrumentId: string, tradeId: number, user: string, qtyLots: number];
type NaiveFundsHold = { key: string; asset: string; remaining: bigint };
/** What happened to orders, in order: the parts of the engine's events the simulation compares. */
export type NaiveEvent =
  | [kind: 'placed', orderId: number, priceTicks: number, queued: boolean]
  | [kind: 'trade', priceTicks: number, qtyLots: number, makerOrderId: number, takerOrderId: number]
  | [kind: 'triggered', orderId: number]
  | [kind: 'done', orderId: number, status: 'filled' | 'cancelled' | 'rejected', reason: string];
export type NaiveResult = { ok: true; trades: NaiveTrade[]; events: NaiveEvent[] } | { ok: false; code: string };

export class ReferenceEngine {
  readonly balances = new Map<string, { balance: bigint; held: bigint }>();
  /** Registered assets: code → scale (the built-in ones at genesis, then register_asset's). */
  readonly assets = new Map<string, number>(BUILT_IN_ASSETS.map((a) => [a.code, a.scale]));
  orders: NaiveOrder[] = [];
  readonly instruments = new Map<string, NaiveInstrument>();
  private nextOrderId = 1;
  private nextTradeId = 1;
  private seq = 0;
  /** Unsettled buys of lockBoughtUntilSettled instruments, in trade order. */
  locks: NaiveLock[] = [];
  /** Funds holds (hold_funds) by id. */
  readonly fundsHolds = new Map<string, NaiveFundsHold>();
  private trades: NaiveTrade[] = [];
  private events: NaiveEvent[] = [];
  readonly maxOpenOrdersPerUser: number;

  constructor(maxOpenOrdersPerUser: number) {
    this.maxOpenOrdersPerUser = maxOpenOrdersPerUser;
  }

  private acct(key: string): { balance: bigint; held: bigint } {
    let a = this.balances.get(key);
    if (!a) {
      a = { balance: 0n, held: 0n };
      this.balances.set(key, a);
    }
    return a;
  }

  private move(from: string, to: string, amount: bigint): void {
    if (amount === 0n) return;
    this.acct(from).balance -= amount;
    this.acct(to).balance += amount;
  }

  apply(command: Command): NaiveResult {
    this.trades = [];
    this.events = [];
    const code = this.dispatch(command);
    return code === undefined ? { ok: true, trades: this.trades, events: this.events } : { ok: false, code };
  }

  /** A registered asset, or a share named by its code (SHARE:EXCHANGE:SYMBOL, whole shares). */
  private findAsset(code: string): { code: string; scale: number } | undefined {
    const scale = this.assets.get(code);
    if (scale !== undefined) return { code, scale };
    return /^SHARE:[A-Z0-9_.-]+:[A-Z0-9_.&-]+$/.test(code) ? { code, scale: 0 } : undefined;
  }

  private dispatch(c: Command): string | undefined {
    switch (c.type) {
      case 'register_asset': {
        // 2-16 upper-case letters and digits from a letter, a whole scale 0-36, a kind other than share.
        const valid =
          typeof c.asset === 'string' &&
          /^[A-Z][A-Z0-9]{1,15}$/.test(c.asset) &&
          Number.isInteger(c.scale) &&
          c.scale >= 0 &&
          c.scale <= 36 &&
          ['fiat', 'crypto', 'collateral'].includes(c.kind);
        if (!valid) return 'invalid_asset';
        if (this.assets.has(c.asset)) return 'asset_exists';
        this.assets.set(c.asset, c.scale);
        return undefined;
      }
      case 'register_instrument': {
        const s = c.instrument;
        const base = this.findAsset(s.base);
        const quote = this.findAsset(s.quote);
        if (!base || !quote) return 'invalid_instrument';
        this.instruments.set(s.id, {
          spec: s,
          tick: tryParse(s.tickSize, quote.scale),
          lot: tryParse(s.lotSize, base.scale),
          unit: unitOf(base),
          band: null,
          reference: null,
          halted: false,
          last: null,
          mark: null,
        });
        return undefined;
      }
      case 'deposit': {
        const asset = this.findAsset(c.asset);
        if (!asset) return 'unknown_asset';
        this.move(
          `platform:${c.from}/platform/${c.asset}`,
          `${c.userId}/${c.wallet}/${c.asset}`,
          tryParse(c.amount, asset.scale),
        );
        return undefined;
      }
      case 'wallet_transfer': {
        const asset = this.findAsset(c.asset);
        if (!asset) return 'unknown_asset';
        const amount = tryParse(c.amount, asset.scale);
        const from = `${c.userId}/${c.fromWallet}/${c.asset}`;
        const a = this.acct(from);
        if (a.balance - a.held < amount) return 'insufficient_balance';
        this.move(from, `${c.userId}/${c.toWallet}/${c.asset}`, amount);
        return undefined;
      }
      case 'convert': {
        // The user pays one asset to the platform account and gets the other from it, both or neither.
        const paid = this.findAsset(c.asset);
        const got = this.findAsset(c.toAsset);
        if (!paid || !got) return 'unknown_asset';
        if (paid.code === got.code) return 'same_asset';
        const amount = tryParse(c.amount, paid.scale);
        const from = `${c.userId}/${c.wallet}/${c.asset}`;
        const a = this.acct(from);
        if (a.balance - a.held < amount) return 'insufficient_balance';
        this.move(from, `platform:${c.via}/platform/${c.asset}`, amount);
        this.move(
          `platform:${c.via}/platform/${c.toAsset}`,
          `${c.userId}/${c.wallet}/${c.toAsset}`,
          tryParse(c.toAmount, got.scale),
        );
        return undefined;
      }
      case 'set_reference_price': {
        const i = this.instruments.get(c.instrumentId);
        if (!i) return 'unknown_instrument';
        i.band = c.bandLoTicks !== undefined && c.bandHiTicks !== undefined ? [c.bandLoTicks, c.bandHiTicks] : null;
        i.reference = c.priceTicks;
        return undefined;
      }
      case 'set_trading_status': {
        const i = this.instruments.get(c.instrumentId);
        if (!i) return 'unknown_instrument';
        const wasHalted = i.halted;
        i.halted = c.halted;
        if (wasHalted && !c.halted) this.resume(c.instrumentId, i);
        return undefined;
      }
      case 'set_instrument_fees': {
        const i = this.instruments.get(c.instrumentId);
        if (!i) return 'unknown_instrument';
        const valid = (bps: unknown) => Number.isInteger(bps) && (bps as number) >= 0 && (bps as number) <= 1_000;
        if (!valid(c.makerFeeBps) || !valid(c.takerFeeBps)) return 'invalid_instrument';
        i.spec = { ...i.spec, makerFeeBps: c.makerFeeBps, takerFeeBps: c.takerFeeBps };
        return undefined;
      }
      case 'set_mark_price': {
        const i = this.instruments.get(c.instrumentId);
        if (!i) return 'unknown_instrument';
        i.mark = c.priceTicks;
        this.fireTriggers(c.instrumentId);
        return undefined;
      }
      case 'hold_funds': {
        const asset = this.findAsset(c.asset);
        if (!asset) return 'unknown_asset';
        const amount = tryParse(c.amount, asset.scale);
        const key = `${c.userId}/${c.wallet}/${c.asset}`;
        const a = this.acct(key);
        if (a.balance - a.held < amount) return 'insufficient_balance';
        a.held += amount;
        this.fundsHolds.set(c.id, { key, asset: c.asset, remaining: amount });
        return undefined;
      }
      case 'post_hold': {
        const hold = this.fundsHolds.get(c.holdId);
        if (!hold) return 'hold_not_found';
        const asset = this.findAsset(hold.asset);
        const amount = c.amount === undefined || !asset ? hold.remaining : tryParse(c.amount, asset.scale);
        if (amount > hold.remaining) return 'hold_amount_exceeded';
        // A fee leg: that part of the amount goes to `fees`, the rest to the rail, in the same step.
        const fee = c.fee === undefined || !asset ? 0n : tryParse(c.fee, asset.scale);
        if (c.fee !== undefined && (fee <= 0n || fee >= amount)) return 'invalid_amount';
        this.acct(hold.key).held -= amount;
        this.move(hold.key, `platform:${c.to}/platform/${hold.asset}`, amount - fee);
        this.move(hold.key, `platform:fees/platform/${hold.asset}`, fee);
        hold.remaining -= amount;
        if (hold.remaining === 0n) this.fundsHolds.delete(c.holdId);
        return undefined;
      }
      case 'void_hold': {
        const hold = this.fundsHolds.get(c.holdId);
        if (!hold) return 'hold_not_found';
        this.acct(hold.key).held -= hold.remaining;
        this.fundsHolds.delete(c.holdId);
        return undefined;
      }
      case 'settle_trades': {
        const i = this.instruments.get(c.instrumentId);
        if (!i) return 'unknown_instrument';
        const settled = this.locks.filter(([id, tradeId]) => id === c.instrumentId && tradeId <= c.upToTradeId);
        for (const [, , user, lots] of settled)
          this.acct(`${user}/${i.spec.wallet}/${i.spec.base}`).held -= BigInt(lots) * i.lot;
        this.locks = this.locks.filter((lock) => !settled.includes(lock));
        return undefined;
      }
      case 'place_order':
        return this.place(c);
      case 'cancel_order': {
        const o = this.orders.find((x) => x.id === c.orderId && x.user === c.userId);
        if (!o) return 'order_not_found';
        this.finish(o, 'cancelled', 'cancelled_by_user');
        return undefined;
      }
      case 'amend_order':
        return this.amend(c.userId, c.orderId, c.priceTicks, c.qtyLots);
      default:
        return 'invalid_command';
    }
  }

  private instrumentOfOrder(o: NaiveOrder): NaiveInstrument {
    return this.instruments.get(o.instrumentId) as NaiveInstrument;
  }

  /** A sell holds its quantity; a buy its notional plus the larger of the fees it pays. */
  private holdFor(i: NaiveInstrument, side: string, price: number, lots: number, fees: [number, number]): bigint {
    if (side === 'sell') return BigInt(lots) * i.lot;
    const n = notionalMinor(BigInt(price) * i.tick, BigInt(lots) * i.lot, i.unit, 'down');
    return n + bpsOf(n, Math.max(fees[0], fees[1]), 'down');
  }

  private outsideBand(i: NaiveInstrument, price: number): boolean {
    return i.band !== null && (price < i.band[0] || price > i.band[1]);
  }

  private openCount(user: string): number {
    return this.orders.filter((o) => o.user === user).length;
  }

  /** Resting orders of the other side that a taker at `price` could meet, best first then oldest. */
  private crossing(instrumentId: string, side: string, price: number): NaiveOrder[] {
    return this.orders
      .filter(
        (o) =>
          this.idOf(o) === instrumentId &&
          o.where === 'book' &&
          o.side !== side &&
          (side === 'buy' ? o.price <= price : o.price >= price),
      )
      .sort((a, b) => (side === 'buy' ? a.price - b.price : b.price - a.price) || a.seq - b.seq);
  }

  private idOf(o: NaiveOrder): string {
    return o.instrumentId;
  }

  bestOf(instrumentId: string, side: 'buy' | 'sell'): number {
    const prices = this.orders
      .filter((o) => this.idOf(o) === instrumentId && o.where === 'book' && o.side === side)
      .map((o) => o.price);
    if (prices.length === 0) return -1;
    return side === 'buy' ? Math.max(...prices) : Math.min(...prices);
  }

  /** The worst price a market order may trade at: `bps` beyond `from`, never outside the band or the book. */
  private protection(i: NaiveInstrument, side: 'buy' | 'sell', from: number): number {
    const bps = i.spec.marketProtectionBps;
    if (side === 'buy') {
      return Math.min(
        Math.floor((from * (10_000 + bps)) / 10_000),
        i.band ? i.band[1] : i.spec.maxPriceTicks,
        i.spec.maxPriceTicks,
      );
    }
    return Math.max(Math.ceil((from * (10_000 - bps)) / 10_000), i.band ? i.band[0] : 1, 1);
  }

  private place(c: PlaceOrder): string | undefined {
    const i = this.instruments.get(c.instrumentId);
    if (!i) return 'unknown_instrument';
    const tif = c.timeInForce ?? (c.orderType === 'market' ? 'ioc' : 'gtc');
    const stp = c.stp ?? i.spec.defaultStp;
    const trigger = c.trigger ?? null;
    if (c.qtyLots < i.spec.minQtyLots) return 'quantity_below_minimum';
    if (c.qtyLots > i.spec.maxQtyLots) return 'quantity_above_maximum';
    if (trigger) {
      const current = trigger.by === 'last' ? i.last : i.mark;
      const rises = (trigger.kind === 'stop') === (c.side === 'buy');
      if (current !== null && (rises ? current >= trigger.priceTicks : current <= trigger.priceTicks))
        return 'invalid_trigger_price';
    }
    // Halted: what would trade on arrival waits for the open; a post-only order never trades, so it rests.
    const queues = i.halted && !c.postOnly && !trigger;
    if (queues && tif === 'fok') return 'instrument_halted';
    let price: number;
    if (c.orderType === 'limit') {
      price = c.priceTicks as number;
      if (this.outsideBand(i, price)) return 'price_outside_band';
    } else {
      let from: number;
      if (queues) from = i.reference ?? i.last ?? -1;
      else if (trigger) from = trigger.priceTicks;
      else from = this.bestOf(c.instrumentId, c.side === 'buy' ? 'sell' : 'buy');
      if (from === -1) return 'no_liquidity';
      price = this.protection(i, c.side, from);
    }
    if ((trigger || tif === 'gtc' || queues) && this.openCount(c.userId) >= this.maxOpenOrdersPerUser)
      return 'open_order_limit';
    const hold = this.holdFor(i, c.side, price, c.qtyLots, [i.spec.makerFeeBps, i.spec.takerFeeBps]);
    const holdKey = `${c.userId}/${i.spec.wallet}/${c.side === 'buy' ? i.spec.quote : i.spec.base}`;
    const account = this.balances.get(holdKey);
    if (!account || account.balance - account.held < hold) return 'insufficient_balance';
    if (!trigger && !queues) {
      if (c.postOnly && this.crossing(c.instrumentId, c.side, price).length > 0) return 'post_only_would_take';
      if (tif === 'fok' && this.fillable(c.instrumentId, c.side, price, c.userId, stp, c.qtyLots) < c.qtyLots) {
        return 'fok_not_fillable';
      }
    }
    account.held += hold;
    const order: NaiveOrder = {
      id: this.nextOrderId++,
      instrumentId: c.instrumentId,
      user: c.userId,
      side: c.side,
      orderType: c.orderType,
      tif,
      postOnly: c.postOnly === true,
      stp,
      trigger,
      where: trigger ? 'trigger' : queues ? 'queue' : 'book',
      price,
      qty: c.qtyLots,
      filled: 0,
      hold,
      holdKey,
      seq: ++this.seq,
      makerFeeBps: i.spec.makerFeeBps,
      takerFeeBps: i.spec.takerFeeBps,
    };
    this.orders.push(order);
    this.events.push(['placed', order.id, price, queues]);
    if (order.where !== 'book') return undefined;
    this.execute(order);
    this.fireTriggers(c.instrumentId);
    return undefined;
  }

  /** Trading resumes: the queued orders go in arrival order, as new takers, then triggers fire. */
  private resume(instrumentId: string, i: NaiveInstrument): void {
    const queued = this.orders.filter((o) => o.instrumentId === instrumentId && o.where === 'queue');
    queued.sort((a, b) => a.id - b.id);
    for (const order of queued) {
      order.where = 'book';
      if (order.orderType === 'limit' && this.outsideBand(i, order.price)) {
        this.finish(order, 'rejected', 'price_outside_band');
        continue;
      }
      if (order.orderType === 'market') {
        const best = this.bestOf(instrumentId, order.side === 'buy' ? 'sell' : 'buy');
        if (best === -1) {
          this.finish(order, 'cancelled', 'no_liquidity');
          continue;
        }
        const now = this.protection(i, order.side, best);
        // Never beyond the price its funds were held for.
        order.price = order.side === 'buy' ? Math.min(order.price, now) : Math.max(order.price, now);
      }
      order.seq = ++this.seq;
      this.execute(order);
    }
    this.fireTriggers(instrumentId);
  }

  private fillable(instrumentId: string, side: string, price: number, user: string, stp: string, qty: number): number {
    let found = 0;
    for (const o of this.crossing(instrumentId, side, price)) {
      if (o.user === user) {
        if (stp !== 'cancel_resting') return found;
        continue;
      }
      found += o.qty - o.filled;
      if (found >= qty) return qty;
    }
    return found;
  }

  private execute(taker: NaiveOrder): void {
    const i = this.instrumentOfOrder(taker);
    let stopped = false;
    for (const maker of this.crossing(this.idOf(taker), taker.side, taker.price)) {
      if (taker.filled === taker.qty) break;
      if (maker.user === taker.user) {
        if (taker.stp === 'cancel_taker') {
          stopped = true;
          break;
        }
        this.finish(maker, 'cancelled', 'self_trade_prevented');
        if (taker.stp === 'cancel_both') {
          stopped = true;
          break;
        }
        continue;
      }
      const lots = Math.min(taker.qty - taker.filled, maker.qty - maker.filled);
      this.settle(i, taker, maker, maker.price, lots);
      if (maker.filled === maker.qty) this.finish(maker, 'filled', 'fill');
    }
    const left = taker.qty - taker.filled;
    if (left === 0) this.finish(taker, 'filled', 'fill');
    else if (stopped) this.finish(taker, 'cancelled', 'self_trade_prevented');
    else if (taker.orderType === 'market') this.finish(taker, 'cancelled', 'market_protection');
    else if (taker.tif === 'fok') this.finish(taker, 'cancelled', 'fok_not_fillable');
    else if (taker.tif === 'ioc') this.finish(taker, 'cancelled', 'unfilled_ioc');
    else taker.seq = ++this.seq;
  }

  private settle(i: NaiveInstrument, taker: NaiveOrder, maker: NaiveOrder, price: number, lots: number): void {
    const buyer = taker.side === 'buy' ? taker : maker;
    const seller = buyer === taker ? maker : taker;
    const qty = BigInt(lots) * i.lot;
    const notional = notionalMinor(BigInt(price) * i.tick, qty, i.unit, 'down');
    const takerFee = bpsOf(notional, taker.takerFeeBps, 'down');
    const makerFee = bpsOf(notional, maker.makerFeeBps, 'down');
    const buyerFee = buyer === taker ? takerFee : makerFee;
    const sellerFee = buyer === taker ? makerFee : takerFee;
    const w = i.spec.wallet;
    const fees = `platform:fees/platform/${i.spec.quote}`;
    this.move(buyer.holdKey, `${seller.user}/${w}/${i.spec.quote}`, notional);
    this.move(seller.holdKey, `${buyer.user}/${w}/${i.spec.base}`, qty);
    this.move(buyer.holdKey, fees, buyerFee);
    this.move(`${seller.user}/${w}/${i.spec.quote}`, fees, sellerFee);
    this.acct(buyer.holdKey).held -= notional + buyerFee;
    buyer.hold -= notional + buyerFee;
    this.acct(seller.holdKey).held -= qty;
    seller.hold -= qty;
    taker.filled += lots;
    maker.filled += lots;
    i.last = price;
    const tradeId = this.nextTradeId++;
    if (i.spec.lockBoughtUntilSettled === true) {
      this.acct(`${buyer.user}/${w}/${i.spec.base}`).held += qty;
      this.locks.push([i.spec.id, tradeId, buyer.user, lots]);
    }
    this.trades.push([price, lots, maker.id, taker.id]);
    this.events.push(['trade', price, lots, maker.id, taker.id]);
  }

  private finish(o: NaiveOrder, status: 'filled' | 'cancelled' | 'rejected', reason: string): void {
    this.acct(o.holdKey).held -= o.hold;
    o.hold = 0n;
    this.orders = this.orders.filter((x) => x !== o);
    this.events.push(['done', o.id, status, reason]);
  }

  private fireTriggers(instrumentId: string): void {
    const i = this.instruments.get(instrumentId) as NaiveInstrument;
    if (i.halted) return;
    for (;;) {
      const order = this.nextFired(instrumentId, i);
      if (!order) return;
      order.where = 'book';
      order.seq = ++this.seq;
      this.events.push(['triggered', order.id]);
      if (order.orderType === 'limit' && this.outsideBand(i, order.price)) {
        this.finish(order, 'rejected', 'price_outside_band');
        continue;
      }
      if (
        order.tif === 'fok' &&
        this.fillable(instrumentId, order.side, order.price, order.user, order.stp, order.qty) < order.qty
      ) {
        this.finish(order, 'cancelled', 'fok_not_fillable');
        continue;
      }
      this.execute(order);
    }
  }

  private nextFired(instrumentId: string, i: NaiveInstrument): NaiveOrder | undefined {
    for (const [by, rises] of [
      ['last', true],
      ['last', false],
      ['mark', true],
      ['mark', false],
    ] as const) {
      const price = by === 'last' ? i.last : i.mark;
      if (price === null) continue;
      const fired = this.orders
        .filter((o) => this.idOf(o) === instrumentId && o.where === 'trigger' && o.trigger?.by === by)
        .filter((o) => (((o.trigger as TriggerSpec).kind === 'stop') === (o.side === 'buy')) === rises)
        .filter((o) =>
          rises ? price >= (o.trigger as TriggerSpec).priceTicks : price <= (o.trigger as TriggerSpec).priceTicks,
        )
        .sort(
          (a, b) =>
            (rises ? 1 : -1) * ((a.trigger as TriggerSpec).priceTicks - (b.trigger as TriggerSpec).priceTicks) ||
            a.id - b.id,
        );
      if (fired[0]) return fired[0];
    }
    return undefined;
  }

  private amend(
    user: string,
    orderId: number,
    newPrice: number | undefined,
    newQty: number | undefined,
  ): string | undefined {
    const o = this.orders.find((x) => x.id === orderId && x.user === user);
    if (!o) return 'order_not_found';
    if (o.where !== 'book') return 'order_not_amendable';
    const i = this.instrumentOfOrder(o);
    const price = newPrice ?? o.price;
    const qty = newQty ?? o.qty;
    if (price === o.price && qty === o.qty) return 'amend_no_change';
    if (qty <= o.filled) return 'invalid_quantity';
    if (qty < i.spec.minQtyLots) return 'quantity_below_minimum';
    if (qty > i.spec.maxQtyLots) return 'quantity_above_maximum';
    if (price !== o.price && this.outsideBand(i, price)) return 'price_outside_band';
    const required = this.holdFor(i, o.side, price, qty - o.filled, [o.makerFeeBps, o.takerFeeBps]);
    const account = this.acct(o.holdKey);
    if (price === o.price && qty < o.qty) {
      o.qty = qty;
      if (o.hold > required) {
        account.held -= o.hold - required;
        o.hold = required;
      }
      return undefined;
    }
    if (o.postOnly && this.crossing(this.idOf(o), o.side, price).length > 0) return 'post_only_would_take';
    // Nothing trades while halted: an amend that would meet the other side must wait for the open.
    if (i.halted && this.crossing(this.idOf(o), o.side, price).length > 0) return 'instrument_halted';
    if (required - o.hold > account.balance - account.held) return 'insufficient_balance';
    account.held += required - o.hold;
    o.hold = required;
    o.price = price;
    o.qty = qty;
    o.seq = ++this.seq;
    this.execute(o);
    this.fireTriggers(this.idOf(o));
    return undefined;
  }

  /** [ticks, lots] per level of resting orders, best first. */
  depth(instrumentId: string, side: 'buy' | 'sell'): [number, number][] {
    const levels = new Map<number, number>();
    for (const o of this.orders) {
      if (this.idOf(o) !== instrumentId || o.where !== 'book' || o.side !== side) continue;
      levels.set(o.price, (levels.get(o.price) ?? 0) + o.qty - o.filled);
    }
    return [...levels].sort((a, b) => (side === 'buy' ? b[0] - a[0] : a[0] - b[0]));
  }

  liveOrderIds(user: string): number[] {
    return this.orders.filter((o) => o.user === user).map((o) => o.id);
  }

  restingOrderIds(user: string): number[] {
    return this.orders.filter((o) => o.user === user && o.where === 'book').map((o) => o.id);
  }

  /** Orders placed while halted that wait for the open. */
  queuedOrderIds(user: string): number[] {
    return this.orders.filter((o) => o.user === user && o.where === 'queue').map((o) => o.id);
  }

  /** A user's live orders as [id, where, price, remaining lots, hold], by id. */
  ordersOf(user: string): [number, string, number, number, bigint][] {
    return this.orders
      .filter((o) => o.user === user)
      .sort((a, b) => a.id - b.id)
      .map((o) => [o.id, o.where, o.price, o.qty - o.filled, o.hold]);
  }

  isHalted(instrumentId: string): boolean {
    return this.instruments.get(instrumentId)?.halted === true;
  }
}

function tryParse(text: string, scale: number): bigint {
  const parsed = tryParseDecimal(text, scale);
  if (!parsed.ok) throw new Error(`reference engine: bad decimal ${text}`);
  return parsed.minor;
}
