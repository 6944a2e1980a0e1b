import { describe, expect, it } from 'vitest';
import {
  bidAmount,
  canCancel,
  draftAmount,
  heldForBids,
  isAboveRetail,
  isHoldingFunds,
  lotCost,
  parseLots,
  tabOfIpo,
  validateOfflineBid,
  validateRetailBid,
} from './ipo-math.ts';

// A mainboard issue: band ₹285–300, lot 50 (₹15,000 at the top), retail ceiling ₹2,00,000.
const ipo = {
  priceLow: '285.00',
  priceHigh: '300.00',
  lotSize: 50,
  minLots: 1,
  retailMaxAmount: '200000.00',
};

describe('amounts', () => {
  it('costs lots × lot size × price exactly in paise', () => {
    expect(bidAmount('300.00', 1, 50)).toBe('15000.00');
    expect(bidAmount('287.35', 3, 50)).toBe('43102.50');
    expect(bidAmount('0.01', 1_000_000, 100)).toBe('1000000.00');
    expect(bidAmount('abc', 1, 50)).toBeNull();
    expect(lotCost(ipo)).toBe('15000.00');
  });
  it('holds a cut-off bid at the top of the band', () => {
    expect(draftAmount({ lots: '2', price: '', cutOff: true }, ipo)).toBe('30000.00');
    expect(draftAmount({ lots: '2', price: '290', cutOff: false }, ipo)).toBe('29000.00');
    expect(draftAmount({ lots: '', price: '290', cutOff: false }, ipo)).toBeNull();
  });
  it('holds only the highest of up to three bids', () => {
    expect(heldForBids(['15000.00', '43102.50', null, '29000.00'])).toBe('43102.50');
    expect(heldForBids([null])).toBe('0.00');
  });
  it('sends amounts above the retail ceiling to the offline form', () => {
    expect(isAboveRetail('200000.00', ipo)).toBe(false);
    expect(isAboveRetail('200000.01', ipo)).toBe(true);
    expect(isAboveRetail(null, ipo)).toBe(false);
  });
});

describe('bid rules', () => {
  it('takes only positive whole lots', () => {
    expect(parseLots(' 4 ')).toBe(4);
    expect(parseLots('0')).toBeNull();
    expect(parseLots('1.5')).toBeNull();
    expect(parseLots('-1')).toBeNull();
  });
  it('checks lots, then the band, then the retail ceiling', () => {
    expect(validateRetailBid({ lots: '1', price: '', cutOff: true }, ipo)).toBeNull();
    expect(validateRetailBid({ lots: '', price: '', cutOff: true }, ipo)).toBe('lots_required');
    expect(validateRetailBid({ lots: '1.5', price: '', cutOff: true }, ipo)).toBe('lots_whole');
    expect(validateRetailBid({ lots: '1', price: '2', cutOff: true }, { ...ipo, minLots: 2 })).toBe('lots_below_min');
    expect(validateRetailBid({ lots: '1', price: '', cutOff: false }, ipo)).toBe('price_required');
    expect(validateRetailBid({ lots: '1', price: '2.9.0', cutOff: false }, ipo)).toBe('price_invalid');
    expect(validateRetailBid({ lots: '1', price: '284.99', cutOff: false }, ipo)).toBe('price_outside_band');
    expect(validateRetailBid({ lots: '1', price: '300.01', cutOff: false }, ipo)).toBe('price_outside_band');
    expect(validateRetailBid({ lots: '1', price: '285', cutOff: false }, ipo)).toBeNull();
    // 13 lots at ₹300 = ₹1,95,000 fits; 14 = ₹2,10,000 does not.
    expect(validateRetailBid({ lots: '13', price: '', cutOff: true }, ipo)).toBeNull();
    expect(validateRetailBid({ lots: '14', price: '', cutOff: true }, ipo)).toBe('amount_above_retail');
  });
  it('gives offline bids no cut-off and no ceiling', () => {
    expect(validateOfflineBid('20', '300', ipo)).toBeNull();
    expect(validateOfflineBid('20', '', ipo)).toBe('price_required');
    expect(validateOfflineBid('0', '300', ipo)).toBe('lots_whole');
  });
});

describe('states', () => {
  it('puts each customer-visible issue state in one tab', () => {
    expect(tabOfIpo('open')).toBe('open');
    expect(tabOfIpo('upcoming')).toBe('upcoming');
    expect(['closed', 'allotted', 'listed'].map((s) => tabOfIpo(s as 'closed'))).toEqual([
      'closed',
      'closed',
      'closed',
    ]);
    expect(tabOfIpo('draft')).toBeNull();
    expect(tabOfIpo('rejected')).toBeNull();
  });
  it('says funds are held only until the draw, and never for an offline application', () => {
    expect(isHoldingFunds({ channel: 'online', status: 'applying' })).toBe(true);
    expect(isHoldingFunds({ channel: 'online', status: 'waiting_allocated' })).toBe(true);
    for (const status of ['allocated', 'not_allotted', 'unsubscribed'] as const) {
      expect(isHoldingFunds({ channel: 'online', status })).toBe(false);
    }
    expect(isHoldingFunds({ channel: 'offline', status: 'applying' })).toBe(false);
  });
  it('lets an application be cancelled only while applying on an open issue', () => {
    expect(canCancel({ status: 'applying' }, { status: 'open' })).toBe(true);
    expect(canCancel({ status: 'applying' }, { status: 'closed' })).toBe(false);
    expect(canCancel({ status: 'waiting_allocated' })).toBe(false);
    expect(canCancel({ status: 'applying' })).toBe(true);
  });
});
