// The crypto exchange's liquidity bot (PRODUCT.md "Crypto spot"): one disclosed account per pair
// (`mm:CRYPTO:BTCUSDT`), funded by ordinary ledger deposits from platform:liquidity, quoting a ladder
// of post-only orders around the simulator's price, sizes growing with depth. Quotes are refreshed
// lazily (quote-ladder.ts), so an idle exchange does not grow the journal. Crypto never closes: the
// books are registered once and never halted.
// Stop-limit orders wait on the engine's mark price: the bot sets it to the simulator's price only when
// that price reaches a waiting stop (or before a customer places one), never on every tick.

import type { Db } from '@bourse/db';
import type { Instrument } from '@bourse/market';
import { formatDecimal, parseDecimal } from '@bourse/money';
import { marketMakerOf, QuoteLadder } from '../../adapters/venue/quote-ladder.ts';
import type { SpotSettings } from '../../config.ts';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import type { Clock } from '../../platform/clock.ts';
import type { MarketData } from '../markets/service.ts';
import { spotPairs, spotSpec } from './pairs.ts';
import * as repo from './repo.ts';

export const liquidityAccountOf = marketMakerOf;

const SHAPE = { levels: 5, spreadBps: 5, watchedRequoteMs: 3_000, watchWindowMs: 60_000 };
/** Roughly what the nearest level is worth in USDT; level k shows (k + 1) × that. */
const LEVEL_VALUE_USDT = 2_000;
/** USDT a bot keeps; topped up from platform:liquidity when below half. Coins: 100 levels' worth. */
const USDT_FLOAT = '1000000';
const COIN_FLOAT_LEVELS = 100;

/** A waiting stop: fires when the price rises to it (a buy stop) or falls to it (a sell stop). */
type Stop = { rises: boolean; ticks: number };

export class LiquidityBot {
  readonly #engine: TradingEngine;
  readonly #market: MarketData;
  readonly #clock: Clock;
  readonly #pairs: Instrument[];
  readonly #ladder: QuoteLadder;
  readonly #stops = new Map<string, Stop[]>();

  private constructor(engine: TradingEngine, market: MarketData, clock: Clock) {
    this.#engine = engine;
    this.#market = market;
    this.#clock = clock;
    this.#pairs = spotPairs();
    this.#ladder = new QuoteLadder(engine, SHAPE);
  }

  /** Registers every pair in the engine (once, or with the deployment's new fees) and puts up the ladders. */
  static async open(
    db: Db,
    engine: TradingEngine,
    market: MarketData,
    clock: Clock,
    settings: SpotSettings,
    warn: (message: string) => void = () => {},
  ): Promise<LiquidityBot> {
    const bot = new LiquidityBot(engine, market, clock);
    for (const pair of bot.#pairs) {
      const spec = spotSpec(pair, settings);
      const listed = engine.state.instrument(pair.id)?.spec;
      if (!listed) bot.#ladder.send({ type: 'register_instrument', id: `instrument:${pair.id}`, instrument: spec });
      else if (listed.makerFeeBps !== spec.makerFeeBps || listed.takerFeeBps !== spec.takerFeeBps) {
        // Orders placed from now on pay the new fees; resting ones keep the fee they were shown.
        bot.#ladder.send({
          type: 'set_instrument_fees',
          id: `fees:${pair.id}:${engine.seq}`,
          instrumentId: pair.id,
          makerFeeBps: spec.makerFeeBps,
          takerFeeBps: spec.takerFeeBps,
        });
        warn(`spot fees of ${pair.symbol} changed to ${spec.makerFeeBps}/${spec.takerFeeBps} bp for new orders`);
      }
    }
    await bot.#ladder.flush();
    for (const pair of bot.#pairs) bot.#ladder.adopt(pair.id);
    for (const row of await repo.listWaitingStops(
      db,
      bot.#pairs.map((p) => p.id),
    )) {
      const trigger = JSON.parse(row.trigger_spec) as { priceTicks: number };
      bot.noteStop(row.instrument_id, row.side, trigger.priceTicks);
    }
    await bot.sync();
    return bot;
  }

  get pairs(): readonly Instrument[] {
    return this.#pairs;
  }

  /**
   * A pair listed at run time (features/listings; its coin already an engine asset): registered in the
   * engine (journaled; the id makes a repeat after a restart a no-op), then quoted from this sync on.
   */
  async addPair(pair: Instrument, settings: SpotSettings): Promise<void> {
    if (this.#pairs.some((p) => p.id === pair.id)) return;
    if (!this.#engine.state.instrument(pair.id)) {
      this.#ladder.send({
        type: 'register_instrument',
        id: `instrument:${pair.id}`,
        instrument: spotSpec(pair, settings),
      });
      await this.#ladder.flush();
    }
    this.#pairs.push(pair);
    this.#ladder.adopt(pair.id);
    await this.sync();
  }

  /** Someone is looking at this book: keep its ladder fresh for a while. */
  watch(instrumentId: string): void {
    if (this.#pairs.some((p) => p.id === instrumentId)) this.#ladder.watch(instrumentId, this.#clock.now());
  }

  /** A stop-limit order now waits at `stopTicks` (a buy stop fires on a rise, a sell stop on a fall). */
  noteStop(instrumentId: string, side: 'buy' | 'sell', stopTicks: number): void {
    const list = this.#stops.get(instrumentId) ?? [];
    list.push({ rises: side === 'buy', ticks: stopTicks });
    this.#stops.set(instrumentId, list);
  }

  /**
   * Before a customer's order: the ladder reflects the simulator's price of this moment; for a stop
   * order the engine's mark price does too (a stop the price has already passed is refused).
   */
  async prepare(instrument: Instrument, withStop = false): Promise<void> {
    const last = this.#market.lastTicks(instrument.id)?.lastTicks;
    if (last !== undefined) {
      if (this.#ladder.isStale(instrument.id, last)) this.#requote(instrument, last, true);
      if (withStop && this.#engine.state.market(instrument.id)?.markTicks !== last) this.#setMark(instrument.id, last);
    }
    await this.#ladder.flush();
  }

  /** After the market moved: crossing orders, reached stops, watched books. Called every pump. */
  async sync(): Promise<void> {
    const now = this.#clock.now();
    for (const pair of this.#pairs) {
      const last = this.#market.lastTicks(pair.id)?.lastTicks;
      if (last === undefined || !this.#engine.state.market(pair.id)) continue;
      const reached = this.#reachedStops(pair.id, last);
      if (reached || this.#ladder.wantsRequote(pair.id, last, now)) this.#requote(pair, last, true);
      if (reached) this.#setMark(pair.id, last);
    }
    await this.#ladder.flush();
  }

  /** Whether the price reached a waiting stop; those reached are forgotten (the engine fires them). */
  #reachedStops(instrumentId: string, last: number): boolean {
    const list = this.#stops.get(instrumentId);
    if (!list || list.length === 0) return false;
    const waiting = list.filter((s) => (s.rises ? last < s.ticks : last > s.ticks));
    if (waiting.length === list.length) return false;
    this.#stops.set(instrumentId, waiting);
    return true;
  }

  #setMark(instrumentId: string, last: number) {
    this.#ladder.send({
      type: 'set_mark_price',
      id: `mark:${instrumentId}:${this.#engine.seq}`,
      instrumentId,
      priceTicks: last,
    });
  }

  #requote(pair: Instrument, last: number, sweep: boolean) {
    const spec = this.#engine.state.instrument(pair.id);
    if (!spec) return;
    const baseLots = this.#levelLots(pair, last);
    // Withdrawn first, so the float is counted without what the old quotes held.
    this.#ladder.withdraw(pair.id, this.#clock.now());
    this.#fund(pair, baseLots);
    this.#ladder.requote(
      pair.id,
      { lastTicks: last, baseLots, loTicks: 1, hiTicks: spec.spec.maxPriceTicks, sweepLots: sweep ? baseLots * 3 : 0 },
      this.#clock.now(),
    );
  }

  #levelLots(pair: Instrument, lastTicks: number): number {
    const price = Number(pair.tickSize) * lastTicks;
    return Math.max(1, Math.floor(LEVEL_VALUE_USDT / Math.max(price, 1e-9) / Number(pair.lotSize)));
  }

  /** Keeps the bot's USDT and coins above half their float, by deposits from platform:liquidity. */
  #fund(pair: Instrument, baseLots: number) {
    const spec = this.#engine.state.instrument(pair.id);
    if (!spec) return;
    const mm = marketMakerOf(pair.id);
    const coinMinor = BigInt(baseLots * COIN_FLOAT_LEVELS) * spec.lotMinor;
    const floats: [string, string, bigint][] = [
      [spec.quote.code, USDT_FLOAT, parseDecimal(USDT_FLOAT, spec.quote.scale)],
      [spec.base.code, formatDecimal(coinMinor, spec.base.scale), coinMinor],
    ];
    for (const [asset, amount, target] of floats) {
      if (this.#engine.state.balance(mm, 'spot', asset).available * 2n >= target) continue;
      this.#ladder.send({
        type: 'deposit',
        id: `mm:fund:${pair.id}:${asset}:${this.#engine.seq}`,
        userId: mm,
        wallet: 'spot',
        asset,
        amount,
        from: 'liquidity',
        cause: 'deposit',
        link: 'liquidity-bot',
      });
    }
  }
}
