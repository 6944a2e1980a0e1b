// Owns a market maker's ladders of post-only quotes around a reference price, one per instrument, and
// when to refresh them lazily: before a customer's order, when the price reaches a customer's resting
// order (which the market maker then fills at the customer's limit), and while someone watches the book
// once the price has moved a ladder step. An idle book is left alone, so the journal grows with
// customers, not with the clock (docs/decisions/0015-bounded-growth.md). Shared by the paper stock venue
// and the crypto exchange's liquidity bot; each decides funding, sizes and sessions itself.
// Must not: read customers' orders to set a price (the ladder comes from the reference price alone).

import type { ApplyResult } from '@bourse/engine';
import type { CommandInput, TradingEngine } from '../../engine-host/trading-engine.ts';

/** The disclosed liquidity account of one instrument: `mm:<instrument id>` ("mm:NSE:RELIANCE", "mm:CRYPTO:BTCUSDT"). */
export const marketMakerOf = (instrumentId: string) => `mm:${instrumentId}`;
export const isMarketMaker = (userId: string) => userId.startsWith('mm:');

export type LadderShape = {
  levels: number;
  /** Half-spread and level step, in basis points of the price (at least one tick). */
  spreadBps: number;
  /** A watched book is requoted at most this often, for this long after the last look. */
  watchedRequoteMs: number;
  watchWindowMs: number;
};

/** Where one ladder goes: level k (from 0) quotes (k + 1) × baseLots at (k + 1) steps from the price. */
export type LadderPlan = {
  lastTicks: number;
  baseLots: number;
  /** Prices the book accepts (the day's band), inclusive. */
  loTicks: number;
  hiTicks: number;
  /** Fill customers' resting orders at or through the price first (IOC at the price, this many lots). */
  sweepLots: number;
};

type Quoted = { lastTicks: number; atMs: number; orderIds: number[] };

export class QuoteLadder {
  readonly #engine: TradingEngine;
  readonly #shape: LadderShape;
  readonly #quoted = new Map<string, Quoted>();
  readonly #watched = new Map<string, number>();
  #pending: Promise<ApplyResult>[] = [];

  constructor(engine: TradingEngine, shape: LadderShape) {
    this.#engine = engine;
    this.#shape = shape;
  }

  /** A ladder step, in ticks, at `lastTicks`: also the move that makes a watched ladder follow the price. */
  stepTicks(lastTicks: number): number {
    return Math.max(1, Math.floor((lastTicks * this.#shape.spreadBps) / 10_000));
  }

  /** After a restart: the market maker's resting quotes are the ladder to withdraw at the next requote. */
  adopt(instrumentId: string): void {
    const orderIds = this.#engine.state.openOrders(marketMakerOf(instrumentId)).map((o) => o.orderId);
    if (orderIds.length > 0) this.#quoted.set(instrumentId, { lastTicks: 0, atMs: 0, orderIds });
  }

  watch(instrumentId: string, now: number): void {
    this.#watched.set(instrumentId, now);
  }

  isQuoted(instrumentId: string): boolean {
    return this.#quoted.has(instrumentId);
  }

  /** The price moved since the last quote, or some of the quotes were taken. */
  isStale(instrumentId: string, lastTicks: number): boolean {
    const quoted = this.#quoted.get(instrumentId);
    if (!quoted || quoted.lastTicks !== lastTicks || quoted.orderIds.length === 0) return true;
    return quoted.orderIds.some((id) => this.#engine.state.order(id) === undefined);
  }

  /**
   * Between customers' orders the ladder follows the price only where it matters: a customer's resting
   * order the price has reached (it must fill), a book someone is watching, or no ladder yet. A watched
   * ladder moves once the price has moved by a ladder step; a smaller move leaves every bid below the
   * price and every ask above it.
   */
  wantsRequote(instrumentId: string, lastTicks: number, now: number): boolean {
    const quoted = this.#quoted.get(instrumentId);
    if (!quoted) return true;
    if (!this.isStale(instrumentId, lastTicks)) return false;
    if (this.#customerCrosses(instrumentId, lastTicks)) return true;
    const watchedAt = this.#watched.get(instrumentId) ?? -Infinity;
    const watched = now - watchedAt < this.#shape.watchWindowMs && now - quoted.atMs >= this.#shape.watchedRequoteMs;
    return watched && this.#movedEnough(quoted, lastTicks);
  }

  #movedEnough(quoted: Quoted, lastTicks: number): boolean {
    if (Math.abs(lastTicks - quoted.lastTicks) >= this.stepTicks(quoted.lastTicks)) return true;
    return quoted.orderIds.some((id) => this.#engine.state.order(id) === undefined);
  }

  /**
   * Whether a customer's resting order is at or through `lastTicks` (a bid at or above it, an ask at or
   * below it): the book's levels there hold more than the market maker's own quotes.
   */
  #customerCrosses(instrumentId: string, lastTicks: number): boolean {
    const view = this.#engine.state.market(instrumentId);
    if (!view) return false;
    const bidCrosses = view.bestBidTicks !== null && view.bestBidTicks >= lastTicks;
    const askCrosses = view.bestAskTicks !== null && view.bestAskTicks <= lastTicks;
    if (!bidCrosses && !askCrosses) return false;
    const own = new Map<string, number>();
    for (const id of this.#quoted.get(instrumentId)?.orderIds ?? []) {
      const o = this.#engine.state.order(id);
      if (o) own.set(`${o.side}:${o.priceTicks}`, (own.get(`${o.side}:${o.priceTicks}`) ?? 0) + o.remainingLots);
    }
    // More crossing levels than the market maker quotes are certain to include a customer's.
    const { bids, asks } = this.#engine.state.depth(instrumentId, this.#shape.levels + 1);
    const crossing = (side: 'buy' | 'sell', levels: [number, number][], through: (ticks: number) => boolean) =>
      levels.some(([ticks, lots]) => through(ticks) && lots > (own.get(`${side}:${ticks}`) ?? 0));
    return (
      (bidCrosses && crossing('buy', bids, (t) => t >= lastTicks)) ||
      (askCrosses && crossing('sell', asks, (t) => t <= lastTicks))
    );
  }

  /** Cancels the instrument's ladder (the close of a session, or before a new one). */
  withdraw(instrumentId: string, now: number): void {
    const quoted = this.#quoted.get(instrumentId);
    if (!quoted) return;
    const userId = marketMakerOf(instrumentId);
    for (const orderId of quoted.orderIds)
      this.send({ type: 'cancel_order', id: `mm:cancel:${orderId}`, userId, orderId });
    this.#quoted.set(instrumentId, { lastTicks: quoted.lastTicks, atMs: now, orderIds: [] });
  }

  /**
   * Cancels the old ladder; fills resting customer orders the price has reached (sweepLots > 0); quotes
   * a new ladder of post-only orders around the price, inside [loTicks, hiTicks]. All synchronous, so no
   * command interleaves.
   */
  requote(instrumentId: string, plan: LadderPlan, now: number): void {
    const { lastTicks: last, baseLots, loTicks, hiTicks } = plan;
    this.withdraw(instrumentId, now);
    const view = this.#engine.state.market(instrumentId);
    if (!view) return;
    if (plan.sweepLots > 0) {
      // The reference market traded at `last`: resting customer orders at or through it execute there.
      if (view.bestBidTicks !== null && view.bestBidTicks >= last)
        this.#place(instrumentId, 'sell', last, plan.sweepLots, 'ioc');
      if (view.bestAskTicks !== null && view.bestAskTicks <= last)
        this.#place(instrumentId, 'buy', last, plan.sweepLots, 'ioc');
    }
    const step = this.stepTicks(last);
    const orderIds: number[] = [];
    for (let k = 0; k < this.#shape.levels; k++) {
      const bid = last - step * (k + 1);
      const ask = last + step * (k + 1);
      const lots = baseLots * (k + 1);
      if (bid >= loTicks && bid <= hiTicks) orderIds.push(...this.#place(instrumentId, 'buy', bid, lots, 'gtc'));
      if (ask >= loTicks && ask <= hiTicks) orderIds.push(...this.#place(instrumentId, 'sell', ask, lots, 'gtc'));
    }
    this.#quoted.set(instrumentId, { lastTicks: last, atMs: now, orderIds });
  }

  /** Places one market-maker order now (applied synchronously); answers the ids of what rests. */
  #place(
    instrumentId: string,
    side: 'buy' | 'sell',
    priceTicks: number,
    qtyLots: number,
    tif: 'gtc' | 'ioc',
  ): number[] {
    // The engine's sequence number makes each quote's id new, across restarts too.
    const result = this.send({
      type: 'place_order',
      id: `mm:${instrumentId}:${this.#engine.seq}:${side}:${priceTicks}:${tif}`,
      userId: marketMakerOf(instrumentId),
      instrumentId,
      side,
      orderType: 'limit',
      priceTicks,
      qtyLots,
      timeInForce: tif,
      ...(tif === 'gtc' ? { postOnly: true } : {}),
    });
    const placed = result?.ok ? result.events[0] : undefined;
    // Only a resting quote (not a filled sweep) is withdrawn later; cancelling a finished one is harmless.
    return placed?.type === 'order_placed' && tif === 'gtc' ? [placed.orderId] : [];
  }

  /** Applies a command at once; its commit is awaited by flush(). */
  send(command: CommandInput): ApplyResult | undefined {
    const { result, committed } = this.#engine.apply(command);
    this.#pending.push(committed);
    return result;
  }

  /** Waits for the journal commit of everything sent so far. */
  async flush(): Promise<void> {
    const pending = this.#pending;
    this.#pending = [];
    await Promise.all(pending);
  }
}
