// The launchpad (SPEC coinICO): icoList (open, upcoming and finished coin offerings), icoDetail (the
// terms, how allotment works, the risks, the customer's own commitment), icoOrder (commit USDT: held in
// the spot wallet until the close, after the transaction password) and applyList (the customer's
// commitments: subscribed and cancellable before the close, allotted with the refund, cancelled). Amounts
// are the server's exact decimal strings, formatted here. Nothing here promises an allotment or a return.
import type {
  ApplyCoinOfferingInput,
  CoinCommitmentView,
  CoinOfferingPhase,
  CoinOfferingView,
  Paged,
} from '@bourse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog, Input, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiPost } from '../../app/api.ts';
import { useSession } from '../../app/session.ts';
import { ListIcon } from '../../app/shell/icons.tsx';
import { PasscodeConfirmSheet } from '../../app/shell/order-entry.tsx';
import { Page } from '../../app/shell/page.tsx';
import { useDeploymentTimeZone } from '../../app/use-deployment-time-zone.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { formatNumber } from '../../lib/format.ts';
import { formatDateTime } from '../../lib/time.ts';
import { RequireLogin } from '../accounts/security-page.tsx';
import { newClientId } from '../exchange/coin-math.ts';
import { coinTradePath, EmptyState, ErrorState, Segmented, SkeletonRows } from '../markets/market-ui.tsx';
import { coinAssetsKey, useCoinAssets } from '../wallet/coin-assets.ts';
import { coinsFor, offeringSize, subscribedPct } from './ico-math.ts';
import './coin-offerings.css';

type Tab = 'today' | 'coming' | 'all';
const LIST_CALL: Record<Tab, string> = {
  today: '/coin/new/today',
  coming: '/coin/new/list/coming',
  all: '/coin/new/list',
};
const keys = {
  list: (tab: Tab) => ['coin', 'ico', 'list', tab] as const,
  info: (id: number) => ['coin', 'ico', 'info', id] as const,
  mine: ['coin', 'ico', 'mine'] as const,
};

const usdt = (value: string, digits = 2) => `${formatNumber(value, { locale: currentLanguage(), digits })} USDT`;
const coins = (value: string, symbol: string) =>
  `${formatNumber(value, { locale: currentLanguage(), digits: decimalsOf(value) })} ${symbol}`;
/** A price with at least two decimals and as many more as it has ("0.20", "0.0525"). */
const priceDigits = (price: string) => Math.max(2, decimalsOf(price));
/** The decimals a coin amount needs (at most 8), so "625.00000000" shows as 625. */
function decimalsOf(value: string): number {
  return Math.min(8, (value.split('.')[1] ?? '').replace(/0+$/, '').length);
}

function PhaseChip({ phase }: { phase: CoinOfferingPhase }) {
  const { t } = useTranslation();
  return <span className={`ico-chip ico-chip--${phase}`}>{t(`ico.phase.${phase}`)}</span>;
}

function StatusChip({ status }: { status: CoinCommitmentView['status'] }) {
  const { t } = useTranslation();
  return (
    <span className={`ico-chip ico-chip--${status}`} data-testid="commitment-status">
      {t(`ico.status.${status}`)}
    </span>
  );
}

function RiskNote() {
  const { t } = useTranslation();
  return (
    <p className="ico-risk" data-testid="ico-risk">
      {t('ico.risk')}
    </p>
  );
}

function useOffering(id: number) {
  const session = useSession();
  return useQuery({
    queryKey: [...keys.info(id), Boolean(session.token)],
    queryFn: () => apiPost<CoinOfferingView>('/coin/new/info', { id }),
    enabled: id > 0,
  });
}

function OfferingCard({ offering }: { offering: CoinOfferingView }) {
  const { t } = useTranslation();
  const zone = useDeploymentTimeZone();
  const pct = subscribedPct(offering.committed, offering.cap, offering.price);
  return (
    <li className="ico-card">
      <Link to={`/pages/coinICO/icoDetail?id=${offering.id}`} className="ico-card__link" data-testid="ico-card">
        <div className="ico-card__head">
          <span className="ico-card__name">
            <strong>{offering.symbol}</strong> {offering.name}
          </span>
          <PhaseChip phase={offering.phase} />
        </div>
        <dl className="ico-grid">
          <div>
            <dt>{t('ico.price')}</dt>
            <dd>{usdt(offering.price, priceDigits(offering.price))}</dd>
          </div>
          <div>
            <dt>{t('ico.size')}</dt>
            <dd>{usdt(offeringSize(offering.cap, offering.price))}</dd>
          </div>
          <div>
            <dt>{offering.phase === 'upcoming' ? t('ico.opens') : t('ico.closes')}</dt>
            <dd>{formatDateTime(offering.phase === 'upcoming' ? offering.opensAt : offering.closesAt, zone)}</dd>
          </div>
          <div>
            <dt>{t('ico.subscribed')}</dt>
            <dd>{t('ico.pct', { pct: formatNumber(pct, { locale: currentLanguage(), digits: 1 }) })}</dd>
          </div>
        </dl>
        {offering.mine && (
          <p className="ico-card__mine">
            {t('ico.yourCommitment')}: {usdt(offering.mine.amount)} · <StatusChip status={offering.mine.status} />
          </p>
        )}
      </Link>
    </li>
  );
}

export function IcoListPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('today');
  const list = useQuery({
    queryKey: keys.list(tab),
    queryFn: () => apiPost<Paged<CoinOfferingView>>(LIST_CALL[tab], { page: 1, limit: 50 }),
  });
  return (
    <Page
      title={t('titles.coinICO.icoList')}
      right={
        <Link to="/pages/coinICO/applyList" className="icon-button" aria-label={t('titles.coinICO.applyList')}>
          <ListIcon />
        </Link>
      }
    >
      <div className="ico-page">
        <p className="ico-intro">{t('ico.intro')}</p>
        <Segmented
          value={tab}
          label={t('titles.coinICO.icoList')}
          onChange={setTab}
          testId="ico-tabs"
          options={[
            { value: 'today', label: t('ico.tabs.today') },
            { value: 'coming', label: t('ico.tabs.coming') },
            { value: 'all', label: t('ico.tabs.all') },
          ]}
        />
        {list.isPending ? (
          <SkeletonRows count={3} height={120} />
        ) : list.isError ? (
          <ErrorState onRetry={() => void list.refetch()} />
        ) : list.data.items.length === 0 ? (
          <EmptyState title={t(`ico.empty.${tab}`)} />
        ) : (
          <ul className="ico-list">
            {list.data.items.map((o) => (
              <OfferingCard key={o.id} offering={o} />
            ))}
          </ul>
        )}
        <RiskNote />
      </div>
    </Page>
  );
}

export function IcoDetailPage() {
  const { t } = useTranslation();
  const zone = useDeploymentTimeZone();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  const info = useOffering(id);
  const o = info.data;
  return (
    <Page title={t('titles.coinICO.icoDetail')}>
      <div className="ico-page">
        {info.isPending ? (
          <SkeletonRows count={4} height={60} />
        ) : info.isError || !o ? (
          <ErrorState onRetry={() => void info.refetch()} />
        ) : (
          <>
            <div className="ico-card__head ico-detail__head">
              <h2 className="ico-detail__title">
                {o.name} <span className="muted">{o.symbol}</span>
              </h2>
              <PhaseChip phase={o.phase} />
            </div>
            <p className="ico-summary">{o.summary}</p>
            <dl className="ico-grid ico-grid--detail">
              <div>
                <dt>{t('ico.price')}</dt>
                <dd>{usdt(o.price, priceDigits(o.price))}</dd>
              </div>
              <div>
                <dt>{t('ico.cap')}</dt>
                <dd>{coins(o.cap, o.symbol)}</dd>
              </div>
              <div>
                <dt>{t('ico.minMax')}</dt>
                <dd>
                  {usdt(o.minCommit)} – {usdt(o.maxCommit)}
                </dd>
              </div>
              <div>
                <dt>{t('ico.unit')}</dt>
                <dd>{coins(o.unit, o.symbol)}</dd>
              </div>
              <div>
                <dt>{t('ico.opens')}</dt>
                <dd>{formatDateTime(o.opensAt, zone)}</dd>
              </div>
              <div>
                <dt>{t('ico.closes')}</dt>
                <dd>{formatDateTime(o.closesAt, zone)}</dd>
              </div>
              <div>
                <dt>{t('ico.committed')}</dt>
                <dd data-testid="ico-committed">{usdt(o.committed)}</dd>
              </div>
              <div>
                <dt>{t('ico.sold')}</dt>
                <dd>{coins(o.sold, o.symbol)}</dd>
              </div>
            </dl>
            <h3 className="ico-h3">{t('ico.howTitle')}</h3>
            <p className="ico-how">{t('ico.how')}</p>
            {o.mine && (
              <div className="ico-mine" data-testid="ico-mine">
                <span>
                  {t('ico.yourCommitment')}: {usdt(o.mine.amount)}
                </span>
                <StatusChip status={o.mine.status} />
              </div>
            )}
            <RiskNote />
            <div className="ico-actions">
              {o.phase === 'open' && !(o.mine && o.mine.status === 'subscribed') && (
                <Link
                  className="btn btn--primary btn--block"
                  to={`/pages/coinICO/icoOrder?id=${o.id}`}
                  data-testid="ico-apply"
                >
                  {t('ico.apply')}
                </Link>
              )}
              {o.pair && (
                <Link
                  className="btn btn--outline btn--block"
                  to={coinTradePath({ symbol: o.pair })}
                  data-testid="ico-trade"
                >
                  {t('ico.trade', { pair: `${o.symbol}/USDT` })}
                </Link>
              )}
            </div>
          </>
        )}
      </div>
    </Page>
  );
}

export function IcoOrderPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  const info = useOffering(id);
  const assets = useCoinAssets();
  const [amount, setAmount] = useState('');
  const [orderKey, setOrderKey] = useState<string | null>(null);
  const o = info.data;
  const available = assets.data?.spot.find((b) => b.asset === 'USDT')?.available ?? '0';
  const estimate = o && amount ? coinsFor(amount, o.price, o.unit) : null;
  return (
    <RequireLogin>
      <Page title={t('titles.coinICO.icoOrder')}>
        <div className="ico-page">
          {info.isPending ? (
            <SkeletonRows count={3} height={60} />
          ) : info.isError || !o ? (
            <ErrorState onRetry={() => void info.refetch()} />
          ) : (
            <>
              <h2 className="ico-detail__title">
                {o.name} <span className="muted">{o.symbol}</span>
              </h2>
              <div className="ico-field">
                <span className="ico-field__label">{t('ico.amountLabel')}</span>
                <Input
                  value={amount}
                  onChange={(v) => setAmount(v.replace(',', '.'))}
                  inputMode="decimal"
                  placeholder={t('ico.amountHint', {
                    min: o.minCommit.replace(/\.?0+$/, ''),
                    max: o.maxCommit.replace(/\.?0+$/, ''),
                  })}
                  data-testid="ico-amount"
                  aria-label={t('ico.amountLabel')}
                />
              </div>
              <p className="ico-available">
                {t('ico.available')}: <strong>{usdt(available)}</strong>
              </p>
              {estimate !== null && (
                <p className="ico-estimate" data-testid="ico-estimate">
                  {t('ico.estimate', { coins: coins(estimate, o.symbol) })}
                </p>
              )}
              <p className="ico-how">{t('ico.holdNote')}</p>
              <RiskNote />
              <button
                type="button"
                className="btn btn--primary btn--block"
                disabled={o.phase !== 'open' || !amount}
                onClick={() => setOrderKey(newClientId())}
                data-testid="ico-submit"
              >
                {o.phase === 'open' ? t('ico.commit') : t(`ico.phase.${o.phase}`)}
              </button>
              <PasscodeConfirmSheet
                isOpen={orderKey !== null}
                orderKey={orderKey ?? ''}
                rows={[
                  [t('ico.offering'), `${o.name} (${o.symbol})`],
                  [t('ico.amountLabel'), usdt(amount || '0')],
                  [t('ico.price'), usdt(o.price, priceDigits(o.price))],
                ]}
                notice={<p className="confirm__notice">{t('ico.holdNote')}</p>}
                submit={(password) =>
                  apiPost<CoinCommitmentView>(
                    '/coin/order/new/apply',
                    { id: o.id, amount, password } satisfies ApplyCoinOfferingInput,
                    // The sheet shows a refusal under the password box (not as a toast).
                    { isSilent: true },
                  )
                }
                onDone={() => {
                  setOrderKey(null);
                  void queryClient.invalidateQueries({ queryKey: ['coin', 'ico'] });
                  void queryClient.invalidateQueries({ queryKey: coinAssetsKey });
                  Toast.show({ content: t('ico.committedToast') });
                  navigate('/pages/coinICO/applyList');
                }}
                onClose={() => setOrderKey(null)}
              />
            </>
          )}
        </div>
      </Page>
    </RequireLogin>
  );
}

export function ApplyListPage() {
  const { t } = useTranslation();
  const zone = useDeploymentTimeZone();
  const queryClient = useQueryClient();
  const mine = useQuery({
    queryKey: keys.mine,
    queryFn: () => apiPost<Paged<CoinCommitmentView>>('/coin/order/new/list', { page: 1, limit: 50 }),
  });
  const cancel = useMutation({
    mutationFn: (id: number) => apiPost<CoinCommitmentView>('/coin/order/new/cancel', { id }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['coin', 'ico'] });
      void queryClient.invalidateQueries({ queryKey: coinAssetsKey });
      Toast.show({ content: t('ico.cancelledToast') });
    },
  });
  return (
    <RequireLogin>
      <Page title={t('titles.coinICO.applyList')}>
        <div className="ico-page">
          {mine.isPending ? (
            <SkeletonRows count={3} height={100} />
          ) : mine.isError ? (
            <ErrorState onRetry={() => void mine.refetch()} />
          ) : mine.data.items.length === 0 ? (
            <EmptyState
              title={t('ico.noCommitments')}
              action={
                <Link className="btn btn--outline" to="/pages/coinICO/icoList">
                  {t('titles.coinICO.icoList')}
                </Link>
              }
            />
          ) : (
            <ul className="ico-list">
              {mine.data.items.map((c) => (
                <li key={c.id} className="ico-card" data-testid="commitment">
                  <div className="ico-card__head">
                    <Link to={`/pages/coinICO/icoDetail?id=${c.offeringId}`} className="ico-card__name">
                      <strong>{c.symbol}</strong> {c.name}
                    </Link>
                    <StatusChip status={c.status} />
                  </div>
                  <dl className="ico-grid">
                    <div>
                      <dt>{t('ico.committedByYou')}</dt>
                      <dd>{usdt(c.amount)}</dd>
                    </div>
                    <div>
                      <dt>{t('ico.madeAt')}</dt>
                      <dd>{formatDateTime(c.createdAt, zone)}</dd>
                    </div>
                    {(c.status === 'allotted' || c.status === 'not_allotted') && (
                      <>
                        <div>
                          <dt>{t('ico.allotted')}</dt>
                          <dd data-testid="commitment-allotted">{coins(c.allotted, c.symbol)}</dd>
                        </div>
                        <div>
                          <dt>{t('ico.paid')}</dt>
                          <dd>{usdt(c.paid)}</dd>
                        </div>
                      </>
                    )}
                    {c.status !== 'subscribed' && (
                      <div>
                        <dt>{t('ico.refunded')}</dt>
                        <dd data-testid="commitment-refunded">{usdt(c.refunded)}</dd>
                      </div>
                    )}
                  </dl>
                  {c.status === 'subscribed' && (
                    <div className="ico-card__foot">
                      <span className="muted">{t('ico.heldNote')}</span>
                      <button
                        type="button"
                        className="btn btn--outline"
                        disabled={cancel.isPending}
                        data-testid="commitment-cancel"
                        onClick={async () => {
                          const isConfirmed = await Dialog.confirm({
                            content: t('ico.cancelConfirm', { amount: usdt(c.amount) }),
                            confirmText: t('ico.cancel'),
                            cancelText: t('ico.keep'),
                          });
                          if (isConfirmed) cancel.mutate(c.id);
                        }}
                      >
                        {t('ico.cancel')}
                      </button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      </Page>
    </RequireLogin>
  );
}
