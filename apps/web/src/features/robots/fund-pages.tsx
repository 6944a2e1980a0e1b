// The AI funds in the MF tab (decision 0040), served on the robot pages with `kind=fund`: a fund's card
// in robot/list, its detail (robot/detail?kind=fund&id=: the rule, holdings now, the realized NAV
// history labelled as past — a line chart of NAV per unit over the valuations above their table —, the customer's units, subscribe and redeem sheets with the transaction
// password), the customer's fund orders on robot/record, and one order (robot/orderDetail?kind=fund&id=).
// Nothing here forecasts a return: the only figures are past valuations and current holdings.

import type {
  FundInfoView,
  FundListItem,
  FundOrderDetailsView,
  FundOrderListView,
  FundOrderResult,
  FundOrderView,
} from '@bourse/contract';
import { tryParseDecimal } from '@bourse/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { apiPost } from '../../app/api.ts';
import { newIdempotencyKey } from '../../app/request.ts';
import { ChevronRightIcon } from '../../app/shell/icons.tsx';
import { PasscodeConfirmSheet } from '../../app/shell/order-entry.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { formatAmount } from '../../lib/market-format.ts';
import { ErrorState, SkeletonRows } from '../markets/market-ui.tsx';

// The app's chart module (lightweight-charts), loaded only when a fund has valuations to draw.
const NavChart = lazy(() => import('../markets/chart.tsx').then((m) => ({ default: m.NavChart })));

const keys = {
  info: (id: string) => ['funds', 'info', id] as const,
  orders: ['funds', 'orders'] as const,
  order: (id: string) => ['funds', 'order', id] as const,
};

const money = (value: string, currency: string) => formatAmount(value, currency, currentLanguage(), { digits: 2 });
const units = (value: string) =>
  Number(value).toLocaleString(currentLanguage(), { minimumFractionDigits: 4, maximumFractionDigits: 4 });
const nav = (value: string) =>
  Number(value).toLocaleString(currentLanguage(), { minimumFractionDigits: 4, maximumFractionDigits: 6 });
const moment = (ms: number) =>
  new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
const tradingDay = (day: string) =>
  new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeZone: 'UTC' }).format(
    Date.parse(`${day}T00:00:00Z`),
  );
const minorOf = (text: string, scale: number) => {
  const parsed = tryParseDecimal(text.trim(), scale);
  return parsed.ok ? parsed.minor : null;
};

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="rbt-row" data-testid={testId}>
      <dt>{label}</dt>
      <dd className="tabular">{children}</dd>
    </div>
  );
}

/** The last valuation, labelled as past; or that there is none yet. */
function LastNav({ item }: { item: FundListItem }) {
  const { t } = useTranslation();
  if (!item.last) return <span className="rbt-past rbt-past--none">{t('aiFunds.noValuation')}</span>;
  return (
    <span className="rbt-past" data-testid="fund-last-nav">
      <span className="rbt-past__figure">
        {t('aiFunds.navOn', { nav: nav(item.last.nav), day: tradingDay(item.last.day) })}
      </span>
      <span className="rbt-past__label">{t('aiFunds.pastLabel')}</span>
    </span>
  );
}

export function FundCard({ item }: { item: FundListItem }) {
  const { t } = useTranslation();
  return (
    <li>
      <Link className="rbt-card" to={`/pages/robot/detail?kind=fund&id=${item.id}`} data-testid="fund-card">
        <span className="rbt-card__top">
          <span className="rbt-card__name">
            <strong>{item.name}</strong>
            <span className="muted">
              {t('aiFunds.kind')} · {item.market}
            </span>
          </span>
          <span className={`rbt-chip rbt-chip--${item.rule}`}>{t(`aiFunds.rule.${item.rule}`)}</span>
        </span>
        <span className="rbt-card__grid tabular">
          <span>
            <span className="rbt-label">{t('aiFunds.holds')}</span>
            {item.size}
          </span>
          <span>
            <span className="rbt-label">{t('aiFunds.minAmount')}</span>
            {money(item.minAmount, item.currency)}
          </span>
        </span>
        <span className="rbt-card__foot">
          <LastNav item={item} />
          <ChevronRightIcon size={16} />
        </span>
      </Link>
    </li>
  );
}

function OrderSheet({
  info,
  side,
  onClose,
}: {
  info: FundInfoView;
  side: 'subscribe' | 'redeem';
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(side === 'subscribe' ? String(Number(info.minAmount)) : '');
  const [confirmKey, setConfirmKey] = useState<string | null>(null);
  const scale = side === 'subscribe' ? 2 : 4;
  const parsed = minorOf(value, scale);
  const limit =
    side === 'subscribe'
      ? parsed !== null && parsed >= (minorOf(info.minAmount, 2) ?? 0n)
      : parsed !== null && parsed > 0n && parsed <= (minorOf(info.myUnits ?? '0', 4) ?? 0n);
  return (
    <section className="rbt-form" aria-label={t(`aiFunds.${side}`)}>
      <label className="rbt-form__field">
        <span className="rbt-label">{side === 'subscribe' ? t('aiFunds.amount') : t('aiFunds.unitsToRedeem')}</span>
        <input
          className="rbt-input tabular"
          inputMode="decimal"
          value={value}
          onChange={(e) => setValue(e.target.value.replace(/[^\d.]/g, '').slice(0, 16))}
          data-testid={`fund-${side}-value`}
        />
        <span className="rbt-hint">{side === 'subscribe' ? t('aiFunds.subscribeHint') : t('aiFunds.redeemHint')}</span>
      </label>
      <span className="rbt-inline fund-actions">
        <button type="button" className="btn btn--outline" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="btn btn--primary"
          disabled={!limit}
          onClick={() => setConfirmKey(newIdempotencyKey())}
          data-testid={`fund-${side}-confirm`}
        >
          {t(`aiFunds.${side}`)}
        </button>
      </span>
      <PasscodeConfirmSheet
        isOpen={confirmKey !== null}
        orderKey={confirmKey ?? ''}
        rows={[
          [info.name, t(`aiFunds.rule.${info.rule}`)],
          side === 'subscribe'
            ? [t('aiFunds.amount'), money(value, info.currency)]
            : [t('aiFunds.unitsToRedeem'), units(value || '0')],
          [t('aiFunds.nextValuation'), t('aiFunds.nextValuationValue', { day: tradingDay(info.nextValuationDay) })],
        ]}
        notice={<p className="confirm__notice">{t('aiFunds.disclaimer')}</p>}
        // The key made when the sheet opened: a retry of this confirmation (a lost answer) holds or redeems once.
        submit={(password, clientOrderId) =>
          side === 'subscribe'
            ? apiPost<FundOrderResult>(
                '/stock/ai/buy',
                { kind: 'fund', id: info.id, amount: value, password, clientOrderId },
                { isSilent: true, idempotencyKey: clientOrderId },
              )
            : apiPost<FundOrderResult>(
                '/stock/ai/order/redeem',
                { id: info.id, units: value, password, clientOrderId },
                { isSilent: true, idempotencyKey: clientOrderId },
              )
        }
        onDone={() => {
          setConfirmKey(null);
          Toast.show({ content: side === 'subscribe' ? t('aiFunds.subscribed') : t('aiFunds.redeemed') });
          void queryClient.invalidateQueries({ queryKey: ['funds'] });
          void queryClient.invalidateQueries({ queryKey: ['user'] });
          onClose();
        }}
        onClose={() => setConfirmKey(null)}
      />
    </section>
  );
}

function OrderRow({ order }: { order: FundOrderView }) {
  const { t } = useTranslation();
  return (
    <li>
      <Link className="rbt-card" to={`/pages/robot/orderDetail?kind=fund&id=${order.id}`} data-testid="fund-order">
        <span className="rbt-card__top">
          <span className="rbt-card__name">
            <strong>{order.name}</strong>
            <span className="muted">
              {t(`aiFunds.side.${order.side}`)} · {moment(order.createdAt)}
            </span>
          </span>
          <span className={`rbt-chip rbt-chip--${order.status}`}>{t(`aiFunds.status.${order.status}`)}</span>
        </span>
        <span className="rbt-card__grid tabular">
          <span>
            <span className="rbt-label">{t('aiFunds.amount')}</span>
            {order.amount === null ? '—' : money(order.amount, order.currency)}
          </span>
          <span>
            <span className="rbt-label">{t('aiFunds.units')}</span>
            <span data-testid="fund-order-units">{order.units === null ? '—' : units(order.units)}</span>
          </span>
        </span>
      </Link>
    </li>
  );
}

export function FundDetail({ id }: { id: string }) {
  const { t } = useTranslation();
  const [sheet, setSheet] = useState<'subscribe' | 'redeem' | null>(null);
  const info = useQuery({
    queryKey: keys.info(id),
    queryFn: () => apiPost<FundInfoView>('/stock/ai/info', { kind: 'fund', id }),
    refetchInterval: 15_000,
  });
  if (info.isPending) return <SkeletonRows count={8} />;
  if (info.isError) return <ErrorState onRetry={() => void info.refetch()} />;
  const d = info.data;
  const hasUnits = d.myUnits !== null && (minorOf(d.myUnits, 4) ?? 0n) > 0n;
  return (
    <div className="padded">
      <div className="rbt-card__top rbt-head">
        <span className="rbt-card__name">
          <strong>{d.name}</strong>
          <span className="muted">
            {t('aiFunds.kind')} · {d.market}
          </span>
        </span>
        <span className={`rbt-chip rbt-chip--${d.rule}`}>{t(`aiFunds.rule.${d.rule}`)}</span>
      </div>
      <p className="section-hint rbt-flush">
        {t(`aiFunds.ruleHint.${d.rule}`, { size: d.size, market: d.market, days: d.lookbackDays })}
      </p>
      <dl className="rbt-rows" data-testid="fund-terms">
        <Row label={t('aiFunds.market')}>{d.market}</Row>
        <Row label={t('aiFunds.holds')}>{d.size}</Row>
        <Row label={t('aiFunds.lookback')}>{t('aiFunds.lookbackValue', { count: d.lookbackDays })}</Row>
        <Row label={t('aiFunds.minAmount')}>{money(d.minAmount, d.currency)}</Row>
        <Row label={t('aiFunds.nextValuation')}>
          {t('aiFunds.nextValuationValue', { day: tradingDay(d.nextValuationDay) })}
        </Row>
      </dl>
      {d.myUnits !== null && (
        <>
          <h2 className="day-head">{t('aiFunds.mine')}</h2>
          <dl className="rbt-rows" data-testid="fund-mine">
            <Row label={t('aiFunds.units')} testId="fund-my-units">
              {units(d.myUnits)}
            </Row>
            {d.myValue !== null && <Row label={t('aiFunds.myValue')}>{money(d.myValue, d.currency)}</Row>}
            {d.available !== null && <Row label={t('aiFunds.available')}>{money(d.available, d.currency)}</Row>}
          </dl>
          {d.pending.length > 0 && (
            <ul className="rbt-list fund-flush" data-testid="fund-pending">
              {d.pending.map((o) => (
                <OrderRow key={o.id} order={o} />
              ))}
            </ul>
          )}
          {sheet ? (
            <OrderSheet info={d} side={sheet} onClose={() => setSheet(null)} />
          ) : (
            <span className="rbt-inline fund-actions">
              <button
                type="button"
                className="btn btn--primary"
                onClick={() => setSheet('subscribe')}
                data-testid="fund-subscribe"
              >
                {t('aiFunds.subscribe')}
              </button>
              <button
                type="button"
                className="btn btn--outline"
                disabled={!hasUnits}
                onClick={() => setSheet('redeem')}
                data-testid="fund-redeem"
              >
                {t('aiFunds.redeem')}
              </button>
            </span>
          )}
        </>
      )}
      <h2 className="day-head">{t('aiFunds.history')}</h2>
      <p className="rbt-backtest__label">{t('aiFunds.pastLabel')}</p>
      {d.history.length === 0 ? (
        <p className="rbt-hint">{t('aiFunds.historyEmpty')}</p>
      ) : (
        <>
          <figure className="fund-chart">
            <figcaption className="rbt-label">{t('aiFunds.chartTitle')}</figcaption>
            <div className="fund-chart__area">
              <Suspense fallback={<div className="fund-chart__canvas skeleton-block" />}>
                <NavChart history={d.history} digits={4} locale={currentLanguage()} label={t('aiFunds.chartLabel')} />
              </Suspense>
            </div>
          </figure>
          <table className="fund-table tabular" data-testid="fund-history">
            <thead>
              <tr>
                <th>{t('aiFunds.day')}</th>
                <th>{t('aiFunds.nav')}</th>
                <th>{t('aiFunds.equity')}</th>
              </tr>
            </thead>
            <tbody>
              {[...d.history].reverse().map((v) => (
                <tr key={v.day}>
                  <td>{tradingDay(v.day)}</td>
                  <td>{nav(v.nav)}</td>
                  <td>{money(v.equity, d.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <h2 className="day-head">{t('aiFunds.holdings')}</h2>
      {d.holdings.length === 0 ? (
        <p className="rbt-hint">{t('aiFunds.noHoldings')}</p>
      ) : (
        <ul className="rbt-trades" data-testid="fund-holdings">
          {d.holdings.map((h) => (
            <li key={h.symbol} className="rbt-trade">
              <span className="rbt-trade__main">
                <strong>{h.symbol}</strong>
                <span className="muted tabular">
                  {h.quantity} @ {money(h.price, d.currency)}
                </span>
              </span>
              <span className="tabular">{money(h.value, d.currency)}</span>
            </li>
          ))}
        </ul>
      )}
      <dl className="rbt-rows">
        <Row label={t('aiFunds.cash')}>{money(d.cash, d.currency)}</Row>
        <Row label={t('aiFunds.equityNow')}>{money(d.equity, d.currency)}</Row>
      </dl>
      <p className="section-hint rbt-flush">{t('aiFunds.disclaimer')}</p>
    </div>
  );
}

/** The customer's fund orders, for robot/record. */
export function FundOrderList() {
  const { t } = useTranslation();
  const orders = useQuery({
    queryKey: keys.orders,
    queryFn: () => apiPost<FundOrderListView>('/stock/ai/order/list', { kind: 'fund', page: 1, limit: 50 }),
    refetchInterval: 15_000,
  });
  if (orders.isPending) return <SkeletonRows count={2} height={100} />;
  if (orders.isError) return <ErrorState onRetry={() => void orders.refetch()} />;
  return (
    <section>
      <h2 className="day-head">{t('aiFunds.orders')}</h2>
      {orders.data.items.length === 0 ? (
        <p className="rbt-hint padded">{t('aiFunds.noOrders')}</p>
      ) : (
        <ul className="rbt-list padded" data-testid="fund-orders">
          {orders.data.items.map((o) => (
            <OrderRow key={o.id} order={o} />
          ))}
        </ul>
      )}
    </section>
  );
}

export function FundOrderDetail({ id }: { id: string }) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: keys.order(id),
    queryFn: () => apiPost<FundOrderDetailsView>('/stock/ai/order/details', { kind: 'fund', id }),
  });
  if (detail.isPending) return <SkeletonRows count={6} />;
  if (detail.isError) return <ErrorState onRetry={() => void detail.refetch()} />;
  const { order, valuation } = detail.data;
  return (
    <div className="padded">
      <div className="rbt-card__top rbt-head">
        <span className="rbt-card__name">
          <strong>{order.name}</strong>
          <span className="muted">{t(`aiFunds.side.${order.side}`)}</span>
        </span>
        <span className={`rbt-chip rbt-chip--${order.status}`} data-testid="fund-order-status">
          {t(`aiFunds.status.${order.status}`)}
        </span>
      </div>
      <dl className="rbt-rows">
        <Row label={t('aiFunds.amount')}>{order.amount === null ? '—' : money(order.amount, order.currency)}</Row>
        <Row label={t('aiFunds.units')}>{order.units === null ? '—' : units(order.units)}</Row>
        {order.nav !== null && <Row label={t('aiFunds.nav')}>{nav(order.nav)}</Row>}
        <Row label={t('aiFunds.createdAt')}>{moment(order.createdAt)}</Row>
        {order.valuedAt !== null && <Row label={t('aiFunds.valuedAt')}>{moment(order.valuedAt)}</Row>}
        {valuation && <Row label={t('aiFunds.day')}>{tradingDay(valuation.day)}</Row>}
      </dl>
      {order.status === 'pending' && <p className="rbt-hint">{t('aiFunds.pending')}</p>}
      <p className="section-hint rbt-flush">{t('aiFunds.disclaimer')}</p>
    </div>
  );
}
