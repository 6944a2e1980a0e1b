// The perpetuals desk (issue 25 item 6): the insurance fund's balance and ledger lines, open interest per
// contract at the mark, and liquidations with the positions auto-deleveraged against them. It only reads:
// there is no control that sets a price or closes a position.
import { ReloadOutlined } from '@ant-design/icons';
import type { InsuranceFundLine, LiquidationRecord, OpenInterestView } from '@bourse/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Space, Statistic, Table, type TableColumnsType, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { adminApi, queryKeys } from '../../app/api.ts';
import { formatDateTime, formatDecimalText } from '../../app/format.ts';
import { PageTitle } from '../../shared/page-title.tsx';

const NUMBERS = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

/** A decimal without the trailing zeros of its scale (an 8-decimal size or 6-decimal USDT says nothing more). */
function trimmed(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

export default function PerpetualsDeskPage() {
  const { t, i18n } = useTranslation();
  const desk = useQuery({ queryKey: queryKeys.perpetualsDesk, queryFn: adminApi.perpetualsDesk });
  const number = (text: string | null) =>
    text === null ? t('common.none') : formatDecimalText(trimmed(text), i18n.language);
  const time = (ms: number) => formatDateTime(new Date(ms).toISOString(), i18n.language);
  const cause = (code: string) => t(`perpetuals.causes.${code}`, { defaultValue: code });
  const fundAsset = desk.data?.insuranceFund.asset ?? 'USDT';

  const fundColumns: TableColumnsType<InsuranceFundLine> = [
    { title: t('perpetuals.at'), dataIndex: 'at', render: (ms: number) => <span style={NUMBERS}>{time(ms)}</span> },
    {
      title: t('perpetuals.amount'),
      dataIndex: 'amount',
      align: 'right',
      render: (v: string) => (
        <Typography.Text type={v.startsWith('-') ? 'danger' : 'success'} style={NUMBERS}>
          {number(v)} {fundAsset}
        </Typography.Text>
      ),
    },
    { title: t('perpetuals.cause'), dataIndex: 'cause', render: cause },
    { title: t('perpetuals.counterparty'), dataIndex: 'counterparty' },
    {
      title: t('perpetuals.link'),
      dataIndex: 'link',
      render: (v: string) => (
        <Typography.Text type="secondary" copyable style={{ fontSize: 12 }}>
          {v}
        </Typography.Text>
      ),
    },
  ];
  const contractColumns: TableColumnsType<OpenInterestView> = [
    {
      title: t('perpetuals.contract'),
      dataIndex: 'instrumentId',
      fixed: 'left',
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    { title: t('perpetuals.positions'), dataIndex: 'positions', align: 'right' },
    {
      title: t('perpetuals.longSize'),
      key: 'long',
      align: 'right',
      render: (_, row) => <span style={NUMBERS}>{`${number(row.longSize)} ${row.base}`}</span>,
    },
    {
      title: t('perpetuals.shortSize'),
      key: 'short',
      align: 'right',
      render: (_, row) => <span style={NUMBERS}>{`${number(row.shortSize)} ${row.base}`}</span>,
    },
    {
      title: t('perpetuals.markPrice'),
      dataIndex: 'markPrice',
      align: 'right',
      render: (v: string | null) => <span style={NUMBERS}>{number(v)}</span>,
    },
    {
      title: t('perpetuals.notional'),
      key: 'notional',
      align: 'right',
      render: (_, row) => (
        <span style={NUMBERS}>
          {row.notionalAtMark === null ? t('common.none') : `${number(row.notionalAtMark)} ${row.quote}`}
        </span>
      ),
    },
  ];
  const liquidationColumns: TableColumnsType<LiquidationRecord> = [
    { title: t('perpetuals.at'), dataIndex: 'at', render: (ms: number) => <span style={NUMBERS}>{time(ms)}</span> },
    { title: t('perpetuals.customer'), dataIndex: 'userId' },
    {
      title: t('perpetuals.fundResult'),
      key: 'fund',
      align: 'right',
      render: (_, row) => (
        <span style={NUMBERS}>
          {number(row.insuranceFund)} {row.asset}
        </span>
      ),
    },
    {
      title: t('perpetuals.adl'),
      dataIndex: 'adlCounterparties',
      render: (users: string[]) => (users.length === 0 ? t('perpetuals.noAdl') : users.join(', ')),
    },
    {
      title: t('perpetuals.link'),
      dataIndex: 'link',
      render: (v: string) => (
        <Typography.Text type="secondary" copyable style={{ fontSize: 12 }}>
          {v}
        </Typography.Text>
      ),
    },
  ];
  return (
    <>
      <PageTitle
        title={t('perpetuals.title')}
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void desk.refetch()} loading={desk.isFetching}>
            {t('common.refresh')}
          </Button>
        }
      />
      <Typography.Paragraph type="secondary" style={{ maxWidth: 900 }}>
        {t('perpetuals.intro')}
      </Typography.Paragraph>
      {desk.error ? <Alert type="error" showIcon message={desk.error.message} style={{ marginBottom: 16 }} /> : null}
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        <Card title={t('perpetuals.fund')} data-testid="perpetuals-fund">
          <Statistic
            title={t('perpetuals.fundBalance')}
            value={desk.data ? `${number(desk.data.insuranceFund.balance)} ${fundAsset}` : t('common.none')}
            valueStyle={NUMBERS}
            loading={desk.isLoading}
          />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('perpetuals.fundLines')}
          </Typography.Title>
          <Table
            data-testid="perpetuals-fund-lines"
            rowKey="transferId"
            columns={fundColumns}
            dataSource={desk.data?.insuranceFund.lines ?? []}
            loading={desk.isLoading}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            size="small"
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('perpetuals.fundEmpty') }}
          />
        </Card>
        <Card title={t('perpetuals.openInterest')}>
          <Table
            data-testid="perpetuals-open-interest"
            rowKey="instrumentId"
            columns={contractColumns}
            dataSource={desk.data?.openInterest ?? []}
            loading={desk.isLoading}
            pagination={false}
            size="small"
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('perpetuals.contractsEmpty') }}
          />
        </Card>
        <Card title={t('perpetuals.liquidations')}>
          <Table
            data-testid="perpetuals-liquidations"
            rowKey="link"
            columns={liquidationColumns}
            dataSource={desk.data?.liquidations ?? []}
            loading={desk.isLoading}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            size="small"
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('perpetuals.liquidationsEmpty') }}
          />
        </Card>
      </Space>
    </>
  );
}
