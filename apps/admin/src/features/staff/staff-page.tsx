// Staff accounts (admin only): list, create with a role and a reason, disable with a reason. A new account's
// initial password and TOTP secret are shown exactly once, in a dialog that only closes by
// confirming they were handed over; the console keeps no copy.

import { PlusOutlined, StopOutlined } from '@ant-design/icons';
import type { CreatedStaffView, StaffMemberView } from '@bourse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  App as AntApp,
  Button,
  Card,
  Descriptions,
  Flex,
  Form,
  Input,
  Modal,
  QRCode,
  Select,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient, queryKeys } from '../../app/api.ts';
import { useCurrentStaff } from '../../app/current-staff.tsx';
import { formatDateTime, isStaffDisabled } from '../../app/format.ts';
import { isApiError } from '../../app/request.ts';
import { STAFF_ROLES, type StaffRole } from '../../app/roles.ts';
import { PageTitle } from '../../shared/page-title.tsx';
import { ReasonField, ReasonModal } from '../../shared/reason-modal.tsx';

// The contract's staffCreateBody username rule.
const STAFF_USERNAME_PATTERN = /^[a-z][a-z0-9._-]{2,31}$/;

interface CreateValues {
  username: string;
  role: StaffRole;
  reason: string;
}

function CreateStaffModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (created: CreatedStaffView) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CreateValues>();
  const create = useMutation({
    mutationFn: (values: CreateValues) =>
      adminApi.createStaff({ username: values.username.trim(), role: values.role, reason: values.reason.trim() }),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.staff });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      onCreated(created);
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      form.setFields(
        Object.entries(error.fields)
          .filter(([name]) => name === 'username' || name === 'role' || name === 'reason')
          .map(([name, message]) => ({ name: name as keyof CreateValues, errors: [message] })),
      );
    },
  });

  return (
    <Modal
      open={open}
      title={t('staff.createTitle')}
      okText={t('staff.create')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: create.isPending, 'data-testid': 'staff-create-submit' }}
      onOk={() =>
        void form.validateFields().then(
          (values) => create.mutate(values),
          () => undefined,
        )
      }
      onCancel={onClose}
      afterClose={() => create.reset()}
      destroyOnHidden
      maskClosable={false}
    >
      <Form<CreateValues> form={form} layout="vertical" requiredMark={false} preserve={false}>
        <Form.Item
          name="username"
          label={t('staff.username')}
          extra={t('staff.usernameRule')}
          normalize={(value: string) => value.toLowerCase()}
          rules={[
            { required: true, whitespace: true, message: t('staff.usernameRequired') },
            { pattern: STAFF_USERNAME_PATTERN, message: t('staff.usernameRule') },
          ]}
        >
          <Input autoComplete="off" autoFocus maxLength={32} data-testid="staff-create-username" />
        </Form.Item>
        <Form.Item name="role" label={t('staff.role')} rules={[{ required: true, message: t('staff.roleRequired') }]}>
          <Select
            data-testid="staff-create-role"
            options={STAFF_ROLES.map((role) => ({
              value: role,
              label: (
                <Flex vertical style={{ paddingBlock: 2 }}>
                  <span>{t(`roles.${role}`)}</span>
                  <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'normal' }}>
                    {t(`roles.${role}Hint`)}
                  </Typography.Text>
                </Flex>
              ),
            }))}
            labelRender={({ value }) => t(`roles.${String(value)}`)}
          />
        </Form.Item>
        <ReasonField />
      </Form>
      {create.isError && <Alert type="error" showIcon title={create.error.message} />}
    </Modal>
  );
}

function CreatedCredentialsModal({ created, onDone }: { created: CreatedStaffView | null; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={created !== null}
      title={created === null ? '' : t('staff.createdTitle', { username: created.username })}
      closable={false}
      maskClosable={false}
      keyboard={false}
      width={640}
      footer={
        <Button type="primary" onClick={onDone} data-testid="staff-created-done">
          {t('staff.savedThem')}
        </Button>
      }
      destroyOnHidden
    >
      {created !== null && (
        <div data-testid="staff-created">
          <Alert
            type="warning"
            showIcon
            title={t('staff.createdWarning', { username: created.username })}
            style={{ marginBottom: 16 }}
          />
          <Flex gap={24} wrap align="flex-start">
            <Flex vertical align="center" gap={4}>
              <QRCode value={created.otpauthUrl} size={168} bordered={false} />
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('staff.scan')}
              </Typography.Text>
            </Flex>
            <Descriptions
              column={1}
              size="small"
              style={{ flex: 1, minWidth: 260 }}
              items={[
                { key: 'username', label: t('staff.username'), children: created.username },
                { key: 'role', label: t('staff.role'), children: t(`roles.${created.role}`) },
                {
                  key: 'password',
                  label: t('staff.initialPassword'),
                  children: (
                    <Typography.Text code copyable data-testid="staff-created-password">
                      {created.initialPassword}
                    </Typography.Text>
                  ),
                },
                {
                  key: 'secret',
                  label: t('staff.totpSecret'),
                  children: (
                    <Typography.Text code copyable data-testid="staff-created-secret">
                      {created.totpSecret}
                    </Typography.Text>
                  ),
                },
                {
                  key: 'url',
                  label: t('staff.otpauthUrl'),
                  children: (
                    <Typography.Text copyable style={{ wordBreak: 'break-all', fontSize: 12 }}>
                      {created.otpauthUrl}
                    </Typography.Text>
                  ),
                },
              ]}
            />
          </Flex>
        </div>
      )}
    </Modal>
  );
}

export default function StaffPage() {
  const { t, i18n } = useTranslation();
  const { staff: me } = useCurrentStaff();
  const { message } = AntApp.useApp();
  const staff = useQuery({ queryKey: queryKeys.staff, queryFn: adminApi.staff });
  const [isCreating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedStaffView | null>(null);
  const [disabling, setDisabling] = useState<StaffMemberView | null>(null);
  const [isDisableOpen, setDisableOpen] = useState(false);

  const columns: TableColumnsType<StaffMemberView> = [
    { title: t('staff.id'), dataIndex: 'id', width: 80 },
    {
      title: t('staff.username'),
      dataIndex: 'username',
      render: (username: string, member) => (
        <span>
          {username}
          {String(member.id) === String(me.id) && (
            <Typography.Text type="secondary"> ({t('common.you')})</Typography.Text>
          )}
        </span>
      ),
    },
    {
      title: t('staff.role'),
      dataIndex: 'role',
      render: (role: StaffRole) => <Tag color="cyan">{t(`roles.${role}`)}</Tag>,
    },
    {
      title: t('staff.status'),
      dataIndex: 'status',
      render: (status: number | string) =>
        isStaffDisabled(status) ? <Tag>{t('staff.disabled')}</Tag> : <Tag color="green">{t('staff.active')}</Tag>,
    },
    {
      title: t('staff.createdAt'),
      dataIndex: 'createdAt',
      render: (at: string) => formatDateTime(at, i18n.language),
    },
    {
      title: t('staff.actions'),
      key: 'actions',
      width: 140,
      render: (_value, member) =>
        isStaffDisabled(member.status) || String(member.id) === String(me.id) ? null : (
          <Button
            danger
            size="small"
            icon={<StopOutlined />}
            onClick={() => {
              setDisabling(member);
              setDisableOpen(true);
            }}
            data-testid={`staff-disable-${member.username}`}
          >
            {t('staff.disable')}
          </Button>
        ),
    },
  ];

  return (
    <>
      <PageTitle
        title={t('staff.title')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="staff-add">
            {t('staff.add')}
          </Button>
        }
      />
      <Card>
        {staff.isError && <Alert type="error" showIcon title={staff.error.message} style={{ marginBottom: 16 }} />}
        <Table<StaffMemberView>
          data-testid="staff-table"
          rowKey={(member) => String(member.id)}
          size="middle"
          columns={columns}
          dataSource={staff.data?.items ?? []}
          loading={staff.isFetching}
          pagination={false}
          scroll={{ x: 720 }}
        />
      </Card>
      <CreateStaffModal
        open={isCreating}
        onClose={() => setCreating(false)}
        onCreated={(result) => {
          setCreating(false);
          setCreated(result);
        }}
      />
      <CreatedCredentialsModal created={created} onDone={() => setCreated(null)} />
      <ReasonModal
        open={isDisableOpen}
        isDanger
        title={t('staff.disableTitle', { username: disabling?.username ?? '' })}
        body={
          <Typography.Paragraph>{t('staff.disableBody', { username: disabling?.username ?? '' })}</Typography.Paragraph>
        }
        okText={t('staff.disable')}
        onCancel={() => setDisableOpen(false)}
        onConfirm={async (reason) => {
          if (disabling === null) return;
          await adminApi.disableStaff({ id: disabling.id, reason });
          void message.success(t('staff.disabledDone', { username: disabling.username }));
          setDisableOpen(false);
          void queryClient.invalidateQueries({ queryKey: queryKeys.staff });
          void queryClient.invalidateQueries({ queryKey: ['audit'] });
        }}
      />
    </>
  );
}
