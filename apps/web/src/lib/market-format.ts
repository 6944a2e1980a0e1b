// Display helpers for quotes and money across markets. Owns: which locale and currency a value is
// shown in. Prices of stocks and indices use their market's Intl format (₹ en-IN, $ en-US, R$ pt-BR)
// whatever the app language; crypto pairs (quoted in USDT) use the app language's grouping.
import {
  formatCompact,
  formatMoney,
  formatNumber,
  formatPercentChange,
  type MarketCode,
  marketFormats,
  parseDecimal,
} from './format.ts';

export function marketOfCurrency(currency: string | null | undefined): MarketCode | null {
  switch (currency) {
    case 'INR':
      return 'IN';
    case 'USD':
      return 'US';
    case 'BRL':
      return 'BR';
    default:
      return null;
  }
}

const SHARE_MARKETS: Record<string, MarketCode> = { NSE: 'IN', BSE: 'IN', NYSE: 'US', NASDAQ: 'US', B3: 'BR' };

/** "SHARE:NSE:RELIANCE" (a share asset of the ledger) → its exchange and ticker, else null. */
export function shareOf(asset: string): { exchange: string; symbol: string } | null {
  const match = /^SHARE:([A-Z0-9_.-]+):(.+)$/.exec(asset);
  return match ? { exchange: match[1] as string, symbol: match[2] as string } : null;
}

/** The market of a currency or of a share asset (for its time zone and number format). */
export function marketOfAsset(asset: string | null | undefined): MarketCode | null {
  const share = asset ? shareOf(asset) : null;
  return share ? (SHARE_MARKETS[share.exchange] ?? null) : marketOfCurrency(asset);
}

export interface QuoteLike {
  country: MarketCode | null;
  currency: string;
  kind: string;
}

/** The locale numbers of this instrument are shown in. */
export function quoteLocale(quote: QuoteLike | null | undefined, language: string): string {
  const market = quote?.country ?? marketOfCurrency(quote?.currency);
  if (market && quote?.kind !== 'crypto') return marketFormats[market].locale;
  return language;
}

/** Money in `currency`: Intl currency style for INR/USD/BRL, else "1,234.50 USDT". */
export function formatAmount(
  value: string | null | undefined,
  currency: string,
  language: string,
  options: { digits?: number; signDisplay?: 'auto' | 'exceptZero'; isZeroEmpty?: boolean } = {},
): string {
  const market = marketOfCurrency(currency);
  if (market) return formatMoney(value, market, options);
  const share = shareOf(currency);
  if (share) {
    const count = formatNumber(value, { locale: language, ...options, digits: 0 });
    return count === '--' ? count : `${count} ${share.symbol}`;
  }
  const text = formatNumber(value, { locale: language, ...options });
  return text === '--' ? text : `${text} ${currency}`;
}

/**
 * Money abbreviated for a box too narrow for the full figure: "₹10L" (lakh and crore in en-IN), "$1.25M",
 * "R$ 50K", "-R$ 1,5M", "1.2K USDT"; exact below one thousand. Same sign and symbol as formatAmount.
 */
export function formatAmountCompact(
  value: string | null | undefined,
  currency: string,
  language: string,
  options: { signDisplay?: 'auto' | 'exceptZero' } = {},
): string {
  const parts = parseDecimal(value);
  if (!parts) return '--';
  // Below a thousand the full figure is as short as an abbreviation.
  if (parts.integer.replace(/^0+/, '').length <= 3) return formatAmount(value, currency, language, options);
  const market = marketOfCurrency(currency);
  const share = shareOf(currency);
  const locale = market ? marketFormats[market].locale : language;
  const magnitude = formatCompact(`${parts.integer}.${parts.fraction}`, locale, share ? 0 : 2);
  // Intl places the sign and the currency symbol around a stand-in 1; the abbreviated figure replaces it.
  const sample = new Intl.NumberFormat(locale, {
    ...(market ? { style: 'currency', currency: marketFormats[market].currency } : {}),
    signDisplay: options.signDisplay ?? 'auto',
    maximumFractionDigits: 0,
  }).formatToParts(parts.isNegative ? -1 : 1);
  const figure = sample.map((part) => (part.type === 'integer' ? magnitude : part.value)).join('');
  if (market) return figure;
  return `${figure} ${share ? share.symbol : currency}`;
}

/** A price without the currency sign (lists, book, trades), with the instrument's digits. */
export function formatPrice(value: string | null | undefined, locale: string, digits = 2): string {
  return formatNumber(value, { locale, digits });
}

/** A signed change in price units: "+12.40", "−3.10". */
export function formatChange(value: string | null | undefined, locale: string, digits = 2): string {
  return formatNumber(value, { locale, digits, signDisplay: 'exceptZero' });
}

export { formatPercentChange };
