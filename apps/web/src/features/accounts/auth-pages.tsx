// Sign-in and registration (SPEC §1, §5). Validation runs as the user types; a refusal from the
// server shows its translated message under the field concerned and keeps everything typed.
import type {
  CaptchaView,
  LoginInput,
  LoginResult,
  RegisterInput,
  SendCodeInput,
  SendCodeResult,
} from '@bourse/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Form, Input, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { type ChangeEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiGet, apiPost, queryKeys, usePlatformProps } from '../../app/api.ts';
import { coinHomePath, homePath, safeRedirect } from '../../app/navigation.ts';
import { ApiError } from '../../app/request.ts';
import { saveSession, storageKeys } from '../../app/session.ts';
import { Logo } from '../../app/shell/icons.tsx';
import { Page } from '../../app/shell/page.tsx';
import { CaptchaField } from './captcha-field.tsx';
import { confirmPasswordRules, passwordLengthMax, passwordRules } from './password-rules.ts';
import { areaCodes, isPhoneValid } from './phone.ts';
import { applyServerErrors } from './server-errors.ts';
import { ServerForm } from './server-form.tsx';

/** The phone field with its country-code selector; Form.Item supplies value and onChange. */
function PhoneField(props: {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  areaCode: string;
  onAreaCodeChange: (code: string) => void;
  extraAreaCode?: string;
}) {
  const { t } = useTranslation();
  const codes: string[] = areaCodes.map((entry) => entry.code);
  if (props.extraAreaCode && !codes.includes(props.extraAreaCode)) codes.unshift(props.extraAreaCode);
  return (
    <div className="phone-field">
      <select
        className="phone-field__code"
        value={props.areaCode}
        aria-label={t('auth.areaCode')}
        name="areaCode"
        onChange={(event: ChangeEvent<HTMLSelectElement>) => props.onAreaCodeChange(event.target.value)}
      >
        {codes.map((code) => (
          <option key={code} value={code}>
            +{code}
          </option>
        ))}
      </select>
      <Input
        id={props.id}
        name="phone"
        className="phone-field__input"
        type="tel"
        inputMode="numeric"
        autoComplete="tel-national"
        placeholder={t('auth.phonePlaceholder')}
        value={props.value ?? ''}
        onChange={(value) => props.onChange?.(value.replace(/[^\d]/g, ''))}
        maxLength={15}
      />
    </div>
  );
}

function useAreaCode(): [string, (code: string) => void, string | undefined] {
  const props = usePlatformProps();
  const serverDefault = props.data?.defaultAreaCode;
  const [areaCode, setAreaCode] = useState<string | null>(() => {
    try {
      return localStorage.getItem(storageKeys.areaCode);
    } catch {
      return null;
    }
  });
  const effective = areaCode ?? serverDefault ?? '91';
  const choose = (code: string) => {
    setAreaCode(code);
    try {
      localStorage.setItem(storageKeys.areaCode, code);
    } catch {
      // not remembered
    }
  };
  return [effective, choose, serverDefault];
}

function AuthHeader({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <div className="auth-header">
      <Logo size={48} />
      <div>
        <h2 className="auth-header__title">{title}</h2>
        <p className="auth-header__sub">{t('app.tagline')}</p>
      </div>
    </div>
  );
}

function phoneRules(t: (key: string) => string, areaCode: string) {
  return [
    { required: true, message: t('auth.errors.phoneRequired') },
    {
      validator: async (_: unknown, value: string | undefined) => {
        if (value && !isPhoneValid(areaCode, value)) throw new Error(t('auth.errors.phoneInvalid'));
      },
    },
  ];
}

const loginFields = ['phone', 'password', 'totpCode'] as const;

/**
 * Sign-in (account/login). The crypto sign-in (account/coinLogin) is the same form and the same identity
 * with its own title, landing on the crypto trading screen unless a redirect says otherwise.
 */
export function LoginPage({
  titleKey = 'titles.account.login',
  headingKey = 'auth.signInTitle',
  destination = homePath,
}: {
  titleKey?: string;
  headingKey?: string;
  destination?: string;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const props = usePlatformProps();
  const [areaCode, setAreaCode, serverAreaCode] = useAreaCode();
  const [isTotpShown, setTotpShown] = useState(false);
  const [isSubmitting, setSubmitting] = useState(false);
  const [banner, setBanner] = useState<string | null>(null);

  const submit = async (values: { phone: string; password: string; totpCode?: string }) => {
    if (isSubmitting) return;
    setSubmitting(true);
    setBanner(null);
    try {
      const result = await apiPost<LoginResult>(
        '/user/login',
        {
          areaCode,
          phone: values.phone,
          password: values.password,
          totpCode: isTotpShown ? values.totpCode : undefined,
        } satisfies LoginInput,
        { isSilent: true },
      );
      saveSession(result.token, result.user);
      await queryClient.invalidateQueries({ queryKey: queryKeys.loginInfo });
      Toast.show({ content: t('auth.loginSuccess') });
      navigate(safeRedirect(searchParams.get('redirect'), destination), { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.error === 'totp_required' && !isTotpShown) {
        setTotpShown(true);
        setBanner(t('auth.totpRequired'));
      } else {
        setBanner(applyServerErrors(form, error, loginFields));
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Page title={t(titleKey)}>
      <div className="auth">
        <AuthHeader title={t(headingKey)} />
        {props.data?.mode === 'paper' && <p className="auth__demo">{t('auth.demoHint')}</p>}
        <ServerForm
          form={form}
          banner={banner}
          onSubmit={submit}
          testId="login-form"
          size="large"
          isPending={isSubmitting}
          loadingText={t('auth.signingIn')}
          submitText={t('auth.signIn')}
        >
          <Form.Item name="phone" label={t('auth.phone')} rules={phoneRules(t, areaCode)}>
            <PhoneField areaCode={areaCode} onAreaCodeChange={setAreaCode} extraAreaCode={serverAreaCode} />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('auth.password')}
            rules={[{ required: true, message: t('auth.errors.passwordRequired') }]}
          >
            <Input
              name="password"
              type="password"
              autoComplete="current-password"
              placeholder={t('auth.passwordPlaceholder')}
              maxLength={passwordLengthMax}
            />
          </Form.Item>
          {isTotpShown && (
            <Form.Item
              name="totpCode"
              label={t('auth.totpCode')}
              rules={[{ required: true, pattern: /^\d{6}$/, message: t('auth.errors.totpInvalid') }]}
            >
              <Input
                name="totpCode"
                inputMode="numeric"
                autoComplete="one-time-code"
                placeholder={t('auth.totpPlaceholder')}
                maxLength={6}
              />
            </Form.Item>
          )}
        </ServerForm>
        <p className="auth__switch">
          {t('auth.noAccount')}{' '}
          <Link
            to={`/pages/account/reg?redirect=${encodeURIComponent(safeRedirect(searchParams.get('redirect'), destination))}`}
          >
            {t('auth.registerLink')}
          </Link>
        </p>
      </div>
    </Page>
  );
}

export const CoinLoginPage = () => (
  <LoginPage titleKey="titles.account.coinLogin" headingKey="spot.coinSignInTitle" destination={coinHomePath} />
);

function useCaptcha() {
  return useQuery({
    queryKey: ['common', 'captcha'],
    queryFn: () => apiGet<CaptchaView>('/common/captcha', undefined, { isSilent: true }),
    staleTime: 4 * 60_000, // single use, expires after 5 minutes on the server
    gcTime: 0,
    refetchInterval: 4 * 60_000,
    refetchOnWindowFocus: false,
  });
}

const registerFields = [
  'phone',
  'password',
  'confirmPassword',
  'inviteCode',
  'captchaCode',
  'smsCode',
  'agree',
] as const;

interface RegisterValues {
  phone: string;
  password: string;
  confirmPassword: string;
  inviteCode?: string;
  captchaCode: string;
  smsCode?: string;
  agree?: boolean;
}

function storedInviteCode(fromUrl: string | null): string {
  try {
    if (fromUrl) {
      localStorage.setItem(storageKeys.inviteCode, fromUrl);
      return fromUrl;
    }
    return localStorage.getItem(storageKeys.inviteCode) ?? '';
  } catch {
    return fromUrl ?? '';
  }
}

export function RegisterPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const props = usePlatformProps();
  const captcha = useCaptcha();
  const [areaCode, setAreaCode, serverAreaCode] = useAreaCode();
  const [isSubmitting, setSubmitting] = useState(false);
  const [banner, setBanner] = useState<string | null>(null);
  const [resendInSec, setResendInSec] = useState(0);
  const [isSending, setSending] = useState(false);
  const isInviteRequired = props.data?.inviteCodeRequired ?? false;
  const isSmsRequired = props.data?.smsCodeRequired ?? false;

  useEffect(() => {
    if (resendInSec <= 0) return;
    const timer = setTimeout(() => setResendInSec((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [resendInSec]);

  const sendCode = async () => {
    if (isSending || resendInSec > 0) return;
    try {
      await form.validateFields(['phone']);
    } catch {
      return;
    }
    setSending(true);
    try {
      const result = await apiPost<SendCodeResult>(
        '/common/code/send',
        { areaCode, phone: form.getFieldValue('phone') as string, purpose: 'register' } satisfies SendCodeInput,
        { isSilent: true },
      );
      Toast.show({ content: t('auth.codeSent') });
      setResendInSec(result.resendAfterSec ?? 60);
    } catch (error) {
      setBanner(applyServerErrors(form, error, registerFields));
    } finally {
      setSending(false);
    }
  };

  const submit = async (values: RegisterValues) => {
    if (isSubmitting || !captcha.data) return;
    setSubmitting(true);
    setBanner(null);
    try {
      const result = await apiPost<LoginResult>(
        '/user/register',
        {
          areaCode,
          phone: values.phone,
          password: values.password,
          confirmPassword: values.confirmPassword,
          inviteCode: values.inviteCode ?? '',
          captchaId: captcha.data.captchaId,
          captchaCode: values.captchaCode,
          smsCode: values.smsCode ?? '',
          agree: values.agree ? '1' : '0',
        } satisfies RegisterInput,
        { isSilent: true },
      );
      saveSession(result.token, result.user);
      await queryClient.invalidateQueries({ queryKey: queryKeys.loginInfo });
      Toast.show({ content: t('auth.registerSuccess') });
      navigate(safeRedirect(searchParams.get('redirect')), { replace: true });
    } catch (error) {
      setBanner(applyServerErrors(form, error, registerFields));
      // The captcha is single use: solve a new one, keep everything else that was typed.
      if (error instanceof ApiError) {
        const captchaError = form.getFieldError('captchaCode');
        form.setFieldValue('captchaCode', '');
        void captcha.refetch().then(() => {
          if (captchaError.length > 0) form.setFields([{ name: 'captchaCode', errors: captchaError }]);
        });
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Page title={t('titles.account.reg')}>
      <div className="auth">
        <AuthHeader title={t('auth.registerTitle')} />
        <ServerForm
          form={form}
          banner={banner}
          onSubmit={submit}
          testId="register-form"
          initialValues={{ inviteCode: storedInviteCode(searchParams.get('inviteCode') ?? searchParams.get('code')) }}
          size="large"
          isPending={isSubmitting}
          loadingText={t('auth.registering')}
          submitText={t('auth.register')}
        >
          <Form.Item name="phone" label={t('auth.phone')} rules={phoneRules(t, areaCode)}>
            <PhoneField areaCode={areaCode} onAreaCodeChange={setAreaCode} extraAreaCode={serverAreaCode} />
          </Form.Item>
          <Form.Item name="password" label={t('auth.password')} rules={passwordRules(t)}>
            <Input
              name="password"
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
            <Input
              name="confirmPassword"
              type="password"
              autoComplete="new-password"
              placeholder={t('auth.confirmPasswordPlaceholder')}
              maxLength={passwordLengthMax}
            />
          </Form.Item>
          <Form.Item
            name="inviteCode"
            label={isInviteRequired ? t('auth.inviteCode') : t('auth.inviteCodeOptional')}
            rules={
              isInviteRequired ? [{ required: true, whitespace: true, message: t('auth.errors.inviteRequired') }] : []
            }
          >
            <Input name="inviteCode" autoComplete="off" placeholder={t('auth.inviteCodePlaceholder')} maxLength={32} />
          </Form.Item>
          <Form.Item
            name="captchaCode"
            label={t('auth.captcha')}
            rules={[{ required: true, message: t('auth.errors.captchaRequired') }]}
          >
            <CaptchaField captcha={captcha.data} />
          </Form.Item>
          {isSmsRequired && (
            <Form.Item
              name="smsCode"
              label={t('auth.smsCode')}
              rules={[{ required: true, whitespace: true, message: t('auth.errors.smsRequired') }]}
              extra={
                <Button size="small" fill="outline" onClick={sendCode} disabled={resendInSec > 0} loading={isSending}>
                  {resendInSec > 0 ? t('auth.resendIn', { seconds: resendInSec }) : t('auth.sendCode')}
                </Button>
              }
            >
              <Input
                name="smsCode"
                inputMode="numeric"
                autoComplete="one-time-code"
                placeholder={t('auth.smsCodePlaceholder')}
                maxLength={6}
              />
            </Form.Item>
          )}
          <Form.Item
            name="agree"
            valuePropName="checked"
            rules={[
              {
                validator: async (_: unknown, value: boolean | undefined) => {
                  if (!value) throw new Error(t('auth.errors.agreementRequired'));
                },
              },
            ]}
          >
            <AgreementCheckbox />
          </Form.Item>
        </ServerForm>
        <p className="auth__switch">
          {t('auth.hasAccount')} <Link to="/pages/account/login">{t('auth.signInLink')}</Link>
        </p>
      </div>
    </Page>
  );
}

function AgreementCheckbox(props: { id?: string; checked?: boolean; onChange?: (checked: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <div className="agreement">
      <Checkbox id={props.id} checked={props.checked ?? false} onChange={props.onChange} data-testid="agree">
        {t('auth.agreePrefix')}
      </Checkbox>{' '}
      <Link to="/pages/common/disclaimer">{t('auth.disclaimer')}</Link> {t('auth.and')}{' '}
      <Link to="/pages/common/privacyPolicy">{t('auth.privacyPolicy')}</Link>
    </div>
  );
}
