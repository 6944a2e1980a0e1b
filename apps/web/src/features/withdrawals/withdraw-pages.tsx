// Withdrawals (SPEC §2 withdraw/* and wallet/addAdress, wallet/addressList): choose bank or crypto, the
// bank/PIX and crypto forms (the fee shown before confirming and taken from the amount, what arrives, the
// 24-hour lock with its end time), the 6-digit withdrawal password on a keypad, the records and one
// withdrawal with every state and its time (PRODUCT.md rule 5), and the withdrawal address book.
// The server decides every rule; these screens ask, preview and show its answers.
import type {
  AddWithdrawAddressInput,
  BankListView,
  BankWithdrawInput,
  CoinWithdrawInput,
  WithdrawAddressListView,
  WithdrawalListView,
  WithdrawalView,
  WithdrawConfigView,
  WithdrawTerms,
} from '@bourse/contract';
import { compareDecimal, subtractDecimals } from '@bourse/money';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Form, Input, List, type PasscodeInputRef, Selector, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiGet, apiPost, useLoginInfo, usePlatformProps } from '../../app/api.ts';
import { ApiError, newIdempotencyKey } from '../../app/request.ts';
import { useSession } from '../../app/session.ts';
import { ChevronRightIcon } from '../../app/shell/icons.tsx';
import { Page } from '../../app/shell/page.tsx';
import { PasscodeSheet } from '../../app/shell/passcode-sheet.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { formatAmount } from '../../lib/market-format.ts';
import { formatDateTime } from '../../lib/time.ts';
import { RequireLogin } from '../accounts/security-page.tsx';
import { applyServerErrors } from '../accounts/server-errors.ts';
import { ServerForm } from '../accounts/server-form.tsx';
import { EmptyState, ErrorState, SkeletonRows } from '../markets/market-ui.tsx';
import './withdrawals.css';

const keys = {
  config: ['withdraw', 'config'] as const,
  banks: ['bank', 'list'] as const,
  addresses: (asset: string) => ['withdraw', 'addresses', asset] as const,
  list: (kind: 'bank' | 'crypto') => ['withdraw', 'list', kind] as const,
  one: (id: number) => ['withdraw', 'one', id] as const,
};
const CRYPTO_ASSETS = ['USDT', 'BTC', 'ETH'] as const;

function useMoney() {
  const language = currentLanguage();
  return (value: string | undefined, asset: string) => formatAmount(value, asset, language);
}

function useConfig() {
  return useQuery({ queryKey: keys.config, queryFn: () => apiGet<WithdrawConfigView>('/user/withdraw/config') });
}

/** What must be in place before a withdrawal: the lock's end, KYC, the withdrawal password. */
function Readiness({ config }: { config: WithdrawConfigView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      {config.withdrawalsLockedUntil > 0 && (
        <p className="wd-notice wd-notice--warn" data-testid="withdraw-lock">
          {t('withdrawals.lockedUntil', { time: formatDateTime(config.withdrawalsLockedUntil) })}
        </p>
      )}
      {config.kycStatus !== 'succ' && (
        <div className="wd-notice wd-notice--warn" data-testid="withdraw-kyc">
          <span>{t('withdrawals.kycNeeded')}</span>
          <Button size="mini" color="primary" fill="outline" onClick={() => navigate('/pages/user/kyc')}>
            {t('withdrawals.goKyc')}
          </Button>
        </div>
      )}
      {!config.withdrawPasswordSet && (
        <div className="wd-notice wd-notice--warn" data-testid="withdraw-pin">
          <span>{t('withdrawals.passwordNeeded')}</span>
          <Button size="mini" color="primary" fill="outline" onClick={() => navigate('/pages/user/security')}>
            {t('withdrawals.goSecurity')}
          </Button>
        </div>
      )}
    </>
  );
}

function LinkRow({ to, title, hint, testId }: { to: string; title: string; hint?: string; testId?: string }) {
  return (
    <Link className="wd-choice" to={to} data-testid={testId}>
      <span className="wd-choice__text">
        <span className="wd-choice__title">{title}</span>
        {hint && <span className="wd-choice__hint">{hint}</span>}
      </span>
      <ChevronRightIcon />
    </Link>
  );
}

export function WithdrawPage() {
  const { t } = useTranslation();
  const config = useConfig();
  return (
    <RequireLogin>
      <Page title={t('titles.withdraw.withdraw')}>
        <div className="padded">
          {config.data && <Readiness config={config.data} />}
          <h2 className="wd-heading">{t('withdrawals.chooseTitle')}</h2>
          <div className="wd-choices">
            <LinkRow
              to="/pages/withdraw/bankWithdraw"
              title={t('withdrawals.bankChoice')}
              hint={t('withdrawals.bankChoiceHint')}
              testId="choose-bank"
            />
            <LinkRow
              to="/pages/withdraw/cryptoWithdraw"
              title={t('withdrawals.cryptoChoice')}
              hint={t('withdrawals.cryptoChoiceHint')}
              testId="choose-crypto"
            />
            <LinkRow to="/pages/withdraw/recordIndex" title={t('withdrawals.records')} />
          </div>
          <p className="muted wd-small">{t('withdrawals.heldNote')}</p>
        </div>
      </Page>
    </RequireLogin>
  );
}

/** Amount, limits, the fee and what arrives, computed exactly from the decimal strings. */
function AmountField({
  terms,
  amount,
  onChange,
}: {
  terms: WithdrawTerms;
  amount: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const valid = /^\d+(\.\d+)?$/.test(amount);
  const receive = valid && compareDecimal(amount, terms.fee) > 0 ? subtractDecimals(amount, terms.fee) : null;
  const needsReview = valid && compareDecimal(amount, terms.reviewAbove) > 0;
  return (
    <div className="wd-amount">
      <label className="wd-label" htmlFor="withdraw-amount">
        {t('withdrawals.amount')}
      </label>
      <div className="wd-amount__row">
        <Input
          id="withdraw-amount"
          value={amount}
          onChange={(v) => onChange(v.replace(',', '.').replace(/[^\d.]/g, ''))}
          inputMode="decimal"
          placeholder={t('withdrawals.amountPlaceholder', { min: money(terms.min, terms.asset) })}
          data-testid="withdraw-amount"
          clearable
        />
        <Button size="small" fill="none" color="primary" onClick={() => onChange(terms.available)}>
          {t('withdrawals.all')}
        </Button>
      </div>
      <p className="muted wd-small">
        {t('withdrawals.available', { amount: money(terms.available, terms.asset) })} ·{' '}
        {t('withdrawals.limits', { min: money(terms.min, terms.asset), max: money(terms.max, terms.asset) })}
      </p>
      <dl className="confirm__rows wd-preview" data-testid="withdraw-preview">
        <div className="confirm__row">
          <dt>{t('withdrawals.fee')}</dt>
          <dd className="tabular">{money(terms.fee, terms.asset)}</dd>
        </div>
        <div className="confirm__row">
          <dt>{t('withdrawals.receive')}</dt>
          <dd className="tabular wd-receive" data-testid="withdraw-receive">
            {receive ? money(receive, terms.asset) : '--'}
          </dd>
        </div>
      </dl>
      <p className="muted wd-small">
        {needsReview
          ? t('withdrawals.reviewNotice', { amount: money(terms.reviewAbove, terms.asset) })
          : t('withdrawals.autoNotice')}
      </p>
    </div>
  );
}

type Pending = { rows: [string, string][]; send: (password: string) => Promise<WithdrawalView> };

/** The confirmation sheet: what is withdrawn, the fee, what arrives, then the 6-digit password. */
function ConfirmSheet({ pending, onClose }: { pending: Pending | null; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [passcode, setPasscode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<PasscodeInputRef>(null);
  const isOpen = pending !== null;
  useEffect(() => {
    if (!isOpen) return;
    setPasscode('');
    setError(null);
    const timer = setTimeout(() => ref.current?.focus(), 350);
    return () => clearTimeout(timer);
  }, [isOpen]);
  const submit = useMutation({
    mutationFn: (password: string) => {
      if (!pending) throw new Error('nothing to send');
      return pending.send(password);
    },
    onSuccess: (w) => {
      Toast.show({ content: t('withdrawals.submitted') });
      void queryClient.invalidateQueries({ queryKey: ['withdraw'] });
      void queryClient.invalidateQueries({ queryKey: ['user', 'assets'] });
      onClose();
      navigate(`/pages/withdraw/cryptoRecordDetail?id=${w.id}`);
    },
    onError: (cause) => {
      setPasscode('');
      if (
        cause instanceof ApiError &&
        (cause.error === 'kyc_required' || cause.error === 'withdraw_password_not_set')
      ) {
        const toKyc = cause.error === 'kyc_required';
        void Dialog.confirm({
          content: cause.message,
          confirmText: t(toKyc ? 'withdrawals.goKyc' : 'withdrawals.goSecurity'),
          cancelText: t('common.cancel'),
        }).then((isConfirmed) => {
          if (isConfirmed) navigate(toKyc ? '/pages/user/kyc' : '/pages/user/security');
        });
        onClose();
        return;
      }
      setError(cause instanceof Error ? cause.message : String(cause));
    },
  });
  return (
    <PasscodeSheet
      isOpen={isOpen}
      title={t('withdrawals.confirmTitle')}
      rows={pending?.rows ?? []}
      valueClassName="wd-break"
      prompt={t('withdrawals.enterPassword')}
      passcode={passcode}
      passcodeRef={ref}
      onPasscodeChange={(value) => {
        setPasscode(value);
        if (value) setError(null);
      }}
      onFill={(value) => {
        if (!submit.isPending) submit.mutate(value);
      }}
      isPending={submit.isPending}
      pendingText={t('withdrawals.submitting')}
      error={error}
      forgot={{ to: '/pages/user/security', label: t('withdrawals.forgotPassword') }}
      onClose={onClose}
      testIds={{ dialog: 'withdraw-confirm', passcode: 'withdraw-passcode', error: 'withdraw-error' }}
    />
  );
}

function BankWithdrawForm({ config }: { config: WithdrawConfigView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const money = useMoney();
  const banks = useQuery({ queryKey: keys.banks, queryFn: () => apiGet<BankListView>('/bank/list') });
  const [bankId, setBankId] = useState<number | null>(null);
  const [method, setMethod] = useState<'bank' | 'pix'>('bank');
  const [amount, setAmount] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  // A retry after a lost answer reuses the key; a new withdrawal gets a new one.
  const [requestId, setRequestId] = useState(newIdempotencyKey);
  const accounts = banks.data?.items ?? [];
  const account = accounts.find((a) => a.id === bankId) ?? accounts[0];
  const currency = account?.country === 'BR' ? 'BRL' : 'INR';
  const rail = account?.country === 'BR' ? method : 'bank';
  const terms = config.terms.find((x) => x.rail === rail && x.asset === currency);
  if (banks.isPending) return <SkeletonRows count={3} />;
  if (banks.isError) return <ErrorState onRetry={() => void banks.refetch()} />;
  if (!account)
    return (
      <EmptyState
        title={t('withdrawals.noAccounts')}
        action={
          <Button color="primary" onClick={() => navigate('/pages/wallet/addBank')}>
            {t('withdrawals.addAccount')}
          </Button>
        }
      />
    );
  const destination = `${account.bankName} •••• ${account.accountNumber.slice(-4)}`;
  return (
    <>
      <p className="wd-label">{t('withdrawals.account')}</p>
      <Selector
        columns={1}
        value={[account.id]}
        onChange={(v) => v[0] !== undefined && setBankId(v[0])}
        options={accounts.map((a) => ({
          value: a.id,
          label: `${a.bankName} •••• ${a.accountNumber.slice(-4)}`,
          description: `${a.holderName} · ${a.country === 'IN' ? `IFSC ${a.ifsc}` : `PIX ${a.pixKey}`}`,
        }))}
        data-testid="withdraw-account"
      />
      <Link className="wd-link" to="/pages/wallet/bankList?type=2">
        {t('withdrawals.addAccount')}
      </Link>
      {account.country === 'BR' && (
        <>
          <p className="wd-label">{t('withdrawals.method')}</p>
          <Selector
            value={[method]}
            onChange={(v) => v[0] && setMethod(v[0])}
            options={(['bank', 'pix'] as const).map((value) => ({ value, label: t(`withdrawals.methods.${value}`) }))}
          />
        </>
      )}
      {terms && !terms.open && <p className="wd-notice wd-notice--warn">{t('withdrawals.closed')}</p>}
      {terms && <AmountField terms={terms} amount={amount} onChange={setAmount} />}
      <Button
        block
        color="primary"
        size="large"
        disabled={!terms || !/^\d+(\.\d+)?$/.test(amount)}
        onClick={() =>
          terms &&
          setPending({
            rows: [
              [t('withdrawals.destination'), rail === 'pix' ? `PIX ${account.pixKey}` : destination],
              [t('withdrawals.amount'), money(amount, currency)],
              [t('withdrawals.fee'), money(terms.fee, currency)],
              [t('withdrawals.receive'), money(subtractDecimals(amount, terms.fee), currency)],
            ],
            send: async (password) => {
              try {
                return await apiPost<WithdrawalView>(
                  '/user/withdraw/add',
                  {
                    bankId: account.id,
                    currency,
                    method: rail === 'pix' ? 'pix' : 'bank',
                    amount,
                    password,
                    requestId,
                  } satisfies BankWithdrawInput,
                  { isSilent: true },
                );
              } finally {
                setRequestId(newIdempotencyKey());
              }
            },
          })
        }
        data-testid="withdraw-next"
      >
        {t('withdrawals.next')}
      </Button>
      <ConfirmSheet pending={pending} onClose={() => setPending(null)} />
    </>
  );
}

function FormPage({ title, children }: { title: string; children: (config: WithdrawConfigView) => ReactNode }) {
  const config = useConfig();
  return (
    <RequireLogin>
      <Page title={title}>
        <div className="padded wd-form">
          {config.isPending && <SkeletonRows count={4} />}
          {config.isError && <ErrorState onRetry={() => void config.refetch()} />}
          {config.data && (
            <>
              <Readiness config={config.data} />
              {children(config.data)}
            </>
          )}
        </div>
      </Page>
    </RequireLogin>
  );
}

export function BankWithdrawPage() {
  const { t } = useTranslation();
  return (
    <FormPage title={t('titles.withdraw.bankWithdraw')}>{(config) => <BankWithdrawForm config={config} />}</FormPage>
  );
}

function CryptoWithdrawForm({ config }: { config: WithdrawConfigView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const money = useMoney();
  const [asset, setAsset] = useState<(typeof CRYPTO_ASSETS)[number]>('USDT');
  const [addressId, setAddressId] = useState<number | null>(null);
  const [amount, setAmount] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [requestId, setRequestId] = useState(newIdempotencyKey);
  const terms = config.terms.find((x) => x.rail === 'crypto' && x.asset === asset);
  const addresses = useQuery({
    queryKey: keys.addresses(asset),
    queryFn: () => apiPost<WithdrawAddressListView>('/coin/withdraw/address', { asset }),
  });
  const items = addresses.data?.items ?? [];
  const address = items.find((a) => a.id === addressId) ?? items[0];
  return (
    <>
      <p className="wd-label">{t('withdrawals.asset')}</p>
      <Selector
        value={[asset]}
        onChange={(v) => {
          if (!v[0]) return;
          setAsset(v[0]);
          setAddressId(null);
          setAmount('');
        }}
        options={CRYPTO_ASSETS.map((value) => ({ value, label: value }))}
        data-testid="withdraw-asset"
      />
      {terms && (
        <p className="muted wd-small">
          {t('withdrawals.network')}: {terms.networkName}
        </p>
      )}
      <p className="wd-label">{t('withdrawals.address')}</p>
      {addresses.isPending && <SkeletonRows count={1} />}
      {addresses.data && items.length === 0 && (
        <div className="wd-notice">
          <span>{t('withdrawals.noAddresses')}</span>
          <Button
            size="mini"
            color="primary"
            fill="outline"
            onClick={() => navigate(`/pages/wallet/addAdress?asset=${asset}`)}
          >
            {t('withdrawals.addAddress')}
          </Button>
        </div>
      )}
      {address && (
        <Selector
          columns={1}
          value={[address.id]}
          onChange={(v) => v[0] !== undefined && setAddressId(v[0])}
          options={items.map((a) => ({ value: a.id, label: a.label || a.networkName, description: a.address }))}
          data-testid="withdraw-address"
        />
      )}
      <Link className="wd-link" to="/pages/wallet/addressList">
        {t('withdrawals.manageAddresses')}
      </Link>
      {terms && !terms.open && <p className="wd-notice wd-notice--warn">{t('withdrawals.closed')}</p>}
      {terms && <AmountField terms={terms} amount={amount} onChange={setAmount} />}
      <Button
        block
        color="primary"
        size="large"
        disabled={!terms || !address || !/^\d+(\.\d+)?$/.test(amount)}
        onClick={() =>
          terms &&
          address &&
          setPending({
            rows: [
              [t('withdrawals.destination'), address.address],
              [t('withdrawals.network'), terms.networkName ?? ''],
              [t('withdrawals.amount'), money(amount, asset)],
              [t('withdrawals.fee'), money(terms.fee, asset)],
              [t('withdrawals.receive'), money(subtractDecimals(amount, terms.fee), asset)],
            ],
            send: async (password) => {
              try {
                return await apiPost<WithdrawalView>(
                  '/coin/withdraw/add',
                  {
                    asset,
                    network: terms.network ?? '',
                    addressId: address.id,
                    amount,
                    password,
                    requestId,
                  } satisfies CoinWithdrawInput,
                  { isSilent: true },
                );
              } finally {
                setRequestId(newIdempotencyKey());
              }
            },
          })
        }
        data-testid="withdraw-next"
      >
        {t('withdrawals.next')}
      </Button>
      <ConfirmSheet pending={pending} onClose={() => setPending(null)} />
    </>
  );
}

export function CryptoWithdrawPage() {
  const { t } = useTranslation();
  return (
    <FormPage title={t('titles.withdraw.cryptoWithdraw')}>
      {(config) => <CryptoWithdrawForm config={config} />}
    </FormPage>
  );
}

export function RecordIndexPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.withdraw.recordIndex')}>
        <div className="padded wd-choices">
          <LinkRow to="/pages/withdraw/withdrawRecord" title={t('withdrawals.bankRecords')} />
          <LinkRow to="/pages/withdraw/cryptoRecord" title={t('withdrawals.cryptoRecords')} />
        </div>
      </Page>
    </RequireLogin>
  );
}

function StatusTag({ status }: { status: WithdrawalView['status'] }) {
  const { t } = useTranslation();
  return (
    <span className={`wd-status wd-status--${status}`} data-testid="withdraw-status">
      {t(`withdrawals.states.${status}`)}
    </span>
  );
}

function RecordList({ kind }: { kind: 'bank' | 'crypto' }) {
  const { t } = useTranslation();
  const money = useMoney();
  const list = useQuery({
    queryKey: keys.list(kind),
    queryFn: () =>
      kind === 'bank'
        ? apiGet<WithdrawalListView>('/user/withdraw/order', { limit: 100 })
        : apiPost<WithdrawalListView>('/coin/withdraw/order', { limit: 100 }),
  });
  if (list.isPending) return <SkeletonRows count={5} />;
  if (list.isError) return <ErrorState onRetry={() => void list.refetch()} />;
  if (list.data.items.length === 0) return <EmptyState title={t('withdrawals.empty')} />;
  return (
    <List>
      {list.data.items.map((w) => (
        <Link
          key={w.id}
          className="wd-record"
          to={`/pages/withdraw/cryptoRecordDetail?id=${w.id}`}
          data-testid="withdraw-record"
        >
          <span className="wd-record__main">
            <span className="wd-record__amount tabular">{money(w.amount, w.asset)}</span>
            <span className="muted wd-small wd-break">
              {t(`withdrawals.methods.${w.rail}`)} · {w.destination}
            </span>
            <span className="muted wd-small">{formatDateTime(w.createdAt)}</span>
          </span>
          <StatusTag status={w.status} />
        </Link>
      ))}
    </List>
  );
}

export function WithdrawRecordPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.withdraw.withdrawRecord')}>
        <RecordList kind="bank" />
      </Page>
    </RequireLogin>
  );
}

export function CryptoRecordPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.withdraw.cryptoRecord')}>
        <RecordList kind="crypto" />
      </Page>
    </RequireLogin>
  );
}

function RecordDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const money = useMoney();
  const queryClient = useQueryClient();
  const one = useQuery({
    queryKey: keys.one(id),
    queryFn: () => apiGet<WithdrawalView>('/user/withdraw/status', { id }),
    // Still moving: look again shortly (an approved payout is paid within seconds in paper mode).
    refetchInterval: (q) =>
      q.state.data && !['paid', 'failed', 'rejected', 'cancelled'].includes(q.state.data.status) ? 3000 : false,
  });
  const cancel = useMutation({
    mutationFn: () => apiPost<WithdrawalView>('/user/withdraw/cancel', { id }),
    onSuccess: () => {
      Toast.show({ content: t('withdrawals.cancelled') });
      void queryClient.invalidateQueries({ queryKey: ['withdraw'] });
      void queryClient.invalidateQueries({ queryKey: ['user', 'assets'] });
    },
  });
  if (one.isPending) return <SkeletonRows count={6} />;
  if (one.isError) return <ErrorState onRetry={() => void one.refetch()} message={one.error.message} />;
  const w = one.data;
  const reasonText = (reason: string) =>
    reason === 'auto_approved' || reason === 'cancelled_by_customer' ? t(`withdrawals.reasons.${reason}`) : reason;
  const rows: [string, string][] = [
    [t('withdrawals.amount'), money(w.amount, w.asset)],
    [t('withdrawals.fee'), money(w.fee, w.asset)],
    [t('withdrawals.receive'), money(w.receive, w.asset)],
    [t('withdrawals.method'), t(`withdrawals.methods.${w.rail}`)],
    [t('withdrawals.destination'), w.destination],
    [t('withdrawals.createdAt'), formatDateTime(w.createdAt)],
  ];
  if (w.payoutRef) rows.push([t('withdrawals.payoutRef'), w.payoutRef]);
  return (
    <div className="padded" data-testid="withdraw-detail">
      <div className="wd-detail__head">
        <span className="wd-detail__amount tabular">{money(w.amount, w.asset)}</span>
        <StatusTag status={w.status} />
      </div>
      {w.reason && (
        <p className="wd-notice wd-notice--warn" data-testid="withdraw-reason">
          {t('withdrawals.reasonLabel')}: {w.reason}
          {(w.status === 'failed' || w.status === 'rejected') && ` ${t('withdrawals.moneyBack')}`}
        </p>
      )}
      {w.status === 'cancelled' && <p className="wd-notice">{t('withdrawals.moneyBack')}</p>}
      <dl className="confirm__rows">
        {rows.map(([label, value]) => (
          <div key={label} className="confirm__row">
            <dt>{label}</dt>
            <dd className="tabular wd-break">{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="wd-heading">{t('withdrawals.history')}</h3>
      <ol className="wd-steps" data-testid="withdraw-history">
        {w.history.map((step) => (
          <li key={`${step.status}-${step.at}`} className="wd-step">
            <span className="wd-step__dot" aria-hidden="true" />
            <span className="wd-step__text">
              <span className="wd-step__status">{t(`withdrawals.states.${step.status}`)}</span>
              <span className="muted wd-small">{formatDateTime(step.at)}</span>
              {step.reason && <span className="muted wd-small">{reasonText(step.reason)}</span>}
            </span>
          </li>
        ))}
      </ol>
      {w.cancellable && (
        <Button
          block
          color="danger"
          fill="outline"
          loading={cancel.isPending}
          onClick={async () => {
            const isConfirmed = await Dialog.confirm({
              content: t('withdrawals.confirmCancel'),
              confirmText: t('withdrawals.cancel'),
              cancelText: t('withdrawals.keep'),
            });
            if (isConfirmed) cancel.mutate();
          }}
          data-testid="withdraw-cancel"
        >
          {t('withdrawals.cancel')}
        </Button>
      )}
    </div>
  );
}

export function CryptoRecordDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  return (
    <RequireLogin>
      <Page title={t('titles.withdraw.cryptoRecordDetail')}>
        {Number.isSafeInteger(id) && id > 0 ? <RecordDetail id={id} /> : <EmptyState title={t('withdrawals.empty')} />}
      </Page>
    </RequireLogin>
  );
}

// --- the withdrawal address book ---

function AddressList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: keys.addresses(''),
    queryFn: () => apiPost<WithdrawAddressListView>('/coin/withdraw/address', {}),
  });
  const del = useMutation({
    mutationFn: (id: number) => apiPost('/coin/withdraw/address/del', { id }),
    onSuccess: () => {
      Toast.show({ content: t('addresses.deleted') });
      void queryClient.invalidateQueries({ queryKey: ['withdraw', 'addresses'] });
    },
  });
  const data = list.data;
  return (
    <div className="padded">
      {data && data.withdrawalsLockedUntil > 0 && (
        <p className="wd-notice wd-notice--warn" data-testid="address-lock">
          {t('withdrawals.lockedUntil', { time: formatDateTime(data.withdrawalsLockedUntil) })}
        </p>
      )}
      {list.isPending && <SkeletonRows count={3} />}
      {data && data.items.length === 0 && <p className="muted">{t('addresses.empty')}</p>}
      {data && data.items.length > 0 && (
        <List>
          {data.items.map((a) => (
            <List.Item
              key={a.id}
              data-testid="address-item"
              description={<span className="wd-break">{a.address}</span>}
              extra={
                <Button
                  size="mini"
                  color="danger"
                  fill="outline"
                  onClick={async () => {
                    const isConfirmed = await Dialog.confirm({
                      content: t('addresses.confirmDelete'),
                      confirmText: t('addresses.delete'),
                      cancelText: t('common.cancel'),
                    });
                    if (isConfirmed) del.mutate(a.id);
                  }}
                >
                  {t('addresses.delete')}
                </Button>
              }
            >
              {a.asset} · {a.label || a.networkName}
            </List.Item>
          ))}
        </List>
      )}
      <Button block color="primary" style={{ marginTop: 16 }} onClick={() => navigate('/pages/wallet/addAdress')}>
        {t('addresses.add')}
      </Button>
    </div>
  );
}

export function AddressListPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.wallet.addressList')}>
        <AddressList />
      </Page>
    </RequireLogin>
  );
}

const ADDRESS_FIELDS = ['asset', 'network', 'address', 'label', 'password', 'totpCode'];
const NETWORK_OF: Record<string, 'BTC' | 'ETH'> = { BTC: 'BTC', ETH: 'ETH', USDT: 'ETH' };

function AddAddressForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const user = useLoginInfo().data?.user ?? session.user;
  const [params] = useSearchParams();
  const [form] = Form.useForm();
  const [banner, setBanner] = useState<string | null>(null);
  const initialAsset = CRYPTO_ASSETS.find((a) => a === params.get('asset')) ?? 'USDT';
  const [asset, setAsset] = useState<string>(initialAsset);
  const required = [{ required: true, message: t('addresses.required') }];
  const isPaper = usePlatformProps().data?.mode === 'paper';
  const add = useMutation({
    mutationFn: (values: AddWithdrawAddressInput) =>
      apiPost('/coin/withdraw/address/generate', values, { isSilent: true }),
    onSuccess: () => {
      Toast.show({ content: t('addresses.added') });
      void queryClient.invalidateQueries({ queryKey: ['withdraw'] });
      void queryClient.invalidateQueries({ queryKey: ['bank', 'list'] });
      navigate(-1);
    },
    onError: (error) => setBanner(applyServerErrors(form, error, ADDRESS_FIELDS)),
  });
  return (
    <ServerForm
      form={form}
      banner={banner}
      initialValues={{ asset: [initialAsset] }}
      onSubmit={(values: Omit<AddWithdrawAddressInput, 'asset' | 'network'> & { asset: string[] }) => {
        setBanner(null);
        const chosen = values.asset[0] ?? asset;
        add.mutate({ ...values, asset: chosen, network: NETWORK_OF[chosen] ?? 'ETH' });
      }}
      isPending={add.isPending}
      submitText={t('addresses.save')}
      testId="add-address-form"
    >
      {isPaper && <p className="muted wd-small">{t('addresses.testNetwork')}</p>}
      <Form.Item name="asset" label={t('addresses.asset')} rules={required}>
        <Selector
          options={CRYPTO_ASSETS.map((value) => ({ value, label: value }))}
          onChange={(v) => v[0] && setAsset(v[0])}
        />
      </Form.Item>
      <Form.Item label={t('addresses.network')}>
        <span data-testid="address-network">{NETWORK_OF[asset] === 'BTC' ? 'Bitcoin' : 'Ethereum (ERC-20)'}</span>
      </Form.Item>
      <Form.Item name="address" label={t('addresses.address')} rules={required}>
        <Input maxLength={100} placeholder={t('addresses.addressPlaceholder')} autoComplete="off" />
      </Form.Item>
      <Form.Item name="label" label={t('addresses.label')}>
        <Input maxLength={40} placeholder={t('addresses.labelPlaceholder')} />
      </Form.Item>
      {user?.totpEnabled ? (
        <Form.Item name="totpCode" label={t('addresses.totpCode')} rules={required}>
          <Input maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
        </Form.Item>
      ) : (
        <Form.Item name="password" label={t('addresses.password')} rules={required}>
          <Input type="password" autoComplete="current-password" maxLength={128} />
        </Form.Item>
      )}
      <p className="muted wd-small">{t('addresses.lockNote')}</p>
    </ServerForm>
  );
}

export function AddAdressPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.wallet.addAdress')}>
        <div className="padded wd-form">
          <AddAddressForm />
        </div>
      </Page>
    </RequireLogin>
  );
}
