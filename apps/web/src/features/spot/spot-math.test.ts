import { describe, expect, it } from 'vitest';
import {
  bpsAsPercent,
  estimateSpotAmount,
  multiplyDecimals,
  pairSymbolOf,
  spotQuantityForPercent,
  trimZeros,
  validateSpotOrder,
} from './spot-math.ts';

const btc = {
  tickSize: '0.01',
  lotSize: '0.00001',
  minQuantity: '0.00001',
  maxQuantity: '9000',
  minNotional: '5',
};

const form = (over: Partial<Parameters<typeof validateSpotOrder>[0]> = {}) =>
  validateSpotOrder({
    ...btc,
    side: 'buy',
    type: 'limit',
    price: '65000.00',
    stopPrice: '',
    quantity: '0.001',
    ...over,
  });

describe('validateSpotOrder', () => {
  it('accepts a limit order on tick and lot above the minimum notional', () => {
    expect(form()).toEqual({});
  });
  it('names what is missing or malformed', () => {
    expect(form({ quantity: '' }).quantity).toBe('quantity_required');
    expect(form({ quantity: '1.2.3' }).quantity).toBe('invalid_quantity');
    expect(form({ quantity: '0.000' }).quantity).toBe('amount_zero');
    expect(form({ price: '' }).price).toBe('price_required');
    expect(form({ price: '0' }).price).toBe('amount_zero');
    expect(form({ price: 'abc' }).price).toBe('invalid_price');
  });
  it('checks tick, lot, minimum and maximum quantity exactly (8 decimals)', () => {
    expect(form({ price: '65000.005' }).price).toBe('price_not_on_tick');
    expect(form({ quantity: '0.000015' }).quantity).toBe('quantity_not_on_lot');
    expect(form({ minQuantity: '0.0001', quantity: '0.00009' }).quantity).toBe('quantity_below_minimum');
    expect(form({ quantity: '9000.00001' }).quantity).toBe('quantity_above_maximum');
  });
  it('refuses an amount under the minimum notional, for a market order at its estimated price', () => {
    // 65000 × 0.00007 = 4.55 < 5
    expect(form({ quantity: '0.00007' }).quantity).toBe('below_min_notional');
    expect(form({ quantity: '0.00008' }).quantity).toBeUndefined(); // 5.20
    expect(form({ type: 'market', price: '', quantity: '0.00007', marketPrice: '65000' })).toEqual({
      quantity: 'below_min_notional',
    });
    expect(form({ type: 'market', price: '', quantity: '0.00008', marketPrice: '65000' })).toEqual({});
  });
  it('needs a stop price on tick for a stop-limit', () => {
    expect(form({ type: 'stop_limit' }).stopPrice).toBe('stop_required');
    expect(form({ type: 'stop_limit', stopPrice: '64000.001' }).stopPrice).toBe('price_not_on_tick');
    expect(form({ type: 'stop_limit', stopPrice: '64000.00' })).toEqual({});
  });
  it('refuses a sell above the coin available', () => {
    expect(form({ side: 'sell', quantity: '0.5', available: '0.49999999' }).quantity).toBe('insufficient_balance');
    expect(form({ side: 'sell', quantity: '0.5', available: '0.50000000' })).toEqual({});
  });
});

describe('multiplyDecimals and estimateSpotAmount', () => {
  it('multiplies without floats', () => {
    expect(multiplyDecimals('0.1', '0.2')).toBe('0.02');
    expect(multiplyDecimals('65432.10', '0.00012345')).toBe('8.0775927450');
    expect(multiplyDecimals('x', '1')).toBeNull();
  });
  it('shows the quote amount rounded down to its decimals', () => {
    expect(estimateSpotAmount('65432.10', '0.00012345', 2)).toBe('8.07');
    expect(estimateSpotAmount('3', '2', 2)).toBe('6.00');
  });
});

describe('spotQuantityForPercent', () => {
  it('buys pct % of the USDT available, fee included, rounded down to the lot', () => {
    // 1000 USDT at 50000 with a 0.1 % taker fee: 1000 / (50000 × 1.001) = 0.019980019… → 0.01998
    expect(
      spotQuantityForPercent({
        side: 'buy',
        pct: 100,
        available: '1000.00',
        price: '50000.00',
        lotSize: '0.00001',
        takerFeeBps: 10,
      }),
    ).toBe('0.01998');
    expect(
      spotQuantityForPercent({
        side: 'buy',
        pct: 25,
        available: '1000',
        price: '50000',
        lotSize: '0.00001',
        takerFeeBps: 0,
      }),
    ).toBe('0.00500');
  });
  it('sells pct % of the coin available, on the lot', () => {
    expect(
      spotQuantityForPercent({
        side: 'sell',
        pct: 50,
        available: '0.12345678',
        price: null,
        lotSize: '0.0001',
        takerFeeBps: 10,
      }),
    ).toBe('0.0617');
    expect(
      spotQuantityForPercent({
        side: 'sell',
        pct: 100,
        available: '3.12345678',
        price: null,
        lotSize: '1',
        takerFeeBps: 10,
      }),
    ).toBe('3');
  });
  it('answers "" when nothing fits or a value is missing', () => {
    const base = { side: 'buy' as const, lotSize: '0.001', takerFeeBps: 10 };
    expect(spotQuantityForPercent({ ...base, pct: 100, available: '0.01', price: '65000' })).toBe('');
    expect(spotQuantityForPercent({ ...base, pct: 0, available: '1000', price: '65000' })).toBe('');
    expect(spotQuantityForPercent({ ...base, pct: 50, available: '1000', price: '' })).toBe('');
    expect(spotQuantityForPercent({ ...base, pct: 50, available: undefined, price: '1' })).toBe('');
  });
});

describe('pairSymbolOf and trimZeros', () => {
  it('reads a pair from any of the forms a link may carry', () => {
    expect(pairSymbolOf('CRYPTO:BTCUSDT')).toBe('BTCUSDT');
    expect(pairSymbolOf('btc-usdt')).toBe('BTCUSDT');
    expect(pairSymbolOf('ETH/USDT')).toBe('ETHUSDT');
    expect(pairSymbolOf(null)).toBe('');
  });
  it('drops trailing zeros only after a point', () => {
    expect(trimZeros('0.010000')).toBe('0.01');
    expect(trimZeros('0.000100000000000000')).toBe('0.0001');
    expect(trimZeros('5.000')).toBe('5');
    expect(trimZeros('500')).toBe('500');
  });
});

describe('bpsAsPercent', () => {
  it('turns basis points into a percentage without floats', () => {
    expect(bpsAsPercent(10)).toBe('0.10');
    expect(bpsAsPercent(125)).toBe('1.25');
    expect(bpsAsPercent(0)).toBe('0.00');
  });
});
