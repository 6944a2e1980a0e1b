// The AI funds' portfolio rules and unit arithmetic (decision 0040), pure: no clock, no engine, no
// database. A rule picks stocks from their past daily closes (the simulator's candles); the portfolio is
// equal-weighted in whole lots; units and cash are exact integers, every rounding down (units to the
// customer rounded down, cash to the customer rounded down), so the fund never pays out more than it has.

export type FundRuleName = 'momentum' | 'low_volatility';

export type Candidate = {
  id: string;
  /** Daily closes in ticks, oldest first (at least two to be ranked). */
  closes: readonly number[];
};

/** The return over the whole window: last / first − 1. */
export function pastReturn(closes: readonly number[]): number {
  const first = closes[0] ?? 0;
  const last = closes[closes.length - 1] ?? 0;
  return first > 0 ? last / first - 1 : 0;
}

/** Realised volatility: the standard deviation of daily log returns (population). */
export function realisedVolatility(closes: readonly number[]): number {
  const r: number[] = [];
  for (let i = 1; i < closes.length; i++) {
    const a = closes[i - 1] ?? 0;
    const b = closes[i] ?? 0;
    if (a > 0 && b > 0) r.push(Math.log(b / a));
  }
  if (r.length === 0) return Number.POSITIVE_INFINITY;
  const mean = r.reduce((s, x) => s + x, 0) / r.length;
  return Math.sqrt(r.reduce((s, x) => s + (x - mean) ** 2, 0) / r.length);
}

/**
 * The `size` stocks the rule holds: momentum the highest past return, low volatility the lowest realised
 * volatility. Ties (and equal scores) go by id, so the same closes always pick the same stocks.
 * Stocks with fewer than `lookback + 1` closes are not ranked (too little history to judge).
 */
export function pick(rule: FundRuleName, candidates: readonly Candidate[], size: number, lookback: number): string[] {
  const scored = candidates
    .filter((c) => c.closes.length >= lookback + 1)
    .map((c) => {
      const window = c.closes.slice(-(lookback + 1));
      return { id: c.id, score: rule === 'momentum' ? -pastReturn(window) : realisedVolatility(window) };
    });
  scored.sort((a, b) => a.score - b.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return scored.slice(0, size).map((s) => s.id);
}

export type Position = {
  id: string;
  /** Lots held now and the price of one lot (minor units of the fund's currency). */
  lots: bigint;
  lotPrice: bigint;
};

/**
 * Lots to hold of each stock: `investable` split equally among `chosen`, each part in whole lots at the
 * stock's lot price (rounded down). Stocks not chosen go to 0.
 */
export function targetLots(
  chosen: readonly string[],
  lotPrices: ReadonlyMap<string, bigint>,
  investable: bigint,
): Map<string, bigint> {
  const out = new Map<string, bigint>();
  if (chosen.length === 0 || investable <= 0n) return out;
  const part = investable / BigInt(chosen.length);
  for (const id of chosen) {
    const price = lotPrices.get(id) ?? 0n;
    out.set(id, price > 0n ? part / price : 0n);
  }
  return out;
}

/** The trades from `positions` to `target`: sells first (they raise the cash the buys need). */
export function rebalanceTrades(
  positions: readonly Position[],
  target: ReadonlyMap<string, bigint>,
): { id: string; side: 'buy' | 'sell'; lots: bigint }[] {
  const held = new Map(positions.map((p) => [p.id, p.lots]));
  const ids = [...new Set([...held.keys(), ...target.keys()])].sort();
  const sells: { id: string; side: 'sell'; lots: bigint }[] = [];
  const buys: { id: string; side: 'buy'; lots: bigint }[] = [];
  for (const id of ids) {
    const diff = (target.get(id) ?? 0n) - (held.get(id) ?? 0n);
    if (diff < 0n) sells.push({ id, side: 'sell', lots: -diff });
    else if (diff > 0n) buys.push({ id, side: 'buy', lots: diff });
  }
  return [...sells, ...buys];
}

/** Minor units of a unit (units have 4 decimals). */
export const UNIT = 10_000n;

/**
 * Units a subscription of `cash` gets at a NAV of `equity` / `units` (floor). Before the fund has units
 * (or when it has no equity left) a unit starts at 1 of the currency: `cash` × 10 000 / 10^scale.
 */
export function unitsFor(cash: bigint, equity: bigint, units: bigint, currencyScale: number): bigint {
  if (units <= 0n || equity <= 0n) return (cash * UNIT) / 10n ** BigInt(currencyScale);
  return (cash * units) / equity;
}

/** Cash for `redeemed` units at a NAV of `equity` / `units` (floor). */
export function cashFor(redeemed: bigint, equity: bigint, units: bigint): bigint {
  if (units <= 0n || equity <= 0n) return 0n;
  return (redeemed * equity) / units;
}

/** NAV per unit in minor units of the currency, with 4 more decimals (floor): equity × 10^4 / units. */
export function navScaled(equity: bigint, units: bigint, currencyScale: number): bigint {
  if (units <= 0n) return 10n ** BigInt(currencyScale) * UNIT;
  return (equity * UNIT * UNIT) / units;
}
