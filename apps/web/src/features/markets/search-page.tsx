// Stock search (SPEC §2 pages/stock/search) with the search history kept in localStorage (SPEC §3
// "search history"): results as the user types (debounced), history chips, clear history.
import type { QuoteView } from '@bourse/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../app/shell/page.tsx';
import { SearchIcon } from './icons.tsx';
import { apiGet, type Items, marketKeys, useLiveQuotes } from './market-api.ts';
import { pushSearchHistory, readSearchHistory, searchHistoryKey } from './market-math.ts';
import { EmptyState, ErrorState, QuoteRow, SkeletonRows } from './market-ui.tsx';

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function saveHistory(history: string[]) {
  try {
    localStorage.setItem(searchHistoryKey, JSON.stringify(history));
  } catch {
    // storage unavailable: history lasts for this visit
  }
}

function Results({ items }: { items: QuoteView[] }) {
  const live = useLiveQuotes(items.map((q) => q.id));
  return (
    <ul className="quote-list" data-testid="search-results">
      {items.map((quote) => (
        <QuoteRow key={quote.id} quote={live(quote)} />
      ))}
    </ul>
  );
}

export function SearchPage() {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [history, setHistory] = useState<string[]>(() => readSearchHistory(globalThis.localStorage));
  const term = useDebounced(keyword.trim(), 250);
  const results = useQuery({
    queryKey: marketKeys.search(term),
    queryFn: () => apiGet<Items<QuoteView>>('/stock/index/search', { keyword: term }),
    enabled: term.length > 0,
    staleTime: 30_000,
  });
  const remember = (word: string) => {
    const next = pushSearchHistory(history, word);
    setHistory(next);
    saveHistory(next);
  };
  const items = results.data?.items ?? [];

  return (
    <Page title={t('titles.stock.search')}>
      <form
        className="search-box"
        onSubmit={(event) => {
          event.preventDefault();
          if (keyword.trim()) remember(keyword);
        }}
      >
        <SearchIcon size={20} />
        <input
          type="search"
          className="search-box__input"
          value={keyword}
          onChange={(event) => setKeyword(event.target.value)}
          placeholder={t('markets.searchPlaceholder')}
          aria-label={t('markets.search')}
          enterKeyHint="search"
          autoComplete="off"
          maxLength={40}
          // biome-ignore lint/a11y/noAutofocus: the page exists to type a search
          autoFocus
          data-testid="search-input"
        />
      </form>
      {term.length === 0 ? (
        <section className="search-history" aria-labelledby="history-title">
          <div className="section-head">
            <h2 className="section-head__title" id="history-title">
              {t('markets.searchHistory')}
            </h2>
            {history.length > 0 && (
              <button
                type="button"
                className="text-button"
                onClick={() => {
                  setHistory([]);
                  saveHistory([]);
                }}
              >
                {t('markets.clearHistory')}
              </button>
            )}
          </div>
          {history.length === 0 ? (
            <p className="section-hint">{t('markets.searchHint')}</p>
          ) : (
            <div className="chips">
              {history.map((word) => (
                <button key={word} type="button" className="chip-button" onClick={() => setKeyword(word)}>
                  {word}
                </button>
              ))}
            </div>
          )}
        </section>
      ) : results.isPending ? (
        <SkeletonRows count={5} />
      ) : results.isError ? (
        <ErrorState onRetry={() => void results.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={t('markets.noResults', { keyword: term })} hint={t('markets.noResultsHint')} />
      ) : (
        // Opening a result counts as a search worth remembering.
        <div onClickCapture={() => remember(term)}>
          <Results items={items} />
        </div>
      )}
    </Page>
  );
}
