// The crypto exchange's liquidity accounts (docs/decisions/0022), one row per pair: the account, its
// coin and USDT with what its quotes hold, its open orders, the book's best prices and the reference
// price it quotes around. It only reads.
import { ReloadOutlined } from '@ant-design/icons';
import type { SpotLiquidityView } from '@bourse/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Table, type TableColumnsType, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { adminApi, queryKeys } from '../../app/api.ts';
import { formatDecimalText } from '../../app/format.ts';
import { PageTitle } from '../../shared/page-title.tsx';

const NUMBERS = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

export default function LiquidityPage() {
  const { t, i18n } = useTranslation();
  const pairs = useQuery({ queryKey: queryKeys.spotLiquidity, queryFn: adminApi.spotLiquidity });
  const number = (text: string | null) => (text === null ? t('common.none') : formatDecimalText(text, i18n.language));
  // A coin's own scale can be 18 decimals: its trailing zeros say nothing (the digits shown stay exact).
  const coin = (text: string) => number(text.includes('.') ? text.replace(/\.?0+$/, '') : text);
  const amount = (balance: string, held: string, asset: string) => (
    <div style={NUMBERS}>
      <div>
        {coin(balance)} {asset}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('liquidity.held', { amount: coin(held) })}
      </Typography.Text>
    </div>
  );
  const columns: TableColumnsType<SpotLiquidityView> = [
    {
      title: t('liquidity.pair'),
      key: 'pair',
      fixed: 'left',
      render: (_, row) => (
        <div>
          <Typography.Text strong>{row.symbol}</Typography.Text>
          <div>
            <Typography.Text type="secondary" copyable style={{ fontSize: 12 }}>
              {row.liquidityAccount}
            </Typography.Text>
          </div>
        </div>
      ),
    },
    { title: t('liquidity.coin'), key: 'coin', render: (_, row) => amount(row.baseBalance, row.baseHeld, row.base) },
    { title: t('liquidity.usdt'), key: 'usdt', render: (_, row) => amount(row.quoteBalance, row.quoteHeld, row.quote) },
    {
      title: t('liquidity.openOrders'),
      dataIndex: 'openOrders',
      align: 'right',
      render: (n: number) => <span style={NUMBERS}>{n}</span>,
    },
    {
      title: t('liquidity.bestBid'),
      dataIndex: 'bestBid',
      align: 'right',
      render: (v: string | null) => <span style={NUMBERS}>{number(v)}</span>,
    },
    {
      title: t('liquidity.bestAsk'),
      dataIndex: 'bestAsk',
      align: 'right',
      render: (v: string | null) => <span style={NUMBERS}>{number(v)}</span>,
    },
    {
      title: t('liquidity.reference'),
      dataIndex: 'referencePrice',
      align: 'right',
      render: (v: string | null) => <span style={NUMBERS}>{number(v)}</span>,
    },
  ];
  return (
    <>
      <PageTitle
        title={t('liquidity.title')}
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void pairs.refetch()} loading={pairs.isFetching}>
            {t('common.refresh')}
          </Button>
        }
      />
      <Typography.Paragraph type="secondary" style={{ maxWidth: 900 }}>
        {t('liquidity.intro')}
      </Typography.Paragraph>
      {pairs.error ? <Alert type="error" showIcon message={pairs.error.message} style={{ marginBottom: 16 }} /> : null}
      <Table
        data-testid="liquidity-pairs"
        rowKey="symbol"
        columns={columns}
        dataSource={pairs.data?.items ?? []}
        loading={pairs.isLoading}
        pagination={false}
        size="middle"
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('liquidity.empty') }}
      />
    </>
  );
}
