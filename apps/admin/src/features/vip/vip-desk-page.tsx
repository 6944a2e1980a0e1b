// The VIP desk (vip.manage: support, admin): the members list with each customer's periods (trial and
// paid, with the ledger transfer that paid each), the VIP stock-strategy switch per customer with a
// written reason, and the trading-advice posts members read in the app, published and withdrawn with a
// reason. Posts are educational content and labelled so in the app. The server audits every action.

import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { StaffVipAdviceView, StaffVipMemberView, VipAdviceInput } from '@bourse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  App as AntApp,
  Button,
  Flex,
  Form,
  Input,
  Modal,
  Switch,
  Table,
  type TableColumnsType,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient } from '../../app/api.ts';
import { formatDateTime, formatDecimalText } from '../../app/format.ts';
import { isApiError } from '../../app/request.ts';
import { PageTitle } from '../../shared/page-title.tsx';
import { ReasonField, ReasonModal } from '../../shared/reason-modal.tsx';

const STATE_COLOURS = { none: 'default', trial: 'blue', member: 'gold', lapsed: 'default' } as const;
const invalidate = () => {
  void queryClient.invalidateQueries({ queryKey: ['vip'] });
  void queryClient.invalidateQueries({ queryKey: ['audit'] });
};

function Members() {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const lang = i18n.language;
  const when = (ms: number | null) => (ms === null ? '—' : formatDateTime(new Date(ms).toISOString(), lang));
  const list = useQuery({ queryKey: ['vip', 'members'], queryFn: () => adminApi.vipMembers() });
  const [switching, setSwitching] = useState<StaffVipMemberView | null>(null);
  const columns: TableColumnsType<StaffVipMemberView> = [
    { title: t('vip.customer'), dataIndex: 'userId', width: 90 },
    { title: t('vip.phone'), dataIndex: 'phone', width: 160 },
    {
      title: t('vip.state'),
      key: 'state',
      width: 120,
      render: (_, m) => <Tag color={STATE_COLOURS[m.state]}>{t(`vip.states.${m.state}`)}</Tag>,
    },
    { title: t('vip.expires'), key: 'expires', width: 180, render: (_, m) => when(m.expiresAt) },
    {
      title: t('vip.strategy'),
      key: 'strategy',
      width: 140,
      render: (_, m) => (
        <Switch
          checked={m.strategyEnabled}
          onChange={() => setSwitching(m)}
          data-testid={`vip-strategy-${m.userId}`}
          aria-label={t('vip.strategy')}
        />
      ),
    },
  ];
  const periodColumns: TableColumnsType<StaffVipMemberView['periods'][number]> = [
    { title: t('vip.period'), dataIndex: 'id', width: 70 },
    { title: t('vip.kind'), key: 'kind', width: 90, render: (_, p) => t(`vip.kinds.${p.kind}`) },
    { title: t('vip.status'), key: 'status', width: 90, render: (_, p) => t(`vip.statuses.${p.status}`) },
    { title: t('vip.from'), key: 'from', render: (_, p) => when(p.startsAt) },
    { title: t('vip.to'), key: 'to', render: (_, p) => when(p.endsAt) },
    {
      title: t('vip.paid'),
      key: 'paid',
      align: 'right',
      render: (_, p) => (p.amount && p.currency ? `${formatDecimalText(p.amount, lang)} ${p.currency}` : t('vip.free')),
    },
    {
      title: t('vip.transfer'),
      key: 'transfer',
      render: (_, p) => (p.transferId ? <Typography.Text code>{p.transferId}</Typography.Text> : '—'),
    },
  ];
  return (
    <>
      <Flex justify="flex-end" style={{ marginBottom: 12 }}>
        <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} loading={list.isFetching}>
          {t('common.refresh')}
        </Button>
      </Flex>
      {list.isError && <Alert type="error" showIcon title={list.error.message} style={{ marginBottom: 16 }} />}
      <Table<StaffVipMemberView>
        rowKey="userId"
        size="middle"
        columns={columns}
        dataSource={list.data?.items ?? []}
        loading={list.isLoading}
        pagination={false}
        scroll={{ x: 700 }}
        locale={{ emptyText: t('vip.noMembers') }}
        expandable={{
          expandedRowRender: (m) => (
            <Table rowKey="id" size="small" columns={periodColumns} dataSource={m.periods} pagination={false} />
          ),
        }}
        data-testid="vip-members"
      />
      <StrategySwitchModal
        member={switching}
        onClose={() => setSwitching(null)}
        onDone={(enabled) => {
          void message.success(t(enabled ? 'vip.strategyEnabled' : 'vip.strategyDisabled'));
          setSwitching(null);
          invalidate();
        }}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
        {t('vip.strategyHint')}
      </Typography.Paragraph>
      <StrategyByIdForm />
    </>
  );
}

function StrategySwitchModal({
  member,
  onClose,
  onDone,
}: {
  member: { userId: number; strategyEnabled: boolean } | null;
  onClose: () => void;
  onDone: (enabled: boolean) => void;
}) {
  const { t } = useTranslation();
  const enable = member ? !member.strategyEnabled : true;
  return (
    <ReasonModal
      open={member !== null}
      isDanger={!enable}
      title={t(enable ? 'vip.enableTitle' : 'vip.disableTitle', { user: member?.userId ?? '' })}
      body={<Typography.Paragraph>{t(enable ? 'vip.enableBody' : 'vip.disableBody')}</Typography.Paragraph>}
      okText={t(enable ? 'vip.enable' : 'vip.disable')}
      onCancel={onClose}
      onConfirm={async (reason) => {
        if (!member) return;
        await adminApi.setVipStrategy({ userId: member.userId, enabled: enable, reason });
        onDone(enable);
      }}
    />
  );
}

/** A customer who is not on the list yet (no period): the switch by customer id. */
function StrategyByIdForm() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [userId, setUserId] = useState('');
  const [target, setTarget] = useState<{ userId: number; strategyEnabled: boolean } | null>(null);
  return (
    <Flex gap={8} align="center">
      <Input
        style={{ width: 200 }}
        inputMode="numeric"
        placeholder={t('vip.customer')}
        value={userId}
        onChange={(e) => setUserId(e.target.value.replace(/\D/g, ''))}
        data-testid="vip-strategy-user"
      />
      <Button
        disabled={!/^[1-9]\d{0,15}$/.test(userId)}
        onClick={() => setTarget({ userId: Number(userId), strategyEnabled: false })}
        data-testid="vip-strategy-enable"
      >
        {t('vip.enable')}
      </Button>
      <StrategySwitchModal
        member={target}
        onClose={() => setTarget(null)}
        onDone={() => {
          void message.success(t('vip.strategyEnabled'));
          setTarget(null);
          setUserId('');
          invalidate();
        }}
      />
    </Flex>
  );
}

type AdviceValues = Omit<VipAdviceInput, 'reason'> & { reason: string };

function PublishModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<AdviceValues>();
  const publish = useMutation({
    mutationFn: (v: AdviceValues) => adminApi.publishVipAdvice(v),
    onSuccess: () => {
      void message.success(t('vip.published'));
      invalidate();
      onClose();
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      form.setFields(
        Object.entries(error.fields).map(([name, text]) => ({ name: name as keyof AdviceValues, errors: [text] })),
      );
    },
  });
  const required = [{ required: true, whitespace: true, message: t('vip.required') }];
  return (
    <Modal
      open={open}
      title={t('vip.newPost')}
      okText={t('vip.publish')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: publish.isPending, 'data-testid': 'vip-advice-submit' }}
      onOk={() =>
        void form.validateFields().then(
          (v) => publish.mutate(v),
          () => undefined,
        )
      }
      onCancel={onClose}
      afterClose={() => publish.reset()}
      destroyOnHidden
      maskClosable={false}
      width={640}
    >
      <Alert type="info" showIcon title={t('vip.educationRule')} style={{ marginBottom: 12 }} />
      <Form<AdviceValues> form={form} layout="vertical" requiredMark={false} preserve={false}>
        <Form.Item name="titleEn" label={t('vip.titleEn')} rules={required}>
          <Input maxLength={160} data-testid="vip-advice-title-en" />
        </Form.Item>
        <Form.Item name="bodyEn" label={t('vip.bodyEn')} rules={required}>
          <Input.TextArea rows={4} maxLength={4000} data-testid="vip-advice-body-en" />
        </Form.Item>
        <Form.Item name="titlePt" label={t('vip.titlePt')} rules={required}>
          <Input maxLength={160} data-testid="vip-advice-title-pt" />
        </Form.Item>
        <Form.Item name="bodyPt" label={t('vip.bodyPt')} rules={required}>
          <Input.TextArea rows={4} maxLength={4000} data-testid="vip-advice-body-pt" />
        </Form.Item>
        <ReasonField />
      </Form>
      {publish.isError && <Alert type="error" showIcon title={publish.error.message} />}
    </Modal>
  );
}

function AdvicePosts() {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const lang = i18n.language;
  const list = useQuery({ queryKey: ['vip', 'advice'], queryFn: () => adminApi.vipAdvice() });
  const [isPublishing, setPublishing] = useState(false);
  const [withdrawing, setWithdrawing] = useState<StaffVipAdviceView | null>(null);
  const columns: TableColumnsType<StaffVipAdviceView> = [
    { title: t('vip.post'), dataIndex: 'id', width: 60 },
    {
      title: t('vip.titleCol'),
      key: 'title',
      render: (_, a) => (
        <Flex vertical>
          <strong>{lang.startsWith('pt') ? a.titlePt : a.titleEn}</strong>
          <Typography.Text type="secondary" ellipsis style={{ maxWidth: 420 }}>
            {lang.startsWith('pt') ? a.bodyPt : a.bodyEn}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('vip.author'),
      key: 'author',
      width: 200,
      render: (_, a) => `${a.author} · ${formatDateTime(new Date(a.publishedAt).toISOString(), lang)}`,
    },
    {
      title: t('vip.status'),
      key: 'state',
      width: 200,
      render: (_, a) =>
        a.withdrawnAt === null ? (
          <Flex gap={8} align="center">
            <Tag color="green">{t('vip.live')}</Tag>
            <Button size="small" danger onClick={() => setWithdrawing(a)} data-testid={`vip-advice-withdraw-${a.id}`}>
              {t('vip.withdraw')}
            </Button>
          </Flex>
        ) : (
          <Tag>{t('vip.withdrawn')}</Tag>
        ),
    },
  ];
  return (
    <>
      <Flex justify="flex-end" gap={8} style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setPublishing(true)} data-testid="vip-advice-new">
          {t('vip.newPost')}
        </Button>
      </Flex>
      <Table<StaffVipAdviceView>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.items ?? []}
        loading={list.isLoading}
        pagination={false}
        scroll={{ x: 700 }}
        locale={{ emptyText: t('vip.noPosts') }}
        data-testid="vip-advice"
      />
      <PublishModal open={isPublishing} onClose={() => setPublishing(false)} />
      <ReasonModal
        open={withdrawing !== null}
        isDanger
        title={t('vip.withdrawTitle', { id: withdrawing?.id ?? '' })}
        body={<Typography.Paragraph>{t('vip.withdrawBody')}</Typography.Paragraph>}
        okText={t('vip.withdraw')}
        onCancel={() => setWithdrawing(null)}
        onConfirm={async (reason) => {
          if (!withdrawing) return;
          await adminApi.withdrawVipAdvice({ id: withdrawing.id, reason });
          void message.success(t('vip.withdrawnDone'));
          setWithdrawing(null);
          invalidate();
        }}
      />
    </>
  );
}

export default function VipDeskPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle title={t('vip.title')} />
      <Typography.Paragraph type="secondary">{t('vip.intro')}</Typography.Paragraph>
      <Tabs
        items={[
          { key: 'members', label: t('vip.members'), children: <Members /> },
          { key: 'advice', label: t('vip.advice'), children: <AdvicePosts /> },
        ]}
      />
    </>
  );
}
