// Customers: search and list; block (status 0) or unblock with a written reason after a
// confirmation. Blocking only stops sign-in and trading; it never touches balances (PRODUCT.md
// rule 2), and the server records who did it and why in the audit log.

import { CheckCircleOutlined, StopOutlined } from '@ant-design/icons';
import type { CustomerUserView } from '@bourse/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, App as AntApp, Button, Card, Flex, Input, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { adminApi, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, queryClient, queryKeys } from '../../app/api.ts';
import { useCurrentStaff } from '../../app/current-staff.tsx';
import { formatDateTime, isUserBlocked, kycState } from '../../app/format.ts';
import { hasPermission } from '../../app/roles.ts';
import { PageTitle } from '../../shared/page-title.tsx';
import { ReasonModal } from '../../shared/reason-modal.tsx';
import { positiveInt, withParams } from '../../shared/url-params.ts';

export default function UsersPage() {
  const { t, i18n } = useTranslation();
  const { staff: me } = useCurrentStaff();
  const { message } = AntApp.useApp();
  const canChangeStatus = hasPermission(me.role, 'users.status');
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1, Number.MAX_SAFE_INTEGER);
  const limit = positiveInt(params.get('limit'), PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX);
  const keyword = params.get('keyword') ?? '';
  const [keywordDraft, setKeywordDraft] = useState(keyword);
  // The target outlives the dialog's closing animation, so its title does not flip meanwhile.
  const [changing, setChanging] = useState<CustomerUserView | null>(null);
  const [isDialogOpen, setDialogOpen] = useState(false);

  const query = { keyword, page, limit };
  const users = useQuery({
    queryKey: queryKeys.users(query),
    queryFn: () => adminApi.users(query),
    placeholderData: keepPreviousData,
  });

  function update(changes: Record<string, string | number>) {
    setParams(withParams(params, changes));
  }

  const columns: TableColumnsType<CustomerUserView> = [
    { title: t('users.id'), dataIndex: 'id', width: 90 },
    { title: t('users.account'), dataIndex: 'account' },
    {
      title: t('users.status'),
      dataIndex: 'status',
      width: 120,
      render: (status: number) =>
        isUserBlocked(status) ? (
          <Tag color="red">{t('users.blocked')}</Tag>
        ) : (
          <Tag color="green">{t('users.active')}</Tag>
        ),
    },
    {
      title: t('users.kyc'),
      dataIndex: 'idStatus',
      width: 150,
      render: (idStatus: CustomerUserView['idStatus']) => {
        const state = kycState(idStatus);
        if (state !== null) return t(`kyc.${state}`);
        return idStatus === null || idStatus === undefined ? t('common.none') : String(idStatus);
      },
    },
    {
      title: t('users.createdAt'),
      dataIndex: 'createdAt',
      width: 200,
      render: (at: string) => formatDateTime(at, i18n.language),
    },
  ];
  if (canChangeStatus) {
    columns.push({
      title: t('users.actions'),
      key: 'actions',
      width: 150,
      render: (_value, user) =>
        isUserBlocked(user.status) ? (
          <Button
            size="small"
            icon={<CheckCircleOutlined />}
            onClick={() => {
              setChanging(user);
              setDialogOpen(true);
            }}
            data-testid={`user-unblock-${user.id}`}
          >
            {t('users.unblock')}
          </Button>
        ) : (
          <Button
            size="small"
            danger
            icon={<StopOutlined />}
            onClick={() => {
              setChanging(user);
              setDialogOpen(true);
            }}
            data-testid={`user-block-${user.id}`}
          >
            {t('users.block')}
          </Button>
        ),
    });
  }

  const isBlocking = changing !== null && !isUserBlocked(changing.status);
  const account = changing?.account ?? '';

  return (
    <>
      <PageTitle title={t('users.title')} />
      {!canChangeStatus && <Alert type="info" showIcon title={t('users.readOnly')} style={{ marginBottom: 16 }} />}
      <Card>
        <Flex wrap gap={12} style={{ marginBottom: 16 }}>
          <Input.Search
            aria-label={t('common.search')}
            data-testid="users-search"
            style={{ maxWidth: 360 }}
            placeholder={t('users.searchPlaceholder')}
            allowClear
            enterButton={t('common.search')}
            value={keywordDraft}
            onChange={(event) => setKeywordDraft(event.target.value)}
            onSearch={(value) => update({ keyword: value.trim(), page: '' })}
          />
        </Flex>
        {users.isError && <Alert type="error" showIcon title={users.error.message} style={{ marginBottom: 16 }} />}
        <Table<CustomerUserView>
          data-testid="users-table"
          rowKey={(user) => String(user.id)}
          size="middle"
          columns={columns}
          dataSource={users.data?.items ?? []}
          loading={users.isFetching}
          locale={{ emptyText: t('users.empty') }}
          scroll={{ x: 760 }}
          pagination={{
            current: page,
            pageSize: limit,
            total: users.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [20, 50, 100],
            showTotal: (total) => t('common.total', { count: total }),
            onChange: (nextPage, nextSize) =>
              update({
                page: nextSize !== limit ? 1 : nextPage,
                limit: nextSize === PAGE_SIZE_DEFAULT ? '' : nextSize,
              }),
          }}
        />
      </Card>
      <ReasonModal
        open={isDialogOpen}
        isDanger={isBlocking}
        title={t(isBlocking ? 'users.blockTitle' : 'users.unblockTitle', { account })}
        body={<Typography.Paragraph>{t(isBlocking ? 'users.blockBody' : 'users.unblockBody')}</Typography.Paragraph>}
        okText={t(isBlocking ? 'users.block' : 'users.unblock')}
        onCancel={() => setDialogOpen(false)}
        onConfirm={async (reason) => {
          if (changing === null) return;
          await adminApi.setUserStatus({ userId: changing.id, status: isBlocking ? 0 : 1, reason });
          void message.success(t(isBlocking ? 'users.blockedDone' : 'users.unblockedDone', { account }));
          setDialogOpen(false);
          void queryClient.invalidateQueries({ queryKey: ['users'] });
          void queryClient.invalidateQueries({ queryKey: ['audit'] });
        }}
      />
    </>
  );
}
