// The perpetual contracts' host side (decision 0028): registers each contract, runs its disclosed
// liquidity account (`mm:PERP:BTCUSDT`, the shared quote ladder around the index, requoted lazily like the
// spot bot), sets the mark price (the simulator's index + a bounded premium from our book), and on every
// mark move sends `liquidate` for each position the mark made due (found by the engine's liquidation index,
// risk-watch.ts; the engine re-checks: a stale request is refused harmlessly), fires the TP/SL it holds as
// reduce-only market orders, and applies funding at 00:00, 08:00 and 16:00 UTC (an instant missed while
// the server was down, once at start-up). The customers' records of them are projected (records.ts).
// Must not: read customers' orders to set a price (the premium is bounded so a thin book cannot move the
// mark), or move money but by engine commands.

import type { Db } from '@bourse/db';
import { type ApplyResult, fundingRate } from '@bourse/engine';
import { formatDecimal, parseDecimal } from '@bourse/money';
import { marketMakerOf, QuoteLadder } from '../../adapters/venue/quote-ladder.ts';
import type { PerpetualSettings } from '../../config.ts';
import type { CommandInput, TradingEngine } from '../../engine-host/trading-engine.ts';
import type { Clock } from '../../platform/clock.ts';
import type { MarketData } from '../markets/service.ts';
import { PERP_QUOTE, type PerpContract, perpContracts, perpSpec } from './contracts.ts';
import * as repo from './repo.ts';
import { RiskWatch } from './risk-watch.ts';

const SHAPE = { levels: 5, spreadBps: 5, watchedRequoteMs: 3_000, watchWindowMs: 60_000 };
/** Roughly what the nearest level is worth in USDT; level k shows (k + 1) × that. */
const LEVEL_VALUE_USDT = 2_000;
/** USDT the liquidity account keeps in its contract wallet; topped up from platform:liquidity below half. */
const USDT_FLOAT = '2000000';
/** The liquidity account trades at 1x: it is never the weak side of a liquidation. */
const MM_LEVERAGE = 1;
/** The premium of our book over the index counts up to ±0.05% in the mark (a thin book cannot move it). */
export const MAX_PREMIUM_PPM = 500;
export const FUNDING_INTERVAL_MS = 8 * 3_600_000;

/** TP/SL of one position (ticks), held by the host. */
export type Triggers = { tp: number | null; sl: number | null };

/** The funding instant at or before `ms`: 00:00, 08:00 or 16:00 UTC. */
export const fundingSlotOf = (ms: number) => Math.floor(ms / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS;

export class PerpDesk {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #market: MarketData;
  readonly #clock: Clock;
  readonly #ladder: QuoteLadder;
  readonly contracts: readonly PerpContract[];
  /** Per contract, per user id: the TP/SL held for the position. */
  readonly #triggers = new Map<string, Map<string, Triggers>>();
  readonly #lastSlot = new Map<string, number>();
  /** Test hook: an index price (ticks) in place of the simulator's. */
  readonly #indexOverride = new Map<string, number>();
  readonly #watch: RiskWatch;
  /** Funding instants that found no position (no command, so nothing projects them). */
  #slots: Parameters<typeof repo.saveFundingSlot>[1][] = [];
  /** TP/SL rows to delete once the commands that ended their positions are committed. */
  #dropped: [userId: string, instrumentId: string][] = [];
  #syncing: Promise<void> = Promise.resolve();

  private constructor(db: Db, engine: TradingEngine, market: MarketData, clock: Clock) {
    this.#db = db;
    this.#engine = engine;
    this.#market = market;
    this.#clock = clock;
    this.#ladder = new QuoteLadder(engine, SHAPE);
    this.contracts = perpContracts();
    this.#watch = new RiskWatch(
      engine,
      this.contracts.map((c) => c.id),
    );
  }

  static async open(
    db: Db,
    engine: TradingEngine,
    market: MarketData,
    clock: Clock,
    settings: PerpetualSettings,
    warn: (message: string) => void = () => {},
  ): Promise<PerpDesk> {
    const desk = new PerpDesk(db, engine, market, clock);
    for (const contract of desk.contracts) {
      const spec = perpSpec(contract, settings);
      const listed = engine.state.instrument(contract.id)?.spec;
      if (!listed) desk.#send({ type: 'register_instrument', id: `instrument:${contract.id}`, instrument: spec });
      else if (listed.makerFeeBps !== spec.makerFeeBps || listed.takerFeeBps !== spec.takerFeeBps) {
        desk.#send({
          type: 'set_instrument_fees',
          id: `fees:${contract.id}:${engine.seq}`,
          instrumentId: contract.id,
          makerFeeBps: spec.makerFeeBps,
          takerFeeBps: spec.takerFeeBps,
        });
        warn(
          `perpetual fees of ${contract.symbol} changed to ${spec.makerFeeBps}/${spec.takerFeeBps} bp for new orders`,
        );
      }
      const mm = marketMakerOf(contract.id);
      if (engine.state.leverage(mm, contract.id) !== MM_LEVERAGE && engine.state.openOrders(mm).length === 0) {
        desk.#send({
          type: 'set_leverage',
          id: `mm:leverage:${contract.id}`,
          userId: mm,
          instrumentId: contract.id,
          leverage: MM_LEVERAGE,
        });
      }
    }
    desk.#seedInsuranceFund(settings.insuranceSeed);
    await desk.#ladder.flush();
    for (const contract of desk.contracts) desk.#ladder.adopt(contract.id);
    for (const row of await repo.listTriggers(db)) {
      desk.#triggersOf(row.instrument_id).set(row.user_id, {
        tp: row.take_profit_ticks === null ? null : Number(row.take_profit_ticks),
        sl: row.stop_loss_ticks === null ? null : Number(row.stop_loss_ticks),
      });
    }
    // A new server starts counting at the current instant: it owes no funding from before it existed. That
    // instant is stored (nothing paid), so a restart after the next one knows it missed it (sync, below).
    const slots = new Map((await repo.lastFundingSlots(db)).map((r) => [r.instrument_id, Number(r.slot_at)]));
    for (const contract of desk.contracts) {
      const start = slots.get(contract.id);
      desk.#lastSlot.set(contract.id, start ?? fundingSlotOf(clock.now()));
      if (start === undefined) {
        const slotAt = fundingSlotOf(clock.now());
        await repo.saveFundingSlot(db, { instrumentId: contract.id, slotAt, ratePpm: 0, markTicks: 0, paid: 0n });
      }
    }
    await desk.sync();
    return desk;
  }

  contract(id: string): PerpContract | undefined {
    return this.contracts.find((c) => c.id === id);
  }

  // --- prices ---------------------------------------------------------------------------------------

  /** Test hook (paper mode with test hooks only): the index of a contract, as a price; null restores it. */
  overrideIndex(contractId: string, price: string | null): void {
    const spec = this.#engine.state.instrument(contractId);
    if (!spec) throw new Error(`no contract ${contractId}`);
    if (price === null) this.#indexOverride.delete(contractId);
    else this.#indexOverride.set(contractId, Number(parseDecimal(price, spec.quote.scale) / spec.tickMinor));
  }

  /** The simulator's price of the contract's spot pair, in the contract's ticks (the same grid). */
  indexTicks(contract: PerpContract): number | undefined {
    return this.#indexOverride.get(contract.id) ?? this.#market.lastTicks(contract.index.id)?.lastTicks;
  }

  /**
   * Our book's premium over the index, parts per million, bounded to ±MAX_PREMIUM_PPM: the mid of the best
   * bid and ask (the liquidity account quotes both, so a customer alone cannot empty a side), measured
   * only while the ladder is quoted around the current index.
   */
  premiumPpm(contract: PerpContract, index: number): number {
    const view = this.#engine.state.market(contract.id);
    if (!view || view.bestBidTicks === null || view.bestAskTicks === null || index <= 0) return 0;
    // A ladder quoted around an older index says nothing about today's premium: only a fresh one counts.
    if (this.#ladder.isStale(contract.id, index)) return 0;
    const mid2 = view.bestBidTicks + view.bestAskTicks;
    const ppm = Math.round(((mid2 - 2 * index) * 1_000_000) / (2 * index));
    return Math.max(-MAX_PREMIUM_PPM, Math.min(MAX_PREMIUM_PPM, ppm));
  }

  /** Index × (1 + premium), to the tick. */
  markTicks(contract: PerpContract): number | undefined {
    const index = this.indexTicks(contract);
    if (index === undefined) return undefined;
    return Math.max(1, Math.round((index * (1_000_000 + this.premiumPpm(contract, index))) / 1_000_000));
  }

  // --- TP/SL ----------------------------------------------------------------------------------------

  #triggersOf(instrumentId: string): Map<string, Triggers> {
    let map = this.#triggers.get(instrumentId);
    if (!map) {
      map = new Map();
      this.#triggers.set(instrumentId, map);
    }
    return map;
  }

  triggers(instrumentId: string, userId: string): Triggers {
    return this.#triggers.get(instrumentId)?.get(userId) ?? { tp: null, sl: null };
  }

  async setTriggers(instrumentId: string, userId: string, triggers: Triggers): Promise<void> {
    await repo.saveTrigger(this.#db, {
      userId,
      instrumentId,
      tp: triggers.tp,
      sl: triggers.sl,
      at: this.#clock.now(),
    });
    if (triggers.tp === null && triggers.sl === null) this.#triggersOf(instrumentId).delete(userId);
    else this.#triggersOf(instrumentId).set(userId, triggers);
  }

  // --- the loop -------------------------------------------------------------------------------------

  /** Someone is looking at this book: keep its ladder fresh for a while. */
  watch(instrumentId: string): void {
    if (this.contract(instrumentId)) this.#ladder.watch(instrumentId, this.#clock.now());
  }

  /** Before a customer's order: the ladder and the mark reflect this moment's index; then the risk loop. */
  async prepare(contract: PerpContract): Promise<void> {
    await this.#exclusive(async () => {
      const index = this.indexTicks(contract);
      if (index !== undefined && this.#ladder.isStale(contract.id, index)) this.#requote(contract, index);
      this.#risk(contract, true);
      await this.#settle();
    });
  }

  /** After the market moved: ladders, the mark, liquidations, TP/SL and funding. Called every pump. */
  async sync(): Promise<void> {
    await this.#exclusive(async () => {
      const now = this.#clock.now();
      for (const contract of this.contracts) {
        const index = this.indexTicks(contract);
        if (index === undefined || !this.#engine.state.market(contract.id)) continue;
        if (this.#ladder.wantsRequote(contract.id, index, now)) this.#requote(contract, index);
        this.#risk(contract, false);
        this.#funding(contract, now);
      }
      await this.#settle();
    });
  }

  /** One loop at a time: a customer's prepare and the pump's sync never interleave their commands. */
  #exclusive(work: () => Promise<void>): Promise<void> {
    const next = this.#syncing.then(work, work);
    this.#syncing = next.catch(() => {});
    return next;
  }

  /** Waits for the commits (which wrote the records: records.ts), then the rows that follow no command. */
  async #settle(): Promise<void> {
    await this.#ladder.flush();
    const slots = this.#slots;
    const dropped = this.#dropped;
    this.#slots = [];
    this.#dropped = [];
    for (const slot of slots) await repo.saveFundingSlot(this.#db, slot);
    for (const [userId, instrumentId] of dropped) await repo.deleteTrigger(this.#db, userId, instrumentId);
  }

  /**
   * The mark follows the index while the contract has positions (nobody holding one: no command, so an
   * idle contract costs nothing); every position the mark made due is liquidated; TP/SL reached fire.
   */
  #risk(contract: PerpContract, force: boolean): void {
    const engine = this.#engine.state;
    if (engine.positionCount(contract.id) === 0 && !force) return;
    const mark = this.markTicks(contract);
    if (mark === undefined) return;
    if (engine.market(contract.id)?.markTicks !== mark) {
      this.#send({
        type: 'set_mark_price',
        id: `mark:${contract.id}:${this.#engine.seq}`,
        instrumentId: contract.id,
        priceTicks: mark,
      });
    }
    // Due by the engine's own mark (what `liquidate` checks), should set_mark_price have been refused.
    const engineMark = engine.market(contract.id)?.markTicks ?? null;
    if (engineMark !== null) this.#liquidateDue(contract, engineMark);
    this.#fireTriggers(contract, mark);
  }

  /**
   * Liquidates every position due at the engine's mark. A liquidation changes other positions (its fills,
   * its ADL): the index is asked again until none is due, or until a round liquidates nothing (a refusal
   * would otherwise repeat).
   */
  #liquidateDue(contract: PerpContract, markTicks: number): void {
    let due = this.#watch.due(contract.id, markTicks);
    if (due.length === 0) return;
    // The liquidation closes in the book: the ladder must stand at today's index, not at an old price.
    const index = this.indexTicks(contract);
    if (index !== undefined && this.#ladder.isStale(contract.id, index)) this.#requote(contract, index);
    while (due.length > 0) {
      let liquidated = 0;
      for (const userId of due) if (this.#liquidate(contract, userId)) liquidated++;
      if (liquidated === 0) return;
      due = this.#watch.due(contract.id, markTicks);
    }
  }

  /** Sends `liquidate` (the engine checks it is due); the position's TP/SL go with it. */
  #liquidate(contract: PerpContract, userId: string): boolean {
    const id = `liquidate:${contract.id}:${userId}:${this.#engine.seq}`;
    const result = this.#send({ type: 'liquidate', id, userId, instrumentId: contract.id });
    if (!result?.ok) return false;
    if (this.#triggers.get(contract.id)?.delete(userId)) this.#dropped.push([userId, contract.id]);
    return true;
  }

  /** A long's TP fires at or above it, its SL at or below; a short's the other way. One fires, both go. */
  #fireTriggers(contract: PerpContract, mark: number): void {
    const map = this.#triggers.get(contract.id);
    if (!map || map.size === 0) return;
    for (const [userId, t] of [...map]) {
      const size = this.#engine.state.position(contract.id, userId)?.sizeLots;
      if (size === undefined || size === 0) {
        // Waiting for a resting order to open the position: kept.
        if (this.#engine.state.openOrders(userId).some((o) => o.instrumentId === contract.id)) continue;
        // The position closed another way: nothing left to protect.
        map.delete(userId);
        this.#dropped.push([userId, contract.id]);
        continue;
      }
      const long = size > 0;
      const tpHit = t.tp !== null && (long ? mark >= t.tp : mark <= t.tp);
      const slHit = t.sl !== null && (long ? mark <= t.sl : mark >= t.sl);
      if (!tpHit && !slHit) continue;
      map.delete(userId);
      this.#dropped.push([userId, contract.id]);
      const index = this.indexTicks(contract);
      if (index !== undefined && this.#ladder.isStale(contract.id, index)) this.#requote(contract, index);
      this.#send({
        type: 'place_order',
        id: `${tpHit ? 'perp-tp' : 'perp-sl'}:${userId}:${contract.id}:${this.#engine.seq}`,
        userId,
        instrumentId: contract.id,
        side: long ? 'sell' : 'buy',
        orderType: 'market',
        qtyLots: Math.abs(size),
        timeInForce: 'ioc',
        reduceOnly: true,
      });
    }
  }

  /**
   * At 00:00, 08:00 and 16:00 UTC: DOMAIN.md's rate from the premium (perpetual-math's fundingRate) at the
   * mark, paid by holders at that instant. The last instant applied is kept per contract, so an instant
   * missed while the server was down is applied once at start-up (to the holders and at the mark of then);
   * of several missed, only the latest. The command's id names the instant: the engine and the projected
   * perp_funding_slots row (records.ts) make it once only.
   */
  #funding(contract: PerpContract, now: number): void {
    const slot = fundingSlotOf(now);
    if (slot <= (this.#lastSlot.get(contract.id) ?? slot)) return;
    const index = this.indexTicks(contract);
    const mark = this.markTicks(contract);
    // No price yet: the instant waits for one.
    if (index === undefined || mark === undefined) return;
    this.#lastSlot.set(contract.id, slot);
    const ratePpm = fundingRate(this.premiumPpm(contract, index));
    if (this.#engine.state.positionCount(contract.id) === 0) {
      this.#slots.push({ instrumentId: contract.id, slotAt: slot, ratePpm, markTicks: mark, paid: 0n });
      return;
    }
    if (this.#engine.state.market(contract.id)?.markTicks !== mark)
      this.#send({
        type: 'set_mark_price',
        id: `mark:${contract.id}:${this.#engine.seq}`,
        instrumentId: contract.id,
        priceTicks: mark,
      });
    this.#send({ type: 'apply_funding', id: `funding:${contract.id}:${slot}`, instrumentId: contract.id, ratePpm });
  }

  /**
   * Once per deployment: the insurance fund starts with USDT from platform:liquidity (one ledger transfer
   * with a fixed id), so the first liquidation beyond a margin is paid by it rather than by ADL.
   */
  #seedInsuranceFund(amount: string): void {
    const id = `insurance:seed:${PERP_QUOTE}`;
    if (/^0*(\.0*)?$/.test(amount) || this.#engine.state.transferPosted(id)) return;
    this.#send({
      type: 'platform_transfer',
      id,
      from: 'liquidity',
      to: 'insurance_fund',
      asset: PERP_QUOTE,
      amount,
      cause: 'deposit',
      link: 'insurance-fund-seed',
    });
  }

  // --- the liquidity account ------------------------------------------------------------------------

  #requote(contract: PerpContract, index: number): void {
    const spec = this.#engine.state.instrument(contract.id);
    if (!spec) return;
    const baseLots = this.#levelLots(contract, index);
    this.#ladder.withdraw(contract.id, this.#clock.now());
    this.#fund(contract);
    this.#ladder.requote(
      contract.id,
      { lastTicks: index, baseLots, loTicks: 1, hiTicks: spec.spec.maxPriceTicks, sweepLots: baseLots * 3 },
      this.#clock.now(),
    );
  }

  #levelLots(contract: PerpContract, ticks: number): number {
    const price = Number(contract.index.tickSize) * ticks;
    return Math.max(1, Math.floor(LEVEL_VALUE_USDT / Math.max(price, 1e-9) / Number(contract.index.lotSize)));
  }

  /** Keeps the liquidity account's contract USDT above half its float, by deposits from platform:liquidity. */
  #fund(contract: PerpContract): void {
    const spec = this.#engine.state.instrument(contract.id);
    if (!spec) return;
    const mm = marketMakerOf(contract.id);
    const target = parseDecimal(USDT_FLOAT, spec.quote.scale);
    if (this.#engine.state.balance(mm, 'contract', spec.quote.code).available * 2n >= target) return;
    this.#send({
      type: 'deposit',
      id: `mm:fund:${contract.id}:${spec.quote.code}:${this.#engine.seq}`,
      userId: mm,
      wallet: 'contract',
      asset: spec.quote.code,
      amount: formatDecimal(target, spec.quote.scale),
      from: 'liquidity',
      cause: 'deposit',
      link: 'liquidity-bot',
    });
  }

  #send(command: CommandInput): ApplyResult | undefined {
    return this.#ladder.send(command);
  }
}
