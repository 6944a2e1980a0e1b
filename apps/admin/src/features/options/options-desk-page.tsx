// The options desk (options.read; issue 27): the underlyings with their contract sizes and next expiries,
// the market maker's balance and exposure (open positions at the model and at intrinsic value), every
// open position, and the expiry settlements done and due. It only reads: there is no control that sets a
// price, a premium or a result (decision 0034).
import { ReloadOutlined } from '@ant-design/icons';
import type { StaffOptionsDeskView } from '@bourse/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Row, Space, Statistic, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { adminApi, queryKeys } from '../../app/api.ts';
import { formatDateTime, formatDecimalText } from '../../app/format.ts';
import { PageTitle } from '../../shared/page-title.tsx';

const NUMBERS = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

type UnderlyingRow = StaffOptionsDeskView['underlyings'][number];
type OpenRow = StaffOptionsDeskView['open'][number];
type SettlementRow = StaffOptionsDeskView['settlements'][number];

export default function OptionsDeskPage() {
  const { t, i18n } = useTranslation();
  const desk = useQuery({ queryKey: queryKeys.optionsDesk, queryFn: adminApi.optionsDesk, refetchInterval: 15_000 });
  const currency = desk.data?.currency ?? '';
  const number = (text: string | null) => (text === null ? t('common.none') : formatDecimalText(text, i18n.language));
  const money = (text: string | null) => (text === null ? t('common.none') : `${number(text)} ${currency}`);
  const time = (ms: number | null) =>
    ms === null ? t('common.none') : formatDateTime(new Date(ms).toISOString(), i18n.language);

  const underlyingColumns: TableColumnsType<UnderlyingRow> = [
    {
      title: t('options.underlying'),
      dataIndex: 'symbol',
      render: (v: string, row) => (
        <span>
          <Typography.Text strong>{v}</Typography.Text> <Typography.Text type="secondary">{row.name}</Typography.Text>
        </span>
      ),
    },
    {
      title: t('options.price'),
      dataIndex: 'price',
      align: 'right',
      render: (v: string) => <span style={NUMBERS}>{number(v)}</span>,
    },
    { title: t('options.multiplier'), dataIndex: 'multiplier', align: 'right' },
    {
      title: t('options.volatility'),
      dataIndex: 'volatilityPct',
      align: 'right',
      render: (v: string) => `${number(v)}%`,
    },
    { title: t('options.positions'), dataIndex: 'openPositions', align: 'right' },
    { title: t('options.contracts'), dataIndex: 'openContracts', align: 'right' },
    {
      title: t('options.expiries'),
      dataIndex: 'expiries',
      render: (expiries: UnderlyingRow['expiries']) => (
        <Space size={4} wrap>
          {expiries.slice(0, 4).map((e) => (
            <Tag key={e.day} color={e.cycle === 'monthly' ? 'blue' : undefined}>
              {e.day}
            </Tag>
          ))}
        </Space>
      ),
    },
  ];
  const openColumns: TableColumnsType<OpenRow> = [
    {
      title: t('options.series'),
      dataIndex: 'series',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { title: t('options.customer'), dataIndex: 'userId' },
    { title: t('options.contracts'), dataIndex: 'contracts', align: 'right' },
    {
      title: t('options.premium'),
      dataIndex: 'buyingAmount',
      align: 'right',
      render: (v: string) => <span style={NUMBERS}>{money(v)}</span>,
    },
    {
      title: t('options.value'),
      dataIndex: 'value',
      align: 'right',
      render: (v: string) => <span style={NUMBERS}>{money(v)}</span>,
    },
    {
      title: t('options.expiresAt'),
      dataIndex: 'expiresAt',
      render: (ms: number) => <span style={NUMBERS}>{time(ms)}</span>,
    },
  ];
  const settlementColumns: TableColumnsType<SettlementRow> = [
    { title: t('options.underlying'), dataIndex: 'underlying' },
    { title: t('options.expiry'), dataIndex: 'expiry' },
    {
      title: '',
      dataIndex: 'due',
      render: (due: boolean) =>
        due ? <Tag color="orange">{t('options.due')}</Tag> : <Tag color="green">{t('options.done')}</Tag>,
    },
    {
      title: t('options.expiryPrice'),
      dataIndex: 'expiryPrice',
      align: 'right',
      render: (v: string | null) => <span style={NUMBERS}>{number(v)}</span>,
    },
    { title: t('options.positions'), dataIndex: 'positions', align: 'right' },
    {
      title: t('options.paid'),
      dataIndex: 'paid',
      align: 'right',
      render: (v: string) => <span style={NUMBERS}>{money(v)}</span>,
    },
    {
      title: t('options.settledAt'),
      dataIndex: 'settledAt',
      render: (ms: number | null) => <span style={NUMBERS}>{time(ms)}</span>,
    },
  ];
  const maker = desk.data?.marketMaker;
  return (
    <>
      <PageTitle
        title={t('options.title')}
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void desk.refetch()} loading={desk.isFetching}>
            {t('common.refresh')}
          </Button>
        }
      />
      <Typography.Paragraph type="secondary" style={{ maxWidth: 900 }}>
        {t('options.intro')}
      </Typography.Paragraph>
      {desk.error ? <Alert type="error" showIcon message={desk.error.message} style={{ marginBottom: 16 }} /> : null}
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        <Card title={`${t('options.maker')} · ${maker?.account ?? ''}`} data-testid="options-maker">
          <Row gutter={[16, 16]}>
            <Col xs={24} sm={12} lg={6}>
              <Statistic
                title={t('options.balance')}
                value={maker ? money(maker.balance) : '--'}
                valueStyle={NUMBERS}
                loading={desk.isLoading}
              />
            </Col>
            <Col xs={24} sm={12} lg={6}>
              <Statistic
                title={t('options.openLiability')}
                value={maker ? money(maker.openLiability) : '--'}
                valueStyle={NUMBERS}
                loading={desk.isLoading}
              />
            </Col>
            <Col xs={24} sm={12} lg={6}>
              <Statistic
                title={t('options.intrinsicLiability')}
                value={maker ? money(maker.intrinsicLiability) : '--'}
                valueStyle={NUMBERS}
                loading={desk.isLoading}
              />
            </Col>
            <Col xs={24} sm={12} lg={6}>
              <Statistic
                title={t('options.openContracts')}
                value={maker?.openContracts ?? 0}
                valueStyle={NUMBERS}
                loading={desk.isLoading}
              />
            </Col>
          </Row>
        </Card>
        <Card title={t('options.underlyings')}>
          <Table
            data-testid="options-underlyings"
            rowKey="id"
            columns={underlyingColumns}
            dataSource={desk.data?.underlyings ?? []}
            loading={desk.isLoading}
            pagination={false}
            size="small"
            scroll={{ x: 'max-content' }}
          />
        </Card>
        <Card title={t('options.open')}>
          <Table
            data-testid="options-open"
            rowKey="id"
            columns={openColumns}
            dataSource={desk.data?.open ?? []}
            loading={desk.isLoading}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            size="small"
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('options.empty') }}
          />
        </Card>
        <Card title={t('options.settlements')}>
          <Table
            data-testid="options-settlements"
            rowKey={(row) => `${row.underlying}|${row.expiry}|${row.due}`}
            columns={settlementColumns}
            dataSource={desk.data?.settlements ?? []}
            loading={desk.isLoading}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            size="small"
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('options.empty') }}
          />
        </Card>
      </Space>
    </>
  );
}
