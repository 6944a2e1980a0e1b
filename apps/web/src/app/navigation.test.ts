import { describe, expect, it } from 'vitest';
import { coinHomePath, homePath, safeRedirect } from './navigation.ts';

describe('safeRedirect', () => {
  it('keeps a same-app page', () => {
    expect(safeRedirect('/pages/coin/index?symbol=BTCUSDT')).toBe('/pages/coin/index?symbol=BTCUSDT');
  });
  it('falls back to Home, or to the crypto screen for the crypto sign-in', () => {
    expect(safeRedirect(null)).toBe(homePath);
    expect(safeRedirect(null, coinHomePath)).toBe(coinHomePath);
    expect(safeRedirect('https://evil.example/pages/x/y', coinHomePath)).toBe(coinHomePath);
  });
  it('never sends a sign-in back to a sign-in page', () => {
    expect(safeRedirect('/pages/account/login')).toBe(homePath);
    expect(safeRedirect('/pages/account/coinLogin', coinHomePath)).toBe(coinHomePath);
  });
});
