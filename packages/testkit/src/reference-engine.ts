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

//
// Perpetuals, as a specification: every order holds collateral on the contract wallet: its fee plus
// initial margin (notional ÷ leverage, rounded down) for what it would open beyond the position it closes.
// A fill pays both fees from the orders' holds, then changes each side's position: a closing part realises
// PnL through platform:clearing (loss from the margin, beyond it from the insurance fund; the closed share
// of margin less its loss is released), an opening part takes its margin from the order's hold (keeping
// the fee of the order's rest), then from the free balance. A liquidation (equity at the mark at or below
// maintenance margin) sends a fee-free IOC order no worse than the fund can pay, ADLs the rest against the
// opposite positions (most profitable × leveraged first) at the bankruptcy price, and the margin left goes
// to the fund. Funding: payers (longs when positive) pay notional at mark × rate from margin into
// platform:funding; receivers share it by size, dust one unit each in opening order.

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
  /** Perpetuals: only reduces the position; cut to it (or cancelled) when it executes. */
  reduceOnly: boolean;
};

type NaiveTier = { floor: bigint; mmr: bigint; maxLeverage: number; cum: bigint };
type NaivePosition = { size: number; entry: bigint; margin: bigint };
type NaivePerp = {
  tiers: NaiveTier[];
  maxLeverage: number;
  defaultLeverage: number;
  positions: Map<string, NaivePosition>;
  leverage: Map<string, number>;
};

type NaiveInstrument = {
  spec: InstrumentSpec;
  perp: NaivePerp | null;
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
  /** Open option positions by id (buy_option), and every position id ever opened. */
  readonly options = new Map<string, { user: string; key: string; asset: string; expiresMs: number }>();
  private readonly optionIds = new Set<string>();
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
          perp: s.kind === 'perpetual' && s.perpetual ? naivePerp(s.perpetual, quote.scale) : null,
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
      case 'settle_allotment': {
        // Every entry is checked first: the batch settles whole or not at all.
        const asset = this.findAsset(c.asset);
        if (!asset) return 'unknown_asset';
        const settled: [NaiveFundsHold, string, bigint, bigint][] = [];
        for (const [holdId, payText, qtyText] of c.entries) {
          const hold = this.fundsHolds.get(holdId);
          const holdAsset = hold && this.findAsset(hold.asset);
          if (!hold || !holdAsset || settled.some(([, id]) => id === holdId)) return 'allocation_invalid';
          const pay = tryParseDecimal(payText, holdAsset.scale);
          const qty = tryParseDecimal(qtyText, asset.scale);
          if (!pay.ok || !qty.ok || pay.minor < 0n || qty.minor < 0n || pay.minor > hold.remaining)
            return 'allocation_invalid';
          if ((pay.minor === 0n) !== (qty.minor === 0n)) return 'allocation_invalid';
          settled.push([hold, holdId, pay.minor, qty.minor]);
        }
        for (const [hold, holdId, pay, qty] of settled) {
          this.acct(hold.key).held -= hold.remaining;
          this.fundsHolds.delete(holdId);
          if (pay === 0n) continue;
          const owner = hold.key.split('/')[0] as string;
          const to = `${owner}/${c.wallet}/${c.asset}`;
          this.move(hold.key, `platform:${c.to}/platform/${hold.asset}`, pay);
          this.move(`platform:${c.to}/platform/${c.asset}`, to, qty);
          if (c.lock) {
            this.acct(to).held += qty;
            this.fundsHolds.set(`lock:${holdId}`, { key: to, asset: c.asset, remaining: qty });
          }
        }
        return undefined;
      }
      case 'platform_transfer': {
        const asset = this.findAsset(c.asset);
        if (!asset) return 'unknown_asset';
        if (c.from === c.to) return 'same_account';
        this.move(
          `platform:${c.from}/platform/${c.asset}`,
          `platform:${c.to}/platform/${c.asset}`,
          tryParse(c.amount, asset.scale),
        );
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
      case 'buy_option': {
        // The premium goes to the market maker; the position is kept until a close or the expiry.
        const wallets = ['spot', 'stock', 'contract', 'margin', 'fund', 'robot', 'loan'];
        if (!wallets.includes(c.wallet) || !Number.isSafeInteger(c.contracts) || c.contracts < 1 || c.contracts > 1e6)
          return 'invalid_command';
        const asset = this.assets.has(c.asset) ? { scale: this.assets.get(c.asset) as number } : undefined;
        if (!asset) return 'unknown_asset';
        const amount = tryParseDecimal(c.amount, asset.scale);
        if (!amount.ok || amount.minor <= 0n) return 'invalid_amount';
        if (c.timeMs >= c.expiresMs) return 'option_expired';
        if (this.optionIds.has(c.positionId)) return 'option_exists';
        const key = `${c.userId}/${c.wallet}/${c.asset}`;
        const from = this.balances.get(key);
        if (!from || from.balance - from.held < amount.minor) return 'insufficient_balance';
        this.move(key, `platform:options_maker/platform/${c.asset}`, amount.minor);
        this.optionIds.add(c.positionId);
        this.options.set(c.positionId, { user: c.userId, key, asset: c.asset, expiresMs: c.expiresMs });
        return undefined;
      }
      case 'close_option': {
        const p = this.options.get(c.positionId);
        if (!p || p.user !== c.userId) return 'option_not_found';
        if (c.timeMs >= p.expiresMs) return 'option_expired';
        const amount = tryParseDecimal(c.amount, this.assets.get(p.asset) as number);
        if (!amount.ok || amount.minor < 0n) return 'invalid_amount';
        this.move(`platform:options_maker/platform/${p.asset}`, p.key, amount.minor);
        this.options.delete(c.positionId);
        return undefined;
      }
      case 'settle_options': {
        // All checked first: the batch settles whole or not at all.
        if (c.entries.length === 0) return 'invalid_command';
        const paid: [string, string, bigint][] = [];
        for (const [positionId, payoutText] of c.entries) {
          if (paid.some(([id]) => id === positionId)) return 'invalid_command';
          const p = this.options.get(positionId);
          if (!p) return 'option_not_found';
          if (c.timeMs < p.expiresMs) return 'option_not_expired';
          const payout = tryParseDecimal(payoutText, this.assets.get(p.asset) as number);
          if (!payout.ok || payout.minor < 0n) return 'invalid_amount';
          paid.push([positionId, p.key, payout.minor]);
        }
        for (const [positionId, key, payout] of paid) {
          const p = this.options.get(positionId) as { asset: string };
          this.move(`platform:options_maker/platform/${p.asset}`, key, payout);
          this.options.delete(positionId);
        }
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
      case 'set_leverage':
      case 'adjust_margin':
      case 'liquidate':
      case 'apply_funding':
        return this.positionsCommand(c);
      default:
        return 'invalid_command';
    }
  }

  private instrumentOfOrder(o: NaiveOrder): NaiveInstrument {
    return this.instruments.get(o.instrumentId) as NaiveInstrument;
  }

  /** A sell holds its quantity; a buy its notional plus the larger of the fees it pays; a perpetual, above. */
  private holdFor(
    i: NaiveInstrument,
    side: string,
    price: number,
    lots: number,
    fees: [number, number],
    user: string,
    reduceOnly = false,
  ): bigint {
    if (i.perp) {
      const fee = bpsOf(this.notional(i, price, lots), Math.max(fees[0], fees[1]), 'down');
      const open = reduceOnly ? 0 : this.openingLots(i, user, side, lots);
      return fee + (open > 0 ? this.notional(i, price, open) / BigInt(this.leverageOf(i, user)) : 0n);
    }
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
    const reduceOnly = c.reduceOnly === true;
    if (reduceOnly) {
      if (!i.perp || c.postOnly === true || tif === 'gtc') return 'invalid_command';
      if (this.reducible(i, c.userId, c.side) === 0) return 'reduce_only_rejected';
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
    if (i.perp && !reduceOnly && this.tierRefuses(i, c.userId, c.side, price, c.qtyLots)) return 'invalid_leverage';
    const fees: [number, number] = [i.spec.makerFeeBps, i.spec.takerFeeBps];
    const hold = this.holdFor(i, c.side, price, c.qtyLots, fees, c.userId, reduceOnly);
    const holdKey = `${c.userId}/${i.spec.wallet}/${c.side === 'buy' || i.perp ? i.spec.quote : i.spec.base}`;
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
      reduceOnly,
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
    if (taker.reduceOnly) {
      const closable = this.reducible(i, taker.user, taker.side);
      if (closable === 0) {
        this.finish(taker, 'cancelled', 'reduce_only');
        return;
      }
      if (taker.qty - taker.filled > closable) taker.qty = taker.filled + closable;
    }
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
    if (i.perp) {
      this.settlePerp(i, taker, maker, price, lots);
      return;
    }
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
    const required = this.holdFor(i, o.side, price, qty - o.filled, [o.makerFeeBps, o.takerFeeBps], o.user);
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

  // --- perpetuals ---

  private notional(i: NaiveInstrument, price: number, lots: number): bigint {
    return notionalMinor(BigInt(price) * i.tick, BigInt(lots) * i.lot, i.unit, 'down');
  }

  private leverageOf(i: NaiveInstrument, user: string): number {
    const perp = i.perp as NaivePerp;
    return perp.leverage.get(user) ?? perp.defaultLeverage;
  }

  private openingLots(i: NaiveInstrument, user: string, side: string, lots: number): number {
    const p = (i.perp as NaivePerp).positions.get(user);
    if (!p) return lots;
    const closes = (side === 'buy') !== p.size > 0;
    return closes ? Math.max(0, lots - Math.abs(p.size)) : lots;
  }

  /** Lots an order of `side` can close of the user's position (0 without an opposite one). */
  private reducible(i: NaiveInstrument, user: string, side: string): number {
    const p = i.perp?.positions.get(user);
    return p && (side === 'buy') === p.size < 0 ? Math.abs(p.size) : 0;
  }

  private tierRefuses(i: NaiveInstrument, user: string, side: string, price: number, lots: number): boolean {
    const open = this.openingLots(i, user, side, lots);
    if (open === 0) return false;
    const p = (i.perp as NaivePerp).positions.get(user);
    const same = p !== undefined && (side === 'buy') === p.size > 0;
    const notional = this.notional(i, price, open) + (same ? (p as NaivePosition).entry : 0n);
    return this.leverageOf(i, user) > tierOf(i, notional).maxLeverage;
  }

  private contract(i: NaiveInstrument, user: string): string {
    return `${user}/contract/${i.spec.quote}`;
  }

  private settlePerp(i: NaiveInstrument, taker: NaiveOrder, maker: NaiveOrder, price: number, lots: number): void {
    const n = this.notional(i, price, lots);
    const fees = `platform:fees/platform/${i.spec.quote}`;
    for (const [o, bps] of [
      [taker, taker.takerFeeBps],
      [maker, maker.makerFeeBps],
    ] as const) {
      // A fee beyond the hold comes from the free balance; beyond that it is waived.
      const account = this.acct(o.holdKey);
      const free = account.balance - account.held;
      const most = o.hold + (free > 0n ? free : 0n);
      const wanted = bpsOf(n, bps, 'down');
      const fee = wanted < most ? wanted : most;
      const fromHold = fee < o.hold ? fee : o.hold;
      this.move(o.holdKey, fees, fee);
      account.held -= fromHold;
      o.hold -= fromHold;
      this.changePosition(i, o.user, o.side === 'buy' ? lots : -lots, price, o, this.liquidating === o.user);
    }
    taker.filled += lots;
    maker.filled += lots;
    i.last = price;
    this.nextTradeId++;
    this.trades.push([price, lots, maker.id, taker.id]);
    this.events.push(['trade', price, lots, maker.id, taker.id]);
  }

  /** The user being liquidated while the liquidation's order trades. */
  private liquidating: string | null = null;

  private changePosition(
    i: NaiveInstrument,
    user: string,
    delta: number,
    price: number,
    order: NaiveOrder | null,
    liquidation: boolean,
  ): void {
    const perp = i.perp as NaivePerp;
    let p = perp.positions.get(user);
    let remaining = Math.abs(delta);
    if (p && Math.sign(p.size) !== Math.sign(delta)) {
      const closed = Math.min(remaining, Math.abs(p.size));
      this.reduce(i, user, p, closed, price, liquidation);
      remaining -= closed;
    }
    if (remaining > 0) {
      if (!p) {
        p = { size: 0, entry: 0n, margin: 0n };
        perp.positions.set(user, p);
      }
      this.increase(i, user, p, Math.sign(delta) * remaining, price, order);
    }
    if (p && p.size === 0 && !liquidation) {
      this.acct(this.contract(i, user)).held -= p.margin;
      perp.positions.delete(user);
    }
  }

  private increase(
    i: NaiveInstrument,
    user: string,
    p: NaivePosition,
    lots: number,
    price: number,
    order: NaiveOrder | null,
  ): void {
    const n = this.notional(i, price, Math.abs(lots));
    const wanted = n / BigInt(this.leverageOf(i, user));
    const account = this.acct(this.contract(i, user));
    let fromOrder = 0n;
    if (order && wanted > 0n) {
      const rest = order.qty - order.filled - Math.abs(lots);
      const fee = Math.max(order.makerFeeBps, order.takerFeeBps);
      const reserve = rest > 0 ? bpsOf(this.notional(i, order.price, rest), fee, 'down') : 0n;
      const spare = order.hold - reserve;
      fromOrder = spare <= 0n ? 0n : spare < wanted ? spare : wanted;
      order.hold -= fromOrder;
      account.held -= fromOrder;
    }
    const free = account.balance - account.held;
    const extra = wanted - fromOrder;
    const fromBalance = extra <= 0n ? 0n : free < extra ? (free > 0n ? free : 0n) : extra;
    p.margin += fromOrder + fromBalance;
    account.held += fromOrder + fromBalance;
    p.entry += n;
    p.size += lots;
  }

  private reduce(
    i: NaiveInstrument,
    user: string,
    p: NaivePosition,
    lots: number,
    price: number,
    liquidation: boolean,
  ): void {
    const size = Math.abs(p.size);
    const side = p.size > 0 ? 1 : -1;
    const whole = lots === size;
    const entryPart = whole
      ? p.entry
      : side === 1
        ? ceil(p.entry * BigInt(lots), BigInt(size))
        : (p.entry * BigInt(lots)) / BigInt(size);
    const marginPart = whole ? p.margin : (p.margin * BigInt(lots)) / BigInt(size);
    const exit = this.notional(i, price, lots);
    const pnl = side === 1 ? exit - entryPart : entryPart - exit;
    const account = this.contract(i, user);
    const clearing = `platform:clearing/platform/${i.spec.quote}`;
    let paid = 0n;
    if (pnl > 0n) this.move(clearing, account, pnl);
    if (pnl < 0n) {
      const loss = -pnl;
      paid = smaller(p.margin, loss);
      this.move(account, clearing, paid);
      this.acct(account).held -= paid;
      p.margin -= paid;
      this.move(`platform:insurance_fund/platform/${i.spec.quote}`, clearing, -pnl - paid);
    }
    p.entry -= entryPart;
    p.size -= side * lots;
    if (!liquidation) {
      let release = marginPart - paid;
      if (release > p.margin) release = p.margin;
      if (release > 0n) {
        p.margin -= release;
        this.acct(account).held -= release;
      }
    }
  }

  private markNotional(i: NaiveInstrument, p: NaivePosition): bigint {
    const size = BigInt(Math.abs(p.size)) * i.lot;
    return notionalMinor(BigInt(i.mark as number) * i.tick, size, i.unit, p.size > 0 ? 'down' : 'up');
  }

  private pnlAt(p: NaivePosition, notional: bigint): bigint {
    return p.size > 0 ? notional - p.entry : p.entry - notional;
  }

  private positionsCommand(
    c: Extract<Command, { type: 'set_leverage' | 'adjust_margin' | 'liquidate' | 'apply_funding' }>,
  ): string | undefined {
    const i = this.instruments.get(c.instrumentId);
    if (!i) return 'unknown_instrument';
    if (!i.perp) return 'invalid_instrument';
    const perp = i.perp;
    if (c.type === 'apply_funding') return this.funding(i, perp, c.ratePpm);
    if (c.type === 'set_leverage') {
      if (!Number.isInteger(c.leverage) || c.leverage < 1 || c.leverage > perp.maxLeverage) return 'invalid_leverage';
      const p = perp.positions.get(c.userId);
      if (c.leverage > tierOf(i, p?.entry ?? 0n).maxLeverage) return 'invalid_leverage';
      if (this.orders.some((o) => o.user === c.userId && o.instrumentId === c.instrumentId))
        return 'leverage_open_orders';
      let needed = 0n;
      if (p) {
        needed = p.entry / BigInt(c.leverage) - p.margin;
        const account = this.acct(this.contract(i, c.userId));
        if (needed > 0n && account.balance - account.held < needed) return 'leverage_funds';
        if (needed > 0n) {
          p.margin += needed;
          account.held += needed;
        }
      }
      perp.leverage.set(c.userId, c.leverage);
      return undefined;
    }
    if (c.type === 'adjust_margin') {
      const amount = signedMinor(c.amount, this.assets.get(i.spec.quote) as number);
      if (amount === undefined) return 'invalid_amount';
      const p = perp.positions.get(c.userId);
      if (!p) return 'position_not_found';
      const account = this.acct(this.contract(i, c.userId));
      if (amount > 0n) {
        if (account.balance - account.held < amount) return 'insufficient_balance';
      } else {
        const notional = i.mark === null ? 0n : this.markNotional(i, p);
        const pnl = i.mark === null ? 0n : this.pnlAt(p, notional);
        const basis = notional > p.entry ? notional : p.entry;
        const needed = basis / BigInt(this.leverageOf(i, c.userId));
        if (p.margin + amount + (pnl < 0n ? pnl : 0n) < needed) return 'insufficient_margin';
      }
      p.margin += amount;
      account.held += amount;
      return undefined;
    }
    return this.liquidate(i, perp, c.userId);
  }

  private liquidatable(i: NaiveInstrument, p: NaivePosition): boolean {
    if (i.mark === null) return false;
    const notional = this.markNotional(i, p);
    const tier = tierOf(i, notional);
    const scaled = notional * tier.mmr - tier.cum;
    const maintenance = scaled <= 0n ? 0n : ceil(scaled, 1_000_000n);
    return p.margin + this.pnlAt(p, notional) <= maintenance;
  }

  private bankruptcyTicks(i: NaiveInstrument, p: NaivePosition): number {
    const size = BigInt(Math.abs(p.size)) * i.lot;
    let ticks: bigint;
    if (p.size > 0) {
      const value = p.entry - p.margin;
      ticks = value <= 0n ? 1n : ceil(ceil(value * i.unit, size), i.tick);
    } else ticks = ((p.entry + p.margin) * i.unit) / size / i.tick;
    const max = BigInt(i.spec.maxPriceTicks);
    return Number(ticks < 1n ? 1n : ticks > max ? max : ticks);
  }

  private liquidate(i: NaiveInstrument, perp: NaivePerp, user: string): string | undefined {
    const p = perp.positions.get(user);
    if (!p) return 'position_not_found';
    if (!this.liquidatable(i, p)) return 'not_liquidatable';
    // The customer's other orders on the contract are cancelled first, oldest first.
    const others = this.orders.filter((o) => o.user === user && o.instrumentId === i.spec.id);
    for (const o of others.sort((a, b) => a.id - b.id)) this.finish(o, 'cancelled', 'liquidation');
    const fundKey = `platform:insurance_fund/platform/${i.spec.quote}`;
    const account = this.contract(i, user);
    if (!i.halted) {
      const fundBalance = this.acct(fundKey).balance;
      const fund = fundBalance > 0n ? fundBalance : 0n;
      const size = BigInt(Math.abs(p.size)) * i.lot;
      const max = i.spec.maxPriceTicks;
      const side = p.size > 0 ? 'sell' : 'buy';
      let limit: number;
      if (side === 'sell') {
        const floor = p.entry - p.margin - fund;
        const exact = floor <= 0n ? 1n : ceil(ceil(floor * i.unit, size), i.tick);
        limit = Number(exact > BigInt(max) ? BigInt(max) : exact);
        const best = this.bestOf(i.spec.id, 'buy');
        if (best !== -1) limit = Math.max(limit, this.protection(i, 'sell', best));
      } else {
        const ceiling = p.entry + p.margin + fund;
        limit = Math.min(Number((ceiling * i.unit) / size / i.tick), max);
        const best = this.bestOf(i.spec.id, 'sell');
        if (best !== -1) limit = Math.min(limit, this.protection(i, 'buy', best));
      }
      const order: NaiveOrder = {
        id: this.nextOrderId++,
        instrumentId: i.spec.id,
        user,
        side,
        orderType: 'limit',
        tif: 'ioc',
        postOnly: false,
        stp: 'cancel_taker',
        trigger: null,
        where: 'book',
        price: limit,
        qty: Math.abs(p.size),
        filled: 0,
        hold: 0n,
        holdKey: account,
        seq: ++this.seq,
        makerFeeBps: 0,
        takerFeeBps: 0,
        reduceOnly: false,
      };
      this.orders.push(order);
      this.events.push(['placed', order.id, limit, false]);
      this.liquidating = user;
      this.execute(order);
      this.liquidating = null;
    }
    if (p.size !== 0) {
      const ticks = this.bankruptcyTicks(i, p);
      const side = p.size > 0 ? -1 : 1;
      const ranked = [...perp.positions]
        .filter(([, q]) => Math.sign(q.size) === side)
        .map(([who, q]) => {
          const notional = this.markNotional(i, q);
          const pnl = this.pnlAt(q, notional);
          const margin = q.margin > 0n ? q.margin : 1n;
          const equity = margin + pnl > 0n ? margin + pnl : 1n;
          return { who, q, num: pnl * notional, den: margin * equity };
        })
        .sort((a, b) => {
          const left = a.num * b.den;
          const right = b.num * a.den;
          return left > right ? -1 : left < right ? 1 : 0;
        });
      for (const { who, q } of ranked) {
        if (p.size === 0) break;
        const lots = Math.min(Math.abs(p.size), Math.abs(q.size));
        const direction = Math.sign(p.size);
        this.changePosition(i, user, -direction * lots, ticks, null, true);
        this.changePosition(i, who, direction * lots, ticks, null, false);
      }
    }
    this.move(account, fundKey, p.margin);
    this.acct(account).held -= p.margin;
    perp.positions.delete(user);
    this.fireTriggers(i.spec.id);
    return undefined;
  }

  private funding(i: NaiveInstrument, perp: NaivePerp, rate: number): string | undefined {
    if (!Number.isSafeInteger(rate) || Math.abs(rate) > 100_000) return 'invalid_command';
    if (i.mark === null) return 'no_liquidity';
    if (rate === 0) return undefined;
    const pool = `platform:funding/platform/${i.spec.quote}`;
    const payer = rate > 0 ? 1 : -1;
    const all = [...perp.positions];
    let paid = 0n;
    for (const [user, p] of all) {
      if (Math.sign(p.size) !== payer) continue;
      const owed = (this.notional(i, i.mark as number, Math.abs(p.size)) * BigInt(Math.abs(rate))) / 1_000_000n;
      const amount = owed < p.margin ? owed : p.margin;
      this.move(this.contract(i, user), pool, amount);
      this.acct(this.contract(i, user)).held -= amount;
      p.margin -= amount;
      paid += amount;
    }
    const receivers = all.filter(([, p]) => Math.sign(p.size) !== payer);
    const total = BigInt(receivers.reduce((sum, [, p]) => sum + Math.abs(p.size), 0));
    if (total === 0n) return undefined;
    const shares = receivers.map(([, p]) => (paid * BigInt(Math.abs(p.size))) / total);
    let dust = paid - shares.reduce((a, b) => a + b, 0n);
    for (let k = 0; k < shares.length && dust > 0n; k++, dust--) shares[k] = (shares[k] as bigint) + 1n;
    receivers.forEach(([user, p], k) => {
      const share = shares[k] as bigint;
      this.move(pool, this.contract(i, user), share);
      this.acct(this.contract(i, user)).held += share;
      p.margin += share;
    });
    return undefined;
  }

  /** Open positions of a perpetual as [user, size lots, entry, margin], in opening order. */
  positionsOf(instrumentId: string): [string, number, bigint, bigint][] {
    const perp = this.instruments.get(instrumentId)?.perp;
    return perp ? [...perp.positions].map(([user, p]) => [user, p.size, p.entry, p.margin]) : [];
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

function smaller(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/** ⌈a / b⌉ for a ≥ 0, b > 0. */
function ceil(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** The tier a notional falls in: the last whose floor it reaches. */
function tierOf(i: NaiveInstrument, notional: bigint): NaiveTier {
  const tiers = (i.perp as NaivePerp).tiers;
  return tiers.filter((t) => notional >= t.floor).pop() ?? (tiers[0] as NaiveTier);
}

/** The spec's perpetual section: tiers with maintenance amounts × 1,000,000 (DOMAIN.md's derivation). */
function naivePerp(spec: NonNullable<InstrumentSpec['perpetual']>, scale: number): NaivePerp {
  const tiers: NaiveTier[] = [];
  for (const t of spec.tiers) {
    const floor = tryParse(t.floor, scale);
    const previous = tiers[tiers.length - 1];
    const mmr = BigInt(t.mmrPpm);
    const cum = previous ? floor * (mmr - previous.mmr) + previous.cum : 0n;
    tiers.push({ floor, mmr, maxLeverage: t.maxLeverage, cum });
  }
  return {
    tiers,
    maxLeverage: spec.maxLeverage,
    defaultLeverage: spec.defaultLeverage,
    positions: new Map(),
    leverage: new Map(),
  };
}

/** A signed decimal (not zero) of at most `scale` places as minor units. */
function signedMinor(text: string, scale: number): bigint | undefined {
  const match = /^(-?)(\d{1,30})(?:\.(\d{1,36}))?$/.exec(text);
  if (!match || (match[3] ?? '').length > scale) return undefined;
  const minor = BigInt((match[2] as string) + (match[3] ?? '').padEnd(scale, '0'));
  if (minor === 0n) return undefined;
  return match[1] === '-' ? -minor : minor;
}

function tryParse(text: string, scale: number): bigint {
  const parsed = tryParseDecimal(text, scale);
  if (!parsed.ok) throw new Error(`reference engine: bad decimal ${text}`);
  return parsed.minor;
}
