// Owns the catalogue of assets and their scales (how many decimals one minor unit is).
// Must hold: an asset is identified by its code alone, and a code always maps to the same scale.
// Must not: know about prices, instruments or accounts; that is the engine's business.

export type Asset = { readonly code: string; readonly scale: number };

const KNOWN_SCALES: Readonly<Record<string, number>> = {
  INR: 2,
  USD: 2,
  BRL: 2,
  USDT: 6,
  BTC: 8,
  ETH: 18,
  SOL: 9,
  BNB: 8,
  XRP: 6,
  DOGE: 8,
  ADA: 6,
  TRX: 6,
  SHARE: 0,
};

/** Largest scale we accept; 10^36 minor units still fit comfortably in a bigint. */
export const MAX_SCALE = 36;

export const SHARE_PREFIX = 'SHARE:';

/** The generic share asset (whole shares, scale 0), for places that do not care which stock. */
export const SHARE: Asset = { code: 'SHARE', scale: 0 };

export const ASSETS = {
  INR: { code: 'INR', scale: 2 },
  USD: { code: 'USD', scale: 2 },
  BRL: { code: 'BRL', scale: 2 },
  USDT: { code: 'USDT', scale: 6 },
  BTC: { code: 'BTC', scale: 8 },
  ETH: { code: 'ETH', scale: 18 },
  SOL: { code: 'SOL', scale: 9 },
  BNB: { code: 'BNB', scale: 8 },
  XRP: { code: 'XRP', scale: 6 },
  DOGE: { code: 'DOGE', scale: 8 },
  ADA: { code: 'ADA', scale: 6 },
  TRX: { code: 'TRX', scale: 6 },
  SHARE,
} as const satisfies Record<string, Asset>;

/** The share asset of one listed instrument, e.g. `SHARE:NSE:RELIANCE` (whole shares). */
export function shareAsset(exchange: string, symbol: string): Asset {
  if (!/^[A-Z0-9_.-]+$/.test(exchange) || !/^[A-Z0-9_.&-]+$/.test(symbol)) {
    throw new Error(`share asset needs upper-case exchange and symbol, got ${exchange}:${symbol}`);
  }
  return { code: `${SHARE_PREFIX}${exchange}:${symbol}`, scale: 0 };
}

/** Looks an asset up by code: the known list, or any `SHARE:EXCHANGE:SYMBOL`. */
export function findAsset(code: string): Asset | undefined {
  const scale = KNOWN_SCALES[code];
  if (scale !== undefined) return { code, scale };
  if (code.startsWith(SHARE_PREFIX) && /^SHARE:[A-Z0-9_.-]+:[A-Z0-9_.&-]+$/.test(code)) {
    return { code, scale: 0 };
  }
  return undefined;
}

/** Like findAsset, but an unknown code is a bug in the caller. */
export function assetOf(code: string): Asset {
  const asset = findAsset(code);
  if (!asset) throw new Error(`unknown asset ${code}`);
  return asset;
}

/** An asset outside the catalogue (a newly listed token), with its scale stated by the caller. */
export function customAsset(code: string, scale: number): Asset {
  if (!/^[A-Z0-9:_.&-]+$/.test(code)) throw new Error(`bad asset code ${code}`);
  if (!Number.isInteger(scale) || scale < 0 || scale > MAX_SCALE) throw new Error(`bad scale ${scale}`);
  return { code, scale };
}

export function isSameAsset(a: Asset, b: Asset): boolean {
  return a.code === b.code;
}

/** 10^scale as a bigint: the number of minor units in one whole unit. */
export function unitOf(asset: Asset): bigint {
  return pow10(asset.scale);
}

const POW10: bigint[] = [];
for (let i = 0; i <= MAX_SCALE * 2; i++) POW10.push(10n ** BigInt(i));

export function pow10(exponent: number): bigint {
  const value = POW10[exponent];
  if (value === undefined) throw new Error(`pow10 out of range: ${exponent}`);
  return value;
}
