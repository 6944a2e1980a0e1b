// The AI funds desk (funds.manage: finance, admin): create a fund (a rule over one market's stocks, its
// size, look-back and minimum subscription) or a change of an offered fund's parameters; a DIFFERENT staff
// member approves or rejects it (the shared second-approval buttons); retire an offered fund (no new
// subscriptions; it is still valued and its holders may redeem). The last valuation of each fund is shown
// read-only: nothing here sets a valuation, a NAV, units or holdings. Every action is audited by the server.

import { EditOutlined, StopOutlined } from '@ant-design/icons';
import type { FundMarket, FundRule, StaffFundView } from '@bourse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  App as AntApp,
  Button,
  Flex,
  Form,
  Input,
  InputNumber,
  Select,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient, queryKeys } from '../../app/api.ts';
import { useCurrentStaff } from '../../app/current-staff.tsx';
import { formatDecimalText } from '../../app/format.ts';
import { isApiError } from '../../app/request.ts';
import { useDecisionDialog } from '../../shared/decision-dialog.tsx';
import { DeskHeader, DeskTable } from '../../shared/desk-list.tsx';
import { FormModal } from '../../shared/form-modal.tsx';

const STATUS_COLOURS = { pending_approval: 'gold', approved: 'green', rejected: 'red', retired: 'default' } as const;
const DECIMAL = /^\d{1,15}(\.\d{1,2})?$/;
const trimZeros = (v: string) => (v.includes('.') ? v.replace(/\.?0+$/, '') : v);
// The contract's lists (FUND_RULES, FUND_MARKETS), typed against them: the console imports only types.
const FUND_RULES: readonly FundRule[] = ['momentum', 'low_volatility'];
const FUND_MARKETS: readonly FundMarket[] = ['NSE', 'BSE', 'NYSE', 'NASDAQ', 'B3'];

interface CreateValues {
  name: string;
  rule: FundRule;
  market: FundMarket;
  size: number;
  lookbackDays: number;
  minAmount: string;
  note?: string;
}

function CreateModal({
  open,
  onClose,
  changing,
}: {
  open: boolean;
  onClose: () => void;
  changing: StaffFundView | null;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<CreateValues>();
  const create = useMutation({
    mutationFn: (v: CreateValues) =>
      adminApi.createAiFund({
        name: v.name,
        rule: v.rule,
        market: v.market,
        size: v.size,
        lookbackDays: v.lookbackDays,
        minAmount: v.minAmount,
        ...(v.note ? { note: v.note } : {}),
        ...(changing ? { changes: changing.id } : {}),
      }),
    onSuccess: () => {
      void message.success(t('aiFunds.created'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.aiFunds });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      onClose();
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      form.setFields(
        Object.entries(error.fields).map(([name, text]) => ({
          name: (name === 'changes' ? 'name' : name) as keyof CreateValues,
          errors: [text],
        })),
      );
    },
  });
  return (
    <FormModal
      open={open}
      width={600}
      title={changing ? t('aiFunds.changeTitle', { name: changing.name }) : t('aiFunds.createTitle')}
      okText={t('aiFunds.create')}
      submitTestId="ai-funds-create-submit"
      form={form}
      mutation={create}
      onClose={onClose}
    >
      <Form<CreateValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        preserve={false}
        initialValues={
          changing
            ? {
                name: changing.name,
                rule: changing.rule,
                market: changing.market,
                size: changing.size,
                lookbackDays: changing.lookbackDays,
                minAmount: trimZeros(changing.minAmount),
              }
            : { rule: 'momentum', market: 'BSE', size: 3, lookbackDays: 20, minAmount: '1000' }
        }
      >
        {changing && <Typography.Paragraph type="secondary">{t('aiFunds.changeHint')}</Typography.Paragraph>}
        <Form.Item name="name" label={t('aiFunds.name')} rules={[{ required: true }]}>
          <Input maxLength={80} data-testid="ai-funds-name" />
        </Form.Item>
        <Flex gap={12}>
          <Form.Item name="rule" label={t('aiFunds.rule')} style={{ flex: 1 }}>
            <Select options={FUND_RULES.map((r) => ({ value: r, label: t(`aiFunds.rules.${r}`) }))} />
          </Form.Item>
          <Form.Item name="market" label={t('aiFunds.market')} style={{ flex: 1 }}>
            <Select disabled={changing !== null} options={FUND_MARKETS.map((m) => ({ value: m, label: m }))} />
          </Form.Item>
        </Flex>
        <Flex gap={12}>
          <Form.Item name="size" label={t('aiFunds.size')} style={{ flex: 1 }} rules={[{ required: true }]}>
            <InputNumber min={2} max={10} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            name="lookbackDays"
            label={t('aiFunds.lookbackDays')}
            style={{ flex: 1 }}
            rules={[{ required: true }]}
          >
            <InputNumber min={5} max={120} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            name="minAmount"
            label={t('aiFunds.minAmount')}
            style={{ flex: 1 }}
            rules={[
              {
                required: true,
                pattern: DECIMAL,
                message: t('aiFunds.decimalRule', { label: t('aiFunds.minAmount') }),
              },
            ]}
          >
            <Input inputMode="decimal" />
          </Form.Item>
        </Flex>
        <Form.Item name="note" label={t('aiFunds.note')}>
          <Input.TextArea maxLength={500} rows={2} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

export default function AiFundsDeskPage() {
  const { t, i18n } = useTranslation();
  const me = useCurrentStaff();
  const [creating, setCreating] = useState<{ changing: StaffFundView | null } | null>(null);
  const list = useQuery({ queryKey: queryKeys.aiFunds, queryFn: () => adminApi.aiFunds() });
  const num = (v: string) => formatDecimalText(trimZeros(v), i18n.language);
  const decision = useDecisionDialog<StaffFundView, 'retire'>({
    ns: 'aiFunds',
    testIdPrefix: 'ai-funds',
    titleParams: (f) => ({ name: f.name }),
    body: (f) => (
      <>
        {t(`aiFunds.rules.${f.rule}`)} · {f.market} ·{' '}
        {t('aiFunds.termsLine', { size: f.size, days: f.lookbackDays, min: num(f.minAmount), currency: f.currency })}
      </>
    ),
    done: { approve: 'approved', reject: 'rejected', retire: 'retiredDone' },
    dangerous: ['reject', 'retire'],
    send: (f, action, reason) =>
      action === 'retire'
        ? adminApi.retireAiFund({ id: f.id, reason })
        : adminApi.reviewAiFund({ id: f.id, approve: action === 'approve', reason }),
    invalidates: [queryKeys.aiFunds],
  });

  const columns: TableColumnsType<StaffFundView> = [
    { title: t('aiFunds.id'), dataIndex: 'id', width: 60 },
    {
      title: t('aiFunds.name'),
      key: 'name',
      render: (_, f) => (
        <Flex vertical>
          <strong>{f.name}</strong>
          <Typography.Text type="secondary">
            {f.market} · {t(`aiFunds.rules.${f.rule}`)}
            {f.changes !== null ? ` · ${t('aiFunds.changes', { id: f.changes })}` : ''}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('aiFunds.terms'),
      key: 'terms',
      render: (_, f) =>
        t('aiFunds.termsLine', { size: f.size, days: f.lookbackDays, min: num(f.minAmount), currency: f.currency }),
    },
    {
      title: t('aiFunds.lastValuation'),
      key: 'valuation',
      render: (_, f) =>
        f.last
          ? t('aiFunds.valuationLine', {
              day: f.last.day,
              nav: num(f.last.nav),
              equity: `${num(f.last.equity)} ${f.currency}`,
              count: f.valuations,
            })
          : t('aiFunds.noValuation'),
    },
    {
      title: t('aiFunds.status'),
      key: 'status',
      render: (_, f) => (
        <Tag color={STATUS_COLOURS[f.status]} data-testid={`ai-funds-status-${f.id}`}>
          {t(`aiFunds.statuses.${f.status}`)}
        </Tag>
      ),
    },
    {
      title: t('aiFunds.actions'),
      key: 'actions',
      fixed: 'right',
      width: 210,
      render: (_, f) => {
        if (f.status === 'approved' && f.changes === null)
          return (
            <Flex gap={8}>
              <Button size="small" icon={<EditOutlined />} onClick={() => setCreating({ changing: f })}>
                {t('aiFunds.change')}
              </Button>
              <Button size="small" icon={<StopOutlined />} onClick={() => decision.open(f, 'retire')}>
                {t('aiFunds.retire')}
              </Button>
            </Flex>
          );
        if (f.status !== 'pending_approval') return '—';
        return decision.approvalButtons(f, f.createdBy === me.staff.id);
      },
    },
  ];

  return (
    <>
      <DeskHeader
        title={t('aiFunds.title')}
        intro={t('aiFunds.intro')}
        list={list}
        create={{ text: t('aiFunds.new'), testId: 'ai-funds-new', onClick: () => setCreating({ changing: null }) }}
      />
      <DeskTable<StaffFundView>
        list={list}
        items={list.data?.items ?? []}
        columns={columns}
        scrollX={1000}
        emptyText={t('aiFunds.empty')}
        testId="ai-funds-table"
      />
      <CreateModal
        key={creating === null ? 'closed' : `open:${creating.changing?.id ?? 'new'}`}
        open={creating !== null}
        changing={creating?.changing ?? null}
        onClose={() => setCreating(null)}
      />
      {decision.dialog}
    </>
  );
}
