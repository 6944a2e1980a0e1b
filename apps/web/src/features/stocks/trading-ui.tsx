// Pieces shared by the trading screens: the signed-out prompt, order status chips, holding cards
// (with the T+1 locked / sellable split) and order rows.

import type { HoldingView, StockOrderView } from '@bourse/contract';
import { compareDecimal, signOfDecimal } from '@bourse/money';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { loginPath } from '../../app/navigation.ts';
import { Amount } from '../../app/shell/amount.tsx';
import { currentLanguage } from '../../i18n/index.ts';

import { formatNumber, marketFormats } from '../../lib/format.ts';
import {
  formatAmount,
  formatAmountCompact,
  formatPercentChange,
  marketOfAsset,
  marketOfCurrency,
} from '../../lib/market-format.ts';
import { formatDateTime } from '../../lib/time.ts';
import { LockIcon } from '../markets/icons.tsx';
import { klinePath } from '../markets/market-ui.tsx';
import { isOpenStatus } from './trading-api.ts';

export function SignInPrompt({ messageKey = 'trading.signInHint' }: { messageKey?: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const redirect = encodeURIComponent(location.pathname + location.search);
  return (
    <div className="list-state" data-testid="sign-in-prompt">
      <p className="list-state__title">{t('common.signInRequired')}</p>
      <p className="list-state__hint">{t(messageKey)}</p>
      <Link className="btn btn--primary" to={`${loginPath}?redirect=${redirect}`}>
        {t('start.signIn')}
      </Link>
    </div>
  );
}

export function timeZoneOfCurrency(currency: string): string {
  const market = marketOfAsset(currency);
  return market ? marketFormats[market].timeZone : 'UTC';
}

export function StatusChip({ status }: { status: StockOrderView['status'] }) {
  const { t } = useTranslation();
  return <span className={`status-chip status-chip--${status}`}>{t(`trading.status.${status}`)}</span>;
}

export function pnlClass(value: string): string {
  const sign = signOfDecimal(value);
  return sign > 0 ? 'num--up' : sign < 0 ? 'num--down' : '';
}

export function HoldingCard({ holding }: { holding: HoldingView }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const market = marketOfCurrency(holding.currency);
  const locale = market ? marketFormats[market].locale : language;
  const money = (value: string, signed = false) => {
    const options = signed ? ({ signDisplay: 'exceptZero' } as const) : {};
    return (
      <Amount
        full={formatAmount(value, holding.currency, language, options)}
        compact={formatAmountCompact(value, holding.currency, language, options)}
      />
    );
  };
  const hasLocked = compareDecimal(holding.locked, '0') > 0;
  const content = (
    <>
      <div className="holding__head">
        <span className="holding__names">
          <span className="holding__symbol">{holding.symbol}</span>
          <span className="holding__name">{holding.name}</span>
        </span>
        <span className={`holding__pnl tabular ${pnlClass(holding.floatingPnl)}`}>
          {money(holding.floatingPnl, true)}
          <small>{formatPercentChange(holding.floatingPnlPct, locale)}</small>
        </span>
      </div>
      <dl className="holding__grid">
        <div>
          <dt>{t('trading.qty')}</dt>
          <dd className="tabular">{formatNumber(holding.quantity, { locale, digits: 0 })}</dd>
        </div>
        <div>
          <dt>{t('trading.avgPrice')}</dt>
          <dd className="tabular">{money(holding.avgPrice)}</dd>
        </div>
        <div>
          <dt>{t('trading.lastPrice')}</dt>
          <dd className="tabular">{money(holding.lastPrice)}</dd>
        </div>
        <div>
          <dt>{t('trading.marketValue')}</dt>
          <dd className="tabular">{money(holding.marketValue)}</dd>
        </div>
        <div>
          <dt>{t('trading.todayPnl')}</dt>
          <dd className={`tabular ${pnlClass(holding.todayPnl)}`}>{money(holding.todayPnl, true)}</dd>
        </div>
        <div>
          <dt>{t('trading.sellable')}</dt>
          <dd className="tabular">{formatNumber(holding.sellable, { locale, digits: 0 })}</dd>
        </div>
      </dl>
      {hasLocked && (
        <p className="lock-badge" data-testid="lock-badge">
          <LockIcon size={14} />
          {holding.listed && holding.unlocksAt !== null
            ? t('trading.lockedUntil', {
                locked: formatNumber(holding.locked, { locale, digits: 0 }),
                time: formatDateTime(holding.unlocksAt, timeZoneOfCurrency(holding.currency)),
              })
            : t('trading.lockedUntilListing', { locked: formatNumber(holding.locked, { locale, digits: 0 }) })}
        </p>
      )}
    </>
  );
  // Shares allotted before listing day have no market page yet: the card is not a link then.
  return (
    <li className="holding" data-testid="holding" data-listed={holding.listed}>
      {holding.listed ? (
        <Link className="holding__link" to={klinePath({ id: holding.symbol, symbol: holding.symbol, kind: 'stock' })}>
          {content}
        </Link>
      ) : (
        <div className="holding__link">{content}</div>
      )}
    </li>
  );
}

export function OrderRow({
  order,
  onOpen,
  action,
}: {
  order: StockOrderView;
  onOpen?: (order: StockOrderView) => void;
  action?: ReactNode;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const market = marketOfCurrency(order.currency);
  const locale = market ? marketFormats[market].locale : language;
  return (
    <li className="order-row" data-testid="order-row">
      <button type="button" className="order-row__main" onClick={() => onOpen?.(order)}>
        <span className="order-row__top">
          <span className={`side-tag side-tag--${order.side}`}>{t(`trading.${order.side}`)}</span>
          <span className="order-row__symbol">{order.symbol}</span>
          <StatusChip status={order.status} />
        </span>
        <span className="order-row__mid tabular">
          <span>
            {order.orderType === 'market' ? t('trading.market') : formatAmount(order.price, order.currency, language)}
          </span>
          <span>
            {formatNumber(order.filledQuantity, { locale, digits: 0 })}/
            {formatNumber(order.quantity, { locale, digits: 0 })}
          </span>
        </span>
        <span className="order-row__time">
          {formatDateTime(order.createdAt, timeZoneOfCurrency(order.currency))}
          {order.afterMarket && isOpenStatus(order.status) ? ` · ${t('trading.afterMarketShort')}` : ''}
        </span>
      </button>
      {action}
    </li>
  );
}
