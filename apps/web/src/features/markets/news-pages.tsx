// News list and article (SPEC §2 pages/news/list, pages/news/detail?id=…).
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Page } from '../../app/shell/page.tsx';
import { formatDateTime } from '../../lib/time.ts';
import { NewsItem } from './home-page.tsx';
import { apiGet, marketKeys, type NewsArticle, type NewsView, type Paged } from './market-api.ts';
import { EmptyState, ErrorState, LoadMoreFooter, loadMoreState, SkeletonRows, useSentinel } from './market-ui.tsx';

const newsPageSize = 20;

export function NewsListPage() {
  const { t } = useTranslation();
  const news = useInfiniteQuery({
    queryKey: ['index', 'news-list'],
    queryFn: ({ pageParam }) => apiGet<Paged<NewsView>>('/index/news', { page: pageParam, limit: newsPageSize }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.items.length, 0) < last.total && last.items.length > 0
        ? pages.length + 1
        : undefined,
  });
  const items = news.data?.pages.flatMap((p) => p.items) ?? [];
  const loadMore = () => {
    if (news.hasNextPage && !news.isFetchingNextPage) void news.fetchNextPage();
  };
  const sentinel = useSentinel(loadMore, Boolean(news.hasNextPage));
  const now = Date.now();
  return (
    <Page title={t('titles.news.list')}>
      {news.isPending ? (
        <SkeletonRows count={6} height={72} />
      ) : news.isError ? (
        <ErrorState onRetry={() => void news.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={t('markets.noNews')} />
      ) : (
        <>
          <ul className="news-list">
            {items.map((item) => (
              <NewsItem key={item.id} item={item} now={now} timeZone="Asia/Kolkata" />
            ))}
          </ul>
          <div ref={sentinel} />
          <LoadMoreFooter state={loadMoreState(news)} onMore={loadMore} />
        </>
      )}
    </Page>
  );
}

export function NewsDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const article = useQuery({
    queryKey: marketKeys.newsInfo(id),
    queryFn: () => apiGet<NewsArticle>('/index/news/info', { id }),
    enabled: Boolean(id),
  });
  return (
    <Page title={t('titles.news.detail')}>
      {!id ? (
        <EmptyState title={t('markets.articleMissing')} />
      ) : article.isPending ? (
        <SkeletonRows count={4} height={90} />
      ) : article.isError ? (
        <ErrorState onRetry={() => void article.refetch()} />
      ) : (
        <article className="article">
          <h2 className="article__title">{article.data.title}</h2>
          <p className="article__meta">
            {article.data.source} · {formatDateTime(article.data.at)}
          </p>
          {article.data.body.split(/\n{2,}/).map((para, i) => (
            <p key={i}>{para}</p>
          ))}
        </article>
      )}
    </Page>
  );
}
