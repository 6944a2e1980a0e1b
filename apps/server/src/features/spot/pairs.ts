// Which catalogue instruments are the crypto exchange's pairs, and how each becomes an engine instrument:
// the coin against USDT in the spot wallet, the catalogue's tick and lot (Binance-like), the deployment's
// maker/taker fees, a market order's protection, and self-trade prevention. Trading never halts (24/7).

import type { InstrumentSpec } from '@bourse/engine';
import { decimalToTicks, INSTRUMENTS, type Instrument } from '@bourse/market';
import type { SpotSettings } from '../../config.ts';

export const SPOT_QUOTE = 'USDT';
const MAX_TICK_LIMIT = (1 << 26) - 1;
/** A market order walks the book no further than this from the best price (Binance's is about 5%). */
export const MARKET_PROTECTION_BPS = 500;
/** Lots per order, at most (1,000 BTC at 0.0001; 10 million DOGE at 1). */
const MAX_QTY_LOTS = 10_000_000;

/** Every crypto pair of the catalogue quoted in USDT. */
export function spotPairs(): Instrument[] {
  return INSTRUMENTS.filter((i) => i.kind === 'crypto' && i.currency === SPOT_QUOTE && i.baseAsset !== null);
}

export function spotSpec(instrument: Instrument, settings: SpotSettings): InstrumentSpec {
  const startTicks = decimalToTicks(instrument.startPrice, instrument.tickSize) ?? 1;
  return {
    id: instrument.id,
    kind: 'spot',
    base: instrument.baseAsset as string,
    quote: instrument.currency,
    wallet: 'spot',
    tickSize: instrument.tickSize,
    lotSize: instrument.lotSize,
    // Room for a tenfold rise; the book allocates price pages only where orders are.
    maxPriceTicks: Math.min(MAX_TICK_LIMIT, Math.max(100_000, startTicks * 10)),
    minQtyLots: 1,
    maxQtyLots: MAX_QTY_LOTS,
    makerFeeBps: settings.makerFeeBps,
    takerFeeBps: settings.takerFeeBps,
    marketProtectionBps: MARKET_PROTECTION_BPS,
    defaultStp: 'cancel_resting',
  };
}
