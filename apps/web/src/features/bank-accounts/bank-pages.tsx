// The customer's bank accounts (SPEC §2 wallet/bankList and wallet/addBank): list with delete and the
// 24 h withdrawal lock, and the add form per country (India: IFSC; Brazil: branch, PIX key, CPF/CNPJ).
// The server checks every value; this screen only asks and shows its messages under the fields.
import type { AddBankInput, BankAccountView, BankListView } from '@bourse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Form, Input, List, Selector, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { apiGet, apiPost, useLoginInfo } from '../../app/api.ts';
import { useSession } from '../../app/session.ts';
import { Page } from '../../app/shell/page.tsx';
import { formatDateTime } from '../../lib/time.ts';
import { RequireLogin } from '../accounts/security-page.tsx';
import { applyServerErrors } from '../accounts/server-errors.ts';
import { ServerForm } from '../accounts/server-form.tsx';

const bankListKey = ['bank', 'list'] as const;
const FIELDS = [
  'country',
  'holderName',
  'bankName',
  'branch',
  'accountNumber',
  'ifsc',
  'pixKey',
  'taxId',
  'password',
  'totpCode',
];

function BankCard({ item, onDelete }: { item: BankAccountView; onDelete: () => void }) {
  const { t } = useTranslation();
  const detail = item.country === 'IN' ? `IFSC ${item.ifsc}` : `${t('bank.branch')} ${item.branch} · ${item.taxId}`;
  return (
    <List.Item
      data-testid="bank-item"
      description={`${item.accountNumber} · ${detail}`}
      extra={
        <Button size="mini" color="danger" fill="outline" onClick={onDelete}>
          {t('bank.delete')}
        </Button>
      }
    >
      {item.bankName} · {item.holderName} ({t(`bank.countries.${item.country}`)})
    </List.Item>
  );
}

function BankList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: bankListKey, queryFn: () => apiGet<BankListView>('/bank/list') });
  const del = useMutation({
    mutationFn: (id: number) => apiPost('/bank/del', { id }),
    onSuccess: () => {
      Toast.show({ content: t('bank.deleted') });
      void queryClient.invalidateQueries({ queryKey: bankListKey });
    },
  });
  const data = query.data;
  return (
    <div className="padded">
      {data && data.withdrawalsLockedUntil > 0 && (
        <p className="muted" data-testid="bank-lock">
          {t('bank.lockedUntil', { time: formatDateTime(data.withdrawalsLockedUntil) })}
        </p>
      )}
      {data && data.items.length === 0 && <p className="muted">{t('bank.empty')}</p>}
      {data && data.items.length > 0 && (
        <List>
          {data.items.map((item) => (
            <BankCard
              key={item.id}
              item={item}
              onDelete={async () => {
                // The static dialog sits outside the app's locale provider: its buttons are named here.
                const isConfirmed = await Dialog.confirm({
                  content: t('bank.confirmDelete'),
                  confirmText: t('bank.delete'),
                  cancelText: t('common.cancel'),
                });
                if (isConfirmed) del.mutate(item.id);
              }}
            />
          ))}
        </List>
      )}
      <Button block color="primary" style={{ marginTop: 16 }} onClick={() => navigate('/pages/wallet/addBank')}>
        {t('bank.add')}
      </Button>
    </div>
  );
}

export function BankListPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.wallet.bankList')}>
        <BankList />
      </Page>
    </RequireLogin>
  );
}

function AddBankForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const user = useLoginInfo().data?.user ?? session.user;
  const [form] = Form.useForm();
  const [country, setCountry] = useState<'IN' | 'BR'>('IN');
  const [banner, setBanner] = useState<string | null>(null);
  const required = [{ required: true, message: t('bank.required') }];
  const add = useMutation({
    mutationFn: (values: AddBankInput) => apiPost('/bank/add', values, { isSilent: true }),
    onSuccess: () => {
      Toast.show({ content: t('bank.added') });
      void queryClient.invalidateQueries({ queryKey: bankListKey });
      navigate('/pages/wallet/bankList', { replace: true });
    },
    onError: (error) => setBanner(applyServerErrors(form, error, FIELDS)),
  });
  return (
    <ServerForm
      form={form}
      banner={banner}
      initialValues={{ country: ['IN'] }}
      onSubmit={(values: Omit<AddBankInput, 'country'> & { country: ('IN' | 'BR')[] }) => {
        setBanner(null);
        add.mutate({ ...values, country: values.country[0] ?? country });
      }}
      isPending={add.isPending}
      submitText={t('bank.save')}
      testId="add-bank-form"
    >
      <Form.Item name="country" label={t('bank.country')} rules={required}>
        <Selector
          options={(['IN', 'BR'] as const).map((value) => ({ value, label: t(`bank.countries.${value}`) }))}
          onChange={(value) => value[0] && setCountry(value[0])}
        />
      </Form.Item>
      <Form.Item name="holderName" label={t('bank.holderName')} rules={required}>
        <Input maxLength={120} autoComplete="name" />
      </Form.Item>
      <Form.Item name="bankName" label={t('bank.bankName')} rules={required}>
        <Input maxLength={120} />
      </Form.Item>
      {country === 'BR' && (
        <Form.Item name="branch" label={t('bank.branch')} rules={required}>
          <Input maxLength={20} />
        </Form.Item>
      )}
      <Form.Item name="accountNumber" label={t('bank.accountNumber')} rules={required}>
        <Input maxLength={34} />
      </Form.Item>
      {country === 'IN' && (
        <Form.Item name="ifsc" label={t('bank.ifsc')} rules={required}>
          <Input maxLength={11} placeholder="HDFC0CAGSBK" />
        </Form.Item>
      )}
      {country === 'BR' && (
        <>
          <Form.Item name="pixKey" label={t('bank.pixKey')} rules={required}>
            <Input maxLength={120} />
          </Form.Item>
          <Form.Item name="taxId" label={t('bank.taxId')} rules={required}>
            <Input maxLength={20} />
          </Form.Item>
        </>
      )}
      {user?.totpEnabled ? (
        <Form.Item name="totpCode" label={t('bank.totpCode')} rules={required}>
          <Input maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
        </Form.Item>
      ) : (
        <Form.Item name="password" label={t('bank.password')} rules={required}>
          <Input type="password" autoComplete="current-password" maxLength={128} />
        </Form.Item>
      )}
    </ServerForm>
  );
}

export function AddBankPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.wallet.addBank')}>
        <div className="padded">
          <AddBankForm />
        </div>
      </Page>
    </RequireLogin>
  );
}
