// The launchpad desk (launchpad.manage: finance, admin): create a coin offering (a cap of coins at a USDT
// price, a subscription window, per-customer limits, the customers' summary with its risks); a DIFFERENT
// staff member approves it (it is then published) or rejects it; follow each offering's commitments and,
// after the close, its allocation. Nothing here sets who gets what: the server allots pro rata at the close.
// Every action is audited by the server.

import type { CreateCoinOfferingInput, StaffCoinOfferingView } from '@bourse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App as AntApp, Flex, Form, Input, InputNumber, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient, queryKeys } from '../../app/api.ts';
import { useCurrentStaff } from '../../app/current-staff.tsx';
import { formatDateTime, formatDecimalText } from '../../app/format.ts';
import { isApiError } from '../../app/request.ts';
import { useDecisionDialog } from '../../shared/decision-dialog.tsx';
import { DeskHeader, DeskTable } from '../../shared/desk-list.tsx';
import { FormModal } from '../../shared/form-modal.tsx';
import { ReasonField } from '../../shared/reason-modal.tsx';

const STATUS_COLOURS = {
  pending_approval: 'gold',
  approved: 'blue',
  rejected: 'red',
  allotted: 'cyan',
  listed: 'green',
} as const;
const DECIMAL = /^\d{1,15}(\.\d{1,18})?$/;
/** A stored decimal without its trailing zeros ("100000.00000000" → "100000", "1.500000" → "1.5"). */
const trimZeros = (v: string) => (v.includes('.') ? v.replace(/\.?0+$/, '') : v);
const FIELDS = [
  'symbol',
  'name',
  'scale',
  'price',
  'cap',
  'unit',
  'minCommit',
  'maxCommit',
  'opensAt',
  'closesAt',
  'summary',
  'reason',
];

interface CreateValues {
  symbol: string;
  name: string;
  scale: number;
  price: string;
  cap: string;
  unit: string;
  minCommit: string;
  maxCommit: string;
  opensAt: string;
  closesAt: string;
  summary: string;
  reason: string;
}

function CreateModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<CreateValues>();
  const create = useMutation({
    mutationFn: (v: CreateValues) =>
      adminApi.createCoinOffering({
        ...v,
        symbol: v.symbol.trim().toUpperCase(),
        opensAt: Date.parse(v.opensAt),
        closesAt: Date.parse(v.closesAt),
      } satisfies CreateCoinOfferingInput),
    onSuccess: () => {
      void message.success(t('launchpad.created'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.coinOfferings });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      onClose();
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      form.setFields(
        Object.entries(error.fields)
          .filter(([name]) => FIELDS.includes(name))
          .map(([name, text]) => ({ name: name as keyof CreateValues, errors: [text] })),
      );
    },
  });
  const decimal = (label: string) => ({
    required: true,
    pattern: DECIMAL,
    message: t('launchpad.decimalRule', { label }),
  });
  return (
    <FormModal
      open={open}
      width={640}
      title={t('launchpad.createTitle')}
      okText={t('launchpad.create')}
      submitTestId="launchpad-create-submit"
      form={form}
      mutation={create}
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">{t('launchpad.createHint')}</Typography.Paragraph>
      <Form<CreateValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        preserve={false}
        initialValues={{ scale: 8, unit: '1' }}
      >
        <Flex gap={12}>
          <Form.Item
            name="symbol"
            label={t('launchpad.symbol')}
            style={{ flex: 1 }}
            rules={[{ required: true, pattern: /^[A-Za-z][A-Za-z0-9]{1,9}$/, message: t('launchpad.symbolRule') }]}
          >
            <Input maxLength={10} data-testid="launchpad-symbol" />
          </Form.Item>
          <Form.Item name="name" label={t('launchpad.name')} style={{ flex: 2 }} rules={[{ required: true }]}>
            <Input maxLength={60} />
          </Form.Item>
          <Form.Item name="scale" label={t('launchpad.scale')} style={{ width: 110 }}>
            <InputNumber min={0} max={18} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Flex>
        <Flex gap={12}>
          <Form.Item
            name="price"
            label={t('launchpad.price')}
            style={{ flex: 1 }}
            rules={[decimal(t('launchpad.price'))]}
          >
            <Input inputMode="decimal" suffix="USDT" />
          </Form.Item>
          <Form.Item name="cap" label={t('launchpad.cap')} style={{ flex: 1 }} rules={[decimal(t('launchpad.cap'))]}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="unit" label={t('launchpad.unit')} style={{ flex: 1 }} rules={[decimal(t('launchpad.unit'))]}>
            <Input inputMode="decimal" />
          </Form.Item>
        </Flex>
        <Flex gap={12}>
          <Form.Item
            name="minCommit"
            label={t('launchpad.minCommit')}
            style={{ flex: 1 }}
            rules={[decimal(t('launchpad.minCommit'))]}
          >
            <Input inputMode="decimal" suffix="USDT" />
          </Form.Item>
          <Form.Item
            name="maxCommit"
            label={t('launchpad.maxCommit')}
            style={{ flex: 1 }}
            rules={[decimal(t('launchpad.maxCommit'))]}
          >
            <Input inputMode="decimal" suffix="USDT" />
          </Form.Item>
        </Flex>
        <Flex gap={12}>
          <Form.Item name="opensAt" label={t('launchpad.opensAt')} style={{ flex: 1 }} rules={[{ required: true }]}>
            <Input type="datetime-local" />
          </Form.Item>
          <Form.Item name="closesAt" label={t('launchpad.closesAt')} style={{ flex: 1 }} rules={[{ required: true }]}>
            <Input type="datetime-local" />
          </Form.Item>
        </Flex>
        <Form.Item
          name="summary"
          label={t('launchpad.summary')}
          extra={t('launchpad.summaryHint')}
          rules={[{ required: true, min: 20 }]}
        >
          <Input.TextArea rows={3} maxLength={1000} showCount />
        </Form.Item>
        <ReasonField />
      </Form>
    </FormModal>
  );
}

function Commitments({ offering }: { offering: StaffCoinOfferingView }) {
  const { t, i18n } = useTranslation();
  const list = useQuery({
    queryKey: [...queryKeys.coinOfferings, offering.id, 'commitments'],
    queryFn: () => adminApi.coinOfferingCommitments(offering.id),
  });
  const num = (v: string) => formatDecimalText(trimZeros(v), i18n.language);
  return (
    <Table
      rowKey="id"
      size="small"
      loading={list.isLoading}
      pagination={false}
      dataSource={list.data?.items ?? []}
      locale={{ emptyText: t('launchpad.noCommitments') }}
      columns={[
        { title: t('launchpad.commitment'), dataIndex: 'id', width: 90 },
        { title: t('launchpad.customer'), dataIndex: 'userId', width: 90 },
        { title: t('launchpad.amount'), key: 'amount', align: 'right', render: (_, c) => `${num(c.amount)} USDT` },
        {
          title: t('launchpad.status'),
          key: 'status',
          render: (_, c) => t(`launchpad.commitmentStatuses.${c.status}`),
        },
        {
          title: t('launchpad.allotted'),
          key: 'allotted',
          align: 'right',
          render: (_, c) => `${num(c.allotted)} ${offering.symbol}`,
        },
        { title: t('launchpad.paid'), key: 'paid', align: 'right', render: (_, c) => `${num(c.paid)} USDT` },
        {
          title: t('launchpad.refunded'),
          key: 'refunded',
          align: 'right',
          render: (_, c) => `${num(c.refunded)} USDT`,
        },
      ]}
    />
  );
}

export default function LaunchpadPage() {
  const { t, i18n } = useTranslation();
  const me = useCurrentStaff();
  const [isCreating, setCreating] = useState(false);
  const list = useQuery({ queryKey: queryKeys.coinOfferings, queryFn: () => adminApi.coinOfferings() });
  const decision = useDecisionDialog<StaffCoinOfferingView>({
    ns: 'launchpad',
    testIdPrefix: 'launchpad',
    titleParams: (o) => ({ symbol: o.symbol }),
    body: (o) => o.summary,
    done: { approve: 'approved', reject: 'rejected' },
    send: (o, action, reason) => adminApi.decideCoinOffering(o.id, { decision: action, reason }),
    invalidates: [queryKeys.coinOfferings],
  });
  const lang = i18n.language;
  const when = (ms: number) => formatDateTime(new Date(ms).toISOString(), lang);
  const num = (v: string) => formatDecimalText(trimZeros(v), lang);

  const columns: TableColumnsType<StaffCoinOfferingView> = [
    { title: t('launchpad.id'), dataIndex: 'id', width: 60 },
    {
      title: t('launchpad.coin'),
      key: 'coin',
      render: (_, o) => (
        <Flex vertical>
          <strong>{o.symbol}</strong>
          <Typography.Text type="secondary">{o.name}</Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('launchpad.terms'),
      key: 'terms',
      render: (_, o) => (
        <Flex vertical>
          <span>{t('launchpad.termsLine', { cap: num(o.cap), symbol: o.symbol, price: num(o.price) })}</span>
          <Typography.Text type="secondary">
            {t('launchpad.limitsLine', { min: num(o.minCommit), max: num(o.maxCommit), unit: num(o.unit) })}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('launchpad.window'),
      key: 'window',
      render: (_, o) => (
        <Flex vertical>
          <span>{when(o.opensAt)}</span>
          <span>{when(o.closesAt)}</span>
        </Flex>
      ),
    },
    {
      title: t('launchpad.progress'),
      key: 'progress',
      render: (_, o) => (
        <Flex vertical>
          <span>{t('launchpad.committedLine', { amount: num(o.committed), count: o.subscribers })}</span>
          <Typography.Text type="secondary">
            {t('launchpad.soldLine', { sold: num(o.sold), symbol: o.symbol })}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('launchpad.status'),
      key: 'status',
      render: (_, o) => (
        <Flex vertical align="flex-start" gap={2}>
          <Tag color={STATUS_COLOURS[o.status]} data-testid={`launchpad-status-${o.id}`}>
            {t(`launchpad.statuses.${o.status}`)}
          </Tag>
          <Typography.Text type="secondary">
            {o.createdByName}
            {o.approvedByName ? ` → ${o.approvedByName}` : ''}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('launchpad.actions'),
      key: 'actions',
      fixed: 'right',
      width: 210,
      render: (_, o) => {
        if (o.status !== 'pending_approval') return o.pair ?? '—';
        return decision.approvalButtons(o, o.createdBy === me.staff.id);
      },
    },
  ];

  return (
    <>
      <DeskHeader
        title={t('launchpad.title')}
        intro={t('launchpad.intro')}
        list={list}
        create={{ text: t('launchpad.new'), testId: 'launchpad-new', onClick: () => setCreating(true) }}
      />
      <DeskTable<StaffCoinOfferingView>
        list={list}
        items={list.data?.items ?? []}
        columns={columns}
        scrollX={1100}
        expandable={{ expandedRowRender: (o) => <Commitments offering={o} /> }}
        emptyText={t('launchpad.empty')}
        testId="launchpad-table"
      />
      <CreateModal open={isCreating} onClose={() => setCreating(false)} />
      {decision.dialog}
    </>
  );
}
