// The customer's API keys (security settings → API keys, /pages/user/apiKeys): the keys with their
// permission, allowed addresses and last use; creating one (name, read or trade, optional IP allow-list,
// confirmed with the transaction password) shows its secret once, to copy; revoking asks first.
// The server checks every value; this screen only asks and shows its messages under the fields.
import type { AddApiKeyInput, ApiKeyCreatedView, ApiKeyListView, ApiKeyPermission, ApiKeyView } from '@bourse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Form, Input, Selector, TextArea, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiGet, apiPost } from '../../app/api.ts';
import { Page } from '../../app/shell/page.tsx';
import { formatDateTime } from '../../lib/time.ts';
import { CopyValue, RequireLogin, Sheet } from '../accounts/security-page.tsx';
import { applyServerErrors } from '../accounts/server-errors.ts';
import { ServerForm } from '../accounts/server-form.tsx';
import './api-keys.css';

const apiKeysKey = ['apikey', 'list'] as const;
const FIELDS = ['label', 'permission', 'ips', 'password'];

export function ApiKeysPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.user.apiKeys')}>
        <ApiKeys />
      </Page>
    </RequireLogin>
  );
}

function ApiKeys() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [isCreating, setIsCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreatedView | null>(null);
  const query = useQuery({ queryKey: apiKeysKey, queryFn: () => apiGet<ApiKeyListView>('/user/apikey/list') });
  const revoke = useMutation({
    mutationFn: (id: number) => apiPost('/user/apikey/del', { id }),
    onSuccess: () => {
      Toast.show({ content: t('apiKeys.revoked') });
      void queryClient.invalidateQueries({ queryKey: apiKeysKey });
    },
  });
  // The panel keeps its content while it slides away; a new key's form starts fresh when opened.
  const close = useCallback(() => {
    setIsCreating(false);
    void queryClient.invalidateQueries({ queryKey: apiKeysKey });
  }, [queryClient]);
  const data = query.data;
  const isFull = data ? data.items.length >= data.max : true;
  return (
    <div className="padded api-keys">
      <p className="section-hint">{t('apiKeys.intro')}</p>
      <CopyValue label={t('apiKeys.baseUrl')} value={`${window.location.origin}/api/v3`} />
      {query.isError && (
        <div className="state-inline">
          <span>{t('common.loadError')}</span>
          <button type="button" className="text-button" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {query.isPending && <div className="skeleton-row" aria-hidden="true" />}
      {data && data.items.length === 0 && <p className="muted">{t('apiKeys.empty')}</p>}
      {data && data.items.length > 0 && (
        <>
          <p className="muted api-keys__count">{t('apiKeys.limit', { count: data.items.length, max: data.max })}</p>
          <ul className="list" data-testid="api-keys">
            {data.items.map((item) => (
              <ApiKeyRow
                key={item.id}
                item={item}
                isRevoking={revoke.isPending && revoke.variables === item.id}
                onRevoke={async () => {
                  // The static dialog sits outside the app's locale provider: its buttons are named here.
                  const isConfirmed = await Dialog.confirm({
                    content: t('apiKeys.confirmRevoke', { label: item.label }),
                    confirmText: t('apiKeys.revoke'),
                    cancelText: t('common.cancel'),
                  });
                  if (isConfirmed) revoke.mutate(item.id);
                }}
              />
            ))}
          </ul>
        </>
      )}
      <Button
        block
        color="primary"
        className="mt-16"
        disabled={isFull}
        onClick={() => {
          setCreated(null);
          setIsCreating(true);
        }}
        data-testid="api-key-create"
      >
        {t('apiKeys.create')}
      </Button>
      <Sheet title={created ? t('apiKeys.created') : t('apiKeys.create')} isOpen={isCreating} onClose={close}>
        {created ? (
          <CreatedKey created={created} onDone={close} />
        ) : (
          <CreateKeyForm
            onCreated={(view) => {
              setCreated(view);
              void queryClient.invalidateQueries({ queryKey: apiKeysKey });
            }}
          />
        )}
      </Sheet>
    </div>
  );
}

function ApiKeyRow({ item, isRevoking, onRevoke }: { item: ApiKeyView; isRevoking: boolean; onRevoke: () => void }) {
  const { t } = useTranslation();
  return (
    <li className="api-key-row" data-testid="api-key">
      <div className="api-key-row__body">
        <div className="api-key-row__title">
          <span className="api-key-row__label">{item.label}</span>
          <span className={item.permission === 'trade' ? 'chip chip--trade' : 'chip'}>
            {t(`apiKeys.permissions.${item.permission}`)}
          </span>
        </div>
        <code className="api-key-row__key">{`${item.apiKey.slice(0, 8)}…${item.apiKey.slice(-6)}`}</code>
        <div className="api-key-row__meta">{item.ips.length > 0 ? item.ips.join(', ') : t('apiKeys.anyIp')}</div>
        <div className="api-key-row__meta tabular">
          {item.lastUsedAt
            ? t('apiKeys.lastUsed', { time: formatDateTime(item.lastUsedAt), ip: item.lastUsedIp ?? '' })
            : t('apiKeys.neverUsed')}
        </div>
        <div className="api-key-row__meta tabular">
          {t('apiKeys.createdAt', { time: formatDateTime(item.createdAt) })}
        </div>
      </div>
      <Button size="small" fill="outline" color="danger" loading={isRevoking} onClick={onRevoke}>
        {t('apiKeys.revoke')}
      </Button>
    </li>
  );
}

type FormValues = { label: string; permission: ApiKeyPermission[]; ips?: string; password: string };

function CreateKeyForm({ onCreated }: { onCreated: (view: ApiKeyCreatedView) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [banner, setBanner] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (values: AddApiKeyInput) => apiPost<ApiKeyCreatedView>('/user/apikey/add', values, { isSilent: true }),
    onSuccess: onCreated,
    onError: (error) => setBanner(applyServerErrors(form, error, FIELDS)),
  });
  const required = [{ required: true, message: t('apiKeys.required') }];
  return (
    <ServerForm
      form={form}
      banner={banner}
      initialValues={{ permission: ['read'] }}
      onSubmit={(values: FormValues) => {
        setBanner(null);
        add.mutate({
          label: values.label,
          permission: values.permission[0] ?? 'read',
          ips: values.ips ?? '',
          password: values.password,
        });
      }}
      isPending={add.isPending}
      submitText={t('apiKeys.create')}
      testId="api-key-form"
    >
      <Form.Item name="label" label={t('apiKeys.label')} rules={required}>
        <Input placeholder={t('apiKeys.labelPlaceholder')} maxLength={40} data-testid="api-key-label" />
      </Form.Item>
      <Form.Item name="permission" label={t('apiKeys.permission')} help={t('apiKeys.permissionHint')}>
        <Selector
          options={(['read', 'trade'] as const).map((value) => ({ value, label: t(`apiKeys.permissions.${value}`) }))}
          data-testid="api-key-permission"
        />
      </Form.Item>
      <Form.Item name="ips" label={t('apiKeys.ips')} help={t('apiKeys.ipsHint')}>
        <TextArea placeholder={t('apiKeys.ipsPlaceholder')} rows={2} maxLength={1000} data-testid="api-key-ips" />
      </Form.Item>
      <Form.Item name="password" label={t('apiKeys.password')} help={t('apiKeys.passwordHint')} rules={required}>
        <Input type="password" inputMode="numeric" autoComplete="off" maxLength={6} data-testid="api-key-password" />
      </Form.Item>
    </ServerForm>
  );
}

function CreatedKey({ created, onDone }: { created: ApiKeyCreatedView; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="api-key-created" data-testid="api-key-created">
      <div className="form-banner api-key-created__warning" role="alert">
        {t('apiKeys.secretOnce')}
      </div>
      <CopyValue label={t('apiKeys.apiKey')} value={created.key.apiKey} />
      <CopyValue label={t('apiKeys.secret')} value={created.secret} />
      <Button block color="primary" className="mt-16" onClick={onDone} data-testid="api-key-done">
        {t('apiKeys.done')}
      </Button>
    </div>
  );
}
