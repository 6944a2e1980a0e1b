// The simulator's reference price of each coin in USDT (its catalogue pair's last price), for what is
// valued or converted at the market rather than traded on a book: the coin wallets' USDT value and the
// crypto convert desk. Must not: read a price from anything but the market data (PRODUCT.md rule 1).

import { INSTRUMENTS, ticksToDecimal } from '@bourse/market';
import type { MarketData } from './service.ts';

/** The quote coin every pair trades against; valued at 1. */
export const USDT = 'USDT';

const PAIRS = new Map(
  INSTRUMENTS.filter((i) => i.kind === 'crypto' && i.currency === USDT && i.baseAsset).map((i) => [
    i.baseAsset as string,
    i,
  ]),
);

/** USDT first, then every coin of the catalogue in its order. */
export const COINS: readonly string[] = [USDT, ...PAIRS.keys()];

export function isCoin(asset: string): boolean {
  return asset === USDT || PAIRS.has(asset);
}

/** One `asset` in USDT as a decimal string ("95000.00"), and when it was priced; null when not priced. */
export function usdtPrice(market: MarketData, asset: string): { price: string; at: number } | null {
  if (asset === USDT) return { price: '1', at: 0 };
  const pair = PAIRS.get(asset);
  const last = pair && market.lastTicks(pair.id);
  if (!pair || !last || last.lastTicks <= 0) return null;
  return { price: ticksToDecimal(last.lastTicks, pair.tickSize), at: market.quote(pair).time };
}
