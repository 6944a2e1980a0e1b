import { describe, expect, it } from 'vitest';
import { formatRate, quoteFigures, rateE8Of } from './rates.ts';

describe('exchange quote arithmetic', () => {
  it('gives USD → BRL at the mid rate less the spread, rounded down to centavos', () => {
    // 100.00 USD at 5.3400 BRL per USD, 50 bps: 534.00 at mid, 531.33 after the spread.
    const f = quoteFigures({
      amountMinor: 10_000n,
      fromScale: 2,
      toScale: 2,
      usdRateE8: rateE8Of('5.34'),
      fromIsUsd: true,
      spreadBps: 50,
    });
    expect(f.receiveMinor).toBe(53_133n);
    expect(f.spreadCostMinor).toBe(267n);
    expect(formatRate(f.midRateE8)).toBe('5.3400');
    expect(formatRate(f.rateE8)).toBe('5.3133');
  });

  it('gives BRL → USD as the inverse, never more than the mid rate would', () => {
    // 1,000.00 BRL at 5.34: 187.265917… USD at mid → 187.26; less 50 bps → 186.32.
    const f = quoteFigures({
      amountMinor: 100_000n,
      fromScale: 2,
      toScale: 2,
      usdRateE8: rateE8Of('5.34'),
      fromIsUsd: false,
      spreadBps: 50,
    });
    expect(f.receiveMinor).toBe(18_632n);
    expect(f.receiveMinor + f.spreadCostMinor).toBe(18_726n);
    expect(formatRate(f.midRateE8)).toBe('0.187265');
  });

  it('with no spread receives exactly the mid amount', () => {
    const f = quoteFigures({
      amountMinor: 1n,
      fromScale: 2,
      toScale: 2,
      usdRateE8: rateE8Of('84.5'),
      fromIsUsd: true,
      spreadBps: 0,
    });
    expect(f.receiveMinor).toBe(84n);
    expect(f.spreadCostMinor).toBe(0n);
    expect(formatRate(1_183_501n)).toBe('0.01183501');
  });
});
