import { describe, expect, it } from 'vitest';
import { estimateAmount, groupByDay, quantityForPercent, sanitizeDecimalInput, validateOrder } from './order-math.ts';

const base = {
  side: 'buy' as const,
  orderType: 'limit' as const,
  price: '2945.10',
  quantity: '10',
  tickSize: '0.05',
  lot: 1,
  bandLo: '2650.00',
  bandHi: '3240.00',
};

describe('validateOrder', () => {
  it('accepts a valid limit order and a market order without price', () => {
    expect(validateOrder(base)).toEqual({});
    expect(validateOrder({ ...base, orderType: 'market', price: '' })).toEqual({});
  });
  it('requires a whole, non-zero quantity on the lot', () => {
    expect(validateOrder({ ...base, quantity: '' }).quantity).toBe('quantity_required');
    expect(validateOrder({ ...base, quantity: '0' }).quantity).toBe('amount_zero');
    expect(validateOrder({ ...base, quantity: '1.5' }).quantity).toBe('quantity_invalid');
    expect(validateOrder({ ...base, lot: 100, quantity: '150' }).quantity).toBe('quantity_not_on_lot');
    expect(validateOrder({ ...base, lot: 100, quantity: '200' }).quantity).toBeUndefined();
  });
  it('says a sale is waiting on settlement when locked shares would cover it, and when they would not, that there are not enough', () => {
    const sell = { ...base, side: 'sell' as const, sellable: '5', locked: '10' };
    expect(validateOrder({ ...sell, quantity: '12' }).quantity).toBe('shares_locked_until_settlement');
    expect(validateOrder({ ...sell, quantity: '15' }).quantity).toBe('shares_locked_until_settlement');
    expect(validateOrder({ ...sell, quantity: '16' }).quantity).toBe('insufficient_quantity');
    expect(validateOrder({ ...sell, quantity: '5' }).quantity).toBeUndefined();
  });

  it('refuses to sell more than the sellable shares', () => {
    expect(validateOrder({ ...base, side: 'sell', sellable: '5' }).quantity).toBe('insufficient_quantity');
    expect(validateOrder({ ...base, side: 'sell', sellable: '10' }).quantity).toBeUndefined();
  });
  it('checks the limit price: present, non-zero, on the tick, inside the band', () => {
    expect(validateOrder({ ...base, price: '' }).price).toBe('price_required');
    expect(validateOrder({ ...base, price: '0.00' }).price).toBe('price_zero');
    expect(validateOrder({ ...base, price: '1.2.3' }).price).toBe('price_invalid');
    expect(validateOrder({ ...base, price: '2945.12' }).price).toBe('price_not_on_tick');
    expect(validateOrder({ ...base, price: '3300.00' }).price).toBe('price_outside_band');
    expect(validateOrder({ ...base, price: '2600' }).price).toBe('price_outside_band');
  });
});

describe('sanitizeDecimalInput', () => {
  it('keeps digits and one point, with the allowed decimals', () => {
    expect(sanitizeDecimalInput('12,345', 2)).toBe('12.34');
    expect(sanitizeDecimalInput('1.2.3', 3)).toBe('1.23');
    expect(sanitizeDecimalInput('a1b2', 2)).toBe('12');
    expect(sanitizeDecimalInput('15.7', 0)).toBe('15');
  });
});

describe('quantityForPercent', () => {
  it('buys as many whole lots as the cash allows', () => {
    expect(
      quantityForPercent({ side: 'buy', pct: 100, available: '100000.00', price: '2945.10', sellable: '0', lot: 1 }),
    ).toBe('33');
    expect(
      quantityForPercent({ side: 'buy', pct: 50, available: '100000.00', price: '2945.10', sellable: '0', lot: 1 }),
    ).toBe('16');
    expect(
      quantityForPercent({ side: 'buy', pct: 100, available: '100000', price: '31.45', sellable: '0', lot: 100 }),
    ).toBe('3100');
    expect(quantityForPercent({ side: 'buy', pct: 25, available: '10', price: '2945.10', sellable: '0', lot: 1 })).toBe(
      '',
    );
    expect(quantityForPercent({ side: 'buy', pct: 25, available: '10', price: '', sellable: '0', lot: 1 })).toBe('');
  });
  it('sells a share of the sellable shares', () => {
    expect(quantityForPercent({ side: 'sell', pct: 50, available: '0', price: '1', sellable: '25', lot: 1 })).toBe(
      '12',
    );
    expect(quantityForPercent({ side: 'sell', pct: 100, available: '0', price: '1', sellable: '250', lot: 100 })).toBe(
      '200',
    );
  });
});

describe('estimateAmount and groupByDay', () => {
  it('multiplies exactly', () => {
    expect(estimateAmount('2945.10', '3')).toBe('8835.30');
    expect(estimateAmount('0.1', '3')).toBe('0.30');
    expect(estimateAmount('x', '3')).toBeNull();
  });
  it('groups lines by calendar day in the market time zone, keeping order', () => {
    // 2026-03-05 20:00 UTC is already 6 March in India.
    const lines = [
      { id: 'a', at: Date.UTC(2026, 2, 5, 20, 0) },
      { id: 'b', at: Date.UTC(2026, 2, 5, 17, 0) },
      { id: 'c', at: Date.UTC(2026, 2, 4, 9, 0) },
    ];
    expect(groupByDay(lines, 'Asia/Kolkata').map((g) => [g.day, g.items.map((i) => i.id)])).toEqual([
      ['06-03-2026', ['a']],
      ['05-03-2026', ['b']],
      ['04-03-2026', ['c']],
    ]);
    expect(groupByDay(lines, 'UTC').map((g) => g.items.length)).toEqual([2, 1]);
  });
});
