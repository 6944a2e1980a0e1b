// Owns the instrument type and the catalogue lookups over the per-market data files in instruments/.
// Must hold: ids are unique across markets ("NSE:RELIANCE"); start prices sit on the tick grid; a factor is
// listed before the instruments it drives. Must not: hold prices that change (those come from a PriceFeed).
// The catalogue grows at run time only through addInstrument (a stock after its IPO, a coin after its
// offering: see listing.ts); the host persists what it added and adds it again at start-up.

import type { ExchangeId } from './calendar-data.ts';
import { B3_INSTRUMENTS } from './instruments/b3.ts';
import { CRYPTO_INSTRUMENTS } from './instruments/crypto.ts';
import { FX_INSTRUMENTS } from './instruments/fx.ts';
import { INDIA_INSTRUMENTS } from './instruments/india.ts';
import { US_INSTRUMENTS } from './instruments/us.ts';

export type Country = 'IN' | 'US' | 'BR';
export type QuoteCurrency = 'INR' | 'USD' | 'BRL' | 'USDT';
export type InstrumentKind = 'stock' | 'index' | 'crypto' | 'fx';
export type BandPct = 2 | 5 | 10 | 20;

export type Instrument = {
  /** Unique across markets: "NSE:RELIANCE", "NYSE:BRK.B", "CRYPTO:BTCUSDT", "FX:USDBRL". */
  readonly id: string;
  /** The exchange's own ticker: "RELIANCE", "AAPL", "PETR4", "BTCUSDT". */
  readonly symbol: string;
  readonly name: string;
  /** The venue whose calendar the instrument trades on. */
  readonly exchange: ExchangeId;
  /** null for crypto. */
  readonly country: Country | null;
  /** The currency prices are quoted in. */
  readonly currency: QuoteCurrency;
  readonly kind: InstrumentKind;
  /** Smallest price step as a decimal string; prices are stored as integer multiples (ticks). */
  readonly tickSize: string;
  /** Smallest quantity step as a decimal string ("1" share, "0.0001" BTC); sizes are integer lots. */
  readonly lotSize: string;
  /** Static band around the previous close (NSE/BSE), or null (US, B3, crypto, FX, indices). */
  readonly priceBandPct: BandPct | null;
  /** False when trading is suspended: the instrument stays in the catalogue but gets no prices. */
  readonly listed: boolean;
  /** Ids of the indices the instrument is a constituent of. */
  readonly indices: readonly string[];
  /** What drives its common moves in the simulator: return = beta × factor return + its own return. */
  readonly factor: { readonly id: string; readonly beta: number } | null;
  /** A realistic recent price level, where the simulator starts (decimal string on the tick grid). */
  readonly startPrice: string;
  /** Annualised volatility of log returns (0.25 = 25%), total (factor and own part together). */
  readonly annualVol: number;
  /** Typical value traded per day, in the quote currency; 0 for indices and FX (no volume). */
  readonly avgDailyValue: number;
  /** Crypto only: the base asset ("BTC"). */
  readonly baseAsset: string | null;
};

const CATALOGUE: Instrument[] = [
  ...INDIA_INSTRUMENTS,
  ...US_INSTRUMENTS,
  ...B3_INSTRUMENTS,
  ...CRYPTO_INSTRUMENTS,
  ...FX_INSTRUMENTS,
];

/** The whole catalogue, factors before the instruments they drive; instruments listed at run time last. */
export const INSTRUMENTS: readonly Instrument[] = CATALOGUE;

const BY_ID = new Map(INSTRUMENTS.map((instrument) => [instrument.id, instrument]));
const ADDED = new Set<string>();

/**
 * Adds an instrument listed at run time to the end of the catalogue (its factor is already in it). Adding
 * the same definition again is a no-op (a restart re-applies its listings); a different one under a known
 * id, or an unknown factor, throws.
 */
export function addInstrument(instrument: Instrument): void {
  const known = BY_ID.get(instrument.id);
  if (known) {
    if (JSON.stringify(known) === JSON.stringify(instrument)) return;
    throw new Error(`instrument ${instrument.id} is already in the catalogue`);
  }
  if (instrument.factor && !BY_ID.has(instrument.factor.id)) {
    throw new Error(`factor ${instrument.factor.id} of ${instrument.id} is not in the catalogue`);
  }
  CATALOGUE.push(instrument);
  BY_ID.set(instrument.id, instrument);
  ADDED.add(instrument.id);
}

/** Whether the instrument was listed at run time (it has no generated history before its listing). */
export function isAddedAtRunTime(id: string): boolean {
  return ADDED.has(id);
}

export function findInstrument(id: string): Instrument | undefined {
  return BY_ID.get(id);
}

/** Like findInstrument for an id that must exist (a missing one is a bug). */
export function instrumentById(id: string): Instrument {
  const instrument = BY_ID.get(id);
  if (!instrument) throw new Error(`unknown instrument ${id}`);
  return instrument;
}

/** The instrument with this ticker on this exchange ("NSE", "RELIANCE"). */
export function findBySymbol(exchange: ExchangeId, symbol: string): Instrument | undefined {
  return BY_ID.get(`${exchange}:${symbol}`);
}

export type InstrumentFilter = {
  readonly exchange?: ExchangeId;
  readonly country?: Country | null;
  readonly kind?: InstrumentKind;
  readonly listed?: boolean;
  /** Constituents of this index id. */
  readonly index?: string;
};

export function listInstruments(filter: InstrumentFilter = {}): Instrument[] {
  return INSTRUMENTS.filter(
    (i) =>
      (filter.exchange === undefined || i.exchange === filter.exchange) &&
      (filter.country === undefined || i.country === filter.country) &&
      (filter.kind === undefined || i.kind === filter.kind) &&
      (filter.listed === undefined || i.listed === filter.listed) &&
      (filter.index === undefined || i.indices.includes(filter.index)),
  );
}

/** The constituents of an index, in catalogue order. */
export function indexMembers(indexId: string): Instrument[] {
  return listInstruments({ index: indexId });
}

/** The chain of factors behind an instrument, root first, ending with the instrument itself. */
export function factorChain(id: string): Instrument[] {
  const chain: Instrument[] = [];
  let current: Instrument | undefined = instrumentById(id);
  while (current) {
    if (chain.includes(current)) throw new Error(`factor cycle at ${current.id}`);
    chain.unshift(current);
    current = current.factor ? instrumentById(current.factor.id) : undefined;
  }
  return chain;
}
