// The K-line screens (SPEC §2 pages/stock/stockKline?symbol=…, pages/coin/coinKline?symbol=…): quote
// header, chart with interval tabs (chart code loaded on demand), order book and recent trades, the
// watchlist star and the Buy / Sell buttons. The header, chart, book and trades are reused by the crypto
// trading screen (features/spot).
import type { CandleInterval, CandleView, QuoteView } from '@bourse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiPost } from '../../app/api.ts';
import { channels } from '../../app/live.ts';
import { loginPath } from '../../app/navigation.ts';
import { useSession } from '../../app/session.ts';
import { ChevronRightIcon } from '../../app/shell/icons.tsx';
import { Page } from '../../app/shell/page.tsx';
import { useLiveChannels, usePollInterval } from '../../app/use-live.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { formatCompact, marketFormats } from '../../lib/format.ts';
import { formatChange, formatPercentChange, formatPrice, quoteLocale } from '../../lib/market-format.ts';
import { formatDateTime } from '../../lib/time.ts';
import { CoinStar } from '../spot/coin-star.tsx';
import { StarIcon } from './icons.tsx';
import {
  type AssetKind,
  fetchCandles,
  type Items,
  marketKeys,
  useBook,
  useQuote,
  useTrades,
  useWatchlist,
} from './market-api.ts';
import { bookRows, directionOf, mergeCandle, priceDigits, simpleMovingAverage } from './market-math.ts';
import { EmptyState, ErrorState, Segmented, SkeletonRows, useFlash } from './market-ui.tsx';

const PriceChart = lazy(() => import('./chart.tsx'));
const smaPeriods = [5, 10, 20] as const;
// The chart's SMA line colours (chart.tsx), dark enough for the legend's text (4.5:1 on white).
const smaColors = ['#b45309', '#7e57c2', '#1565c0'] as const;

const intervals: readonly { value: CandleInterval; label: string }[] = [
  { value: '1m', label: '1m' },
  { value: '5m', label: '5m' },
  { value: '15m', label: '15m' },
  { value: '1h', label: '1h' },
  { value: '1d', label: '1D' },
  { value: '1w', label: '1W' },
];
const intervalStorageKey = 'klineInterval';

function readInterval(): CandleInterval {
  try {
    const stored = localStorage.getItem(intervalStorageKey);
    return intervals.some((i) => i.value === stored) ? (stored as CandleInterval) : '1d';
  } catch {
    return '1d';
  }
}

function timeZoneOf(quote: QuoteView | undefined): string {
  return quote?.country ? marketFormats[quote.country].timeZone : 'UTC';
}

export function QuoteHeader({ quote }: { quote: QuoteView }) {
  const { t } = useTranslation();
  const locale = quoteLocale(quote, currentLanguage());
  const digits = priceDigits(quote.tickSize);
  const direction = directionOf(quote.change);
  const flash = useFlash(quote.price);
  const cells: [string, string][] = [
    [t('markets.open24'), formatPrice(quote.open, locale, digits)],
    [t('markets.high'), formatPrice(quote.high, locale, digits)],
    [t('markets.low'), formatPrice(quote.low, locale, digits)],
    [t('markets.prevClose'), formatPrice(quote.prevClose, locale, digits)],
    [t('markets.volume'), formatCompact(quote.volume, locale)],
  ];
  if (quote.bandLo && quote.bandHi) {
    cells.push([
      t('markets.band'),
      `${formatPrice(quote.bandLo, locale, digits)}–${formatPrice(quote.bandHi, locale, digits)}`,
    ]);
  }
  return (
    <section className="quote-header" data-testid="quote-header">
      <div className="quote-header__main">
        <div>
          <p className="quote-header__name">
            {quote.name}
            <span className="quote-header__exchange">{quote.exchange}</span>
          </p>
          <p
            className={`quote-header__price quote-header__price--${direction} tabular ${flash}`}
            data-testid="last-price"
          >
            {formatPrice(quote.price, locale, digits)}
            {quote.kind === 'crypto' && <span className="quote-header__ccy">{quote.currency}</span>}
          </p>
          <p className={`quote-header__change quote-header__change--${direction} tabular`}>
            {formatChange(quote.change, locale, digits)} ({formatPercentChange(quote.changePct, locale)})
          </p>
        </div>
        <div className="quote-header__tags">
          {quote.kind !== 'crypto' && (
            <span className={quote.isOpen ? 'tag tag--open' : 'tag'}>
              {quote.isOpen ? t('markets.open') : t('markets.closed')}
            </span>
          )}
          {!quote.listed && <span className="tag tag--warn">{t('markets.unlisted')}</span>}
        </div>
      </div>
      <dl className="quote-grid">
        {cells.map(([label, value]) => (
          <div key={label} className="quote-grid__cell">
            <dt>{label}</dt>
            <dd className="tabular">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="quote-header__time">{t('markets.asOf', { time: formatDateTime(quote.time, timeZoneOf(quote)) })}</p>
    </section>
  );
}

function Legend({
  candle,
  candles,
  locale,
  digits,
}: {
  candle: CandleView | undefined;
  candles: CandleView[];
  locale: string;
  digits: number;
}) {
  const { t } = useTranslation();
  if (!candle) return <div className="kline-legend" />;
  const index = candles.findIndex((c) => c.time === candle.time);
  const upto = candles.slice(0, index + 1);
  const direction = Number(candle.close) >= Number(candle.open) ? 'up' : 'down';
  return (
    <div className="kline-legend tabular" data-testid="kline-legend">
      <span>
        {t('markets.o')} <b className={`num--${direction}`}>{formatPrice(candle.open, locale, digits)}</b>
      </span>
      <span>
        {t('markets.h')} <b className={`num--${direction}`}>{formatPrice(candle.high, locale, digits)}</b>
      </span>
      <span>
        {t('markets.l')} <b className={`num--${direction}`}>{formatPrice(candle.low, locale, digits)}</b>
      </span>
      <span>
        {t('markets.c')} <b className={`num--${direction}`}>{formatPrice(candle.close, locale, digits)}</b>
      </span>
      <span>
        {t('markets.vol')} <b>{formatCompact(candle.volume, locale)}</b>
      </span>
      <span className="kline-legend__ma">
        {smaPeriods.map((period, i) => {
          const points = simpleMovingAverage(upto.slice(-period), period);
          const value = points[points.length - 1]?.value;
          return (
            <span key={period} style={{ color: smaColors[i] }}>
              MA{period} {value === undefined ? '--' : formatPrice(value.toFixed(digits), locale, digits)}
            </span>
          );
        })}
      </span>
    </div>
  );
}

export function Kline({ kind, quote }: { kind: AssetKind; quote: QuoteView }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [interval, setIntervalState] = useState<CandleInterval>(readInterval);
  const [hovered, setHovered] = useState<CandleView | null>(null);
  const poll = usePollInterval(interval === '1m' ? 5_000 : 15_000);
  const key = marketKeys.candles(kind, quote.symbol, interval);
  const candles = useQuery({
    queryKey: key,
    queryFn: () => fetchCandles(kind, quote.id, interval),
    refetchInterval: poll,
  });
  useLiveChannels(
    [channels.candles(quote.id, interval)],
    (_channel, data) => {
      const candle = data as CandleView;
      if (!candle || typeof candle.time !== 'number') return;
      queryClient.setQueryData<Items<CandleView>>(key, (current) =>
        current ? { items: mergeCandle(current.items, candle) } : current,
      );
    },
    () => void queryClient.invalidateQueries({ queryKey: key }),
  );
  const setInterval = (value: CandleInterval) => {
    setIntervalState(value);
    setHovered(null);
    try {
      localStorage.setItem(intervalStorageKey, value);
    } catch {
      // storage unavailable
    }
  };
  const locale = quoteLocale(quote, currentLanguage());
  const digits = priceDigits(quote.tickSize);
  const items = candles.data?.items ?? [];
  const shown = hovered ?? items[items.length - 1];
  return (
    <section className="kline" aria-label={t('markets.chart')}>
      <div className="interval-tabs" role="tablist" aria-label={t('markets.interval')}>
        {intervals.map((option) => (
          <button
            key={option.value}
            type="button"
            role="tab"
            aria-selected={option.value === interval}
            className={
              option.value === interval ? 'interval-tabs__tab interval-tabs__tab--active' : 'interval-tabs__tab'
            }
            onClick={() => setInterval(option.value)}
          >
            {option.label}
          </button>
        ))}
      </div>
      <Legend candle={shown} candles={items} locale={locale} digits={digits} />
      <div className="kline-chart">
        {candles.isPending ? (
          <div className="kline-chart__placeholder skeleton-block" data-testid="skeleton" />
        ) : candles.isError ? (
          <ErrorState onRetry={() => void candles.refetch()} />
        ) : items.length === 0 ? (
          <EmptyState title={t('markets.noCandles')} />
        ) : (
          <Suspense fallback={<div className="kline-chart__placeholder skeleton-block" />}>
            <PriceChart
              candles={items}
              seriesKey={`${quote.id}:${interval}`}
              digits={digits}
              locale={locale}
              timeZone={timeZoneOf(quote)}
              isIntraday={interval !== '1d' && interval !== '1w'}
              onHover={setHovered}
            />
          </Suspense>
        )}
      </div>
    </section>
  );
}

export function OrderBook({
  kind,
  quote,
  onPrice,
  depth = 5,
  pickLabel,
  bookPath,
}: {
  kind: AssetKind;
  quote: QuoteView;
  onPrice: (price: string, side: 'buy' | 'sell') => void;
  depth?: number;
  /** What tapping a row does, for screen readers (default: "Buy at" an ask, "Sell at" a bid). */
  pickLabel?: string;
  /** Another book than the quote's instrument's (a perpetual contract's: /coin/contract/books). */
  bookPath?: string;
}) {
  const { t } = useTranslation();
  const book = useBook(kind, quote.symbol, quote.id, bookPath);
  const locale = quoteLocale(quote, currentLanguage());
  const digits = priceDigits(quote.tickSize);
  if (book.isPending) return <SkeletonRows count={5} height={24} />;
  if (book.isError) return <ErrorState onRetry={() => void book.refetch()} />;
  const rows = bookRows(book.data, depth);
  if (rows.asks.length === 0 && rows.bids.length === 0) return <EmptyState title={t('markets.bookEmpty')} />;
  const row = (level: { price: string; quantity: string; depthPct: number }, side: 'ask' | 'bid') => (
    <li key={`${side}-${level.price}`}>
      <button
        type="button"
        className={`book-row book-row--${side}`}
        // Tapping an ask buys at that price; tapping a bid sells at it.
        onClick={() => onPrice(level.price, side === 'ask' ? 'buy' : 'sell')}
      >
        <span className="book-row__bar" style={{ width: `${level.depthPct}%` }} aria-hidden="true" />
        {/* What a tap does, for screen readers; the name then goes on with the visible price and quantity. */}
        <span className="visually-hidden">
          {pickLabel ?? t(side === 'ask' ? 'markets.buyAt' : 'markets.sellAt', { price: '' }).trim()}{' '}
        </span>
        <span className="book-row__price tabular">{formatPrice(level.price, locale, digits)}</span>
        <span className="book-row__qty tabular">{formatCompact(level.quantity, locale)}</span>
      </button>
    </li>
  );
  return (
    <div className="book" data-testid="order-book">
      <div className="book__head">
        <span>{t('markets.price')}</span>
        <span>{t('markets.quantity')}</span>
      </div>
      <ul className="book__side">{rows.asks.map((level) => row(level, 'ask'))}</ul>
      <p className="book__spread tabular">
        {t('markets.spread')} {rows.spread ? formatPrice(rows.spread, locale, digits) : '--'}
      </p>
      <ul className="book__side">{rows.bids.map((level) => row(level, 'bid'))}</ul>
    </div>
  );
}

export function RecentTrades({ kind, quote }: { kind: AssetKind; quote: QuoteView }) {
  const { t } = useTranslation();
  const trades = useTrades(kind, quote.symbol, quote.id);
  const locale = quoteLocale(quote, currentLanguage());
  const digits = priceDigits(quote.tickSize);
  const timeFormat = new Intl.DateTimeFormat(locale, {
    timeZone: timeZoneOf(quote),
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });
  if (trades.isPending) return <SkeletonRows count={5} height={24} />;
  if (trades.isError) return <ErrorState onRetry={() => void trades.refetch()} />;
  const items = trades.data.items;
  if (items.length === 0) return <EmptyState title={t('markets.noTrades')} />;
  return (
    <table className="trades" data-testid="recent-trades">
      <thead>
        <tr>
          <th scope="col">{t('markets.time')}</th>
          <th scope="col">{t('markets.price')}</th>
          <th scope="col">{t('markets.quantity')}</th>
        </tr>
      </thead>
      <tbody>
        {items.slice(0, 20).map((trade) => (
          <tr key={trade.id}>
            <td className="tabular">{timeFormat.format(trade.time > 1e11 ? trade.time : trade.time * 1000)}</td>
            <td className={`tabular num--${trade.side === 'buy' ? 'up' : 'down'}`}>
              {formatPrice(trade.price, locale, digits)}
            </td>
            <td className="tabular">{formatCompact(trade.quantity, locale)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function WatchStar({ quote }: { quote: QuoteView }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const watchlist = useWatchlist(Boolean(session.token));
  const isStarred = watchlist.data?.items.some((q) => q.id === quote.id || q.symbol === quote.symbol) ?? false;
  const toggle = useMutation({
    mutationFn: () => apiPost(isStarred ? '/stock/collect/del' : '/stock/collect/add', { symbol: quote.id }),
    onSuccess: () => {
      Toast.show({ content: t(isStarred ? 'markets.unstarred' : 'markets.starred') });
      void queryClient.invalidateQueries({ queryKey: marketKeys.watchlist });
    },
  });
  return (
    <button
      type="button"
      className={isStarred ? 'icon-button star star--on' : 'icon-button star'}
      aria-pressed={isStarred}
      aria-label={t(isStarred ? 'markets.removeWatch' : 'markets.addWatch')}
      disabled={toggle.isPending}
      data-testid="watch-star"
      onClick={() => {
        if (!session.token) {
          navigate(`${loginPath}?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`);
          return;
        }
        toggle.mutate();
      }}
    >
      <StarIcon filled={isStarred} />
    </button>
  );
}

function KlinePage({ kind }: { kind: AssetKind }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const symbol = params.get('symbol') ?? '';
  const quote = useQuote(kind, symbol);
  const [panel, setPanel] = useState<'book' | 'trades'>('book');
  const data = quote.data;
  const orderPath = (side: 'buy' | 'sell', price?: string) =>
    kind === 'stock'
      ? `/pages/stock/order?symbol=${encodeURIComponent(data?.id ?? symbol)}&side=${side}${price ? `&orderType=limit&price=${encodeURIComponent(price)}` : ''}`
      : `/pages/coin/index?symbol=${encodeURIComponent(symbol)}&side=${side}`;
  const title = data ? data.symbol : t(kind === 'stock' ? 'titles.stock.stockKline' : 'titles.coin.coinKline');
  return (
    <Page
      title={title}
      right={data ? kind === 'stock' ? <WatchStar quote={data} /> : <CoinStar symbol={data.symbol} /> : undefined}
      className="kline-page"
    >
      {!symbol ? (
        <EmptyState
          title={t('markets.symbolMissing')}
          action={
            <Link className="btn btn--primary" to="/pages/stock/search">
              {t('markets.findStocks')}
            </Link>
          }
        />
      ) : quote.isPending ? (
        <SkeletonRows count={4} height={80} />
      ) : quote.isError ? (
        <ErrorState onRetry={() => void quote.refetch()} />
      ) : data ? (
        <>
          <QuoteHeader quote={data} />
          <Kline kind={kind} quote={data} />
          {kind === 'stock' && data.listed && (
            <Link
              className="list-row kline-vote-entry"
              to={`/pages/stock/vote?symbol=${encodeURIComponent(data.id)}`}
              data-testid="vote-entry"
            >
              <span className="list-row__label">
                {t('vote.entry')}
                <small className="list-row__hint">{t('vote.entryHint')}</small>
              </span>
              <ChevronRightIcon size={18} />
            </Link>
          )}
          <section className="depth" aria-label={t('markets.depth')}>
            <Segmented
              value={panel}
              onChange={setPanel}
              label={t('markets.depth')}
              options={[
                { value: 'book', label: t('markets.orderBook') },
                { value: 'trades', label: t('markets.recentTrades') },
              ]}
            />
            {panel === 'book' ? (
              <OrderBook kind={kind} quote={data} onPrice={(price, side) => navigate(orderPath(side, price))} />
            ) : (
              <RecentTrades kind={kind} quote={data} />
            )}
          </section>
          <div className="trade-bar">
            <Link className="btn trade-bar__buy" to={orderPath('buy')} data-testid="buy-button">
              {t('trading.buy')}
            </Link>
            <Link className="btn trade-bar__sell" to={orderPath('sell')} data-testid="sell-button">
              {t('trading.sell')}
            </Link>
          </div>
        </>
      ) : null}
    </Page>
  );
}

export const StockKlinePage = () => <KlinePage kind="stock" />;
export const CoinKlinePage = () => <KlinePage kind="coin" />;
