// Fiat deposits (SPEC §2 recharge/*): recharge (choose the currency), rechargeChannel (choose the rail;
// PIX's amount form), bankRecharge and offlineRecharge (the platform's receiving account with copy
// buttons, amount, the customer's reference and a receipt photo), bankRecord and rechargeRecord (lists
// with status chips) and a deposit's detail (rechargeRecord?id=…) with every state and, for PIX, the QR,
// the copy-paste code, the countdown and paper mode's "simulate payment". Every value comes from the
// server (limits, accounts, states); a money-moving request carries an idempotency key (requestId).
import type {
  DepositChannelsView,
  DepositChannelView,
  DepositCurrency,
  DepositDetailView,
  DepositRail,
  DepositStatus,
  DepositView,
  Paged,
  ReceivingAccountView,
} from '@bourse/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, ImageUploader, type ImageUploadItem, Input, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiGet, apiPost, usePlatformProps } from '../../app/api.ts';
import { newIdempotencyKey } from '../../app/request.ts';
import { getToken } from '../../app/session.ts';
import { copyText } from '../../app/shell/copy.ts';
import { ChevronRightIcon, CopyIcon, ListIcon } from '../../app/shell/icons.tsx';
import { LinkRow } from '../../app/shell/link-row.tsx';
import { Page } from '../../app/shell/page.tsx';
import { useDeploymentTimeZone } from '../../app/use-deployment-time-zone.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { formatAmount } from '../../lib/market-format.ts';
import { formatDateTime } from '../../lib/time.ts';
import { RequireLogin } from '../accounts/security-page.tsx';
import { applyServerErrors } from '../accounts/server-errors.ts';
import { ServerForm } from '../accounts/server-form.tsx';
import {
  EmptyState,
  ErrorState,
  LoadMoreFooter,
  loadMoreState,
  SkeletonRows,
  useSentinel,
} from '../markets/market-ui.tsx';
import './deposits.css';

const CURRENCIES: readonly DepositCurrency[] = ['INR', 'BRL', 'USD'];
const STATUSES: readonly DepositStatus[] = ['pending', 'awaiting_payment', 'confirmed', 'rejected', 'expired'];
const PAGE_SIZE = 20;
/** The server's cap; checked here too so a customer is told before a long upload. */
const MAX_BYTES = 5 * 1024 * 1024;
const recordsKey = ['user', 'recharge'] as const;
const detailPath = (id: number) => `/pages/recharge/rechargeRecord?id=${id}`;

const isCurrency = (value: string | null): value is DepositCurrency =>
  value !== null && (CURRENCIES as readonly string[]).includes(value);

/** The currency of the deployment's stock market: the natural first choice. */
function useHomeCurrency(): DepositCurrency {
  const country = usePlatformProps().data?.stockCountry ?? 'IN';
  return country === 'BR' ? 'BRL' : country === 'US' ? 'USD' : 'INR';
}

function useChannels() {
  return useQuery({
    queryKey: ['index', 'bank', 'recharge'],
    queryFn: () => apiGet<DepositChannelsView>('/index/bank/recharge'),
    staleTime: 30_000,
  });
}

const money = (value: string, currency: string) => formatAmount(value, currency, currentLanguage());

function StatusChip({ status }: { status: DepositStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`deposit-status deposit-status--${status}`} data-testid="deposit-status" data-status={status}>
      {t(`deposits.statuses.${status}`)}
    </span>
  );
}

function VirtualNote() {
  const { t } = useTranslation();
  const props = usePlatformProps();
  if (props.data?.mode === 'live') return null;
  return <p className="deposit-note">{t('deposits.virtualNote')}</p>;
}

// --- recharge/recharge ------------------------------------------------------------------------------

function CurrencyChoice() {
  const { t } = useTranslation();
  const home = useHomeCurrency();
  const ordered = [home, ...CURRENCIES.filter((c) => c !== home)];
  return (
    <>
      <VirtualNote />
      <h2 className="day-head">{t('deposits.chooseCurrency')}</h2>
      <div className="list">
        {ordered.map((currency) => (
          <Link
            key={currency}
            className="list-row"
            to={`/pages/recharge/rechargeChannel?currency=${currency}`}
            data-testid={`deposit-currency-${currency}`}
          >
            <span className="deposit-currency">{currency}</span>
            <span className="list-row__label">{t(`deposits.currencies.${currency}`)}</span>
            <ChevronRightIcon size={18} />
          </Link>
        ))}
        <Link className="list-row" to="/pages/recharge/coinRecharge" data-testid="deposit-crypto">
          <span className="deposit-currency">₿</span>
          <span className="list-row__label">{t('deposits.crypto')}</span>
          <ChevronRightIcon size={18} />
        </Link>
      </div>
      <RecordsLink />
    </>
  );
}

function RecordsLink() {
  const { t } = useTranslation();
  return (
    <div className="list">
      <LinkRow to="/pages/recharge/rechargeRecord" icon=<ListIcon /> label={t('deposits.records')} />
    </div>
  );
}

export function RechargePage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.recharge.recharge')}>
        <CurrencyChoice />
      </Page>
    </RequireLogin>
  );
}

// --- recharge/rechargeChannel -----------------------------------------------------------------------

function railLabel(t: (key: string) => string, channel: Pick<DepositChannelView, 'rail' | 'currency'>): string {
  return channel.rail === 'bank' && channel.currency === 'USD'
    ? t('deposits.wire')
    : t(`deposits.rails.${channel.rail}`);
}

function ChannelList({ currency }: { currency: DepositCurrency }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const channels = useChannels();
  const [isPixOpen, setPixOpen] = useState(false);
  if (channels.isPending) return <SkeletonRows count={3} height={72} />;
  if (channels.isError) return <ErrorState onRetry={() => void channels.refetch()} />;
  const mine = channels.data.items.filter((c) => c.currency === currency);
  if (mine.length === 0) return <EmptyState title={t('deposits.noRails')} />;
  const pix = mine.find((c) => c.rail === 'pix');
  const open = (c: DepositChannelView) => {
    if (!c.isOpen) return Toast.show({ content: t('deposits.closedHint') });
    if (c.rail === 'pix') return setPixOpen(true);
    navigate(`/pages/recharge/${c.rail === 'bank' ? 'bankRecharge' : 'offlineRecharge'}?currency=${c.currency}`);
  };
  return (
    <>
      <VirtualNote />
      <h2 className="day-head">
        {currency} · {t(`deposits.currencies.${currency}`)}
      </h2>
      <div className="list">
        {mine.map((c) => (
          <button
            key={c.rail}
            type="button"
            className={`list-row deposit-rail${c.isOpen ? '' : ' deposit-rail--closed'}`}
            onClick={() => open(c)}
            data-testid={`deposit-rail-${c.rail}`}
          >
            <span className="deposit-rail__body">
              <span className="deposit-rail__name">
                {railLabel(t, c)}
                <span className={`deposit-open deposit-open--${c.isOpen ? 'yes' : 'no'}`}>
                  {t(c.isOpen ? 'deposits.open' : 'deposits.closed')}
                </span>
              </span>
              <span className="deposit-rail__hint">{t(`deposits.railHints.${c.rail}`)}</span>
              <span className="deposit-rail__limits tabular">
                {t('deposits.limits', { min: money(c.minAmount, c.currency), max: money(c.maxAmount, c.currency) })}
              </span>
            </span>
            <ChevronRightIcon size={18} />
          </button>
        ))}
      </div>
      {pix && isPixOpen && <PixForm channel={pix} />}
      <RecordsLink />
    </>
  );
}

export function RechargeChannelPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const home = useHomeCurrency();
  const given = params.get('currency');
  const currency = isCurrency(given) ? given : home;
  return (
    <RequireLogin>
      <Page title={t('titles.recharge.rechargeChannel')}>
        <ChannelList currency={currency} />
      </Page>
    </RequireLogin>
  );
}

/** A fresh idempotency key per form: a retry of the same submission reuses it. */
function useRequestId(): string {
  const ref = useRef<string>('');
  if (!ref.current) ref.current = newIdempotencyKey();
  return ref.current;
}

function PixForm({ channel }: { channel: DepositChannelView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ amount: string }>();
  const [banner, setBanner] = useState<string | null>(null);
  const requestId = useRequestId();
  const create = useMutation({
    mutationFn: (amount: string) =>
      apiPost<DepositDetailView>(
        '/user/recharge/add',
        { rail: 'pix', currency: channel.currency, amount, requestId },
        { isSilent: true },
      ),
    onSuccess: (deposit) => {
      queryClient.setQueryData([...recordsKey, 'one', deposit.id], deposit);
      void queryClient.invalidateQueries({ queryKey: recordsKey });
      navigate(detailPath(deposit.id));
    },
    onError: (error) => setBanner(applyServerErrors(form, error, ['amount'])),
  });
  return (
    <section className="deposit-section deposit-form" aria-label={t('deposits.pixAmount')}>
      <ServerForm
        form={form}
        banner={banner}
        isPending={create.isPending}
        submitText={t('deposits.pixCreate')}
        testId="pix-form"
        onSubmit={(values: { amount: string }) => {
          setBanner(null);
          create.mutate(values.amount.trim().replace(',', '.'));
        }}
      >
        <Form.Item
          name="amount"
          label={t('deposits.pixAmount')}
          rules={[{ required: true, message: t('deposits.amountRequired') }]}
          description={t('deposits.amountHint', {
            min: money(channel.minAmount, channel.currency),
            max: money(channel.maxAmount, channel.currency),
          })}
        >
          <Input inputMode="decimal" autoComplete="off" data-testid="pix-amount" placeholder="0,00" />
        </Form.Item>
      </ServerForm>
      <p className="deposit-note deposit-note--plain">{t('deposits.pixNight', { max: money('1000.00', 'BRL') })}</p>
    </section>
  );
}

// --- recharge/bankRecharge and recharge/offlineRecharge ---------------------------------------------

function CopyRow({ label, value, isStacked = false }: { label: string; value: string; isStacked?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={`deposit-account__row${isStacked ? ' deposit-account__row--stacked' : ''}`}>
      <span className="deposit-account__label">{label}</span>
      <code className="deposit-account__value">{value}</code>
      <button
        type="button"
        className="icon-button"
        aria-label={`${t('common.copy')}: ${label}`}
        onClick={async () => {
          await copyText(value);
          Toast.show({ content: t('common.copied') });
        }}
      >
        <CopyIcon size={18} />
      </button>
    </div>
  );
}

function AccountCard({ account }: { account: ReceivingAccountView }) {
  const { t } = useTranslation();
  const rows = (
    ['holderName', 'bankName', 'accountNumber', 'ifsc', 'branch', 'swift', 'routingNumber'] as const
  ).filter((key) => account[key]);
  return (
    <section className="deposit-account" aria-label={t('deposits.sendTo')} data-testid="deposit-account">
      <h2 className="deposit-account__title">{t('deposits.sendTo')}</h2>
      {account.isSandbox && <p className="deposit-account__sandbox">{t('deposits.sandboxAccount')}</p>}
      {rows.map((key) => (
        <CopyRow key={key} label={t(`deposits.account.${key}`)} value={account[key] ?? ''} />
      ))}
    </section>
  );
}

const asDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

type TransferValues = { amount: string; reference: string };

function TransferForm({ rail, currency }: { rail: 'bank' | 'offline'; currency: DepositCurrency }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const channels = useChannels();
  const [form] = Form.useForm<TransferValues>();
  const [photo, setPhoto] = useState<ImageUploadItem[]>([]);
  const [banner, setBanner] = useState<string | null>(null);
  const requestId = useRequestId();
  const submit = useMutation({
    mutationFn: (values: TransferValues) =>
      apiPost<DepositDetailView>(
        '/user/recharge/add',
        {
          rail,
          currency,
          amount: values.amount.trim().replace(',', '.'),
          reference: values.reference,
          proof: photo[0]?.url ?? '',
          requestId,
        },
        { isSilent: true },
      ),
    onSuccess: (deposit) => {
      Toast.show({ content: t('deposits.submitted') });
      queryClient.setQueryData([...recordsKey, 'one', deposit.id], deposit);
      void queryClient.invalidateQueries({ queryKey: recordsKey });
      navigate(detailPath(deposit.id), { replace: true });
    },
    onError: (error) => setBanner(applyServerErrors(form, error, ['amount', 'reference'])),
  });
  if (channels.isPending) return <SkeletonRows count={4} height={64} />;
  if (channels.isError) return <ErrorState onRetry={() => void channels.refetch()} />;
  const channel = channels.data.items.find((c) => c.currency === currency && c.rail === rail);
  if (!channel) return <EmptyState title={t('deposits.noRails')} />;
  if (!channel.isOpen || !channel.account) return <EmptyState title={t('deposits.closedHint')} />;
  const upload = async (file: File): Promise<ImageUploadItem> => {
    if (file.size > MAX_BYTES) {
      Toast.show({ content: t('deposits.tooLarge') });
      throw new Error('too large');
    }
    return { url: await asDataUrl(file) };
  };
  return (
    <>
      <VirtualNote />
      <AccountCard account={channel.account} />
      <div className="padded deposit-form">
        <ServerForm
          form={form}
          banner={banner}
          isPending={submit.isPending}
          submitText={t('deposits.submit')}
          testId="deposit-form"
          onSubmit={(values: TransferValues) => {
            setBanner(null);
            if (photo.length === 0) return setBanner(t('deposits.proofRequired'));
            submit.mutate(values);
          }}
        >
          <Form.Item
            name="amount"
            label={`${t('deposits.amount')} (${currency})`}
            rules={[{ required: true, message: t('deposits.amountRequired') }]}
            description={t('deposits.amountHint', {
              min: money(channel.minAmount, currency),
              max: money(channel.maxAmount, currency),
            })}
          >
            <Input inputMode="decimal" autoComplete="off" data-testid="deposit-amount" />
          </Form.Item>
          <Form.Item
            name="reference"
            label={t('deposits.reference')}
            description={t('deposits.referenceHint')}
            rules={[{ required: true, message: t('deposits.referenceRequired') }]}
          >
            <Input maxLength={64} autoComplete="off" data-testid="deposit-reference" />
          </Form.Item>
          <Form.Item label={t('deposits.proof')}>
            <div data-testid="deposit-proof">
              <ImageUploader
                value={photo}
                onChange={setPhoto}
                upload={upload}
                maxCount={1}
                accept="image/jpeg,image/png,image/webp"
                // Our own preview: antd-mobile's has no alt text and an unlabelled delete icon.
                renderItem={(_node, file) => (
                  <div className="adm-image-uploader-cell deposit-proof-cell">
                    <img className="deposit-proof-cell__image" src={file.url} alt={t('deposits.proof')} />
                    <button
                      type="button"
                      className="deposit-proof-cell__remove"
                      aria-label={t('deposits.removeProof')}
                      onClick={() => setPhoto([])}
                    >
                      ×
                    </button>
                  </div>
                )}
              />
            </div>
          </Form.Item>
        </ServerForm>
        <p className="section-hint">{t('deposits.reviewNote')}</p>
      </div>
    </>
  );
}

function TransferPage({ rail }: { rail: 'bank' | 'offline' }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const home = useHomeCurrency();
  const channels = useChannels();
  const given = params.get('currency');
  const currency = isCurrency(given) ? given : home;
  const offered = CURRENCIES.filter((c) => channels.data?.items.some((i) => i.currency === c && i.rail === rail));
  return (
    <RequireLogin>
      <Page title={t(`titles.recharge.${rail === 'bank' ? 'bankRecharge' : 'offlineRecharge'}`)}>
        {offered.length > 1 && (
          <fieldset className="deposit-filter">
            <legend className="deposit-filter__label">{t('deposits.chooseCurrency')}</legend>
            <div className="chips deposit-chips">
              {offered.map((c) => (
                <button
                  key={c}
                  type="button"
                  className={`chip-button${c === currency ? ' chip-button--on' : ''}`}
                  aria-pressed={c === currency}
                  onClick={() => setParams({ currency: c }, { replace: true })}
                >
                  {c}
                </button>
              ))}
            </div>
          </fieldset>
        )}
        <TransferForm key={currency} rail={rail} currency={currency} />
      </Page>
    </RequireLogin>
  );
}

export const BankRechargePage = () => <TransferPage rail="bank" />;
export const OfflineRechargePage = () => <TransferPage rail="offline" />;

// --- recharge/bankRecord and recharge/rechargeRecord ------------------------------------------------

function Chips<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T | '';
  options: readonly { value: T | ''; label: string }[];
  onChange: (value: T | '') => void;
}) {
  return (
    <fieldset className="deposit-filter">
      <legend className="deposit-filter__label">{label}</legend>
      <div className="chips deposit-chips">
        {options.map((o) => (
          <button
            key={o.value || 'all'}
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

function DepositRow({ deposit, timeZone }: { deposit: DepositView; timeZone: string }) {
  const { t } = useTranslation();
  return (
    <li>
      <Link className="ledger-row deposit-row" to={detailPath(deposit.id)} data-testid="deposit-row">
        <span className="ledger-row__body">
          <span className="deposit-row__rail">{railLabel(t, deposit)}</span>
          <span className="ledger-row__time tabular">{formatDateTime(deposit.createdAt, timeZone)}</span>
        </span>
        <span className="deposit-row__right">
          <span className="tabular deposit-row__amount">{money(deposit.amount, deposit.currency)}</span>
          <StatusChip status={deposit.status} />
        </span>
        <ChevronRightIcon size={16} />
      </Link>
    </li>
  );
}

function DepositList({ rails }: { rails: readonly DepositRail[] }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const timeZone = useDeploymentTimeZone();
  const statusParam = params.get('status') ?? '';
  const railParam = params.get('rail') ?? '';
  const status = (STATUSES as readonly string[]).includes(statusParam) ? (statusParam as DepositStatus) : '';
  const rail = (rails as readonly string[]).includes(railParam)
    ? (railParam as DepositRail)
    : rails.length === 1
      ? rails[0]!
      : '';
  const setFilter = (name: 'status' | 'rail', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const list = useInfiniteQuery({
    queryKey: [...recordsKey, 'list', status, rail, rails.join(',')],
    queryFn: ({ pageParam }) =>
      apiGet<Paged<DepositView>>(
        '/user/recharge/order',
        { page: pageParam, limit: PAGE_SIZE, ...(status ? { status } : {}), rail: rail || rails.join(',') },
        { isBackground: true },
      ),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.items.length, 0) < last.total && last.items.length > 0
        ? pages.length + 1
        : undefined,
    refetchInterval: 10_000,
  });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const loadMore = () => {
    if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  };
  const sentinel = useSentinel(loadMore, Boolean(list.hasNextPage) && !list.isFetchNextPageError);
  return (
    <>
      {rails.length > 1 && (
        <Chips
          label={t('deposits.filterRail')}
          value={rail}
          options={[
            { value: '' as const, label: t('deposits.all') },
            ...rails.map((r) => ({ value: r, label: t(`deposits.rails.${r}`) })),
          ]}
          onChange={(v) => setFilter('rail', v)}
        />
      )}
      <Chips
        label={t('deposits.filterStatus')}
        value={status}
        options={[
          { value: '' as const, label: t('deposits.all') },
          ...STATUSES.filter((s) => s !== 'awaiting_payment' || rails.includes('pix')).map((s) => ({
            value: s,
            label: t(`deposits.statuses.${s}`),
          })),
        ]}
        onChange={(v) => setFilter('status', v)}
      />
      {list.isPending ? (
        <SkeletonRows count={6} />
      ) : list.isError ? (
        <ErrorState onRetry={() => void list.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState
          title={t('deposits.noRecords')}
          hint={t('deposits.noRecordsHint')}
          action={
            <Link className="btn btn--primary" to="/pages/recharge/recharge">
              {t('deposits.newDeposit')}
            </Link>
          }
        />
      ) : (
        <>
          <ul className="ledger deposit-list" data-testid="deposit-list">
            {items.map((d) => (
              <DepositRow key={d.id} deposit={d} timeZone={timeZone} />
            ))}
          </ul>
          <div ref={sentinel} />
          <LoadMoreFooter state={loadMoreState(list)} onMore={loadMore} />
        </>
      )}
    </>
  );
}

export function BankRecordPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.recharge.bankRecord')}>
        <DepositList rails={['bank', 'offline']} />
      </Page>
    </RequireLogin>
  );
}

export function RechargeRecordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? '');
  return (
    <RequireLogin>
      <Page title={t('titles.recharge.rechargeRecord')}>
        {Number.isSafeInteger(id) && id > 0 ? (
          <DepositDetail id={id} />
        ) : (
          <DepositList rails={['bank', 'offline', 'pix']} />
        )}
      </Page>
    </RequireLogin>
  );
}

// --- a deposit's detail (rechargeRecord?id=…) --------------------------------------------------------

function useCountdown(untilMs: number | null): string | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (untilMs === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [untilMs]);
  if (untilMs === null) return null;
  const left = Math.max(0, Math.floor((untilMs - now) / 1000));
  return `${String(Math.floor(left / 60)).padStart(2, '0')}:${String(left % 60).padStart(2, '0')}`;
}

function PixPanel({ deposit }: { deposit: DepositDetailView }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const left = useCountdown(deposit.status === 'awaiting_payment' ? deposit.expiresAt : null);
  const simulate = useMutation({
    mutationFn: () => apiPost<DepositDetailView>('/user/recharge/simulate', { id: deposit.id }),
    onSuccess: (paid) => {
      queryClient.setQueryData([...recordsKey, 'one', deposit.id], paid);
      void queryClient.invalidateQueries({ queryKey: recordsKey });
      void queryClient.invalidateQueries({ queryKey: ['user', 'assets'] });
    },
  });
  if (!deposit.pix || deposit.status !== 'awaiting_payment') return null;
  return (
    <section className="deposit-pix" aria-label={t('deposits.pix.code')} data-testid="pix-panel">
      <p className="deposit-pix__scan">{t('deposits.pix.scan')}</p>
      <img
        className="deposit-pix__qr"
        src={deposit.pix.qrDataUrl}
        alt={t('deposits.pix.code')}
        width={220}
        height={220}
      />
      {left && (
        <p className="deposit-pix__countdown tabular" data-testid="pix-countdown">
          {t('deposits.pix.expiresIn', { time: left })}
        </p>
      )}
      <CopyRow label={t('deposits.pix.code')} value={deposit.pix.brCode} isStacked />
      {deposit.canSimulate && (
        <div className="deposit-pix__simulate">
          <button
            type="button"
            className="btn btn--primary btn--block"
            disabled={simulate.isPending}
            onClick={() => simulate.mutate()}
            data-testid="pix-simulate"
          >
            {t('deposits.pix.simulate')}
          </button>
          <p className="section-hint">{t('deposits.pix.simulateHint')}</p>
        </div>
      )}
    </section>
  );
}

function DepositDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const timeZone = useDeploymentTimeZone();
  const query = useQuery({
    queryKey: [...recordsKey, 'one', id],
    queryFn: () => apiGet<DepositDetailView>('/user/recharge/status', { id }, { isBackground: true, isSilent: true }),
    // A PIX charge is watched until it is paid or expires.
    refetchInterval: (q) => (q.state.data?.status === 'awaiting_payment' ? 3_000 : false),
    retry: false,
  });
  if (query.isPending) return <SkeletonRows count={6} />;
  if (query.isError) return <EmptyState title={t('deposits.detail.notFound')} />;
  const d = query.data;
  const rows: [string, string][] = [
    ['rail', railLabel(t, d)],
    ['amount', money(d.amount, d.currency)],
    ...(d.reference ? ([['reference', d.reference]] as [string, string][]) : []),
    ...(d.txid ? ([['txid', d.txid]] as [string, string][]) : []),
    ['createdAt', formatDateTime(d.createdAt, timeZone)],
    ['updatedAt', formatDateTime(d.updatedAt, timeZone)],
    ...(d.reason && d.status === 'rejected' ? ([['reason', d.reason]] as [string, string][]) : []),
  ];
  return (
    <div data-testid="deposit-detail">
      <section className="deposit-head">
        <StatusChip status={d.status} />
        <p className="deposit-head__amount tabular" data-testid="deposit-amount-head">
          {money(d.amount, d.currency)}
        </p>
        {d.status === 'confirmed' && d.rail === 'pix' && (
          <p className="deposit-credited">{t('deposits.pix.credited')}</p>
        )}
        {d.status === 'expired' && <p className="muted">{t('deposits.pix.expired')}</p>}
      </section>
      <PixPanel deposit={d} />
      <dl className="list deposit-facts">
        {rows.map(([key, value]) => (
          <div key={key} className="list-row deposit-facts__row">
            <dt className="list-row__label">{t(`deposits.detail.${key}`)}</dt>
            <dd className="deposit-facts__value tabular" data-testid={`deposit-${key}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {d.hasProof && <ProofImage id={d.id} />}
      <h2 className="day-head">{t('deposits.detail.history')}</h2>
      <ol className="deposit-history" data-testid="deposit-history">
        {d.history.map((h, i) => (
          <li key={`${h.at}-${i}`} className="deposit-history__step">
            <span className="deposit-history__dot" aria-hidden="true" />
            <span className="deposit-history__body">
              <span className="deposit-history__head">
                <StatusChip status={h.to} />
                <span className="tabular muted">{formatDateTime(h.at, timeZone)}</span>
              </span>
              <span className="deposit-history__who">{t(`deposits.actors.${h.actor}`)}</span>
              {h.reason && <span className="deposit-history__reason">{h.reason}</span>}
            </span>
          </li>
        ))}
      </ol>
      {d.transferId && (
        <div className="list">
          <Link
            className="list-row"
            to={`/pages/wallet/recordDetail?id=${encodeURIComponent(d.transferId)}`}
            data-testid="deposit-ledger-link"
          >
            <span className="list-row__label">{t('deposits.viewLedger')}</span>
            <ChevronRightIcon size={18} />
          </Link>
          <Link className="list-row" to="/pages/user/assets" data-testid="deposit-assets-link">
            <span className="list-row__label">{t('deposits.viewAssets')}</span>
            <ChevronRightIcon size={18} />
          </Link>
        </div>
      )}
    </div>
  );
}

/** The customer's own receipt photo, fetched with their token and shown from memory (never a public URL). */
function ProofImage({ id }: { id: number }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let isLive = true;
    const token = getToken();
    void fetch(`/ipor-api/user/recharge/proof/${id}`, { headers: token ? { token } : {} })
      .then((res) => (res.ok ? res.blob() : null))
      .then((blob) => {
        if (!isLive || blob === null) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      isLive = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id]);
  if (!url) return null;
  return (
    <figure className="deposit-proof">
      <img src={url} alt={t('deposits.proof')} data-testid="deposit-proof-image" />
      <figcaption className="muted">{t('deposits.proof')}</figcaption>
    </figure>
  );
}
