// The crypto desk (SPEC §2 exchange/cryptoConvert, exchange/cryptoTransfer): converting one coin into
// another at a quote that holds for a few seconds (POST /coin/convert, the same quote card as the
// currency exchange), and moving coins between the customer's own crypto (spot) and contract accounts,
// free and instant (POST /coin/transfer, with an idempotency key so a retry never moves twice).
// Amounts are exact decimal strings from the server, formatted through lib/.
import type {
  CoinConvertInput,
  CoinConvertRatesView,
  CoinTransferInput,
  CoinTransferView,
  CoinWallet,
  ExchangeQuoteView,
} from '@bourse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { apiGet, apiPost } from '../../app/api.ts';
import { ListIcon, WalletIcon } from '../../app/shell/icons.tsx';
import { LinkRow } from '../../app/shell/link-row.tsx';
import { Page } from '../../app/shell/page.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { RequireLogin } from '../accounts/security-page.tsx';
import { ErrorState, SkeletonRows } from '../markets/market-ui.tsx';
import { coinAssetsKey, coinText, useCoinAssets } from '../wallet/coin-assets.ts';
import { isCoinAmount, newClientId, otherWallet, sendableCoins, trimAmount, typedAmount } from './coin-math.ts';
import { bpsAsPercent, localRate } from './exchange-math.ts';
import { QuoteCard, useSecondsLeft } from './exchange-pages.tsx';
import './exchange.css';

const ratesKey = ['coin', 'convert', 'rates'] as const;
const background = { isBackground: true } as const;

function useRefreshBalances() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: coinAssetsKey });
    void queryClient.invalidateQueries({ queryKey: ['user', 'assets'] });
    void queryClient.invalidateQueries({ queryKey: ['user', 'tx'] });
  };
}

function CoinSelect({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <label className="cc-select">
      <span className="fx-field__label">{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        {options.map((coin) => (
          <option key={coin} value={coin}>
            {coin}
          </option>
        ))}
      </select>
    </label>
  );
}

function AmountField({
  label,
  value,
  onChange,
  onMax,
  available,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onMax: () => void;
  available: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="fx-field fx-amount">
      <span className="fx-field__label" id={`${testId}-label`}>
        {label}
      </span>
      <div className="cc-amount">
        <Input
          value={value}
          onChange={(v) => onChange(typedAmount(v))}
          inputMode="decimal"
          placeholder="0.00"
          aria-labelledby={`${testId}-label`}
          data-testid={testId}
        />
        <button type="button" className="cc-max" onClick={onMax} data-testid={`${testId}-max`}>
          {t('exchange.coin.max')}
        </button>
      </div>
      <p className="cc-available tabular" data-testid={`${testId}-available`}>
        {t('exchange.coin.available', { amount: available })}
      </p>
    </div>
  );
}

function DeskLinks({ records, other }: { records: string; other?: { to: string; label: string } }) {
  return (
    <div className="list cc-links">
      {other && <LinkRow to={other.to} icon=<WalletIcon /> label={other.label} />}
      <LinkRow to="/pages/coin/assetsRecord" icon=<ListIcon /> label={records} testId="cc-records" />
    </div>
  );
}

// --- exchange/cryptoConvert -------------------------------------------------------------------------

/** The market rate of the pair as the desk lists it: each side against USDT. */
function MarketRates({ rates, from, to }: { rates: CoinConvertRatesView; from: string; to: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const legs =
    from === 'USDT'
      ? [['USDT', to]]
      : to === 'USDT'
        ? [[from, 'USDT']]
        : [
            [from, 'USDT'],
            [to, 'USDT'],
          ];
  return (
    <ul className="cc-rates" data-testid="cc-market-rate">
      {legs.map(([a, b]) => {
        const rate = rates.rates.find((r) => r.from === a && r.to === b);
        return rate ? (
          <li key={`${a}${b}`} className="tabular">
            {t('exchange.coin.marketRate', { from: a, to: b, rate: localRate(rate.midRate, language) })}
          </li>
        ) : null;
      })}
    </ul>
  );
}

function ConvertDesk() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const rates = useQuery({
    queryKey: ratesKey,
    queryFn: () => apiGet<CoinConvertRatesView>('/coin/convert/rates', undefined, background),
    refetchInterval: 10_000,
  });
  const assets = useCoinAssets();
  const [from, setFrom] = useState(params.get('from') ?? 'USDT');
  const [to, setTo] = useState(params.get('to') ?? 'BTC');
  const [amount, setAmount] = useState('');
  const [quote, setQuote] = useState<ExchangeQuoteView | null>(null);
  const [receivedAt, setReceivedAt] = useState(0);
  const seconds = useSecondsLeft(quote, receivedAt);
  const refresh = useRefreshBalances();

  const ask = useMutation({
    mutationFn: () =>
      apiPost<ExchangeQuoteView>('/coin/convert', { action: 'quote', from, to, amount } satisfies CoinConvertInput),
    onSuccess: (q) => {
      setQuote(q);
      setReceivedAt(Date.now());
    },
  });
  const accept = useMutation({
    mutationFn: (quoteId: number) =>
      apiPost<ExchangeQuoteView>('/coin/convert', { action: 'accept', quoteId } satisfies CoinConvertInput),
    onSuccess: (q) => {
      setQuote(q);
      Toast.show({ content: t('exchange.coin.doneToast') });
      refresh();
    },
    onError: refresh,
  });

  if (rates.isPending) return <SkeletonRows count={5} />;
  if (rates.isError) return <ErrorState onRetry={() => void rates.refetch()} />;
  const coins = rates.data.assets;
  const available = assets.data?.spot.find((b) => b.asset === from)?.available ?? '0';
  const reset = () => setQuote(null);
  const choose = (side: 'from' | 'to', coin: string) => {
    const [nextFrom, nextTo] = side === 'from' ? [coin, coin === to ? from : to] : [coin === from ? to : from, coin];
    setFrom(nextFrom);
    setTo(nextTo);
    reset();
  };

  return (
    <div className="padded fx-desk">
      <div className="cc-pair">
        <CoinSelect
          label={t('exchange.coin.from')}
          value={from}
          options={coins}
          onChange={(c) => choose('from', c)}
          testId="cc-from"
        />
        <button
          type="button"
          className="cc-swap"
          aria-label={t('exchange.coin.swap')}
          onClick={() => choose('from', to)}
          data-testid="cc-swap"
        >
          ⇄
        </button>
        <CoinSelect
          label={t('exchange.coin.to')}
          value={to}
          options={coins}
          onChange={(c) => choose('to', c)}
          testId="cc-to"
        />
      </div>
      <MarketRates rates={rates.data} from={from} to={to} />
      <AmountField
        label={t('exchange.coin.amount', { coin: from })}
        value={amount}
        onChange={(v) => {
          setAmount(v);
          reset();
        }}
        onMax={() => {
          setAmount(trimAmount(available));
          reset();
        }}
        available={coinText(available, from)}
        testId="cc-amount"
      />
      {quote === null ? (
        <Button
          block
          color="primary"
          disabled={!isCoinAmount(amount)}
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
          format={coinText}
          doneKey="exchange.coin.done"
          acceptKey="exchange.coin.accept"
        />
      )}
      {quote?.status === 'accepted' && (
        <Button
          block
          fill="outline"
          style={{ marginTop: 12 }}
          onClick={() => {
            setQuote(null);
            setAmount('');
          }}
          data-testid="fx-again"
        >
          {t('exchange.coin.another')}
        </Button>
      )}
      <p className="section-hint">
        {t('exchange.coin.ratesHint', {
          percent: localRate(bpsAsPercent(rates.data.rates[0]?.spreadBps ?? 0), currentLanguage()),
          seconds: rates.data.quoteValiditySec,
          min: rates.data.minValueUsdt,
        })}
      </p>
      <DeskLinks
        records={t('exchange.coin.records')}
        other={{ to: '/pages/exchange/cryptoTransfer', label: t('exchange.coin.transfer') }}
      />
    </div>
  );
}

export function CryptoConvertPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.exchange.cryptoConvert')}>
        <ConvertDesk />
      </Page>
    </RequireLogin>
  );
}

// --- exchange/cryptoTransfer ------------------------------------------------------------------------

function TransferDesk() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const assets = useCoinAssets();
  const [from, setFrom] = useState<CoinWallet>(params.get('from') === 'contract' ? 'contract' : 'spot');
  const [asset, setAsset] = useState(params.get('asset') ?? 'USDT');
  const [amount, setAmount] = useState('');
  // One key per submission: a retry after a lost answer sends the same one and moves nothing twice.
  const [clientId, setClientId] = useState(newClientId);
  const [done, setDone] = useState<CoinTransferView | null>(null);
  const refresh = useRefreshBalances();
  const to = otherWallet(from);

  const send = useMutation({
    mutationFn: () =>
      apiPost<CoinTransferView>('/coin/transfer', {
        asset,
        amount,
        from,
        to,
        clientId,
      } satisfies CoinTransferInput),
    onSuccess: (result) => {
      setDone(result);
      Toast.show({ content: t('exchange.transfer.doneToast') });
      refresh();
    },
    onError: refresh,
  });

  if (assets.isPending) return <SkeletonRows count={5} />;
  if (assets.isError) return <ErrorState onRetry={() => void assets.refetch()} />;
  const balances = assets.data[from];
  const coins = [...new Set([...sendableCoins(balances), asset])];
  const available = balances.find((b) => b.asset === asset)?.available ?? '0';
  const edit = (change: () => void) => {
    change();
    setDone(null);
    setClientId(newClientId());
  };
  const walletName = (w: CoinWallet) => t(`exchange.transfer.wallets.${w}`);

  return (
    <div className="padded fx-desk">
      <section className="ct-wallets" aria-label={`${walletName(from)} → ${walletName(to)}`}>
        <div className="ct-wallets__row">
          <span className="ct-wallets__label">{t('exchange.transfer.from')}</span>
          <span className="ct-wallets__name" data-testid="ct-from">
            {walletName(from)}
          </span>
        </div>
        <div className="ct-wallets__row">
          <span className="ct-wallets__label">{t('exchange.transfer.to')}</span>
          <span className="ct-wallets__name" data-testid="ct-to">
            {walletName(to)}
          </span>
        </div>
        <button
          type="button"
          className="cc-swap ct-wallets__switch"
          aria-label={t('exchange.transfer.switch')}
          onClick={() => edit(() => setFrom(to))}
          data-testid="ct-switch"
        >
          ⇅
        </button>
      </section>
      <CoinSelect
        label={t('exchange.transfer.coin')}
        value={asset}
        options={coins}
        onChange={(c) => edit(() => setAsset(c))}
        testId="ct-coin"
      />
      <AmountField
        label={t('exchange.transfer.amount')}
        value={amount}
        onChange={(v) => edit(() => setAmount(v))}
        onMax={() => edit(() => setAmount(trimAmount(available)))}
        available={coinText(available, asset)}
        testId="ct-amount"
      />
      <dl className="fx-balances">
        <div>
          <dt>{t('exchange.transfer.fee')}</dt>
          <dd className="tabular" data-testid="ct-fee">
            {t('exchange.transfer.noFee')}
          </dd>
        </div>
      </dl>
      {done ? (
        <>
          <p className="fx-quote__done" role="status" data-testid="ct-done">
            {t('exchange.transfer.done', { amount: coinText(done.amount, done.asset), wallet: walletName(done.to) })}
          </p>
          <Button
            block
            fill="outline"
            style={{ marginTop: 12 }}
            onClick={() => edit(() => setAmount(''))}
            data-testid="ct-again"
          >
            {t('exchange.transfer.another')}
          </Button>
        </>
      ) : (
        <Button
          block
          color="primary"
          disabled={!isCoinAmount(amount)}
          loading={send.isPending}
          onClick={() => send.mutate()}
          data-testid="ct-submit"
        >
          {t('exchange.transfer.submit')}
        </Button>
      )}
      <p className="section-hint">{t('exchange.transfer.how')}</p>
      <DeskLinks records={t('exchange.transfer.records')} />
    </div>
  );
}

export function CryptoTransferPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.exchange.cryptoTransfer')}>
        <TransferDesk />
      </Page>
    </RequireLogin>
  );
}
