// The signed-in stock screens: Trade tab and pages/stock/index (account summary per currency,
// holdings, open orders with cancel, links), pages/tabbar/position (holdings), pages/stock/list
// (open / history orders with status chips and a detail sheet), pages/fundsDetail/stockFundsDetail
// (ledger lines grouped by day) and pages/stock/income (realized P&L and order statistics).

import type { HoldingView, StockOrderView } from '@bourse/contract';
import { compareDecimal, sumDecimals } from '@bourse/money';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog, Popup, PullToRefresh, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { usePlatformProps } from '../../app/api.ts';
import { useSession } from '../../app/session.ts';
import { Amount } from '../../app/shell/amount.tsx';
import { ChartIcon, ChevronRightIcon, ListIcon, WalletIcon } from '../../app/shell/icons.tsx';
import { Page } from '../../app/shell/page.tsx';
import { useEscape } from '../../app/shell/use-escape.ts';
import { currentLanguage } from '../../i18n/index.ts';

import { formatNumber, marketFormats } from '../../lib/format.ts';
import { formatAmount, formatAmountCompact, marketOfCurrency } from '../../lib/market-format.ts';
import { formatDateTime } from '../../lib/time.ts';
import { SearchIcon } from '../markets/icons.tsx';
import { apiGet, type Paged } from '../markets/market-api.ts';
import {
  EmptyState,
  ErrorState,
  LoadMoreFooter,
  loadMoreState,
  Segmented,
  SkeletonRows,
  useSentinel,
} from '../markets/market-ui.tsx';
import { groupByDay } from './order-math.ts';
import {
  type BalanceView,
  cancelOrder,
  fetchOrders,
  isOpenStatus,
  type OrderStatisticsView,
  type TransferView,
  tradingKeys,
  useAccountLive,
  useHoldings,
  useStockBalances,
} from './trading-api.ts';
import { HoldingCard, OrderRow, pnlClass, SignInPrompt, StatusChip, timeZoneOfCurrency } from './trading-ui.tsx';

function pullTexts(t: (key: string) => string) {
  return {
    pullingText: t('markets.pullToRefresh'),
    canReleaseText: t('markets.releaseToRefresh'),
    refreshingText: t('common.loading'),
    completeText: t('markets.refreshed'),
  };
}

const currencyOrder = ['INR', 'USD', 'BRL'];

function AccountSummary({ balances, holdings }: { balances: BalanceView[]; holdings: HoldingView[] }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const currencies = [...new Set([...balances.map((b) => b.asset), ...holdings.map((h) => h.currency)])].sort(
    (a, b) => ((currencyOrder.indexOf(a) + 99) % 99) - ((currencyOrder.indexOf(b) + 99) % 99),
  );
  if (currencies.length === 0) {
    return <EmptyState title={t('trading.noAccount')} hint={t('trading.noAccountHint')} />;
  }
  return (
    <div className="account-cards" data-testid="account-summary">
      {currencies.map((currency) => {
        const balance = balances.find((b) => b.asset === currency);
        const own = holdings.filter((h) => h.currency === currency);
        const value = sumDecimals(own.map((h) => h.marketValue));
        const pnl = sumDecimals(own.map((h) => h.floatingPnl));
        const today = sumDecimals(own.map((h) => h.todayPnl));
        const total = sumDecimals([balance?.balance ?? '0', value]);
        const money = (v: string, signed = false) => {
          const options = signed ? ({ signDisplay: 'exceptZero' } as const) : {};
          return (
            <Amount
              full={formatAmount(v, currency, language, options)}
              compact={formatAmountCompact(v, currency, language, options)}
            />
          );
        };
        return (
          <section key={currency} className="account-card-x" aria-label={t('trading.accountIn', { currency })}>
            <p className="account-card-x__label">
              {t('trading.totalAssets')} · {currency}
            </p>
            <p className="account-card-x__total tabular">{money(total)}</p>
            <dl className="account-card-x__grid">
              <div>
                <dt>{t('trading.available')}</dt>
                <dd className="tabular">{money(balance?.available ?? '0')}</dd>
              </div>
              <div>
                <dt>{t('trading.held')}</dt>
                <dd className="tabular">{money(balance?.held ?? '0')}</dd>
              </div>
              <div>
                <dt>{t('trading.holdingsValue')}</dt>
                <dd className="tabular">{money(value)}</dd>
              </div>
              <div>
                <dt>{t('trading.floatingPnl')}</dt>
                <dd className={`tabular ${pnlClass(pnl)}`}>{money(pnl, true)}</dd>
              </div>
              <div>
                <dt>{t('trading.todayPnl')}</dt>
                <dd className={`tabular ${pnlClass(today)}`}>{money(today, true)}</dd>
              </div>
            </dl>
          </section>
        );
      })}
    </div>
  );
}

function HoldingsList({ isSignedIn }: { isSignedIn: boolean }) {
  const { t } = useTranslation();
  const holdings = useHoldings(isSignedIn);
  if (holdings.isPending) return <SkeletonRows count={3} height={120} />;
  if (holdings.isError) return <ErrorState onRetry={() => void holdings.refetch()} />;
  const items = holdings.data.items.filter((h) => compareDecimal(h.quantity, '0') > 0);
  if (items.length === 0) {
    return (
      <EmptyState
        title={t('trading.noHoldings')}
        hint={t('trading.noHoldingsHint')}
        action={
          <Link className="btn btn--primary" to="/pages/tabbar/markets">
            {t('trading.browseMarkets')}
          </Link>
        }
      />
    );
  }
  return (
    <ul className="holdings" data-testid="holdings">
      {items.map((holding) => (
        <HoldingCard key={holding.symbol} holding={holding} />
      ))}
    </ul>
  );
}

function useCancel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (order: StockOrderView) => cancelOrder(order.id),
    onSuccess: () => {
      Toast.show({ content: t('trading.cancelled') });
      void queryClient.invalidateQueries({ queryKey: ['stock'] });
      void queryClient.invalidateQueries({ queryKey: tradingKeys.assets });
    },
  });
}

function CancelButton({ order }: { order: StockOrderView }) {
  const { t } = useTranslation();
  const cancel = useCancel();
  return (
    <button
      type="button"
      className="btn btn--outline order-row__cancel"
      disabled={cancel.isPending}
      data-testid="cancel-order"
      onClick={async () => {
        const isConfirmed = await Dialog.confirm({
          content: t('trading.cancelConfirm', { symbol: order.symbol }),
          confirmText: t('trading.cancelOrder'),
          cancelText: t('trading.keepOrder'),
        });
        if (isConfirmed) cancel.mutate(order);
      }}
    >
      {cancel.isPending ? t('common.loading') : t('trading.cancelOrder')}
    </button>
  );
}

function OpenOrders({ onOpen }: { onOpen: (order: StockOrderView) => void }) {
  const { t } = useTranslation();
  const orders = useQuery({
    queryKey: [...tradingKeys.orders('open'), 'first'],
    queryFn: () => fetchOrders('open', 1, 20),
    refetchInterval: 5_000,
  });
  if (orders.isPending) return <SkeletonRows count={2} height={72} />;
  if (orders.isError) return <ErrorState onRetry={() => void orders.refetch()} />;
  if (orders.data.items.length === 0)
    return <EmptyState title={t('trading.noOpenOrders')} hint={t('trading.noOpenOrdersHint')} />;
  return (
    <ul className="orders" data-testid="open-orders">
      {orders.data.items.map((order) => (
        <OrderRow key={order.id} order={order} onOpen={onOpen} action={<CancelButton order={order} />} />
      ))}
    </ul>
  );
}

function OrderDetailSheet({ order, onClose }: { order: StockOrderView | null; onClose: () => void }) {
  const { t } = useTranslation();
  useEscape(order !== null, onClose);
  const id = order ? String(order.id) : '';
  const detail = useQuery({
    queryKey: tradingKeys.order(id),
    queryFn: () => apiGet<StockOrderView>('/stock/order/info', { id }),
    enabled: Boolean(id),
    placeholderData: order ?? undefined,
  });
  const shown = detail.data ?? order;
  const language = currentLanguage();
  if (!shown) return null;
  const money = (v: string | null) => (v ? formatAmount(v, shown.currency, language) : '--');
  const market = marketOfCurrency(shown.currency);
  const locale = market ? marketFormats[market].locale : language;
  const rows: [string, ReactNode][] = [
    [t('trading.status.label'), <StatusChip key="s" status={shown.status} />],
    [t('trading.side'), t(`trading.${shown.side}`)],
    [t('trading.orderType'), t(`trading.${shown.orderType}`)],
    [t('trading.price'), shown.orderType === 'market' ? t('trading.market') : money(shown.price)],
    [t('trading.quantity'), formatNumber(shown.quantity, { locale, digits: 0 })],
    [t('trading.filled'), formatNumber(shown.filledQuantity, { locale, digits: 0 })],
    [t('trading.avgFillPrice'), money(shown.avgFillPrice)],
    [t('trading.amount'), money(shown.amount)],
    [t('trading.fee'), money(shown.fee)],
    [t('trading.createdAt'), formatDateTime(shown.createdAt, timeZoneOfCurrency(shown.currency))],
    [t('trading.updatedAt'), formatDateTime(shown.updatedAt, timeZoneOfCurrency(shown.currency))],
    [t('trading.orderId'), String(shown.id)],
  ];
  return (
    <Popup visible={order !== null} onMaskClick={onClose} onClose={onClose} bodyClassName="sheet">
      <div role="dialog" aria-modal="true" aria-label={t('trading.orderDetail')} data-testid="order-detail">
        <div className="sheet__head">
          <h2 className="sheet__title">
            {shown.symbol} · {shown.name}
          </h2>
          <button type="button" className="text-button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
        <div className="sheet__body">
          <dl className="confirm__rows">
            {rows.map(([label, value]) => (
              <div key={label} className="confirm__row">
                <dt>{label}</dt>
                <dd className="tabular">{value}</dd>
              </div>
            ))}
          </dl>
          {shown.afterMarket && isOpenStatus(shown.status) && (
            <p className="confirm__notice">{t('trading.afterMarketNotice')}</p>
          )}
          {isOpenStatus(shown.status) && (
            <div className="sheet__actions">
              <CancelButton order={shown} />
            </div>
          )}
        </div>
      </div>
    </Popup>
  );
}

function TradeLinks() {
  const { t } = useTranslation();
  const links = [
    { to: '/pages/stock/list', label: t('trading.orderHistory'), Icon: ListIcon },
    { to: '/pages/fundsDetail/stockFundsDetail', label: t('trading.fundsDetail'), Icon: WalletIcon },
    { to: '/pages/stock/income', label: t('trading.income'), Icon: ListIcon },
    { to: '/pages/stock/search', label: t('markets.search'), Icon: SearchIcon },
    { to: '/pages/stockIPO/ipoList', label: t('titles.stockIPO.ipoList'), Icon: ChartIcon },
  ];
  return (
    <nav className="trade-links" aria-label={t('titles.tabbar.trade')}>
      {links.map(({ to, label, Icon }) => (
        <Link key={to} to={to} className="trade-links__item">
          <Icon size={22} />
          <span>{label}</span>
        </Link>
      ))}
    </nav>
  );
}

function TradeHome({ titleKey, hasTabBar, top }: { titleKey: string; hasTabBar: boolean; top?: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  const isSignedIn = Boolean(session.token);
  const queryClient = useQueryClient();
  useAccountLive(session.token);
  const balances = useStockBalances(isSignedIn);
  const holdings = useHoldings(isSignedIn);
  const [detail, setDetail] = useState<StockOrderView | null>(null);
  return (
    <Page title={t(titleKey)} left={hasTabBar ? 'menu' : 'back'} hasTabBar={hasTabBar}>
      {top}
      {!isSignedIn ? (
        <SignInPrompt messageKey="trading.signInToTrade" />
      ) : (
        <PullToRefresh
          onRefresh={() =>
            queryClient
              .invalidateQueries({ queryKey: ['stock'] })
              .then(() => balances.refetch())
              .then(() => undefined)
          }
          {...pullTexts(t)}
        >
          {balances.isPending || holdings.isPending ? (
            <SkeletonRows count={1} height={150} />
          ) : balances.isError ? (
            <ErrorState onRetry={() => void balances.refetch()} />
          ) : (
            <AccountSummary balances={balances.data} holdings={holdings.data?.items ?? []} />
          )}
          <TradeLinks />
          <div className="section-head">
            <h2 className="section-head__title">{t('trading.openOrders')}</h2>
            <Link className="section-head__more" to="/pages/stock/list?tab=open">
              {t('markets.seeAll')}
            </Link>
          </div>
          <OpenOrders onOpen={setDetail} />
          <div className="section-head">
            <h2 className="section-head__title">{t('trading.holdings')}</h2>
            <Link className="section-head__more" to="/pages/tabbar/position">
              {t('markets.seeAll')}
            </Link>
          </div>
          <HoldingsList isSignedIn={isSignedIn} />
        </PullToRefresh>
      )}
      <OrderDetailSheet order={detail} onClose={() => setDetail(null)} />
    </Page>
  );
}

// The crypto trading screen, loaded when the Trade tab shows crypto (its own chunk, with the chart).
const SpotTradingScreen = lazy(() =>
  import('../spot/spot-page.tsx').then((module) => ({ default: module.SpotTradingScreen })),
);

// The contract trading screen, loaded when the Trade tab shows contracts.
const PerpTradingScreen = lazy(() =>
  import('../perpetuals/perpetuals-page.tsx').then((module) => ({ default: module.PerpTradingScreen })),
);

// The options chain, loaded when the Trade tab shows options.
const OptionsTradeScreen = lazy(() =>
  import('../options/options-pages.tsx').then((module) => ({ default: module.OptionsTradeScreen })),
);

type TradeType = 'crypto' | 'contract' | 'stock' | 'option';
const tradeTypeKey = 'tradeType';

/**
 * The Trade tab's market: `?type=stock|contract|crypto` in the link, else the last choice, else crypto (SPEC:
 * "System trade type default: coin").
 */
function useTradeType(): [TradeType, (type: TradeType) => void] {
  const [params, setParams] = useSearchParams();
  const fromUrl = params.get('type');
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(tradeTypeKey);
  } catch {
    // storage unavailable
  }
  const chosen = fromUrl ?? stored;
  const type: TradeType = chosen === 'stock' || chosen === 'contract' || chosen === 'option' ? chosen : 'crypto';
  const choose = (next: TradeType) => {
    try {
      localStorage.setItem(tradeTypeKey, next);
    } catch {
      // storage unavailable: the choice lasts while the link does
    }
    const copy = new URLSearchParams(params);
    copy.set('type', next);
    copy.delete('symbol');
    copy.delete('side');
    setParams(copy, { replace: true });
  };
  return [type, choose];
}

export function TradePage() {
  const { t } = useTranslation();
  const [type, setType] = useTradeType();
  const switcher = (
    <div className="markets-top">
      <Segmented
        value={type}
        onChange={setType}
        label={t('spot.tradeType')}
        testId="trade-type"
        options={[
          { value: 'crypto', label: t('spot.crypto') },
          { value: 'contract', label: t('perp.contracts') },
          { value: 'stock', label: t('spot.stocks') },
          { value: 'option', label: t('options.tab') },
        ]}
      />
    </div>
  );
  if (type === 'stock') return <TradeHome titleKey="titles.tabbar.trade" hasTabBar top={switcher} />;
  return (
    <Page title={t('titles.tabbar.trade')} left="menu" hasTabBar className="spot-page">
      <Suspense
        fallback={
          <>
            {switcher}
            <SkeletonRows count={4} height={80} />
          </>
        }
      >
        {type === 'contract' ? (
          <PerpTradingScreen top={switcher} />
        ) : type === 'option' ? (
          <OptionsTradeScreen top={switcher} />
        ) : (
          <SpotTradingScreen top={switcher} />
        )}
      </Suspense>
    </Page>
  );
}
export const StockIndexPage = () => <TradeHome titleKey="titles.stock.index" hasTabBar={false} />;

export function PositionPage() {
  const { t } = useTranslation();
  const session = useSession();
  useAccountLive(session.token);
  const isSignedIn = Boolean(session.token);
  const queryClient = useQueryClient();
  return (
    <Page title={t('titles.tabbar.position')} left="back">
      {!isSignedIn ? (
        <SignInPrompt messageKey="trading.signInToTrade" />
      ) : (
        <PullToRefresh
          onRefresh={() => queryClient.invalidateQueries({ queryKey: tradingKeys.holdings })}
          {...pullTexts(t)}
        >
          <HoldingsList isSignedIn={isSignedIn} />
        </PullToRefresh>
      )}
    </Page>
  );
}

function OrderList({ status, onOpen }: { status: 'open' | 'history'; onOpen: (order: StockOrderView) => void }) {
  const { t } = useTranslation();
  const orders = useInfiniteQuery({
    queryKey: tradingKeys.orders(status),
    queryFn: ({ pageParam }) => fetchOrders(status, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.items.length, 0) < last.total && last.items.length > 0
        ? pages.length + 1
        : undefined,
    refetchInterval: status === 'open' ? 5_000 : false,
  });
  const items = orders.data?.pages.flatMap((p) => p.items) ?? [];
  const loadMore = () => {
    if (orders.hasNextPage && !orders.isFetchingNextPage) void orders.fetchNextPage();
  };
  const sentinel = useSentinel(loadMore, Boolean(orders.hasNextPage) && !orders.isFetchNextPageError);
  if (orders.isPending) return <SkeletonRows count={5} height={72} />;
  if (orders.isError) return <ErrorState onRetry={() => void orders.refetch()} />;
  if (items.length === 0) {
    return (
      <EmptyState
        title={t(status === 'open' ? 'trading.noOpenOrders' : 'trading.noHistory')}
        hint={t(status === 'open' ? 'trading.noOpenOrdersHint' : 'trading.noHistoryHint')}
        action={
          <Link className="btn btn--primary" to="/pages/tabbar/markets">
            {t('trading.browseMarkets')}
          </Link>
        }
      />
    );
  }
  return (
    <PullToRefresh onRefresh={() => orders.refetch().then(() => undefined)} {...pullTexts(t)}>
      <ul className="orders" data-testid="order-list">
        {items.map((order) => (
          <OrderRow
            key={order.id}
            order={order}
            onOpen={onOpen}
            action={isOpenStatus(order.status) ? <CancelButton order={order} /> : undefined}
          />
        ))}
      </ul>
      <div ref={sentinel} />
      <LoadMoreFooter state={loadMoreState(orders)} onMore={loadMore} />
    </PullToRefresh>
  );
}

export function OrderListPage() {
  const { t } = useTranslation();
  const session = useSession();
  useAccountLive(session.token);
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'history' ? 'history' : 'open';
  const [detail, setDetail] = useState<StockOrderView | null>(null);
  return (
    <Page title={t('titles.stock.list')}>
      {!session.token ? (
        <SignInPrompt messageKey="trading.signInToTrade" />
      ) : (
        <>
          <div className="markets-top">
            <Segmented
              value={tab}
              onChange={(value) => setParams({ tab: value }, { replace: true })}
              label={t('titles.stock.list')}
              testId="order-tabs"
              options={[
                { value: 'open', label: t('trading.openOrders') },
                { value: 'history', label: t('trading.history') },
              ]}
            />
          </div>
          <OrderList key={tab} status={tab} onOpen={setDetail} />
        </>
      )}
      <OrderDetailSheet order={detail} onClose={() => setDetail(null)} />
    </Page>
  );
}

const knownCauses = [
  'trade',
  'fee',
  'paper_grant',
  'deposit',
  'withdrawal',
  'refund',
  'adjustment',
  'transfer',
  'dividend',
  'allotment',
  'option',
];

export function StockFundsDetailPage() {
  const { t } = useTranslation();
  const session = useSession();
  const language = currentLanguage();
  const ledger = useInfiniteQuery({
    queryKey: tradingKeys.ledger('stock'),
    queryFn: ({ pageParam }) =>
      apiGet<Paged<TransferView>>('/user/tx/record', { wallet: 'stock', page: pageParam, limit: 30 }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.items.length, 0) < last.total && last.items.length > 0
        ? pages.length + 1
        : undefined,
    enabled: Boolean(session.token),
  });
  const items = ledger.data?.pages.flatMap((p) => p.items) ?? [];
  const loadMore = () => {
    if (ledger.hasNextPage && !ledger.isFetchingNextPage) void ledger.fetchNextPage();
  };
  const sentinel = useSentinel(loadMore, Boolean(ledger.hasNextPage) && !ledger.isFetchNextPageError);
  // One clock for the whole statement: the deployment's stock market (SPEC §9 shows Indian time by default).
  const props = usePlatformProps();
  const timeZone = marketFormats[props.data?.stockCountry ?? 'IN'].timeZone;
  const causeLabel = (cause: string) =>
    knownCauses.includes(cause) ? t(`trading.causes.${cause}`) : cause.replace(/_/g, ' ');
  return (
    <Page title={t('titles.fundsDetail.stockFundsDetail')}>
      {!session.token ? (
        <SignInPrompt />
      ) : ledger.isPending ? (
        <SkeletonRows count={6} />
      ) : ledger.isError ? (
        <ErrorState onRetry={() => void ledger.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={t('trading.noLedger')} hint={t('trading.noLedgerHint')} />
      ) : (
        <>
          <p className="section-hint">{t('trading.ledgerHint')}</p>
          {groupByDay(items, timeZone).map((group) => (
            <section key={group.day} aria-label={group.day}>
              <h2 className="day-head tabular">{group.day}</h2>
              <ul className="ledger" data-testid="ledger">
                {group.items.map((line) => (
                  <li key={line.id} className="ledger-row">
                    <span className="ledger-row__body">
                      <span
                        className={`cause-tag cause-tag--${knownCauses.includes(line.cause) ? line.cause : 'other'}`}
                      >
                        {causeLabel(line.cause)}
                      </span>
                      <span className="ledger-row__time tabular">
                        {formatDateTime(line.at, timeZone).slice(11)}
                        {line.link ? ` · ${line.link}` : ''}
                      </span>
                    </span>
                    <span className={`ledger-row__amount tabular ${pnlClass(line.amount)}`}>
                      {formatAmount(line.amount, line.asset, language, { signDisplay: 'exceptZero' })}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          ))}
          <div ref={sentinel} />
          <LoadMoreFooter state={loadMoreState(ledger)} onMore={loadMore} />
        </>
      )}
    </Page>
  );
}

export function IncomePage() {
  const { t } = useTranslation();
  const session = useSession();
  const language = currentLanguage();
  const isSignedIn = Boolean(session.token);
  const holdings = useHoldings(isSignedIn);
  const stats = useQuery({
    queryKey: tradingKeys.statistics,
    queryFn: () => apiGet<OrderStatisticsView>('/stock/order/statistics'),
    enabled: isSignedIn,
  });
  const items = (holdings.data?.items ?? []).filter(
    (h) => compareDecimal(h.realizedPnl, '0') !== 0 || compareDecimal(h.quantity, '0') > 0,
  );
  const currencies = [...new Set(items.map((h) => h.currency))];
  return (
    <Page title={t('titles.stock.income')}>
      {!isSignedIn ? (
        <SignInPrompt />
      ) : holdings.isPending ? (
        <SkeletonRows count={4} />
      ) : holdings.isError ? (
        <ErrorState onRetry={() => void holdings.refetch()} />
      ) : (
        <>
          <div className="account-cards">
            {currencies.length === 0 ? (
              <EmptyState title={t('trading.noIncome')} hint={t('trading.noIncomeHint')} />
            ) : (
              currencies.map((currency) => {
                const own = items.filter((h) => h.currency === currency);
                const realized = sumDecimals(own.map((h) => h.realizedPnl));
                const floating = sumDecimals(own.map((h) => h.floatingPnl));
                return (
                  <section key={currency} className="account-card-x" data-testid="income-card">
                    <p className="account-card-x__label">
                      {t('trading.realizedPnl')} · {currency}
                    </p>
                    <p className={`account-card-x__total tabular ${pnlClass(realized)}`}>
                      <Amount
                        full={formatAmount(realized, currency, language, { signDisplay: 'exceptZero' })}
                        compact={formatAmountCompact(realized, currency, language, { signDisplay: 'exceptZero' })}
                      />
                    </p>
                    <dl className="account-card-x__grid">
                      <div>
                        <dt>{t('trading.floatingPnl')}</dt>
                        <dd className={`tabular ${pnlClass(floating)}`}>
                          <Amount
                            full={formatAmount(floating, currency, language, { signDisplay: 'exceptZero' })}
                            compact={formatAmountCompact(floating, currency, language, { signDisplay: 'exceptZero' })}
                          />
                        </dd>
                      </div>
                      <div>
                        <dt>{t('trading.turnover')}</dt>
                        <dd className="tabular">
                          <Amount
                            full={formatAmount(stats.data?.turnover[currency] ?? '0', currency, language)}
                            compact={formatAmountCompact(stats.data?.turnover[currency] ?? '0', currency, language)}
                          />
                        </dd>
                      </div>
                    </dl>
                  </section>
                );
              })
            )}
          </div>
          {stats.data && (
            <dl className="stats-row" data-testid="order-stats">
              <div>
                <dt>{t('trading.ordersCount')}</dt>
                <dd className="tabular">{stats.data.orders}</dd>
              </div>
              <div>
                <dt>{t('trading.completedCount')}</dt>
                <dd className="tabular">{stats.data.completed}</dd>
              </div>
              <div>
                <dt>{t('trading.cancelledCount')}</dt>
                <dd className="tabular">{stats.data.cancelled}</dd>
              </div>
            </dl>
          )}
          {items.length > 0 && (
            <>
              <h2 className="section-title">{t('trading.byHolding')}</h2>
              <ul className="list">
                {items.map((h) => (
                  <li key={h.symbol}>
                    <Link className="list-row" to={`/pages/stock/stockKline?symbol=${encodeURIComponent(h.symbol)}`}>
                      <span className="list-row__label">
                        <b>{h.symbol}</b> <span className="muted">{h.name}</span>
                      </span>
                      <span className={`tabular ${pnlClass(h.realizedPnl)}`}>
                        {formatAmount(h.realizedPnl, h.currency, language, { signDisplay: 'exceptZero' })}
                      </span>
                      <ChevronRightIcon size={18} />
                    </Link>
                  </li>
                ))}
              </ul>
            </>
          )}
          <p className="section-hint">{t('trading.incomeHint')}</p>
        </>
      )}
    </Page>
  );
}
