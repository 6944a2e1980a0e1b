// Pure rules of the stock order form: validation as the user types (SPEC §5: quantity required, no
// zero amount or price, tick and lot multiples, price band, sellable shares), the "% of available"
// slider and grouping ledger lines by day. Exact decimals only (@bourse/money).
import { compareDecimal, decimalPlaces, formatDecimal, isMultipleOf, tryParseDecimal } from '@bourse/money';
import { formatDate } from '../../lib/time.ts';

export type OrderSide = 'buy' | 'sell';
export type OrderType = 'market' | 'limit';

/** Error codes, named like the server's catalogue where one exists. */
export type OrderFieldError =
  | 'quantity_required'
  | 'amount_zero'
  | 'quantity_invalid'
  | 'quantity_not_on_lot'
  | 'insufficient_quantity'
  | 'price_required'
  | 'price_zero'
  | 'price_invalid'
  | 'price_not_on_tick'
  | 'price_outside_band'
  | 'shares_locked_until_settlement';

export interface OrderInput {
  side: OrderSide;
  orderType: OrderType;
  price: string;
  quantity: string;
  tickSize: string;
  lot: number;
  /** Shares that can be sold now (T+1 locked ones excluded); only checked for sells. */
  sellable?: string | null;
  /** Shares bought but locked until settlement (T+1 / D+2); a sale they would cover says so. */
  locked?: string | null;
  bandLo?: string | null;
  bandHi?: string | null;
}

export interface OrderErrors {
  price?: OrderFieldError;
  quantity?: OrderFieldError;
}

const plainDecimal = /^\d+(\.\d+)?$/;

/** Whole share counts as the server sends them ("12"); anything else counts as 0. */
const addWholeShares = (a: string, b: string) =>
  String((/^\d+$/.test(a) ? BigInt(a) : 0n) + (/^\d+$/.test(b) ? BigInt(b) : 0n));

export function validateOrder(input: OrderInput): OrderErrors {
  const errors: OrderErrors = {};
  const quantity = input.quantity.trim();
  if (quantity === '') errors.quantity = 'quantity_required';
  else if (!/^\d+$/.test(quantity)) errors.quantity = 'quantity_invalid';
  else if (BigInt(quantity) === 0n) errors.quantity = 'amount_zero';
  else if (input.lot > 1 && BigInt(quantity) % BigInt(input.lot) !== 0n) errors.quantity = 'quantity_not_on_lot';
  else if (
    input.side === 'sell' &&
    input.sellable !== undefined &&
    compareDecimal(quantity, input.sellable ?? '0') > 0
  ) {
    // More than the sellable shares: if the locked ones would cover it, the reason is settlement.
    const withLocked = addWholeShares(input.sellable ?? '0', input.locked ?? '0');
    errors.quantity =
      compareDecimal(quantity, withLocked) <= 0 ? 'shares_locked_until_settlement' : 'insufficient_quantity';
  }

  if (input.orderType === 'limit') {
    const price = input.price.trim();
    if (price === '') errors.price = 'price_required';
    else if (!plainDecimal.test(price)) errors.price = 'price_invalid';
    else if (compareDecimal(price, '0') === 0) errors.price = 'price_zero';
    else if (!isMultipleOf(price, input.tickSize)) errors.price = 'price_not_on_tick';
    else if (
      (input.bandLo && compareDecimal(price, input.bandLo) < 0) ||
      (input.bandHi && compareDecimal(price, input.bandHi) > 0)
    ) {
      errors.price = 'price_outside_band';
    }
  }
  return errors;
}

export { sanitizeDecimalInput } from '../../lib/decimal-input.ts';

/**
 * The quantity for `pct` % of what can be used: for a buy, the cash available divided by the price;
 * for a sell, the sellable shares. Rounded down to whole lots; "" when nothing fits.
 */
export function quantityForPercent(args: {
  side: OrderSide;
  pct: number;
  available: string | null | undefined;
  price: string | null | undefined;
  sellable: string | null | undefined;
  lot: number;
}): string {
  const pct = BigInt(Math.max(0, Math.min(100, Math.round(args.pct))));
  const lot = BigInt(Math.max(1, args.lot));
  let shares: bigint;
  if (args.side === 'sell') {
    // Whole shares only: a fraction left over is not for sale here.
    const sellable = tryParseDecimal(args.sellable ?? '0', 0, 'down');
    shares = ((sellable.ok ? sellable.minor : 0n) * pct) / 100n;
  } else {
    const scale = Math.max(decimalPlaces(args.available), decimalPlaces(args.price), 2);
    const cash = tryParseDecimal(args.available ?? '0', scale);
    const price = tryParseDecimal(args.price ?? '0', scale);
    if (!cash.ok || !price.ok || price.minor <= 0n) return '';
    shares = (cash.minor * pct) / 100n / price.minor;
  }
  shares -= shares % lot;
  return shares > 0n ? shares.toString() : '';
}

/** price × quantity, exactly (a rough amount shown before the server's preview arrives). */
export function estimateAmount(price: string, quantity: string): string | null {
  const scale = decimalPlaces(price.trim());
  const p = tryParseDecimal(price.trim(), scale);
  if (!p.ok || !/^\d+$/.test(quantity.trim())) return null;
  return formatDecimal(p.minor * BigInt(quantity.trim()), scale, { decimals: Math.max(scale, 2) });
}

export interface DayGroup<T> {
  day: string;
  items: T[];
}

/** Groups items (newest first as given) by calendar day in `timeZone`, keeping their order. */
export function groupByDay<T extends { at: number }>(items: readonly T[], timeZone: string): DayGroup<T>[] {
  const groups: DayGroup<T>[] = [];
  for (const item of items) {
    const day = formatDate(item.at, timeZone);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.items.push(item);
    else groups.push({ day, items: [item] });
  }
  return groups;
}
