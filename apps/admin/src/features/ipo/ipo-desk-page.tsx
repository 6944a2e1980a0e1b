// The IPO desk (ipo.manage): list IPOs with their subscription by category, create one (a draft), approve
// or reject another staff member's draft with a reason (only then is it published), see the draw's
// record (the seed's hash before, the seed and the allottees' count after), and run listing day.
// Nothing here can choose or change allottees: the server draws them from the committed seed. Every
// action is audited by the server.

import { RocketOutlined } from '@ant-design/icons';
import type { CreateIpoInput, StaffIpoView } from '@bourse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  App as AntApp,
  Button,
  DatePicker,
  Descriptions,
  Flex,
  Form,
  Input,
  InputNumber,
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

const STATUS_COLOURS = {
  draft: 'gold',
  rejected: 'red',
  upcoming: 'blue',
  open: 'green',
  closed: 'purple',
  allotted: 'cyan',
  listed: 'default',
} as const;
// The contract's createIpoBody rules, mirrored for typing-time hints (the server decides).
const SYMBOL_PATTERN = /^[A-Z][A-Z0-9]{1,15}$/;
const PRICE_PATTERN = /^\d{1,10}(\.\d{1,2})?$/;
const FIELDS = ['issuer', 'exchange', 'symbol', 'name', 'priceLow', 'priceHigh', 'lotSize', 'totalShares'] as const;

interface CreateValues {
  issuer: string;
  exchange: 'NSE' | 'BSE';
  symbol: string;
  name: string;
  priceLow: string;
  priceHigh: string;
  lotSize: number;
  totalShares: string;
  retailPct: number;
  niiPct: number;
  qibPct: number;
  /** The range picker's two days (antd's date objects; only their format() is used). */
  dates: [{ format(pattern: string): string }, { format(pattern: string): string }];
}

function CreateModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<CreateValues>();
  const create = useMutation({
    mutationFn: (v: CreateValues) =>
      adminApi.createIpo({
        issuer: v.issuer.trim(),
        exchange: v.exchange,
        symbol: v.symbol.trim(),
        name: v.name.trim(),
        priceLow: v.priceLow.trim(),
        priceHigh: v.priceHigh.trim(),
        lotSize: v.lotSize,
        totalShares: v.totalShares.trim(),
        retailPct: v.retailPct,
        niiPct: v.niiPct,
        qibPct: v.qibPct,
        opensOn: v.dates[0].format('YYYY-MM-DD'),
        closesOn: v.dates[1].format('YYYY-MM-DD'),
      } satisfies CreateIpoInput),
    onSuccess: () => {
      void message.success(t('ipo.created'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.ipos });
      onClose();
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      form.setFields(
        Object.entries(error.fields)
          .filter(([name]) => (FIELDS as readonly string[]).includes(name) || name === 'retailPct')
          .map(([name, text]) => ({ name: name as keyof CreateValues, errors: [text] })),
      );
    },
  });
  return (
    <FormModal
      open={open}
      width={640}
      title={t('ipo.createTitle')}
      okText={t('ipo.create')}
      submitTestId="ipo-create-submit"
      form={form}
      mutation={create}
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">{t('ipo.createHint')}</Typography.Paragraph>
      <Form<CreateValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        preserve={false}
        initialValues={{ exchange: 'NSE', lotSize: 100, retailPct: 35, niiPct: 15, qibPct: 50 }}
      >
        <Flex gap={12}>
          <Form.Item
            name="issuer"
            label={t('ipo.issuer')}
            style={{ flex: 2 }}
            rules={[{ required: true, whitespace: true }]}
          >
            <Input maxLength={120} data-testid="ipo-issuer" />
          </Form.Item>
          <Form.Item name="exchange" label={t('ipo.exchange')} style={{ flex: 1 }}>
            <Select options={['NSE', 'BSE'].map((x) => ({ value: x, label: x }))} />
          </Form.Item>
        </Flex>
        <Flex gap={12}>
          <Form.Item
            name="symbol"
            label={t('ipo.symbol')}
            style={{ flex: 1 }}
            normalize={(v: string) => v.toUpperCase()}
            rules={[{ required: true, pattern: SYMBOL_PATTERN, message: t('ipo.symbolRule') }]}
          >
            <Input maxLength={16} data-testid="ipo-symbol" />
          </Form.Item>
          <Form.Item
            name="name"
            label={t('ipo.name')}
            style={{ flex: 2 }}
            rules={[{ required: true, whitespace: true }]}
          >
            <Input maxLength={120} data-testid="ipo-name" />
          </Form.Item>
        </Flex>
        <Flex gap={12}>
          {(['priceLow', 'priceHigh'] as const).map((field) => (
            <Form.Item
              key={field}
              name={field}
              label={t(`ipo.${field}`)}
              style={{ flex: 1 }}
              rules={[{ required: true, pattern: PRICE_PATTERN, message: t('ipo.priceRule') }]}
            >
              <Input inputMode="decimal" data-testid={`ipo-${field}`} />
            </Form.Item>
          ))}
          <Form.Item name="lotSize" label={t('ipo.lotSize')} style={{ flex: 1 }} rules={[{ required: true }]}>
            <InputNumber min={1} max={100_000} precision={0} style={{ width: '100%' }} data-testid="ipo-lot" />
          </Form.Item>
        </Flex>
        <Form.Item
          name="totalShares"
          label={t('ipo.totalShares')}
          extra={t('ipo.totalSharesHint')}
          rules={[{ required: true, pattern: /^[1-9]\d{0,14}$/, message: t('ipo.totalSharesHint') }]}
        >
          <Input inputMode="numeric" data-testid="ipo-total" />
        </Form.Item>
        <Flex gap={12}>
          {(['retailPct', 'niiPct', 'qibPct'] as const).map((field) => (
            <Form.Item
              key={field}
              name={field}
              label={t(`ipo.${field}`)}
              style={{ flex: 1 }}
              rules={[{ required: true }]}
            >
              <InputNumber min={0} max={100} precision={0} addonAfter="%" style={{ width: '100%' }} />
            </Form.Item>
          ))}
        </Flex>
        <Form.Item name="dates" label={t('ipo.dates')} extra={t('ipo.datesHint')} rules={[{ required: true }]}>
          <DatePicker.RangePicker style={{ width: '100%' }} data-testid="ipo-dates" />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

/** The subscription by category and, once drawn, the public record's figures. */
function IpoDetail({ ipo }: { ipo: StaffIpoView }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const drawn = ipo.seed !== null;
  const draw = useQuery({
    queryKey: queryKeys.ipoDraw(ipo.id),
    queryFn: () => adminApi.ipoDraw(ipo.id),
    enabled: drawn,
  });
  return (
    <Flex vertical gap={12}>
      <Table
        size="small"
        rowKey="category"
        pagination={false}
        dataSource={ipo.subscription}
        columns={[
          { title: t('ipo.category'), dataIndex: 'category', render: (c: string) => t(`ipo.categories.${c}`) },
          {
            title: t('ipo.offered'),
            dataIndex: 'offered',
            align: 'right',
            render: (v: string) => formatDecimalText(v, lang),
          },
          {
            title: t('ipo.applied'),
            dataIndex: 'applied',
            align: 'right',
            render: (v: string) => formatDecimalText(v, lang),
          },
          { title: t('ipo.applications'), dataIndex: 'applications', align: 'right' },
          {
            title: t('ipo.times'),
            dataIndex: 'times',
            align: 'right',
            render: (v: string) => `${formatDecimalText(v, lang)}×`,
          },
        ]}
        data-testid={`ipo-subscription-${ipo.id}`}
      />
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('ipo.seedHash')}>
          <Typography.Text code copyable={ipo.seedHash !== null} style={{ overflowWrap: 'anywhere' }}>
            {ipo.seedHash ?? t('ipo.seedAtOpen')}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('ipo.seed')}>
          <Typography.Text code style={{ overflowWrap: 'anywhere' }}>
            {ipo.seed ?? t('ipo.seedAtDraw')}
          </Typography.Text>
        </Descriptions.Item>
        {drawn && (
          <Descriptions.Item label={t('ipo.draw')}>
            {draw.data
              ? t('ipo.drawSummary', {
                  mode: t(`ipo.modes.${draw.data.mode}`),
                  applications: draw.data.applications.length,
                  allottees: draw.data.allotments.length,
                })
              : '…'}
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {t('ipo.verifyHint', { id: ipo.id })}
            </Typography.Paragraph>
          </Descriptions.Item>
        )}
      </Descriptions>
    </Flex>
  );
}

export default function IpoDeskPage() {
  const { t, i18n } = useTranslation();
  const me = useCurrentStaff();
  const [isCreating, setCreating] = useState(false);
  const list = useQuery({ queryKey: queryKeys.ipos, queryFn: () => adminApi.ipos() });
  const lang = i18n.language;
  const day = (ms: number) => formatDateTime(new Date(ms).toISOString(), lang);
  const { open, dialog, approvalButtons } = useDecisionDialog<StaffIpoView, 'list'>({
    ns: 'ipo',
    testIdPrefix: 'ipo',
    titleParams: (ipo) => ({ symbol: ipo.symbol }),
    body: (ipo, kind) => t(`ipo.${kind}Body`, { name: ipo.name }),
    done: { approve: 'approveDone', reject: 'rejectDone', list: 'listDone' },
    send: (ipo, kind, reason) =>
      kind === 'list'
        ? adminApi.runIpoListing({ id: ipo.id, reason })
        : adminApi.reviewIpo({ id: ipo.id, approve: kind === 'approve', reason }),
    invalidates: [queryKeys.ipos],
  });

  const columns: TableColumnsType<StaffIpoView> = [
    {
      title: t('ipo.symbol'),
      key: 'symbol',
      render: (_, i) => (
        <Flex vertical>
          <Typography.Text strong>{`${i.exchange}:${i.symbol}`}</Typography.Text>
          <Typography.Text type="secondary">{i.name}</Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('ipo.band'),
      key: 'band',
      align: 'right',
      render: (_, i) => (
        <Flex vertical align="flex-end">
          <span
            style={{ whiteSpace: 'nowrap' }}
          >{`${formatDecimalText(i.priceLow, lang)} – ${formatDecimalText(i.priceHigh, lang)} ${i.currency}`}</span>
          <Typography.Text type="secondary">{t('ipo.lotOf', { lot: i.lotSize })}</Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('ipo.dates'),
      key: 'dates',
      render: (_, i) => (
        <Flex vertical>
          <span>{`${day(i.opensAt)} → ${day(i.closesAt)}`}</span>
          <Typography.Text type="secondary">{t('ipo.listingOn', { date: day(i.listingAt) })}</Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('ipo.status'),
      key: 'status',
      render: (_, i) => (
        <Tag color={STATUS_COLOURS[i.status]} data-testid={`ipo-status-${i.id}`}>
          {t(`ipo.statuses.${i.status}`)}
        </Tag>
      ),
    },
    {
      title: t('ipo.actions'),
      key: 'actions',
      width: 220,
      render: (_, i) => {
        if (i.status === 'draft') {
          return approvalButtons(i, i.createdBy === me.staff.id);
        }
        if (i.status === 'allotted')
          return (
            <Button
              size="small"
              icon={<RocketOutlined />}
              disabled={Date.now() < i.listingAt}
              onClick={() => open(i, 'list')}
            >
              {t('ipo.runListing')}
            </Button>
          );
        return '—';
      },
    },
  ];

  return (
    <>
      <DeskHeader
        title={t('ipo.title')}
        intro={t('ipo.intro')}
        list={list}
        create={{ text: t('ipo.new'), testId: 'ipo-new', onClick: () => setCreating(true) }}
      />
      <DeskTable<StaffIpoView>
        list={list}
        items={list.data?.items ?? []}
        columns={columns}
        scrollX={900}
        expandable={{ expandedRowRender: (ipo) => <IpoDetail ipo={ipo} /> }}
        emptyText={t('ipo.empty')}
        testId="ipo-table"
      />
      <CreateModal open={isCreating} onClose={() => setCreating(false)} />
      {dialog}
    </>
  );
}
