// Small building blocks of the market screens (no antd-mobile: the Home route stays light): change
// pills, flashing values, quote rows, skeletons, empty and error states, the load-more footer and the
// country switch.

import type { QuoteView } from '@bourse/contract';
import { compareDecimal } from '@bourse/money';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '../../i18n/index.ts';

import type { MarketCode } from '../../lib/format.ts';
import { formatCompact } from '../../lib/format.ts';
import { formatPercentChange, formatPrice, quoteLocale } from '../../lib/market-format.ts';
import { readStoredCountry, storeCountry } from './home-data.ts';
import { directionOf, priceDigits } from './market-math.ts';

export { readStoredCountry, storeCountry } from './home-data.ts';

export function klinePath(quote: Pick<QuoteView, 'id' | 'symbol' | 'kind'>): string {
  return quote.kind === 'crypto'
    ? `/pages/coin/coinKline?symbol=${encodeURIComponent(quote.symbol)}`
    : `/pages/stock/stockKline?symbol=${encodeURIComponent(quote.id)}`;
}

/** 'flash-up' / 'flash-down' for about a second after `value` changes (not on first render). */
export function useFlash(value: string | undefined): string {
  const previous = useRef(value);
  const [flash, setFlash] = useState('');
  useEffect(() => {
    const before = previous.current;
    previous.current = value;
    if (before === undefined || value === undefined || before === value) return;
    setFlash(compareDecimal(value, before) > 0 ? 'flash-up' : 'flash-down');
    const timer = setTimeout(() => setFlash(''), 900);
    return () => clearTimeout(timer);
  }, [value]);
  return flash;
}

export function ChangePill({ value, locale, size = 'md' }: { value: string; locale: string; size?: 'md' | 'sm' }) {
  const direction = directionOf(value);
  return (
    <span className={`change-pill change-pill--${direction} change-pill--${size} tabular`}>
      {formatPercentChange(value, locale)}
    </span>
  );
}

/** The crypto trading screen of a pair (SPEC pages/coin/index). */
export function coinTradePath(quote: Pick<QuoteView, 'symbol'>): string {
  return `/pages/coin/index?symbol=${encodeURIComponent(quote.symbol)}`;
}

export function QuoteRow({ quote, right, to }: { quote: QuoteView; right?: ReactNode; to?: string }) {
  const language = currentLanguage();
  const locale = quoteLocale(quote, language);
  const flash = useFlash(quote.price);
  return (
    <li>
      <Link className="quote-row" to={to ?? klinePath(quote)} data-testid="quote-row">
        <span className="quote-row__names">
          <span className="quote-row__symbol">{quote.symbol}</span>
          <span className="quote-row__name">{quote.name}</span>
        </span>
        <span className="quote-row__numbers">
          <span className={`quote-row__price tabular ${flash}`}>
            {formatPrice(quote.price, locale, priceDigits(quote.tickSize))}
          </span>
          <span className="quote-row__volume tabular">{formatCompact(quote.volume, locale)}</span>
        </span>
        <ChangePill value={quote.changePct} locale={locale} />
        {right}
      </Link>
    </li>
  );
}

export function SkeletonRows({ count = 6, height = 56 }: { count?: number; height?: number }) {
  const { t } = useTranslation();
  return (
    <div role="status" aria-label={t('common.loading')} data-testid="skeleton">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="skeleton-row" style={{ height }} />
      ))}
    </div>
  );
}

export function ErrorState({ onRetry, message }: { onRetry: () => void; message?: string }) {
  const { t } = useTranslation();
  return (
    <div className="list-state list-state--error" role="alert" data-testid="error-state">
      <p className="list-state__title">{message ?? t('markets.loadFailed')}</p>
      <button type="button" className="btn btn--outline" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

export function EmptyState({ title, hint, action }: { title: string; hint?: string; action?: ReactNode }) {
  return (
    <div className="list-state" data-testid="empty-state">
      <p className="list-state__title">{title}</p>
      {hint && <p className="list-state__hint">{hint}</p>}
      {action}
    </div>
  );
}

export type LoadMoreState = 'more' | 'loading' | 'noMore' | 'failed';

/** The footer's state of an infinite query: its next page failed, is loading, exists, or not. */
export function loadMoreState(query: {
  isFetchNextPageError: boolean;
  isFetchingNextPage: boolean;
  hasNextPage: boolean;
}): LoadMoreState {
  if (query.isFetchNextPageError) return 'failed';
  if (query.isFetchingNextPage) return 'loading';
  return query.hasNextPage ? 'more' : 'noMore';
}

/** SPEC §2's load-more indicator: more, loading, no more (and a retry when a page failed). */
export function LoadMoreFooter({ state, onMore }: { state: LoadMoreState; onMore: () => void }) {
  const { t } = useTranslation();
  if (state === 'failed') {
    return (
      <div className="load-more" data-testid="load-more">
        <button type="button" className="text-button" onClick={onMore}>
          {t('markets.loadMoreFailed')}
        </button>
      </div>
    );
  }
  return (
    <div className="load-more" data-testid="load-more" aria-live="polite">
      {state === 'more' ? (
        <button type="button" className="text-button text-button--muted" onClick={onMore}>
          {t('markets.loadMore')}
        </button>
      ) : (
        <span>{state === 'loading' ? t('common.loading') : t('markets.noMore')}</span>
      )}
    </div>
  );
}

/** Calls `onVisible` when the sentinel scrolls into view (infinite scroll). */
export function useSentinel(onVisible: () => void, isActive: boolean) {
  const ref = useRef<HTMLDivElement | null>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;
  useEffect(() => {
    const node = ref.current;
    if (!node || !isActive || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current();
      },
      { rootMargin: '200px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [isActive]);
  return ref;
}

export const countryCodes: readonly MarketCode[] = ['IN', 'US', 'BR'];

export function Segmented<T extends string>({
  value,
  options,
  onChange,
  label,
  testId,
}: {
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  label: string;
  testId?: string;
}) {
  return (
    <div className="segmented" role="tablist" aria-label={label} data-testid={testId}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="tab"
          aria-selected={option.value === value}
          className={option.value === value ? 'segmented__item segmented__item--active' : 'segmented__item'}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

export function CountrySwitch({ value, onChange }: { value: MarketCode; onChange: (code: MarketCode) => void }) {
  const { t } = useTranslation();
  return (
    <Segmented
      value={value}
      onChange={onChange}
      label={t('markets.country')}
      testId="country-switch"
      options={countryCodes.map((code) => ({ value: code, label: t(`markets.countries.${code}`) }))}
    />
  );
}

/** The stock country shown: the user's last choice, else the deployment's (props.stockCountry), else IN. */
export function useStockCountry(defaultCountry: MarketCode | undefined): [MarketCode, (code: MarketCode) => void] {
  const [chosen, setChosen] = useState<MarketCode | null>(readStoredCountry);
  const set = (code: MarketCode) => {
    storeCountry(code);
    setChosen(code);
  };
  return [chosen ?? defaultCountry ?? 'IN', set];
}
