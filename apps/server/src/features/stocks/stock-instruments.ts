// Which catalogue instruments are tradable stocks, and how each becomes an engine instrument: shares in
// the stock wallet against the market's currency, the exchange's tick and lot, the market's fee from
// the deployment's schedule, and bought shares locked until settlement (T+1, B3 D+2).

import type { InstrumentSpec } from '@bourse/engine';
import { decimalToTicks, INSTRUMENTS, type Instrument } from '@bourse/market';
import { shareAsset } from '@bourse/money';
import type { StockSettings } from '../../config.ts';

const MAX_TICK_LIMIT = (1 << 26) - 1;

/** Listed stocks of every market (indices, crypto and FX are not bought through the stock wallet). */
export function tradableStocks(): Instrument[] {
  return INSTRUMENTS.filter((i) => i.kind === 'stock' && i.listed && i.country !== null);
}

export function isStock(instrument: Instrument): boolean {
  return instrument.kind === 'stock' && instrument.country !== null;
}

export function feeBpsOf(instrument: Instrument, settings: StockSettings): number {
  return instrument.country ? settings.feeBps[instrument.country] : 0;
}

export function stockSpec(instrument: Instrument, settings: StockSettings): InstrumentSpec {
  const startTicks = decimalToTicks(instrument.startPrice, instrument.tickSize) ?? 1;
  const fee = feeBpsOf(instrument, settings);
  return {
    id: instrument.id,
    kind: 'stock',
    base: shareAsset(instrument.exchange, instrument.symbol).code,
    quote: instrument.currency,
    wallet: 'stock',
    tickSize: instrument.tickSize,
    lotSize: instrument.lotSize,
    // Room for a tenfold rise; the book allocates price pages only where orders are.
    maxPriceTicks: Math.min(MAX_TICK_LIMIT, Math.max(100_000, startTicks * 10)),
    minQtyLots: 1,
    maxQtyLots: 10_000_000,
    makerFeeBps: fee,
    takerFeeBps: fee,
    marketProtectionBps: 500,
    defaultStp: 'cancel_resting',
    lockBoughtUntilSettled: true,
  };
}
