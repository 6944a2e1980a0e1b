import { describe, expect, it } from 'vitest';
import { bpsAsPercent, secondsLeft, sourcesOf, targetsOf } from './exchange-math.ts';

describe('exchange screen helpers', () => {
  it('offers only the pairs against USD the desk quotes', () => {
    expect(targetsOf('USD')).toEqual(['BRL', 'INR']);
    expect(targetsOf('BRL')).toEqual(['USD']);
    expect(sourcesOf('INR')).toEqual(['USD']);
    expect(sourcesOf('USD')).toEqual(['BRL', 'INR']);
  });

  it("counts a quote's validity down from its arrival, whatever the device clock says", () => {
    const quote = { createdAt: 1_000_000, expiresAt: 1_010_000 };
    // The device's clock is hours away from the server's: only the elapsed time counts.
    expect(secondsLeft(quote, 5_000, 5_000)).toBe(10);
    expect(secondsLeft(quote, 5_000, 6_200)).toBe(9);
    expect(secondsLeft(quote, 5_000, 15_000)).toBe(0);
    expect(secondsLeft(quote, 5_000, 99_000)).toBe(0);
    // A clock read a moment before the quote arrived still shows the whole validity, not more.
    expect(secondsLeft(quote, 5_000, 4_900)).toBe(10);
  });

  it('shows basis points as a percentage', () => {
    expect(bpsAsPercent(50)).toBe('0.50');
    expect(bpsAsPercent(125)).toBe('1.25');
  });
});
