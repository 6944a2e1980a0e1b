// The options screens (PRODUCT.md "Options", decision 0034): the chain (underlying and expiry pickers,
// calls | puts with the market maker's bid and ask; a row opens the order), the order (contracts,
// premium, fee, breakeven, the most one can lose, confirmed with the 6-digit transaction password), the
// open positions (premium paid, value at the bid, P&L, Greeks, breakeven, close early), the history and
// the rule page. The chain is also the Trade tab's "Options" view (OptionsTradeScreen).
// Must not: promise a return; every screen carries the risk notice.

import type { OptionChainView, OptionPositionView, OptionQuoteView, OptionResult } from '@bourse/contract';
import { Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiPost } from '../../app/api.ts';
import { newIdempotencyKey } from '../../app/request.ts';
import { useSession } from '../../app/session.ts';
import { PasscodeConfirmSheet, Stepper } from '../../app/shell/order-entry.tsx';
import { Page } from '../../app/shell/page.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { formatAmount } from '../../lib/market-format.ts';
import { formatDate, formatDateTime } from '../../lib/time.ts';
import { EmptyState, ErrorState, Segmented, SkeletonRows } from '../markets/market-ui.tsx';
import { useStockBalances } from '../stocks/trading-api.ts';
import { SignInPrompt, timeZoneOfCurrency } from '../stocks/trading-ui.tsx';
import {
  optionCalls,
  optionPaths,
  useOptionChain,
  useOptionList,
  useOptionRule,
  useOptionStatistics,
  useOptionsRefresh,
} from './options-api.ts';
import { atLeast, atMost, isAtLeast, minorOf, parseContracts, premiumOf, seriesParts } from './options-math.ts';
import './options.css';

type Right = 'call' | 'put';

/** Decimals each Greek is shown with (gamma is small: four). */
const GREEK_DIGITS = { delta: 2, gamma: 4, theta: 2, vega: 2 } as const;

function useFormat(currency: string) {
  const language = currentLanguage();
  const zone = timeZoneOfCurrency(currency);
  return {
    money: (value: string | null | undefined) => formatAmount(value, currency, language),
    signed: (value: string | null | undefined) =>
      formatAmount(value, currency, language, { signDisplay: 'exceptZero' }),
    number: (value: string, digits = 2) =>
      new Intl.NumberFormat(language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
        Number(value),
      ),
    date: (ms: number) => formatDate(ms, zone),
    dateTime: (ms: number) => formatDateTime(ms, zone),
  };
}

const tone = (value: string | null | undefined) => {
  const minor = minorOf(value);
  return minor === null || minor === 0n ? '' : minor > 0n ? 'num--up' : 'num--down';
};

function RiskNotice() {
  const { t } = useTranslation();
  return (
    <p className="opt-notice" data-testid="options-risk">
      {t('options.riskNotice')}
    </p>
  );
}

function OptionLinks() {
  const { t } = useTranslation();
  return (
    <nav className="opt-links" aria-label={t('options.tab')}>
      <Link className="chip-button" to={optionPaths.positions} data-testid="options-positions-link">
        {t('options.positions')}
      </Link>
      <Link className="chip-button" to={optionPaths.history}>
        {t('options.history')}
      </Link>
      <Link className="chip-button" to={optionPaths.rule} data-testid="options-rule-link">
        {t('options.rule')}
      </Link>
    </nav>
  );
}

function Chips<T extends string>({
  value,
  options,
  onChange,
  label,
  testId,
}: {
  value: T;
  options: readonly { value: T; label: ReactNode }[];
  onChange: (value: T) => void;
  label: string;
  testId: string;
}) {
  return (
    <div className="opt-chips" role="tablist" aria-label={label} data-testid={testId}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="tab"
          aria-selected={o.value === value}
          className={o.value === value ? 'chip-button chip-button--on' : 'chip-button'}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

function ChainTable({ chain, right }: { chain: OptionChainView; right: Right }) {
  const { t } = useTranslation();
  const f = useFormat(chain.underlying.currency);
  const spot = Number(chain.underlying.price);
  const atm = chain.rows.reduce(
    (best, row) => (Math.abs(Number(row.strike) - spot) < Math.abs(Number(best) - spot) ? row.strike : best),
    chain.rows[0]?.strike ?? '0',
  );
  return (
    <div className="opt-table">
      <div className="opt-row opt-row--head" aria-hidden="true">
        <span>{t('options.strike')}</span>
        <span>{t('options.bid')}</span>
        <span>{t('options.ask')}</span>
        <span>Δ</span>
      </div>
      <ul className="opt-rows" aria-label={t(right === 'call' ? 'options.calls' : 'options.puts')}>
        {chain.rows.map((row) => {
          const q: OptionQuoteView = right === 'call' ? row.call : row.put;
          const itm = right === 'call' ? Number(row.strike) < spot : Number(row.strike) > spot;
          return (
            <li key={row.strike}>
              <Link
                to={optionPaths.order(q.series)}
                className={`opt-row${itm ? ' opt-row--itm' : ''}${row.strike === atm ? ' opt-row--atm' : ''}`}
                data-testid={`chain-row-${row.strike}`}
              >
                <span className="tabular opt-row__strike">
                  {f.number(row.strike)}
                  {row.strike === atm && <small className="opt-atm">{t('options.atm')}</small>}
                </span>
                <span className="tabular">{f.number(q.bid)}</span>
                <span className="tabular opt-row__ask">{f.number(q.ask)}</span>
                <span className="tabular opt-row__greek">{f.number(q.greeks.delta, 2)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The chain: the Trade tab's Options view and the chain page's body. */
export function OptionsTradeScreen({ top }: { top?: ReactNode }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const underlying = params.get('underlying') ?? '';
  const expiry = params.get('expiry') ?? '';
  const right: Right = params.get('right') === 'put' ? 'put' : 'call';
  const chain = useOptionChain(underlying, expiry);
  const set = (key: string, value: string, drop?: string) => {
    const copy = new URLSearchParams(params);
    copy.set(key, value);
    if (drop) copy.delete(drop);
    setParams(copy, { replace: true });
  };
  const data = chain.data;
  const f = useFormat(data?.underlying.currency ?? 'INR');
  return (
    <div className="opt-page" data-testid="options-chain">
      {top}
      {chain.isPending ? (
        <SkeletonRows count={6} height={44} />
      ) : chain.isError || !data ? (
        <ErrorState onRetry={() => void chain.refetch()} />
      ) : (
        <>
          <section className="opt-card">
            <Chips
              value={data.underlying.id}
              label={t('options.underlying')}
              testId="option-underlyings"
              onChange={(id) => set('underlying', id, 'expiry')}
              options={data.underlyings.map((u) => ({ value: u.id, label: u.symbol }))}
            />
            <div className="opt-spot">
              <div>
                <div className="opt-spot__name">{data.underlying.name}</div>
                <div className="opt-spot__meta">
                  {t('options.multiplier', { count: data.underlying.multiplier })} ·{' '}
                  {t('options.volatility', { pct: data.underlying.volatilityPct })}
                </div>
              </div>
              <div className="opt-spot__price tabular" data-testid="option-spot">
                {f.number(data.underlying.price)}
              </div>
            </div>
            <Chips
              value={data.expiry.day}
              label={t('options.expiry')}
              testId="option-expiries"
              onChange={(day) => set('expiry', day)}
              options={data.expiries.map((e) => ({
                value: e.day,
                label: (
                  <>
                    {f.date(e.closesAt).slice(0, 5)}
                    <small className="opt-cycle">{t(`options.${e.cycle}`)}</small>
                  </>
                ),
              }))}
            />
            <p className="opt-meta">{t('options.closesAt', { date: f.dateTime(data.expiry.closesAt) })}</p>
            {!data.underlying.isOpen && <p className="opt-warn">{t('options.marketClosed')}</p>}
          </section>
          <Segmented
            value={right}
            onChange={(value) => set('right', value)}
            label={t('options.tab')}
            testId="option-right"
            options={[
              { value: 'call', label: t('options.calls') },
              { value: 'put', label: t('options.puts') },
            ]}
          />
          <ChainTable chain={data} right={right} />
          <p className="opt-meta">{t('options.chainHint')}</p>
          <OptionLinks />
          <RiskNotice />
        </>
      )}
    </div>
  );
}

export function OptionChainPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('titles.stockOption.chain')}>
      <OptionsTradeScreen />
    </Page>
  );
}

// --- the order ---------------------------------------------------------------------------------------------

function OrderForm({
  chain,
  quote,
  right,
  strike,
}: {
  chain: OptionChainView;
  quote: OptionQuoteView;
  right: Right;
  strike: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const refresh = useOptionsRefresh();
  const u = chain.underlying;
  const f = useFormat(u.currency);
  const rule = useOptionRule();
  const balances = useStockBalances(true);
  const available = balances.data?.find((b) => b.asset === u.currency)?.available;
  const [text, setText] = useState('1');
  const [confirm, setConfirm] = useState<{ key: string; premium: string; contracts: number } | null>(null);
  const contracts = parseContracts(text);
  const premium = contracts === null ? null : premiumOf(quote.ask, u.multiplier, contracts);
  const fee = rule.data?.feePerOrder ?? '0.00';
  const min = rule.data?.minPurchaseAmount;
  const belowMin = premium !== null && min !== undefined && !isAtLeast(premium, min);
  const aboveBalance = premium !== null && available !== undefined && !isAtLeast(available, premium);
  const rightLabel = t(`options.${right}`);
  const rows: [string, ReactNode][] = [
    [t('options.underlying'), `${u.symbol} · ${f.number(u.price)}`],
    [t('options.strike'), f.number(strike)],
    [t('options.expiry'), f.dateTime(chain.expiry.closesAt)],
    [t('options.premiumPerUnit'), f.money(quote.ask)],
    [t('options.contracts'), `${contracts ?? '--'} × ${u.multiplier}`],
    [t('options.premium'), f.money(premium)],
    [t('options.fee'), f.money(fee)],
    [t('options.breakeven'), f.number(quote.breakeven)],
  ];
  return (
    <div className="opt-page opt-order" data-testid="option-order">
      <section className="opt-card">
        <div className="opt-spot">
          <div>
            <div className="opt-spot__name">
              {u.symbol} {f.number(strike)} {rightLabel}
            </div>
            <div className="opt-spot__meta">{t('options.closesAt', { date: f.dateTime(chain.expiry.closesAt) })}</div>
          </div>
          <div className="opt-quote tabular">
            <span>
              {t('options.bid')} <b>{f.number(quote.bid)}</b>
            </span>
            <span>
              {t('options.ask')} <b>{f.number(quote.ask)}</b>
            </span>
          </div>
        </div>
        <dl className="opt-greeks">
          {(['delta', 'gamma', 'theta', 'vega'] as const).map((g) => (
            <div key={g}>
              <dt>{t(`options.${g}`)}</dt>
              <dd className="tabular">{f.number(quote.greeks[g], GREEK_DIGITS[g])}</dd>
            </div>
          ))}
        </dl>
      </section>
      <Stepper
        id="option-contracts"
        label={`${t('options.contracts')} · ${t('options.multiplier', { count: u.multiplier })}`}
        value={text}
        onChange={setText}
        step="1"
        maxDecimals={0}
      />
      <dl className="order-figures" data-testid="option-figures">
        <div>
          <dt>{t('options.premiumPerUnit')}</dt>
          <dd className="tabular">{f.money(quote.ask)}</dd>
        </div>
        <div>
          <dt>{t('options.premium')}</dt>
          <dd className="tabular" data-testid="option-premium">
            {f.money(premium)}
          </dd>
        </div>
        <div>
          <dt>{t('options.fee')}</dt>
          <dd className="tabular">{f.money(fee)}</dd>
        </div>
        <div>
          <dt>{t('options.breakeven')}</dt>
          <dd className="tabular">{f.number(quote.breakeven)}</dd>
        </div>
        <div>
          <dt>
            {t('options.maxLoss')}
            <small className="opt-hint">{t('options.maxLossHint')}</small>
          </dt>
          <dd className="tabular" data-testid="option-max-loss">
            {f.money(premium)}
          </dd>
        </div>
        <div>
          <dt>{t('options.available')}</dt>
          <dd className="tabular">{available !== undefined ? f.money(available) : '--'}</dd>
        </div>
        <div className="order-figures__total">
          <dt>{t('options.total')}</dt>
          <dd className="tabular">{f.money(premium)}</dd>
        </div>
      </dl>
      {belowMin && (
        <p className="stepper-field__error" role="alert">
          {t('options.belowMin', { min: f.money(min) })}
        </p>
      )}
      {aboveBalance && (
        <p className="stepper-field__error" role="alert">
          {t('options.insufficient')}
        </p>
      )}
      {!u.isOpen && <p className="opt-warn">{t('options.marketClosed')}</p>}
      <RiskNotice />
      <div className="order-submit">
        <button
          type="button"
          className="btn btn--primary btn--block"
          disabled={premium === null || contracts === null || belowMin || aboveBalance}
          data-testid="option-review"
          onClick={() => premium && contracts && setConfirm({ key: newIdempotencyKey(), premium, contracts })}
        >
          {t('options.review')}
        </button>
      </div>
      <PasscodeConfirmSheet
        isOpen={confirm !== null}
        orderKey={confirm?.key ?? ''}
        rows={[
          ...rows.filter(([label]) => label !== t('options.premium') && label !== t('options.breakeven')),
          [t('options.total'), <b key="total">{f.money(confirm?.premium)}</b>],
          [t('options.limit'), t('options.atMost', { amount: f.money(atMost(confirm?.premium ?? '')) })],
        ]}
        notice={
          <p className="confirm__notice">
            {t('options.confirmNotice')} {t('options.protection')}
          </p>
        }
        submit={(password, key) => {
          if (!confirm) throw new Error('no order');
          return apiPost<OptionResult>(
            optionCalls.apply,
            {
              series: quote.series,
              contracts: confirm.contracts,
              maxPremium: atMost(confirm.premium) ?? confirm.premium,
              password,
            },
            { isSilent: true, idempotencyKey: key },
          );
        }}
        onDone={() => {
          setConfirm(null);
          Toast.show({ content: t('options.bought') });
          refresh();
          navigate(optionPaths.positions);
        }}
        onClose={() => setConfirm(null)}
      />
    </div>
  );
}

export function OptionOrderPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [params] = useSearchParams();
  const series = params.get('series') ?? '';
  const parts = seriesParts(series);
  const chain = useOptionChain(parts?.underlying ?? '', parts?.expiry ?? '');
  const row = chain.data?.rows.find((r) => minorOf(r.strike) === minorOf(parts?.strike));
  const quote = parts && row ? (parts.right === 'call' ? row.call : row.put) : undefined;
  const title =
    parts && chain.data
      ? t('options.orderTitle', {
          symbol: chain.data.underlying.symbol,
          strike: parts.strike.endsWith('.00') ? parts.strike.slice(0, -3) : parts.strike,
          right: t(`options.${parts.right}`),
        })
      : t('titles.stockOption.order');
  return (
    <Page title={title}>
      {!session.token ? (
        <SignInPrompt messageKey="trading.signInToTrade" />
      ) : !parts ? (
        <EmptyState title={t('options.noPositions')} />
      ) : chain.isPending ? (
        <SkeletonRows count={4} height={64} />
      ) : chain.isError || !chain.data ? (
        <ErrorState onRetry={() => void chain.refetch()} />
      ) : !quote ? (
        <EmptyState
          title={t('options.marketClosed')}
          action={
            <Link className="btn btn--primary" to={optionPaths.chain}>
              {t('titles.stockOption.chain')}
            </Link>
          }
        />
      ) : (
        <OrderForm chain={chain.data} quote={quote} right={parts.right} strike={parts.strike} />
      )}
    </Page>
  );
}

// --- positions and history ---------------------------------------------------------------------------------

function PositionCard({ option, onClose }: { option: OptionPositionView; onClose?: (o: OptionPositionView) => void }) {
  const { t } = useTranslation();
  const f = useFormat(option.currency);
  const status = option.status === 'open' ? 'open' : option.closeReason === 'expired' ? 'expired' : 'closed';
  const facts: [string, ReactNode, string?][] = [
    [t('options.paid'), f.money(option.buyingAmount)],
    [t('options.contracts'), `${option.contracts} × ${option.multiplier}`],
    [t('options.breakeven'), f.number(option.breakeven)],
    [t('options.openPrice'), f.number(option.openPrice)],
  ];
  if (option.current) {
    facts.push([t('options.value'), f.money(option.current.value)]);
    facts.push([
      `${t('options.pnl')} (${t('options.pnlHint')})`,
      f.signed(option.current.pnl),
      tone(option.current.pnl),
    ]);
  } else {
    facts.push([t('options.proceeds'), f.money(option.proceeds)]);
    facts.push([t('options.realised'), f.signed(option.realisedPnl), tone(option.realisedPnl)]);
    if (option.expiryPrice) facts.push([t('options.expiryPrice'), f.number(option.expiryPrice)]);
    if (option.closePrice) facts.push([t('options.closePrice'), f.money(option.closePrice)]);
  }
  return (
    <li className="opt-card opt-position" data-testid={`option-position-${option.id}`}>
      <div className="opt-position__head">
        <span className="opt-position__name">
          {option.symbol} {f.number(option.strike)}{' '}
          <b className={`opt-right opt-right--${option.direction}`}>{t(`options.${option.direction}`)}</b>
        </span>
        <span className={`opt-status opt-status--${status}`} data-testid="option-status">
          {t(`options.status.${status}`)}
        </span>
      </div>
      <p className="opt-meta">
        {t('options.closesAt', { date: f.dateTime(option.expiresAt) })} · {t('options.time')} {f.dateTime(option.time)}
      </p>
      <dl className="opt-facts">
        {facts.map(([label, value, className]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd className={`tabular ${className ?? ''}`}>{value}</dd>
          </div>
        ))}
      </dl>
      {option.current && (
        <dl className="opt-greeks" aria-label={t('options.greeks')}>
          {(['delta', 'gamma', 'theta', 'vega'] as const).map((g) => (
            <div key={g}>
              <dt>{t(`options.${g}`)}</dt>
              <dd className="tabular">{f.number(option.current?.greeks[g] ?? '0', GREEK_DIGITS[g])}</dd>
            </div>
          ))}
        </dl>
      )}
      {onClose && option.status === 'open' && (
        <button
          type="button"
          className="btn btn--outline btn--block"
          onClick={() => onClose(option)}
          data-testid="option-close"
        >
          {t('options.closeEarly')}
        </button>
      )}
    </li>
  );
}

function StatisticsBar() {
  const { t } = useTranslation();
  const stats = useOptionStatistics(true);
  const f = useFormat(stats.data?.currency ?? 'INR');
  if (!stats.data) return null;
  return (
    <dl className="order-figures opt-stats" data-testid="option-statistics">
      <div>
        <dt>{t('options.paid')}</dt>
        <dd className="tabular">{f.money(stats.data.openPremium)}</dd>
      </div>
      <div>
        <dt>{t('options.value')}</dt>
        <dd className="tabular">{f.money(stats.data.openValue)}</dd>
      </div>
      <div>
        <dt>{t('options.pnl')}</dt>
        <dd className={`tabular ${tone(stats.data.unrealisedPnl)}`}>{f.signed(stats.data.unrealisedPnl)}</dd>
      </div>
    </dl>
  );
}

export function OptionPositionsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const list = useOptionList('open', Boolean(session.token));
  const refresh = useOptionsRefresh();
  const [closing, setClosing] = useState<{ key: string; option: OptionPositionView } | null>(null);
  const shown = closing?.option;
  const f = useFormat(shown?.currency ?? 'INR');
  return (
    <Page title={t('titles.stockOption.positions')}>
      {!session.token ? (
        <SignInPrompt messageKey="trading.signInToTrade" />
      ) : (
        <div className="opt-page">
          <StatisticsBar />
          {list.isPending ? (
            <SkeletonRows count={3} height={120} />
          ) : list.isError ? (
            <ErrorState onRetry={() => void list.refetch()} />
          ) : list.data.items.length === 0 ? (
            <EmptyState
              title={t('options.noPositions')}
              action={
                <Link className="btn btn--primary" to={optionPaths.chain}>
                  {t('titles.stockOption.chain')}
                </Link>
              }
            />
          ) : (
            <ul className="opt-list">
              {list.data.items.map((option) => (
                <PositionCard
                  key={option.id}
                  option={option}
                  onClose={(o) => setClosing({ key: newIdempotencyKey(), option: o })}
                />
              ))}
            </ul>
          )}
          <OptionLinks />
          <RiskNotice />
        </div>
      )}
      <PasscodeConfirmSheet
        isOpen={closing !== null}
        orderKey={closing?.key ?? ''}
        rows={
          shown?.current
            ? [
                [t('options.underlying'), `${shown.symbol} · ${f.number(shown.current.underlyingPrice)}`],
                [t('options.bid'), f.money(shown.current.bid)],
                [t('options.value'), <b key="v">{f.money(shown.current.value)}</b>],
                [t('options.paid'), f.money(shown.buyingAmount)],
                [t('options.pnl'), f.signed(shown.current.pnl)],
                [t('options.limit'), t('options.atLeast', { amount: f.money(atLeast(shown.current.value)) })],
              ]
            : []
        }
        notice={
          <p className="confirm__notice">
            {t('options.closeNotice')} {t('options.protection')}
          </p>
        }
        submit={(password, key) => {
          if (!shown) throw new Error('no position');
          return apiPost<OptionResult>(
            optionCalls.close,
            { id: shown.id, ...(shown.current ? { minValue: atLeast(shown.current.value) ?? '0' } : {}), password },
            { isSilent: true, idempotencyKey: key },
          );
        }}
        onDone={() => {
          setClosing(null);
          Toast.show({ content: t('options.closed') });
          refresh();
        }}
        onClose={() => setClosing(null)}
      />
    </Page>
  );
}

export function OptionHistoryPage() {
  const { t } = useTranslation();
  const session = useSession();
  const list = useOptionList('closed', Boolean(session.token));
  return (
    <Page title={t('titles.stockOption.history')}>
      {!session.token ? (
        <SignInPrompt messageKey="trading.signInToTrade" />
      ) : (
        <div className="opt-page">
          {list.isPending ? (
            <SkeletonRows count={3} height={120} />
          ) : list.isError ? (
            <ErrorState onRetry={() => void list.refetch()} />
          ) : list.data.items.length === 0 ? (
            <EmptyState title={t('options.noHistory')} />
          ) : (
            <ul className="opt-list" data-testid="option-history">
              {list.data.items.map((option) => (
                <PositionCard key={option.id} option={option} />
              ))}
            </ul>
          )}
          <RiskNotice />
        </div>
      )}
    </Page>
  );
}

// --- the rule page -----------------------------------------------------------------------------------------

export function OptionRulePage() {
  const { t } = useTranslation();
  const rule = useOptionRule();
  const f = useFormat(rule.data?.currency ?? 'INR');
  const r = rule.data;
  return (
    <Page title={t('titles.stockOption.rule')}>
      <div className="opt-page opt-rule" data-testid="option-rule">
        {rule.isPending ? (
          <SkeletonRows count={5} height={48} />
        ) : rule.isError || !r ? (
          <ErrorState onRetry={() => void rule.refetch()} />
        ) : (
          <>
            <section className="opt-card">
              <p>{t('options.rules.intro')}</p>
              <p>{t('options.rules.pricing', { rate: f.number(r.ratePct) })}</p>
              <p>{t('options.rules.maker', { account: r.marketMaker, spread: f.number(r.spreadPct) })}</p>
              <p>{t('options.rules.expiry')}</p>
              <p>{t('options.rules.early')}</p>
              <p>{t('options.rules.min', { min: f.money(r.minPurchaseAmount), fee: f.money(r.feePerOrder) })}</p>
              {r.vipOnly && <p>{t('options.rules.vip')}</p>}
              <p>
                <b>{t('options.rules.maxLoss')}</b>
              </p>
              <p>{t('options.rules.notModelled')}</p>
            </section>
            <section className="opt-card">
              <h2 className="opt-h2">{t('options.rules.contracts')}</h2>
              <dl className="opt-facts">
                {r.underlyings.map((u) => (
                  <div key={u.id}>
                    <dt>
                      {u.symbol} <small>{u.name}</small>
                    </dt>
                    <dd className="tabular">{t('options.multiplier', { count: u.multiplier })}</dd>
                  </div>
                ))}
              </dl>
            </section>
            <RiskNotice />
          </>
        )}
      </div>
    </Page>
  );
}
