// The block-trades desk (listings.manage): create a block offer (a stock, a quantity in lots, a price within
// the block band of the simulator's price, one of the exchange's coming block windows, the disclosed
// seller), approve or reject another staff member's offer, see each offer's bids and their pro-rata
// allotment (read only: the server allots by rule at the window's close), and mark a customer HNI.
// Every action is audited by the server with the reason given here.

import { UserAddOutlined } from '@ant-design/icons';
import type { StaffBlockBidView, StaffBlockOfferView } from '@bourse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  App as AntApp,
  Button,
  Flex,
  Form,
  Input,
  Modal,
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
import { ReasonField } from '../../shared/reason-modal.tsx';

const STATUS_COLOURS = { pending_approval: 'gold', published: 'blue', rejected: 'red', settled: 'green' } as const;
const BID_COLOURS = {
  applied: 'blue',
  allotted: 'green',
  partly_allotted: 'gold',
  not_allotted: 'red',
  cancelled: 'default',
} as const;

/** Times are shown in the exchange's zone (India for NSE/BSE, the only block markets). */
const EXCHANGE_ZONE = 'Asia/Kolkata';
const windowText = (opensAt: number, closesAt: number, lang: string) =>
  `${new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: EXCHANGE_ZONE }).format(opensAt)}–${new Intl.DateTimeFormat(lang, { timeStyle: 'short', timeZone: EXCHANGE_ZONE }).format(closesAt)}`;

const invalidate = () => {
  void queryClient.invalidateQueries({ queryKey: ['block-offers'] });
  void queryClient.invalidateQueries({ queryKey: ['audit'] });
};

interface CreateValues {
  symbol: string;
  quantity: string;
  lot: string;
  price: string;
  opensAt: number;
  seller: string;
  reason: string;
}

function CreateModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<CreateValues>();
  const symbol = (Form.useWatch('symbol', form) ?? '').trim().toUpperCase();
  const windows = useQuery({
    queryKey: queryKeys.blockWindows(symbol),
    queryFn: () => adminApi.blockWindows(symbol),
    enabled: open && /^[A-Z0-9]+:[A-Z0-9.&-]+$/.test(symbol),
  });
  const create = useMutation({
    mutationFn: (v: CreateValues) =>
      adminApi.createBlockOffer({
        symbol: v.symbol.trim().toUpperCase(),
        quantity: v.quantity.trim(),
        lot: v.lot.trim(),
        price: v.price.trim(),
        opensAt: v.opensAt,
        seller: v.seller.trim(),
        reason: v.reason.trim(),
      }),
    onSuccess: () => {
      void message.success(t('blockTrades.created'));
      invalidate();
      onClose();
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      form.setFields(
        Object.entries(error.fields)
          .filter(([name]) => ['symbol', 'quantity', 'lot', 'price', 'opensAt', 'seller', 'reason'].includes(name))
          .map(([name, text]) => ({ name: name as keyof CreateValues, errors: [text] })),
      );
    },
  });
  return (
    <FormModal
      open={open}
      title={t('blockTrades.createTitle')}
      okText={t('blockTrades.create')}
      submitTestId="block-create-submit"
      form={form}
      mutation={create}
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">{t('blockTrades.createHint')}</Typography.Paragraph>
      <Form<CreateValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        preserve={false}
        initialValues={{ symbol: 'NSE:RELIANCE', quantity: '1000', lot: '10' }}
      >
        <Form.Item name="symbol" label={t('blockTrades.symbol')} rules={[{ required: true }]}>
          <Input data-testid="block-symbol" />
        </Form.Item>
        <Form.Item
          name="opensAt"
          label={t('blockTrades.chooseWindow')}
          rules={[{ required: true }]}
          extra={windows.data?.items.length === 0 ? t('blockTrades.noWindows') : undefined}
        >
          <Select
            data-testid="block-window"
            loading={windows.isFetching}
            options={(windows.data?.items ?? []).map((w) => ({
              value: w.opensAt,
              label: windowText(w.opensAt, w.closesAt, i18n.language),
            }))}
          />
        </Form.Item>
        <Flex gap={12}>
          <Form.Item
            name="quantity"
            label={t('blockTrades.quantity')}
            style={{ flex: 1 }}
            rules={[{ required: true, pattern: /^\d{1,12}$/ }]}
          >
            <Input inputMode="numeric" data-testid="block-quantity" />
          </Form.Item>
          <Form.Item
            name="lot"
            label={t('blockTrades.lot')}
            style={{ flex: 1 }}
            rules={[{ required: true, pattern: /^\d{1,12}$/ }]}
          >
            <Input inputMode="numeric" data-testid="block-lot" />
          </Form.Item>
        </Flex>
        <Form.Item name="price" label={t('blockTrades.price')} rules={[{ required: true }]}>
          <Input inputMode="decimal" data-testid="block-price" />
        </Form.Item>
        <Form.Item name="seller" label={t('blockTrades.seller')} rules={[{ required: true }]}>
          <Input maxLength={80} data-testid="block-seller" />
        </Form.Item>
        <ReasonField />
      </Form>
    </FormModal>
  );
}

function HniModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<{ userId: string; reason: string }>();
  const mark = useMutation({
    mutationFn: (v: { userId: string; reason: string }) =>
      adminApi.markHni({ userId: Number(v.userId.trim()), reason: v.reason.trim() }),
    onSuccess: () => {
      void message.success(t('blockTrades.marked'));
      invalidate();
      onClose();
    },
  });
  return (
    <FormModal
      open={open}
      title={t('blockTrades.hniTitle')}
      okText={t('blockTrades.markHni')}
      form={form}
      mutation={mark}
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">{t('blockTrades.hniHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false} preserve={false}>
        <Form.Item
          name="userId"
          label={t('blockTrades.customer')}
          rules={[{ required: true, pattern: /^[1-9]\d{0,15}$/, message: t('blockTrades.customerRule') }]}
        >
          <Input inputMode="numeric" autoFocus />
        </Form.Item>
        <ReasonField />
      </Form>
    </FormModal>
  );
}

function BidsModal({ offer, onClose }: { offer: StaffBlockOfferView | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const detail = useQuery({
    queryKey: queryKeys.blockOffer(offer?.id ?? 0),
    queryFn: () => adminApi.blockOffer(offer?.id ?? 0),
    enabled: offer !== null,
  });
  const money = (v: string) => `${formatDecimalText(v, lang)} ${offer?.currency ?? ''}`;
  const columns: TableColumnsType<StaffBlockBidView> = [
    { title: t('blockTrades.id'), dataIndex: 'id', width: 60 },
    { title: t('blockTrades.customer'), dataIndex: 'userId', width: 90 },
    { title: t('blockTrades.bidQuantity'), dataIndex: 'quantity', align: 'right' },
    {
      title: t('blockTrades.allotted'),
      key: 'allotted',
      align: 'right',
      render: (_, b) => `${b.allottedQuantity}${b.locked ? ` (${t('blockTrades.locked')})` : ''}`,
    },
    { title: t('blockTrades.paid'), key: 'paid', align: 'right', render: (_, b) => money(b.paid) },
    { title: t('blockTrades.released'), key: 'released', align: 'right', render: (_, b) => money(b.released) },
    {
      title: t('blockTrades.status'),
      key: 'status',
      render: (_, b) => <Tag color={BID_COLOURS[b.status]}>{t(`blockTrades.bidStatuses.${b.status}`)}</Tag>,
    },
  ];
  return (
    <Modal
      open={offer !== null}
      title={t('blockTrades.bidsTitle', { id: offer?.id ?? '' })}
      footer={null}
      onCancel={onClose}
      width={860}
      destroyOnHidden
    >
      {detail.isError && <Alert type="error" showIcon title={detail.error.message} />}
      <Table<StaffBlockBidView>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={detail.data?.bids ?? []}
        loading={detail.isLoading}
        pagination={false}
        scroll={{ x: 700 }}
        locale={{ emptyText: t('blockTrades.noBids') }}
        data-testid="block-bids-table"
      />
    </Modal>
  );
}

export default function BlockDeskPage() {
  const { t, i18n } = useTranslation();
  const me = useCurrentStaff();
  const [isCreating, setCreating] = useState(false);
  const [isMarking, setMarking] = useState(false);
  const [bidsOf, setBidsOf] = useState<StaffBlockOfferView | null>(null);
  const list = useQuery({ queryKey: queryKeys.blockOffers, queryFn: () => adminApi.blockOffers() });
  const lang = i18n.language;
  const when = (ms: number | null) => (ms === null ? '—' : formatDateTime(new Date(ms).toISOString(), lang));
  const money = (v: string, currency: string) => `${formatDecimalText(v, lang)} ${currency}`;
  const decision = useDecisionDialog<StaffBlockOfferView>({
    ns: 'blockTrades',
    testIdPrefix: 'block',
    titleParams: (o) => ({ id: o.id }),
    body: (o) =>
      t('blockTrades.decideBody', {
        quantity: formatDecimalText(o.quantity, lang),
        symbol: o.symbol,
        price: money(o.price, o.currency),
        seller: o.seller,
      }),
    done: { approve: 'approved', reject: 'rejected' },
    send: (o, action, reason) => adminApi.decideBlockOffer(o.id, { decision: action, reason }),
    invalidates: [['block-offers']],
  });

  const columns: TableColumnsType<StaffBlockOfferView> = [
    { title: t('blockTrades.id'), dataIndex: 'id', width: 60 },
    {
      title: t('blockTrades.stock'),
      key: 'stock',
      width: 150,
      render: (_, o) => (
        <Flex vertical>
          <span>{o.name}</span>
          <Typography.Text type="secondary">{o.symbol}</Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('blockTrades.quantityLot'),
      key: 'quantity',
      align: 'right',
      width: 130,
      render: (_, o) => `${formatDecimalText(o.quantity, lang)} · ${o.lot}`,
    },
    {
      title: t('blockTrades.price'),
      key: 'price',
      width: 200,
      render: (_, o) => (
        <Flex vertical>
          <span style={{ fontVariantNumeric: 'tabular-nums' }}>{money(o.price, o.currency)}</span>
          <Typography.Text type="secondary">
            {t('blockTrades.band', {
              low: formatDecimalText(o.bandLow, lang),
              high: formatDecimalText(o.bandHigh, lang),
              reference: formatDecimalText(o.referencePrice, lang),
            })}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('blockTrades.window'),
      key: 'window',
      width: 190,
      render: (_, o) => (
        <Flex vertical>
          <span>{windowText(o.opensAt, o.closesAt, lang)}</span>
          <Typography.Text type="secondary">{t(`blockTrades.phases.${o.phase}`)}</Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('blockTrades.seller'),
      key: 'seller',
      width: 190,
      render: (_, o) => (
        <Flex vertical>
          <span>{o.seller}</span>
          <Typography.Text type="secondary" code>
            {o.sellerAccount}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: `${t('blockTrades.status')} · ${t('blockTrades.createdBy')} · ${t('blockTrades.decidedBy')}`,
      key: 'status',
      width: 260,
      render: (_, o) => (
        <Flex vertical align="flex-start" gap={2}>
          <Tag color={STATUS_COLOURS[o.status]} data-testid={`block-status-${o.id}`}>
            {t(`blockTrades.statuses.${o.status}`)}
          </Tag>
          <Typography.Text type="secondary">
            {o.createdByName} · {when(o.createdAt)}
          </Typography.Text>
          <span style={{ overflowWrap: 'anywhere' }}>{o.createReason}</span>
          {o.decidedByName !== null && (
            <Typography.Text type="secondary">
              {o.decidedByName} · {when(o.decidedAt)} · {o.decisionReason}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      title: t('blockTrades.actions'),
      key: 'actions',
      width: 220,
      render: (_, o) => {
        const bids = (
          <Button size="small" onClick={() => setBidsOf(o)} data-testid={`block-bids-${o.id}`}>
            {t('blockTrades.bids')}
          </Button>
        );
        if (o.status !== 'pending_approval') return bids;
        return decision.approvalButtons(o, o.createdBy === me.staff.id);
      },
    },
  ];

  return (
    <>
      <DeskHeader
        title={t('blockTrades.title')}
        intro={t('blockTrades.intro')}
        list={list}
        create={{ text: t('blockTrades.new'), testId: 'block-new', onClick: () => setCreating(true) }}
      >
        <Button icon={<UserAddOutlined />} onClick={() => setMarking(true)}>
          {t('blockTrades.markHni')}
        </Button>
      </DeskHeader>
      <DeskTable<StaffBlockOfferView>
        list={list}
        items={list.data?.items ?? []}
        columns={columns}
        scrollX={1370}
        emptyText={t('blockTrades.empty')}
        testId="block-offers-table"
      />
      <CreateModal open={isCreating} onClose={() => setCreating(false)} />
      <HniModal open={isMarking} onClose={() => setMarking(false)} />
      <BidsModal offer={bidsOf} onClose={() => setBidsOf(null)} />
      {decision.dialog}
    </>
  );
}
