// The robots' rule-based strategies (PRODUCT.md "Robots"): grid, DCA and trend-following, as pure
// functions. Given the market (last price, recent closes, the time), the run's wallet and its open
// orders, its memo and a seed, each answers which orders to cancel and which to place, and its next memo.
// Must hold: deterministic (no clock, randomness or I/O: the time and the seed come in), so a tick
// replayed gives the same orders and the back-test runs the very same code. Must not: move money or
// know the engine (the service turns a decision into ordinary place/cancel commands).
// Stocks (decision 0035, "Stock robots"): the same rules under the paper venue's constraints, all given
// in the input: no orders while the exchange is closed (market.open false), prices kept inside the day's
// band (market.band), whole lots only (the sizing counts lots), and only settled shares sold
// (wallet.lockedLots are bought shares still locked until settlement).

export const STRATEGY_KINDS = ['grid', 'dca', 'trend'] as const;
export type StrategyKind = (typeof STRATEGY_KINDS)[number];

/** A "market" decision is sent as an IOC limit this far beyond the last price (it never sweeps the book). */
export const ROBOT_SLIPPAGE_BPS = 50;

export type GridParams = { kind: 'grid'; lowTicks: number; highTicks: number; levels: number };
export type DcaParams = { kind: 'dca'; everyMs: number; buyMinor: bigint };
export type TrendParams = { kind: 'trend'; fastPeriod: number; slowPeriod: number };
export type StrategyParams = GridParams | DcaParams | TrendParams;

/** The day's price band in ticks (a stock's; crypto has none): orders outside it are refused. */
export type Band = { loTicks: number | null; hiTicks: number | null };

export type MarketState = {
  nowMs: number;
  lastTicks: number;
  /** Closing prices of recent candles, oldest first (the trend follower's input). */
  closes: readonly number[];
  /** False while a stock's exchange is closed: the strategy is idle (absent: always open, as crypto). */
  open?: boolean;
  band?: Band;
};

/**
 * The run's sub-account: totals, including what its open orders hold. `lockedLots`: bought shares still
 * locked until settlement (T+1, B3 D+2), which cannot be sold yet (absent: none, as crypto).
 */
export type RobotWallet = { quoteMinor: bigint; baseLots: number; lockedLots?: number };

export type OpenOrder = { tag: string; side: 'buy' | 'sell'; priceTicks: number; qtyLots: number };

export type Sizing = {
  /** The quote amount (minor units) of `lots` lots at `ticks` (the engine's tradeNotional). */
  notional(ticks: number, lots: number): bigint;
  /** The higher of the pair's maker and taker fees. */
  feeBps: number;
};

/** What a strategy remembers between ticks (stored with the run as JSON). */
export type Memo = { init?: boolean; next?: number; n?: number };

export type PlaceDecision = {
  tag: string;
  side: 'buy' | 'sell';
  /** limit: rests at priceTicks; market: an IOC limit ROBOT_SLIPPAGE_BPS beyond the last price. */
  type: 'limit' | 'market';
  priceTicks: number;
  qtyLots: number;
};

export type Decision = { cancel: string[]; place: PlaceDecision[]; memo: Memo };

export type StrategyInput = {
  params: StrategyParams;
  market: MarketState;
  wallet: RobotWallet;
  open: readonly OpenOrder[];
  memo: Memo;
  /** The run's capital (minor units): the grid sizes its levels from it. */
  capitalMinor: bigint;
  sizing: Sizing;
  seed: number;
};

/** The limit price a "market" decision is sent at, kept inside the day's band when there is one. */
export function marketLimitTicks(side: 'buy' | 'sell', lastTicks: number, band?: Band): number {
  const ticks =
    side === 'buy'
      ? Math.ceil((lastTicks * (10_000 + ROBOT_SLIPPAGE_BPS)) / 10_000)
      : Math.max(1, Math.floor((lastTicks * (10_000 - ROBOT_SLIPPAGE_BPS)) / 10_000));
  if (side === 'buy' && band?.hiTicks != null) return Math.min(ticks, band.hiTicks);
  if (side === 'sell' && band?.loTicks != null) return Math.max(ticks, band.loTicks);
  return ticks;
}

/** Whether a limit price is inside the day's band (the engine refuses one outside it). */
export function insideBand(ticks: number, band?: Band): boolean {
  return !((band?.loTicks != null && ticks < band.loTicks) || (band?.hiTicks != null && ticks > band.hiTicks));
}

/** The lots the run may sell: what it holds less what is still locked until settlement. */
export function sellableLots(wallet: RobotWallet): number {
  return Math.max(0, wallet.baseLots - (wallet.lockedLots ?? 0));
}

/** The most lots `budget` buys at `ticks`, with the fee on top. */
export function lotsFor(budget: bigint, ticks: number, sizing: Sizing): number {
  const one = sizing.notional(ticks, 1);
  if (one <= 0n || budget <= 0n) return 0;
  const perLot = one + (one * BigInt(sizing.feeBps) + 9_999n) / 10_000n;
  const lots = budget / perLot;
  return lots > 1_000_000n ? 1_000_000 : Number(lots);
}

export function decide(input: StrategyInput): Decision {
  // The exchange is closed: nothing is placed or cancelled and the memo stays (a DCA buy due meanwhile
  // is made once at the open). The period's clock keeps running.
  if (input.market.open === false) return { cancel: [], place: [], memo: input.memo };
  switch (input.params.kind) {
    case 'grid':
      return grid(input, input.params);
    case 'dca':
      return dca(input, input.params);
    case 'trend':
      return trend(input, input.params);
  }
}

/** The grid's price lines, lowest first: levels + 1 lines from low to high. */
export function gridLines(p: GridParams): number[] {
  const lines: number[] = [];
  for (let i = 0; i <= p.levels; i++) lines.push(p.lowTicks + Math.round((i * (p.highTicks - p.lowTicks)) / p.levels));
  return [...new Set(lines)];
}

/**
 * Grid: the capital is split into `levels` equal parts. At the start it buys, at market, the parts for
 * the lines above the price (what it will sell as the price rises). Then it keeps one buy resting at the
 * nearest line below the price and one sell at the nearest line above (while it holds a part to sell):
 * each crossing of a line fills one, and the next tick puts up the next pair.
 */
function grid(input: StrategyInput, p: GridParams): Decision {
  const { market, wallet, sizing } = input;
  const lines = gridLines(p);
  const mid = Math.round((p.lowTicks + p.highTicks) / 2);
  const lotsPerLevel = lotsFor(input.capitalMinor / BigInt(Math.max(1, p.levels)), mid, sizing);
  const memo: Memo = { ...input.memo };
  const place: PlaceDecision[] = [];
  const wanted: PlaceDecision[] = [];
  if (lotsPerLevel === 0) return { cancel: input.open.map((o) => o.tag), place, memo: { ...memo, init: true } };
  if (!memo.init) {
    memo.init = true;
    const above = lines.filter((l) => l > market.lastTicks).length;
    const priceTicks = marketLimitTicks('buy', market.lastTicks, market.band);
    const afford = lotsFor(wallet.quoteMinor, priceTicks, sizing);
    const lots = Math.min(Math.min(above, p.levels) * lotsPerLevel, afford);
    if (lots > 0) {
      place.push({
        tag: 'g:open',
        side: 'buy',
        type: 'market',
        priceTicks,
        qtyLots: lots,
      });
      // The first resting pair waits for the next tick, when the opening buy has filled.
      return { cancel: [], place, memo };
    }
  }
  // Lines outside the day's band are not used (the engine would refuse them); the next day's band may
  // bring them back.
  const below = lines.filter((l) => l < market.lastTicks && insideBand(l, market.band)).at(-1);
  const above = lines.find((l) => l > market.lastTicks && insideBand(l, market.band));
  // The wallet's totals include what its own open orders hold: those are replaced, not added to. Shares
  // still locked until settlement are not counted for a sell.
  if (below !== undefined && lotsFor(wallet.quoteMinor, below, sizing) >= lotsPerLevel)
    wanted.push({ tag: `g:b:${below}`, side: 'buy', type: 'limit', priceTicks: below, qtyLots: lotsPerLevel });
  if (above !== undefined && sellableLots(wallet) >= lotsPerLevel)
    wanted.push({ tag: `g:s:${above}`, side: 'sell', type: 'limit', priceTicks: above, qtyLots: lotsPerLevel });
  const wantedTags = new Set(wanted.map((w) => w.tag));
  const openTags = new Set(input.open.map((o) => o.tag));
  return {
    cancel: input.open.filter((o) => !wantedTags.has(o.tag)).map((o) => o.tag),
    place: wanted.filter((w) => !openTags.has(w.tag)),
    memo,
  };
}

/** A number in [0, 1) from the seed and a counter (mulberry32's mix): the same pair, the same number. */
export function seeded(seed: number, n: number): number {
  let t = (seed + Math.imul(n + 1, 0x6d2b79f5)) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}

/**
 * DCA: buys `buyMinor` worth at market at the start and then every `everyMs`, each later buy moved by
 * up to a tenth of the interval by the seed (so runs started together do not all buy in the same second).
 * It never sells before the run ends.
 */
function dca(input: StrategyInput, p: DcaParams): Decision {
  const { market, wallet, sizing } = input;
  const n = input.memo.n ?? 0;
  const next = input.memo.next ?? market.nowMs;
  if (market.nowMs < next) return { cancel: [], place: [], memo: input.memo };
  const price = marketLimitTicks('buy', market.lastTicks, market.band);
  // biome-ignore lint/complexity/useMathMinMax: bigints (Math.min takes numbers)
  const budget = p.buyMinor < wallet.quoteMinor ? p.buyMinor : wallet.quoteMinor;
  const lots = lotsFor(budget, price, sizing);
  const jitter = Math.floor(seeded(input.seed, n) * (p.everyMs / 10));
  // From now when ticks were missed (a restart, a slow job): one buy, never a burst making up the gap.
  const memo: Memo = { ...input.memo, n: n + 1, next: Math.max(next, market.nowMs) + p.everyMs + jitter };
  if (lots === 0) return { cancel: [], place: [], memo };
  return {
    cancel: [],
    place: [{ tag: `d:${n}`, side: 'buy', type: 'market', priceTicks: price, qtyLots: lots }],
    memo,
  };
}

const average = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Trend-following (SMA crossover): holds the coin (or shares) while the fast average of recent closes is
 * above the slow one, and the quote money otherwise. Buys with (almost) all its money, sells all it may
 * (settled shares), at market.
 */
function trend(input: StrategyInput, p: TrendParams): Decision {
  const { market, wallet, sizing } = input;
  const memo: Memo = { ...input.memo };
  const n = memo.n ?? 0;
  if (market.closes.length < p.slowPeriod) return { cancel: [], place: [], memo };
  const fast = average(market.closes.slice(-p.fastPeriod));
  const slow = average(market.closes.slice(-p.slowPeriod));
  if (fast > slow && wallet.baseLots === 0) {
    const price = marketLimitTicks('buy', market.lastTicks, market.band);
    const lots = lotsFor(wallet.quoteMinor, price, sizing);
    if (lots === 0) return { cancel: [], place: [], memo };
    return {
      cancel: [],
      place: [{ tag: `t:${n}`, side: 'buy', type: 'market', priceTicks: price, qtyLots: lots }],
      memo: { ...memo, n: n + 1 },
    };
  }
  // Only settled shares are sold; locked ones wait for a later tick (the fast average still below).
  const sellable = sellableLots(wallet);
  if (fast < slow && sellable > 0) {
    const price = marketLimitTicks('sell', market.lastTicks, market.band);
    return {
      cancel: [],
      place: [{ tag: `t:${n}`, side: 'sell', type: 'market', priceTicks: price, qtyLots: sellable }],
      memo: { ...memo, n: n + 1 },
    };
  }
  return { cancel: [], place: [], memo };
}

// --- performance fee ------------------------------------------------------------------------------

/**
 * The platform's performance fee: `ratioBps` of the profit above the high-water mark, rounded down (in
 * the customer's favour); nothing on a loss or on profit that only wins back an earlier loss.
 */
export function performanceFee(finalMinor: bigint, highWaterMinor: bigint, ratioBps: number): bigint {
  const above = finalMinor - highWaterMinor;
  if (above <= 0n || ratioBps <= 0) return 0n;
  return (above * BigInt(ratioBps)) / 10_000n;
}

// --- back-test ------------------------------------------------------------------------------------

export type Candle = { startMs: number; high: number; low: number; close: number };

export type BacktestResult = {
  fromMs: number;
  toMs: number;
  startMinor: bigint;
  endMinor: bigint;
  trades: number;
  feesMinor: bigint;
  /** The worst fall from a peak of the value, in basis points. */
  maxDrawdownBps: number;
};

/**
 * Runs a strategy over past candles with a plain fill model: at each candle a resting buy fills if the
 * low reached its price, a resting sell if the high did, at the order's price; a market decision fills
 * at the candle's close ± the slippage. Every fill pays the higher fee. Then the strategy decides at the
 * close. Past simulated prices only: a description of what the rules would have done, not a forecast.
 */
export function backtest(opts: {
  params: StrategyParams;
  candles: readonly Candle[];
  capitalMinor: bigint;
  sizing: Sizing;
  seed: number;
}): BacktestResult | null {
  const { candles, sizing } = opts;
  const first = candles[0];
  const last = candles.at(-1);
  if (!first || !last || candles.length < 2) return null;
  let quote = opts.capitalMinor;
  let base = 0;
  let memo: Memo = {};
  let open: OpenOrder[] = [];
  let trades = 0;
  let fees = 0n;
  let peak = opts.capitalMinor;
  let drawdown = 0;
  const fill = (side: 'buy' | 'sell', ticks: number, lots: number) => {
    const notional = sizing.notional(ticks, lots);
    const fee = (notional * BigInt(sizing.feeBps)) / 10_000n;
    if (side === 'buy') {
      if (notional + fee > quote) return;
      quote -= notional + fee;
      base += lots;
    } else {
      if (lots > base) return;
      quote += notional - fee;
      base -= lots;
    }
    fees += fee;
    trades++;
  };
  const closes: number[] = [];
  for (const c of candles) {
    const kept: OpenOrder[] = [];
    for (const o of open) {
      if (o.side === 'buy' && c.low <= o.priceTicks) fill('buy', o.priceTicks, o.qtyLots);
      else if (o.side === 'sell' && c.high >= o.priceTicks) fill('sell', o.priceTicks, o.qtyLots);
      else kept.push(o);
    }
    open = kept;
    closes.push(c.close);
    const decision = decide({
      params: opts.params,
      market: { nowMs: c.startMs, lastTicks: c.close, closes: closes.slice(-200) },
      wallet: { quoteMinor: quote, baseLots: base },
      open,
      memo,
      capitalMinor: opts.capitalMinor,
      sizing,
      seed: opts.seed,
    });
    memo = decision.memo;
    open = open.filter((o) => !decision.cancel.includes(o.tag));
    for (const p of decision.place) {
      if (p.type === 'market') fill(p.side, marketLimitTicks(p.side, c.close), p.qtyLots);
      else open.push({ tag: p.tag, side: p.side, priceTicks: p.priceTicks, qtyLots: p.qtyLots });
    }
    const value = quote + sizing.notional(c.close, base);
    if (value > peak) peak = value;
    else if (peak > 0n) drawdown = Math.max(drawdown, Number(((peak - value) * 10_000n) / peak));
  }
  // The end: what is held is valued at the last close less the fee of selling it.
  const proceeds = sizing.notional(last.close, base);
  const endMinor = quote + proceeds - (proceeds * BigInt(sizing.feeBps)) / 10_000n;
  return {
    fromMs: first.startMs,
    toMs: last.startMs,
    startMinor: opts.capitalMinor,
    endMinor,
    trades,
    feesMinor: fees,
    maxDrawdownBps: drawdown,
  };
}
