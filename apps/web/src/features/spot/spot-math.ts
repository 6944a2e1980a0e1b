// Pure rules of the crypto order form: validation as the user types (tick, lot, minimum quantity and
// notional, stop price), the "% of available" slider and the rough amount shown before the server's
// preview. Exact decimals only (@bourse/money, bigint): a coin has up to 8 decimals and floats would
// round them.
import { compareDecimal, decimalPlaces, formatDecimal, isMultipleOf, MAX_SCALE, tryParseDecimal } from '@bourse/money';

export type SpotSide = 'buy' | 'sell';
export type SpotFormType = 'limit' | 'market' | 'stop_limit';

/** Error codes, named like the server's catalogue (packages/contract/src/errors.ts) where one exists. */
export type SpotFieldError =
  | 'quantity_required'
  | 'amount_zero'
  | 'invalid_quantity'
  | 'quantity_not_on_lot'
  | 'quantity_below_minimum'
  | 'quantity_above_maximum'
  | 'below_min_notional'
  | 'insufficient_balance'
  | 'price_required'
  | 'invalid_price'
  | 'price_not_on_tick'
  | 'stop_required'
  | 'invalid_trigger_price';

export interface SpotPairRules {
  tickSize: string;
  lotSize: string;
  minQuantity: string;
  maxQuantity: string;
  minNotional: string;
}

export interface SpotFormInput extends SpotPairRules {
  side: SpotSide;
  type: SpotFormType;
  price: string;
  stopPrice: string;
  quantity: string;
  /** The price a market order is estimated at (last or best opposite price), for the notional check. */
  marketPrice?: string | null;
  /** What can be spent: the base coin for a sell (checked here); a buy's cash is checked by the preview. */
  available?: string | null;
}

export interface SpotFormErrors {
  price?: SpotFieldError;
  stopPrice?: SpotFieldError;
  quantity?: SpotFieldError;
}

const plainDecimal = /^\d+(\.\d+)?$/;
/** More decimals than any coin has (8) is a typo, not a price. */
const maxInputDecimals = 18;

function priceError(text: string, tickSize: string, missing: SpotFieldError, invalid: SpotFieldError) {
  const value = text.trim();
  if (value === '') return missing;
  if (!plainDecimal.test(value) || decimalPlaces(value) > maxInputDecimals) return invalid;
  if (compareDecimal(value, '0') === 0) return 'amount_zero';
  if (!isMultipleOf(value, tickSize)) return 'price_not_on_tick';
  return undefined;
}

export function validateSpotOrder(input: SpotFormInput): SpotFormErrors {
  const errors: SpotFormErrors = {};
  if (input.type !== 'market') {
    const price = priceError(input.price, input.tickSize, 'price_required', 'invalid_price');
    if (price) errors.price = price;
  }
  if (input.type === 'stop_limit') {
    const stop = priceError(input.stopPrice, input.tickSize, 'stop_required', 'invalid_trigger_price');
    if (stop) errors.stopPrice = stop;
  }
  const quantity = input.quantity.trim();
  if (quantity === '') errors.quantity = 'quantity_required';
  else if (!plainDecimal.test(quantity) || decimalPlaces(quantity) > maxInputDecimals)
    errors.quantity = 'invalid_quantity';
  else if (compareDecimal(quantity, '0') === 0) errors.quantity = 'amount_zero';
  else if (!isMultipleOf(quantity, input.lotSize)) errors.quantity = 'quantity_not_on_lot';
  else if (compareDecimal(quantity, input.minQuantity) < 0) errors.quantity = 'quantity_below_minimum';
  else if (compareDecimal(input.maxQuantity, '0') > 0 && compareDecimal(quantity, input.maxQuantity) > 0) {
    errors.quantity = 'quantity_above_maximum';
  } else if (input.side === 'sell' && input.available != null && compareDecimal(quantity, input.available) > 0) {
    errors.quantity = 'insufficient_balance';
  } else {
    const price = input.type === 'market' ? input.marketPrice : errors.price ? null : input.price;
    const amount = price ? multiplyDecimals(price, quantity) : null;
    if (amount !== null && compareDecimal(amount, input.minNotional) < 0) errors.quantity = 'below_min_notional';
  }
  return errors;
}

/** a × b exactly (at the scale of a plus the scale of b), or null when either is not a plain decimal. */
export function multiplyDecimals(a: string, b: string): string | null {
  const x = a.trim();
  const y = b.trim();
  if (!plainDecimal.test(x) || !plainDecimal.test(y)) return null;
  const scale = decimalPlaces(x) + decimalPlaces(y);
  if (scale > MAX_SCALE) return null;
  return formatDecimal(BigInt(x.replace('.', '')) * BigInt(y.replace('.', '')), scale);
}

/** price × quantity for the form's rough amount, shown at `quoteDecimals` (rounded down). */
export function estimateSpotAmount(price: string, quantity: string, quoteDecimals: number): string | null {
  const product = multiplyDecimals(price, quantity);
  if (product === null) return null;
  const scale = decimalPlaces(product);
  const minor = BigInt(product.replace('.', ''));
  if (scale <= quoteDecimals) return formatDecimal(minor, scale, { decimals: quoteDecimals });
  return formatDecimal(minor, scale, { decimals: quoteDecimals, rounding: 'down' });
}

function scaled(text: string | null | undefined, scale: number): bigint | null {
  if (!text) return null;
  const parsed = tryParseDecimal(text.trim(), scale, 'down');
  return parsed.ok ? parsed.minor : null;
}

/**
 * The quantity for `pct` % of what is available. A buy spends the quote coin: pct % of it divided by the
 * price grossed up by the taker fee (so 100 % still pays its fee); a sell offers pct % of the base coin.
 * Rounded down to whole lots; "" when nothing fits.
 */
export function spotQuantityForPercent(args: {
  side: SpotSide;
  pct: number;
  /** Quote coin for a buy, base coin for a sell. */
  available: string | null | undefined;
  price: string | null | undefined;
  lotSize: string;
  takerFeeBps: number;
}): string {
  const pct = BigInt(Math.max(0, Math.min(100, Math.round(args.pct))));
  const lotScale = decimalPlaces(args.lotSize);
  const lot = scaled(args.lotSize, lotScale);
  if (lot === null || lot <= 0n || pct === 0n) return '';
  let lots: bigint;
  if (args.side === 'sell') {
    const held = scaled(args.available, lotScale);
    if (held === null) return '';
    lots = (held * pct) / 100n / lot;
  } else {
    const scale = Math.min(MAX_SCALE, Math.max(decimalPlaces(args.available), decimalPlaces(args.price)));
    const cash = scaled(args.available, scale);
    const price = scaled(args.price, scale);
    if (cash === null || price === null || price <= 0n) return '';
    const feeBps = BigInt(Math.max(0, Math.round(args.takerFeeBps)));
    // quantity = cash·pct/100 / (price·(1 + fee)); in lots, with the lot's own scale brought in.
    const numerator = cash * pct * 10_000n * 10n ** BigInt(lotScale);
    const denominator = 100n * (10_000n + feeBps) * price * lot;
    lots = numerator / denominator;
  }
  if (lots <= 0n) return '';
  return formatDecimal(lots * lot, lotScale);
}

/** "BTCUSDT" from any of the forms a link may carry ("CRYPTO:BTCUSDT", "BTC-USDT", "btc/usdt"). */
export function pairSymbolOf(text: string | null | undefined): string {
  return (text ?? '')
    .replace(/^CRYPTO:/i, '')
    .replace(/[-/]/g, '')
    .toUpperCase();
}

/** "0.010000" → "0.01": the server's decimals at the coin's scale, shown and stepped at their own. */
export function trimZeros(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

/** How many decimals to show a coin amount with: its own, between 2 and 8 ("0.01049184" stays whole). */
export const exactDigits = (value: string) => Math.min(8, Math.max(2, decimalPlaces(trimZeros(value))));

/** Basis points as a percentage, exactly: 10 → "0.10", 125 → "1.25". */
export function bpsAsPercent(bps: number): string {
  return formatDecimal(BigInt(Math.round(bps)), 2);
}
