// Owns what an asset is (a code and a scale: how many decimals one minor unit is) and the built-in
// definitions the engine registers at genesis. Must hold: BUILT_IN_ASSETS is the one table of assets
// (the engine's register_asset adds others at run time); a code always maps to the same scale.
// Must not: know about prices, instruments or accounts, or decide at run time which assets exist: the
// engine's state does (packages/engine/src/assets.ts).

export type Asset = { readonly code: string; readonly scale: number };

/**
 * What an asset is for: `fiat` (INR, USD, BRL), `crypto` (coins and tokens, USDT included), `share`
 * (one listed stock, implied by its code, see shareAsset), `collateral` (an asset that only margins
 * contracts, never traded on a spot book).
 */
export const ASSET_KINDS = ['fiat', 'crypto', 'share', 'collateral'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];

/** An asset as the engine registers it. */
export type AssetDefinition = Asset & { readonly kind: AssetKind };

/** Largest scale we accept; 10^36 minor units still fit comfortably in a bigint. */
export const MAX_SCALE = 36;

export const SHARE_PREFIX = 'SHARE:';

const fiat = (code: string, scale: number): AssetDefinition => ({ code, scale, kind: 'fiat' });
const crypto = (code: string, scale: number): AssetDefinition => ({ code, scale, kind: 'crypto' });

/**
 * The built-in assets, registered in every engine at genesis (Engine's constructor): the currencies of
 * the stock markets and every coin of the crypto catalogue (packages/market/src/instruments/crypto.ts)
 * at its chain's own decimals. Any other asset comes by a journaled register_asset.
 */
export const ASSETS = {
  INR: fiat('INR', 2),
  USD: fiat('USD', 2),
  BRL: fiat('BRL', 2),
  USDT: crypto('USDT', 6),
  BTC: crypto('BTC', 8),
  ETH: crypto('ETH', 18),
  SOL: crypto('SOL', 9),
  BNB: crypto('BNB', 8),
  XRP: crypto('XRP', 6),
  DOGE: crypto('DOGE', 8),
  ADA: crypto('ADA', 6),
  TRX: crypto('TRX', 6),
  LTC: crypto('LTC', 8),
  LINK: crypto('LINK', 18),
  AVAX: crypto('AVAX', 18),
  DOT: crypto('DOT', 10),
} as const satisfies Record<string, AssetDefinition>;

/** ASSETS as a list, in registration order. */
export const BUILT_IN_ASSETS: readonly AssetDefinition[] = Object.values(ASSETS);

const SHARE_CODE = /^SHARE:[A-Z0-9_.-]+:[A-Z0-9_.&-]+$/;
/** A registrable asset code: upper-case letters and digits, starting with a letter. */
const ASSET_CODE = /^[A-Z][A-Z0-9]{1,15}$/;

/** The share asset of one listed instrument, e.g. `SHARE:NSE:RELIANCE` (whole shares). */
export function shareAsset(exchange: string, symbol: string): Asset {
  if (!/^[A-Z0-9_.-]+$/.test(exchange) || !/^[A-Z0-9_.&-]+$/.test(symbol)) {
    throw new Error(`share asset needs upper-case exchange and symbol, got ${exchange}:${symbol}`);
  }
  return { code: `${SHARE_PREFIX}${exchange}:${symbol}`, scale: 0 };
}

/** The share asset a `SHARE:EXCHANGE:SYMBOL` code names (shares are implied by their code), or undefined. */
export function shareAssetOf(code: string): AssetDefinition | undefined {
  return code.startsWith(SHARE_PREFIX) && SHARE_CODE.test(code) ? { code, scale: 0, kind: 'share' } : undefined;
}

/**
 * The definition register_asset may add, or undefined: a code of 2-16 upper-case letters and digits
 * (shares are implied by their code, not registered), a whole scale from 0 to MAX_SCALE, a known kind
 * other than `share`.
 */
export function parseAssetDefinition(code: unknown, scale: unknown, kind: unknown): AssetDefinition | undefined {
  if (typeof code !== 'string' || !ASSET_CODE.test(code)) return undefined;
  if (typeof scale !== 'number' || !Number.isInteger(scale) || scale < 0 || scale > MAX_SCALE) return undefined;
  if (typeof kind !== 'string' || kind === 'share' || !(ASSET_KINDS as readonly string[]).includes(kind))
    return undefined;
  return { code, scale, kind: kind as AssetKind };
}

/** An asset as a snapshot stored it (an account's code and scale). */
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
