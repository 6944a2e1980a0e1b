import { describe, expect, it } from 'vitest';
import { crossFigures, formatRate, formatRatio, minAmountOf, quoteFigures, rateE8Of } from './rates.ts';

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

describe('crypto convert arithmetic', () => {
  it('converts USDT → BTC through the two USDT prices less the spread, rounded down to satoshis', () => {
    // 1,000 USDT at 95,000.00 USDT per BTC, 20 bps: 0.01052631 BTC at mid, 0.01050526 after the spread.
    const f = crossFigures({
      amountMinor: 1_000_000_000n,
      fromScale: 6,
      toScale: 8,
      fromPriceE8: rateE8Of('1'),
      toPriceE8: rateE8Of('95000'),
      spreadBps: 20,
      receiveDecimals: 8,
    });
    expect(f.receiveMinor).toBe(1_050_526n);
    expect(f.spreadCostMinor).toBe(1_052_631n - 1_050_526n);
    expect(f.midRate).toBe('0.0000105263');
    expect(f.rate).toBe('0.0000105052');
  });

  it('converts a coin with 18 decimals into another, received to 8 decimals', () => {
    // 1.5 ETH at 3,150 into BTC at 95,000: 0.04973684 BTC at mid; ETH → USDT shown with 4 decimals.
    const f = crossFigures({
      amountMinor: 1_500_000_000_000_000_000n,
      fromScale: 18,
      toScale: 8,
      fromPriceE8: rateE8Of('3150'),
      toPriceE8: rateE8Of('95000'),
      spreadBps: 20,
      receiveDecimals: 8,
    });
    expect(f.receiveMinor + f.spreadCostMinor).toBe(4_973_684n);
    expect(f.receiveMinor).toBe((1_500_000_000_000_000_000n * 3150n * 9980n) / (95000n * 10_000n * 10n ** 10n));
    const intoEth = crossFigures({
      amountMinor: 100_000_000n,
      fromScale: 8,
      toScale: 18,
      fromPriceE8: rateE8Of('95000'),
      toPriceE8: rateE8Of('3150'),
      spreadBps: 0,
      receiveDecimals: 8,
    });
    // 30.15873015873… ETH, cut to 8 decimals at the coin's own 18.
    expect(intoEth.receiveMinor).toBe(30_158_730_150_000_000_000n);
    expect(intoEth.midRate).toBe('30.1587');
  });

  it('shows ratios with six significant digits below 1 and four decimals above', () => {
    expect(formatRatio(16n, 9_500_000n)).toBe('0.00000168421');
    expect(formatRatio(3150n, 95_000n)).toBe('0.0331578');
    expect(formatRatio(95_000n, 1n)).toBe('95000.0000');
  });

  it('gives the smallest amount worth a value, rounded up', () => {
    // 1 USDT of BTC at 95,000: 0.0000105263… → 0.00001053.
    expect(minAmountOf(1_000_000n, 6, rateE8Of('95000'), 8)).toBe('0.00001053');
    expect(minAmountOf(1_000_000n, 6, rateE8Of('1'), 6)).toBe('1.000000');
  });
});
