// Public face of @bourse/money: assets and scales, exact amounts, decimal codecs, rounding.
// Must hold: everything here is pure and exact: bigint, or (the *Safe hot-path helpers) float64 integer
// arithmetic proven below 2^53, never a fraction.
// Must not: import from any other package.

export {
  type Amount,
  AssetMismatchError,
  add,
  amountOf,
  assertSameAsset,
  bpsOf,
  bpsOfDownSafe,
  compare,
  convert,
  formatAmount,
  isNegative,
  isZero,
  negate,
  notional,
  notionalMinor,
  notionalMinorDownSafe,
  type Price,
  parseAmount,
  priceOf,
  type Rate,
  rateOf,
  subtract,
  tryParseAmount,
  zero,
} from './amount.ts';
export {
  ASSET_KINDS,
  ASSETS,
  type Asset,
  type AssetDefinition,
  type AssetKind,
  BUILT_IN_ASSETS,
  customAsset,
  isSameAsset,
  MAX_SCALE,
  parseAssetDefinition,
  pow10,
  SHARE_PREFIX,
  shareAsset,
  shareAssetOf,
  unitOf,
} from './assets.ts';
export {
  type DecimalParseFailure,
  type DecimalParseResult,
  type FormatOptions,
  formatDecimal,
  parseDecimal,
  tryParseDecimal,
} from './decimal.ts';
export {
  compareDecimal,
  decimalPlaces,
  isMultipleOf,
  signOfDecimal,
  stepDecimal,
  subtractDecimals,
  sumDecimals,
} from './decimal-strings.ts';
export { allocateProRata } from './pro-rata.ts';
export { divideRounded, ROUNDING_MODES, type RoundingMode } from './rounding.ts';
