// The robots (the MF tab; SPEC robot/*): list (approved robots with their terms and a labelled, measured
// past figure), detail?id= (terms, parameters, the back-test labelled as such, finished runs, and the
// start sheet with the amount and the transaction password), record (the customer's runs) and
// orderDetail?id= (a run's figures, its open orders and every trade; add capital, stop). No text here
// promises a return: a past rate is shown only with its source and period. Amounts are the server's
// exact decimal strings, compared with @bourse/money. A stock robot (market 'stock') shows its amounts in
// the market's currency, share quantities, its exchange's session ("market closed — idle until …"),
// shares locked until settlement, and is stopped only while its market is open.

import type {
  AiInfoView,
  AiListView,
  AiOrderDetailsView,
  AiOrderListView,
  AiProductItem,
  AiRunResult,
  MeasuredReturn,
  RobotRunView,
  RobotSessionView,
} from '@bourse/contract';
import { tryParseDecimal } from '@bourse/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiPost } from '../../app/api.ts';
import { newIdempotencyKey } from '../../app/request.ts';
import { useSession } from '../../app/session.ts';
import { ChevronRightIcon, ListIcon } from '../../app/shell/icons.tsx';
import { PasscodeConfirmSheet } from '../../app/shell/order-entry.tsx';
import { Page } from '../../app/shell/page.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { formatAmount } from '../../lib/market-format.ts';
import { RequireLogin } from '../accounts/security-page.tsx';
import { EmptyState, ErrorState, SkeletonRows } from '../markets/market-ui.tsx';
import { FundCard, FundDetail, FundOrderDetail, FundOrderList } from './fund-pages.tsx';
import './robots.css';

const keys = {
  list: ['robots', 'list'] as const,
  info: (id: string) => ['robots', 'info', id] as const,
  runs: ['robots', 'runs'] as const,
  run: (id: string) => ['robots', 'run', id] as const,
};

const money = (value: string, currency = 'USDT') => formatAmount(value, currency, currentLanguage(), { digits: 2 });
const signed = (value: string, currency = 'USDT') =>
  formatAmount(value, currency, currentLanguage(), { digits: 2, signDisplay: 'exceptZero' });
const day = (ms: number) => new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium' }).format(ms);
const moment = (ms: number) =>
  new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
const percent = (value: string) =>
  `${Number(value) > 0 ? '+' : ''}${Number(value).toLocaleString(currentLanguage(), { minimumFractionDigits: 2, maximumFractionDigits: 2 })}%`;
/** Decimals of the currency, read from an amount the server formatted (USDT 6, INR/USD/BRL 2). */
const scaleOf = (sample: string) => sample.split('.')[1]?.length ?? 0;
const minor = (text: string, scale: number) => {
  const parsed = tryParseDecimal(text.trim(), scale);
  return parsed.ok ? parsed.minor : null;
};
/** A stock's exchange, from its id ("NSE:RELIANCE" → "NSE"). */
const exchangeOf = (symbol: string) => symbol.split(':')[0] ?? symbol;

/** A quantity of the run's base: shares for a stock, the coin's code for crypto. */
function useQuantity() {
  const { t } = useTranslation();
  return (market: 'crypto' | 'stock', quantity: string, base: string) =>
    market === 'stock'
      ? t('robots.sharesValue', { count: Number(quantity) })
      : `${Number(quantity).toLocaleString(currentLanguage(), { maximumFractionDigits: 8 })} ${base}`;
}

/** A stock's exchange closed: the robot is idle until the next open (its period keeps counting). */
function ClosedNotice({ session }: { session: RobotSessionView | null }) {
  const { t } = useTranslation();
  if (!session || session.open) return null;
  return (
    <p className="rbt-closed" role="status" data-testid="robot-closed">
      {session.nextOpenMs === null
        ? t('robots.closedIdleNoDate')
        : t('robots.closedIdle', { open: moment(session.nextOpenMs) })}
    </p>
  );
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="rbt-row" data-testid={testId}>
      <dt>{label}</dt>
      <dd className="tabular">{children}</dd>
    </div>
  );
}

function Chip({ kind, children }: { kind: string; children: ReactNode }) {
  return <span className={`rbt-chip rbt-chip--${kind}`}>{children}</span>;
}

/** A measured past figure: always with its source label and its period. */
function Past({ past }: { past: MeasuredReturn | null }) {
  const { t } = useTranslation();
  if (!past) return <span className="rbt-past rbt-past--none">{t('robots.noPast')}</span>;
  return (
    <span className="rbt-past" data-testid="robot-past">
      <span className="rbt-past__figure">
        {t('robots.pastDaily')}: <strong className="tabular">{percent(past.dailyPercent)}</strong>
      </span>
      <span className="rbt-past__label">{t(`robots.pastSource.${past.source}`)}</span>
      <span className="rbt-past__period">{t('robots.pastPeriod', { from: day(past.fromMs), to: day(past.toMs) })}</span>
    </span>
  );
}

// --- robot/list -------------------------------------------------------------------------------------

function RobotCard({ item }: { item: AiProductItem }) {
  const { t } = useTranslation();
  return (
    <li>
      <Link className="rbt-card" to={`/pages/robot/detail?id=${item.id}`} data-testid="robot-card">
        <span className="rbt-card__top">
          <span className="rbt-card__name">
            <strong>{item.name}</strong>
            <span className="muted">
              {item.symbol} · {t(`robots.marketShort.${item.market}`)}
            </span>
          </span>
          <Chip kind={item.strategy}>{t(`robots.strategy.${item.strategy}`)}</Chip>
        </span>
        <span className="rbt-card__grid tabular">
          <span>
            <span className="rbt-label">{t('robots.level')}</span>
            {t('robots.levelValue', { level: item.level })}
          </span>
          <span>
            <span className="rbt-label">{t('robots.period')}</span>
            {t('robots.periodValue', { count: item.periodDays })}
          </span>
          <span>
            <span className="rbt-label">{t('robots.minAmount')}</span>
            {money(item.minAmount, item.currency)}
          </span>
          <span>
            <span className="rbt-label">{t('robots.profitRatio')}</span>
            {item.profitRatio}%
          </span>
        </span>
        <span className="rbt-card__foot">
          <Past past={item.past} />
          <ChevronRightIcon size={16} />
        </span>
      </Link>
    </li>
  );
}

export function RobotListPage() {
  const { t } = useTranslation();
  const session = useSession();
  const list = useQuery({
    queryKey: keys.list,
    queryFn: () => apiPost<AiListView>('/stock/ai/list', undefined, { isBackground: true }),
    refetchInterval: 30_000,
  });
  return (
    <Page title={t('titles.robot.list')} left="menu" hasTabBar>
      <p className="section-hint">{t('robots.intro')}</p>
      {session.token && (
        <div className="list">
          <Link className="list-row" to="/pages/robot/record" data-testid="robot-my-runs">
            <span className="menu-row__icon">
              <ListIcon />
            </span>
            <span className="list-row__label">{t('robots.myRuns')}</span>
            <ChevronRightIcon size={18} />
          </Link>
        </div>
      )}
      {list.isPending ? (
        <SkeletonRows count={3} height={120} />
      ) : list.isError ? (
        <ErrorState onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <EmptyState title={t('robots.empty')} />
      ) : (
        <>
          <ul className="rbt-list" data-testid="robot-list">
            {list.data.items.map((item) =>
              item.kind === 'robot' ? <RobotCard key={`${item.kind}:${item.id}`} item={item} /> : null,
            )}
          </ul>
          {list.data.items.some((item) => item.kind === 'fund') && (
            <>
              <h2 className="day-head">{t('aiFunds.section')}</h2>
              <p className="section-hint">{t('aiFunds.intro')}</p>
              <ul className="rbt-list" data-testid="fund-list">
                {list.data.items.map((item) =>
                  item.kind === 'fund' ? <FundCard key={`${item.kind}:${item.id}`} item={item} /> : null,
                )}
              </ul>
            </>
          )}
        </>
      )}
      <p className="section-hint">{t('robots.disclaimer')}</p>
    </Page>
  );
}

// --- robot/detail -----------------------------------------------------------------------------------

function ParamRows({ info }: { info: AiInfoView }) {
  const { t } = useTranslation();
  const p = info.params;
  switch (p.kind) {
    case 'grid':
      return (
        <>
          <Row label={t('robots.param.lowPrice')}>{money(p.lowPrice, info.currency)}</Row>
          <Row label={t('robots.param.highPrice')}>{money(p.highPrice, info.currency)}</Row>
          <Row label={t('robots.param.levels')}>{p.levels}</Row>
        </>
      );
    case 'dca':
      return (
        <>
          <Row label={t('robots.param.everyMinutes')}>
            {t('robots.param.everyMinutesValue', { count: p.everyMinutes })}
          </Row>
          <Row label={t('robots.param.buyAmount')}>{money(p.buyAmount, info.currency)}</Row>
        </>
      );
    case 'trend':
      return (
        <>
          <Row label={t('robots.param.fastPeriod')}>{t('robots.param.closesValue', { count: p.fastPeriod })}</Row>
          <Row label={t('robots.param.slowPeriod')}>{t('robots.param.closesValue', { count: p.slowPeriod })}</Row>
        </>
      );
  }
}

function StartForm({ info }: { info: AiInfoView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState(String(Number(info.minAmount)));
  const [confirmKey, setConfirmKey] = useState<string | null>(null);
  const scale = scaleOf(info.minAmount);
  const value = minor(amount, scale);
  const min = minor(info.minAmount, scale) as bigint;
  const max = minor(info.maxAmount, scale) as bigint;
  const isValid = value !== null && value >= min && value <= max;
  return (
    <section className="rbt-form" aria-label={t('robots.start')}>
      <label className="rbt-form__field">
        <span className="rbt-label">{t('robots.amount', { currency: info.currency })}</span>
        <input
          className="rbt-input tabular"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value.replace(/[^\d.]/g, '').slice(0, 16))}
          data-testid="robot-amount"
        />
        <span className="rbt-hint">
          {t('robots.amountHint', {
            min: money(info.minAmount, info.currency),
            max: money(info.maxAmount, info.currency),
          })}
        </span>
      </label>
      {info.available !== null && (
        <dl className="rbt-rows">
          <Row label={t(`robots.available.${info.market}`)}>{money(info.available, info.currency)}</Row>
        </dl>
      )}
      <p className="rbt-fee-rule" data-testid="robot-fee-rule">
        {t('robots.feeRule', { ratio: info.profitRatio })}
      </p>
      <button
        type="button"
        className="btn btn--primary rbt-form__submit"
        disabled={!isValid}
        onClick={() => setConfirmKey(newIdempotencyKey())}
        data-testid="robot-start"
      >
        {t('robots.start')}
      </button>
      <PasscodeConfirmSheet
        isOpen={confirmKey !== null}
        orderKey={confirmKey ?? ''}
        rows={[
          [info.name, t(`robots.strategy.${info.strategy}`)],
          [t('robots.amount', { currency: info.currency }), money(amount, info.currency)],
          [t('robots.period'), t('robots.periodValue', { count: info.periodDays })],
          [t('robots.profitRatio'), t('robots.profitRatioValue', { ratio: info.profitRatio })],
        ]}
        notice={<p className="confirm__notice">{t('robots.disclaimer')}</p>}
        submit={(password, clientOrderId) =>
          apiPost<AiRunResult>(
            '/stock/ai/buy',
            { id: info.id, amount, password, clientOrderId },
            { isSilent: true, idempotencyKey: clientOrderId },
          )
        }
        onDone={(result) => {
          setConfirmKey(null);
          Toast.show({ content: t('robots.started') });
          void queryClient.invalidateQueries({ queryKey: ['robots'] });
          void queryClient.invalidateQueries({ queryKey: ['user'] });
          navigate(`/pages/robot/orderDetail?id=${result.run.id}`);
        }}
        onClose={() => setConfirmKey(null)}
      />
    </section>
  );
}

function RobotDetail({ id }: { id: string }) {
  const { t } = useTranslation();
  const info = useQuery({
    queryKey: keys.info(id),
    queryFn: () => apiPost<AiInfoView>('/stock/ai/info', { id }),
  });
  if (info.isPending) return <SkeletonRows count={8} />;
  if (info.isError) return <ErrorState onRetry={() => void info.refetch()} />;
  const d = info.data;
  const bt = d.backtest;
  return (
    <div className="padded">
      <div className="rbt-card__top rbt-head">
        <span className="rbt-card__name">
          <strong>{d.name}</strong>
          <span className="muted">{d.symbol}</span>
        </span>
        <Chip kind={d.strategy}>{t(`robots.strategy.${d.strategy}`)}</Chip>
      </div>
      <p className="section-hint rbt-flush">
        {t(d.market === 'stock' ? `robots.strategyHintStock.${d.strategy}` : `robots.strategyHint.${d.strategy}`)}
      </p>
      <ClosedNotice session={d.session} />
      {d.market === 'stock' && <p className="section-hint rbt-flush">{t('robots.stockRules')}</p>}
      <h2 className="day-head">{t('robots.terms')}</h2>
      <dl className="rbt-rows" data-testid="robot-terms">
        <Row label={t('robots.market')}>
          {d.market === 'stock'
            ? t('robots.marketValue.stock', { exchange: exchangeOf(d.symbol) })
            : t('robots.marketValue.crypto')}
        </Row>
        <Row label={t(d.market === 'stock' ? 'robots.stock' : 'robots.pair')}>{d.symbol}</Row>
        <Row label={t('robots.level')}>{t('robots.levelValue', { level: d.level })}</Row>
        <Row label={t('robots.period')}>{t('robots.periodValue', { count: d.periodDays })}</Row>
        <Row label={t('robots.minAmount')}>{money(d.minAmount, d.currency)}</Row>
        <Row label={t('robots.maxAmount')}>{money(d.maxAmount, d.currency)}</Row>
        <Row label={t('robots.profitRatio')}>{t('robots.profitRatioValue', { ratio: d.profitRatio })}</Row>
        <Row label={t('robots.tradingFees')}>
          {t('robots.tradingFeesValue', { maker: d.makerFeeBps / 100, taker: d.takerFeeBps / 100 })}
        </Row>
      </dl>
      <h2 className="day-head">{t('robots.params')}</h2>
      <dl className="rbt-rows">
        <ParamRows info={d} />
      </dl>
      <h2 className="day-head">{t('robots.backtest')}</h2>
      <section className="rbt-backtest" data-testid="robot-backtest">
        <p className="rbt-backtest__label">{t('robots.backtestLabel')}</p>
        {bt ? (
          <>
            <p className="rbt-hint">{t('robots.backtestIntro', { amount: money(bt.start, d.currency) })}</p>
            <p className="rbt-hint">{t('robots.pastPeriod', { from: day(bt.fromMs), to: day(bt.toMs) })}</p>
            <dl className="rbt-rows">
              <Row label={t('robots.btStart')}>{money(bt.start, d.currency)}</Row>
              <Row label={t('robots.btEnd')}>{money(bt.end, d.currency)}</Row>
              <Row label={t('robots.btTotal')}>{percent(bt.totalPercent)}</Row>
              <Row label={t('robots.btDaily')}>{percent(bt.dailyPercent)}</Row>
              <Row label={t('robots.btDrawdown')}>{percent(`-${bt.maxDrawdownPercent}`)}</Row>
              <Row label={t('robots.btTrades')}>{bt.trades}</Row>
              <Row label={t('robots.btFees')}>{money(bt.fees, d.currency)}</Row>
            </dl>
          </>
        ) : (
          <p className="rbt-hint">{t('robots.noBacktest')}</p>
        )}
      </section>
      {d.realized && (
        <>
          <h2 className="day-head">{t('robots.realizedTitle')}</h2>
          <p className="rbt-hint">{t('robots.pastSource.realized')}</p>
          <dl className="rbt-rows" data-testid="robot-realized">
            <Row label={t('robots.realizedRuns')}>{d.realized.runs}</Row>
            <Row label={t('robots.realizedCapital')}>{money(d.realized.capital, d.currency)}</Row>
            <Row label={t('robots.realizedReturned')}>{money(d.realized.returned, d.currency)}</Row>
            <Row label={t('robots.btTotal')}>{percent(d.realized.totalPercent)}</Row>
          </dl>
        </>
      )}
      <StartForm info={d} />
      <p className="section-hint rbt-flush">{t('robots.disclaimer')}</p>
    </div>
  );
}

const isId = (id: string) => /^\d{1,15}$/.test(id);

export function RobotDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const isFund = params.get('kind') === 'fund';
  return (
    <RequireLogin>
      <Page title={isFund ? t('titles.fund.detail') : t('titles.robot.detail')}>
        {!isId(id) ? (
          <EmptyState title={t('robots.empty')} />
        ) : isFund ? (
          <FundDetail id={id} />
        ) : (
          <RobotDetail id={id} />
        )}
      </Page>
    </RequireLogin>
  );
}

// --- robot/record -----------------------------------------------------------------------------------

function RunCard({ run }: { run: RobotRunView }) {
  const { t } = useTranslation();
  const quantity = useQuantity();
  const ended = run.returned !== null;
  // What comes back unsold besides the money: shares (or coin) returned, or locked shares still to come.
  const extra = run.returnedQuantity ?? (run.status === 'stopping' ? run.lockedQuantity : '0');
  return (
    <li>
      <Link className="rbt-card" to={`/pages/robot/orderDetail?id=${run.id}`} data-testid="robot-run">
        <span className="rbt-card__top">
          <span className="rbt-card__name">
            <strong>{run.name}</strong>
            <span className="muted">
              {run.symbol} · {moment(run.startedAt)}
            </span>
          </span>
          <Chip kind={run.status}>{t(`robots.status.${run.status}`)}</Chip>
        </span>
        <span className="rbt-card__grid tabular">
          <span>
            <span className="rbt-label">{t('robots.capital')}</span>
            {money(run.capital, run.currency)}
          </span>
          <span>
            <span className="rbt-label">{ended ? t('robots.returned') : t('robots.value')}</span>
            {money(ended ? (run.returned as string) : run.currentValue, run.currency)}
            {ended && Number(extra) > 0 && ` + ${quantity(run.market, extra, run.base)}`}
          </span>
          <span>
            <span className="rbt-label">{t('robots.realized')}</span>
            {signed(run.realizedPnl, run.currency)}
          </span>
          <span>
            <span className="rbt-label">{t('robots.trades')}</span>
            {run.trades}
          </span>
        </span>
      </Link>
    </li>
  );
}

export function RobotRecordPage() {
  const { t } = useTranslation();
  const runs = useQuery({
    queryKey: keys.runs,
    queryFn: () => apiPost<AiOrderListView>('/stock/ai/order/list', { status: 'all', page: 1, limit: 50 }),
    refetchInterval: 10_000,
  });
  return (
    <RequireLogin>
      <Page title={t('titles.robot.record')}>
        {runs.isPending ? (
          <SkeletonRows count={3} height={120} />
        ) : runs.isError ? (
          <ErrorState onRetry={() => void runs.refetch()} />
        ) : runs.data.items.length === 0 ? (
          <EmptyState
            title={t('robots.noRuns')}
            action={
              <Link className="btn btn--primary" to="/pages/robot/list">
                {t('titles.robot.list')}
              </Link>
            }
          />
        ) : (
          <ul className="rbt-list padded" data-testid="robot-runs">
            {runs.data.items.map((run) => (
              <RunCard key={run.id} run={run} />
            ))}
          </ul>
        )}
        <FundOrderList />
      </Page>
    </RequireLogin>
  );
}

// --- robot/orderDetail ------------------------------------------------------------------------------

function RunFigures({ run }: { run: RobotRunView }) {
  const { t } = useTranslation();
  const quantity = useQuantity();
  const ended = run.returned !== null;
  const locked = Number(run.lockedQuantity) > 0;
  return (
    <dl className="rbt-rows" data-testid="robot-figures">
      <Row label={t('robots.capital')}>{money(run.capital, run.currency)}</Row>
      <Row label={ended ? t('robots.endValue') : t('robots.value')} testId="robot-value">
        {money(run.currentValue, run.currency)}
      </Row>
      <Row label={t('robots.realized')}>{signed(run.realizedPnl, run.currency)}</Row>
      {!ended && <Row label={t('robots.unrealized')}>{signed(run.unrealizedPnl, run.currency)}</Row>}
      <Row label={t('robots.fees')}>{money(run.fees, run.currency)}</Row>
      <Row label={ended ? t('robots.perfFee') : t('robots.perfFeeNow')}>{money(run.performanceFee, run.currency)}</Row>
      {ended && (
        <Row label={t('robots.returned')} testId="robot-returned">
          {money(run.returned as string, run.currency)}
        </Row>
      )}
      {ended && run.returnedQuantity !== null && Number(run.returnedQuantity) > 0 && (
        <Row label={t(`robots.returnedAs.${run.market}`)} testId="robot-returned-quantity">
          {quantity(run.market, run.returnedQuantity, run.base)}
        </Row>
      )}
      {!ended && (
        <Row label={t('robots.holding')}>
          {quantity(run.market, run.baseQuantity, run.base)} + {money(run.quoteBalance, run.currency)}
        </Row>
      )}
      {locked && (
        <Row label={t('robots.locked')} testId="robot-locked">
          {t('robots.lockedValue', {
            count: Number(run.lockedQuantity),
            date: run.unlocksAt === null ? '' : moment(run.unlocksAt),
          })}
        </Row>
      )}
      <Row label={t('robots.feeTerms')}>{t('robots.profitRatioValue', { ratio: run.profitRatio })}</Row>
      <Row label={t('robots.startedAt')}>{moment(run.startedAt)}</Row>
      {run.endedAt !== null ? (
        <Row label={t('robots.endedAt')}>
          {moment(run.endedAt)}
          {run.endReason ? ` · ${t(`robots.endReason.${run.endReason}`)}` : ''}
        </Row>
      ) : (
        <Row label={t('robots.endsAt')}>{moment(run.endsAt)}</Row>
      )}
    </dl>
  );
}

function RunActions({ run, onChanged }: { run: RobotRunView; onChanged: () => void }) {
  const { t } = useTranslation();
  const [sheet, setSheet] = useState<{ kind: 'stop' | 'add'; key: string } | null>(null);
  const [amount, setAmount] = useState('');
  const scale = scaleOf(run.capital);
  const room = (minor(run.maxAmount, scale) ?? 0n) - (minor(run.capital, scale) ?? 0n);
  const value = minor(amount, scale);
  // A stock robot is stopped by a sale at market: only while its exchange is open.
  const closed = run.session !== null && !run.session.open;
  const canAdd = value !== null && value > 0n && value <= room;
  if (run.status !== 'running') return null;
  return (
    <section className="rbt-form">
      {room > 0n && (
        <label className="rbt-form__field">
          <span className="rbt-label">{t('robots.add')}</span>
          <span className="rbt-inline">
            <input
              className="rbt-input tabular"
              inputMode="decimal"
              value={amount}
              placeholder="0"
              onChange={(e) => setAmount(e.target.value.replace(/[^\d.]/g, '').slice(0, 16))}
              data-testid="robot-add-amount"
            />
            <button
              type="button"
              className="btn btn--outline"
              disabled={!canAdd}
              onClick={() => setSheet({ kind: 'add', key: newIdempotencyKey() })}
              data-testid="robot-add"
            >
              {t('robots.add')}
            </button>
          </span>
          <span className="rbt-hint">{t('robots.addHint', { max: money(run.maxAmount, run.currency) })}</span>
        </label>
      )}
      <button
        type="button"
        className="btn btn--primary rbt-form__submit rbt-stop"
        disabled={closed}
        onClick={() => setSheet({ kind: 'stop', key: newIdempotencyKey() })}
        data-testid="robot-stop"
      >
        {t('robots.stop')}
      </button>
      {closed && <span className="rbt-hint">{t('robots.stopWhenOpen')}</span>}
      <PasscodeConfirmSheet
        isOpen={sheet !== null}
        orderKey={sheet?.key ?? ''}
        rows={
          sheet?.kind === 'add'
            ? [
                [run.name, run.symbol],
                [t('robots.add'), money(amount, run.currency)],
              ]
            : [
                [run.name, run.symbol],
                [t('robots.value'), money(run.currentValue, run.currency)],
                [t('robots.perfFeeNow'), money(run.performanceFee, run.currency)],
              ]
        }
        notice={
          <p className="confirm__notice">
            {sheet?.kind === 'stop' ? t(`robots.stopNotice.${run.market}`) : t('robots.disclaimer')}
          </p>
        }
        submit={(password, clientOrderId) =>
          sheet?.kind === 'add'
            ? apiPost<AiRunResult>(
                '/stock/ai/order/add/amount',
                { id: run.id, amount, password, clientOrderId },
                { isSilent: true, idempotencyKey: clientOrderId },
              )
            : apiPost<AiRunResult>('/stock/ai/order/stop', { id: run.id, password }, { isSilent: true })
        }
        onDone={() => {
          Toast.show({ content: sheet?.kind === 'add' ? t('robots.added') : t('robots.stopped') });
          setSheet(null);
          setAmount('');
          onChanged();
        }}
        onClose={() => setSheet(null)}
      />
    </section>
  );
}

function RunDetail({ id }: { id: string }) {
  const { t } = useTranslation();
  const quantity = useQuantity();
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: keys.run(id),
    queryFn: () => apiPost<AiOrderDetailsView>('/stock/ai/order/details', { id, page: 1, limit: 100 }),
    refetchInterval: 5_000,
  });
  if (detail.isPending) return <SkeletonRows count={8} />;
  if (detail.isError) return <ErrorState onRetry={() => void detail.refetch()} />;
  const { run, trades, openOrders, totalTrades } = detail.data;
  return (
    <div className="padded">
      <div className="rbt-card__top rbt-head">
        <span className="rbt-card__name">
          <strong>{run.name}</strong>
          <span className="muted">
            {run.symbol} · {t(`robots.strategy.${run.strategy}`)}
          </span>
        </span>
        <span data-testid="robot-status">
          <Chip kind={run.status}>{t(`robots.status.${run.status}`)}</Chip>
        </span>
      </div>
      <ClosedNotice session={run.session} />
      {run.status === 'stopping' && Number(run.lockedQuantity) > 0 && (
        <p className="rbt-closed" role="status" data-testid="robot-stopping-locked">
          {t('robots.stoppingLocked', {
            count: Number(run.lockedQuantity),
            date: run.unlocksAt === null ? '' : moment(run.unlocksAt),
          })}
        </p>
      )}
      <RunFigures run={run} />
      <RunActions
        run={run}
        onChanged={() => {
          void queryClient.invalidateQueries({ queryKey: ['robots'] });
          void queryClient.invalidateQueries({ queryKey: ['user'] });
        }}
      />
      {openOrders.length > 0 && (
        <>
          <h2 className="day-head">{t('robots.openOrders')}</h2>
          <ul className="rbt-trades" data-testid="robot-open-orders">
            {openOrders.map((o) => (
              <li key={o.id} className="rbt-trade">
                <span className={`rbt-side rbt-side--${o.side}`}>{t(`robots.side.${o.side}`)}</span>
                <span className="tabular">{money(o.price, run.currency)}</span>
                <span className="tabular">{quantity(run.market, o.quantity, run.base)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <h2 className="day-head">
        {t('robots.trades')} ({totalTrades})
      </h2>
      {trades.length === 0 ? (
        <p className="rbt-hint">{t('robots.noTrades')}</p>
      ) : (
        <ul className="rbt-trades" data-testid="robot-trades">
          {trades.map((tr) => (
            <li key={tr.id} className="rbt-trade" data-testid="robot-trade">
              <span className={`rbt-side rbt-side--${tr.side}`}>{t(`robots.side.${tr.side}`)}</span>
              <span className="rbt-trade__main tabular">
                <span>
                  {quantity(run.market, tr.quantity, run.base)} @ {money(tr.price, run.currency)}
                </span>
                <span className="muted">
                  {moment(tr.time)} · {t(`robots.liquidity.${tr.liquidity}`)} · {money(tr.fee, run.currency)}
                </span>
              </span>
              <span className="tabular">{money(tr.amount, run.currency)}</span>
            </li>
          ))}
        </ul>
      )}
      <p className="section-hint rbt-flush">{t('robots.disclaimer')}</p>
    </div>
  );
}

export function RobotOrderDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const isFund = params.get('kind') === 'fund';
  return (
    <RequireLogin>
      <Page title={isFund ? t('titles.fund.orderDetail') : t('titles.robot.orderDetail')}>
        {!isId(id) ? (
          <EmptyState title={t('robots.noRuns')} />
        ) : isFund ? (
          <FundOrderDetail id={id} />
        ) : (
          <RunDetail id={id} />
        )}
      </Page>
    </RequireLogin>
  );
}
