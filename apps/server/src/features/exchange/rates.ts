// The exchange desk's arithmetic: a quote's received amount and rates from the market's mid rate and the
// spread, in exact integers. Pure (no clock, no market): service.ts feeds it the simulator's price.
// Must hold: the customer never receives more than the mid rate gives, and amounts round down to cents.

import { formatDecimal, tryParseDecimal } from '@bourse/money';

/** Rates are carried as integers of 1e-8. */
export const RATE_SCALE = 8;
const RATE_ONE = 10n ** BigInt(RATE_SCALE);
const BPS_ONE = 10_000n;

export type QuoteFigures = {
  receiveMinor: bigint;
  /** What the customer would receive at the mid rate, minus what they receive. */
  spreadCostMinor: bigint;
  /** Units of `to` per one `from`, 1e-8 units, rounded down. */
  midRateE8: bigint;
  rateE8: bigint;
};

/**
 * `usdRateE8` is the market's price of one US dollar in the other currency (USD/BRL, USD/INR) in 1e-8
 * units; `fromIsUsd` says which way the customer exchanges. Scales are the two currencies' decimals.
 */
export function quoteFigures(input: {
  amountMinor: bigint;
  fromScale: number;
  toScale: number;
  usdRateE8: bigint;
  fromIsUsd: boolean;
  spreadBps: number;
}): QuoteFigures {
  const { amountMinor, usdRateE8, fromIsUsd } = input;
  const keep = BPS_ONE - BigInt(input.spreadBps);
  const fromUnit = 10n ** BigInt(input.fromScale);
  const toUnit = 10n ** BigInt(input.toScale);
  // to = from × price (USD → X) or from ÷ price (X → USD); numerator and denominator in integers.
  const [num, den] = fromIsUsd ? [usdRateE8, RATE_ONE] : [RATE_ONE, usdRateE8];
  const atMid = (amountMinor * num * toUnit) / (den * fromUnit);
  const receiveMinor = (amountMinor * num * keep * toUnit) / (den * BPS_ONE * fromUnit);
  return {
    receiveMinor,
    spreadCostMinor: atMid - receiveMinor,
    midRateE8: (num * RATE_ONE) / den,
    rateE8: (num * RATE_ONE * keep) / (den * BPS_ONE),
  };
}

/** A market price (decimal string) as 1e-8 units. */
export function rateE8Of(price: string): bigint {
  const parsed = tryParseDecimal(price, RATE_SCALE);
  if (!parsed.ok) throw new Error(`not a rate: ${price}`);
  return parsed.minor;
}

/**
 * A rate as people read it, rounded down, with at least five significant digits: 4 decimals from 1 up
 * ("5.3133"), 6 from 0.1 ("0.187265"), 8 below ("0.01183501"). Only for showing: amounts are computed
 * from the exact rate.
 */
export function formatRate(rateE8: bigint): string {
  const one = 10n ** BigInt(RATE_SCALE);
  const decimals = rateE8 >= one ? 4 : rateE8 >= one / 10n ? 6 : 8;
  return formatDecimal(rateE8, RATE_SCALE, { decimals, rounding: 'down' });
}

export type CrossFigures = {
  receiveMinor: bigint;
  spreadCostMinor: bigint;
  /** Units of `to` per one `from`, as shown (at least six significant digits, rounded down). */
  midRate: string;
  rate: string;
};

/**
 * A coin convert: both coins priced in USDT (1e-8 units; USDT itself at 1), the customer paying
 * `amountMinor` of `from`. What they receive is rounded down to `receiveDecimals` (a coin's 18 decimals
 * are more than anyone reads), and the spread's cost to the same decimals.
 */
export function crossFigures(input: {
  amountMinor: bigint;
  fromScale: number;
  toScale: number;
  fromPriceE8: bigint;
  toPriceE8: bigint;
  spreadBps: number;
  receiveDecimals: number;
}): CrossFigures {
  const { amountMinor, fromPriceE8, toPriceE8 } = input;
  const keep = BPS_ONE - BigInt(input.spreadBps);
  const fromUnit = 10n ** BigInt(input.fromScale);
  const toUnit = 10n ** BigInt(input.toScale);
  const step = 10n ** BigInt(input.toScale - Math.min(input.toScale, input.receiveDecimals));
  const atMid = ((amountMinor * fromPriceE8 * toUnit) / (toPriceE8 * fromUnit) / step) * step;
  const receiveMinor = ((amountMinor * fromPriceE8 * keep * toUnit) / (toPriceE8 * BPS_ONE * fromUnit) / step) * step;
  return {
    receiveMinor,
    spreadCostMinor: atMid - receiveMinor,
    midRate: formatRatio(fromPriceE8, toPriceE8),
    rate: formatRatio(fromPriceE8 * keep, toPriceE8 * BPS_ONE),
  };
}

const RATIO_SCALE = 18;

/**
 * num ÷ den as people read it, rounded down: 4 decimals from 1 up ("95000.1234"), otherwise six
 * significant digits ("0.0331578", "0.00000168421"), never more than 18 decimals. Only for showing.
 */
export function formatRatio(num: bigint, den: bigint): string {
  const one = 10n ** BigInt(RATIO_SCALE);
  const r = (num * one) / den;
  const decimals = r >= one ? 4 : Math.min(RATIO_SCALE, RATIO_SCALE - r.toString().length + 6);
  return formatDecimal(r, RATIO_SCALE, { decimals, rounding: 'down' });
}

/** The smallest amount of a coin priced `priceE8` (USDT per coin) worth `valueMinor` USDT, rounded up to `decimals`. */
export function minAmountOf(valueUsdtMinor: bigint, usdtScale: number, priceE8: bigint, decimals: number): string {
  // amount = value ÷ price, in units of 10^-decimals, rounded up.
  const num = valueUsdtMinor * RATE_ONE * 10n ** BigInt(decimals);
  const den = priceE8 * 10n ** BigInt(usdtScale);
  return formatDecimal((num + den - 1n) / den, decimals);
}
