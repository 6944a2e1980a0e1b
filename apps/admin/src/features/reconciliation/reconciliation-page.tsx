// The reconciliation (PRODUCT.md: "ledger totals per asset, which must net to zero"): the last run's
// verdict, when and at which engine sequence number, its totals per asset, each discrepancy with what
// it means, the audit log chain's state, and a button to run one now. It only reads: a run changes
// nothing but the audit log, where the server records who asked for it.
import { CheckCircleFilled, CloseCircleFilled, PlayCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Discrepancy, ReconciliationAsset, ReconciliationReport } from '@bourse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  App as AntApp,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Flex,
  Row,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient, queryKeys } from '../../app/api.ts';
import { formatDateTime, formatDecimalText, isZeroDecimal } from '../../app/format.ts';
import { PageTitle } from '../../shared/page-title.tsx';

const NUMBERS = { fontVariantNumeric: 'tabular-nums' } as const;
/** While a run is in progress, the page asks again this often. */
const POLL_MS = 2_000;

export default function ReconciliationPage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const state = useQuery({
    queryKey: queryKeys.reconciliation,
    queryFn: adminApi.reconciliation,
    refetchInterval: (query) => (query.state.data?.running ? POLL_MS : false),
  });
  const run = useMutation({
    mutationFn: adminApi.runReconciliation,
    onSuccess: (report) => {
      queryClient.setQueryData(queryKeys.reconciliation, (old: typeof state.data) =>
        old === undefined ? old : { ...old, last: report, running: false },
      );
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      if (report.status === 'ok') void message.success(t('reconciliation.runDone'));
      else void message.warning(t('reconciliation.runFailed', { count: report.discrepancyCount }));
    },
    onError: (error) => void message.error(error.message),
  });
  const report = state.data?.last ?? null;
  const everyMin = state.data?.everyMin;

  return (
    <>
      <PageTitle
        title={t('reconciliation.title')}
        extra={
          <Flex gap={8}>
            <Button icon={<ReloadOutlined />} onClick={() => void state.refetch()} loading={state.isFetching}>
              {t('common.refresh')}
            </Button>
            <Button
              type="primary"
              icon={<PlayCircleOutlined />}
              loading={run.isPending}
              onClick={() => run.mutate()}
              data-testid="reconciliation-run"
            >
              {t('reconciliation.runNow')}
            </Button>
          </Flex>
        }
      />
      <Typography.Paragraph type="secondary" style={{ maxWidth: 900 }}>
        {t('reconciliation.intro')}{' '}
        {everyMin === undefined
          ? null
          : everyMin > 0
            ? t('reconciliation.schedule', { minutes: everyMin })
            : t('reconciliation.scheduleOff')}
      </Typography.Paragraph>
      {state.isError && <Alert type="error" showIcon title={state.error.message} style={{ marginBottom: 16 }} />}
      {state.data?.running && !run.isPending && (
        <Tag color="processing" style={{ marginBottom: 16 }}>
          {t('reconciliation.inProgress')}
        </Tag>
      )}
      {report === null ? (
        state.isSuccess && (
          <Card>
            <Empty description={t('reconciliation.none')} data-testid="reconciliation-none" />
          </Card>
        )
      ) : (
        <Report report={report} />
      )}
    </>
  );
}

function Report({ report }: { report: ReconciliationReport }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const isOk = report.status === 'ok';
  const duration = formatMs(report.durationMs, language);
  const time = formatDateTime(report.finishedAt, language);
  return (
    <Flex vertical gap={16}>
      <Alert
        data-testid="reconciliation-status"
        data-status={report.status}
        type={isOk ? 'success' : 'error'}
        showIcon
        icon={isOk ? <CheckCircleFilled /> : <CloseCircleFilled />}
        title={
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t(isOk ? 'reconciliation.balanced' : 'reconciliation.failed')}
          </Typography.Title>
        }
        description={
          <>
            <div>
              {isOk
                ? t('reconciliation.balancedBody')
                : t('reconciliation.failedBody', { count: report.discrepancyCount })}
            </div>
            <div style={NUMBERS}>{t('reconciliation.when', { seq: report.seq, time, duration })}</div>
          </>
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card title={t('reconciliation.about')} size="small" style={{ height: '100%' }}>
            <Descriptions
              column={1}
              size="small"
              items={[
                {
                  key: 'seq',
                  label: t('reconciliation.seq'),
                  children: (
                    <span title={t('reconciliation.seqHint')} style={NUMBERS}>
                      {report.seq}
                    </span>
                  ),
                },
                {
                  key: 'started',
                  label: t('reconciliation.startedAt'),
                  children: formatDateTime(report.startedAt, language),
                },
                { key: 'finished', label: t('reconciliation.finishedAt'), children: time },
                {
                  key: 'duration',
                  label: t('reconciliation.duration'),
                  children: (
                    <span style={NUMBERS}>
                      {duration} ({t('reconciliation.enginePause')} {formatMs(report.engineMs, language)})
                    </span>
                  ),
                },
                {
                  key: 'trigger',
                  label: t('reconciliation.trigger'),
                  children: t(`reconciliation.triggers.${report.trigger}`),
                },
                {
                  key: 'checked',
                  label: t('reconciliation.checked'),
                  children: <span style={NUMBERS}>{t('reconciliation.checkedValue', counts(report, language))}</span>,
                },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card title={t('reconciliation.auditChain')} size="small" style={{ height: '100%' }}>
            <AuditChain chain={report.auditChain} />
          </Card>
        </Col>
      </Row>
      <Card title={t('reconciliation.discrepancies')} size="small">
        <Discrepancies report={report} />
      </Card>
      <Card title={t('reconciliation.assets')} size="small">
        <Assets assets={report.assets} />
      </Card>
    </Flex>
  );
}

/**
 * What the audit log check found, saying what it covers and no more: the chain recomputed, and the newest
 * entry the previous run read (none on the first run after the server starts) looked for again.
 */
function AuditChain({ chain }: { chain: ReconciliationReport['auditChain'] }) {
  const { t } = useTranslation();
  const tag = { alignSelf: 'flex-start' } as const;
  if (chain.ok) {
    return (
      <Flex vertical gap={8} data-testid="reconciliation-audit-chain">
        <Tag color="green" icon={<CheckCircleFilled />} style={tag}>
          {t('reconciliation.auditIntact')}
        </Tag>
        <Typography.Text type="secondary">
          {chain.tipId === null
            ? t('reconciliation.auditEmptyBody')
            : chain.previousTipId === null
              ? t('reconciliation.auditFirstRunBody', { tip: chain.tipId })
              : t('reconciliation.auditTipFoundBody', { tip: chain.tipId, previous: chain.previousTipId })}
        </Typography.Text>
      </Flex>
    );
  }
  return (
    <Flex vertical gap={8} data-testid="reconciliation-audit-chain">
      {chain.firstBrokenId !== null && (
        <>
          <Tag color="red" icon={<CloseCircleFilled />} style={tag}>
            {t('reconciliation.auditBroken', { id: chain.firstBrokenId })}
          </Tag>
          <Typography.Text type="secondary">{t('reconciliation.auditBrokenBody')}</Typography.Text>
        </>
      )}
      {chain.previousTipChanged && (
        <>
          <Tag color="red" icon={<CloseCircleFilled />} style={tag}>
            {t('reconciliation.auditTipChanged', { id: chain.previousTipId })}
          </Tag>
          <Typography.Text type="secondary">
            {t('reconciliation.auditTipChangedBody', { id: chain.previousTipId })}
          </Typography.Text>
        </>
      )}
    </Flex>
  );
}

function Discrepancies({ report }: { report: ReconciliationReport }) {
  const { t, i18n } = useTranslation();
  if (report.discrepancyCount === 0) {
    return <Typography.Text type="success">{t('reconciliation.noDiscrepancies')}</Typography.Text>;
  }
  const columns: TableColumnsType<Discrepancy & { key: number }> = [
    {
      title: t('reconciliation.kind'),
      dataIndex: 'kind',
      width: 240,
      render: (kind: Discrepancy['kind']) => (
        <Flex vertical>
          <Typography.Text strong>{t(`reconciliation.kinds.${kind}`)}</Typography.Text>
          <Typography.Text type="secondary" code style={{ fontSize: 12 }}>
            {kind}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('reconciliation.meaning'),
      dataIndex: 'kind',
      key: 'meaning',
      render: (kind: Discrepancy['kind']) => t(`reconciliation.explanations.${kind}`),
    },
    {
      title: t('reconciliation.detail'),
      key: 'detail',
      width: 380,
      render: (_value, discrepancy) => (
        <Flex vertical>
          {detailOf(discrepancy, t, i18n.language).map(([label, value]) => (
            <span key={label}>
              <Typography.Text type="secondary">{label}: </Typography.Text>
              <Typography.Text style={{ fontFamily: 'ui-monospace, monospace', fontSize: 12 }}>{value}</Typography.Text>
            </span>
          ))}
        </Flex>
      ),
    },
  ];
  return (
    <>
      {report.discrepancyCount > report.discrepancies.length && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('reconciliation.shownOf', { shown: report.discrepancies.length, count: report.discrepancyCount })}
        />
      )}
      <Table
        data-testid="reconciliation-discrepancies"
        size="small"
        rowKey="key"
        columns={columns}
        dataSource={report.discrepancies.map((d, key) => ({ ...d, key }))}
        pagination={false}
        scroll={{ x: 900 }}
      />
    </>
  );
}

function Assets({ assets }: { assets: ReconciliationAsset[] }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const amount = (text: string) => formatDecimalText(text, language);
  const numeric = {
    align: 'right' as const,
    width: 150,
    render: (text: string) => <span style={NUMBERS}>{amount(text)}</span>,
  };
  /** A total with the lines it is made of, or what part of it is held, below it in small print. */
  const withLines = (text: string, lines: [string, string][]) => (
    <Flex vertical align="flex-end" style={NUMBERS}>
      <span>{amount(text)}</span>
      {lines.map(([label, value]) => (
        <Typography.Text key={label} type="secondary" style={{ fontSize: 12 }}>
          {label} {amount(value)}
        </Typography.Text>
      ))}
    </Flex>
  );
  const columns: TableColumnsType<ReconciliationAsset> = [
    { title: t('reconciliation.asset'), dataIndex: 'asset', fixed: 'left', width: 200 },
    { title: t('reconciliation.customers'), dataIndex: 'customers', ...numeric },
    { title: t('reconciliation.customersHeld'), dataIndex: 'customersHeld', ...numeric },
    {
      title: t('reconciliation.marketMakers'),
      dataIndex: 'marketMakers',
      align: 'right',
      width: 180,
      render: (text: string, row) =>
        withLines(text, isZeroDecimal(row.marketMakersHeld) ? [] : [[t('reconciliation.held'), row.marketMakersHeld]]),
    },
    {
      title: t('reconciliation.platform'),
      dataIndex: 'platform',
      align: 'right',
      width: 230,
      render: (text: string, row) =>
        withLines(
          text,
          Object.entries(row.platformByKind).map(([kind, value]) => [
            t(`reconciliation.platformKinds.${kind}`, { defaultValue: kind }),
            value,
          ]),
        ),
    },
    {
      title: t('reconciliation.net'),
      dataIndex: 'net',
      align: 'right',
      fixed: 'right',
      width: 140,
      render: (text: string) =>
        isZeroDecimal(text) ? (
          <Typography.Text type="success" strong style={NUMBERS}>
            <CheckCircleFilled /> {amount(text)}
          </Typography.Text>
        ) : (
          <Typography.Text type="danger" strong style={NUMBERS}>
            <CloseCircleFilled /> {amount(text)}
          </Typography.Text>
        ),
    },
  ];
  return (
    <Table<ReconciliationAsset>
      data-testid="reconciliation-assets"
      size="small"
      rowKey="asset"
      columns={columns}
      dataSource={assets}
      scroll={{ x: 'max-content' }}
      pagination={{
        defaultPageSize: 10,
        showSizeChanger: true,
        pageSizeOptions: [10, 50, 100],
        showTotal: (total) => t('common.total', { count: total }),
      }}
    />
  );
}

function formatMs(ms: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'unit', unit: 'millisecond', unitDisplay: 'short' }).format(ms);
}

function counts(report: ReconciliationReport, language: string): Record<string, string> {
  const format = new Intl.NumberFormat(language);
  return Object.fromEntries(Object.entries(report.checked).map(([name, n]) => [name, format.format(n)]));
}

/** A discrepancy's fields but its kind, as translated label and shown value. */
function detailOf(discrepancy: Discrepancy, t: TFunction, language: string): [string, string][] {
  return Object.entries(discrepancy)
    .filter(([field]) => field !== 'kind' && field !== 'key')
    .map(([field, value]) => {
      const text = String(value);
      const shown =
        discrepancy.kind === 'order_status_mismatch' && (field === 'engine' || field === 'readModel')
          ? t(`reconciliation.orderStatuses.${text}`, { defaultValue: text })
          : ['net', 'balance', 'held', 'engine', 'readModel'].includes(field)
            ? formatDecimalText(text, language)
            : text;
      return [t(`reconciliation.fields.${field}`), shown];
    });
}
