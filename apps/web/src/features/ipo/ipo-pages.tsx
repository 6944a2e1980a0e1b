// The IPO screens (SPEC stockIPO and user/ipoSwitch): pages/stockIPO/ipoList (open, upcoming, closed
// and listed issues), pages/stockIPO/ipoDetail?id= (band, lot, dates through listing, category split,
// subscription, the committed seed hash and, after the draw, the revealed seed with a link to verify
// it), pages/stockIPO/list (my online and offline applications with their SPEC §4 states, cancel
// before the close, pay an offline allotment) and pages/user/ipoSwitch (auto-subscribe, shown only
// when the deployment's openAutoApply is 1). The application form is ipo-order-page.tsx.

import type { IpoApplicationView, IpoChannel, IpoView } from '@bourse/contract';
import { useMutation } from '@tanstack/react-query';
import { Dialog, Switch, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { apiPost, useLoginInfo, usePlatformProps } from '../../app/api.ts';
import { ApiError, newIdempotencyKey } from '../../app/request.ts';
import { useSession } from '../../app/session.ts';
import { copyText } from '../../app/shell/copy.ts';
import { PasscodeConfirmSheet } from '../../app/shell/order-entry.tsx';
import { Page } from '../../app/shell/page.tsx';
import { EmptyState, ErrorState, Segmented, SkeletonRows } from '../markets/market-ui.tsx';
import { SignInPrompt } from '../stocks/trading-ui.tsx';
import {
  cancelApplication,
  ipoCalls,
  setAutoApply,
  useApplications,
  useAutoApply,
  useIpo,
  useIpoRefresh,
  useIpoTab,
} from './ipo-api.ts';
import { canCancel, type IpoTab, lotCost } from './ipo-math.ts';
import {
  ApplicationRow,
  Facts,
  HonestNotices,
  IpoCard,
  IpoStatusChip,
  idParam,
  ipoPaths,
  useIpoFormat,
} from './ipo-ui.tsx';

const tabs: readonly IpoTab[] = ['open', 'upcoming', 'closed'];
const emptyTexts: Record<IpoTab, [string, string]> = {
  open: ['ipo.noOpen', 'ipo.noOpenHint'],
  upcoming: ['ipo.noUpcoming', 'ipo.noUpcomingHint'],
  closed: ['ipo.noClosed', 'ipo.noClosedHint'],
};

/** The deployment's auto-subscribe setting (SPEC: the entry exists only when it is 1). */
function useOpenAutoApply(): boolean {
  const loginInfo = useLoginInfo();
  const props = usePlatformProps();
  return Number(loginInfo.data?.openAutoApply ?? props.data?.openAutoApply ?? 0) === 1;
}

function IpoTabList({ tab }: { tab: IpoTab }) {
  const { t } = useTranslation();
  const ipos = useIpoTab(tab);
  if (ipos.isPending) return <SkeletonRows count={3} height={132} />;
  if (ipos.isError) return <ErrorState onRetry={() => void ipos.refetch()} />;
  if (ipos.data.length === 0) {
    const [title, hint] = emptyTexts[tab];
    return <EmptyState title={t(title)} hint={t(hint)} />;
  }
  return (
    <ul className="ipo-cards" data-testid="ipo-list">
      {ipos.data.map((ipo) => (
        <IpoCard key={ipo.id} ipo={ipo} />
      ))}
    </ul>
  );
}

export function IpoListPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const session = useSession();
  const openAutoApply = useOpenAutoApply();
  const tab = tabs.find((value) => value === params.get('tab')) ?? 'open';
  return (
    <Page title={t('titles.stockIPO.ipoList')}>
      <div className="ipo-top">
        <Segmented
          value={tab}
          onChange={(value) => setParams({ tab: value }, { replace: true })}
          label={t('titles.stockIPO.ipoList')}
          testId="ipo-tabs"
          options={tabs.map((value) => ({ value, label: t(`ipo.tabs.${value}`) }))}
        />
        <div className="ipo-links">
          <Link className="chip-button" to={ipoPaths.applications} data-testid="my-applications">
            {t('ipo.myApplications')}
          </Link>
          {session.token && openAutoApply && (
            <Link className="chip-button" to={ipoPaths.autoApply} data-testid="auto-apply-link">
              {t('ipo.autoSubscribe')}
            </Link>
          )}
        </div>
      </div>
      <IpoTabList tab={tab} />
      {tab === 'closed' && (
        <div className="ipo-verify-any">
          <Link className="btn btn--outline btn--block" to={ipoPaths.verifyAny} data-testid="verify-any">
            {t('ipo.verifyDraw')}
          </Link>
        </div>
      )}
      <p className="ipo-foot">{t('ipo.lotteryNotice')}</p>
    </Page>
  );
}

function SeedValue({ value, testId }: { value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <span className="ipo-seed">
      <code data-testid={testId}>{value}</code>
      <button
        type="button"
        className="text-button"
        onClick={async () => {
          await copyText(value);
          Toast.show({ content: t('common.copied') });
        }}
      >
        {t('ipo.copy')}
      </button>
    </span>
  );
}

function Fairness({ ipo }: { ipo: IpoView }) {
  const { t } = useTranslation();
  const f = useIpoFormat(ipo.currency);
  return (
    <section className="ipo-section" data-testid="ipo-fairness">
      <h2 className="ipo-section__title">{t('ipo.fairness')}</h2>
      <p className="ipo-section__hint">{t('ipo.fairnessHint')}</p>
      <dl className="ipo-seeds">
        <dt>{t('ipo.seedHash')}</dt>
        <dd>{ipo.seedHash ? <SeedValue value={ipo.seedHash} testId="seed-hash" /> : t('ipo.seedPending')}</dd>
        {ipo.beacon && (
          <>
            <dt>{t('ipo.beaconRound')}</dt>
            <dd data-testid="beacon-round">
              {t('ipo.beaconRoundValue', {
                source: t(`ipo.beaconSources.${ipo.beacon.source}`),
                round: ipo.beacon.round,
                time: f.dateTime(ipo.beacon.roundTime),
              })}
            </dd>
          </>
        )}
        <dt>{t('ipo.seed')}</dt>
        <dd>{ipo.seed ? <SeedValue value={ipo.seed} testId="seed" /> : t('ipo.seedHidden')}</dd>
        {ipo.drawMode && (
          <>
            <dt>{t('ipo.drawMode')}</dt>
            <dd>{t(`ipo.drawModes.${ipo.drawMode}`)}</dd>
          </>
        )}
      </dl>
      {ipo.seed && (
        <Link className="btn btn--outline btn--block" to={ipoPaths.verify(ipo.id)} data-testid="verify-link">
          {t('ipo.verifyDraw')}
        </Link>
      )}
    </section>
  );
}

function Subscription({ ipo }: { ipo: IpoView }) {
  const { t } = useTranslation();
  const f = useIpoFormat(ipo.currency);
  const percent: Record<string, number> = { retail: ipo.retailPct, nii: ipo.niiPct, qib: ipo.qibPct };
  return (
    <section className="ipo-section" data-testid="ipo-subscription">
      <h2 className="ipo-section__title">{t('ipo.subscription')}</h2>
      <table className="ipo-table tabular">
        <thead>
          <tr>
            <th scope="col">{t('ipo.split')}</th>
            <th scope="col">{t('ipo.offered')}</th>
            <th scope="col">{t('ipo.applied')}</th>
            <th scope="col">{t('ipo.times')}</th>
          </tr>
        </thead>
        <tbody>
          {ipo.subscription.map((row) => (
            <tr key={row.category}>
              <th scope="row">
                {t(`ipo.category.${row.category}`)}
                <small>{percent[row.category]}%</small>
              </th>
              <td>{f.shares(row.offered)}</td>
              <td>
                {f.shares(row.applied)}
                <small>
                  {row.applications} {t('ipo.applications').toLowerCase()}
                </small>
              </td>
              <td>{t('ipo.subscribedTimes', { times: f.times(row.times) })}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The signed-in customer's applications for one IPO (both channels; at most one is accepted per IPO). */
function useApplicationsFor(ipo: IpoView, enabled: boolean): IpoApplicationView[] {
  const online = useApplications('online', enabled, ipo.id);
  const offline = useApplications('offline', enabled, ipo.id);
  return [...(online.data?.items ?? []), ...(offline.data?.items ?? [])];
}

function MyApplicationsFor({ ipo, items }: { ipo: IpoView; items: IpoApplicationView[] }) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <section className="ipo-section" data-testid="ipo-my-applications">
      <h2 className="ipo-section__title">{t('ipo.yourApplications')}</h2>
      <ul className="ipo-apps">
        {items.map((application) => (
          <ApplicationRow
            key={application.id}
            application={application}
            actions={<ApplicationActions application={application} ipo={ipo} />}
          />
        ))}
      </ul>
    </section>
  );
}

function IpoDetail({ ipo }: { ipo: IpoView }) {
  const { t } = useTranslation();
  const session = useSession();
  const f = useIpoFormat(ipo.currency);
  const mine = useApplicationsFor(ipo, Boolean(session.token));
  return (
    <>
      <section className="ipo-hero" data-testid="ipo-detail">
        <div className="ipo-card__head">
          <span className="ipo-card__names">
            <span className="ipo-card__symbol">{ipo.symbol}</span>
            <span className="ipo-card__name">{ipo.name}</span>
          </span>
          <IpoStatusChip status={ipo.status} />
        </div>
        <Facts
          testId="ipo-facts"
          rows={[
            [t('ipo.issuer'), ipo.issuer],
            [t('ipo.exchange'), ipo.exchange],
            [t('ipo.band'), t('ipo.bandValue', { low: f.money(ipo.priceLow), high: f.money(ipo.priceHigh) })],
            [t('ipo.lot'), t('ipo.lotShares', { count: ipo.lotSize })],
            [t('ipo.lotCost'), f.money(lotCost(ipo))],
            [t('ipo.issuePrice'), ipo.issuePrice ? f.money(ipo.issuePrice) : '--'],
            [t('ipo.totalShares'), f.shares(ipo.totalShares)],
          ]}
        />
      </section>
      <section className="ipo-section">
        <h2 className="ipo-section__title">{t('ipo.dates')}</h2>
        <Facts
          testId="ipo-dates"
          rows={[
            [t('ipo.opens'), f.dateTime(ipo.opensAt)],
            [t('ipo.closes'), f.dateTime(ipo.closesAt)],
            [t('ipo.allotment'), f.date(ipo.allotmentAt)],
            [t('ipo.listing'), f.date(ipo.listingAt)],
          ]}
        />
      </section>
      <Subscription ipo={ipo} />
      <Fairness ipo={ipo} />
      <MyApplicationsFor ipo={ipo} items={mine} />
      <HonestNotices />
      {ipo.status === 'open' && mine.length > 0 && (
        <p className="ipo-foot" data-testid="already-applied">
          {t('ipo.alreadyApplied')}
        </p>
      )}
      {ipo.status === 'open' && mine.length === 0 && (
        <div className="order-submit">
          <Link className="btn btn--primary btn--block" to={ipoPaths.order(ipo.id)} data-testid="ipo-apply">
            {t('ipo.applyFor', { symbol: ipo.symbol })}
          </Link>
        </div>
      )}
    </>
  );
}

export function IpoDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = idParam(params);
  const ipo = useIpo(id);
  const notFound = (
    <EmptyState
      title={t('ipo.notFound')}
      action={
        <Link className="btn btn--primary" to={ipoPaths.list}>
          {t('ipo.backToList')}
        </Link>
      }
    />
  );
  return (
    <Page
      title={ipo.data ? `${ipo.data.symbol} IPO` : t('titles.stockIPO.ipoDetail')}
      className={ipo.data?.status === 'open' ? 'ipo-page--with-bar' : undefined}
    >
      {id === 0 ? (
        notFound
      ) : ipo.isPending ? (
        <SkeletonRows count={4} height={120} />
      ) : ipo.isError ? (
        ipo.error instanceof ApiError && ipo.error.error === 'ipo_not_found' ? (
          notFound
        ) : (
          <ErrorState onRetry={() => void ipo.refetch()} />
        )
      ) : (
        <IpoDetail ipo={ipo.data} />
      )}
    </Page>
  );
}

/** Cancel (an application while its issue is open) and pay (an offline allotment in its window). */
function ApplicationActions({ application, ipo }: { application: IpoApplicationView; ipo?: IpoView }) {
  const { t } = useTranslation();
  const refresh = useIpoRefresh();
  const [payKey, setPayKey] = useState<string | null>(null);
  const f = useIpoFormat(application.currency);
  const cancel = useMutation({
    mutationFn: () => cancelApplication(application),
    onSuccess: () => {
      Toast.show({ content: t(application.channel === 'online' ? 'ipo.cancelled' : 'ipo.cancelledOffline') });
      refresh();
    },
  });
  if (canCancel(application, ipo)) {
    return (
      <button
        type="button"
        className="btn btn--outline ipo-app__action"
        disabled={cancel.isPending}
        data-testid="cancel-application"
        onClick={async () => {
          const isConfirmed = await Dialog.confirm({
            content: t(application.channel === 'online' ? 'ipo.cancelConfirm' : 'ipo.cancelConfirmOffline', {
              symbol: application.symbol,
            }),
            confirmText: t('ipo.cancel'),
            cancelText: t('ipo.keep'),
          });
          if (isConfirmed) cancel.mutate();
        }}
      >
        {cancel.isPending ? t('common.loading') : t('ipo.cancel')}
      </button>
    );
  }
  if (application.status === 'wait_for_payment') {
    return (
      <>
        <button
          type="button"
          className="btn btn--primary ipo-app__action"
          data-testid="pay-application"
          onClick={() => setPayKey(newIdempotencyKey())}
        >
          {t('ipo.pay')}
        </button>
        <PasscodeConfirmSheet
          isOpen={payKey !== null}
          orderKey={payKey ?? ''}
          rows={[
            [t('ipo.confirm.ipo'), `${application.symbol} · ${application.name}`],
            [t('ipo.allotted'), f.shares(application.allottedShares)],
            [t('ipo.amountToPay'), f.money(application.allottedAmount)],
          ]}
          notice={
            <p className="confirm__notice">
              {t('ipo.payConfirm', {
                amount: f.money(application.allottedAmount),
                shares: f.shares(application.allottedShares),
                symbol: application.symbol,
              })}
            </p>
          }
          submit={(password, key) =>
            apiPost(ipoCalls.pay, { id: application.id, password }, { isSilent: true, idempotencyKey: key })
          }
          onDone={() => {
            setPayKey(null);
            Toast.show({ content: t('ipo.paid') });
            refresh();
          }}
          onClose={() => setPayKey(null)}
        />
      </>
    );
  }
  return null;
}

const channels: readonly IpoChannel[] = ['online', 'offline'];

function ApplicationList({ channel }: { channel: IpoChannel }) {
  const { t } = useTranslation();
  const applications = useApplications(channel, true);
  if (applications.isPending) return <SkeletonRows count={3} height={96} />;
  if (applications.isError) return <ErrorState onRetry={() => void applications.refetch()} />;
  if (applications.data.items.length === 0) {
    return (
      <EmptyState
        title={t('ipo.appsEmpty')}
        hint={t('ipo.appsEmptyHint')}
        action={
          <Link className="btn btn--primary" to={ipoPaths.list}>
            {t('ipo.browseIpos')}
          </Link>
        }
      />
    );
  }
  return (
    <ul className="ipo-apps" data-testid="applications">
      {applications.data.items.map((application) => (
        <ApplicationRow
          key={application.id}
          application={application}
          actions={<ApplicationActions application={application} />}
        />
      ))}
    </ul>
  );
}

export function ApplicationsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const channel = channels.find((value) => value === params.get('channel')) ?? 'online';
  return (
    <Page title={t('titles.stockIPO.list')}>
      {session.token ? (
        <>
          <div className="ipo-top">
            <Segmented
              value={channel}
              onChange={(value) => setParams({ channel: value }, { replace: true })}
              label={t('titles.stockIPO.list')}
              testId="channel-tabs"
              options={channels.map((value) => ({ value, label: t(`ipo.channel.${value}`) }))}
            />
          </div>
          <ApplicationList channel={channel} />
          {channel === 'online' ? <HonestNotices /> : <p className="ipo-notices">{t('ipo.offlineListNotice')}</p>}
        </>
      ) : (
        <SignInPrompt messageKey="ipo.signInToApply" />
      )}
    </Page>
  );
}

function AutoApplySwitch() {
  const { t } = useTranslation();
  const state = useAutoApply(true);
  const refresh = useIpoRefresh();
  const change = useMutation({
    mutationFn: setAutoApply,
    onSuccess: (view) => {
      Toast.show({ content: t(view.enabled ? 'ipo.switch.turnedOn' : 'ipo.switch.turnedOff') });
      refresh();
    },
  });
  if (state.isPending) return <SkeletonRows count={1} height={64} />;
  if (state.isError) return <ErrorState onRetry={() => void state.refetch()} />;
  const isOn = change.isSuccess ? change.data.enabled : state.data.enabled;
  return (
    <div className="ipo-switch" data-testid="auto-apply">
      <span className="ipo-switch__label" id="auto-apply-label">
        {t('ipo.switch.label')}
        <small data-testid="auto-apply-state">{t(isOn ? 'ipo.switch.on' : 'ipo.switch.off')}</small>
      </span>
      <Switch
        checked={isOn}
        loading={change.isPending}
        onChange={(next) => change.mutate(next)}
        aria-labelledby="auto-apply-label"
        data-testid="auto-apply-switch"
      />
    </div>
  );
}

export function IpoSwitchPage() {
  const { t } = useTranslation();
  const session = useSession();
  const openAutoApply = useOpenAutoApply();
  return (
    <Page title={t('titles.user.ipoSwitch')}>
      {!session.token ? (
        <SignInPrompt messageKey="ipo.signInToApply" />
      ) : !openAutoApply ? (
        <EmptyState title={t('ipo.switch.unavailable')} />
      ) : (
        <div className="ipo-switch-page padded">
          <h2 className="ipo-section__title">{t('ipo.switch.title')}</h2>
          <AutoApplySwitch />
          <div className="ipo-notices">
            <p>{t('ipo.switch.what')}</p>
            <p>{t('ipo.switch.held')}</p>
            <p>
              <b>{t('ipo.switch.never')}</b>
            </p>
          </div>
        </div>
      )}
    </Page>
  );
}
