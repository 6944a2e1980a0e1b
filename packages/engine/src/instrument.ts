// Owns instrument definitions: base/quote assets, the wallet they settle in, tick and lot sizes, fees,
// price band and market protection, and the conversions between decimals and integer ticks/lots.
// Must hold: one tick × one lot is worth at least one quote minor unit, so no trade is ever free.
// Must not: hold order or balance state (the engine keeps that beside the definition).

import {
  type Asset,
  bpsOf,
  bpsOfDownSafe,
  formatDecimal,
  notionalMinor,
  notionalMinorDownSafe,
  tryParseDecimal,
  unitOf,
} from '@bourse/money';
import { type AssetRegistry, assetOfCode } from './assets.ts';
import type { Wallet } from './ledger.ts';
import { WALLETS } from './ledger.ts';
import type { StpMode } from './order-book.ts';
import { type PerpetualSpec, type PerpetualTerms, parsePerpetualTerms } from './perpetual-math.ts';
import { MAX_TICK_LIMIT } from './price-levels.ts';

/**
 * Spot and stock settle immediately in base and quote; `perpetual` settles in positions and margin in
 * its collateral (positions.ts), its terms in the spec's `perpetual` section (perpetual-math.ts).
 */
export type InstrumentKind = 'spot' | 'stock' | 'perpetual';

/** The JSON definition carried by the register_instrument command. */
export type InstrumentSpec = {
  id: string;
  kind: InstrumentKind;
  base: string;
  quote: string;
  /** The wallet whose accounts this instrument settles in (`stock` for shares, `spot` for crypto). */
  wallet: Wallet;
  /** Decimal quote amount per tick, per one whole base unit ("0.05" INR, "0.01" USDT). */
  tickSize: string;
  /** Decimal base amount per lot ("1" share, "0.0001" BTC). */
  lotSize: string;
  /** Highest price in ticks the book can hold (its page directory is sized from it). */
  maxPriceTicks: number;
  minQtyLots: number;
  maxQtyLots: number;
  makerFeeBps: number;
  takerFeeBps: number;
  /** Market orders trade no further than this from the best opposite price; the rest is cancelled. */
  marketProtectionBps: number;
  /** Self-trade prevention when the order names none. */
  defaultStp: StpMode;
  /**
   * Shares bought stay held (a `settlement` hold on the buyer's base account) until a `settle_trades`
   * command releases them: T+1 / D+2 markets. Absent means false (and keeps older snapshots' hashes).
   */
  lockBoughtUntilSettled?: boolean;
  /** Kind `perpetual` only: collateral, leverage and maintenance margin tiers (perpetual-math.ts). */
  perpetual?: PerpetualSpec;
};

/** The definition with its numbers parsed once, for the hot path. */
export type Instrument = {
  readonly spec: InstrumentSpec;
  readonly id: string;
  readonly base: Asset;
  readonly quote: Asset;
  readonly tickMinor: bigint;
  readonly lotMinor: bigint;
  readonly baseUnit: bigint;
  readonly maxFeeBps: number;
  /** spec.lockBoughtUntilSettled === true. */
  readonly locksBought: boolean;
  /** The perpetual terms of a `perpetual` instrument, null for every other kind (the per-kind switch). */
  readonly perpetual: PerpetualTerms | null;
  /** lotMinor as a number for the float64 fast path, or 0 when not safe. */
  readonly lotMinorN: number;
  /**
   * tickMinor × lotMinor / baseUnit reduced to lowest terms (numbers, or 0 when not safe): a trade's
   * notional is floor(ticks × lots × notionalNum / notionalDen), which for BTC/USDT (0.01 × 0.0001 / 1e-8)
   * is just ticks × lots, with no bigint and no overflow.
   */
  readonly notionalNum: number;
  readonly notionalDen: number;
};

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function notionalFraction(tickLot: bigint, baseUnit: bigint): { notionalNum: number; notionalDen: number } {
  const g = gcd(tickLot, baseUnit);
  const num = safeNumber(tickLot / g);
  const den = safeNumber(baseUnit / g);
  return num === 0 || den === 0 ? { notionalNum: 0, notionalDen: 0 } : { notionalNum: num, notionalDen: den };
}

function safeNumber(value: bigint): number {
  return value <= MAX_SAFE ? Number(value) : 0;
}

/** The highest maker or taker fee an instrument may charge (register_instrument, set_instrument_fees). */
export const MAX_FEE_BPS = 1_000;
const MAX_PROTECTION_BPS = 5_000;

/** The definition with its numbers parsed, or undefined if invalid; its assets must be known to `assets`. */
export function parseInstrument(spec: InstrumentSpec, assets: AssetRegistry): Instrument | undefined {
  if (typeof spec !== 'object' || spec === null) return undefined;
  if (typeof spec.id !== 'string' || !/^[A-Za-z0-9:_.-]{1,40}$/.test(spec.id)) return undefined;
  if (spec.kind !== 'spot' && spec.kind !== 'stock' && spec.kind !== 'perpetual') return undefined;
  if (!(WALLETS as readonly string[]).includes(spec.wallet) || spec.wallet === 'platform') return undefined;
  const base = typeof spec.base === 'string' ? assetOfCode(assets, spec.base) : undefined;
  const quote = typeof spec.quote === 'string' ? assetOfCode(assets, spec.quote) : undefined;
  if (!base || !quote || base.code === quote.code) return undefined;
  const tick = tryParseDecimal(String(spec.tickSize), quote.scale);
  const lot = tryParseDecimal(String(spec.lotSize), base.scale);
  if (!tick.ok || !lot.ok || tick.minor <= 0n || lot.minor <= 0n) return undefined;
  const baseUnit = unitOf(base);
  if (tick.minor * lot.minor < baseUnit) return undefined;
  if (!isIntIn(spec.maxPriceTicks, 1, MAX_TICK_LIMIT)) return undefined;
  if (!isIntIn(spec.minQtyLots, 1, Number.MAX_SAFE_INTEGER)) return undefined;
  if (!isIntIn(spec.maxQtyLots, spec.minQtyLots, 2 ** 40)) return undefined;
  if (!isValidFeeBps(spec.makerFeeBps) || !isValidFeeBps(spec.takerFeeBps)) return undefined;
  if (!isIntIn(spec.marketProtectionBps, 1, MAX_PROTECTION_BPS)) return undefined;
  if (!['cancel_resting', 'cancel_taker', 'cancel_both'].includes(spec.defaultStp)) return undefined;
  if (spec.lockBoughtUntilSettled !== undefined && typeof spec.lockBoughtUntilSettled !== 'boolean') return undefined;
  // A perpetual settles in its `contract` wallet and has terms; no other kind may carry them.
  let perpetual: PerpetualTerms | null = null;
  if (spec.kind === 'perpetual') {
    if (spec.wallet !== 'contract' || spec.lockBoughtUntilSettled === true) return undefined;
    const terms = parsePerpetualTerms(spec.perpetual, quote);
    if (terms === undefined) return undefined;
    perpetual = terms;
  } else if (spec.perpetual !== undefined) return undefined;
  return {
    spec,
    id: spec.id,
    base,
    quote,
    tickMinor: tick.minor,
    lotMinor: lot.minor,
    baseUnit,
    maxFeeBps: Math.max(spec.makerFeeBps, spec.takerFeeBps),
    locksBought: spec.lockBoughtUntilSettled === true,
    perpetual,
    lotMinorN: safeNumber(lot.minor),
    ...notionalFraction(tick.minor * lot.minor, baseUnit),
  };
}

/** A maker or taker fee an instrument may have: whole basis points from 0 to MAX_FEE_BPS. */
export function isValidFeeBps(value: unknown): value is number {
  return isIntIn(value, 0, MAX_FEE_BPS);
}

export function isIntIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;
}

/** Base minor units in `lots`. */
export function lotsToMinor(instrument: Instrument, lots: number): bigint {
  const fast = lots * instrument.lotMinorN;
  return fast !== 0 && fast <= Number.MAX_SAFE_INTEGER ? BigInt(fast) : BigInt(lots) * instrument.lotMinor;
}

/** lotsToMinor as a safe-integer number, or -1 (then use lotsToMinor). */
export function lotsToMinorSafe(instrument: Instrument, lots: number): number {
  const fast = lots * instrument.lotMinorN;
  return fast !== 0 && fast <= Number.MAX_SAFE_INTEGER ? fast : -1;
}

/** Quote minor units a trade of `lots` at `ticks` is worth: rounded down, paid and received alike. */
export function tradeNotional(instrument: Instrument, ticks: number, lots: number): bigint {
  return notionalMinor(
    BigInt(ticks) * instrument.tickMinor,
    BigInt(lots) * instrument.lotMinor,
    instrument.baseUnit,
    'down',
  );
}

/**
 * tradeNotional as a number when every step stays an integer below 2^53 (almost always), else -1.
 * Exact: see notionalMinorDownSafe. The hot path uses it and falls back to the bigint path on -1.
 */
export function tradeNotionalSafe(instrument: Instrument, ticks: number, lots: number): number {
  const tickLots = ticks * lots;
  if (instrument.notionalDen === 0 || !(tickLots <= Number.MAX_SAFE_INTEGER)) return -1;
  return notionalMinorDownSafe(tickLots, instrument.notionalNum, instrument.notionalDen);
}

/** Fees round down, in the customer's favour; that is also what lets a buy hold cover every fill. */
export function feeOf(notional: bigint, feeBps: number): bigint {
  return feeBps === 0 ? 0n : bpsOf(notional, feeBps, 'down');
}

/** feeOf for a safe-integer notional, or -1 (then use feeOf). */
export function feeOfSafe(notional: number, feeBps: number): number {
  return feeBps === 0 ? 0 : bpsOfDownSafe(notional, feeBps);
}

/**
 * What a buy order reserves: its notional at the limit price plus the larger of the two fees (the
 * instrument's current ones, or `maxFeeBps`: the larger of the fees the order captured when placed).
 * Enough because floor is superadditive: the fills' rounded-down notionals and fees never sum to more.
 */
export function buyHoldFor(
  instrument: Instrument,
  limitTicks: number,
  lots: number,
  maxFeeBps: number = instrument.maxFeeBps,
): bigint {
  const fast = buyHoldForSafe(instrument, limitTicks, lots, maxFeeBps);
  if (fast !== -1) return BigInt(fast);
  const notional = tradeNotional(instrument, limitTicks, lots);
  return notional + feeOf(notional, maxFeeBps);
}

/** buyHoldFor as a safe-integer number, or -1 (then use buyHoldFor). */
export function buyHoldForSafe(instrument: Instrument, limitTicks: number, lots: number, maxFeeBps: number): number {
  const fast = tradeNotionalSafe(instrument, limitTicks, lots);
  if (fast === -1) return -1;
  const fee = maxFeeBps === 0 ? 0 : bpsOfDownSafe(fast, maxFeeBps);
  return fee !== -1 && fast + fee <= Number.MAX_SAFE_INTEGER ? fast + fee : -1;
}

export type ConversionResult =
  | { ok: true; value: number }
  | { ok: false; code: 'invalid_price' | 'invalid_quantity' | 'price_not_on_tick' | 'quantity_not_on_lot' };

/** "2950.05" → ticks, for the host turning a customer's decimal into a command. */
export function priceToTicks(instrument: Instrument, price: string): ConversionResult {
  const parsed = tryParseDecimal(price, instrument.quote.scale);
  if (!parsed.ok || parsed.minor <= 0n) {
    return { ok: false, code: parsed.ok || parsed.code === 'invalid_decimal' ? 'invalid_price' : 'price_not_on_tick' };
  }
  if (parsed.minor % instrument.tickMinor !== 0n) return { ok: false, code: 'price_not_on_tick' };
  const ticks = parsed.minor / instrument.tickMinor;
  if (ticks > BigInt(instrument.spec.maxPriceTicks)) return { ok: false, code: 'invalid_price' };
  return { ok: true, value: Number(ticks) };
}

/** "0.0005" BTC → lots. */
export function quantityToLots(instrument: Instrument, quantity: string): ConversionResult {
  const parsed = tryParseDecimal(quantity, instrument.base.scale);
  if (!parsed.ok || parsed.minor <= 0n) {
    return {
      ok: false,
      code: parsed.ok || parsed.code === 'invalid_decimal' ? 'invalid_quantity' : 'quantity_not_on_lot',
    };
  }
  if (parsed.minor % instrument.lotMinor !== 0n) return { ok: false, code: 'quantity_not_on_lot' };
  const lots = parsed.minor / instrument.lotMinor;
  if (lots > 2n ** 40n) return { ok: false, code: 'invalid_quantity' };
  return { ok: true, value: Number(lots) };
}

export function ticksToPrice(instrument: Instrument, ticks: number): string {
  return formatDecimal(BigInt(ticks) * instrument.tickMinor, instrument.quote.scale);
}

export function lotsToQuantity(instrument: Instrument, lots: number): string {
  return formatDecimal(BigInt(lots) * instrument.lotMinor, instrument.base.scale);
}
