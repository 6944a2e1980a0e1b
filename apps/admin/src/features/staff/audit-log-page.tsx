// The audit log, read-only by design (PRODUCT.md rule 7): the server appends an entry for every
// staff action and this page only lists them. There is deliberately no edit or delete control,
// and the server offers no such endpoint. Filters and the page live in the URL so a view can be
// shared with a colleague.

import { ReloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import type { AuditEntryView } from '@bourse/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Alert,
  AutoComplete,
  Button,
  Card,
  Flex,
  Input,
  type InputRef,
  Select,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { adminApi, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, queryKeys } from '../../app/api.ts';
import { useCurrentStaff } from '../../app/current-staff.tsx';
import { auditActionKey, detailLines, formatDateTime } from '../../app/format.ts';
import { hasPermission } from '../../app/roles.ts';
import { PageTitle } from '../../shared/page-title.tsx';
import { positiveInt, withParams } from '../../shared/url-params.ts';

/** Action codes the server writes today (apps/server features/staff); codes seen in the loaded
 * page are added to these, so a new action is filterable before it gets a translated label. */
export const KNOWN_AUDIT_ACTIONS = [
  'staff.sign_in',
  'staff.password_changed',
  'staff.created',
  'staff.disabled',
  'user.blocked',
  'user.unblocked',
  'content.created',
  'content.updated',
  'content.published',
  'content.unpublished',
  'message.sent',
  'reconciliation.run',
] as const;

export default function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const { staff: me } = useCurrentStaff();
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1, Number.MAX_SAFE_INTEGER);
  const limit = positiveInt(params.get('limit'), PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX);
  const action = params.get('action') ?? '';
  const staffId = params.get('staffId') ?? '';
  const [actionDraft, setActionDraft] = useState(action);
  const actionInput = useRef<InputRef>(null);

  const query = { page, limit, action, staffId };
  const audit = useQuery({
    queryKey: queryKeys.audit(query),
    queryFn: () => adminApi.audit(query),
    placeholderData: keepPreviousData,
  });
  const staffList = useQuery({
    queryKey: queryKeys.staff,
    queryFn: adminApi.staff,
    enabled: hasPermission(me.role, 'staff.manage'),
  });

  function update(changes: Record<string, string | number>) {
    setParams(withParams(params, changes));
  }

  const items = audit.data?.items ?? [];
  const actionOptions = useMemo(() => {
    const codes = new Set<string>(KNOWN_AUDIT_ACTIONS);
    for (const item of items) codes.add(item.action);
    return [...codes].sort().map((code) => ({
      value: code,
      label: (
        <Flex justify="space-between" gap={12}>
          <span>{t(auditActionKey(code), { defaultValue: code })}</span>
          <Typography.Text type="secondary" code>
            {code}
          </Typography.Text>
        </Flex>
      ),
    }));
  }, [items, t]);
  const staffOptions = useMemo(() => {
    const byId = new Map<string, string>();
    for (const member of staffList.data?.items ?? []) byId.set(String(member.id), member.username);
    for (const item of items) {
      if (item.staffId !== null) byId.set(String(item.staffId), item.staffUsername ?? `#${item.staffId}`);
    }
    if (staffId !== '' && !byId.has(staffId)) byId.set(staffId, `#${staffId}`);
    return [...byId].map(([value, label]) => ({ value, label }));
  }, [staffList.data, items, staffId]);

  const columns: TableColumnsType<AuditEntryView> = [
    {
      title: t('audit.time'),
      dataIndex: 'at',
      width: 190,
      render: (at: string) => <span title={at}>{formatDateTime(at, i18n.language)}</span>,
    },
    {
      title: t('audit.staff'),
      dataIndex: 'staffUsername',
      width: 140,
      render: (_value, entry) =>
        entry.staffId === null ? (
          t('common.none')
        ) : (
          <span>
            {entry.staffUsername ?? ''} <Typography.Text type="secondary">#{String(entry.staffId)}</Typography.Text>
          </span>
        ),
    },
    {
      title: t('audit.action'),
      dataIndex: 'action',
      width: 220,
      render: (code: string) => (
        <Flex vertical>
          <span>{t(auditActionKey(code), { defaultValue: code })}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} code>
            {code}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('audit.target'),
      dataIndex: 'targetType',
      width: 130,
      render: (_value, entry) =>
        entry.targetType === null || entry.targetType === '' ? (
          t('common.none')
        ) : (
          <span>
            {t(`targets.${entry.targetType}`, { defaultValue: entry.targetType })}{' '}
            {entry.targetId !== null && <Typography.Text type="secondary">#{String(entry.targetId)}</Typography.Text>}
          </span>
        ),
    },
    {
      title: t('audit.reason'),
      dataIndex: 'reason',
      render: (reason: string | null) => (reason === null || reason === '' ? t('common.none') : reason),
    },
    {
      title: t('audit.detail'),
      dataIndex: 'detail',
      render: (detail: unknown) => {
        const lines = detailLines(detail);
        if (lines.length === 0) return t('common.none');
        return (
          <Flex vertical>
            {lines.map((line) => (
              <Typography.Text key={line} style={{ fontFamily: 'ui-monospace, monospace', fontSize: 12 }}>
                {line}
              </Typography.Text>
            ))}
          </Flex>
        );
      },
    },
  ];

  return (
    <>
      <PageTitle
        title={t('audit.title')}
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void audit.refetch()} loading={audit.isFetching}>
            {t('common.refresh')}
          </Button>
        }
      />
      <Alert
        type="info"
        showIcon
        icon={<SafetyCertificateOutlined />}
        title={t('audit.appendOnly')}
        description={t('audit.appendOnlyBody')}
        style={{ marginBottom: 16 }}
        data-testid="audit-append-only"
      />
      <Card>
        <Flex wrap gap={12} style={{ marginBottom: 16 }}>
          <AutoComplete
            options={actionOptions}
            value={actionDraft}
            onChange={(value: string) => setActionDraft(value)}
            onSelect={(value: string) => update({ action: value, page: '' })}
            style={{ width: 280 }}
            popupMatchSelectWidth={360}
            // Enter applies what was typed, not whichever suggestion happens to be first.
            defaultActiveFirstOption={false}
            filterOption={(input, option) => String(option?.value ?? '').includes(input.trim().toLowerCase())}
          >
            <Input.Search
              aria-label={t('audit.action')}
              placeholder={t('audit.actionFilter')}
              allowClear
              data-testid="audit-action-filter"
              ref={actionInput}
              onSearch={(value) => {
                update({ action: value.trim(), page: '' });
                actionInput.current?.blur(); // closes the suggestions
              }}
            />
          </AutoComplete>
          <Select
            aria-label={t('audit.staff')}
            data-testid="audit-staff-filter"
            style={{ width: 220 }}
            placeholder={t('audit.staffFilter')}
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            value={staffId === '' ? undefined : staffId}
            options={staffOptions}
            onChange={(value: string | undefined) => update({ staffId: value ?? '', page: '' })}
          />
          {(action !== '' || staffId !== '') && (
            <Button
              onClick={() => {
                setActionDraft('');
                update({ action: '', staffId: '', page: '' });
              }}
            >
              {t('common.reset')}
            </Button>
          )}
        </Flex>
        {audit.isError && <Alert type="error" showIcon title={audit.error.message} style={{ marginBottom: 16 }} />}
        <Table<AuditEntryView>
          data-testid="audit-table"
          rowKey={(entry) => String(entry.id)}
          size="middle"
          columns={columns}
          dataSource={items}
          loading={audit.isFetching}
          locale={{ emptyText: t('audit.empty') }}
          scroll={{ x: 960 }}
          pagination={{
            current: page,
            pageSize: limit,
            total: audit.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [20, 50, 100],
            showTotal: (total) => t('common.total', { count: total }),
            onChange: (nextPage, nextSize) =>
              update({
                page: nextSize !== limit ? 1 : nextPage,
                limit: nextSize === PAGE_SIZE_DEFAULT ? '' : nextSize,
              }),
          }}
        />
      </Card>
    </>
  );
}
