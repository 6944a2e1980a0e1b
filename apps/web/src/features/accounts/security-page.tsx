// Security settings (SPEC §2 user/security): login password, 6-digit transaction and withdrawal
// passwords, email, TOTP two-factor sign-in and the list of signed-in devices with remote sign-out.
import type {
  ChangePasswordInput,
  Items,
  RevokeSessionInput,
  SessionView,
  SetPinInput,
  TotpDisableInput,
  TotpEnableInput,
  TotpSetupView,
  UpdateEmailInput,
} from '@bourse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, NumberKeyboard, PasscodeInput, Popup, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { apiGet, apiPost, queryKeys, useLoginInfo } from '../../app/api.ts';
import { loginPath } from '../../app/navigation.ts';
import { useSession } from '../../app/session.ts';
import { copyText } from '../../app/shell/copy.ts';
import { ChevronRightIcon, CopyIcon } from '../../app/shell/icons.tsx';
import { Page } from '../../app/shell/page.tsx';
import { isTouchDevice } from '../../app/shell/passcode-sheet.tsx';
import { useEscape } from '../../app/shell/use-escape.ts';
import { formatDateTime } from '../../lib/time.ts';
import { confirmPasswordRules, passwordLengthMax, passwordRules } from './password-rules.ts';
import { applyServerErrors } from './server-errors.ts';
import { FormBanner, ServerForm } from './server-form.tsx';

export function RequireLogin({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session.token) {
    const redirect = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`${loginPath}?redirect=${redirect}`} replace />;
  }
  return <>{children}</>;
}

export function Sheet({
  title,
  isOpen,
  onClose,
  children,
}: {
  title: string;
  isOpen: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  useEscape(isOpen, onClose);
  return (
    <Popup visible={isOpen} onMaskClick={onClose} onClose={onClose} destroyOnClose bodyClassName="sheet">
      <div role="dialog" aria-modal="true" aria-label={title}>
        <div className="sheet__head">
          <h2 className="sheet__title">{title}</h2>
          <button type="button" className="text-button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
        <div className="sheet__body">{children}</div>
      </div>
    </Popup>
  );
}

function useModified(onDone: () => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useCallback(() => {
    Toast.show({ content: t('common.modified') });
    void queryClient.invalidateQueries({ queryKey: queryKeys.loginInfo });
    onDone();
  }, [onDone, queryClient, t]);
}

export function ChangeLoginPasswordForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [banner, setBanner] = useState<string | null>(null);
  const done = useModified(onDone);
  const mutation = useMutation({
    mutationFn: (values: ChangePasswordInput) => apiPost('/user/update/password', values, { isSilent: true }),
    onSuccess: () => {
      form.resetFields();
      done();
    },
    onError: (error) => setBanner(applyServerErrors(form, error, ['oldPassword', 'password', 'confirmPassword'])),
  });
  return (
    <ServerForm
      form={form}
      banner={banner}
      onSubmit={(values) => {
        setBanner(null);
        mutation.mutate(values);
      }}
      isPending={mutation.isPending}
      submitText={t('common.save')}
    >
      <Form.Item
        name="oldPassword"
        label={t('security.oldPassword')}
        rules={[{ required: true, message: t('auth.errors.passwordRequired') }]}
      >
        <Input type="password" autoComplete="current-password" maxLength={passwordLengthMax} />
      </Form.Item>
      <Form.Item name="password" label={t('security.newPassword')} rules={passwordRules(t)}>
        <Input
          type="password"
          autoComplete="new-password"
          placeholder={t('auth.passwordPlaceholder')}
          maxLength={passwordLengthMax}
        />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('auth.confirmPassword')}
        dependencies={['password']}
        rules={confirmPasswordRules(t)}
      >
        <Input type="password" autoComplete="new-password" maxLength={passwordLengthMax} />
      </Form.Item>
    </ServerForm>
  );
}

/** Six digits entered twice with PasscodeInput (and the on-screen NumberKeyboard on touch screens). */
export function SixDigitPasswordForm({ kind, onDone }: { kind: 'trade' | 'withdraw'; onDone: () => void }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<'enter' | 'confirm' | 'login'>('enter');
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const [loginPassword, setLoginPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const done = useModified(onDone);
  const isTouch = useMemo(isTouchDevice, []);
  const mutation = useMutation({
    mutationFn: () =>
      apiPost(
        kind === 'trade' ? '/user/update/tradePassword' : '/user/update/withdrawPassword',
        { password: first, confirmPassword: second, loginPassword } satisfies SetPinInput,
        { isSilent: true },
      ),
    onSuccess: done,
    onError: (cause) => {
      setError(cause instanceof Error ? cause.message : String(cause));
      if (cause instanceof Error && 'fields' in cause) {
        const fields = (cause as { fields: Record<string, string> }).fields;
        if (fields.password || fields.confirmPassword) {
          setFirst('');
          setSecond('');
          setStep('enter');
        }
      }
    },
  });
  const keyboard = isTouch ? <NumberKeyboard /> : undefined;

  return (
    <div className={isTouch && step !== 'login' ? 'passcode-form passcode-form--keyboard' : 'passcode-form'}>
      {step !== 'login' ? (
        <>
          <p className="passcode-form__prompt" id={`passcode-${kind}-prompt`}>
            {step === 'enter' ? t('security.enterSixDigits') : t('security.confirmSixDigits')}
          </p>
          <PasscodeInput
            key={step}
            length={6}
            plain={false}
            seperated
            value={step === 'enter' ? first : second}
            onChange={(value) => (step === 'enter' ? setFirst(value) : setSecond(value))}
            onFill={(value) => {
              setError(null);
              if (step === 'enter') {
                setStep('confirm');
              } else if (value !== first) {
                setError(t('auth.errors.passwordMismatch'));
                setFirst('');
                setSecond('');
                setStep('enter');
              } else {
                setStep('login');
              }
            }}
            keyboard={keyboard}
            aria-labelledby={`passcode-${kind}-prompt`}
            data-testid={`passcode-${kind}`}
          />
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
        </>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!loginPassword) {
              setError(t('auth.errors.passwordRequired'));
              return;
            }
            setError(null);
            mutation.mutate();
          }}
        >
          <label className="field-label" htmlFor={`login-password-${kind}`}>
            {t('security.loginPasswordToConfirm')}
          </label>
          <Input
            id={`login-password-${kind}`}
            type="password"
            autoComplete="current-password"
            value={loginPassword}
            onChange={setLoginPassword}
            maxLength={passwordLengthMax}
            className="boxed-input"
          />
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <Button block type="submit" color="primary" loading={mutation.isPending} className="mt-16">
            {t('common.save')}
          </Button>
        </form>
      )}
    </div>
  );
}

function EmailForm({ currentEmail, onDone }: { currentEmail: string; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [banner, setBanner] = useState<string | null>(null);
  const done = useModified(onDone);
  const mutation = useMutation({
    mutationFn: (values: UpdateEmailInput) => apiPost('/user/update/email', values, { isSilent: true }),
    onSuccess: done,
    onError: (error) => setBanner(applyServerErrors(form, error, ['email', 'loginPassword'])),
  });
  return (
    <ServerForm
      form={form}
      banner={banner}
      initialValues={{ email: currentEmail }}
      onSubmit={(values) => {
        setBanner(null);
        mutation.mutate(values);
      }}
      isPending={mutation.isPending}
      submitText={t('common.save')}
    >
      <Form.Item
        name="email"
        label={t('security.email')}
        rules={[
          { required: true, message: t('auth.errors.emailInvalid') },
          { type: 'email', message: t('auth.errors.emailInvalid') },
        ]}
      >
        <Input type="email" autoComplete="email" placeholder={t('security.emailPlaceholder')} maxLength={254} />
      </Form.Item>
      <Form.Item
        name="loginPassword"
        label={t('security.loginPasswordToConfirm')}
        rules={[{ required: true, message: t('auth.errors.passwordRequired') }]}
      >
        <Input type="password" autoComplete="current-password" maxLength={passwordLengthMax} />
      </Form.Item>
    </ServerForm>
  );
}

export function CopyValue({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  return (
    <div className="copy-value">
      <div className="copy-value__label">{label}</div>
      <div className="copy-value__row">
        <code className="copy-value__text">{value}</code>
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
    </div>
  );
}

function TwoFactorPanel({ isEnabled, onDone }: { isEnabled: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [banner, setBanner] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const setup = useMutation({
    mutationFn: () => apiPost<TotpSetupView>('/user/2fa/setup', {}, { isSilent: true }),
    onError: (error) => setBanner(applyServerErrors(form, error, [])),
  });
  const finish = (messageKey: string) => {
    Toast.show({ content: t(messageKey) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.loginInfo });
    onDone();
  };
  const enable = useMutation({
    mutationFn: (values: TotpEnableInput) => apiPost('/user/2fa/enable', values, { isSilent: true }),
    onSuccess: () => finish('security.twoFactorEnabled'),
    onError: (error) => setBanner(applyServerErrors(form, error, ['code'])),
  });
  const disable = useMutation({
    mutationFn: (values: TotpDisableInput) => apiPost('/user/2fa/disable', values, { isSilent: true }),
    onSuccess: () => finish('security.twoFactorDisabled'),
    onError: (error) => setBanner(applyServerErrors(form, error, ['code', 'loginPassword'])),
  });
  const codeItem = (
    <Form.Item
      name="code"
      label={t('auth.totpCode')}
      rules={[{ required: true, pattern: /^\d{6}$/, message: t('auth.errors.totpInvalid') }]}
    >
      <Input inputMode="numeric" autoComplete="one-time-code" placeholder={t('auth.totpPlaceholder')} maxLength={6} />
    </Form.Item>
  );

  if (isEnabled) {
    return (
      <ServerForm
        form={form}
        banner={banner}
        onSubmit={(values) => {
          setBanner(null);
          disable.mutate(values);
        }}
        color="danger"
        isPending={disable.isPending}
        submitText={t('security.disable')}
      >
        {codeItem}
        <Form.Item
          name="loginPassword"
          label={t('security.loginPasswordToConfirm')}
          rules={[{ required: true, message: t('auth.errors.passwordRequired') }]}
        >
          <Input type="password" autoComplete="current-password" maxLength={passwordLengthMax} />
        </Form.Item>
      </ServerForm>
    );
  }
  return (
    <>
      <p className="section-hint">{t('security.twoFactorIntro')}</p>
      <FormBanner message={banner} />
      {!setup.data ? (
        <Button block color="primary" loading={setup.isPending} onClick={() => setup.mutate()}>
          {t('security.setUp')}
        </Button>
      ) : (
        <>
          <CopyValue label={t('security.otpauthUrl')} value={setup.data.otpauthUrl} />
          <CopyValue label={t('security.secret')} value={setup.data.secret} />
          <Form
            form={form}
            layout="vertical"
            onFinish={(values) => {
              setBanner(null);
              enable.mutate(values);
            }}
            footer={
              <Button block type="submit" color="primary" loading={enable.isPending}>
                {t('security.enable')}
              </Button>
            }
          >
            {codeItem}
          </Form>
        </>
      )}
    </>
  );
}

/** "Chrome on Android" from a user-agent string; falls back to the translated "unknown browser". */
function describeUserAgent(userAgent: string | undefined, unknown: string): string {
  if (!userAgent) return unknown;
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null;
  const os = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  if (!browser && !os) return userAgent.slice(0, 40);
  return [browser, os].filter(Boolean).join(' · ');
}

function SessionsList() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: queryKeys.sessions,
    queryFn: () => apiGet<Items<SessionView>>('/user/sessions'),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => apiPost('/user/sessions/revoke', { id } satisfies RevokeSessionInput),
    onSuccess: () => {
      Toast.show({ content: t('security.revoked') });
      void queryClient.invalidateQueries({ queryKey: queryKeys.sessions });
    },
  });
  const items = sessions.data?.items ?? [];
  return (
    <section aria-labelledby="sessions-title" className="mt-16">
      <h2 className="section-title" id="sessions-title">
        {t('security.sessions')}
      </h2>
      <p className="section-hint">{t('security.sessionsHint')}</p>
      {sessions.isError && (
        <div className="state-inline">
          <span>{t('common.loadError')}</span>
          <button type="button" className="text-button" onClick={() => void sessions.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {sessions.isPending && <div className="skeleton-row" aria-hidden="true" />}
      <ul className="list" data-testid="sessions">
        {items.map((item) => (
          <li key={item.id} className="session-row">
            <div className="session-row__body">
              <div className="session-row__title">
                {describeUserAgent(item.userAgent, t('security.unknownDevice'))}
                {item.current && <span className="chip">{t('security.thisDevice')}</span>}
              </div>
              <div className="session-row__meta tabular">
                {t('security.lastSeen', { time: formatDateTime(item.lastSeenAt) })}
                {item.ip ? ` · ${item.ip}` : ''}
              </div>
              <div className="session-row__meta tabular">
                {t('security.signedInAt', { time: formatDateTime(item.createdAt) })}
              </div>
            </div>
            {!item.current && (
              <Button
                size="small"
                fill="outline"
                color="danger"
                loading={revoke.isPending && revoke.variables === item.id}
                onClick={() => revoke.mutate(item.id)}
              >
                {t('security.revoke')}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {sessions.isSuccess && items.filter((item) => !item.current).length === 0 && (
        <p className="section-hint">{t('security.noSessions')}</p>
      )}
    </section>
  );
}

type SheetKind = 'loginPassword' | 'trade' | 'withdraw' | 'email' | 'totp';

function SettingRow({
  label,
  value,
  onClick,
  testId,
}: {
  label: string;
  value: string;
  onClick: () => void;
  testId: string;
}) {
  return (
    <button type="button" className="list-row" onClick={onClick} data-testid={testId}>
      <span className="list-row__label">{label}</span>
      <span className="list-row__value">{value}</span>
      <ChevronRightIcon size={18} />
    </button>
  );
}

export function SecurityPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.user.security')}>
        <SecuritySettings />
      </Page>
    </RequireLogin>
  );
}

function SecuritySettings() {
  const { t } = useTranslation();
  const session = useSession();
  const loginInfo = useLoginInfo();
  const user = loginInfo.data?.user ?? session.user;
  const navigate = useNavigate();
  const [sheet, setSheet] = useState<SheetKind | null>(null);
  const close = useCallback(() => setSheet(null), []);
  const setLabel = (isSet: boolean | undefined) => (isSet ? t('security.isSet') : t('security.notSet'));
  const titles: Record<SheetKind, string> = {
    loginPassword: t('security.changeLoginPassword'),
    trade: t('security.tradePassword'),
    withdraw: t('security.withdrawPassword'),
    email: t('security.email'),
    totp: t('security.twoFactor'),
  };
  return (
    <>
      <div className="list">
        <SettingRow
          testId="row-login-password"
          label={t('security.loginPassword')}
          value={t('security.change')}
          onClick={() => setSheet('loginPassword')}
        />
        <SettingRow
          testId="row-trade-password"
          label={t('security.tradePassword')}
          value={setLabel(user?.hasTradePassword)}
          onClick={() => setSheet('trade')}
        />
        <SettingRow
          testId="row-withdraw-password"
          label={t('security.withdrawPassword')}
          value={setLabel(user?.hasWithdrawPassword)}
          onClick={() => setSheet('withdraw')}
        />
        <SettingRow
          testId="row-email"
          label={t('security.email')}
          value={user?.email || t('security.noEmail')}
          onClick={() => setSheet('email')}
        />
        <SettingRow
          testId="row-totp"
          label={t('security.twoFactor')}
          value={user?.totpEnabled ? t('security.twoFactorOn') : t('security.twoFactorOff')}
          onClick={() => setSheet('totp')}
        />
        <SettingRow
          testId="row-api-keys"
          label={t('security.apiKeys')}
          value={t('security.apiKeysHint')}
          onClick={() => navigate('/pages/user/apiKeys')}
        />
      </div>
      <SessionsList />
      <Sheet title={sheet ? titles[sheet] : ''} isOpen={sheet !== null} onClose={close}>
        {sheet === 'loginPassword' && <ChangeLoginPasswordForm onDone={close} />}
        {sheet === 'trade' && <SixDigitPasswordForm kind="trade" onDone={close} />}
        {sheet === 'withdraw' && <SixDigitPasswordForm kind="withdraw" onDone={close} />}
        {sheet === 'email' && <EmailForm currentEmail={user?.email ?? ''} onDone={close} />}
        {sheet === 'totp' && <TwoFactorPanel isEnabled={Boolean(user?.totpEnabled)} onDone={close} />}
      </Sheet>
    </>
  );
}

export function LoginPasswordPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const done = useCallback(() => window.history.back(), []);
  return (
    <RequireLogin>
      <Page title={t('titles.user.loginPassword')} key={location.key}>
        <div className="padded">
          <ChangeLoginPasswordForm onDone={done} />
        </div>
      </Page>
    </RequireLogin>
  );
}

export function TradePasswordPage() {
  const { t } = useTranslation();
  const done = useCallback(() => window.history.back(), []);
  return (
    <RequireLogin>
      <Page title={t('titles.user.tradePassword')}>
        <div className="padded">
          <SixDigitPasswordForm kind="trade" onDone={done} />
        </div>
      </Page>
    </RequireLogin>
  );
}
