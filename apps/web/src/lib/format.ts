// Number and money formatting for the customer app. Owns: turning decimal strings from the API into
// display text with Intl. Must hold: money is never converted to a float; the integer part is
// formatted as a BigInt and the fraction digits are kept from the string (rounded by @bourse/money).

import type { CountryView } from '@bourse/contract';
import { divideRounded } from '@bourse/money';

/** A stock market by its country code, as the contract names them. */
export type MarketCode = CountryView['code'];

export interface MarketFormat {
  locale: string;
  currency: string;
  timeZone: string;
}

export const marketFormats: Record<MarketCode, MarketFormat> = {
  IN: { locale: 'en-IN', currency: 'INR', timeZone: 'Asia/Kolkata' },
  US: { locale: 'en-US', currency: 'USD', timeZone: 'America/New_York' },
  BR: { locale: 'pt-BR', currency: 'BRL', timeZone: 'America/Sao_Paulo' },
};

/** A decimal number split into sign, integer digits and fraction digits, all exact. */
export interface DecimalParts {
  isNegative: boolean;
  integer: string;
  fraction: string;
}

const decimalPattern = /^([+-])?(\d*)(?:\.(\d*))?$/;

/** Parses "-1234.50", "1e3" is refused (returns null): the API sends plain decimal strings. */
export function parseDecimal(value: string | number | bigint | null | undefined): DecimalParts | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value.trim() : String(value);
  const match = decimalPattern.exec(text);
  if (!match) return null;
  const integerDigits = (match[2] ?? '').replace(/^0+(?=\d)/, '');
  const fractionDigits = match[3] ?? '';
  if (integerDigits === '' && fractionDigits === '') return null;
  const integer = integerDigits === '' ? '0' : integerDigits;
  const isZero = /^0*$/.test(integer) && /^0*$/.test(fractionDigits);
  return { isNegative: match[1] === '-' && !isZero, integer, fraction: fractionDigits };
}

/** Rounds to `digits` fraction digits, half away from zero, exactly (@bourse/money's divideRounded). */
export function roundDecimal(parts: DecimalParts, digits: number): DecimalParts {
  if (parts.fraction.length <= digits) {
    return { ...parts, fraction: parts.fraction.padEnd(digits, '0') };
  }
  // The magnitude: the sign is kept aside, so half_up rounds it away from zero.
  const magnitude = BigInt(parts.integer + parts.fraction);
  const scaled = divideRounded(magnitude, 10n ** BigInt(parts.fraction.length - digits), 'half_up');
  const text = scaled.toString().padStart(digits + 1, '0');
  const integer = digits === 0 ? text : text.slice(0, -digits);
  const fraction = digits === 0 ? '' : text.slice(-digits);
  const isZero = scaled === 0n;
  return { isNegative: parts.isNegative && !isZero, integer: integer.replace(/^0+(?=\d)/, ''), fraction };
}

/** Moves the decimal point `places` to the left (divides by 10^places) exactly. */
export function shiftDecimalLeft(parts: DecimalParts, places: number): DecimalParts {
  const padded = parts.integer.padStart(places + 1, '0');
  const integer = padded.slice(0, padded.length - places).replace(/^0+(?=\d)/, '');
  const fraction = padded.slice(padded.length - places) + parts.fraction;
  return { isNegative: parts.isNegative, integer, fraction };
}

export interface NumberFormatOptions {
  locale: string;
  /** Fraction digits shown (default 2). */
  digits?: number;
  /** ISO currency code; when set the value is shown as money. */
  currency?: string;
  /** 'auto' shows only '-', 'exceptZero' shows '+' and '-' (for changes). */
  signDisplay?: 'auto' | 'exceptZero' | 'never';
  /** Text for a missing or unparsable value (default "--"). */
  empty?: string;
  /** Show "--" (or `empty`) for zero, as SPEC §9 asks for some fields. */
  isZeroEmpty?: boolean;
}

const formatterCache = new Map<string, Intl.NumberFormat>();

function numberFormatter(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let formatter = formatterCache.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, options);
    formatterCache.set(key, formatter);
  }
  return formatter;
}

/**
 * Formats exact decimal parts with Intl: the integer part is formatted as a BigInt (grouping,
 * currency symbol, sign) and the fraction part's digits are replaced by the exact digits.
 */
export function formatDecimalParts(parts: DecimalParts, options: NumberFormatOptions): string {
  const digits = options.digits ?? 2;
  const rounded = roundDecimal(parts, digits);
  const intlOptions: Intl.NumberFormatOptions = {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    signDisplay: options.signDisplay ?? 'auto',
  };
  if (options.currency) {
    intlOptions.style = 'currency';
    intlOptions.currency = options.currency;
  }
  const formatter = numberFormatter(options.locale, intlOptions);
  const integer = BigInt(rounded.integer);
  const isZero = integer === 0n && /^0*$/.test(rounded.fraction);
  let formatted: Intl.NumberFormatPart[];
  if (isZero) {
    formatted = formatter.formatToParts(0);
  } else if (integer === 0n) {
    // A non-zero value below one (e.g. -0.50): format ±0.1 so that Intl places the sign (and "+"
    // for exceptZero) itself; the fraction digits are replaced by the exact ones below.
    formatted = formatter.formatToParts(rounded.isNegative ? -0.1 : 0.1);
  } else {
    formatted = formatter.formatToParts(rounded.isNegative ? -integer : integer);
  }
  return formatted.map((part) => (part.type === 'fraction' ? rounded.fraction : part.value)).join('');
}

/** "123456.7" → "1,23,456.70" (en-IN) / "123,456.70" (en-US) / "123.456,70" (pt-BR). */
export function formatNumber(value: string | number | bigint | null | undefined, options: NumberFormatOptions): string {
  const empty = options.empty ?? '--';
  const parts = parseDecimal(value);
  if (!parts) return empty;
  if (options.isZeroEmpty && /^0*$/.test(parts.integer + parts.fraction)) return empty;
  return formatDecimalParts(parts, options);
}

/** Money in a market's currency: "₹1,23,456.70", "$123,456.70", "R$ 123.456,70". */
export function formatMoney(
  value: string | null | undefined,
  market: MarketCode,
  options: Omit<NumberFormatOptions, 'locale' | 'currency'> = {},
): string {
  const format = marketFormats[market];
  return formatNumber(value, { ...options, locale: format.locale, currency: format.currency });
}

/** A signed percentage change: "+1.25%", "-0.40%", "0.00%". The value is already in percent. */
export function formatPercentChange(value: string | null | undefined, locale: string, digits = 2): string {
  const text = formatNumber(value, { locale, digits, signDisplay: 'exceptZero' });
  return text === '--' ? text : `${text}%`;
}

interface CompactStep {
  power: number;
  suffix: string;
}

const westernSteps: CompactStep[] = [
  { power: 12, suffix: 'T' },
  { power: 9, suffix: 'B' },
  { power: 6, suffix: 'M' },
  { power: 3, suffix: 'K' },
];

// Indian numbering: 1 lakh = 1,00,000; 1 crore = 1,00,00,000.
const indianSteps: CompactStep[] = [
  { power: 7, suffix: 'Cr' },
  { power: 5, suffix: 'L' },
  { power: 3, suffix: 'K' },
];

/**
 * Abbreviates large volumes exactly: "1234567" → "1.23M" (en-US), "12.35L" (en-IN), "1,23M" (pt-BR).
 * Values below 1,000 are shown with `digits` decimals but no suffix.
 */
export function formatCompact(value: string | number | bigint | null | undefined, locale: string, digits = 2): string {
  const parts = parseDecimal(value);
  if (!parts) return '--';
  const steps = locale === 'en-IN' ? indianSteps : westernSteps;
  const integerLength = parts.integer.replace(/^0+/, '').length;
  for (const step of steps) {
    if (integerLength > step.power) {
      const shifted = shiftDecimalLeft(parts, step.power);
      const rounded = roundDecimal(shifted, digits);
      // Drop trailing zeros in the fraction: "1.50M" → "1.5M", "2.00K" → "2K".
      const trimmed: DecimalParts = { ...rounded, fraction: rounded.fraction.replace(/0+$/, '') };
      return formatDecimalParts(trimmed, { locale, digits: trimmed.fraction.length }) + step.suffix;
    }
  }
  return formatDecimalParts(parts, { locale, digits: Math.min(digits, Math.max(parts.fraction.length, 0)) });
}
