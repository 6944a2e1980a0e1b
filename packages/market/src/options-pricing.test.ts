// Proves the Black–Scholes price against published values (Hull), put–call parity and the model's
// monotonicity (property-tested), the Greeks against finite differences, and the quote's rounding rule.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BlackScholesInput,
  blackScholesPrice,
  breakeven,
  greeks,
  intrinsicValue,
  normalCdf,
  quoteMinor,
} from './options-pricing.ts';

const hull = { spot: 42, strike: 40, years: 0.5, vol: 0.2, rate: 0.1 };

describe('Black–Scholes', () => {
  it('matches Hull, Options, Futures and Other Derivatives, Example 15.6 (call 4.76, put 0.81)', () => {
    expect(blackScholesPrice({ ...hull, right: 'call' })).toBeCloseTo(4.7594, 3);
    expect(blackScholesPrice({ ...hull, right: 'put' })).toBeCloseTo(0.8086, 3);
  });

  it('matches Hull Example 19.1 Greeks (S=49, K=50, r=5%, σ=20%, T=0.3846): delta 0.522, gamma 0.066, vega 0.121', () => {
    const g = greeks({ right: 'call', spot: 49, strike: 50, years: 0.3846, vol: 0.2, rate: 0.05 });
    expect(g.delta).toBeCloseTo(0.522, 3);
    expect(g.gamma).toBeCloseTo(0.066, 3);
    // Hull gives vega 12.1 per unit of volatility: 0.121 per point; theta −4.31 a year: −0.0118 a day.
    expect(g.vega).toBeCloseTo(0.121, 3);
    expect(g.theta).toBeCloseTo(-4.31 / 365, 4);
    expect(blackScholesPrice({ right: 'call', spot: 49, strike: 50, years: 0.3846, vol: 0.2, rate: 0.05 })).toBeCloseTo(
      2.4,
      1,
    );
  });

  it('has a normal distribution function accurate to the tables', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 12);
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021, 7);
    expect(normalCdf(-1)).toBeCloseTo(0.1586553, 7);
    expect(normalCdf(8)).toBeCloseTo(1, 12);
  });

  it('prices the intrinsic value at expiry', () => {
    expect(blackScholesPrice({ ...hull, right: 'call', years: 0 })).toBe(2);
    expect(blackScholesPrice({ ...hull, right: 'put', years: 0 })).toBe(0);
    expect(intrinsicValue('put', 38, 40)).toBe(2);
    expect(breakeven('call', 40, 4.76)).toBeCloseTo(44.76, 10);
    expect(breakeven('put', 40, 0.81)).toBeCloseTo(39.19, 10);
  });

  const inputs = fc.record({
    spot: fc.double({ min: 1, max: 100_000, noNaN: true }),
    moneyness: fc.double({ min: 0.5, max: 1.5, noNaN: true }),
    years: fc.double({ min: 1 / 365, max: 2, noNaN: true }),
    vol: fc.double({ min: 0.05, max: 1, noNaN: true }),
    rate: fc.double({ min: 0, max: 0.15, noNaN: true }),
  });
  const of = (x: { spot: number; moneyness: number; years: number; vol: number; rate: number }) => ({
    spot: x.spot,
    strike: x.spot * x.moneyness,
    years: x.years,
    vol: x.vol,
    rate: x.rate,
  });

  it('keeps put–call parity: C − P = S − K·e^(−rT)', () => {
    fc.assert(
      fc.property(inputs, (x) => {
        const i = of(x);
        const call = blackScholesPrice({ ...i, right: 'call' });
        const put = blackScholesPrice({ ...i, right: 'put' });
        expect(call - put).toBeCloseTo(i.spot - i.strike * Math.exp(-i.rate * i.years), 6 - Math.log10(i.spot));
      }),
    );
  });

  it('is monotone: calls rise with spot and fall with strike, puts the other way, both rise with vol and time', () => {
    const tol = (i: { spot: number }) => i.spot * 1e-9;
    fc.assert(
      fc.property(inputs, fc.double({ min: 1.001, max: 1.2, noNaN: true }), (x, up) => {
        const i = of(x);
        const price = (over: Partial<BlackScholesInput>, right: 'call' | 'put') =>
          blackScholesPrice({ ...i, right, ...over });
        for (const right of ['call', 'put'] as const) {
          const base = price({}, right);
          expect(base).toBeGreaterThanOrEqual(
            intrinsicValue(right, i.spot, i.strike * Math.exp(-i.rate * i.years)) - tol(i),
          );
          expect(price({ vol: i.vol * up }, right)).toBeGreaterThanOrEqual(base - tol(i));
          const sign = right === 'call' ? 1 : -1;
          expect(sign * (price({ spot: i.spot * up }, right) - base)).toBeGreaterThanOrEqual(-tol(i));
          expect(sign * (price({ strike: i.strike * up }, right) - base)).toBeLessThanOrEqual(tol(i));
        }
        // A call is worth more with more time (no dividends).
        expect(price({ years: i.years * up }, 'call')).toBeGreaterThanOrEqual(price({}, 'call') - tol(i));
      }),
    );
  });

  it('has Greeks that agree with finite differences', () => {
    fc.assert(
      fc.property(inputs, (x) => {
        const i = of(x);
        for (const right of ['call', 'put'] as const) {
          const g = greeks({ ...i, right });
          const h = i.spot * 1e-4;
          const p = (s: number) => blackScholesPrice({ ...i, spot: s, right });
          const delta = (p(i.spot + h) - p(i.spot - h)) / (2 * h);
          expect(g.delta).toBeCloseTo(delta, 4);
          expect(right === 'call' ? g.delta >= 0 && g.delta <= 1 : g.delta <= 0 && g.delta >= -1).toBe(true);
          expect(g.gamma).toBeGreaterThanOrEqual(0);
          expect(g.vega).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});

describe('the quote', () => {
  it('rounds the ask up and the bid down to the minor unit', () => {
    // 100.001 × 1.01 = 101.00101 → ask 101.01; × 0.99 = 99.00099 → bid 99.00.
    expect(quoteMinor(100.001, 2, 0.02)).toEqual({ bid: 9900n, ask: 10101n });
    // An exact amount stays exact.
    expect(quoteMinor(50, 2, 0)).toEqual({ bid: 4999n, ask: 5000n });
    // Worthless: the bid is zero, the ask one minor unit.
    expect(quoteMinor(0, 2, 0.04)).toEqual({ bid: 0n, ask: 1n });
  });

  it('never lets the bid reach the model or the ask fall below it', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 0.2, noNaN: true }),
        (m, s) => {
          const q = quoteMinor(m, 2, s);
          expect(Number(q.ask)).toBeGreaterThanOrEqual(m * 100 - 1e-6);
          expect(Number(q.bid)).toBeLessThanOrEqual(m * 100 + 1e-6);
          expect(q.ask - q.bid).toBeGreaterThanOrEqual(1n);
          expect(q.bid).toBeGreaterThanOrEqual(0n);
        },
      ),
    );
  });
});
