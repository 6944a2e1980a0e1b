// The robots desk (robots.manage: finance, admin): create a robot template (a strategy and its parameters
// on a crypto pair or a stock traded through the paper venue, risk level, period, start-up capital, single limit, performance fee); a DIFFERENT
// staff member approves it (customers then see it) or rejects it; retire an offered one (no new runs;
// started runs keep their terms). Below, the runs: each customer's sub-account with its figures, which
// come from its own trades: nothing here can set them. Every action is audited by the server.

import { EditOutlined, StopOutlined } from '@ant-design/icons';
import type { CreateRobotTemplateInput, StaffRobotRunView, StaffRobotTemplateView } from '@bourse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  App as AntApp,
  Button,
  Flex,
  Form,
  Input,
  InputNumber,
  Segmented,
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
import { formatDateTime, formatDecimalText } from '../../app/format.ts';
import { isApiError } from '../../app/request.ts';
import { useDecisionDialog } from '../../shared/decision-dialog.tsx';
import { DeskHeader, DeskTable } from '../../shared/desk-list.tsx';
import { FormModal } from '../../shared/form-modal.tsx';

const STATUS_COLOURS = { pending_approval: 'gold', approved: 'green', rejected: 'red', retired: 'default' } as const;
const DECIMAL = /^\d{1,15}(\.\d{1,8})?$/;
const trimZeros = (v: string) => (v.includes('.') ? v.replace(/\.?0+$/, '') : v);
type Strategy = 'grid' | 'dca' | 'trend';
const STRATEGIES: readonly Strategy[] = ['grid', 'dca', 'trend'];
type Market = 'crypto' | 'stock';
/** A stock's currency by its exchange (the id's prefix); a crypto pair's amounts are in USDT. */
const STOCK_CURRENCIES: Record<string, string> = { NSE: 'INR', BSE: 'INR', NYSE: 'USD', NASDAQ: 'USD', B3: 'BRL' };
const EXAMPLE_SYMBOL: Record<Market, string> = { crypto: 'BTCUSDT', stock: 'NSE:RELIANCE' };
function currencyOfSymbol(symbol: string | undefined): string {
  const exchange = symbol?.includes(':') ? symbol.split(':')[0]?.trim().toUpperCase() : undefined;
  return exchange === undefined ? 'USDT' : (STOCK_CURRENCIES[exchange] ?? '');
}

interface CreateValues {
  name: string;
  market: Market;
  symbol: string;
  strategy: Strategy;
  lowPrice?: string;
  highPrice?: string;
  levels?: number;
  everyMinutes?: number;
  buyAmount?: string;
  fastPeriod?: number;
  slowPeriod?: number;
  level: number;
  periodDays: number;
  minAmount: string;
  maxAmount: string;
  profitRatio: number;
  note?: string;
}

function paramsOf(v: CreateValues): CreateRobotTemplateInput['params'] {
  if (v.strategy === 'grid')
    return { kind: 'grid', lowPrice: v.lowPrice ?? '', highPrice: v.highPrice ?? '', levels: v.levels ?? 0 };
  if (v.strategy === 'dca') return { kind: 'dca', everyMinutes: v.everyMinutes ?? 0, buyAmount: v.buyAmount ?? '' };
  return { kind: 'trend', fastPeriod: v.fastPeriod ?? 0, slowPeriod: v.slowPeriod ?? 0 };
}

/** A template's values as the form holds them (a change starts from the template it replaces). */
function valuesOf(o: StaffRobotTemplateView): Partial<CreateValues> {
  const trim = (v: string) => (v.includes('.') ? v.replace(/\.?0+$/, '') : v);
  return {
    name: o.name,
    market: o.market,
    symbol: o.symbol,
    strategy: o.params.kind,
    ...(o.params.kind === 'grid'
      ? { lowPrice: o.params.lowPrice, highPrice: o.params.highPrice, levels: o.params.levels }
      : o.params.kind === 'dca'
        ? { everyMinutes: o.params.everyMinutes, buyAmount: o.params.buyAmount }
        : { fastPeriod: o.params.fastPeriod, slowPeriod: o.params.slowPeriod }),
    level: o.level,
    periodDays: o.periodDays,
    minAmount: trim(o.minAmount),
    maxAmount: trim(o.maxAmount),
    profitRatio: Number(o.profitRatio),
  };
}

function CreateModal({
  open,
  onClose,
  replacing,
}: {
  open: boolean;
  onClose: () => void;
  replacing: StaffRobotTemplateView | null;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<CreateValues>();
  const strategy = Form.useWatch('strategy', form) ?? 'grid';
  // The amounts' currency follows the symbol: USDT for a pair, the exchange's for a stock.
  const currency = currencyOfSymbol(Form.useWatch('symbol', form));
  const create = useMutation({
    mutationFn: (v: CreateValues) =>
      adminApi.createRobotTemplate({
        name: v.name,
        symbol: v.symbol,
        params: paramsOf(v),
        level: v.level,
        periodDays: v.periodDays,
        minAmount: v.minAmount,
        maxAmount: v.maxAmount,
        profitRatio: v.profitRatio,
        ...(v.note ? { note: v.note } : {}),
        ...(replacing ? { replaces: replacing.id } : {}),
      }),
    onSuccess: () => {
      void message.success(t('robots.created'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.robotTemplates });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      onClose();
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      const names: Record<string, keyof CreateValues> = { params: 'strategy' };
      form.setFields(
        Object.entries(error.fields).map(([name, text]) => ({
          name: names[name] ?? (name as keyof CreateValues),
          errors: [text],
        })),
      );
    },
  });
  const decimal = (label: string) => ({
    required: true,
    pattern: DECIMAL,
    message: t('robots.decimalRule', { label }),
  });
  return (
    <FormModal
      open={open}
      width={640}
      title={replacing ? t('robots.changeTitle', { name: replacing.name }) : t('robots.createTitle')}
      okText={t('robots.create')}
      submitTestId="robots-create-submit"
      form={form}
      mutation={create}
      onClose={onClose}
    >
      <Form<CreateValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        preserve={false}
        initialValues={{
          market: 'crypto',
          symbol: 'BTCUSDT',
          strategy: 'grid',
          levels: 6,
          everyMinutes: 60,
          fastPeriod: 10,
          slowPeriod: 30,
          level: 3,
          periodDays: 7,
          profitRatio: 20,
          ...(replacing ? valuesOf(replacing) : {}),
        }}
      >
        {replacing && <Typography.Paragraph type="secondary">{t('robots.changeHint')}</Typography.Paragraph>}
        <Flex gap={12}>
          <Form.Item name="name" label={t('robots.name')} style={{ flex: 2 }} rules={[{ required: true }]}>
            <Input maxLength={80} data-testid="robots-name" />
          </Form.Item>
          <Form.Item name="strategy" label={t('robots.strategy')} style={{ flex: 1 }}>
            <Select options={STRATEGIES.map((s) => ({ value: s, label: t(`robots.strategies.${s}`) }))} />
          </Form.Item>
        </Flex>
        <Flex gap={12}>
          <Form.Item name="market" label={t('robots.market')} style={{ flex: 1 }}>
            <Segmented<Market>
              options={(['crypto', 'stock'] as const).map((m) => ({ value: m, label: t(`robots.markets.${m}`) }))}
              onChange={(m) => form.setFieldValue('symbol', EXAMPLE_SYMBOL[m])}
              data-testid="robots-market"
            />
          </Form.Item>
          <Form.Item
            name="symbol"
            label={t('robots.symbol')}
            style={{ flex: 2 }}
            rules={[{ required: true }]}
            extra={t('robots.symbolHint')}
          >
            <Input maxLength={40} data-testid="robots-symbol" />
          </Form.Item>
        </Flex>
        {strategy === 'grid' && (
          <Flex gap={12}>
            <Form.Item
              name="lowPrice"
              label={t('robots.lowPrice')}
              style={{ flex: 1 }}
              rules={[decimal(t('robots.lowPrice'))]}
            >
              <Input inputMode="decimal" suffix={currency} data-testid="robots-low" />
            </Form.Item>
            <Form.Item
              name="highPrice"
              label={t('robots.highPrice')}
              style={{ flex: 1 }}
              rules={[decimal(t('robots.highPrice'))]}
            >
              <Input inputMode="decimal" suffix={currency} data-testid="robots-high" />
            </Form.Item>
            <Form.Item name="levels" label={t('robots.levels')} style={{ width: 110 }}>
              <InputNumber min={2} max={50} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Flex>
        )}
        {strategy === 'dca' && (
          <Flex gap={12}>
            <Form.Item name="everyMinutes" label={t('robots.everyMinutes')} style={{ flex: 1 }}>
              <InputNumber min={1} max={10_080} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item
              name="buyAmount"
              label={t('robots.buyAmount')}
              style={{ flex: 1 }}
              rules={[decimal(t('robots.buyAmount'))]}
            >
              <Input inputMode="decimal" suffix={currency} />
            </Form.Item>
          </Flex>
        )}
        {strategy === 'trend' && (
          <Flex gap={12}>
            <Form.Item name="fastPeriod" label={t('robots.fastPeriod')} style={{ flex: 1 }}>
              <InputNumber min={2} max={50} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="slowPeriod" label={t('robots.slowPeriod')} style={{ flex: 1 }}>
              <InputNumber min={3} max={200} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Flex>
        )}
        <Flex gap={12}>
          <Form.Item name="level" label={t('robots.level')} style={{ flex: 1 }}>
            <InputNumber min={1} max={5} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="periodDays" label={t('robots.periodDays')} style={{ flex: 1 }}>
            <InputNumber min={1} max={365} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="profitRatio" label={t('robots.profitRatio')} style={{ flex: 2 }}>
            <InputNumber min={0} max={50} precision={0} style={{ width: '100%' }} suffix="%" />
          </Form.Item>
        </Flex>
        <Flex gap={12}>
          <Form.Item
            name="minAmount"
            label={t('robots.minAmount')}
            style={{ flex: 1 }}
            rules={[decimal(t('robots.minAmount'))]}
          >
            <Input inputMode="decimal" suffix={currency} data-testid="robots-min" />
          </Form.Item>
          <Form.Item
            name="maxAmount"
            label={t('robots.maxAmount')}
            style={{ flex: 1 }}
            rules={[decimal(t('robots.maxAmount'))]}
          >
            <Input inputMode="decimal" suffix={currency} data-testid="robots-max" />
          </Form.Item>
        </Flex>
        <Form.Item name="note" label={t('robots.note')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

function paramsText(t: (k: string) => string, o: StaffRobotTemplateView, lang: string): string {
  const p = o.params;
  const n = (v: string) => formatDecimalText(trimZeros(v), lang);
  if (p.kind === 'grid')
    return `${n(p.lowPrice)} – ${n(p.highPrice)} ${o.currency} · ${p.levels} ${t('robots.levels').toLowerCase()}`;
  if (p.kind === 'dca') return `${n(p.buyAmount)} ${o.currency} / ${p.everyMinutes} min`;
  return `SMA ${p.fastPeriod} / ${p.slowPeriod}`;
}

function Runs() {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<'running' | 'ended' | 'all'>('running');
  const runs = useQuery({ queryKey: queryKeys.robotRuns(status), queryFn: () => adminApi.robotRuns(status) });
  const num = (v: string) => formatDecimalText(trimZeros(v), i18n.language);
  const columns: TableColumnsType<StaffRobotRunView> = [
    { title: t('robots.run'), dataIndex: 'id', width: 70 },
    {
      title: t('robots.name'),
      key: 'name',
      render: (_, r) => (
        <Flex vertical>
          <strong>{r.name}</strong>
          <Typography.Text type="secondary">
            {r.symbol} · {formatDateTime(new Date(r.startedAt).toISOString(), i18n.language)}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('robots.customer'),
      key: 'customer',
      render: (_, r) => (
        <Flex vertical>
          <span>{r.userId}</span>
          <Typography.Text type="secondary" copyable>
            {r.account}
          </Typography.Text>
        </Flex>
      ),
    },
    // Runs of different markets are in different currencies: the capital names its own.
    { title: t('robots.capital'), key: 'capital', align: 'right', render: (_, r) => `${num(r.capital)} ${r.currency}` },
    { title: t('robots.value'), key: 'value', align: 'right', render: (_, r) => num(r.currentValue) },
    {
      title: t('robots.pnl'),
      key: 'pnl',
      align: 'right',
      render: (_, r) => `${num(r.realizedPnl)} / ${num(r.unrealizedPnl)}`,
    },
    { title: t('robots.fees'), key: 'fees', align: 'right', render: (_, r) => num(r.fees) },
    { title: t('robots.perfFee'), key: 'perf', align: 'right', render: (_, r) => num(r.performanceFee) },
    {
      title: t('robots.status'),
      key: 'status',
      render: (_, r) => <Tag>{t(`robots.runStatuses.${r.status}`)}</Tag>,
    },
  ];
  return (
    <>
      <Flex justify="space-between" align="center" style={{ margin: '24px 0 12px' }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('robots.runsTitle')}
        </Typography.Title>
        <Segmented
          value={status}
          onChange={(v) => setStatus(v as typeof status)}
          options={(['running', 'ended', 'all'] as const).map((s) => ({ value: s, label: t(`robots.runFilter.${s}`) }))}
        />
      </Flex>
      <Table<StaffRobotRunView>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={runs.data?.items ?? []}
        loading={runs.isLoading}
        pagination={false}
        scroll={{ x: 1000 }}
        locale={{ emptyText: t('robots.runsEmpty') }}
        data-testid="robots-runs"
      />
    </>
  );
}

export default function RobotsDeskPage() {
  const { t, i18n } = useTranslation();
  const me = useCurrentStaff();
  const [creating, setCreating] = useState<{ replacing: StaffRobotTemplateView | null } | null>(null);
  const list = useQuery({ queryKey: queryKeys.robotTemplates, queryFn: () => adminApi.robotTemplates() });
  const lang = i18n.language;
  const decision = useDecisionDialog<StaffRobotTemplateView, 'retire'>({
    ns: 'robots',
    testIdPrefix: 'robots',
    titleParams: (o) => ({ name: o.name }),
    body: (o) => paramsText(t, o, lang),
    done: { approve: 'approved', reject: 'rejected', retire: 'retiredDone' },
    dangerous: ['reject', 'retire'],
    send: (o, action, reason) =>
      action === 'retire'
        ? adminApi.retireRobotTemplate({ id: o.id, reason })
        : adminApi.reviewRobotTemplate({ id: o.id, approve: action === 'approve', reason }),
    invalidates: [queryKeys.robotTemplates, ['robot-runs']],
  });
  const num = (v: string) => formatDecimalText(trimZeros(v), lang);

  const columns: TableColumnsType<StaffRobotTemplateView> = [
    { title: t('robots.id'), dataIndex: 'id', width: 60 },
    {
      title: t('robots.name'),
      key: 'name',
      render: (_, o) => (
        <Flex vertical>
          <strong>{o.name}</strong>
          <Typography.Text type="secondary">
            {o.symbol} · {t(`robots.strategies.${o.strategy}`)}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('robots.terms'),
      key: 'terms',
      render: (_, o) => (
        <Flex vertical>
          <span>{t('robots.termsLine', { level: o.level, days: o.periodDays, ratio: o.profitRatio })}</span>
          <Typography.Text type="secondary">
            {t('robots.limitsLine', { min: num(o.minAmount), max: num(o.maxAmount), currency: o.currency })}
          </Typography.Text>
        </Flex>
      ),
    },
    { title: t('robots.params'), key: 'params', render: (_, o) => paramsText(t, o, lang) },
    {
      title: t('robots.past'),
      key: 'past',
      render: (_, o) =>
        o.past
          ? t('robots.pastLine', {
              source: t(`robots.sources.${o.past.source}`),
              daily: o.past.dailyPercent,
              days: Math.max(1, Math.round((o.past.toMs - o.past.fromMs) / 86_400_000)),
            })
          : '—',
    },
    {
      title: t('robots.status'),
      key: 'status',
      render: (_, o) => (
        <Flex vertical align="flex-start" gap={2}>
          <Tag color={STATUS_COLOURS[o.status]} data-testid={`robots-status-${o.id}`}>
            {t(`robots.statuses.${o.status}`)}
          </Tag>
          <Typography.Text type="secondary">
            {t('robots.runsLine', { running: o.running, runs: o.runs })}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('robots.actions'),
      key: 'actions',
      fixed: 'right',
      width: 210,
      render: (_, o) => {
        if (o.status === 'approved')
          return (
            <Flex gap={8}>
              <Button size="small" icon={<EditOutlined />} onClick={() => setCreating({ replacing: o })}>
                {t('robots.change')}
              </Button>
              <Button size="small" icon={<StopOutlined />} onClick={() => decision.open(o, 'retire')}>
                {t('robots.retire')}
              </Button>
            </Flex>
          );
        if (o.status !== 'pending_approval') return '—';
        return decision.approvalButtons(o, o.createdBy === me.staff.id);
      },
    },
  ];

  return (
    <>
      <DeskHeader
        title={t('robots.title')}
        intro={t('robots.intro')}
        list={list}
        create={{ text: t('robots.new'), testId: 'robots-new', onClick: () => setCreating({ replacing: null }) }}
      />
      <DeskTable<StaffRobotTemplateView>
        list={list}
        items={list.data?.items ?? []}
        columns={columns}
        scrollX={1100}
        emptyText={t('robots.empty')}
        testId="robots-table"
      />
      <Runs />
      <CreateModal
        // A form of its own for each opening: its initial values are the template being changed, if any.
        key={creating === null ? 'closed' : `open:${creating.replacing?.id ?? 'new'}`}
        open={creating !== null}
        replacing={creating?.replacing ?? null}
        onClose={() => setCreating(null)}
      />
      {decision.dialog}
    </>
  );
}
