// Manual adjustments (finance, admin): propose a signed amount for a customer's wallet with a written
// reason; a DIFFERENT staff member approves (the server posts one ledger transfer, cause adjustment) or
// rejects, with a reason. The customer sees an approved adjustment in their funds records and statement.
// Every action is audited by the server.

import type { AdjustmentView, ProposeAdjustmentInput } from '@bourse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App as AntApp, Flex, Form, Input, Segmented, Select, type TableColumnsType, Tag, Typography } from 'antd';
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

// The contract's proposeAdjustmentBody rules, mirrored for typing-time hints (the server decides).
const WALLETS = ['stock', 'spot'] as const;
const AMOUNT_PATTERN = /^-?\d{1,12}(\.\d{1,18})?$/;
const ASSET_PATTERN = /^[A-Z][A-Z0-9]{1,15}$/;
const STATUS_COLOURS = { pending: 'gold', approved: 'green', rejected: 'red' } as const;
type StatusFilter = 'pending' | 'all';

interface ProposeValues {
  userId: string;
  wallet: (typeof WALLETS)[number];
  asset: string;
  amount: string;
  reason: string;
}

function ProposeModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<ProposeValues>();
  const propose = useMutation({
    mutationFn: (v: ProposeValues) =>
      adminApi.proposeAdjustment({
        userId: v.userId.trim(),
        wallet: v.wallet,
        asset: v.asset.trim().toUpperCase(),
        amount: v.amount.trim(),
        reason: v.reason.trim(),
      } satisfies ProposeAdjustmentInput),
    onSuccess: () => {
      void message.success(t('adjustments.proposed'));
      void queryClient.invalidateQueries({ queryKey: ['adjustments'] });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      onClose();
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      form.setFields(
        Object.entries(error.fields)
          .filter(([name]) => ['userId', 'wallet', 'asset', 'amount', 'reason'].includes(name))
          .map(([name, text]) => ({ name: name as keyof ProposeValues, errors: [text] })),
      );
    },
  });
  return (
    <FormModal
      open={open}
      title={t('adjustments.proposeTitle')}
      okText={t('adjustments.propose')}
      submitTestId="adjustment-propose-submit"
      form={form}
      mutation={propose}
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">{t('adjustments.proposeHint')}</Typography.Paragraph>
      <Form<ProposeValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        preserve={false}
        initialValues={{ wallet: 'stock', asset: 'USD' }}
      >
        <Form.Item
          name="userId"
          label={t('adjustments.customer')}
          rules={[{ required: true, pattern: /^[1-9]\d{0,15}$/, message: t('adjustments.customerRule') }]}
        >
          <Input inputMode="numeric" autoFocus data-testid="adjustment-user" />
        </Form.Item>
        <Flex gap={12}>
          <Form.Item name="wallet" label={t('adjustments.wallet')} style={{ flex: 1 }}>
            <Select
              data-testid="adjustment-wallet"
              options={WALLETS.map((w) => ({ value: w, label: t(`adjustments.wallets.${w}`) }))}
            />
          </Form.Item>
          <Form.Item
            name="asset"
            label={t('adjustments.asset')}
            style={{ flex: 1 }}
            normalize={(v: string) => v.toUpperCase()}
            rules={[{ required: true, pattern: ASSET_PATTERN, message: t('adjustments.assetRule') }]}
          >
            <Input maxLength={16} data-testid="adjustment-asset" />
          </Form.Item>
        </Flex>
        <Form.Item
          name="amount"
          label={t('adjustments.amount')}
          extra={t('adjustments.amountHint')}
          rules={[
            {
              required: true,
              validator: async (_rule, value: string | undefined) => {
                const v = (value ?? '').trim();
                if (!AMOUNT_PATTERN.test(v) || !/[1-9]/.test(v)) throw new Error(t('adjustments.amountRule'));
              },
            },
          ]}
        >
          <Input inputMode="decimal" data-testid="adjustment-amount" />
        </Form.Item>
        <ReasonField />
      </Form>
    </FormModal>
  );
}

export default function AdjustmentsPage() {
  const { t, i18n } = useTranslation();
  const me = useCurrentStaff();
  const [filter, setFilter] = useState<StatusFilter>('pending');
  const [isProposing, setProposing] = useState(false);
  const list = useQuery({
    queryKey: queryKeys.adjustments(filter),
    queryFn: () => adminApi.adjustments({ status: filter }),
  });
  const lang = i18n.language;
  const decision = useDecisionDialog<AdjustmentView>({
    ns: 'adjustments',
    testIdPrefix: 'adjustment',
    titleParams: (a) => ({ id: a.id }),
    body: (a, action) =>
      t(`adjustments.${action}Body`, {
        amount: `${formatDecimalText(a.amount, lang)} ${a.asset}`,
        user: a.userId,
        reason: a.reason,
      }),
    done: { approve: 'approved', reject: 'rejected' },
    send: (a, action, reason) => adminApi.decideAdjustment(a.id, { decision: action, reason }),
    invalidates: [['adjustments']],
  });
  const when = (ms: number | null) => (ms === null ? '—' : formatDateTime(new Date(ms).toISOString(), lang));

  const columns: TableColumnsType<AdjustmentView> = [
    { title: t('adjustments.id'), dataIndex: 'id', width: 60 },
    { title: t('adjustments.customer'), dataIndex: 'userId', width: 90 },
    {
      title: t('adjustments.amount'),
      key: 'amount',
      align: 'right',
      width: 150,
      render: (_, a) => (
        <Flex vertical align="flex-end">
          <Typography.Text
            style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
            type={a.amount.startsWith('-') ? 'danger' : 'success'}
          >
            {`${a.amount.startsWith('-') ? '' : '+'}${formatDecimalText(a.amount, lang)} ${a.asset}`}
          </Typography.Text>
          <Typography.Text type="secondary">{t(`adjustments.wallets.${a.wallet}`)}</Typography.Text>
        </Flex>
      ),
    },
    {
      // The reason, and who proposed it when.
      title: `${t('adjustments.reason')} · ${t('adjustments.proposedBy')}`,
      key: 'reason',
      render: (_, a) => (
        <Flex vertical>
          <span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{a.reason}</span>
          <Typography.Text type="secondary">
            {a.proposedByName} · {when(a.proposedAt)}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      // The state, and who decided it when, with their reason.
      title: `${t('adjustments.status')} · ${t('adjustments.decidedBy')}`,
      key: 'status',
      width: 260,
      render: (_, a) => (
        <Flex vertical align="flex-start" gap={2}>
          <Tag color={STATUS_COLOURS[a.status]} data-testid={`adjustment-status-${a.id}`}>
            {t(`adjustments.statuses.${a.status}`)}
          </Tag>
          {a.decidedByName !== null && (
            <>
              <Typography.Text type="secondary">
                {a.decidedByName} · {when(a.decidedAt)}
              </Typography.Text>
              <span style={{ overflowWrap: 'anywhere' }}>{a.decisionReason}</span>
            </>
          )}
        </Flex>
      ),
    },
    {
      title: t('adjustments.actions'),
      key: 'actions',
      fixed: 'right',
      width: 210,
      render: (_, a) => {
        if (a.status !== 'pending') return a.transferId ? <Typography.Text code>{a.transferId}</Typography.Text> : '—';
        return decision.approvalButtons(a, a.proposedBy === me.staff.id);
      },
    },
  ];

  return (
    <>
      <DeskHeader
        title={t('adjustments.title')}
        intro={t('adjustments.intro')}
        list={list}
        create={{ text: t('adjustments.new'), testId: 'adjustment-new', onClick: () => setProposing(true) }}
      />
      <Segmented<StatusFilter>
        style={{ marginBottom: 16 }}
        value={filter}
        onChange={setFilter}
        options={[
          { value: 'pending', label: t('adjustments.statuses.pending') },
          { value: 'all', label: t('adjustments.all') },
        ]}
      />
      <DeskTable<AdjustmentView>
        list={list}
        items={list.data?.items ?? []}
        columns={columns}
        scrollX={1000}
        emptyText={t('adjustments.empty')}
        testId="adjustments-table"
      />
      <ProposeModal open={isProposing} onClose={() => setProposing(false)} />
      {decision.dialog}
    </>
  );
}
