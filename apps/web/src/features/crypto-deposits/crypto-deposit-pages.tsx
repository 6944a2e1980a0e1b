// Crypto deposits (SPEC §2 recharge/*): coinRecharge (choose the coin), cryptoRecharge (network tabs,
// the customer's address with copy and QR, confirmations needed, minimum, the "send only … on …"
// warning, and in paper mode a test deposit from the sandbox chain), coinRechargeList and cryptoRecord
// (deposits with confirmations n/N and status, refreshed while any is confirming; one in full by ?id=).
// The server decides everything; these screens show its answers. Amounts are exact decimal strings.
import type {
  CryptoDepositNoticeBody,
  CryptoDepositPageView,
  CryptoDepositView,
  CryptoNetworkView,
  DepositAddressView,
  DepositCoinsView,
} from '@bourse/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiGet, apiPost } from '../../app/api.ts';
import { type ApiError, newIdempotencyKey } from '../../app/request.ts';
import { copyText } from '../../app/shell/copy.ts';
import { ChevronRightIcon, ListIcon } from '../../app/shell/icons.tsx';
import { LinkRow } from '../../app/shell/link-row.tsx';
import { Page } from '../../app/shell/page.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { formatAmount } from '../../lib/market-format.ts';
import { formatDateTime } from '../../lib/time.ts';
import { RequireLogin } from '../accounts/security-page.tsx';
import {
  EmptyState,
  ErrorState,
  LoadMoreFooter,
  loadMoreState,
  Segmented,
  SkeletonRows,
  useSentinel,
} from '../markets/market-ui.tsx';
import './crypto-deposits.css';

const coinsKey = ['crypto', 'coins'] as const;
const depositsKey = ['crypto', 'deposits'] as const;
const background = { isBackground: true } as const;
/** While a deposit is confirming, its screen asks again this often (blocks come every 12–60 s). */
const REFRESH_MS = 4_000;
const PAGE_SIZE = 20;

/** A crypto amount with the decimals it has (at least two): "0.5 BTC", "250.50 USDT". */
export function formatCrypto(value: string, asset: string, language: string): string {
  const fraction = value.split('.')[1]?.replace(/0+$/, '') ?? '';
  return formatAmount(value, asset, language, { digits: Math.max(2, fraction.length) });
}

const isOpenStatus = (d: CryptoDepositView) => d.status === 'seen' || d.status === 'confirming';

function useCoins() {
  return useQuery({
    queryKey: coinsKey,
    queryFn: () => apiGet<DepositCoinsView>('/index/recharge/coins', undefined, background),
    staleTime: 60_000,
  });
}

function CoinBadge({ asset }: { asset: string }) {
  return (
    <span className={`coin-badge coin-badge--${asset.toLowerCase()}`} aria-hidden="true">
      {asset.slice(0, 1)}
    </span>
  );
}

function RecordsLink() {
  const { t } = useTranslation();
  return (
    <div className="list">
      <LinkRow
        to="/pages/recharge/coinRechargeList"
        icon=<ListIcon />
        label={t('crypto.records')}
        testId="crypto-records-link"
      />
    </div>
  );
}

// --- recharge/coinRecharge ----------------------------------------------------------------------------

function CoinList() {
  const { t } = useTranslation();
  const coins = useCoins();
  if (coins.isPending) return <SkeletonRows count={3} height={64} />;
  if (coins.isError) return <ErrorState onRetry={() => void coins.refetch()} />;
  return (
    <>
      {coins.data.isPaper && <p className="section-hint crypto-paper-hint">{t('crypto.paperHint')}</p>}
      <h2 className="crypto-section-title">{t('crypto.chooseCoin')}</h2>
      <ul className="list crypto-coins" data-testid="crypto-coins">
        {coins.data.items.map((coin) => (
          <li key={coin.asset}>
            <Link
              className="list-row crypto-coin"
              to={`/pages/recharge/cryptoRecharge?asset=${coin.asset}`}
              data-testid={`crypto-coin-${coin.asset}`}
            >
              <CoinBadge asset={coin.asset} />
              <span className="crypto-coin__text">
                <span className="crypto-coin__asset">{coin.asset}</span>
                <span className="crypto-coin__networks">{coin.networks.map((n) => n.name).join(' · ')}</span>
              </span>
              {!coin.isOpen && <span className="tag tag--warn">{t('crypto.closed')}</span>}
              <ChevronRightIcon size={18} />
            </Link>
          </li>
        ))}
      </ul>
      <RecordsLink />
    </>
  );
}

export function CoinRechargePage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.recharge.coinRecharge')}>
        <CoinList />
      </Page>
    </RequireLogin>
  );
}

// --- recharge/cryptoRecharge --------------------------------------------------------------------------

function Facts({ network, asset }: { network: CryptoNetworkView; asset: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <dl className="crypto-facts" data-testid="crypto-facts">
      <div>
        <dt>{t('crypto.confirmationsNeeded')}</dt>
        <dd className="tabular">{network.confirmations}</dd>
      </div>
      <div>
        <dt>{t('crypto.minimum')}</dt>
        <dd className="tabular">{formatCrypto(network.minimum, asset, language)}</dd>
      </div>
      <div>
        <dt>{t('crypto.creditedTo')}</dt>
        <dd>{t('crypto.spotWallet')}</dd>
      </div>
    </dl>
  );
}

function AddressCard({ view }: { view: DepositAddressView }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const generate = useMutation({
    mutationFn: () =>
      apiPost<DepositAddressView>('/coin/recharge/address/generate', {
        asset: view.asset,
        network: view.network.network,
      }),
    onSuccess: (data) => queryClient.setQueryData(['crypto', 'address', view.asset, view.network.network], data),
  });
  if (!view.address) {
    return (
      <section className="crypto-card" data-testid="crypto-no-address">
        <p className="crypto-card__hint">{t('crypto.noAddress', { asset: view.asset })}</p>
        <Button block color="primary" loading={generate.isPending} onClick={() => generate.mutate()}>
          {t('crypto.generate')}
        </Button>
      </section>
    );
  }
  const address = view.address;
  return (
    <section className="crypto-card" aria-label={t('crypto.address', { asset: view.asset })}>
      <h2 className="crypto-card__title">{t('crypto.address', { asset: view.asset })}</h2>
      {view.qr && (
        <img className="crypto-qr" src={view.qr} alt={t('crypto.qrAlt', { address })} width={200} height={200} />
      )}
      <p className="crypto-address" data-testid="crypto-address">
        {address}
      </p>
      <Button
        block
        fill="outline"
        color="primary"
        onClick={async () => {
          await copyText(address);
          Toast.show({ content: t('crypto.copied') });
        }}
      >
        {t('crypto.copy')}
      </Button>
    </section>
  );
}

function TestDeposit({ asset, network }: { asset: string; network: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // One key per amount typed: a retry after a lost answer sends nothing twice.
  const key = useRef<{ amount: string; id: string } | null>(null);
  const send = useMutation({
    mutationFn: (body: CryptoDepositNoticeBody) =>
      apiPost<CryptoDepositView>('/coin/recharge/add', body, { isSilent: true }),
    onSuccess: (deposit) => {
      Toast.show({ content: t('crypto.sent') });
      key.current = null;
      void queryClient.invalidateQueries({ queryKey: depositsKey });
      navigate(`/pages/recharge/cryptoRecord?id=${deposit.id}`);
    },
    onError: (error) => setProblem((error as ApiError).message),
  });
  const submit = () => {
    const value = amount.trim();
    if (!value) {
      setProblem(t('crypto.amountRequired'));
      return;
    }
    setProblem(null);
    if (key.current?.amount !== value) key.current = { amount: value, id: newIdempotencyKey() };
    send.mutate({ asset, network, amount: value, requestId: key.current.id });
  };
  return (
    <section className="crypto-card crypto-test" data-testid="crypto-test-deposit">
      <h2 className="crypto-card__title">{t('crypto.testTitle')}</h2>
      <p className="crypto-card__hint">{t('crypto.testHint')}</p>
      <div className="crypto-test__field">
        <label htmlFor="crypto-test-amount">
          {t('crypto.amount')} ({asset})
        </label>
        <Input
          id="crypto-test-amount"
          value={amount}
          onChange={setAmount}
          inputMode="decimal"
          placeholder="0.00"
          onEnterPress={submit}
        />
      </div>
      {problem && (
        <p className="form-banner" role="alert" data-testid="crypto-test-error">
          {problem}
        </p>
      )}
      <Button block color="primary" loading={send.isPending} disabled={send.isPending} onClick={submit}>
        {t('crypto.send')}
      </Button>
    </section>
  );
}

function CryptoRecharge() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const coins = useCoins();
  const coin = coins.data?.items.find((c) => c.asset === (params.get('asset') ?? '').toUpperCase());
  const networkCode = params.get('network') ?? coin?.networks[0]?.network ?? '';
  const network = coin?.networks.find((n) => n.network === networkCode);
  const address = useQuery({
    queryKey: ['crypto', 'address', coin?.asset, networkCode],
    queryFn: () => apiPost<DepositAddressView>('/coin/recharge/address', { asset: coin?.asset, network: networkCode }),
    enabled: Boolean(coin && network?.isOpen),
  });
  if (coins.isPending) return <SkeletonRows count={3} height={96} />;
  if (coins.isError) return <ErrorState onRetry={() => void coins.refetch()} />;
  if (!coin || !network) return <CoinList />;
  return (
    <div className="crypto-recharge">
      {coin.networks.length > 0 && (
        <Segmented
          label={t('crypto.network')}
          value={network.network}
          options={coin.networks.map((n) => ({ value: n.network, label: n.name }))}
          onChange={(value) => {
            const next = new URLSearchParams(params);
            next.set('network', value);
            setParams(next, { replace: true });
          }}
          testId="crypto-networks"
        />
      )}
      <p className="crypto-warning" role="note" data-testid="crypto-warning">
        {t('crypto.sendOnly', { asset: coin.asset, network: network.name })}
      </p>
      {!network.isOpen ? (
        <EmptyState title={t('crypto.closedNote')} />
      ) : address.isPending ? (
        <SkeletonRows count={1} height={300} />
      ) : address.isError ? (
        <ErrorState onRetry={() => void address.refetch()} />
      ) : (
        <AddressCard view={address.data} />
      )}
      <Facts network={network} asset={coin.asset} />
      <p className="section-hint">{t('crypto.belowMinimumNote')}</p>
      {coins.data.isPaper && network.isOpen && <TestDeposit asset={coin.asset} network={network.network} />}
      <RecordsLink />
    </div>
  );
}

export function CryptoRechargePage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.recharge.cryptoRecharge')}>
        <CryptoRecharge />
      </Page>
    </RequireLogin>
  );
}

// --- recharge/coinRechargeList and recharge/cryptoRecord ----------------------------------------------

function StatusTag({ deposit }: { deposit: CryptoDepositView }) {
  const { t } = useTranslation();
  const tone =
    deposit.status === 'credited'
      ? ' tag--open'
      : deposit.status === 'below_minimum' || deposit.status === 'failed'
        ? ' tag--warn'
        : '';
  return (
    <span className={`tag${tone}`} data-testid="crypto-status">
      {t(`crypto.statuses.${deposit.status}`)}
    </span>
  );
}

function Confirmations({ deposit }: { deposit: CryptoDepositView }) {
  // A deposit below the minimum is not followed after it is recorded: a count would look stuck.
  if (deposit.status === 'below_minimum')
    return (
      <span className="tabular crypto-confirmations" data-testid="crypto-confirmations">
        --
      </span>
    );
  const shown = Math.min(deposit.confirmations, deposit.confirmationsRequired);
  return (
    <span className="tabular crypto-confirmations" data-testid="crypto-confirmations">
      {shown}/{deposit.confirmationsRequired}
    </span>
  );
}

function reasonText(deposit: CryptoDepositView, t: (key: string, options?: Record<string, string>) => string) {
  if (deposit.status === 'below_minimum') {
    const minimum = deposit.reason.split(':')[1] ?? '';
    return t('crypto.belowMinimum', { minimum: formatCrypto(minimum, deposit.asset, currentLanguage()) });
  }
  if (deposit.status === 'failed') return t('crypto.failed', { reason: deposit.reason });
  return null;
}

function DepositRow({ deposit }: { deposit: CryptoDepositView }) {
  const language = currentLanguage();
  return (
    <li>
      <Link className="crypto-row" to={`/pages/recharge/cryptoRecord?id=${deposit.id}`} data-testid="crypto-deposit">
        <CoinBadge asset={deposit.asset} />
        <span className="crypto-row__body">
          <span className="crypto-row__amount tabular">{formatCrypto(deposit.amount, deposit.asset, language)}</span>
          <span className="crypto-row__meta">{deposit.networkName}</span>
          <span className="crypto-row__meta tabular">{formatDateTime(deposit.seenAt)}</span>
        </span>
        <span className="crypto-row__state">
          <StatusTag deposit={deposit} />
          <Confirmations deposit={deposit} />
        </span>
        <ChevronRightIcon size={16} />
      </Link>
    </li>
  );
}

function DepositList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useInfiniteQuery({
    queryKey: [...depositsKey, 'list'],
    queryFn: ({ pageParam }) =>
      apiGet<CryptoDepositPageView>('/coin/recharge/order', { page: pageParam, limit: PAGE_SIZE }, background),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.items.length, 0) < last.total && last.items.length > 0
        ? pages.length + 1
        : undefined,
    // Asked again while any shown deposit still confirms (every loaded page, so states stay in step).
    refetchInterval: (query) => (query.state.data?.pages.some((p) => p.items.some(isOpenStatus)) ? REFRESH_MS : false),
  });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const loadMore = () => {
    if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  };
  const sentinel = useSentinel(loadMore, Boolean(list.hasNextPage) && !list.isFetchNextPageError);
  if (list.isPending) return <SkeletonRows count={5} />;
  if (list.isError) return <ErrorState onRetry={() => void list.refetch()} />;
  if (items.length === 0)
    return (
      <EmptyState
        title={t('crypto.empty')}
        hint={t('crypto.emptyHint')}
        action={
          <Button color="primary" onClick={() => navigate('/pages/recharge/coinRecharge')}>
            {t('crypto.deposit')}
          </Button>
        }
      />
    );
  return (
    <>
      {items.some(isOpenStatus) && <p className="section-hint">{t('crypto.updating')}</p>}
      <ul className="crypto-list" data-testid="crypto-deposits">
        {items.map((d) => (
          <DepositRow key={d.id} deposit={d} />
        ))}
      </ul>
      <div ref={sentinel} />
      <LoadMoreFooter state={loadMoreState(list)} onMore={loadMore} />
    </>
  );
}

function DepositDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const one = useQuery({
    queryKey: [...depositsKey, 'one', id],
    queryFn: () => apiGet<CryptoDepositPageView>('/coin/recharge/order', { id }, { isSilent: true }),
    refetchInterval: (query) => (query.state.data?.items.some(isOpenStatus) ? REFRESH_MS : false),
    retry: false,
  });
  if (one.isPending) return <SkeletonRows count={4} />;
  if (one.isError) return <ErrorState message={(one.error as ApiError).message} onRetry={() => void one.refetch()} />;
  const deposit = one.data.items[0];
  if (!deposit) return <EmptyState title={t('crypto.notFound')} />;
  const reason = reasonText(deposit, t);
  const row = (label: string, value: ReactNode, testId?: string) => (
    <div data-testid={testId}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
  return (
    <section className="crypto-card" data-testid="crypto-deposit-detail">
      <div className="crypto-detail__head">
        <CoinBadge asset={deposit.asset} />
        <span className="crypto-detail__amount tabular" data-testid="crypto-detail-amount">
          {formatCrypto(deposit.amount, deposit.asset, language)}
        </span>
        <StatusTag deposit={deposit} />
      </div>
      {reason && (
        <p className="crypto-reason" role="note">
          {reason}
        </p>
      )}
      {isOpenStatus(deposit) && <p className="section-hint">{t('crypto.updating')}</p>}
      <dl className="crypto-detail">
        {row(t('crypto.confirmations'), <Confirmations deposit={deposit} />)}
        {row(t('crypto.network'), deposit.networkName)}
        {row(t('crypto.address', { asset: deposit.asset }), <span className="crypto-mono">{deposit.address}</span>)}
        {row(t('crypto.txid'), <span className="crypto-mono">{deposit.txid}</span>)}
        {row(t('crypto.seenAt'), <span className="tabular">{formatDateTime(deposit.seenAt)}</span>)}
        {row(t('crypto.updatedAt'), <span className="tabular">{formatDateTime(deposit.updatedAt)}</span>)}
        {deposit.creditedAt !== null &&
          row(t('crypto.creditedAt'), <span className="tabular">{formatDateTime(deposit.creditedAt)}</span>)}
      </dl>
      {deposit.transferId && (
        <Link
          className="list-row"
          to={`/pages/wallet/recordDetail?id=${encodeURIComponent(deposit.transferId)}`}
          data-testid="crypto-ledger-link"
        >
          <span className="list-row__label">{t('crypto.ledger')}</span>
          <ChevronRightIcon size={18} />
        </Link>
      )}
    </section>
  );
}

export function CoinRechargeListPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.recharge.coinRechargeList')}>
        <DepositList />
      </Page>
    </RequireLogin>
  );
}

export function CryptoRecordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  return (
    <RequireLogin>
      <Page title={t('titles.recharge.cryptoRecord')}>
        {Number.isSafeInteger(id) && id > 0 ? <DepositDetail id={id} /> : <DepositList />}
      </Page>
    </RequireLogin>
  );
}
