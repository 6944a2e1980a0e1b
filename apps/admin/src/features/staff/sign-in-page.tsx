// Staff sign-in: username, password and the current 6-digit TOTP code. A refusal shows the
// server's message, already in the chosen language; the code field is cleared because a code is
// only good for its 30-second window.
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { adminApi, queryClient, queryKeys } from '../../app/api.ts';
import { useToken } from '../../app/current-staff.tsx';
import { LanguageSwitch } from '../../app/language-switch.tsx';
import { isApiError } from '../../app/request.ts';
import { consumeSessionEndedByServer, setToken } from '../../app/session.ts';

interface SignInValues {
  username: string;
  password: string;
  totpCode: string;
}

const TOTP_PATTERN = /^\d{6}$/;

function returnPath(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('/sign-in') ? from : '/';
}

export default function SignInPage() {
  const { t } = useTranslation();
  const token = useToken();
  const location = useLocation();
  const navigate = useNavigate();
  const [form] = Form.useForm<SignInValues>();
  const [wasEndedByServer] = useState(consumeSessionEndedByServer);

  const signIn = useMutation({
    mutationFn: (values: SignInValues) =>
      adminApi.login({ username: values.username.trim(), password: values.password, totpCode: values.totpCode }),
    onSuccess: (data) => {
      queryClient.removeQueries({ queryKey: queryKeys.me });
      setToken(data.token);
      void navigate(returnPath(location.state), { replace: true });
    },
    onError: (error) => {
      form.setFieldValue('totpCode', '');
      if (isApiError(error)) {
        form.setFields(
          Object.entries(error.fields)
            .filter(([name]) => ['username', 'password', 'totpCode'].includes(name))
            .map(([name, message]) => ({ name: name as keyof SignInValues, errors: [message] })),
        );
      }
    },
  });

  if (token !== null && !signIn.isPending) return <Navigate to={returnPath(location.state)} replace />;

  return (
    <Flex vertical align="center" justify="center" style={{ minHeight: '100vh', padding: 16, background: '#f3f7f6' }}>
      <Flex justify="flex-end" style={{ width: '100%', maxWidth: 420, marginBottom: 8 }}>
        <LanguageSwitch />
      </Flex>
      <Card style={{ width: '100%', maxWidth: 420 }} styles={{ body: { padding: 32 } }}>
        <Flex align="center" gap={12} style={{ marginBottom: 24 }}>
          <img src={`${import.meta.env.BASE_URL}favicon.svg`} alt="" width={40} height={40} />
          <div>
            <Typography.Title level={3} style={{ margin: 0 }}>
              {t('signIn.title')}
            </Typography.Title>
            <Typography.Text type="secondary">
              {t('common.brand')} · {t('common.console')}
            </Typography.Text>
          </div>
        </Flex>
        <Typography.Paragraph type="secondary">{t('signIn.subtitle')}</Typography.Paragraph>
        {wasEndedByServer && !signIn.isError && (
          <Alert type="info" showIcon title={t('signIn.sessionEnded')} style={{ marginBottom: 16 }} />
        )}
        <Form<SignInValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(values) => signIn.mutate(values)}
          disabled={signIn.isPending}
        >
          <Form.Item
            name="username"
            label={t('signIn.username')}
            rules={[{ required: true, whitespace: true, message: t('signIn.usernameRequired') }]}
          >
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus data-testid="sign-in-username" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('signIn.password')}
            rules={[{ required: true, message: t('signIn.passwordRequired') }]}
          >
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="sign-in-password" />
          </Form.Item>
          <Form.Item
            name="totpCode"
            label={t('signIn.totpCode')}
            extra={t('signIn.totpHint')}
            normalize={(value: string) => value.replace(/\D/g, '').slice(0, 6)}
            rules={[{ pattern: TOTP_PATTERN, required: true, message: t('signIn.totpFormat') }]}
          >
            <Input
              prefix={<SafetyOutlined />}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder="123456"
              style={{ letterSpacing: 4, fontVariantNumeric: 'tabular-nums' }}
              data-testid="sign-in-totp"
            />
          </Form.Item>
          {signIn.isError && (
            <Alert
              type="error"
              showIcon
              title={signIn.error.message}
              style={{ marginBottom: 16 }}
              data-testid="sign-in-error"
            />
          )}
          <Button
            type="primary"
            htmlType="submit"
            block
            size="large"
            loading={signIn.isPending}
            data-testid="sign-in-submit"
          >
            {t('signIn.submit')}
          </Button>
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 24, marginBottom: 0, fontSize: 12 }}>
          {t('signIn.audited')}
        </Typography.Paragraph>
      </Card>
    </Flex>
  );
}
