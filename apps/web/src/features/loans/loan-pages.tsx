// The credit score and loans (decision 0039): user/creditScore shows the score, each factor's points and
// how to raise it, the score → credit line table and every change with its reason (/user/point/change/log);
// loan/apply shows every term (amount, days, daily rate, interest, actual amount, repayment amount, due
// date, overdue rate) before the customer agrees with the transaction password; loan/list shows the loans
// with their state, the staff member who reviewed each, and repayment. Nothing here promises anything.

import type { CreditScoreView, LoanInfoView, LoanView, ScoreChangeView } from '@bourse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { apiGet, apiPost } from '../../app/api.ts';
import { newIdempotencyKey } from '../../app/request.ts';
import { PasscodeConfirmSheet } from '../../app/shell/order-entry.tsx';
import { Page } from '../../app/shell/page.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { formatAmount } from '../../lib/market-format.ts';
import { RequireLogin } from '../accounts/security-page.tsx';
import { EmptyState, ErrorState, SkeletonRows } from '../markets/market-ui.tsx';
import './loans.css';

export const loanPaths = {
  score: '/pages/user/creditScore',
  apply: '/pages/loan/apply',
  list: '/pages/loan/list',
  service: '/pages/common/loanService',
  kyc: '/pages/user/kyc',
};
const keys = {
  score: ['loans', 'score'] as const,
  log: ['loans', 'log'] as const,
  info: ['loans', 'info'] as const,
  list: ['loans', 'list'] as const,
};

const money = (value: string, currency: string) => formatAmount(value, currency, currentLanguage());
const day = (ms: number) => new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium' }).format(ms);
const when = (ms: number) =>
  new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
const isZero = (v: string) => !/[1-9]/.test(v);
/** A percentage from the server ("0.05") with the language's decimal sign. */
const pct = (v: string) => `${currentLanguage() === 'pt-BR' ? v.replace('.', ',') : v} %`;

// --- user/creditScore ----------------------------------------------------------------------------------

function ScoreScreen() {
  const { t } = useTranslation();
  const score = useQuery({ queryKey: keys.score, queryFn: () => apiGet<CreditScoreView>('/user/credit/score') });
  const log = useQuery({
    queryKey: keys.log,
    queryFn: () =>
      apiPost<{ items: ScoreChangeView[] }>('/user/point/change/log', { limit: 50 }, { isBackground: true }),
    enabled: score.isSuccess,
  });
  if (score.isPending) return <SkeletonRows count={6} />;
  if (score.isError) return <ErrorState onRetry={() => void score.refetch()} />;
  const s = score.data;
  return (
    <div className="padded loans">
      <p className="section-hint">{t('loans.scoreIntro')}</p>
      <section className="loans-card" data-testid="credit-score">
        <div>
          <span className="loans-card__label">{t('loans.score')}</span>
          <strong className="loans-card__score" data-testid="score-value">
            {s.score}
          </strong>
          <span className="loans-card__label">{t('loans.outOf', { max: s.max })}</span>
        </div>
        <div className="loans-card__right">
          <span className="loans-card__label">{t('loans.limit')}</span>
          <strong data-testid="score-limit">{isZero(s.limit) ? t('loans.noLine') : money(s.limit, s.currency)}</strong>
        </div>
      </section>
      <div className="loans-links">
        <Link className="btn btn--primary" to={loanPaths.apply} data-testid="go-apply">
          {t('loans.apply')}
        </Link>
        <Link className="btn btn--outline" to={loanPaths.list} data-testid="go-loans">
          {t('loans.myLoans')}
        </Link>
      </div>
      <Link className="loans-service" to={loanPaths.service}>
        {t('loans.serviceLink')} ›
      </Link>

      <section className="loans-section">
        <h2 className="loans-section__title">{t('loans.factors')}</h2>
        <ul className="loans-list" data-testid="score-factors">
          {s.factors.map((f) => (
            <li key={f.factor} className="loans-factor">
              <span className="loans-factor__text">
                <strong>{t(`loans.factor.${f.factor}`)}</strong>
                <span className="muted">
                  {f.count === null ? t('loans.count.base') : t(`loans.count.${f.factor}`, { count: f.count })}
                </span>
                <span className="muted">{t(`loans.raise.${f.factor}`)}</span>
              </span>
              <span className={f.points < 0 ? 'loans-points loans-points--down' : 'loans-points'}>
                {signed(f.points)}
                {f.max > 0 && f.factor !== 'base' && <span className="muted"> / {f.max}</span>}
              </span>
            </li>
          ))}
        </ul>
      </section>

      <section className="loans-section">
        <h2 className="loans-section__title">{t('loans.tiers')}</h2>
        <ul className="loans-list" data-testid="score-tiers">
          {s.tiers.map((tier) => (
            <li key={tier.minScore} className={s.score >= tier.minScore ? 'loans-row loans-row--reached' : 'loans-row'}>
              <span>{t('loans.tierRow', { score: tier.minScore })}</span>
              <strong>{money(tier.limit, s.currency)}</strong>
            </li>
          ))}
        </ul>
      </section>

      <section className="loans-section">
        <h2 className="loans-section__title">{t('loans.changes')}</h2>
        {log.isPending ? (
          <SkeletonRows count={3} />
        ) : log.isError ? (
          <ErrorState onRetry={() => void log.refetch()} />
        ) : log.data.items.length === 0 ? (
          <EmptyState title={t('loans.noChanges')} />
        ) : (
          <ul className="loans-list" data-testid="score-log">
            {log.data.items.map((c) => (
              <li key={c.id} className="loans-row">
                <span className="loans-factor__text">
                  <strong>
                    {t(`loans.reason.${c.reason}`)}
                    {c.loanId !== null && <span className="muted"> · {t('loans.loanRef', { id: c.loanId })}</span>}
                  </strong>
                  <span className="muted">{when(c.createdAt)}</span>
                </span>
                <span className={c.delta < 0 ? 'loans-points loans-points--down' : 'loans-points'}>
                  {signed(c.delta)} → {c.scoreAfter}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export function CreditScorePage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.user.creditScore')}>
        <ScoreScreen />
      </Page>
    </RequireLogin>
  );
}

// --- loan/apply ----------------------------------------------------------------------------------------

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function ApplyScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const [days, setDays] = useState<number | null>(null);
  const [confirmKey, setConfirmKey] = useState<string | null>(null);
  const base = useQuery({ queryKey: keys.info, queryFn: () => apiGet<LoanInfoView>('/user/loan') });
  const chosenDays = days ?? base.data?.daysOffered[0] ?? null;
  const wanted = useDebounced(
    /^\d{1,12}(\.\d{1,8})?$/.test(amount.trim()) && /[1-9]/.test(amount) ? amount.trim() : '',
    300,
  );
  const terms = useQuery({
    queryKey: [...keys.info, wanted, chosenDays],
    queryFn: () =>
      apiGet<LoanInfoView>('/user/loan', { amount: wanted, days: chosenDays ?? 0 }, { isBackground: true }),
    enabled: wanted !== '' && chosenDays !== null,
  });
  if (base.isPending) return <SkeletonRows count={6} />;
  if (base.isError) return <ErrorState onRetry={() => void base.refetch()} />;
  const info = base.data;
  const shown = wanted !== '' ? terms.data?.terms : null;
  const blockedByKyc = info.kycRequired && !info.kycVerified;
  const noLine = isZero(info.limit);
  const canApply = !blockedByKyc && !noLine && info.open === null && shown != null;
  const rows: [string, string][] = shown
    ? [
        [t('loans.amount'), money(shown.amount, shown.currency)],
        [t('loans.days'), t('loans.daysValue', { count: shown.days })],
        [t('loans.dailyRate'), pct(shown.dailyRate)],
        [t('loans.dailyInterest'), money(shown.dailyInterest, shown.currency)],
        [t('loans.interest'), money(shown.interest, shown.currency)],
        [t('loans.actualAmount'), money(shown.actualAmount, shown.currency)],
        [t('loans.repaymentAmount'), money(shown.repaymentAmount, shown.currency)],
        [t('loans.dueDate'), t('loans.dueDateValue', { count: shown.days })],
        [
          t('loans.overdue'),
          t('loans.overdueValue', {
            rate: pct(shown.overdueDailyRate),
            amount: money(shown.overdueDailyInterest, shown.currency),
          }),
        ],
      ]
    : [];
  return (
    <div className="padded loans">
      <p className="section-hint">{t('loans.applyIntro')}</p>
      <section className="loans-card">
        <div>
          <span className="loans-card__label">{t('loans.score')}</span>
          <Link to={loanPaths.score} className="loans-card__score loans-card__score--link">
            {info.score}
          </Link>
        </div>
        <div className="loans-card__right">
          <span className="loans-card__label">{t('loans.limit')}</span>
          <strong data-testid="apply-limit">{noLine ? t('loans.noLine') : money(info.limit, info.currency)}</strong>
        </div>
      </section>
      {blockedByKyc && (
        <p className="loans-note" role="note">
          {t('loans.kycNeeded')} <Link to={loanPaths.kyc}>{t('loans.verify')}</Link>
        </p>
      )}
      {!blockedByKyc && noLine && (
        <p className="loans-note" role="note">
          {t('loans.noLineHint')} <Link to={loanPaths.score}>{t('loans.factors')}</Link>
        </p>
      )}
      {info.open && (
        <p className="loans-note" role="note" data-testid="apply-open">
          {t('loans.openLoan')} <Link to={loanPaths.list}>{t('loans.myLoans')}</Link>
        </p>
      )}
      <label className="loans-field">
        <span>{t('loans.amount')}</span>
        <input
          className="input"
          inputMode="decimal"
          value={amount}
          placeholder={t('loans.amountPlaceholder', { limit: money(info.limit, info.currency) })}
          onChange={(e) => setAmount(e.target.value)}
          data-testid="apply-amount"
        />
      </label>
      <div className="loans-field">
        <span>{t('loans.days')}</span>
        <div className="loans-days">
          {info.daysOffered.map((d) => (
            <button
              key={d}
              type="button"
              className={d === chosenDays ? 'chip-button chip-button--on' : 'chip-button'}
              aria-pressed={d === chosenDays}
              onClick={() => setDays(d)}
              data-testid={`apply-days-${d}`}
            >
              {t('loans.daysValue', { count: d })}
            </button>
          ))}
        </div>
      </div>
      <section className="loans-section">
        <h2 className="loans-section__title">{t('loans.terms')}</h2>
        {shown ? (
          <dl className="loans-terms" data-testid="apply-terms">
            {rows.map(([label, value]) => (
              <div key={label} className="loans-row">
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="section-hint">
            {t('loans.dailyRate')}: {pct(info.dailyRate)} · {t('loans.overdue')}: {pct(info.overdueDailyRate)}
          </p>
        )}
        <p className="section-hint">{t('loans.noFee')}</p>
      </section>
      <button
        type="button"
        className="btn btn--primary btn--block"
        disabled={!canApply}
        onClick={() => setConfirmKey(newIdempotencyKey())}
        data-testid="apply-submit"
      >
        {t('loans.agree')}
      </button>
      <PasscodeConfirmSheet
        isOpen={confirmKey !== null && shown != null}
        orderKey={confirmKey ?? ''}
        rows={rows}
        notice={<p className="confirm__notice">{t('loans.confirmNotice')}</p>}
        submit={(password) =>
          apiPost<LoanView>(
            '/user/loan/apply',
            { amount: shown?.amount ?? '', days: shown?.days ?? 0, password },
            { isSilent: true },
          )
        }
        onDone={() => {
          setConfirmKey(null);
          Toast.show({ content: t('loans.applied') });
          void queryClient.invalidateQueries({ queryKey: ['loans'] });
          navigate(loanPaths.list);
        }}
        onClose={() => setConfirmKey(null)}
      />
    </div>
  );
}

export function LoanApplyPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.loan.apply')}>
        <ApplyScreen />
      </Page>
    </RequireLogin>
  );
}

// --- loan/list -----------------------------------------------------------------------------------------

function LoanCard({ loan, onRepay }: { loan: LoanView; onRepay: (loan: LoanView) => void }) {
  const { t } = useTranslation();
  const c = loan.currency;
  const rows: [string, string][] = [
    [t('loans.days'), t('loans.daysValue', { count: loan.days })],
    [t('loans.dailyRate'), pct(loan.dailyRate)],
    [t('loans.actualAmount'), money(loan.actualAmount, c)],
    [t('loans.repaymentAmount'), money(loan.repaymentAmount, c)],
    [t('loans.borrowedAt'), when(loan.appliedAt)],
  ];
  if (loan.disbursedAt !== null) rows.push([t('loans.paidOutAt'), when(loan.disbursedAt)]);
  if (loan.dueAt !== null) rows.push([t('loans.due'), day(loan.dueAt)]);
  if (loan.disbursedAt !== null)
    rows.push([t('loans.interestSoFar', { count: loan.accruedDays }), money(loan.interestAccrued, c)]);
  if (loan.status === 'in_progress' || loan.status === 'repayment_review')
    rows.push([t('loans.outstanding'), money(loan.outstanding, c)]);
  if (loan.overdueDays > 0) rows.push([t('loans.overdueDays'), String(loan.overdueDays)]);
  if (loan.repaidAmount !== null) rows.push([t('loans.repaid'), money(loan.repaidAmount, c)]);
  if (loan.manager !== null) rows.push([t('loans.manager'), loan.manager]);
  if (loan.rejectReason !== null) rows.push([t('loans.rejectReason'), loan.rejectReason]);
  return (
    <li className="loans-loan" data-testid={`loan-${loan.id}`}>
      <div className="loans-loan__top">
        <strong>{money(loan.amount, c)}</strong>
        <span className={`loans-chip loans-chip--${loan.status}`} data-testid={`loan-status-${loan.id}`}>
          {t(`loans.status.${loan.status}`)}
          {loan.late && ` · ${t('loans.late')}`}
        </span>
      </div>
      <dl className="loans-terms">
        {rows.map(([label, value]) => (
          <div key={label} className="loans-row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {loan.status === 'in_progress' && (
        <button
          type="button"
          className="btn btn--primary btn--block"
          onClick={() => onRepay(loan)}
          data-testid={`loan-repay-${loan.id}`}
        >
          {t('loans.repay')} · {money(loan.outstanding, c)}
        </button>
      )}
    </li>
  );
}

function ListScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: keys.list,
    queryFn: () => apiGet<{ items: LoanView[] }>('/user/loan/order/list'),
  });
  const [repaying, setRepaying] = useState<{ loan: LoanView; key: string } | null>(null);
  const refresh = useMutation({ mutationFn: () => queryClient.invalidateQueries({ queryKey: ['loans'] }) });
  if (list.isPending) return <SkeletonRows count={4} />;
  if (list.isError) return <ErrorState onRetry={() => void list.refetch()} />;
  const loan = repaying?.loan;
  return (
    <div className="padded loans">
      <div className="loans-links">
        <Link className="btn btn--outline" to={loanPaths.apply}>
          {t('loans.apply')}
        </Link>
        <Link className="btn btn--outline" to={loanPaths.score}>
          {t('loans.score')}
        </Link>
      </div>
      {list.data.items.length === 0 ? (
        <EmptyState title={t('loans.noLoans')} />
      ) : (
        <ul className="loans-list" data-testid="loan-list">
          {list.data.items.map((l) => (
            <LoanCard key={l.id} loan={l} onRepay={(x) => setRepaying({ loan: x, key: newIdempotencyKey() })} />
          ))}
        </ul>
      )}
      <PasscodeConfirmSheet
        isOpen={repaying !== null}
        orderKey={repaying?.key ?? ''}
        rows={
          loan
            ? [
                [t('loans.amount'), money(loan.amount, loan.currency)],
                [t('loans.interestSoFar', { count: loan.accruedDays }), money(loan.interestAccrued, loan.currency)],
                [t('loans.outstanding'), money(loan.outstanding, loan.currency)],
              ]
            : []
        }
        notice={<p className="confirm__notice">{t('loans.repayNotice')}</p>}
        submit={(password) =>
          apiPost<LoanView>('/user/loan/repay', { id: loan?.id ?? 0, password }, { isSilent: true })
        }
        onDone={() => {
          setRepaying(null);
          Toast.show({ content: t('loans.repaySubmitted') });
          refresh.mutate();
        }}
        onClose={() => setRepaying(null)}
      />
    </div>
  );
}

export function LoanListPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.loan.list')}>
        <ListScreen />
      </Page>
    </RequireLogin>
  );
}
