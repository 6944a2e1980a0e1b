// Pieces shared by the IPO screens: money and dates of an issue (its exchange's time zone), the issue
// and application state chips, the issue card of the IPO list, an application row with its cancel and
// pay actions, and the honest notices (held, not debited; allotment by rules, never promised).

import type { IpoApplicationView, IpoView } from '@bourse/contract';
import { compareDecimal } from '@bourse/money';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '../../i18n/index.ts';
import { formatNumber, marketFormats } from '../../lib/format.ts';
import { formatAmount } from '../../lib/market-format.ts';
import { formatDate, formatDateTime } from '../../lib/time.ts';
import { timeZoneOfCurrency } from '../stocks/trading-ui.tsx';
import { isHoldingFunds, lotCost } from './ipo-math.ts';
import './ipo.css';

export const ipoPaths = {
  list: '/pages/stockIPO/ipoList',
  applications: '/pages/stockIPO/list',
  detail: (id: number) => `/pages/stockIPO/ipoDetail?id=${id}`,
  order: (id: number) => `/pages/stockIPO/ipoOrder?id=${id}`,
  verify: (id: number) => `/pages/stockIPO/drawVerify?id=${id}`,
  verifyAny: '/pages/stockIPO/drawVerify',
  autoApply: '/pages/user/ipoSwitch',
};

/** Formatters bound to an issue's currency and exchange: money, share counts, dates. */
export function useIpoFormat(currency: string) {
  const language = currentLanguage();
  const zone = timeZoneOfCurrency(currency);
  const locale = marketFormats.IN.locale;
  return {
    money: (value: string | null | undefined) => formatAmount(value, currency, language),
    shares: (value: string | number) => formatNumber(String(value), { locale, digits: 0 }),
    times: (value: string) => formatNumber(value, { locale, digits: 2 }),
    date: (ms: number) => formatDate(ms, zone),
    dateTime: (ms: number) => formatDateTime(ms, zone),
  };
}

/** The id parameter of the IPO pages (?id=12), 0 when missing or malformed. */
export function idParam(params: URLSearchParams): number {
  const id = Number(params.get('id'));
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
}

export function IpoStatusChip({ status }: { status: IpoView['status'] }) {
  const { t } = useTranslation();
  return (
    <span className={`ipo-chip ipo-chip--${status}`} data-testid="ipo-status">
      {t(`ipo.status.${status}`)}
    </span>
  );
}

export function ApplicationStatusChip({ status }: { status: IpoApplicationView['status'] }) {
  const { t } = useTranslation();
  return (
    <span className={`ipo-chip ipo-chip--app-${status}`} data-testid="application-status">
      {t(`ipo.appStatus.${status}`)}
    </span>
  );
}

/** The honest pair of notices every application screen carries. */
export function HonestNotices() {
  const { t } = useTranslation();
  return (
    <div className="ipo-notices" data-testid="ipo-notices">
      <p>{t('ipo.heldNotice')}</p>
      <p>{t('ipo.lotteryNotice')}</p>
    </div>
  );
}

export function Facts({ rows, testId }: { rows: readonly (readonly [string, ReactNode])[]; testId?: string }) {
  return (
    <dl className="ipo-facts" data-testid={testId}>
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd className="tabular">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function IpoCard({ ipo }: { ipo: IpoView }) {
  const { t } = useTranslation();
  const f = useIpoFormat(ipo.currency);
  const retail = ipo.subscription.find((s) => s.category === 'retail');
  const dates =
    ipo.status === 'upcoming' || ipo.status === 'open'
      ? [t('ipo.opens'), f.date(ipo.opensAt), t('ipo.closes'), f.date(ipo.closesAt)]
      : [t('ipo.allotment'), f.date(ipo.allotmentAt), t('ipo.listing'), f.date(ipo.listingAt)];
  return (
    <li className="ipo-card" data-testid="ipo-card">
      <Link className="ipo-card__link" to={ipoPaths.detail(ipo.id)}>
        <div className="ipo-card__head">
          <span className="ipo-card__names">
            <span className="ipo-card__symbol">{ipo.symbol}</span>
            <span className="ipo-card__name">{ipo.issuer}</span>
          </span>
          <IpoStatusChip status={ipo.status} />
        </div>
        <dl className="ipo-card__grid">
          <div>
            <dt>{t('ipo.band')}</dt>
            <dd className="tabular">
              {t('ipo.bandValue', { low: f.money(ipo.priceLow), high: f.money(ipo.priceHigh) })}
            </dd>
          </div>
          <div>
            <dt>{t('ipo.lot')}</dt>
            <dd className="tabular">
              {t('ipo.lotShares', { count: ipo.lotSize })} · {f.money(lotCost(ipo))}
            </dd>
          </div>
          <div>
            <dt>{dates[0]}</dt>
            <dd className="tabular">{dates[1]}</dd>
          </div>
          <div>
            <dt>{dates[2]}</dt>
            <dd className="tabular">{dates[3]}</dd>
          </div>
        </dl>
        {retail && ipo.status !== 'upcoming' && (
          <p className="ipo-card__sub tabular" data-testid="ipo-subscribed">
            {t('ipo.retailSubscribed', { times: f.times(retail.times) })} · {ipo.exchange}
          </p>
        )}
      </Link>
    </li>
  );
}

export function ApplicationRow({ application, actions }: { application: IpoApplicationView; actions?: ReactNode }) {
  const { t } = useTranslation();
  const f = useIpoFormat(application.currency);
  const isAllotted = compareDecimal(application.allottedShares, '0') > 0;
  return (
    <li className="ipo-app" data-testid="application-row">
      <Link className="ipo-app__main" to={ipoPaths.detail(application.ipoId)}>
        <span className="ipo-app__top">
          <span className="ipo-app__symbol">{application.symbol}</span>
          {application.auto && <span className="ipo-chip ipo-chip--auto">{t('ipo.auto')}</span>}
          <ApplicationStatusChip status={application.status} />
        </span>
        <span className="ipo-app__bids tabular">
          {application.bids.map((bid, i) => (
            <span key={i}>
              {t(bid.cutOff ? 'ipo.bidLotsCutOff' : 'ipo.bidLots', { count: bid.lots, price: f.money(bid.price) })}
            </span>
          ))}
        </span>
        <span className="ipo-app__figures tabular">
          {isHoldingFunds(application) && (
            <span>
              {t('ipo.held')}: <b data-testid="application-held">{f.money(application.heldAmount)}</b>
            </span>
          )}
          {isAllotted && (
            <span>
              {t('ipo.allotted')}:{' '}
              <b>
                {t('ipo.allottedValue', {
                  shares: f.shares(application.allottedShares),
                  amount: f.money(application.allottedAmount),
                })}
              </b>
            </span>
          )}
        </span>
        {application.paymentDueAt !== null && application.status === 'wait_for_payment' && (
          <span className="ipo-app__due">{t('ipo.payBy', { time: f.dateTime(application.paymentDueAt) })}</span>
        )}
        {application.reason && (
          <span className="ipo-app__reason">
            {t('ipo.reason')}: {application.reason}
          </span>
        )}
        <span className="ipo-app__time">
          {t('ipo.reference')} {application.ref} · {f.dateTime(application.createdAt)}
        </span>
      </Link>
      {actions}
    </li>
  );
}
