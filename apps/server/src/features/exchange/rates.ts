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
