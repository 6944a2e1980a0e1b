// Which perpetual contracts the platform lists and how each becomes an engine instrument: a USDⓈ-margined
// perpetual per main coin (`PERP:BTCUSDT`), margined and settled in USDT in the `contract` wallet, on the
// spot pair's tick and lot (so the index, the simulator's price of the pair, is on the contract's grid),
// with Binance-like maintenance tiers held here as data (Binance's published leverage brackets, rounded).
// Must not: compute margins (perpetual-math in the engine does).

import type { InstrumentSpec, TierSpec } from '@bourse/engine';
import { decimalToTicks, INSTRUMENTS, type Instrument } from '@bourse/market';
import type { PerpetualSettings } from '../../config.ts';

export const PERP_QUOTE = 'USDT';
const MAX_TICK_LIMIT = (1 << 26) - 1;
/** A market order (and a liquidation's close) walks the book no further than this from the best price. */
export const PERP_MARKET_PROTECTION_BPS = 500;
const MAX_QTY_LOTS = 10_000_000;
/** Leverage of a customer who never chose one (Binance's default is 20x). */
export const PERP_DEFAULT_LEVERAGE = 20;

/** BTC and ETH: Binance's USDⓈ-M brackets (notional floor in USDT, MMR, max leverage). */
const MAJOR_TIERS: TierSpec[] = [
  { floor: '0', mmrPpm: 4_000, maxLeverage: 125 },
  { floor: '50000', mmrPpm: 5_000, maxLeverage: 100 },
  { floor: '250000', mmrPpm: 10_000, maxLeverage: 50 },
  { floor: '1000000', mmrPpm: 25_000, maxLeverage: 20 },
  { floor: '10000000', mmrPpm: 50_000, maxLeverage: 10 },
  { floor: '20000000', mmrPpm: 100_000, maxLeverage: 5 },
  { floor: '50000000', mmrPpm: 125_000, maxLeverage: 4 },
  { floor: '100000000', mmrPpm: 150_000, maxLeverage: 3 },
  { floor: '200000000', mmrPpm: 250_000, maxLeverage: 2 },
];

/** Other coins: smaller brackets and at most 75x. */
const ALT_TIERS: TierSpec[] = [
  { floor: '0', mmrPpm: 10_000, maxLeverage: 75 },
  { floor: '10000', mmrPpm: 20_000, maxLeverage: 50 },
  { floor: '50000', mmrPpm: 25_000, maxLeverage: 25 },
  { floor: '250000', mmrPpm: 50_000, maxLeverage: 20 },
  { floor: '1000000', mmrPpm: 100_000, maxLeverage: 10 },
  { floor: '5000000', mmrPpm: 125_000, maxLeverage: 5 },
  { floor: '10000000', mmrPpm: 150_000, maxLeverage: 4 },
  { floor: '20000000', mmrPpm: 250_000, maxLeverage: 2 },
];

const LISTED = ['BTC', 'ETH', 'SOL', 'BNB', 'XRP', 'DOGE'] as const;

/** A contract: the engine instrument's id, its spot pair (the index) and its tiers. */
export type PerpContract = {
  id: string;
  symbol: string;
  base: string;
  /** The spot pair whose simulated price is the contract's index. */
  index: Instrument;
  tiers: TierSpec[];
};

export const perpIdOf = (base: string) => `PERP:${base}${PERP_QUOTE}`;

export function perpContracts(): PerpContract[] {
  return LISTED.flatMap((base) => {
    const index = INSTRUMENTS.find((i) => i.kind === 'crypto' && i.baseAsset === base && i.currency === PERP_QUOTE);
    if (!index) return [];
    const tiers = base === 'BTC' || base === 'ETH' ? MAJOR_TIERS : ALT_TIERS;
    return [{ id: perpIdOf(base), symbol: `${base}${PERP_QUOTE}`, base, index, tiers }];
  });
}

export function perpSpec(contract: PerpContract, settings: PerpetualSettings): InstrumentSpec {
  const { index } = contract;
  const startTicks = decimalToTicks(index.startPrice, index.tickSize) ?? 1;
  const maxLeverage = contract.tiers[0]?.maxLeverage ?? 20;
  return {
    id: contract.id,
    kind: 'perpetual',
    base: contract.base,
    quote: PERP_QUOTE,
    wallet: 'contract',
    tickSize: index.tickSize,
    lotSize: index.lotSize,
    maxPriceTicks: Math.min(MAX_TICK_LIMIT, Math.max(100_000, startTicks * 10)),
    minQtyLots: 1,
    maxQtyLots: MAX_QTY_LOTS,
    makerFeeBps: settings.makerFeeBps,
    takerFeeBps: settings.takerFeeBps,
    marketProtectionBps: PERP_MARKET_PROTECTION_BPS,
    defaultStp: 'cancel_resting',
    perpetual: {
      collateral: PERP_QUOTE,
      maxLeverage,
      defaultLeverage: Math.min(PERP_DEFAULT_LEVERAGE, maxLeverage),
      tiers: contract.tiers,
    },
  };
}
