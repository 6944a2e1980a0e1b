// The market-data calls (SPEC §7 /stock/index/*, /coin/*, /index/*) as TanStack Query hooks, with the
// live socket patching the cached quotes. Shapes come from @bourse/contract (types only: no zod in the
// bundle). Home's queries live in home-data.ts (loaded with the entry) and are re-exported here.
import type {
  BookView,
  CandleInterval,
  CandlesInput,
  CandleView,
  Items,
  Paged,
  QuoteView,
  TradeView,
} from '@bourse/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { channels } from '../../app/live.ts';
import { useLiveChannels, usePollInterval } from '../../app/use-live.ts';
import {
  type AssetKind,
  apiGet,
  apiPost,
  countriesQuery,
  hotListQuery,
  indicesQuery,
  marketKeys,
} from './home-data.ts';

export type { BookView, NewsArticle, TradeView } from '@bourse/contract';
export {
  type AdView,
  type AssetKind,
  apiGet,
  apiPost,
  type CountryView,
  countriesQuery,
  hotListQuery,
  type Items,
  indicesQuery,
  marketKeys,
  type NewsView,
  type NoticeView,
  type Paged,
} from './home-data.ts';

export const listPageSize = 20;

export const fetchStockList = (country: string, sort: string, page: number) =>
  apiGet<Paged<QuoteView>>('/stock/index/list', { country, page, limit: listPageSize, sort });

export function useCountries() {
  return useQuery({ ...countriesQuery, refetchInterval: 60_000 });
}

/**
 * Live values for a set of quotes: the socket's latest ticker per id, laid over the HTTP snapshot.
 * Returns the overlay lookup; the snapshot query keeps polling while the socket is down.
 */
export function useLiveQuotes(ids: readonly string[]): (quote: QuoteView) => QuoteView {
  const [overlay, setOverlay] = useState<Record<string, QuoteView>>({});
  useLiveChannels(
    ids.map((id) => channels.ticker(id)),
    (_channel, data) => {
      const quote = data as QuoteView | null;
      if (quote && typeof quote.id === 'string') setOverlay((current) => ({ ...current, [quote.id]: quote }));
    },
  );
  return useCallback(
    (quote: QuoteView) => {
      const live = overlay[quote.id];
      return live && live.time >= quote.time ? live : quote;
    },
    [overlay],
  );
}

export function useIndices(country: string) {
  const interval = usePollInterval();
  return useQuery({ ...indicesQuery(country), refetchInterval: interval });
}

export function useHotList(country: string) {
  const interval = usePollInterval(10_000);
  return useQuery({ ...hotListQuery(country), refetchInterval: interval });
}

export function useCoinTickers(enabled = true) {
  const interval = usePollInterval();
  return useQuery({
    queryKey: marketKeys.coinTickers,
    queryFn: () => apiPost<Items<QuoteView>>('/coin/tickers'),
    refetchInterval: interval,
    enabled,
  });
}

/** One instrument's quote, kept live by the ticker channel (polling when the socket is down). */
export function useQuote(kind: AssetKind, symbol: string) {
  const queryClient = useQueryClient();
  const interval = usePollInterval(3_000);
  const key = marketKeys.quote(kind, symbol);
  const query = useQuery({
    queryKey: key,
    queryFn: () =>
      kind === 'stock'
        ? apiGet<QuoteView>('/stock/index/info', { symbol })
        : apiPost<QuoteView>('/coin/ticker', { symbol }),
    enabled: Boolean(symbol),
    refetchInterval: interval,
  });
  const id = query.data?.id ?? symbol;
  useLiveChannels(
    symbol ? [channels.ticker(id)] : [],
    (_channel, data) => {
      const quote = data as QuoteView;
      if (quote && typeof quote.price === 'string') queryClient.setQueryData(key, quote);
    },
    () => void queryClient.invalidateQueries({ queryKey: key }),
  );
  return query;
}

export function fetchCandles(kind: AssetKind, symbol: string, interval: CandleInterval, limit = 300) {
  return apiPost<Items<CandleView>>(kind === 'stock' ? '/stock/index/candles' : '/coin/candles', {
    symbol,
    interval,
    limit,
  } satisfies CandlesInput);
}

/**
 * An instrument's order book, live. `path` names another book call (a perpetual contract's own book,
 * /coin/contract/books); such a book has no stream channel and is polled.
 */
export function useBook(kind: AssetKind, symbol: string, id: string, path?: string) {
  const queryClient = useQueryClient();
  const interval = usePollInterval(path ? 2_000 : 3_000);
  const key = path ? [...marketKeys.book(kind, symbol), path] : marketKeys.book(kind, symbol);
  const query = useQuery({
    queryKey: key,
    queryFn: () => apiPost<BookView>(path ?? (kind === 'stock' ? '/stock/index/books' : '/coin/books'), { symbol }),
    enabled: Boolean(symbol),
    refetchInterval: interval,
  });
  useLiveChannels(
    symbol && !path ? [channels.book(id)] : [],
    (_channel, data) => {
      const book = data as BookView;
      if (book && Array.isArray(book.asks)) queryClient.setQueryData(key, book);
    },
    () => void queryClient.invalidateQueries({ queryKey: key }),
  );
  return query;
}

export const tradesShown = 20;

export function useTrades(kind: AssetKind, symbol: string, id: string) {
  const queryClient = useQueryClient();
  const interval = usePollInterval(4_000);
  const key = marketKeys.trades(kind, symbol);
  const query = useQuery({
    queryKey: key,
    queryFn: () => apiPost<Items<TradeView>>(kind === 'stock' ? '/stock/index/trades' : '/coin/trades', { symbol }),
    enabled: Boolean(symbol),
    refetchInterval: interval,
  });
  useLiveChannels(
    symbol ? [channels.trades(id)] : [],
    (_channel, data) => {
      const trade = data as TradeView;
      if (!trade || typeof trade.id !== 'number') return;
      queryClient.setQueryData<Items<TradeView>>(key, (current) => {
        const items = current?.items ?? [];
        if (items.some((t) => t.id === trade.id)) return current;
        return { items: [trade, ...items].slice(0, tradesShown) };
      });
    },
    () => void queryClient.invalidateQueries({ queryKey: key }),
  );
  return query;
}

/** The signed-in user's watchlist (POST /stock/collect/list). */
export function useWatchlist(enabled: boolean) {
  const interval = usePollInterval(8_000);
  return useQuery({
    queryKey: marketKeys.watchlist,
    queryFn: () => apiPost<Items<QuoteView>>('/stock/collect/list'),
    enabled,
    refetchInterval: enabled ? interval : false,
  });
}
