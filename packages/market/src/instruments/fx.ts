// Owns the currency pairs: USD/BRL (BRL per US dollar, the market's quoting convention) and its inverse
// BRL/USD, and USD/INR (INR per US dollar) for the currency exchange desk. Must hold: BRL/USD mirrors USD/BRL exactly (beta −1, no own part), so the two never disagree.
// Must not: contain logic beyond the rows.

import type { Instrument } from '../instrument.ts';

const fx = (
  symbol: string,
  name: string,
  currency: 'BRL' | 'USD' | 'INR',
  price: string,
  tickSize: string,
  factor: Instrument['factor'],
): Instrument => ({
  id: `FX:${symbol}`,
  symbol,
  name,
  exchange: 'FX',
  country: null,
  currency,
  kind: 'fx',
  tickSize,
  lotSize: '0.01',
  priceBandPct: null,
  listed: true,
  indices: [],
  factor,
  startPrice: price,
  annualVol: 0.15,
  avgDailyValue: 0,
  baseAsset: null,
});

export const FX_INSTRUMENTS: readonly Instrument[] = [
  fx('USDBRL', 'US Dollar / Brazilian Real', 'BRL', '5.3400', '0.0001', null),
  fx('BRLUSD', 'Brazilian Real / US Dollar', 'USD', '0.18727', '0.00001', { id: 'FX:USDBRL', beta: -1 }),
  fx('USDINR', 'US Dollar / Indian Rupee', 'INR', '84.5000', '0.0025', null),
];
