// Finds the positions of a perpetual that a mark price makes due for liquidation, for the host's risk loop
// (the engine only checks and applies `liquidate`; deciding when to send it is the host's job).
// Must hold: due(mark) answers exactly the positions whose equity at that mark is at or below their
// maintenance margin (the rule `liquidate` checks), in a stable order; it reads positions, never changes them.
// Must not: read a clock or send commands.

import { notionalMinor } from '@bourse/money';
import { type EngineState, findUser, type InstrumentState, type Position } from './engine-state.ts';
import {
  ceilDiv,
  floorDiv,
  liquidationPrice,
  maintenanceMargin,
  type PerpetualTerms,
  unrealisedPnl,
} from './perpetual-math.ts';

/**
 * Ticks of slack around each position's liquidation price: the price is rounded against the customer and
 * its tier found by the notional at it, so the exact rule may fire a tick or two either side of it. Every
 * candidate inside the slack is checked exactly, so slack costs a few checks and never a wrong answer.
 */
const SLACK_TICKS = 2;

/** Whether the position's equity at `markTicks` is at or below its maintenance margin (as `liquidate` checks). */
function isDueAt(instrument: InstrumentState, position: Position, markTicks: number): boolean {
  const def = instrument.def;
  const side = position.sizeLots > 0 ? 1 : -1;
  const size = BigInt(Math.abs(position.sizeLots)) * def.lotMinor;
  // Rounded as positions.ts rounds it: a long's down, a short's up.
  const notional = notionalMinor(BigInt(markTicks) * def.tickMinor, size, def.baseUnit, side === 1 ? 'down' : 'up');
  const equity = position.margin.remaining + unrealisedPnl(side, position.entryNotional, notional);
  return equity <= maintenanceMargin((def.perpetual as PerpetualTerms).tiers, notional);
}

/** Every due position of the instrument at `markTicks`, by looking at each one: the reference for the index. */
export function dueLiquidationsByScan(state: EngineState, instrumentId: string, markTicks: number): string[] {
  const instrument = state.instruments.get(instrumentId);
  const perpetual = instrument === undefined ? undefined : state.perpetuals.get(instrument.index);
  if (instrument === undefined || perpetual === undefined) return [];
  const due: string[] = [];
  for (const position of perpetual.positions.values()) {
    if (isDueAt(instrument, position, markTicks)) due.push(position.userId);
  }
  return due;
}

/** One side's positions bucketed by trigger tick, the ticks kept sorted ascending. */
class SideIndex {
  readonly ticks: number[] = [];
  readonly users = new Map<number, Set<string>>();

  add(tick: number, userId: string): void {
    let bucket = this.users.get(tick);
    if (bucket === undefined) {
      bucket = new Set();
      this.users.set(tick, bucket);
      this.ticks.splice(lowerBound(this.ticks, tick), 0, tick);
    }
    bucket.add(userId);
  }

  remove(tick: number, userId: string): void {
    const bucket = this.users.get(tick);
    if (bucket === undefined) return;
    bucket.delete(userId);
    if (bucket.size > 0) return;
    this.users.delete(tick);
    this.ticks.splice(lowerBound(this.ticks, tick), 1);
  }
}

function lowerBound(sorted: number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

type Entry = { long: boolean; tick: number };

/**
 * The positions of one perpetual indexed by the tick at which the mark would make them due: longs by the
 * highest such tick, shorts by the lowest. A tick's due positions are then the longs at or above it and the
 * shorts at or below it, each confirmed by the exact rule, without looking at the rest. The host keeps it
 * current by calling refresh(userId) for every `position_changed` event of the instrument.
 */
export class LiquidationWatch {
  readonly #state: EngineState;
  readonly #instrumentId: string;
  readonly #longs = new SideIndex();
  readonly #shorts = new SideIndex();
  readonly #entries = new Map<string, Entry>();

  constructor(state: EngineState, instrumentId: string) {
    this.#state = state;
    this.#instrumentId = instrumentId;
    const instrument = state.instruments.get(instrumentId);
    if (instrument === undefined || instrument.def.perpetual === null)
      throw new Error(`not a perpetual: ${instrumentId}`);
    const perpetual = state.perpetuals.get(instrument.index);
    if (perpetual === undefined) return;
    for (const position of perpetual.positions.values()) this.#index(instrument, position);
  }

  /** Positions indexed (those that a mark price could make due). */
  get size(): number {
    return this.#entries.size;
  }

  /** Re-reads one customer's position after it changed (opened, closed, resized, margin or funding). */
  refresh(userId: string): void {
    const entry = this.#entries.get(userId);
    if (entry !== undefined) {
      (entry.long ? this.#longs : this.#shorts).remove(entry.tick, userId);
      this.#entries.delete(userId);
    }
    const instrument = this.#instrument();
    const user = findUser(this.#state, userId);
    const position =
      user === undefined ? undefined : this.#state.perpetuals.get(instrument.index)?.positions.get(user.index);
    if (position !== undefined) this.#index(instrument, position);
  }

  /** The customers whose positions are due for liquidation at `markTicks`, longs first, in a stable order. */
  due(markTicks: number): string[] {
    const instrument = this.#instrument();
    const perpetual = this.#state.perpetuals.get(instrument.index);
    if (perpetual === undefined) return [];
    const due: string[] = [];
    const confirm = (userId: string): void => {
      const user = findUser(this.#state, userId);
      const position = user === undefined ? undefined : perpetual.positions.get(user.index);
      if (position !== undefined && isDueAt(instrument, position, markTicks)) due.push(userId);
    };
    const longTicks = this.#longs.ticks;
    for (let i = longTicks.length - 1; i >= 0 && (longTicks[i] as number) >= markTicks; i--) {
      for (const userId of this.#longs.users.get(longTicks[i] as number) as Set<string>) confirm(userId);
    }
    const shortTicks = this.#shorts.ticks;
    for (let i = 0; i < shortTicks.length && (shortTicks[i] as number) <= markTicks; i++) {
      for (const userId of this.#shorts.users.get(shortTicks[i] as number) as Set<string>) confirm(userId);
    }
    return due;
  }

  #instrument(): InstrumentState {
    return this.#state.instruments.get(this.#instrumentId) as InstrumentState;
  }

  #index(instrument: InstrumentState, position: Position): void {
    const def = instrument.def;
    const long = position.sizeLots > 0;
    const price = liquidationPrice(
      (def.perpetual as PerpetualTerms).tiers,
      {
        side: long ? 1 : -1,
        sizeMinor: BigInt(Math.abs(position.sizeLots)) * def.lotMinor,
        entryNotional: position.entryNotional,
        margin: position.margin.remaining,
      },
      def.baseUnit,
    );
    // No liquidation price ("--"): no mark can make it due.
    if (price === null) return;
    const tick = long
      ? Number(floorDiv(price, def.tickMinor)) + SLACK_TICKS
      : Math.max(0, Number(ceilDiv(price, def.tickMinor)) - SLACK_TICKS);
    (long ? this.#longs : this.#shorts).add(tick, position.userId);
    this.#entries.set(position.userId, { long, tick });
  }
}
