// The listings desk (listings.manage): every instrument in the catalogue with its trading state and where it
// came from — the built-in catalogue, or the IPO or coin offering that listed it at run time. It only
// reads: a stock is listed by its IPO's listing day and a coin by its offering's close, and no control here
// lists, halts or prices anything.
import { ReloadOutlined } from '@ant-design/icons';
import type { StaffListingView } from '@bourse/contract';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Flex,
  Input,
  Segmented,
  Statistic,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, queryKeys } from '../../app/api.ts';
import { formatDateTime, formatDecimalText } from '../../app/format.ts';
import { PageTitle } from '../../shared/page-title.tsx';

const NUMBERS = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;
type KindFilter = 'all' | StaffListingView['kind'] | 'runtime';

export default function ListingsPage() {
  const { t, i18n } = useTranslation();
  const desk = useQuery({ queryKey: queryKeys.listings, queryFn: adminApi.listings, refetchInterval: 30_000 });
  const [kind, setKind] = useState<KindFilter>('all');
  const [search, setSearch] = useState('');
  const items = useMemo(() => {
    const needle = search.trim().toUpperCase();
    return (desk.data?.items ?? []).filter(
      (item) =>
        (kind === 'all' || (kind === 'runtime' ? item.listedAt !== null : item.kind === kind)) &&
        (needle === '' || item.id.includes(needle) || item.name.toUpperCase().includes(needle)),
    );
  }, [desk.data, kind, search]);

  /** "ipo:7" → "IPO #7", "coin-offering:3" → "Coin offering #3"; anything else as it is. */
  const source = (text: string) => {
    if (text === 'catalogue') return <Tag>{t('listings.catalogue')}</Tag>;
    const [what, id] = text.split(':');
    const label = what === 'ipo' ? t('listings.ipo') : what === 'coin-offering' ? t('listings.coinOffering') : what;
    return <Tag color="blue">{id ? `${label} #${id}` : label}</Tag>;
  };

  const columns: TableColumnsType<StaffListingView> = [
    {
      title: t('listings.instrument'),
      dataIndex: 'id',
      render: (id: string, row) => (
        <span>
          <Typography.Text strong>{row.symbol}</Typography.Text>{' '}
          <Typography.Text type="secondary">{row.name}</Typography.Text>
          <br />
          <Typography.Text code>{id}</Typography.Text>
        </span>
      ),
    },
    { title: t('listings.kind'), dataIndex: 'kind', render: (v: StaffListingView['kind']) => t(`listings.kind1.${v}`) },
    { title: t('listings.exchange'), dataIndex: 'exchange' },
    {
      title: t('listings.price'),
      dataIndex: 'price',
      align: 'right',
      render: (v: string, row) => (
        <span style={NUMBERS}>
          {formatDecimalText(v, i18n.language)} {row.currency}
        </span>
      ),
    },
    {
      title: t('listings.change'),
      dataIndex: 'changePct',
      align: 'right',
      render: (v: string) => (
        <span style={NUMBERS}>
          {v.startsWith('-') ? '' : '+'}
          {formatDecimalText(v, i18n.language)}%
        </span>
      ),
    },
    {
      title: t('listings.state'),
      key: 'state',
      render: (_, row) =>
        !row.listed ? (
          <Tag color="red">{t('listings.suspended')}</Tag>
        ) : row.isOpen ? (
          <Tag color="green">{t('listings.open')}</Tag>
        ) : (
          <Tag>{t('listings.closed')}</Tag>
        ),
    },
    {
      title: t('listings.rules'),
      key: 'rules',
      render: (_, row) => (
        <span style={NUMBERS}>
          {t('listings.rulesText', { tick: formatDecimalText(row.tickSize, i18n.language), lot: row.lot })}
          {row.bandPct !== null && ` · ${t('listings.band', { pct: row.bandPct })}`}
        </span>
      ),
    },
    { title: t('listings.source'), dataIndex: 'source', render: source },
    {
      title: t('listings.listedAt'),
      dataIndex: 'listedAt',
      render: (ms: number | null) =>
        ms === null ? t('common.none') : formatDateTime(new Date(ms).toISOString(), i18n.language),
    },
  ];

  const counts = desk.data?.counts;
  return (
    <>
      <PageTitle
        title={t('listings.title')}
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void desk.refetch()} loading={desk.isFetching}>
            {t('common.refresh')}
          </Button>
        }
      />
      <Typography.Paragraph type="secondary">{t('listings.intro')}</Typography.Paragraph>
      {desk.isError && <Alert type="error" showIcon title={desk.error.message} style={{ marginBottom: 16 }} />}
      <Card style={{ marginBottom: 16 }}>
        <Flex gap={32} wrap>
          {(['stock', 'index', 'crypto', 'fx', 'runtime'] as const).map((key) => (
            <Statistic
              key={key}
              title={key === 'runtime' ? t('listings.runtime') : t(`listings.kinds.${key}`)}
              value={counts?.[key] ?? '--'}
              loading={desk.isLoading}
            />
          ))}
        </Flex>
      </Card>
      <Flex gap={12} wrap style={{ marginBottom: 16 }}>
        <Segmented<KindFilter>
          value={kind}
          onChange={setKind}
          options={[
            { value: 'all', label: t('listings.all') },
            { value: 'stock', label: t('listings.kinds.stock') },
            { value: 'index', label: t('listings.kinds.index') },
            { value: 'crypto', label: t('listings.kinds.crypto') },
            { value: 'fx', label: t('listings.kinds.fx') },
            { value: 'runtime', label: t('listings.runtime') },
          ]}
        />
        <Input.Search
          allowClear
          placeholder={t('listings.search')}
          aria-label={t('listings.search')}
          style={{ maxWidth: 280 }}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="listings-search"
        />
      </Flex>
      <Table<StaffListingView>
        data-testid="listings-table"
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={items}
        loading={desk.isLoading}
        pagination={{ pageSize: 25, hideOnSinglePage: true, showSizeChanger: false }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('listings.empty') }}
      />
    </>
  );
}
