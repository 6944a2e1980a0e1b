// The workload of bench:liquidation, shared with its test: open positions on two perpetuals built through
// real engine commands, then a seeded stream of mark-price moves, each followed by the host's job (find the
// due positions, send `liquidate` for each) until none is due.
// Must hold: each tick's due set from the index (LiquidationWatch) equals the brute-force scan's; after a tick
// no position is due. Must not: print anything.

import { type Command, Engine, type EngineEvent, type LiquidationWatch } from '@bourse/engine';
import { btcPerp, SeededRandom } from '@bourse/testkit';

type Contract = {
  id: string;
  /** The mark now, in ticks. */
  mark: number;
  watch: LiquidationWatch;
};

export type LiquidationFigures = {
  positions: number;
  ticks: number;
  setupCommands: number;
  setupMs: number;
  /** Per tick: set_mark_price, the index's due(), the liquidations and the index's refreshes. */
  tickUs: Float64Array;
  /** Per tick: the same with the brute-force scan in place of the index (its apply and refresh times are the same). */
  referenceTickUs: Float64Array;
  /** Per tick: the index's due() alone, and the scan alone. */
  findUs: Float64Array;
  referenceFindUs: Float64Array;
  liquidations: number;
  adlEvents: number;
  /** Liquidations that needed ADL (the book did not take the whole position). */
  withAdl: number;
  /** Liquidate commands the engine refused (not_liquidatable): 0 when the index only sends due ones. */
  refused: number;
  /** Ticks whose due set from the index differed from the scan's (must be 0). */
  mismatches: number;
  /** Ticks after which a position was still due (by the scan, outside the timing; must be 0). */
  leftDue: number;
  openAtEnd: number;
  invariant: string | undefined;
};

const LIQUIDITY = 'liquidity';

/** A command before its id and time (each member of the union on its own). */
type Input = Command extends infer C ? (C extends Command ? Omit<C, 'id' | 'timeMs'> : never) : never;

/**
 * Builds `positions` open positions across BTC and ETH perpetuals (pairs of customers trading with each other at
 * varied prices, sizes and leverage), rests a deep book of a liquidity account on both sides, then moves the
 * mark `ticks` times, timing each tick's host work.
 */
export function runLiquidationWorkload(options: {
  seed: number;
  positions: number;
  ticks: number;
  /** Lots per level of the liquidity accounts' books (200,000 = 200 BTC; 5,000 shows ADL at work): how much the book takes before ADL. */
  depthLots?: number;
}): LiquidationFigures {
  const random = new SeededRandom(options.seed);
  const engine = new Engine({ rememberedCommandsMax: 1_000 });
  let sequence = 0;
  let timeMs = 1_000_000;
  const apply = (command: Input) => {
    sequence += 1;
    timeMs += 1;
    return engine.apply({ ...command, id: `b${sequence}`, timeMs } as Command);
  };
  const must = (command: Input) => {
    const result = apply(command);
    if (!result.ok) throw new Error(`${command.type}: ${result.code}`);
    return result;
  };

  const setupStart = performance.now();
  // BTC: tick 0.1 USDT, 50,000.0 = 500,000 ticks. ETH: tick 0.01 USDT, 3,000.00 = 300,000 ticks.
  const specs = [
    { spec: btcPerp(), mark: 500_000 },
    { spec: btcPerp({ id: 'ETHUSDT-PERP', base: 'ETH', tickSize: '0.01' }), mark: 300_000 },
  ];
  for (const { spec } of specs) must({ type: 'register_instrument', instrument: spec });
  // Pairs of customers: one long, one short, same contract, price and size, each its own leverage.
  const pairs = Math.ceil(options.positions / 2);
  for (let pair = 0; pair < pairs; pair++) {
    const { spec, mark } = specs[pair % specs.length] as (typeof specs)[number];
    // Entries within ±0.5% of the mark: a position opened far from it would start out bankrupt.
    const price = mark + random.int(-Math.floor(mark / 200), Math.floor(mark / 200));
    const lots = random.int(1, 2_000);
    const long = `l${pair}`;
    const short = `s${pair}`;
    for (const userId of [long, short]) {
      must({
        type: 'deposit',
        userId,
        wallet: 'contract',
        asset: 'USDT',
        amount: '200000',
        from: 'faucet',
        cause: 'paper_grant',
      });
      must({ type: 'set_leverage', userId, instrumentId: spec.id, leverage: random.int(2, 50) });
    }
    const order = {
      type: 'place_order',
      instrumentId: spec.id,
      orderType: 'limit',
      priceTicks: price,
      qtyLots: lots,
    } as const;
    must({ ...order, userId: short, side: 'sell' });
    must({ ...order, userId: long, side: 'buy' });
  }
  // Liquidity accounts' books (one account per contract and side, under the open-order limit): 1x, a level
  // every 0.2% out to ±30% of the mark, to take the liquidations' closing orders.
  for (const { spec, mark } of specs) {
    const step = Math.max(1, Math.floor(mark / 500));
    for (const side of ['buy', 'sell'] as const) {
      const userId = `${LIQUIDITY}-${spec.id}-${side}`;
      must({
        type: 'deposit',
        userId,
        wallet: 'contract',
        asset: 'USDT',
        amount: '1000000000000',
        from: 'faucet',
        cause: 'paper_grant',
      });
      must({ type: 'set_leverage', userId, instrumentId: spec.id, leverage: 1 });
      for (let offset = step; offset <= mark * 0.3; offset += step) {
        const priceTicks = side === 'buy' ? mark - offset : mark + offset;
        must({
          type: 'place_order',
          userId,
          instrumentId: spec.id,
          orderType: 'limit',
          qtyLots: options.depthLots ?? 200_000,
          side,
          priceTicks,
        });
      }
    }
  }
  const contracts: Contract[] = specs.map(({ spec, mark }) => {
    must({ type: 'set_mark_price', instrumentId: spec.id, priceTicks: mark });
    return { id: spec.id, mark, watch: engine.liquidationWatch(spec.id) };
  });
  const setupCommands = sequence;
  const setupMs = performance.now() - setupStart;
  const positions = contracts.reduce((n, c) => n + engine.positions(c.id).length, 0);

  const tickUs = new Float64Array(options.ticks);
  const referenceTickUs = new Float64Array(options.ticks);
  const findUs = new Float64Array(options.ticks);
  const referenceFindUs = new Float64Array(options.ticks);
  let liquidations = 0;
  let adlEvents = 0;
  let withAdl = 0;
  let refused = 0;
  let mismatches = 0;
  let leftDue = 0;
  const refreshFrom = (contract: Contract, events: readonly EngineEvent[]) => {
    for (const event of events) {
      if (event.type === 'position_changed') contract.watch.refresh(event.userId);
      if (event.type === 'position_liquidated') {
        liquidations += 1;
        if (event.adlLots > 0) withAdl += 1;
      }
      if (event.type === 'auto_deleveraged') adlEvents += 1;
    }
  };

  for (let tick = 0; tick < options.ticks; tick++) {
    const contract = contracts[tick % contracts.length] as Contract;
    // A random walk of ±0.3%, with a shock of up to ±4% one tick in 50; never out of ±25% of the start.
    const start = (specs[tick % specs.length] as (typeof specs)[number]).mark;
    const span = random.chance(0.02) ? 0.04 : 0.003;
    const move = Math.round(contract.mark * span * (random.next() * 2 - 1));
    contract.mark = Math.min(Math.round(start * 1.25), Math.max(Math.round(start * 0.75), contract.mark + move));

    const t0 = performance.now();
    must({ type: 'set_mark_price', instrumentId: contract.id, priceTicks: contract.mark });
    const t1 = performance.now();
    const due = contract.watch.due(contract.mark);
    const t2 = performance.now();
    // The reference finds them by looking at every position (timed on the same state, result compared).
    const scanned = engine.dueLiquidationsByScan(contract.id, contract.mark);
    const t3 = performance.now();
    if (due.length !== scanned.length || [...due].sort().join() !== [...scanned].sort().join()) mismatches += 1;
    // Liquidations can resize other positions (ADL); repeat until nothing is due.
    let applyMs = 0;
    let pending = due;
    for (let pass = 0; pending.length > 0 && pass < 5; pass++) {
      const a0 = performance.now();
      for (const userId of pending) {
        const result = apply({ type: 'liquidate', instrumentId: contract.id, userId });
        if (result.ok) refreshFrom(contract, result.events);
        else refused += 1;
      }
      pending = contract.watch.due(contract.mark);
      applyMs += performance.now() - a0;
    }
    if (engine.dueLiquidationsByScan(contract.id, contract.mark).length > 0) leftDue += 1;
    findUs[tick] = (t2 - t1) * 1e3;
    referenceFindUs[tick] = (t3 - t2) * 1e3;
    tickUs[tick] = (t2 - t0 + applyMs) * 1e3;
    referenceTickUs[tick] = (t1 - t0 + (t3 - t2) + applyMs) * 1e3;
  }
  const openAtEnd = contracts.reduce((n, c) => n + engine.positions(c.id).length, 0);
  return {
    positions,
    ticks: options.ticks,
    setupCommands,
    setupMs,
    tickUs,
    referenceTickUs,
    findUs,
    referenceFindUs,
    liquidations,
    adlEvents,
    withAdl,
    refused,
    mismatches,
    leftDue,
    openAtEnd,
    invariant: engine.findBrokenInvariant(),
  };
}
