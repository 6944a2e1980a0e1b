// The message centre (SPEC §2 pages/notice/list) and one message or announcement (pages/notice/detail
// ?kind=message|notice&id=…). Signed in: personal messages and platform announcements with unread
// badges, "mark all read", and opening an entry marks it read. Signed out: the announcements only.
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, PullToRefresh, Tabs, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { usePlatformProps } from '../../app/api.ts';
import { loginPath } from '../../app/navigation.ts';
import { ApiError } from '../../app/request.ts';
import { useSession } from '../../app/session.ts';
import { Page } from '../../app/shell/page.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { marketFormats } from '../../lib/format.ts';
import { formatChatTime, formatDateTime } from '../../lib/time.ts';
import { apiGet, type Items, type NoticeView } from '../markets/market-api.ts';
import {
  EmptyState,
  ErrorState,
  LoadMoreFooter,
  loadMoreState,
  SkeletonRows,
  useSentinel,
} from '../markets/market-ui.tsx';
import {
  type MessageKind,
  type MessageView,
  useMarkRead,
  useMessage,
  useMessageCentre,
  usePublicNotice,
  useUnreadCounts,
} from './content-api.ts';
import { AnnouncementIcon, MailIcon } from './content-icons.tsx';
import './content.css';

type Filter = MessageKind | 'all';
const filters: readonly Filter[] = ['all', 'message', 'notice'];
const isFilter = (value: string | null): value is Filter => (filters as readonly (string | null)[]).includes(value);

/** Times in the deployment market's zone, as news and quotes are shown. */
function useMarketTimeZone(): string {
  const props = usePlatformProps();
  return marketFormats[props.data?.stockCountry ?? 'IN'].timeZone;
}

export function detailPath(kind: MessageKind, id: number | string) {
  return `/pages/notice/detail?kind=${kind}&id=${encodeURIComponent(String(id))}`;
}

function MessageRow({
  entry,
  now,
  timeZone,
}: {
  entry: Pick<MessageView, 'kind' | 'id' | 'title' | 'summary' | 'at'> & { isRead: boolean | null };
  now: number;
  timeZone: string;
}) {
  const { t } = useTranslation();
  const isUnread = entry.isRead === false;
  return (
    <li>
      <Link
        className={isUnread ? 'message-row message-row--unread' : 'message-row'}
        to={detailPath(entry.kind, entry.id)}
        data-testid="message-row"
        data-kind={entry.kind}
        data-unread={isUnread ? 'true' : 'false'}
      >
        <span className={`message-row__icon message-row__icon--${entry.kind}`}>
          {entry.kind === 'message' ? <MailIcon size={20} /> : <AnnouncementIcon size={20} />}
        </span>
        <span className="message-row__body">
          <span className="message-row__head">
            <span className="message-row__title">{entry.title}</span>
            <span className="message-row__time tabular">
              {formatChatTime(entry.at, now, currentLanguage(), timeZone)}
            </span>
          </span>
          {entry.summary && <span className="message-row__summary">{entry.summary}</span>}
          <span className="message-row__meta">
            {t(entry.kind === 'message' ? 'content.personalMessage' : 'content.announcement')}
            {isUnread && (
              <span className="message-row__unread">
                <span className="message-row__dot" aria-hidden="true" />
                {t('content.unread')}
              </span>
            )}
          </span>
        </span>
      </Link>
    </li>
  );
}

function SignedInCentre() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const filter: Filter = isFilter(raw) ? raw : 'all';
  const unread = useUnreadCounts();
  const list = useMessageCentre(filter, true);
  const markRead = useMarkRead();
  const timeZone = useMarketTimeZone();
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  // The list's own answer is newer than the badge query after a pull to refresh.
  const counts = list.data?.pages[0]?.unread ?? unread.data ?? { total: 0, message: 0, notice: 0 };
  const loadMore = () => {
    if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  };
  const sentinel = useSentinel(loadMore, Boolean(list.hasNextPage));
  const now = Date.now();
  const countOf: Record<Filter, number> = { all: counts.total, message: counts.message, notice: counts.notice };
  const labelOf: Record<Filter, string> = {
    all: t('content.all'),
    message: t('content.personal'),
    notice: t('content.announcements'),
  };
  const empty: Record<Filter, [string, string]> = {
    all: [t('content.empty'), t('content.emptyHint')],
    message: [t('content.emptyPersonal'), t('content.emptyPersonalHint')],
    notice: [t('content.emptyAnnouncements'), t('content.emptyAnnouncementsHint')],
  };

  const markAll = async () => {
    await markRead.mutateAsync({ all: true });
    Toast.show({ content: <span className="message-toast">{t('content.allRead')}</span> });
  };

  return (
    <>
      <Tabs
        activeKey={filter}
        onChange={(key) => setParams(key === 'all' ? {} : { tab: key }, { replace: true })}
        className="message-tabs"
        data-testid="message-tabs"
      >
        {filters.map((key) => (
          <Tabs.Tab
            key={key}
            title={
              <Badge content={countOf[key] > 0 ? String(countOf[key]) : null} data-testid={`message-tab-${key}`}>
                <span className="message-tabs__label">{labelOf[key]}</span>
              </Badge>
            }
          />
        ))}
      </Tabs>
      <div className="message-toolbar">
        <span className="message-toolbar__hint">{t('content.staffNeverAsk')}</span>
        <Button
          size="mini"
          fill="outline"
          disabled={counts.total === 0}
          loading={markRead.isPending}
          onClick={() => void markAll()}
          data-testid="mark-all-read"
        >
          {t('content.markAllRead')}
        </Button>
      </div>
      {list.isPending ? (
        <SkeletonRows count={5} height={76} />
      ) : list.isError ? (
        <ErrorState onRetry={() => void list.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={empty[filter][0]} hint={empty[filter][1]} />
      ) : (
        <PullToRefresh
          onRefresh={() => list.refetch().then(() => undefined)}
          pullingText={t('markets.pullToRefresh')}
          canReleaseText={t('markets.releaseToRefresh')}
          refreshingText={t('common.loading')}
          completeText={t('markets.refreshed')}
        >
          <ul className="message-list" data-testid="message-list">
            {items.map((entry) => (
              <MessageRow key={`${entry.kind}:${entry.id}`} entry={entry} now={now} timeZone={timeZone} />
            ))}
          </ul>
          <div ref={sentinel} />
          <LoadMoreFooter state={loadMoreState(list)} onMore={loadMore} />
        </PullToRefresh>
      )}
    </>
  );
}

function GuestCentre() {
  const { t } = useTranslation();
  const timeZone = useMarketTimeZone();
  const notices = useQuery({
    queryKey: ['index', 'notice', 'all'],
    queryFn: () => apiGet<Items<NoticeView>>('/index/notice', { limit: 20 }),
  });
  const items = notices.data?.items ?? [];
  const now = Date.now();
  return (
    <>
      <section className="message-guest" data-testid="message-guest">
        <p className="message-guest__title">{t('content.guestTitle')}</p>
        <p className="message-guest__hint">{t('content.guestHint')}</p>
        <Link className="btn btn--primary" to={loginPath}>
          {t('start.signIn')}
        </Link>
      </section>
      {notices.isPending ? (
        <SkeletonRows count={4} height={76} />
      ) : notices.isError ? (
        <ErrorState onRetry={() => void notices.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={t('content.emptyAnnouncements')} hint={t('content.emptyAnnouncementsHint')} />
      ) : (
        <ul className="message-list" data-testid="message-list">
          {items.map((n) => (
            <MessageRow
              key={n.id}
              entry={{ kind: 'notice', id: Number(n.id), title: n.title, summary: n.summary, at: n.at, isRead: null }}
              now={now}
              timeZone={timeZone}
            />
          ))}
        </ul>
      )}
    </>
  );
}

export function NoticeListPage() {
  const { t } = useTranslation();
  const session = useSession();
  return <Page title={t('titles.notice.list')}>{session.token ? <SignedInCentre /> : <GuestCentre />}</Page>;
}

function Article({
  kind,
  title,
  at,
  body,
  timeZone,
}: {
  kind: MessageKind;
  title: string;
  at: number;
  body: string;
  timeZone: string;
}) {
  const { t } = useTranslation();
  return (
    <article className="article" data-testid="message-article">
      <p className={`message-kind message-kind--${kind}`}>
        {kind === 'message' ? <MailIcon size={16} /> : <AnnouncementIcon size={16} />}
        {t(kind === 'message' ? 'content.personalMessage' : 'content.announcement')}
      </p>
      <h2 className="article__title">{title}</h2>
      <p className="article__meta tabular">{formatDateTime(at, timeZone)}</p>
      {body.split(/\n{2,}/).map((para, i) => (
        <p key={i}>{para}</p>
      ))}
    </article>
  );
}

export function NoticeDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const kind: MessageKind = params.get('kind') === 'message' ? 'message' : 'notice';
  const id = params.get('id') ?? '';
  const session = useSession();
  const isSignedIn = Boolean(session.token);
  const timeZone = useMarketTimeZone();
  const mine = useMessage(kind, id, isSignedIn);
  const open = usePublicNotice(id, !isSignedIn && kind === 'notice');
  const markRead = useMarkRead();
  const marked = useRef<string | null>(null);

  // Opening an unread entry marks it read, once.
  useEffect(() => {
    const entry = mine.data;
    if (!entry || entry.isRead || marked.current === `${entry.kind}:${entry.id}`) return;
    marked.current = `${entry.kind}:${entry.id}`;
    markRead.mutate({ kind: entry.kind, id: entry.id });
  }, [mine.data, markRead]);

  const query = isSignedIn ? mine : open;
  const title = t(kind === 'message' ? 'content.personalMessage' : 'titles.notice.detail');
  let content: ReactNode;
  if (!id) content = <EmptyState title={t('content.missing')} />;
  else if (!isSignedIn && kind === 'message') {
    content = (
      <EmptyState
        title={t('content.signInToRead')}
        action={
          <Link className="btn btn--primary" to={loginPath}>
            {t('start.signIn')}
          </Link>
        }
      />
    );
  } else if (query.isPending) content = <SkeletonRows count={4} height={90} />;
  else if (query.isError) {
    const isMissing = query.error instanceof ApiError && query.error.error === 'not_found';
    content = isMissing ? (
      <EmptyState
        title={t('content.missing')}
        hint={t('content.missingHint')}
        action={
          <Link className="btn btn--outline" to="/pages/notice/list">
            {t('content.backToList')}
          </Link>
        }
      />
    ) : (
      <ErrorState onRetry={() => void query.refetch()} />
    );
  } else
    content = (
      <Article kind={kind} title={query.data.title} at={query.data.at} body={query.data.body} timeZone={timeZone} />
    );

  return <Page title={title}>{content}</Page>;
}
