// Owns the crypto catalogue: spot pairs quoted in USDT, with Binance-like tick and lot sizes.
// Must hold: tick × lot is at least 0.000001 USDT (one USDT minor unit, the engine's rule); BTC drives the others.
// Must not: contain logic beyond row constructors.

import type { Instrument } from '../instrument.ts';

const BTC = 'CRYPTO:BTCUSDT';

function pair(
  base: string,
  name: string,
  price: string,
  tickSize: string,
  lotSize: string,
  vol: number,
  beta: number,
  adv: number,
): Instrument {
  return {
    id: `CRYPTO:${base}USDT`,
    symbol: `${base}USDT`,
    name: `${name} / TetherUS`,
    exchange: 'CRYPTO',
    country: null,
    currency: 'USDT',
    kind: 'crypto',
    tickSize,
    lotSize,
    priceBandPct: null,
    listed: true,
    indices: [],
    factor: base === 'BTC' ? null : { id: BTC, beta },
    startPrice: price,
    annualVol: vol,
    avgDailyValue: adv,
    baseAsset: base,
  };
}

export const CRYPTO_INSTRUMENTS: readonly Instrument[] = [
  pair('BTC', 'Bitcoin', '95000.00', '0.01', '0.0001', 0.55, 1, 2e9),
  pair('ETH', 'Ethereum', '3150.00', '0.01', '0.0001', 0.7, 1.2, 1e9),
  pair('SOL', 'Solana', '140.00', '0.01', '0.001', 0.9, 1.4, 4e8),
  pair('BNB', 'BNB', '910.00', '0.01', '0.001', 0.5, 0.8, 2e8),
  pair('XRP', 'XRP', '2.2000', '0.0001', '0.1', 0.85, 1.2, 3e8),
  pair('DOGE', 'Dogecoin', '0.16000', '0.00001', '1', 0.95, 1.4, 2e8),
  pair('ADA', 'Cardano', '0.4500', '0.0001', '0.1', 0.85, 1.3, 1e8),
  pair('TRX', 'TRON', '0.28000', '0.00001', '0.1', 0.45, 0.6, 5e7),
  pair('LTC', 'Litecoin', '95.00', '0.01', '0.001', 0.7, 1.1, 5e7),
  pair('LINK', 'Chainlink', '14.50', '0.01', '0.01', 0.85, 1.3, 5e7),
  pair('AVAX', 'Avalanche', '15.00', '0.01', '0.01', 0.9, 1.4, 5e7),
  pair('DOT', 'Polkadot', '2.800', '0.001', '0.01', 0.85, 1.3, 3e7),
];
