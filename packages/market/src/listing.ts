// Owns how a primary-market issue becomes a catalogue instrument at run time: a stock after its IPO and a
// coin after its offering, each shaped like its market's catalogue rows (tick, lot, band, factor).
// Must hold: the start price sits on the tick grid; a coin's tick × lot is at least one USDT minor unit
// (0.000001) and its lot a whole number of the coin's minor units. Must not: add to the catalogue itself
// (addInstrument does, when the host lists it), read the clock or randomness.

import type { ExchangeId } from './calendar-data.ts';
import { INSTRUMENTS, type Instrument } from './instrument.ts';
import { decimalToTicks } from './price.ts';

export type NewStock = {
  readonly exchange: ExchangeId;
  /** The exchange's ticker, upper case ("NOVAIND"). */
  readonly symbol: string;
  readonly name: string;
  /** The issue price: where the simulator starts it (on the exchange's tick grid). */
  readonly issuePrice: string;
  /** The trading lot ("1" share on every stock market we model). */
  readonly lotSize?: string;
};

export type NewCoin = {
  /** The coin's code ("NOVA"); its pair is `CRYPTO:<code>USDT`. */
  readonly symbol: string;
  readonly name: string;
  /** Decimals of the coin's minor unit (its engine asset's scale). */
  readonly scale: number;
  /** Where the simulator starts the pair, in USDT (the offering price). */
  readonly startPrice: string;
};

/** Upper-case letters and digits, starting with a letter. */
const SYMBOL = /^[A-Z][A-Z0-9]{1,15}$/;
/** A new listing moves more than a seasoned one: 45% a year around its market's factor. */
const NEW_LISTING_VOL = 0.45;
const NEW_LISTING_BETA = 1.2;

/** A stock listed after its IPO, shaped like the exchange's other stocks (tick, currency, market factor). */
export function newStockInstrument(input: NewStock): Instrument {
  if (!SYMBOL.test(input.symbol)) throw new Error(`bad symbol ${input.symbol}`);
  const template = INSTRUMENTS.find((i) => i.exchange === input.exchange && i.kind === 'stock' && i.factor !== null);
  if (!template?.factor) throw new Error(`no stock market on ${input.exchange}`);
  const lotSize = input.lotSize ?? '1';
  if (!/^[1-9][0-9]*$/.test(lotSize)) throw new Error(`a stock's lot is whole shares: ${lotSize}`);
  const instrument: Instrument = {
    id: `${input.exchange}:${input.symbol}`,
    symbol: input.symbol,
    name: input.name,
    exchange: input.exchange,
    country: template.country,
    currency: template.currency,
    kind: 'stock',
    tickSize: template.tickSize,
    lotSize,
    // Indian exchanges keep a newly listed stock in the widest static band (20%); the others have none.
    priceBandPct: template.priceBandPct === null ? null : 20,
    listed: true,
    indices: [],
    factor: { id: template.factor.id, beta: NEW_LISTING_BETA },
    startPrice: input.issuePrice,
    annualVol: NEW_LISTING_VOL,
    avgDailyValue: template.avgDailyValue / 10,
    baseAsset: null,
  };
  return onGrid(instrument);
}

/** A coin's USDT pair after its offering: about five significant digits of tick, Binance-like lots. */
export function newCoinInstrument(input: NewCoin): Instrument {
  if (!SYMBOL.test(input.symbol)) throw new Error(`bad symbol ${input.symbol}`);
  if (!Number.isInteger(input.scale) || input.scale < 0 || input.scale > 18)
    throw new Error(`bad scale ${input.scale}`);
  const magnitude = magnitudeOf(input.startPrice);
  // Price steps of 10^(magnitude-5): 95000 → 0.1, 0.16 → 0.000001; never finer than 10^-8.
  const tickExp = Math.max(-8, magnitude - 5);
  // The lot: a whole number of minor units, and tick × lot at least one USDT minor unit (10^-6).
  const lotExp = Math.max(-input.scale, -6 - tickExp);
  const instrument: Instrument = {
    id: `CRYPTO:${input.symbol}USDT`,
    symbol: `${input.symbol}USDT`,
    name: `${input.name} / TetherUS`,
    exchange: 'CRYPTO',
    country: null,
    currency: 'USDT',
    kind: 'crypto',
    tickSize: powerOfTen(tickExp),
    lotSize: powerOfTen(lotExp),
    priceBandPct: null,
    listed: true,
    indices: [],
    factor: { id: 'CRYPTO:BTCUSDT', beta: 1.5 },
    startPrice: input.startPrice,
    annualVol: 1.0,
    avgDailyValue: 1e7,
    baseAsset: input.symbol,
  };
  return onGrid(instrument);
}

function onGrid(instrument: Instrument): Instrument {
  const ticks = decimalToTicks(instrument.startPrice, instrument.tickSize);
  if (ticks === null || ticks <= 0) {
    throw new Error(`start price ${instrument.startPrice} is not a positive multiple of ${instrument.tickSize}`);
  }
  return instrument;
}

/** floor(log10(x)) of a positive decimal string, exactly: "95000" → 4, "0.16" → -1, "0.004" → -3. */
export function magnitudeOf(text: string): number {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`bad price ${text}`);
  const whole = (match[1] as string).replace(/^0+/, '');
  if (whole.length > 0) return whole.length - 1;
  const fraction = match[2] ?? '';
  const firstDigit = fraction.search(/[1-9]/);
  if (firstDigit < 0) throw new Error(`price must be positive: ${text}`);
  return -(firstDigit + 1);
}

/** 10^exp as a decimal string: 2 → "100", -3 → "0.001". */
function powerOfTen(exp: number): string {
  return exp >= 0 ? `1${'0'.repeat(exp)}` : `0.${'0'.repeat(-exp - 1)}1`;
}
