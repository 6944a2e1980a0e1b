// VIP membership (SPEC stock/vip; /user/vip/get claims the free trial, /user/vip/buy buys a plan): the
// status card, the free trial ("VIP received"), the plans with their price in the market's currency,
// buying or renewing with the transaction password (a renewal starts when the membership ends), what
// membership unlocks on this platform, the period history, and the trading-advice posts (members only,
// labelled as education). Nothing here promises a return: membership unlocks features, not profits.

import type { VipAdviceView, VipPeriodView, VipPlanView, VipStatusView } from '@bourse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiGet, apiPost } from '../../app/api.ts';
import { newIdempotencyKey } from '../../app/request.ts';
import { PasscodeConfirmSheet } from '../../app/shell/order-entry.tsx';
import { Page } from '../../app/shell/page.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { formatAmount } from '../../lib/market-format.ts';
import { RequireLogin } from '../accounts/security-page.tsx';
import { EmptyState, ErrorState, SkeletonRows } from '../markets/market-ui.tsx';
import './vip.css';

const keys = { status: ['vip', 'status'] as const, advice: ['vip', 'advice'] as const };
const DAY = 86_400_000;

const money = (value: string, currency: string) => formatAmount(value, currency, currentLanguage());
const day = (ms: number) => new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium' }).format(ms);

/** The plan's price in the market's currency (the status's), else the first currency it is sold in. */
function priceOf(plan: VipPlanView, currency: string) {
  return plan.prices.find((p) => p.currency === currency) ?? plan.prices[0];
}

function StatusCard({
  status,
  onClaim,
  isClaiming,
}: {
  status: VipStatusView;
  onClaim: () => void;
  isClaiming: boolean;
}) {
  const { t } = useTranslation();
  const line =
    status.state === 'none'
      ? t('vip.state.noneHint')
      : status.state === 'lapsed'
        ? t('vip.state.lapsedHint', { date: day(status.expiresAt ?? 0) })
        : t('vip.state.activeHint', { date: day(status.expiresAt ?? 0) });
  return (
    <section className={`vip-card vip-card--${status.state}`} data-testid="vip-status">
      <div className="vip-card__top">
        <strong className="vip-card__badge">VIP</strong>
        <span className="vip-chip" data-testid="vip-state">
          {t(`vip.state.${status.state}`)}
        </span>
      </div>
      <p className="vip-card__line">{line}</p>
      {status.strategyEnabled && <p className="vip-card__line">{t('vip.strategyOn')}</p>}
      {status.trialAvailable && (
        <button
          type="button"
          className="btn btn--primary vip-card__action"
          onClick={onClaim}
          disabled={isClaiming}
          data-testid="vip-claim"
        >
          {t('vip.claim', { count: status.trialDays })}
        </button>
      )}
    </section>
  );
}

function Plans({ status, onBuy }: { status: VipStatusView; onBuy: (plan: VipPlanView) => void }) {
  const { t } = useTranslation();
  const isRenewal = status.member || status.periods.some((p) => p.kind === 'paid' && p.endsAt > Date.now());
  return (
    <section className="vip-section">
      <h2 className="vip-section__title">{t('vip.plans')}</h2>
      <ul className="vip-plans">
        {status.plans.map((plan) => {
          const price = priceOf(plan, status.currency);
          if (!price) return null;
          return (
            <li key={plan.plan} className="vip-plan" data-testid={`vip-plan-${plan.plan}`}>
              <span className="vip-plan__days">{t('vip.days', { count: plan.days })}</span>
              <strong className="vip-plan__price">{money(price.amount, price.currency)}</strong>
              <button type="button" className="btn btn--outline vip-plan__buy" onClick={() => onBuy(plan)}>
                {isRenewal ? t('vip.renew') : t('vip.buy')}
              </button>
            </li>
          );
        })}
      </ul>
      <p className="section-hint">{t('vip.priceNote')}</p>
    </section>
  );
}

function Unlocks({ status }: { status: VipStatusView }) {
  const { t } = useTranslation();
  return (
    <section className="vip-section">
      <h2 className="vip-section__title">{t('vip.unlocks')}</h2>
      <ul className="vip-features" data-testid="vip-features">
        {status.features.map((f) => (
          <li key={f.feature} className="vip-feature">
            <span className={f.entitled ? 'vip-feature__mark vip-feature__mark--on' : 'vip-feature__mark'} aria-hidden>
              {f.entitled ? '✓' : '·'}
            </span>
            <span className="vip-feature__text">
              <strong>{t(`vip.feature.${f.feature}`)}</strong>
              <span className="muted">
                {f.feature === 'strategy'
                  ? t('vip.featureHint.strategy')
                  : f.membersOnly
                    ? t('vip.featureHint.membersOnly')
                    : f.feature === 'block_trades'
                      ? t('vip.featureHint.blockTrades')
                      : t('vip.featureHint.open')}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Advice({ status }: { status: VipStatusView }) {
  const { t } = useTranslation();
  const entitled = status.features.find((f) => f.feature === 'advice')?.entitled ?? false;
  const advice = useQuery({
    queryKey: [...keys.advice, currentLanguage()],
    queryFn: () => apiGet<{ items: VipAdviceView[] }>('/user/vip/advice', undefined, { isBackground: true }),
    enabled: entitled,
  });
  return (
    <section className="vip-section" data-testid="vip-advice">
      <h2 className="vip-section__title">{t('vip.advice')}</h2>
      <p className="vip-edu" role="note">
        {t('vip.educationNote')}
      </p>
      {!entitled ? (
        <p className="section-hint" data-testid="vip-advice-locked">
          {t('vip.adviceLocked')}
        </p>
      ) : advice.isPending ? (
        <SkeletonRows count={2} />
      ) : advice.isError ? (
        <ErrorState onRetry={() => void advice.refetch()} />
      ) : advice.data.items.length === 0 ? (
        <EmptyState title={t('vip.noAdvice')} />
      ) : (
        <ul className="vip-posts" data-testid="vip-advice-list">
          {advice.data.items.map((post) => (
            <li key={post.id} className="vip-post">
              <span className="vip-chip vip-chip--edu">{t('vip.education')}</span>
              <strong className="vip-post__title">{post.title}</strong>
              <p className="vip-post__body">{post.body}</p>
              <span className="muted">
                {post.author} · {day(post.publishedAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function History({ periods }: { periods: VipPeriodView[] }) {
  const { t } = useTranslation();
  if (periods.length === 0) return null;
  return (
    <section className="vip-section">
      <h2 className="vip-section__title">{t('vip.history')}</h2>
      <ul className="vip-periods" data-testid="vip-periods">
        {periods.map((p) => (
          <li key={p.id} className="vip-period">
            <span>
              <strong>{t(`vip.kind.${p.kind}`)}</strong>
              <span className="muted">
                {' '}
                {day(p.startsAt)} – {day(p.endsAt)}
              </span>
            </span>
            <span>{p.amount && p.currency ? money(p.amount, p.currency) : t('vip.free')}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function VipScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: keys.status, queryFn: () => apiGet<VipStatusView>('/user/vip/info') });
  const [buying, setBuying] = useState<{ plan: VipPlanView; key: string } | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['vip'] });
  const claim = useMutation({
    mutationFn: () => apiGet<VipStatusView>('/user/vip/get'),
    onSuccess: (data) => {
      queryClient.setQueryData(keys.status, data);
      Toast.show({ content: t('vip.received') });
      refresh();
    },
  });
  if (status.isPending) return <SkeletonRows count={6} />;
  if (status.isError) return <ErrorState onRetry={() => void status.refetch()} />;
  const s = status.data;
  const price = buying ? priceOf(buying.plan, s.currency) : undefined;
  // A renewal starts when the membership ends; otherwise now.
  const startsAt = s.expiresAt !== null && s.expiresAt > Date.now() ? s.expiresAt : Date.now();
  return (
    <div className="padded vip">
      <p className="section-hint">{t('vip.intro')}</p>
      <StatusCard status={s} onClaim={() => claim.mutate()} isClaiming={claim.isPending} />
      <Plans status={s} onBuy={(plan) => setBuying({ plan, key: newIdempotencyKey() })} />
      <Unlocks status={s} />
      <Advice status={s} />
      <History periods={s.periods} />
      <PasscodeConfirmSheet
        isOpen={buying !== null && price !== undefined}
        orderKey={buying?.key ?? ''}
        rows={
          buying && price
            ? [
                [t('vip.plan'), t('vip.days', { count: buying.plan.days })],
                [t('vip.price'), money(price.amount, price.currency)],
                [t('vip.period'), `${day(startsAt)} – ${day(startsAt + buying.plan.days * DAY)}`],
              ]
            : []
        }
        notice={<p className="confirm__notice">{t('vip.buyNotice')}</p>}
        submit={(password, clientOrderId) =>
          apiPost<unknown>(
            '/user/vip/buy',
            { plan: buying?.plan.plan ?? '', currency: price?.currency ?? '', password, clientOrderId },
            { isSilent: true, idempotencyKey: clientOrderId },
          )
        }
        onDone={() => {
          setBuying(null);
          Toast.show({ content: t('vip.purchased') });
          refresh();
        }}
        onClose={() => setBuying(null)}
      />
    </div>
  );
}

export function VipPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.stock.vip')}>
        <VipScreen />
      </Page>
    </RequireLogin>
  );
}
