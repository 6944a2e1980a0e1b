// Markets tab (SPEC §2 pages/tabbar/markets): Stocks by country with server-side sorting and infinite
// scroll, Crypto pairs (all or the favourites; a pair opens its trading screen), and the Watchlist when
// signed in. Pull to refresh, live prices that flash.
import type { QuoteView } from '@bourse/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { PullToRefresh } from 'antd-mobile';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePlatformProps } from '../../app/api.ts';
import { useSession } from '../../app/session.ts';
import { Page } from '../../app/shell/page.tsx';
import { usePollInterval } from '../../app/use-live.ts';
import type { MarketCode } from '../../lib/format.ts';
import { useCoinFavourites } from '../spot/spot-api.ts';
import { MarketStatusLine } from './home-page.tsx';
import { SearchIcon } from './icons.tsx';
import { fetchStockList, listPageSize, marketKeys, useCoinTickers, useLiveQuotes, useWatchlist } from './market-api.ts';
import { type QuoteSort, sortQuotes } from './market-math.ts';
import {
  CountrySwitch,
  coinTradePath,
  EmptyState,
  ErrorState,
  LoadMoreFooter,
  loadMoreState,
  QuoteRow,
  Segmented,
  SkeletonRows,
  useSentinel,
  useStockCountry,
} from './market-ui.tsx';

type Segment = 'stocks' | 'crypto' | 'watchlist';
type CoinFilter = 'all' | 'favourites';

const segmentStorageKey = 'marketsSegment';
const coinFilterKey = 'marketsCoinFilter';

function readCoinFilter(): CoinFilter {
  try {
    return sessionStorage.getItem(coinFilterKey) === 'favourites' ? 'favourites' : 'all';
  } catch {
    return 'all';
  }
}

function SortHeader({ sort, onSort }: { sort: QuoteSort; onSort: (sort: QuoteSort) => void }) {
  const { t } = useTranslation();
  const arrow = (field: 'volume' | 'changePct') => (sort === `-${field}` ? ' ↓' : sort === field ? ' ↑' : '');
  const toggle = (field: 'volume' | 'changePct') => onSort(sort === `-${field}` ? field : (`-${field}` as QuoteSort));
  return (
    <div className="sort-header" title={t('markets.sortBy')}>
      <button
        type="button"
        className={sort === 'symbol' ? 'sort-header__btn sort-header__btn--active' : 'sort-header__btn'}
        onClick={() => onSort('symbol')}
        aria-pressed={sort === 'symbol'}
      >
        {t('markets.sortName')}
        {sort === 'symbol' ? ' ↑' : ''}
      </button>
      <button
        type="button"
        className={
          sort.endsWith('volume')
            ? 'sort-header__btn sort-header__btn--active sort-header__btn--right'
            : 'sort-header__btn sort-header__btn--right'
        }
        onClick={() => toggle('volume')}
        aria-pressed={sort.endsWith('volume')}
      >
        {t('markets.sortPriceVolume')}
        {arrow('volume')}
      </button>
      <button
        type="button"
        className={
          sort.endsWith('changePct')
            ? 'sort-header__btn sort-header__btn--active sort-header__btn--right sort-header__btn--pill'
            : 'sort-header__btn sort-header__btn--right sort-header__btn--pill'
        }
        onClick={() => toggle('changePct')}
        aria-pressed={sort.endsWith('changePct')}
      >
        {t('markets.sortChange')}
        {arrow('changePct')}
      </button>
    </div>
  );
}

function QuoteList({ items, linkOf }: { items: QuoteView[]; linkOf?: (quote: QuoteView) => string }) {
  const live = useLiveQuotes(items.map((q) => q.id));
  return (
    <ul className="quote-list" data-testid="quote-list">
      {items.map((quote) => (
        <QuoteRow key={quote.id} quote={live(quote)} to={linkOf?.(quote)} />
      ))}
    </ul>
  );
}

function StockList({ country, sort }: { country: MarketCode; sort: QuoteSort }) {
  const { t } = useTranslation();
  const interval = usePollInterval(6_000);
  const list = useInfiniteQuery({
    queryKey: marketKeys.list(country, sort),
    queryFn: ({ pageParam }) => fetchStockList(country, sort, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, page) => n + page.items.length, 0);
      return loaded < last.total && last.items.length === listPageSize ? pages.length + 1 : undefined;
    },
    refetchInterval: interval,
  });
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const loadMore = () => {
    if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  };
  const sentinel = useSentinel(loadMore, Boolean(list.hasNextPage) && !list.isFetchNextPageError);
  if (list.isPending) return <SkeletonRows count={8} />;
  if (list.isError) return <ErrorState onRetry={() => void list.refetch()} />;
  if (items.length === 0) return <EmptyState title={t('markets.noStocks')} hint={t('markets.noStocksHint')} />;
  return (
    <PullToRefresh onRefresh={() => list.refetch().then(() => undefined)} {...pullTexts(t)}>
      <QuoteList items={items} />
      <div ref={sentinel} />
      <LoadMoreFooter state={loadMoreState(list)} onMore={loadMore} />
    </PullToRefresh>
  );
}

function pullTexts(t: (key: string) => string) {
  return {
    pullingText: t('markets.pullToRefresh'),
    canReleaseText: t('markets.releaseToRefresh'),
    refreshingText: t('common.loading'),
    completeText: t('markets.refreshed'),
  };
}

function ClientSortedList({
  query,
  sort,
  empty,
  linkOf,
}: {
  query: { data?: { items: QuoteView[] }; isPending: boolean; isError: boolean; refetch: () => Promise<unknown> };
  sort: QuoteSort;
  empty: ReactNode;
  linkOf?: (quote: QuoteView) => string;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <SkeletonRows count={8} />;
  if (query.isError) return <ErrorState onRetry={() => void query.refetch()} />;
  const items = sortQuotes(query.data?.items ?? [], sort);
  if (items.length === 0) return <>{empty}</>;
  return (
    <PullToRefresh onRefresh={() => query.refetch().then(() => undefined)} {...pullTexts(t)}>
      <QuoteList items={items} linkOf={linkOf} />
      <LoadMoreFooter state="noMore" onMore={() => undefined} />
    </PullToRefresh>
  );
}

function readSegment(): Segment {
  try {
    const value = sessionStorage.getItem(segmentStorageKey);
    return value === 'crypto' || value === 'watchlist' ? value : 'stocks';
  } catch {
    return 'stocks';
  }
}

export function MarketsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const isSignedIn = Boolean(session.token);
  const props = usePlatformProps();
  const [country, setCountry] = useStockCountry(props.data?.stockCountry);
  const [segment, setSegmentState] = useState<Segment>(readSegment);
  const [sort, setSort] = useState<QuoteSort>('-changePct');
  const setSegment = (value: Segment) => {
    setSegmentState(value);
    try {
      sessionStorage.setItem(segmentStorageKey, value);
    } catch {
      // storage unavailable
    }
  };
  const shown: Segment = segment === 'watchlist' && !isSignedIn ? 'stocks' : segment;
  const [coinFilter, setCoinFilter] = useState<CoinFilter>(readCoinFilter);
  const coinShown: CoinFilter = isSignedIn ? coinFilter : 'all';
  const coins = useCoinTickers(shown === 'crypto' && coinShown === 'all');
  const favourites = useCoinFavourites(shown === 'crypto' && coinShown === 'favourites');
  const chooseCoinFilter = (value: CoinFilter) => {
    setCoinFilter(value);
    try {
      sessionStorage.setItem(coinFilterKey, value);
    } catch {
      // storage unavailable
    }
  };
  const watchlist = useWatchlist(isSignedIn && shown === 'watchlist');
  const segments: { value: Segment; label: string }[] = [
    { value: 'stocks', label: t('markets.stocks') },
    { value: 'crypto', label: t('markets.crypto') },
  ];
  if (isSignedIn) segments.push({ value: 'watchlist', label: t('markets.watchlist') });

  return (
    <Page
      title={t('titles.tabbar.markets')}
      left="menu"
      hasTabBar
      right={
        <Link
          className="icon-button"
          to="/pages/stock/search"
          aria-label={t('markets.search')}
          data-testid="search-entry"
        >
          <SearchIcon />
        </Link>
      }
    >
      <div className="markets-top">
        <Segmented
          value={shown}
          onChange={setSegment}
          options={segments}
          label={t('titles.tabbar.markets')}
          testId="markets-segment"
        />
        {shown === 'crypto' && isSignedIn && (
          <div className="chips chips--flush" title={t('markets.crypto')} data-testid="coin-filter">
            {(['all', 'favourites'] as const).map((value) => (
              <button
                key={value}
                type="button"
                className={`chip-button${coinShown === value ? ' chip-button--on' : ''}`}
                aria-pressed={coinShown === value}
                onClick={() => chooseCoinFilter(value)}
              >
                {value === 'all' ? t('spot.all') : t('spot.favourites')}
              </button>
            ))}
          </div>
        )}
        {shown === 'stocks' && (
          <>
            <CountrySwitch value={country} onChange={setCountry} />
            <MarketStatusLine country={country} />
          </>
        )}
      </div>
      <SortHeader sort={sort} onSort={setSort} />
      {shown === 'stocks' && <StockList key={`${country}-${sort}`} country={country} sort={sort} />}
      {shown === 'crypto' && coinShown === 'all' && (
        <ClientSortedList
          query={coins}
          sort={sort}
          linkOf={coinTradePath}
          empty={<EmptyState title={t('markets.noCrypto')} />}
        />
      )}
      {shown === 'crypto' && coinShown === 'favourites' && (
        <ClientSortedList
          query={favourites}
          sort={sort}
          linkOf={coinTradePath}
          empty={
            <EmptyState
              title={t('spot.favouritesEmpty')}
              hint={t('spot.favouritesEmptyHint')}
              action={
                <button type="button" className="btn btn--primary" onClick={() => chooseCoinFilter('all')}>
                  {t('spot.browsePairs')}
                </button>
              }
            />
          }
        />
      )}
      {shown === 'watchlist' && (
        <ClientSortedList
          query={watchlist}
          sort={sort}
          empty={
            <EmptyState
              title={t('markets.watchlistEmpty')}
              hint={t('markets.watchlistEmptyHint')}
              action={
                <Link className="btn btn--primary" to="/pages/stock/search">
                  {t('markets.findStocks')}
                </Link>
              }
            />
          }
        />
      )}
    </Page>
  );
}
