// Creates (and caches) the Intl formatters Home's first render uses, for the stock country and the
// language it will most likely show. The boot script runs this while the app's code is still
// downloading: on a slow phone the first Intl.DateTimeFormat with a time zone alone costs tens of
// milliseconds, which would otherwise fall inside the first render. Only the caches of lib/ change.
import { getStoredLanguage } from '../../i18n/languages.ts';
import { formatCompact, type MarketCode, marketFormats } from '../../lib/format.ts';
import { formatChange, formatPercentChange, formatPrice } from '../../lib/market-format.ts';
import { formatChatTime, formatDateTime } from '../../lib/time.ts';

const dayMs = 86_400_000;

export function warmHomeFormatters(country: MarketCode, nowMs: number = Date.now()): void {
  const { locale, timeZone } = marketFormats[country];
  formatDateTime(nowMs, timeZone); // market status line
  for (const daysAgo of [0, 1, 3, 30]) formatChatTime(nowMs - daysAgo * dayMs, nowMs, getStoredLanguage(), timeZone);
  formatPrice('1.5', locale, 2); // index cards and quote rows
  formatChange('1.5', locale, 2);
  formatPercentChange('1.5', locale);
  formatCompact('1234567', locale);
}
