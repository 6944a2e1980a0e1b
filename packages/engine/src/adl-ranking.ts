// Auto-deleveraging's queue of a perpetual, per side: the open positions ranked by profit ratio × effective
// leverage at the mark, uPnL ÷ margin × notional ÷ (margin + uPnL), highest first, ties in the order the
// positions opened. Ranked once per mark and side, then kept ranked: a position that changed since is taken
// out and put back at its new rank, so a tick with thousands of liquidations does not sort every opposite
// position for each of them (bench/README.md, bench:liquidation).
// Must hold: queue() answers exactly what ranking every position afresh would (the engine is replayed from
// its journal and restored from snapshots, where this cache starts empty): so every change of a position
// (positions.ts logPosition) calls touched(), and a new mark makes the side rank again.
// Must not: change positions, or be saved (it is derived from the positions and the mark).

import { notionalMinor } from '@bourse/money';
import type { InstrumentState, Position } from './engine-state.ts';
import { unrealisedPnl } from './perpetual-math.ts';

/** A position with its rank key num ÷ den (both exact) and the key as a float, to compare most pairs fast. */
export type Ranked = {
  readonly position: Position;
  readonly num: bigint;
  readonly den: bigint;
  readonly approx: number;
};

/** Floats closer than this (relative) are compared exactly: the float key's error is ~1e-16. */
const NEAR = 1e-9;

/** Highest key first; equal keys in opening order. Exact (the float only decides pairs far apart). */
export function compareRanked(a: Ranked, b: Ranked): number {
  const gap = a.approx - b.approx;
  if (Math.abs(gap) > NEAR * Math.max(Math.abs(a.approx), Math.abs(b.approx))) return gap > 0 ? -1 : 1;
  const left = a.num * b.den;
  const right = b.num * a.den;
  if (left !== right) return left > right ? -1 : 1;
  return a.position.opened - b.position.opened;
}

/** The rank key of a position at `markTicks` (its notional rounded as positions.ts rounds it). */
export function rankedAt(instrument: InstrumentState, position: Position, markTicks: number): Ranked {
  const def = instrument.def;
  const side = position.sizeLots > 0 ? 1 : -1;
  const size = BigInt(Math.abs(position.sizeLots)) * def.lotMinor;
  const notional = notionalMinor(BigInt(markTicks) * def.tickMinor, size, def.baseUnit, side === 1 ? 'down' : 'up');
  const pnl = unrealisedPnl(side, position.entryNotional, notional);
  const margin = position.margin.remaining > 0n ? position.margin.remaining : 1n;
  const equity = margin + pnl > 0n ? margin + pnl : 1n;
  const num = pnl * notional;
  const den = margin * equity;
  return { position, num, den, approx: Number(num) / Number(den) };
}

/** One side's ranked positions at one mark, and the positions changed since it was last brought current. */
type Side = { markTicks: number; list: Ranked[]; byUser: Map<number, Ranked>; changed: Set<number> };

export class AdlRanking {
  /** [longs, shorts], each made on first use. */
  readonly #sides: [Side | null, Side | null] = [null, null];

  /** A position changed (size, entry, margin), opened or closed: its rank is looked at again on next use. */
  touched(userIndex: number): void {
    for (const side of this.#sides) side?.changed.add(userIndex);
  }

  /**
   * The side's positions (1 long, −1 short) in ADL order at the instrument's mark. The list is the
   * ranking's own: read it, do not keep it past the next change.
   */
  queue(instrument: InstrumentState, positions: ReadonlyMap<number, Position>, side: 1 | -1): readonly Ranked[] {
    const markTicks = instrument.markTicks as number;
    const slot = side === 1 ? 0 : 1;
    const current = this.#sides[slot];
    if (current === null || current.markTicks !== markTicks) {
      const list: Ranked[] = [];
      for (const position of positions.values()) {
        if (Math.sign(position.sizeLots) === side) list.push(rankedAt(instrument, position, markTicks));
      }
      list.sort(compareRanked);
      this.#sides[slot] = {
        markTicks,
        list,
        byUser: new Map(list.map((r) => [r.position.userIndex, r])),
        changed: new Set(),
      };
      return list;
    }
    for (const userIndex of current.changed) {
      const old = current.byUser.get(userIndex);
      if (old !== undefined) {
        current.list.splice(indexOf(current.list, old), 1);
        current.byUser.delete(userIndex);
      }
      const position = positions.get(userIndex);
      if (position === undefined || Math.sign(position.sizeLots) !== side) continue;
      const ranked = rankedAt(instrument, position, markTicks);
      current.list.splice(insertionPoint(current.list, ranked), 0, ranked);
      current.byUser.set(userIndex, ranked);
    }
    current.changed.clear();
    return current.list;
  }
}

/** Where `ranked` goes in the sorted list (after every entry that ranks before it). */
function insertionPoint(list: readonly Ranked[], ranked: Ranked): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareRanked(list[mid] as Ranked, ranked) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The index of an entry of the list (its key orders it: a binary search finds it). */
function indexOf(list: readonly Ranked[], ranked: Ranked): number {
  const at = insertionPoint(list, ranked);
  if (list[at] !== ranked) throw new Error(`ADL ranking lost the position of ${ranked.position.userId}`);
  return at;
}
