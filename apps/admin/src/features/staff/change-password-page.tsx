// A staff member changes their own password (old + new, typed twice). The server checks the old
// one, applies its own rules (its translated message is shown) and audits the change.
import { useMutation } from '@tanstack/react-query';
import { Alert, App as AntApp, Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient } from '../../app/api.ts';
import { isApiError } from '../../app/request.ts';
import { PageTitle } from '../../shared/page-title.tsx';

// The contract's loginPassword(): 6 to 20 characters.
export const PASSWORD_LENGTH_MIN = 6;
export const PASSWORD_LENGTH_MAX = 20;

interface PasswordValues {
  oldPassword: string;
  password: string;
  confirm: string;
}

export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<PasswordValues>();
  const change = useMutation({
    mutationFn: (values: PasswordValues) =>
      adminApi.changePassword({ oldPassword: values.oldPassword, password: values.password }),
    onSuccess: () => {
      form.resetFields();
      void message.success(t('password.done'));
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      form.setFields(
        Object.entries(error.fields)
          .filter(([name]) => name === 'oldPassword' || name === 'password')
          .map(([name, text]) => ({ name: name as keyof PasswordValues, errors: [text] })),
      );
    },
  });

  return (
    <>
      <PageTitle title={t('password.title')} />
      <Card style={{ maxWidth: 480 }}>
        <Form<PasswordValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(values) => change.mutate(values)}
          disabled={change.isPending}
        >
          <Form.Item
            name="oldPassword"
            label={t('password.current')}
            rules={[{ required: true, message: t('password.currentRequired') }]}
          >
            <Input.Password autoComplete="current-password" data-testid="password-old" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('password.new')}
            dependencies={['oldPassword']}
            rules={[
              {
                required: true,
                min: PASSWORD_LENGTH_MIN,
                max: PASSWORD_LENGTH_MAX,
                message: t('password.length', { min: PASSWORD_LENGTH_MIN, max: PASSWORD_LENGTH_MAX }),
              },
              ({ getFieldValue }) => ({
                validator: async (_rule, value: string | undefined) => {
                  if (value !== undefined && value !== '' && value === getFieldValue('oldPassword')) {
                    throw new Error(t('password.sameAsOld'));
                  }
                },
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" data-testid="password-new" />
          </Form.Item>
          <Form.Item
            name="confirm"
            label={t('password.confirm')}
            dependencies={['password']}
            rules={[
              ({ getFieldValue }) => ({
                validator: async (_rule, value: string | undefined) => {
                  if (value !== getFieldValue('password')) throw new Error(t('password.mismatch'));
                },
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" data-testid="password-confirm" />
          </Form.Item>
          {change.isError && <Alert type="error" showIcon title={change.error.message} style={{ marginBottom: 16 }} />}
          <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="password-submit">
            {t('password.submit')}
          </Button>
        </Form>
      </Card>
    </>
  );
}
