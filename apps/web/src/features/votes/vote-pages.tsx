// The stock sentiment vote (SPEC stock/vote?symbol=…): one bullish or bearish vote per stock each
// trading day (confirmed first: it cannot be changed that day), today's tally and the recent sessions',
// the customer's own vote. Opinion only: the page says so, and nothing that sets prices reads it.
// stock/voteUrl?symbol=… shows the voting page staff set for the stock (/index/vote/info) with its
// address always visible: inside a frame when its host is on the deployment's allow-list, otherwise as
// a link that opens in the browser.

import type { VoteSide, VoteTally, VoteUrlView, VoteView } from '@bourse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { apiGet, apiPost } from '../../app/api.ts';
import { ChevronRightIcon } from '../../app/shell/icons.tsx';
import { Page } from '../../app/shell/page.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { RequireLogin } from '../accounts/security-page.tsx';
import { EmptyState, ErrorState, SkeletonRows } from '../markets/market-ui.tsx';
import './vote.css';

const keys = {
  vote: (symbol: string) => ['vote', symbol] as const,
  url: (symbol: string) => ['vote', 'url', symbol] as const,
};

/** A trading day ("2026-01-05") as a date in the reader's language; the day is the exchange's own. */
const dayText = (day: string, style: 'medium' | 'short' = 'medium') =>
  new Intl.DateTimeFormat(currentLanguage(), { dateStyle: style, timeZone: 'UTC' }).format(
    Date.parse(`${day}T00:00:00Z`),
  );

/** Whole percent of bullish votes, and the rest bearish; null when nobody voted. */
function bullishShare(t: VoteTally): number | null {
  const total = t.bullish + t.bearish;
  return total === 0 ? null : Math.round((t.bullish * 100) / total);
}

function TallyBar({ tally, large }: { tally: VoteTally; large?: boolean }) {
  const { t } = useTranslation();
  const share = bullishShare(tally);
  return (
    <div className={large ? 'vote-bar vote-bar--large' : 'vote-bar'}>
      <div className="vote-bar__track" aria-hidden="true">
        {share === null ? (
          <span className="vote-bar__empty" />
        ) : (
          <>
            <span className="vote-bar__bull" style={{ width: `${share}%` }} />
            <span className="vote-bar__bear" style={{ width: `${100 - share}%` }} />
          </>
        )}
      </div>
      <div className="vote-bar__counts tabular">
        <span className="vote-bull-text">
          {t('vote.bullish')} {share === null ? '' : `${share}% · `}
          {t('vote.votes', { count: tally.bullish })}
        </span>
        <span className="vote-bear-text">
          {t('vote.bearish')} {share === null ? '' : `${100 - share}% · `}
          {t('vote.votes', { count: tally.bearish })}
        </span>
      </div>
    </div>
  );
}

function VoteBody({ symbol }: { symbol: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const vote = useQuery({
    queryKey: keys.vote(symbol),
    queryFn: () => apiGet<VoteView>('/stock/index/vote', { symbol }),
  });
  const link = useQuery({
    queryKey: keys.url(symbol),
    queryFn: () => apiGet<VoteUrlView>('/index/vote/info', { symbol }),
  });
  const cast = useMutation({
    mutationFn: (side: VoteSide) => apiPost<VoteView>('/stock/index/vote', { symbol, side }),
    onSuccess: (data) => {
      queryClient.setQueryData(keys.vote(symbol), data);
      Toast.show({ content: t('vote.voted') });
    },
    // A refusal (already voted, e.g. from another device) is shown by the request layer; reload the truth.
    onError: () => void queryClient.invalidateQueries({ queryKey: keys.vote(symbol) }),
  });
  if (vote.isPending) return <SkeletonRows count={3} height={80} />;
  if (vote.isError) return <ErrorState onRetry={() => void vote.refetch()} />;
  const v = vote.data;
  const choose = async (side: VoteSide) => {
    const isConfirmed = await Dialog.confirm({
      title: t('vote.confirmTitle', { side: t(`vote.${side}`), symbol: v.symbol }),
      content: t('vote.confirmBody'),
      confirmText: t('vote.confirm'),
      cancelText: t('vote.cancel'),
    });
    if (isConfirmed) cast.mutate(side);
  };
  return (
    <>
      <section className="vote-card" data-testid="vote-card">
        <div className="vote-card__stock">
          <strong>{v.symbol}</strong> <span>{v.name}</span>
        </div>
        <p className="vote-card__session">{t('vote.session', { date: dayText(v.day) })}</p>
        <h2 className="vote-card__question">{t('vote.question', { symbol: v.symbol })}</h2>
        {v.mine ? (
          <p className={`vote-mine vote-mine--${v.mine}`} data-testid="vote-mine">
            {t('vote.mine', { side: t(`vote.${v.mine}`) })}
          </p>
        ) : (
          <div className="vote-actions">
            <button
              type="button"
              className="btn vote-btn vote-btn--bullish"
              disabled={cast.isPending}
              onClick={() => void choose('bullish')}
              data-testid="vote-bullish"
            >
              ▲ {t('vote.bullish')}
            </button>
            <button
              type="button"
              className="btn vote-btn vote-btn--bearish"
              disabled={cast.isPending}
              onClick={() => void choose('bearish')}
              data-testid="vote-bearish"
            >
              ▼ {t('vote.bearish')}
            </button>
          </div>
        )}
        <div data-testid="vote-today">
          {v.today.bullish + v.today.bearish === 0 ? (
            <p className="vote-card__session">{t('vote.noVotes')}</p>
          ) : (
            <TallyBar tally={v.today} large />
          )}
        </div>
      </section>
      <section className="vote-recent">
        <h3 className="vote-recent__title">{t('vote.recent')}</h3>
        <ul className="vote-recent__list">
          {v.recent.slice(1).map((day) => (
            <li key={day.day} className="vote-recent__row">
              <span className="vote-recent__day tabular">{dayText(day.day, 'short')}</span>
              {day.bullish + day.bearish === 0 ? (
                <span className="vote-recent__none">{t('vote.noVotesDay')}</span>
              ) : (
                <TallyBar tally={day} />
              )}
            </li>
          ))}
        </ul>
      </section>
      <p className="notice-card vote-disclaimer" data-testid="vote-disclaimer">
        {t('vote.disclaimer')}
      </p>
      {link.data?.url && (
        <div className="list">
          <Link
            className="list-row"
            to={`/pages/stock/voteUrl?symbol=${encodeURIComponent(v.symbol)}`}
            data-testid="vote-url-link"
          >
            <span className="list-row__label">
              {t('vote.votingPage')}
              <small className="list-row__hint">{link.data.host}</small>
            </span>
            <ChevronRightIcon size={18} />
          </Link>
        </div>
      )}
    </>
  );
}

export function VotePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const symbol = params.get('symbol') ?? '';
  return (
    <RequireLogin>
      <Page title={t('titles.stock.vote')} className="vote-page">
        {symbol ? (
          <VoteBody symbol={symbol} />
        ) : (
          <EmptyState
            title={t('markets.symbolMissing')}
            action={
              <Link className="btn btn--primary" to="/pages/stock/search">
                {t('markets.findStocks')}
              </Link>
            }
          />
        )}
      </Page>
    </RequireLogin>
  );
}

export function VoteUrlPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const symbol = params.get('symbol') ?? '';
  const info = useQuery({
    queryKey: keys.url(symbol),
    queryFn: () => apiGet<VoteUrlView>('/index/vote/info', symbol ? { symbol } : undefined),
  });
  const d = info.data;
  return (
    <Page title={t('titles.stock.voteUrl')} className="vote-url-page">
      {info.isPending ? (
        <SkeletonRows count={2} height={64} />
      ) : info.isError ? (
        <ErrorState onRetry={() => void info.refetch()} />
      ) : !d?.url ? (
        <EmptyState title={t('voteUrl.none')} />
      ) : (
        <>
          <div className="vote-url-bar" data-testid="vote-url-bar">
            <span className="vote-url-bar__label">{t('voteUrl.address')}</span>
            <span className="vote-url-bar__url" data-testid="vote-url-address">
              {d.url}
            </span>
            <a className="btn btn--outline vote-url-bar__open" href={d.url} target="_blank" rel="noopener noreferrer">
              {t('voteUrl.openOutside')}
            </a>
          </div>
          {d.framable ? (
            <>
              <p className="section-hint">{t('voteUrl.framedNote', { host: d.host })}</p>
              <iframe
                className="vote-url-frame"
                src={d.url}
                title={t('voteUrl.frameTitle', { host: d.host })}
                sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
                referrerPolicy="no-referrer"
                data-testid="vote-url-frame"
              />
            </>
          ) : (
            <p className="notice-card" data-testid="vote-url-not-framed">
              {t('voteUrl.notFramed')}
            </p>
          )}
        </>
      )}
    </Page>
  );
}
