// The simulator's reference price of each coin in USDT (its catalogue pair's last price), for what is
// valued or converted at the market rather than traded on a book: the coin wallets' USDT value and the
// crypto convert desk. Must not: read a price from anything but the market data (PRODUCT.md rule 1).

import { INSTRUMENTS, type Instrument, ticksToDecimal } from '@bourse/market';
import type { MarketData } from './service.ts';

/** The quote coin every pair trades against; valued at 1. */
export const USDT = 'USDT';

/** Each coin's USDT pair, read from the catalogue each time (a coin listed at run time joins it). */
function pairOf(asset: string): Instrument | undefined {
  return INSTRUMENTS.find((i) => i.kind === 'crypto' && i.currency === USDT && i.baseAsset === asset);
}

/** USDT first, then every coin of the catalogue in its order. */
export function coins(): string[] {
  return [
    USDT,
    ...INSTRUMENTS.filter((i) => i.kind === 'crypto' && i.currency === USDT && i.baseAsset).map(
      (i) => i.baseAsset as string,
    ),
  ];
}

export function isCoin(asset: string): boolean {
  return asset === USDT || pairOf(asset) !== undefined;
}

/** One `asset` in USDT as a decimal string ("95000.00"), and when it was priced; null when not priced. */
export function usdtPrice(market: MarketData, asset: string): { price: string; at: number } | null {
  if (asset === USDT) return { price: '1', at: 0 };
  const pair = pairOf(asset);
  const last = pair && market.lastTicks(pair.id);
  if (!pair || !last || last.lastTicks <= 0) return null;
  return { price: ticksToDecimal(last.lastTicks, pair.tickSize), at: market.quote(pair).time };
}
