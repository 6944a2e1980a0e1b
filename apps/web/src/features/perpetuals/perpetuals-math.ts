// Pure rules of the contract order form and position rows: TP/SL on the right side of the price, the
// "% of available margin" quantity, the cost estimate before the server's preview (initial margin + fee),
// the leverage presets and the countdown to the next funding. Exact decimals only
// (@bourse/money, bigint): the server's figures are the truth, these are the form's estimates.
import { compareDecimal, decimalPlaces, formatDecimal, isMultipleOf, MAX_SCALE, tryParseDecimal } from '@bourse/money';

export type PerpDirection = 'long' | 'short';

/** Codes named like the server's catalogue (packages/contract/src/errors.ts) where one exists. */
export type TriggerError = 'invalid_price' | 'amount_zero' | 'price_not_on_tick' | 'trigger_wrong_side';

const plainDecimal = /^\d+(\.\d+)?$/;

function priceError(text: string, tickSize: string): TriggerError | undefined {
  const value = text.trim();
  if (!plainDecimal.test(value) || decimalPlaces(value) > 18) return 'invalid_price';
  if (compareDecimal(value, '0') === 0) return 'amount_zero';
  if (!isMultipleOf(value, tickSize)) return 'price_not_on_tick';
  return undefined;
}

/**
 * Take-profit and stop-loss prices (each optional: '' is none) against the reference price (the order's
 * price, the mark for a market order, the entry for an open position). A long profits above it and stops
 * below it; a short the other way round. An equal price is on the wrong side (it would trigger at once).
 */
export function validateTpSl(args: {
  direction: PerpDirection;
  reference: string | null | undefined;
  takeProfit: string;
  stopLoss: string;
  tickSize: string;
}): { takeProfit?: TriggerError; stopLoss?: TriggerError } {
  const errors: { takeProfit?: TriggerError; stopLoss?: TriggerError } = {};
  const hasReference = Boolean(args.reference && plainDecimal.test(args.reference));
  const check = (text: string, above: boolean): TriggerError | undefined => {
    if (text.trim() === '') return undefined;
    const format = priceError(text, args.tickSize);
    if (format || !hasReference) return format;
    const order = compareDecimal(text.trim(), args.reference);
    return (above ? order > 0 : order < 0) ? undefined : 'trigger_wrong_side';
  };
  const isLong = args.direction === 'long';
  const takeProfit = check(args.takeProfit, isLong);
  const stopLoss = check(args.stopLoss, !isLong);
  if (takeProfit) errors.takeProfit = takeProfit;
  if (stopLoss) errors.stopLoss = stopLoss;
  return errors;
}

function scaled(text: string | null | undefined, scale: number, rounding: 'down' | 'up' = 'down'): bigint | null {
  if (!text) return null;
  const parsed = tryParseDecimal(text.trim(), scale, rounding);
  return parsed.ok ? parsed.minor : null;
}

const clampPct = (pct: number) => BigInt(Math.max(0, Math.min(100, Math.round(pct))));

/**
 * The quantity whose initial margin plus taker fee is pct % of the available margin:
 * q = available·pct/100 / (price·(1/leverage + fee)), rounded down to whole lots; '' when nothing fits.
 */
export function perpQuantityForPercent(args: {
  pct: number;
  available: string | null | undefined;
  price: string | null | undefined;
  leverage: number;
  lotSize: string;
  takerFeeBps: number;
}): string {
  const pct = clampPct(args.pct);
  const lotScale = decimalPlaces(args.lotSize);
  const lot = scaled(args.lotSize, lotScale);
  const leverage = BigInt(Math.max(1, Math.round(args.leverage)));
  if (lot === null || lot <= 0n || pct === 0n) return '';
  const scale = Math.min(MAX_SCALE, Math.max(decimalPlaces(args.available), decimalPlaces(args.price)));
  const cash = scaled(args.available, scale);
  const price = scaled(args.price, scale);
  if (cash === null || price === null || price <= 0n || cash <= 0n) return '';
  const feeBps = BigInt(Math.max(0, Math.round(args.takerFeeBps)));
  // q·price·(10_000 + leverage·fee) / (10_000·leverage) ≤ cash·pct/100, in lots at the lot's scale.
  const numerator = cash * pct * 10_000n * leverage * 10n ** BigInt(lotScale);
  const denominator = 100n * (10_000n + leverage * feeBps) * price * lot;
  const lots = numerator / denominator;
  return lots > 0n ? formatDecimal(lots * lot, lotScale) : '';
}

export interface OpenCost {
  notional: string;
  /** notional / leverage, rounded up (what the server holds is never less). */
  margin: string;
  /** notional × taker fee, rounded up. */
  fee: string;
  total: string;
}

/** The estimate shown until the server's preview answers; at `decimals` (the collateral's scale). */
export function estimateOpenCost(args: {
  price: string | null | undefined;
  quantity: string;
  leverage: number;
  takerFeeBps: number;
  decimals: number;
}): OpenCost | null {
  const price = args.price?.trim() ?? '';
  const quantity = args.quantity.trim();
  if (!plainDecimal.test(price) || !plainDecimal.test(quantity)) return null;
  const scale = decimalPlaces(price) + decimalPlaces(quantity);
  if (scale > MAX_SCALE) return null;
  const product = BigInt(price.replace('.', '')) * BigInt(quantity.replace('.', ''));
  const unit = 10n ** BigInt(scale);
  const out = 10n ** BigInt(args.decimals);
  const leverage = BigInt(Math.max(1, Math.round(args.leverage)));
  const feeBps = BigInt(Math.max(0, Math.round(args.takerFeeBps)));
  const ceil = (n: bigint, d: bigint) => (n + d - 1n) / d;
  const notional = ceil(product * out, unit);
  const margin = ceil(product * out, unit * leverage);
  const fee = ceil(product * out * feeBps, unit * 10_000n);
  const text = (minor: bigint) => formatDecimal(minor, args.decimals);
  return { notional: text(notional), margin: text(margin), fee: text(fee), total: text(margin + fee) };
}

const standardLeverages = [2, 5, 10, 20, 50, 75, 100];

/** The preset buttons of the leverage sheet: 1×, the three usual steps just below `max`, and `max`. */
export function leveragePresets(max: number): number[] {
  const top = Math.max(1, Math.floor(max));
  const steps = standardLeverages.filter((value) => value < top).slice(-3);
  return [...new Set([1, ...steps, top])];
}

/** Leverage kept within 1 and the allowed maximum, in whole steps. */
export function clampLeverage(value: number, max: number): number {
  return Math.max(1, Math.min(Math.floor(max), Math.round(value)));
}

const fundingHoursUtc = [0, 8, 16];

/** The next funding instant (00:00, 08:00, 16:00 UTC) strictly after `nowMs`. */
export function nextFundingAt(nowMs: number): number {
  const day = new Date(nowMs);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  for (const hour of fundingHoursUtc) {
    const at = midnight + hour * 3_600_000;
    if (at > nowMs) return at;
  }
  return midnight + 24 * 3_600_000;
}

/** "hh:mm:ss" until `targetMs` (never negative). */
export function countdown(targetMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.floor((targetMs - nowMs) / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}

/**
 * A fraction as a signed percentage with `decimals` decimals, exactly, rounded toward zero (so a loss or a
 * rate is never shown bigger than it is): "0.0001" → "0.0100" (4), "-0.1234" → "-12.34" (2).
 */
export function fractionAsPercent(fraction: string | null | undefined, decimals: number): string | null {
  const text = fraction?.trim() ?? '';
  if (!/^-?\d+(\.\d+)?$/.test(text)) return null;
  const negative = text.startsWith('-');
  const scale = Math.min(MAX_SCALE, decimalPlaces(text));
  const parsed = tryParseDecimal(negative ? text.slice(1) : text, scale, 'down');
  if (!parsed.ok) return null;
  // percent = fraction × 100: the same digits at a scale two smaller.
  const minor = parsed.minor * 100n;
  const shown = formatDecimal(minor, scale, scale > decimals ? { decimals, rounding: 'down' } : { decimals });
  return negative && /[1-9]/.test(shown) ? `-${shown}` : shown;
}

/** A maintenance tier as the contract view gives it (decimal strings; the rate a fraction). */
export interface TierText {
  floor: string;
  maintenanceMarginRate: string;
  maintenanceAmount: string;
}

const moneyScale = 8;
const ppm = 1_000_000n;

/**
 * The liquidation price a new isolated position would have (DOMAIN.md, as the engine computes it):
 * LP = (WB + cum − side·q·EP) / (q·(MMR − side)), the tier the one of the notional at LP, rounded against
 * the customer (a long's up, a short's down) to the tick's decimals. Null when no price liquidates it
 * (a 1× long) or an input is not a plain decimal. Only an estimate: the server's figure is shown once
 * the position exists.
 */
export function estimateLiquidationPrice(args: {
  direction: PerpDirection;
  entryPrice: string | null | undefined;
  quantity: string;
  margin: string | null | undefined;
  tiers: readonly TierText[];
  tickSize: string;
}): string | null {
  const quantity = args.quantity.trim();
  if (!plainDecimal.test(quantity) || args.tiers.length === 0) return null;
  const sizeScale = decimalPlaces(quantity);
  const size = BigInt(quantity.replace('.', ''));
  const entry = scaled(args.entryPrice, moneyScale);
  const margin = scaled(args.margin, moneyScale);
  if (size <= 0n || entry === null || margin === null || entry <= 0n) return null;
  const sizeUnit = 10n ** BigInt(sizeScale);
  const tiers = args.tiers.map((tier) => ({
    floor: scaled(tier.floor, moneyScale) ?? 0n,
    mmrPpm: scaled(tier.maintenanceMarginRate, 6) ?? 0n,
    cum: scaled(tier.maintenanceAmount, moneyScale) ?? 0n,
  }));
  const tierOf = (notional: bigint) =>
    tiers.reduce((found, tier) => (notional >= tier.floor ? tier : found), tiers[0]!);
  const side = args.direction === 'long' ? 1n : -1n;
  const entryNotional = (entry * size) / sizeUnit;
  const tickDigits = decimalPlaces(args.tickSize);
  let tier = tierOf(entryNotional);
  for (let step = 0; step <= tiers.length; step++) {
    let num = (margin * ppm + tier.cum * ppm - side * entryNotional * ppm) * sizeUnit;
    let den = size * (tier.mmrPpm - side * ppm);
    if (den < 0n) {
      num = -num;
      den = -den;
    }
    if (num <= 0n || den === 0n) return null;
    const price = num / den;
    const next = tierOf((price * size) / sizeUnit);
    if (next === tier || step === tiers.length) {
      const exact = formatDecimal(price, moneyScale);
      const rounded = tryParseDecimal(exact, tickDigits, side === 1n ? 'up' : 'down');
      return rounded.ok ? formatDecimal(rounded.minor, tickDigits) : null;
    }
    tier = next;
  }
  return null;
}
