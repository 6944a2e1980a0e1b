// The launchpad screen's exact arithmetic on decimal strings.

import { describe, expect, it } from 'vitest';
import { coinsFor, offeringSize, subscribedPct } from './ico-math.ts';

describe('launchpad arithmetic', () => {
  it('counts the whole units an amount pays for', () => {
    expect(coinsFor('100', '0.10', '1')).toBe('1000');
    expect(coinsFor('10.05', '0.100000', '1')).toBe('100');
    expect(coinsFor('100', '1.5', '0.1')).toBe('66.6');
    expect(coinsFor('abc', '1', '1')).toBeNull();
    expect(coinsFor('1', '0', '1')).toBeNull();
  });

  it('sizes the offering and its subscription exactly', () => {
    expect(offeringSize('2000000.00000000', '0.050000')).toBe('100000.00');
    expect(subscribedPct('160', '1000', '0.10')).toBe('160.0');
    expect(subscribedPct('0', '1000', '0.10')).toBe('0.0');
  });
});
