// Currency exchange (SPEC §2 exchange/index, exchange/exchange, exchange/stock; POST /user/exchange):
// the desk's rates with the spread shown, then a quote that is valid for a few seconds (counted down
// here) and is accepted or expires. exchange/stock is the same desk aimed at a stock market's currency:
// "exchange into the money a market trades in", with that market's buying power shown.
// Amounts are exact decimal strings from the server, formatted through lib/.
import type { BalanceView, ExchangeInput, ExchangeQuoteView, ExchangeRatesView, Items } from '@bourse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { apiGet, apiPost, usePlatformProps } from '../../app/api.ts';
import { ChevronRightIcon, ClockIcon, ListIcon, WalletIcon } from '../../app/shell/icons.tsx';
import { LinkRow } from '../../app/shell/link-row.tsx';
import { Page } from '../../app/shell/page.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { formatAmount } from '../../lib/market-format.ts';
import { RequireLogin } from '../accounts/security-page.tsx';
import { ErrorState, SkeletonRows } from '../markets/market-ui.tsx';
import {
  bpsAsPercent,
  CURRENCIES,
  type Currency,
  localRate,
  secondsLeft,
  sourcesOf,
  targetsOf,
} from './exchange-math.ts';
import './exchange.css';

const assetsKey = ['user', 'assets'] as const;
const ratesKey = ['user', 'exchange', 'rates'] as const;
const MARKET_CURRENCIES = { IN: 'INR', US: 'USD', BR: 'BRL' } as const;
type Market = keyof typeof MARKET_CURRENCIES;

function useCash() {
  return useQuery({
    queryKey: assetsKey,
    queryFn: () => apiPost<Items<BalanceView>>('/user/assets', undefined, { isBackground: true }),
    select: (data) =>
      Object.fromEntries(data.items.filter((b) => b.wallet === 'stock').map((b) => [b.asset, b.available])),
  });
}

function money(value: string | undefined, currency: string): string {
  return formatAmount(value ?? '0', currency, currentLanguage());
}

// --- the desk: quote, countdown, accept ------------------------------------------------------------------

function CurrencyChips({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  options: readonly string[];
  onChange: (value: Currency) => void;
  testId: string;
}) {
  return (
    <fieldset className="fx-field" data-testid={testId}>
      <legend className="fx-field__label">{label}</legend>
      <div className="chips">
        {options.map((c) => (
          <button
            key={c}
            type="button"
            className={`chip-button${c === value ? ' chip-button--on' : ''}`}
            aria-pressed={c === value}
            onClick={() => onChange(c as Currency)}
          >
            {c}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

export function useSecondsLeft(quote: ExchangeQuoteView | null, receivedAtMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (quote?.status !== 'quoted') return;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [quote]);
  return quote ? secondsLeft(quote, receivedAtMs, now) : 0;
}

/** A quote with its rate, spread and countdown, then accepted or expired (the crypto convert uses it too). */
export function QuoteCard({
  quote,
  seconds,
  isAccepting,
  onAccept,
  onRequote,
  format = money,
  doneKey = 'exchange.done',
  acceptKey = 'exchange.accept',
}: {
  quote: ExchangeQuoteView;
  seconds: number;
  isAccepting: boolean;
  onAccept: () => void;
  onRequote: () => void;
  /** How an amount of one of the quote's assets is written (coins show their own decimals). */
  format?: (value: string, asset: string) => string;
  doneKey?: string;
  acceptKey?: string;
}) {
  const { t } = useTranslation();
  const isAccepted = quote.status === 'accepted';
  const isExpired = !isAccepted && seconds === 0;
  const total = Math.max(1, Math.round((quote.expiresAt - quote.createdAt) / 1000));
  return (
    <section className="fx-quote" aria-label={t('exchange.quote')} data-testid="fx-quote">
      <dl className="fx-quote__grid">
        <div>
          <dt>{t('exchange.youPay')}</dt>
          <dd className="tabular" data-testid="fx-pay">
            {format(quote.amount, quote.from)}
          </dd>
        </div>
        <div>
          <dt>{t('exchange.youReceive')}</dt>
          <dd className="tabular fx-quote__receive" data-testid="fx-receive">
            {format(quote.receive, quote.to)}
          </dd>
        </div>
        <div>
          <dt>{t('exchange.yourRate')}</dt>
          <dd className="tabular" data-testid="fx-rate">
            1 {quote.from} = {localRate(quote.rate, currentLanguage())} {quote.to}
          </dd>
        </div>
        <div>
          <dt>{t('exchange.marketRate')}</dt>
          <dd className="tabular">
            1 {quote.from} = {localRate(quote.midRate, currentLanguage())} {quote.to}
          </dd>
        </div>
        <div className="fx-quote__wide">
          <dt>{t('exchange.spread')}</dt>
          <dd className="tabular" data-testid="fx-spread">
            {t('exchange.spreadValue', {
              percent: localRate(bpsAsPercent(quote.spreadBps), currentLanguage()),
              cost: format(quote.spreadCost, quote.to),
            })}
          </dd>
        </div>
      </dl>
      {isAccepted ? (
        <p className="fx-quote__done" role="status" data-testid="fx-done">
          {t(doneKey, { receive: format(quote.receive, quote.to) })}
        </p>
      ) : isExpired ? (
        <>
          <p className="fx-quote__expired" role="status" data-testid="fx-expired">
            {t('exchange.expired')}
          </p>
          <Button block color="primary" onClick={onRequote} data-testid="fx-requote">
            {t('exchange.newQuote')}
          </Button>
        </>
      ) : (
        <>
          <div className="fx-countdown" data-testid="fx-countdown">
            <ClockIcon size={16} />
            <span className="tabular">{t('exchange.validFor', { seconds })}</span>
            <span className="fx-countdown__bar" aria-hidden="true">
              <span style={{ width: `${(100 * seconds) / total}%` }} />
            </span>
          </div>
          <Button block color="primary" loading={isAccepting} onClick={onAccept} data-testid="fx-accept">
            {t(acceptKey)}
          </Button>
        </>
      )}
    </section>
  );
}

function ExchangeDesk({ fixedTo, marketLabel }: { fixedTo?: Currency; marketLabel?: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const initialFrom = (CURRENCIES as readonly string[]).includes(params.get('from') ?? '')
    ? (params.get('from') as Currency)
    : fixedTo
      ? (sourcesOf(fixedTo)[0] as Currency)
      : 'USD';
  const [from, setFrom] = useState<Currency>(initialFrom);
  const [to, setTo] = useState<Currency>(fixedTo ?? (targetsOf(initialFrom)[0] as Currency));
  const [amount, setAmount] = useState('');
  const [quote, setQuote] = useState<ExchangeQuoteView | null>(null);
  const [receivedAt, setReceivedAt] = useState(0);
  const seconds = useSecondsLeft(quote, receivedAt);
  const cash = useCash();
  useEffect(() => {
    if (fixedTo) {
      setTo(fixedTo);
      if (!sourcesOf(fixedTo).includes(from)) setFrom(sourcesOf(fixedTo)[0] as Currency);
      setQuote(null);
    }
  }, [fixedTo, from]);

  const ask = useMutation({
    mutationFn: () =>
      apiPost<ExchangeQuoteView>('/user/exchange', { action: 'quote', from, to, amount } satisfies ExchangeInput),
    onSuccess: (q) => {
      setQuote(q);
      setReceivedAt(Date.now());
    },
  });
  const accept = useMutation({
    mutationFn: (quoteId: number) =>
      apiPost<ExchangeQuoteView>('/user/exchange', { action: 'accept', quoteId } satisfies ExchangeInput),
    onSuccess: (q) => {
      setQuote(q);
      Toast.show({ content: t('exchange.doneToast') });
      void queryClient.invalidateQueries({ queryKey: assetsKey });
      void queryClient.invalidateQueries({ queryKey: ['user', 'tx'] });
    },
    onError: () => {
      // An expired or refused quote: ask again rather than retrying it.
      void queryClient.invalidateQueries({ queryKey: assetsKey });
    },
  });
  const isAmountValid = /^\d{1,12}(\.\d{1,2})?$/.test(amount) && Number(amount) > 0;
  const reset = () => setQuote(null);

  return (
    <div className="padded fx-desk">
      {marketLabel && (
        <p className="section-hint fx-market" data-testid="fx-market">
          {marketLabel}
        </p>
      )}
      <CurrencyChips
        label={t('exchange.from')}
        value={from}
        options={fixedTo ? sourcesOf(fixedTo) : CURRENCIES}
        onChange={(c) => {
          setFrom(c);
          if (!fixedTo) setTo(targetsOf(c)[0] as Currency);
          reset();
        }}
        testId="fx-from"
      />
      {!fixedTo && (
        <CurrencyChips
          label={t('exchange.to')}
          value={to}
          options={targetsOf(from)}
          onChange={(c) => {
            setTo(c);
            reset();
          }}
          testId="fx-to"
        />
      )}
      <div className="fx-field fx-amount">
        <span className="fx-field__label" id="fx-amount-label">
          {t('exchange.amount', { currency: from })}
        </span>
        <Input
          value={amount}
          onChange={(v) => {
            setAmount(v.replace(',', '.').trim());
            reset();
          }}
          inputMode="decimal"
          placeholder="0.00"
          clearable
          aria-labelledby="fx-amount-label"
          data-testid="fx-amount"
        />
      </div>
      <dl className="fx-balances" data-testid="fx-balances">
        <div>
          <dt>{t('exchange.available', { currency: from })}</dt>
          <dd className="tabular" data-testid={`fx-available-${from}`}>
            {money(cash.data?.[from], from)}
          </dd>
        </div>
        <div>
          <dt>{t('exchange.available', { currency: to })}</dt>
          <dd className="tabular" data-testid={`fx-available-${to}`}>
            {money(cash.data?.[to], to)}
          </dd>
        </div>
      </dl>
      {quote === null ? (
        <Button
          block
          color="primary"
          disabled={!isAmountValid}
          loading={ask.isPending}
          onClick={() => ask.mutate()}
          data-testid="fx-get-quote"
        >
          {t('exchange.getQuote')}
        </Button>
      ) : (
        <QuoteCard
          quote={quote}
          seconds={seconds}
          isAccepting={accept.isPending}
          onAccept={() => accept.mutate(quote.id)}
          onRequote={() => ask.mutate()}
        />
      )}
      {quote?.status === 'accepted' && (
        <Button block fill="outline" style={{ marginTop: 12 }} onClick={() => setQuote(null)} data-testid="fx-again">
          {t('exchange.another')}
        </Button>
      )}
      <p className="section-hint">{t('exchange.how')}</p>
    </div>
  );
}

// --- exchange/index -----------------------------------------------------------------------------------

function Rates() {
  const { t } = useTranslation();
  const rates = useQuery({
    queryKey: ratesKey,
    queryFn: () => apiGet<ExchangeRatesView>('/user/exchange/rates', undefined, { isBackground: true }),
    refetchInterval: 5_000,
  });
  if (rates.isPending) return <SkeletonRows count={4} />;
  if (rates.isError) return <ErrorState onRetry={() => void rates.refetch()} />;
  return (
    <>
      <ul className="ledger fx-rates" data-testid="fx-rates">
        {rates.data.rates.map((r) => (
          <li key={`${r.from}${r.to}`}>
            <Link
              className="ledger-row fx-rate"
              to={`/pages/exchange/exchange?from=${r.from}`}
              data-testid="fx-rate-row"
            >
              <span className="ledger-row__body">
                <span className="fx-rate__pair">
                  {r.from} → {r.to}
                </span>
                <span className="ledger-row__time tabular">
                  {t('exchange.marketShort', { rate: localRate(r.midRate, currentLanguage()) })}
                </span>
              </span>
              <span className="fx-rate__value tabular">{localRate(r.rate, currentLanguage())}</span>
              <ChevronRightIcon size={16} />
            </Link>
          </li>
        ))}
      </ul>
      <p className="section-hint">
        {t('exchange.ratesHint', {
          percent: localRate(bpsAsPercent(rates.data.rates[0]?.spreadBps ?? 0), currentLanguage()),
          seconds: rates.data.quoteValiditySec,
        })}
      </p>
    </>
  );
}

export function ExchangeIndexPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.exchange.index')}>
        <h2 className="day-head">{t('exchange.rates')}</h2>
        <Rates />
        <div className="list">
          <LinkRow
            to="/pages/exchange/exchange"
            icon=<WalletIcon />
            label={t('titles.exchange.exchange')}
            testId="fx-open-desk"
          />
          <LinkRow
            to="/pages/exchange/stock"
            icon=<WalletIcon />
            label={t('titles.exchange.stock')}
            testId="fx-open-stock"
          />
          <LinkRow
            to="/pages/exchange/cryptoConvert"
            icon=<WalletIcon />
            label={t('exchange.coin.open')}
            testId="fx-open-crypto"
          />
          <LinkRow
            to="/pages/exchange/cryptoTransfer"
            icon=<WalletIcon />
            label={t('exchange.coin.transfer')}
            testId="fx-open-transfer"
          />
          <LinkRow
            to="/pages/fundsDetail/index?cause=convert"
            icon=<ListIcon />
            label={t('exchange.history')}
            testId="fx-history"
          />
        </div>
      </Page>
    </RequireLogin>
  );
}

export function ExchangePage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.exchange.exchange')}>
        <ExchangeDesk />
      </Page>
    </RequireLogin>
  );
}

// --- exchange/stock: into a stock market's currency ---------------------------------------------------

function StockExchange() {
  const { t } = useTranslation();
  const props = usePlatformProps();
  const [params, setParams] = useSearchParams();
  const deployment = (props.data?.stockCountry ?? 'IN') as Market;
  const chosen = params.get('market');
  const market: Market = chosen === 'IN' || chosen === 'US' || chosen === 'BR' ? chosen : deployment;
  const currency = MARKET_CURRENCIES[market];
  return (
    <>
      <fieldset className="fx-field padded-x" data-testid="fx-markets">
        <legend className="fx-field__label">{t('exchange.market')}</legend>
        <div className="chips">
          {(Object.keys(MARKET_CURRENCIES) as Market[]).map((m) => (
            <button
              key={m}
              type="button"
              className={`chip-button${m === market ? ' chip-button--on' : ''}`}
              aria-pressed={m === market}
              onClick={() => {
                const next = new URLSearchParams(params);
                next.set('market', m);
                next.delete('from');
                setParams(next, { replace: true });
              }}
            >
              {t(`exchange.markets.${m}`)} · {MARKET_CURRENCIES[m]}
            </button>
          ))}
        </div>
      </fieldset>
      <ExchangeDesk
        fixedTo={currency}
        marketLabel={t('exchange.stockHint', { market: t(`exchange.markets.${market}`), currency })}
      />
    </>
  );
}

export function ExchangeStockPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.exchange.stock')}>
        <StockExchange />
      </Page>
    </RequireLogin>
  );
}
