// Owns the price of a European option: Black–Scholes (no dividends) and its Greeks, the breakeven, and the
// quoting rule that turns a model price into a market maker's bid and ask in a currency's minor units.
// Must hold: pure and deterministic given its arguments; call − put = S − K·e^(−rT) (put–call parity);
// an ask is rounded up and a bid down to the minor unit, so the quote never crosses the model in the
// customer's favour by rounding. Must not: read the clock (time to expiry comes in), move money (the host
// rounds with quoteMinor before anything reaches the engine). Floats are fine here: this is a model.

export type OptionRight = 'call' | 'put';

export type BlackScholesInput = {
  right: OptionRight;
  /** Underlying price. */
  spot: number;
  strike: number;
  /** Time to expiry in years (365-day years); 0 or less prices the intrinsic value. */
  years: number;
  /** Annualised volatility of log returns (0.2 = 20%). */
  vol: number;
  /** Continuously compounded risk-free rate (0.1 = 10%). */
  rate: number;
};

export type Greeks = {
  /** ∂price/∂spot. */
  delta: number;
  /** ∂²price/∂spot². */
  gamma: number;
  /** ∂price/∂time per calendar day (negative: value lost per day that passes). */
  theta: number;
  /** ∂price/∂vol per volatility point (1% = 0.01). */
  vega: number;
};

const SQRT_2PI = Math.sqrt(2 * Math.PI);
export const DAYS_PER_YEAR = 365;
export const YEAR_MS = DAYS_PER_YEAR * 86_400_000;

/** The standard normal density. */
export function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / SQRT_2PI;
}

/**
 * The standard normal distribution function: W. J. Cody's rational approximation of erfc through
 * Hart's 5666 form (West, "Better approximations to cumulative normal functions", 2005), accurate to
 * double precision (about 1e-15), better than the textbook tables the tests compare with.
 */
export function normalCdf(x: number): number {
  const z = Math.abs(x);
  let c: number;
  if (z > 37) {
    c = 0;
  } else {
    const e = Math.exp(-0.5 * z * z);
    if (z < 7.07106781186547) {
      let n = 3.52624965998911e-2 * z + 0.700383064443688;
      n = n * z + 6.37396220353165;
      n = n * z + 33.912866078383;
      n = n * z + 112.079291497871;
      n = n * z + 221.213596169931;
      n = n * z + 220.206867912376;
      let d = 8.83883476483184e-2 * z + 1.75566716318264;
      d = d * z + 16.064177579207;
      d = d * z + 86.7807322029461;
      d = d * z + 296.564248779674;
      d = d * z + 637.333633378831;
      d = d * z + 793.826512519948;
      d = d * z + 440.413735824752;
      c = (e * n) / d;
    } else {
      let b = z + 0.65;
      b = z + 4 / b;
      b = z + 3 / b;
      b = z + 2 / b;
      b = z + 1 / b;
      c = e / b / 2.506628274631;
    }
  }
  return x > 0 ? 1 - c : c;
}

/** What the option would pay if exercised now at `spot` (per unit of the underlying). */
export function intrinsicValue(right: OptionRight, spot: number, strike: number): number {
  return Math.max(0, right === 'call' ? spot - strike : strike - spot);
}

function d1d2(input: BlackScholesInput): [number, number] {
  const { spot, strike, years, vol, rate } = input;
  const sd = vol * Math.sqrt(years);
  const d1 = (Math.log(spot / strike) + (rate + 0.5 * vol * vol) * years) / sd;
  return [d1, d1 - sd];
}

function isDegenerate(input: BlackScholesInput): boolean {
  return input.years <= 0 || input.vol <= 0;
}

function check(input: BlackScholesInput): void {
  if (!(input.spot > 0) || !(input.strike > 0) || !Number.isFinite(input.years) || !Number.isFinite(input.vol))
    throw new RangeError('Black–Scholes needs a positive spot and strike and finite time and volatility');
}

/** The Black–Scholes price per unit of the underlying. At or after expiry (or with no volatility): the discounted intrinsic value. */
export function blackScholesPrice(input: BlackScholesInput): number {
  check(input);
  const { right, spot, strike, years, rate } = input;
  const discount = Math.exp(-rate * Math.max(0, years));
  if (isDegenerate(input)) {
    // No uncertainty left: the forward's intrinsic value, discounted.
    return right === 'call' ? Math.max(0, spot - strike * discount) : Math.max(0, strike * discount - spot);
  }
  const [d1, d2] = d1d2(input);
  return right === 'call'
    ? spot * normalCdf(d1) - strike * discount * normalCdf(d2)
    : strike * discount * normalCdf(-d2) - spot * normalCdf(-d1);
}

/** The Greeks per unit of the underlying (theta per calendar day, vega per volatility point). */
export function greeks(input: BlackScholesInput): Greeks {
  check(input);
  const { right, spot, strike, years, vol, rate } = input;
  if (isDegenerate(input)) {
    const itm = right === 'call' ? spot > strike : spot < strike;
    return { delta: itm ? (right === 'call' ? 1 : -1) : 0, gamma: 0, theta: 0, vega: 0 };
  }
  const [d1, d2] = d1d2(input);
  const discount = Math.exp(-rate * years);
  const pdf = normalPdf(d1);
  const sqrtT = Math.sqrt(years);
  const gamma = pdf / (spot * vol * sqrtT);
  const vega = (spot * pdf * sqrtT) / 100;
  const decay = -(spot * pdf * vol) / (2 * sqrtT);
  const thetaYear =
    right === 'call'
      ? decay - rate * strike * discount * normalCdf(d2)
      : decay + rate * strike * discount * normalCdf(-d2);
  return {
    delta: right === 'call' ? normalCdf(d1) : normalCdf(d1) - 1,
    gamma,
    theta: thetaYear / DAYS_PER_YEAR,
    vega,
  };
}

/** The underlying's price at expiry at which a buyer paying `premium` per unit neither gains nor loses. */
export function breakeven(right: OptionRight, strike: number, premium: number): number {
  return right === 'call' ? strike + premium : Math.max(0, strike - premium);
}

/**
 * The market maker's quote around a model price, per unit, in minor units of a currency with `scale`
 * decimals: the ask is model × (1 + spread/2) rounded UP, the bid model × (1 − spread/2) rounded DOWN
 * (never below zero), and the two are at least `minSpreadMinor` apart (the bid gives way). A tiny epsilon
 * keeps a model price that is an exact minor amount from being pushed a unit by float noise.
 */
export function quoteMinor(
  model: number,
  scale: number,
  spreadFraction: number,
  minSpreadMinor = 1,
): { bid: bigint; ask: bigint } {
  if (!(model >= 0) || !Number.isFinite(model)) throw new RangeError('a model price is a finite non-negative number');
  const unit = 10 ** scale;
  const eps = 1e-9;
  const askMinor = Math.max(minSpreadMinor, Math.ceil(model * (1 + spreadFraction / 2) * unit - eps));
  let bidMinor = Math.max(0, Math.floor(model * (1 - spreadFraction / 2) * unit + eps));
  if (askMinor - bidMinor < minSpreadMinor) bidMinor = Math.max(0, askMinor - minSpreadMinor);
  return { bid: BigInt(bidMinor), ask: BigInt(askMinor) };
}
