import { compareDecimal } from '@bourse/money';
import { describe, expect, it } from 'vitest';
import {
  clampLeverage,
  countdown,
  estimateLiquidationPrice,
  estimateOpenCost,
  fractionAsPercent,
  leveragePresets,
  nextFundingAt,
  perpQuantityForPercent,
  validateTpSl,
} from './perpetuals-math.ts';

describe('validateTpSl', () => {
  const check = (over: Partial<Parameters<typeof validateTpSl>[0]>) =>
    validateTpSl({ direction: 'long', reference: '50000.00', takeProfit: '', stopLoss: '', tickSize: '0.1', ...over });

  it('accepts none, and a long profiting above and stopping below the reference', () => {
    expect(check({})).toEqual({});
    expect(check({ takeProfit: '51000', stopLoss: '49000.5' })).toEqual({});
  });

  it('refuses a long TP at or below, and a long SL at or above, the reference', () => {
    expect(check({ takeProfit: '50000', stopLoss: '50000.1' })).toEqual({
      takeProfit: 'trigger_wrong_side',
      stopLoss: 'trigger_wrong_side',
    });
    expect(check({ takeProfit: '49999.9' })).toEqual({ takeProfit: 'trigger_wrong_side' });
  });

  it('mirrors the sides for a short', () => {
    expect(check({ direction: 'short', takeProfit: '49000', stopLoss: '51000' })).toEqual({});
    expect(check({ direction: 'short', takeProfit: '51000', stopLoss: '49000' })).toEqual({
      takeProfit: 'trigger_wrong_side',
      stopLoss: 'trigger_wrong_side',
    });
  });

  it('checks the format and the tick first, and only the format without a reference', () => {
    expect(check({ takeProfit: 'abc' })).toEqual({ takeProfit: 'invalid_price' });
    expect(check({ takeProfit: '0' })).toEqual({ takeProfit: 'amount_zero' });
    expect(check({ stopLoss: '49000.05' })).toEqual({ stopLoss: 'price_not_on_tick' });
    expect(check({ reference: null, takeProfit: '1', stopLoss: '99999' })).toEqual({});
  });
});

describe('perpQuantityForPercent', () => {
  const base = { available: '1000.00', price: '50000.00', leverage: 10, lotSize: '0.001', takerFeeBps: 5 };

  it('spends pct % of the margin on initial margin plus the taker fee, in whole lots', () => {
    // 1000 / (50000 × (0.1 + 0.0005)) = 0.199 BTC.
    expect(perpQuantityForPercent({ ...base, pct: 100 })).toBe('0.199');
    // 500 / 5025 = 0.0995… → 0.099.
    expect(perpQuantityForPercent({ ...base, pct: 50 })).toBe('0.099');
    expect(perpQuantityForPercent({ ...base, pct: 100, leverage: 1 })).toBe('0.019');
  });

  it('answers "" when nothing fits or an input is missing', () => {
    expect(perpQuantityForPercent({ ...base, pct: 0 })).toBe('');
    expect(perpQuantityForPercent({ ...base, pct: 100, available: '0.5' })).toBe('');
    expect(perpQuantityForPercent({ ...base, pct: 100, price: '' })).toBe('');
    expect(perpQuantityForPercent({ ...base, pct: 100, available: null })).toBe('');
  });

  it('never costs more than what is available', () => {
    const quantity = perpQuantityForPercent({ ...base, pct: 100, available: '123.45', leverage: 20 });
    const cost = estimateOpenCost({ price: base.price, quantity, leverage: 20, takerFeeBps: 5, decimals: 2 });
    expect(compareDecimal(cost?.total, '123.45')).toBeLessThanOrEqual(0);
    // One lot more would not fit.
    const more = (BigInt(quantity.replace('.', '')) + 1n).toString().padStart(4, '0');
    const over = estimateOpenCost({
      price: base.price,
      quantity: `0.${more.slice(-3)}`,
      leverage: 20,
      takerFeeBps: 5,
      decimals: 2,
    });
    expect(compareDecimal(over?.total, '123.45')).toBe(1);
  });
});

describe('estimateOpenCost', () => {
  it('is notional / leverage plus notional × fee, each rounded up', () => {
    expect(
      estimateOpenCost({ price: '50000.0', quantity: '0.123', leverage: 20, takerFeeBps: 5, decimals: 2 }),
    ).toEqual({ notional: '6150.00', margin: '307.50', fee: '3.08', total: '310.58' });
    // 0.333 × 3 / 7 = 0.142714… → 0.15 up.
    expect(estimateOpenCost({ price: '3', quantity: '0.333', leverage: 7, takerFeeBps: 0, decimals: 2 })?.margin).toBe(
      '0.15',
    );
  });

  it('answers null on text that is not a plain decimal', () => {
    expect(estimateOpenCost({ price: '', quantity: '1', leverage: 1, takerFeeBps: 0, decimals: 2 })).toBeNull();
    expect(estimateOpenCost({ price: '1', quantity: '-1', leverage: 1, takerFeeBps: 0, decimals: 2 })).toBeNull();
  });
});

describe('fractionAsPercent', () => {
  it('shifts the point two places, rounding toward zero', () => {
    expect(fractionAsPercent('0.0001', 4)).toBe('0.0100');
    expect(fractionAsPercent('-0.00025', 4)).toBe('-0.0250');
    expect(fractionAsPercent('-0.123456', 2)).toBe('-12.34');
    expect(fractionAsPercent('1.5', 2)).toBe('150.00');
    expect(fractionAsPercent('-0.00001', 2)).toBe('0.00');
    expect(fractionAsPercent(null, 2)).toBeNull();
    expect(fractionAsPercent('x', 2)).toBeNull();
  });
});

describe('leverage', () => {
  it('offers the usual steps up to the maximum, ending at it', () => {
    expect(leveragePresets(20)).toEqual([1, 2, 5, 10, 20]);
    expect(leveragePresets(125)).toEqual([1, 50, 75, 100, 125]);
    expect(leveragePresets(1)).toEqual([1]);
    expect(leveragePresets(5)).toEqual([1, 2, 5]);
  });

  it('clamps to 1…max in whole steps', () => {
    expect(clampLeverage(0, 20)).toBe(1);
    expect(clampLeverage(33, 20)).toBe(20);
    expect(clampLeverage(7.4, 20)).toBe(7);
  });
});

describe('funding countdown', () => {
  it('finds the next 00:00, 08:00 or 16:00 UTC strictly after now', () => {
    expect(nextFundingAt(Date.UTC(2026, 10, 28, 1, 57))).toBe(Date.UTC(2026, 10, 28, 8));
    expect(nextFundingAt(Date.UTC(2026, 10, 28, 8))).toBe(Date.UTC(2026, 10, 28, 16));
    expect(nextFundingAt(Date.UTC(2026, 10, 28, 23, 59))).toBe(Date.UTC(2026, 10, 29, 0));
  });

  it('shows hh:mm:ss, never negative', () => {
    expect(countdown(Date.UTC(2026, 0, 1, 8), Date.UTC(2026, 0, 1, 1, 57, 30))).toBe('06:02:30');
    expect(countdown(0, 1000)).toBe('00:00:00');
  });
});

describe('estimateLiquidationPrice', () => {
  // 1 BTC at 50,000 with 5,000 USDT of isolated margin (10×).
  const tiers = [
    { floor: '0', maintenanceMarginRate: '0.004', maintenanceAmount: '0' },
    { floor: '50000', maintenanceMarginRate: '0.005', maintenanceAmount: '50' },
    { floor: '250000', maintenanceMarginRate: '0.01', maintenanceAmount: '1300' },
  ];
  const base = { entryPrice: '50000', quantity: '1', margin: '5000', tiers, tickSize: '0.01' };

  it('matches DOMAIN.md’s vector (long 45,180.72…, short 54,780.87…), rounded against the customer', () => {
    const oneTier = { ...base, tiers: tiers.slice(0, 1) };
    // (5000 − 50000) / (0.004 − 1) = 45,180.722… → up for a long; (5000 + 50000) / 1.004 = 54,780.876… → down.
    expect(estimateLiquidationPrice({ ...oneTier, direction: 'long' })).toBe('45180.73');
    expect(estimateLiquidationPrice({ ...oneTier, direction: 'short' })).toBe('54780.87');
  });

  it('recomputes with the tier of the notional at the liquidation price', () => {
    // The entry's notional (50,000) is in the second tier, the long's LP notional falls back to the first.
    expect(estimateLiquidationPrice({ ...base, direction: 'long' })).toBe('45180.73');
    // The short's LP notional stays in the second: (5000 + 50 + 50000) / 1.005 = 54,776.119…
    expect(estimateLiquidationPrice({ ...base, direction: 'short' })).toBe('54776.11');
  });

  it('has none for a 1× long, and none without inputs', () => {
    expect(estimateLiquidationPrice({ ...base, direction: 'long', margin: '50000' })).toBeNull();
    expect(estimateLiquidationPrice({ ...base, direction: 'long', quantity: '' })).toBeNull();
    expect(estimateLiquidationPrice({ ...base, direction: 'long', entryPrice: null })).toBeNull();
  });
});
