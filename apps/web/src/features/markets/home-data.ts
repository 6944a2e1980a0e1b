// Home's data (SPEC §7 /index/*, /stock/index/country/list, indices and the hot list): the query
// definitions shared by the market screens, and the start-up prefetch. Kept out of the screen's own
// chunk and free of React so that the entry can ask for Home's data as soon as the app's code has
// been parsed, before React renders (see preloadScreen in app/router.tsx).
import type { AdView, CountryView, Items, NewsView, NoticeView, Paged, QuoteView } from '@bourse/contract';
import type { QueryClient } from '@tanstack/react-query';
import { apiGet as apiGetLoud, apiPost as apiPostLoud, platformPropsQuery } from '../../app/api.ts';
import type { RequestData } from '../../app/request.ts';
import { homeCalls, readStoredCountry } from './home-requests.ts';

export { readStoredCountry, storeCountry } from './home-requests.ts';

/** Reads for queries and polling: no toasts, the screens show error states with "try again". */
export const apiGet = <T>(path: string, data?: RequestData) => apiGetLoud<T>(path, data, { isBackground: true });
export const apiPost = <T>(path: string, data?: RequestData) => apiPostLoud<T>(path, data, { isBackground: true });

export type { AdView, CountryView, Items, NewsView, NoticeView, Paged } from '@bourse/contract';

export type AssetKind = 'stock' | 'coin';

export const marketKeys = {
  countries: ['market', 'countries'] as const,
  indices: (country: string) => ['market', 'indices', country] as const,
  hot: (country: string) => ['market', 'hot', country] as const,
  list: (country: string, sort: string) => ['market', 'list', country, sort] as const,
  coinTickers: ['market', 'coin-tickers'] as const,
  search: (keyword: string) => ['market', 'search', keyword] as const,
  quote: (kind: AssetKind, symbol: string) => ['market', 'quote', kind, symbol] as const,
  candles: (kind: AssetKind, symbol: string, interval: string) =>
    ['market', 'candles', kind, symbol, interval] as const,
  book: (kind: AssetKind, symbol: string) => ['market', 'book', kind, symbol] as const,
  trades: (kind: AssetKind, symbol: string) => ['market', 'trades', kind, symbol] as const,
  ads: ['index', 'ads'] as const,
  notices: ['index', 'notice'] as const,
  news: (page: number) => ['index', 'news', page] as const,
  newsInfo: (id: string) => ['index', 'news-info', id] as const,
  watchlist: ['stock', 'collect'] as const,
};

export const countriesQuery = {
  queryKey: marketKeys.countries,
  queryFn: () => apiGet<Items<CountryView>>(homeCalls.countries.path),
  staleTime: 60_000,
};

/** Quotes fetched this recently are not asked for again when a screen mounts (e.g. right after the
 * start-up prefetch); polling and the socket keep them current. */
const quoteStaleMs = 3_000;

export const indicesQuery = (country: string) => ({
  queryKey: marketKeys.indices(country),
  queryFn: () => {
    const call = homeCalls.indices(country);
    return apiGet<Items<QuoteView>>(call.path, call.data);
  },
  staleTime: quoteStaleMs,
});

export const hotListQuery = (country: string) => ({
  queryKey: marketKeys.hot(country),
  queryFn: () => {
    const call = homeCalls.hot(country);
    return apiGet<Items<QuoteView>>(call.path, call.data);
  },
  staleTime: quoteStaleMs,
});

export const adsQuery = {
  queryKey: marketKeys.ads,
  queryFn: () => apiGet<Items<AdView>>(homeCalls.ads.path),
  staleTime: 5 * 60_000,
};

export const noticesQuery = {
  queryKey: marketKeys.notices,
  queryFn: () => apiGet<Items<NoticeView>>(homeCalls.notices.path),
  staleTime: 60_000,
};

export const homeNewsQuery = {
  queryKey: marketKeys.news(1),
  queryFn: () => apiGet<Paged<NewsView>>(homeCalls.news.path, homeCalls.news.data),
  staleTime: 60_000,
};

/**
 * Asks for Home's data on a cold start, before React renders the screen: the same queries its
 * components use, so they find the answers cached or in flight. The country of the index cards and
 * the hot list is the stored choice, else the deployment's (props.stockCountry), else IN, as in
 * useStockCountry. Settles (never rejects) when the answers that need no country are in: the entry
 * waits for that, a little, so that the first render already shows them.
 */
export function prefetchHomeData(queryClient: QueryClient): Promise<void> {
  // prefetchQuery never rejects; a failure shows in the component, which asks again.
  const props = queryClient.fetchQuery(platformPropsQuery);
  const stored = readStoredCountry();
  const country = stored ? Promise.resolve(stored) : props.then((data) => data.stockCountry ?? 'IN');
  void country.then(
    (code) => {
      void queryClient.prefetchQuery(indicesQuery(code));
      void queryClient.prefetchQuery(hotListQuery(code));
    },
    () => undefined,
  );
  return Promise.all([
    props.catch(() => undefined),
    queryClient.prefetchQuery(adsQuery),
    queryClient.prefetchQuery(noticesQuery),
    queryClient.prefetchQuery(homeNewsQuery),
    queryClient.prefetchQuery(countriesQuery),
  ]).then(() => undefined);
}
