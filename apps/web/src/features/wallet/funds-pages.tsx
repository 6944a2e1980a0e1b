// The customer's money screens: user/assets (balances per wallet and asset from POST /user/assets, with
// a total per currency), fundsDetail/index (every ledger line from GET /user/tx/record, paged, filtered
// by wallet, asset and cause, with the monthly statement's download), fundsDetail/cryptoFundsDetail
// and coin/assetsRecord (the crypto records: the spot and contract wallets' lines, with the coin wallets'
// USDT value on top) and wallet/recordDetail (one line in full). Reads only; amounts as the server
// sent them (exact decimal strings), formatted by lib/ and shown through Amount so they never wrap.
import type { BalanceView, Items, Paged, TransferView } from '@bourse/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Button, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { apiGet, apiPost } from '../../app/api.ts';
import { useSession } from '../../app/session.ts';
import { Amount } from '../../app/shell/amount.tsx';
import { ChevronRightIcon, ListIcon } from '../../app/shell/icons.tsx';
import { LinkRow } from '../../app/shell/link-row.tsx';
import { Page } from '../../app/shell/page.tsx';
import { useDeploymentTimeZone } from '../../app/use-deployment-time-zone.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { formatAmount, formatAmountCompact, marketOfCurrency } from '../../lib/market-format.ts';
import { formatDateTime } from '../../lib/time.ts';
import { RequireLogin } from '../accounts/security-page.tsx';
import { coinDigits } from '../exchange/coin-math.ts';
import {
  EmptyState,
  ErrorState,
  LoadMoreFooter,
  loadMoreState,
  SkeletonRows,
  useSentinel,
} from '../markets/market-ui.tsx';
import { groupByDay } from '../stocks/order-math.ts';
import { pnlClass } from '../stocks/trading-ui.tsx';
import { coinText, useCoinAssets } from './coin-assets.ts';
import { byWallet, isShare, totalsByCurrency } from './funds-math.ts';
import { downloadStatement } from './statement-download.ts';
import './funds.css';

const assetsKey = ['user', 'assets'] as const;
const background = { isBackground: true } as const;
const PAGE_SIZE = 20;

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
  'convert',
  'wallet_transfer',
  'allotment',
  'option',
  'interest',
  'loan',
  'loan_repayment',
];
/** The causes the records can be filtered by, in the order the chips show them. */
const filterCauses = [
  'trade',
  'fee',
  'deposit',
  'withdrawal',
  'convert',
  'wallet_transfer',
  'adjustment',
  'paper_grant',
];
const knownWallets = ['stock', 'spot', 'contract', 'fund'];
/** The crypto records' wallet filter: both coin wallets (the server takes a comma-separated few), or one. */
const CRYPTO_WALLETS = ['spot,contract', 'spot', 'contract'];

function useLabels() {
  const { t } = useTranslation();
  return {
    cause: (cause: string) => (knownCauses.includes(cause) ? t(`trading.causes.${cause}`) : cause.replace(/_/g, ' ')),
    wallet: (wallet: string) =>
      wallet === CRYPTO_WALLETS[0]
        ? t('funds.coin.allCrypto')
        : knownWallets.includes(wallet)
          ? t(`funds.wallets.${wallet}`)
          : wallet,
    asset: (asset: string) => (isShare(asset) ? asset.split(':').slice(2).join(':') || asset : asset),
  };
}

function Money({ value, asset, isSigned = false }: { value: string; asset: string; isSigned?: boolean }) {
  const language = currentLanguage();
  // A coin shows the decimals it has (0.01049184 BTC, not 0.01 BTC); fiat and shares keep their own.
  const isCoin = !marketOfCurrency(asset) && !isShare(asset);
  const options = {
    ...(isSigned ? ({ signDisplay: 'exceptZero' } as const) : {}),
    ...(isCoin ? { digits: coinDigits(value) } : {}),
  };
  return (
    <Amount
      full={formatAmount(value, asset, language, options)}
      compact={formatAmountCompact(value, asset, language, options)}
    />
  );
}

function useBalances() {
  const session = useSession();
  return useQuery({
    queryKey: assetsKey,
    queryFn: () => apiPost<Items<BalanceView>>('/user/assets', undefined, background),
    enabled: Boolean(session.token),
    refetchInterval: 15_000,
  });
}

function CauseTag({ cause }: { cause: string }) {
  const labels = useLabels();
  return (
    <span className={`cause-tag cause-tag--${knownCauses.includes(cause) ? cause : 'other'}`}>
      {labels.cause(cause)}
    </span>
  );
}

// --- the coin wallets' card (user/assets, coin/assetsRecord) -----------------------------------------

/** The coin wallets valued in USDT: each coin (`full`, on the assets page) or each wallet's total (`summary`). */
function CoinAssetsCard({ variant }: { variant: 'full' | 'summary' }) {
  const { t } = useTranslation();
  const labels = useLabels();
  const query = useCoinAssets();
  if (query.isPending) return <SkeletonRows count={2} height={96} />;
  if (query.isError) return <ErrorState onRetry={() => void query.refetch()} />;
  const coins = query.data;
  const usdt = (value: string) => coinText(value, 'USDT');
  const walletTotal = (wallet: 'spot' | 'contract') => (wallet === 'spot' ? coins.spotUsdt : coins.contractUsdt);
  return (
    <section className="account-card-x coin-card" aria-label={t('funds.coin.title')} data-testid="coin-assets">
      <p className="account-card-x__label">
        {t('funds.coin.total')}
        {coins.virtual && <span> · {t('funds.coin.virtual')}</span>}
      </p>
      <p className="account-card-x__total tabular" data-testid="coin-total">
        <Amount
          full={usdt(coins.totalUsdt)}
          compact={formatAmountCompact(coins.totalUsdt, 'USDT', currentLanguage())}
        />
      </p>
      {variant === 'summary' ? (
        <dl className="account-card-x__grid funds-grid">
          {(['spot', 'contract'] as const).map((wallet) => (
            <div key={wallet} data-testid={`coin-wallet-${wallet}`}>
              <dt>{labels.wallet(wallet)}</dt>
              <dd className="tabular">{usdt(walletTotal(wallet))}</dd>
            </div>
          ))}
        </dl>
      ) : (
        (['spot', 'contract'] as const).map((wallet) => (
          <div key={wallet} className="coin-card__wallet" data-testid={`coin-wallet-${wallet}`}>
            <p className="coin-card__wallet-head">
              <span>{labels.wallet(wallet)}</span>
              <span className="tabular">{usdt(walletTotal(wallet))}</span>
            </p>
            <ul className="coin-card__coins">
              {coins[wallet].map((b) => (
                <li key={b.asset} data-testid={`coin-${wallet}-${b.asset}`}>
                  <span className="funds-asset">{b.asset}</span>
                  <span className="coin-card__amount tabular">
                    {coinText(b.balance, b.asset)}
                    {b.asset !== 'USDT' && <small>{t('funds.coin.value', { value: usdt(b.valueUsdt) })}</small>}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ))
      )}
      <div className="coin-card__actions">
        <Link className="btn btn--primary" to="/pages/exchange/cryptoConvert" data-testid="coin-convert">
          {t('funds.coin.convert')}
        </Link>
        <Link className="btn btn--outline" to="/pages/exchange/cryptoTransfer" data-testid="coin-transfer">
          {t('funds.coin.transfer')}
        </Link>
        {variant === 'full' && (
          <Link className="btn btn--outline" to="/pages/coin/assetsRecord" data-testid="coin-records">
            {t('funds.coin.records')}
          </Link>
        )}
      </div>
    </section>
  );
}

// --- user/assets ------------------------------------------------------------------------------------

function Assets() {
  const { t } = useTranslation();
  const labels = useLabels();
  const query = useBalances();
  if (query.isPending) return <SkeletonRows count={4} height={96} />;
  if (query.isError) return <ErrorState onRetry={() => void query.refetch()} />;
  const balances = query.data.items;
  if (balances.length === 0) return <EmptyState title={t('funds.noAssets')} hint={t('funds.noAssetsHint')} />;
  return (
    <>
      <div className="account-cards" data-testid="asset-totals">
        {totalsByCurrency(balances).map((total) => (
          <section
            key={total.currency}
            className="account-card-x"
            aria-label={t('funds.totalIn', { currency: total.currency })}
          >
            <p className="account-card-x__label">{t('funds.totalIn', { currency: total.currency })}</p>
            <p className="account-card-x__total tabular">
              <Money value={total.balance} asset={total.currency} />
            </p>
            <dl className="account-card-x__grid funds-grid">
              <div>
                <dt>{t('funds.available')}</dt>
                <dd className="tabular">
                  <Money value={total.available} asset={total.currency} />
                </dd>
              </div>
              <div>
                <dt>{t('funds.held')}</dt>
                <dd className="tabular">
                  <Money value={total.held} asset={total.currency} />
                </dd>
              </div>
            </dl>
          </section>
        ))}
      </div>
      <p className="section-hint">{t('funds.heldHint')}</p>
      {byWallet(balances).map((group) => (
        <section key={group.wallet} aria-label={labels.wallet(group.wallet)} data-testid="wallet-group">
          <h2 className="day-head">{labels.wallet(group.wallet)}</h2>
          <ul className="ledger">
            {group.items.map((b) => (
              <li key={b.asset}>
                <Link
                  className="ledger-row funds-link"
                  to={`/pages/fundsDetail/index?wallet=${encodeURIComponent(b.wallet)}&asset=${encodeURIComponent(b.asset)}`}
                  data-testid="asset-row"
                >
                  <span className="ledger-row__body">
                    <span className="funds-asset">{labels.asset(b.asset)}</span>
                    <span className="ledger-row__time">
                      {t('funds.available')} {formatAmount(b.available, b.asset, currentLanguage())} · {t('funds.held')}{' '}
                      {formatAmount(b.held, b.asset, currentLanguage())}
                    </span>
                  </span>
                  <span className="ledger-row__amount tabular funds-amount">
                    <Money value={b.balance} asset={b.asset} />
                  </span>
                  <ChevronRightIcon size={16} />
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <div className="list">
        <LinkRow to="/pages/fundsDetail/index" icon=<ListIcon /> label={t('funds.records')} testId="records-link" />
      </div>
    </>
  );
}

export function AssetsPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.user.assets')}>
        <h2 className="day-head">{t('funds.coin.title')}</h2>
        <div className="account-cards">
          <CoinAssetsCard variant="full" />
        </div>
        <Assets />
      </Page>
    </RequireLogin>
  );
}

// --- fundsDetail/index ------------------------------------------------------------------------------

function FilterChips({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <fieldset className="funds-filter" data-testid={testId}>
      <legend className="funds-filter__label">{label}</legend>
      <div className="chips">
        {options.map((o) => (
          <button
            key={o.value}
            type="button"
            className={`chip-button${o.value === value ? ' chip-button--on' : ''}`}
            aria-pressed={o.value === value}
            onClick={() => onChange(o.value)}
          >
            {o.label}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

function LedgerLine({ line, timeZone }: { line: TransferView; timeZone: string }) {
  return (
    <li>
      <Link
        className="ledger-row funds-link"
        to={`/pages/wallet/recordDetail?id=${encodeURIComponent(line.id)}`}
        data-testid="ledger-line"
      >
        <span className="ledger-row__body">
          <CauseTag cause={line.cause} />
          <span className="ledger-row__time tabular">{formatDateTime(line.at, timeZone).slice(11)}</span>
        </span>
        <span className={`ledger-row__amount tabular funds-amount ${pnlClass(line.amount)}`}>
          <Money value={line.amount} asset={line.asset} isSigned />
        </span>
        <ChevronRightIcon size={16} />
      </Link>
    </li>
  );
}

function FundsRecords({ lockedWallet, walletChoices }: { lockedWallet?: string; walletChoices?: string[] }) {
  const { t } = useTranslation();
  const labels = useLabels();
  const [params, setParams] = useSearchParams();
  const wallet = lockedWallet ?? params.get('wallet') ?? walletChoices?.[0] ?? '';
  const cause = params.get('cause') ?? '';
  const asset = params.get('asset') ?? '';
  const balances = useBalances();
  const owned = balances.data?.items ?? [];
  const walletOptions = [...new Set([...owned.map((b) => b.wallet), ...(wallet ? [wallet] : [])])].sort();
  const shownWallets = wallet.split(',');
  const assetOptions = [
    ...new Set([
      ...owned.filter((b) => !wallet || shownWallets.includes(b.wallet)).map((b) => b.asset),
      ...(asset ? [asset] : []),
    ]),
  ].sort((a, b) => Number(isShare(a)) - Number(isShare(b)) || a.localeCompare(b));
  const setFilter = (name: 'wallet' | 'asset' | 'cause', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };

  const ledger = useInfiniteQuery({
    queryKey: ['user', 'tx', 'all', wallet, asset, cause],
    queryFn: ({ pageParam }) =>
      apiGet<Paged<TransferView>>(
        '/user/tx/record',
        {
          page: pageParam,
          limit: PAGE_SIZE,
          ...(wallet ? { wallet } : {}),
          ...(asset ? { asset } : {}),
          ...(cause ? { cause } : {}),
        },
        background,
      ),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.items.length, 0) < last.total && last.items.length > 0
        ? pages.length + 1
        : undefined,
  });
  const items = ledger.data?.pages.flatMap((p) => p.items) ?? [];
  const loadMore = () => {
    if (ledger.hasNextPage && !ledger.isFetchingNextPage) void ledger.fetchNextPage();
  };
  const sentinel = useSentinel(loadMore, Boolean(ledger.hasNextPage) && !ledger.isFetchNextPageError);
  const timeZone = useDeploymentTimeZone();

  return (
    <>
      {!lockedWallet && (
        <FilterChips
          label={t('funds.filterWallet')}
          value={wallet}
          options={
            walletChoices
              ? walletChoices.map((w) => ({ value: w, label: labels.wallet(w) }))
              : [
                  { value: '', label: t('funds.all') },
                  ...walletOptions.map((w) => ({ value: w, label: labels.wallet(w) })),
                ]
          }
          onChange={(v) => {
            const next = new URLSearchParams(params);
            if (v) next.set('wallet', v);
            else next.delete('wallet');
            next.delete('asset');
            setParams(next, { replace: true });
          }}
          testId="filter-wallet"
        />
      )}
      <FilterChips
        label={t('funds.filterAsset')}
        value={asset}
        options={[
          { value: '', label: t('funds.all') },
          ...assetOptions.map((a) => ({ value: a, label: labels.asset(a) })),
        ]}
        onChange={(v) => setFilter('asset', v)}
        testId="filter-asset"
      />
      <FilterChips
        label={t('funds.filterCause')}
        value={cause}
        options={[
          { value: '', label: t('funds.all') },
          ...[...new Set([...filterCauses, ...(cause ? [cause] : [])])].map((c) => ({
            value: c,
            label: labels.cause(c),
          })),
        ]}
        onChange={(v) => setFilter('cause', v)}
        testId="filter-cause"
      />
      {ledger.isPending ? (
        <SkeletonRows count={6} />
      ) : ledger.isError ? (
        <ErrorState onRetry={() => void ledger.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={t('funds.noRecords')} hint={t('funds.noRecordsHint')} />
      ) : (
        <>
          <p className="section-hint">{t('funds.recordsHint')}</p>
          {groupByDay(items, timeZone).map((group) => (
            <section key={group.day} aria-label={group.day}>
              <h2 className="day-head tabular">{group.day}</h2>
              <ul className="ledger" data-testid="ledger">
                {group.items.map((line) => (
                  <LedgerLine key={line.id} line={line} timeZone={timeZone} />
                ))}
              </ul>
            </section>
          ))}
          <div ref={sentinel} />
          <LoadMoreFooter state={loadMoreState(ledger)} onMore={loadMore} />
        </>
      )}
    </>
  );
}

export function FundsDetailPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.fundsDetail.index')}>
        <StatementDownload />
        <FundsRecords />
      </Page>
    </RequireLogin>
  );
}

/** The crypto records: the coin wallets' value on top, then their lines (both wallets, or one). */
function CryptoRecords() {
  return (
    <>
      <div className="account-cards">
        <CoinAssetsCard variant="summary" />
      </div>
      <FundsRecords walletChoices={CRYPTO_WALLETS} />
    </>
  );
}

/** coin/assetsRecord: the crypto records. */
export function AssetsRecordPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.coin.assetsRecord')}>
        <CryptoRecords />
      </Page>
    </RequireLogin>
  );
}

/** fundsDetail/cryptoFundsDetail: the same crypto records under the funds-detail title. */
export function CryptoFundsDetailPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.fundsDetail.cryptoFundsDetail')}>
        <CryptoRecords />
      </Page>
    </RequireLogin>
  );
}

// --- the monthly statement's download -----------------------------------------------------------------

/** The current month and the eleven before it, newest first, as YYYY-MM. */
function recentMonths(now = new Date()): string[] {
  return Array.from({ length: 12 }, (_, i) => {
    const d = new Date(now.getFullYear(), now.getMonth() - i, 1);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
  });
}

function StatementDownload() {
  const { t } = useTranslation();
  const months = recentMonths();
  const [month, setMonth] = useState(months[0] as string);
  const [busy, setBusy] = useState<'csv' | 'pdf' | null>(null);
  const download = async (format: 'csv' | 'pdf') => {
    setBusy(format);
    try {
      await downloadStatement(month, format);
    } catch (error) {
      Toast.show({ content: error instanceof Error ? error.message : t('common.networkError') });
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className="statement-box" aria-label={t('funds.statement.title')} data-testid="statement">
      <div className="statement-box__head">
        <span className="statement-box__title">{t('funds.statement.title')}</span>
        <select
          className="statement-box__month tabular"
          value={month}
          onChange={(e) => setMonth(e.target.value)}
          aria-label={t('funds.statement.month')}
          data-testid="statement-month"
        >
          {months.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </div>
      <div className="statement-box__actions">
        {(['csv', 'pdf'] as const).map((format) => (
          <Button
            key={format}
            size="small"
            fill="outline"
            color="primary"
            loading={busy === format}
            onClick={() => void download(format)}
            data-testid={`statement-${format}`}
          >
            {t(`funds.statement.${format}`)}
          </Button>
        ))}
      </div>
      <p className="statement-box__hint">{t('funds.statement.hint')}</p>
    </section>
  );
}

// --- wallet/recordDetail ----------------------------------------------------------------------------

function Counterparty({ value }: { value: string }) {
  const { t } = useTranslation();
  const session = useSession();
  // Another customer is never named: a trade's other side is "the market".
  if (value.startsWith('platform')) return <>{t('funds.counterparties.platform')}</>;
  if (session.user && value === String(session.user.id)) return <>{t('funds.counterparties.you')}</>;
  return <>{t('funds.counterparties.market')}</>;
}

function RecordDetail() {
  const { t } = useTranslation();
  const labels = useLabels();
  const [params] = useSearchParams();
  const timeZone = useDeploymentTimeZone();
  const id = params.get('id') ?? '';
  const query = useQuery({
    queryKey: ['user', 'tx', 'one', id],
    queryFn: () => apiGet<Paged<TransferView>>('/user/tx/record', { id, limit: 1 }, background),
    enabled: id !== '',
  });
  if (id !== '' && query.isPending) return <SkeletonRows count={6} />;
  if (query.isError) return <ErrorState onRetry={() => void query.refetch()} />;
  const line = query.data?.items[0];
  if (!line) return <EmptyState title={t('funds.detail.notFound')} hint={t('funds.detail.notFoundHint')} />;
  return (
    <>
      <section className="funds-detail__head" data-testid="record-detail">
        <CauseTag cause={line.cause} />
        <p className={`funds-detail__amount tabular ${pnlClass(line.amount)}`} data-testid="record-headline">
          <Money value={line.amount} asset={line.asset} isSigned />
        </p>
      </section>
      <dl className="list funds-detail">
        {(
          [
            ['cause', labels.cause(line.cause)],
            ['amount', formatAmount(line.amount, line.asset, currentLanguage(), { signDisplay: 'exceptZero' })],
            ['asset', labels.asset(line.asset)],
            ['wallet', labels.wallet(line.wallet)],
            ['time', formatDateTime(line.at, timeZone)],
            ['link', <LinkTarget key="l" link={line.link} />],
            ...(line.note ? ([['note', line.note]] as const) : []),
            ['counterparty', <Counterparty key="c" value={line.counterparty} />],
            ['id', line.id],
          ] as const
        ).map(([key, value]) => (
          <div key={key} className="list-row funds-detail__row">
            <dt className="list-row__label">{t(`funds.detail.${key}`)}</dt>
            <dd className="funds-detail__value tabular" data-testid={`record-${key}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <div className="list">
        <Link
          className="list-row"
          to={`/pages/fundsDetail/index?wallet=${encodeURIComponent(line.wallet)}&asset=${encodeURIComponent(line.asset)}`}
        >
          <span className="menu-row__icon">
            <ListIcon />
          </span>
          <span className="list-row__label">{t('funds.recordsOf')}</span>
          <ChevronRightIcon size={18} />
        </Link>
      </div>
    </>
  );
}

export function RecordDetailPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.wallet.recordDetail')}>
        <RecordDetail />
      </Page>
    </RequireLogin>
  );
}

/** What a line was caused by, opening it when the app has a screen for it (a withdrawal). */
function LinkTarget({ link }: { link: string }) {
  const withdrawal = /^withdrawal:(\d+)$/.exec(link);
  if (withdrawal) return <Link to={`/pages/withdraw/cryptoRecordDetail?id=${withdrawal[1]}`}>{link}</Link>;
  return <>{link || '--'}</>;
}
