// Content: news articles, notices and home-screen banners (draft → published → unpublished, both
// languages), and personal messages to one customer. Publishing shows an item in the customer app at
// once; unpublishing takes it off at once and needs a written reason. The server audits every write.
// The tab, filter and page live in the URL.

import { EditOutlined, MailOutlined, PlusOutlined, SendOutlined, StopOutlined } from '@ant-design/icons';
import type { AdminContentView, AdminMessageView, ContentKind, ContentStatus } from '@bourse/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  App as AntApp,
  Button,
  Card,
  Flex,
  Select,
  Table,
  type TableColumnsType,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { adminApi, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, queryClient, queryKeys } from '../../app/api.ts';
import { formatDateTime } from '../../app/format.ts';
import { PageTitle } from '../../shared/page-title.tsx';
import { ReasonModal } from '../../shared/reason-modal.tsx';
import { positiveInt, withParams } from '../../shared/url-params.ts';
import { ContentEditor, titleOf } from './content-editor.tsx';
import { PagesTab } from './pages-tab.tsx';
import { SendMessageModal } from './send-message-modal.tsx';

const TABS = ['news', 'notice', 'ad', 'messages', 'pages'] as const;
type Tab = (typeof TABS)[number];
const STATUSES: readonly ContentStatus[] = ['draft', 'published', 'unpublished'];
const STATUS_COLORS: Record<ContentStatus, string> = { draft: 'default', published: 'green', unpublished: 'volcano' };

const isTab = (value: string | null): value is Tab => (TABS as readonly (string | null)[]).includes(value);
const isStatus = (value: string | null): value is ContentStatus =>
  (STATUSES as readonly (string | null)[]).includes(value);

function Titles({ en, pt }: { en: string; pt: string }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={2}>
      <span lang="en-US">{en || <Tag color="warning">{t('content.missingEn')}</Tag>}</span>
      <Typography.Text type="secondary" lang="pt-BR">
        {pt || <Tag color="warning">{t('content.missingPt')}</Tag>}
      </Typography.Text>
    </Flex>
  );
}

function ItemsTab({ kind }: { kind: ContentKind }) {
  const { t, i18n } = useTranslation();
  const { message, modal } = AntApp.useApp();
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1, Number.MAX_SAFE_INTEGER);
  const limit = positiveInt(params.get('limit'), PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX);
  const rawStatus = params.get('status');
  const status: ContentStatus | '' = isStatus(rawStatus) ? rawStatus : '';
  const [editing, setEditing] = useState<{ item: AdminContentView | null } | null>(null);
  const [unpublishing, setUnpublishing] = useState<AdminContentView | null>(null);
  const [isUnpublishOpen, setUnpublishOpen] = useState(false);

  const query = { kind, status: status || undefined, page, limit };
  const items = useQuery({
    queryKey: queryKeys.content(query),
    queryFn: () => adminApi.content(query),
    placeholderData: keepPreviousData,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['content'] });
    void queryClient.invalidateQueries({ queryKey: ['audit'] });
  };
  const publish = useMutation({
    mutationFn: (item: AdminContentView) => adminApi.publishContent({ id: item.id }),
    onSuccess: (item) => {
      refresh();
      void message.success(t('content.publishedDone', { title: titleOf(item) }));
    },
    onError: (error) => void message.error(error.message),
  });

  function update(changes: Record<string, string | number>) {
    setParams(withParams(params, changes));
  }

  function confirmPublish(item: AdminContentView) {
    void modal.confirm({
      title: t('content.publishTitle', { title: titleOf(item) }),
      content: t('content.publishBody'),
      okText: t('content.publish'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'content-publish-confirm' },
      onOk: () => publish.mutateAsync(item).catch(() => undefined),
    });
  }

  const columns: TableColumnsType<AdminContentView> = [
    { title: t('content.id'), dataIndex: 'id', width: 64 },
    {
      title: t('content.titles'),
      key: 'title',
      minWidth: 280,
      render: (_value, item) => <Titles en={item.titleEn} pt={item.titlePt} />,
    },
    {
      title: t('content.status'),
      dataIndex: 'status',
      width: 120,
      render: (value: ContentStatus) => (
        <Tag color={STATUS_COLORS[value]} data-testid="content-status">
          {t(`content.statuses.${value}`)}
        </Tag>
      ),
    },
    {
      title: t('content.publishedAt'),
      dataIndex: 'publishedAt',
      width: 180,
      render: (at: string | null, item) =>
        item.status === 'published' ? formatDateTime(at, i18n.language) : t('common.none'),
    },
    {
      title: t('content.author'),
      dataIndex: 'createdBy',
      width: 120,
      render: (by: string | null, item) => by ?? (item.isSeeded ? t('content.seeded') : t('common.none')),
    },
    {
      title: t('content.actions'),
      key: 'actions',
      width: 220,
      render: (_value, item) => (
        <Flex gap={8} wrap>
          <Button
            size="small"
            icon={<EditOutlined />}
            onClick={() => setEditing({ item })}
            data-testid={`content-edit-${item.id}`}
          >
            {t('content.editAction')}
          </Button>
          {item.status === 'published' ? (
            <Button
              size="small"
              danger
              icon={<StopOutlined />}
              onClick={() => {
                setUnpublishing(item);
                setUnpublishOpen(true);
              }}
              data-testid={`content-unpublish-${item.id}`}
            >
              {t('content.unpublish')}
            </Button>
          ) : (
            <Button
              size="small"
              type="primary"
              icon={<SendOutlined />}
              onClick={() => confirmPublish(item)}
              data-testid={`content-publish-${item.id}`}
            >
              {t('content.publish')}
            </Button>
          )}
        </Flex>
      ),
    },
  ];

  const unpublishTitle = unpublishing === null ? '' : titleOf(unpublishing);
  return (
    <>
      <Flex wrap gap={12} justify="space-between" style={{ marginBottom: 16 }}>
        <Select<ContentStatus | ''>
          aria-label={t('content.status')}
          data-testid="content-status-filter"
          style={{ width: 200 }}
          value={status}
          onChange={(value) => update({ status: value, page: '' })}
          options={[
            { value: '', label: t('content.allStatuses') },
            ...STATUSES.map((s) => ({ value: s, label: t(`content.statuses.${s}`) })),
          ]}
        />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing({ item: null })}
          data-testid="content-new"
        >
          {t(`content.new.${kind}`)}
        </Button>
      </Flex>
      {items.isError && <Alert type="error" showIcon title={items.error.message} style={{ marginBottom: 16 }} />}
      <Table<AdminContentView>
        data-testid="content-table"
        data-kind={kind}
        rowKey={(item) => String(item.id)}
        size="middle"
        columns={columns}
        dataSource={items.data?.items ?? []}
        loading={items.isFetching}
        locale={{ emptyText: t('content.empty') }}
        scroll={{ x: 960 }}
        pagination={{
          current: page,
          pageSize: limit,
          total: items.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100],
          showTotal: (total) => t('common.total', { count: total }),
          onChange: (nextPage, nextSize) =>
            update({ page: nextSize !== limit ? 1 : nextPage, limit: nextSize === PAGE_SIZE_DEFAULT ? '' : nextSize }),
        }}
      />
      <ContentEditor
        open={editing !== null}
        kind={kind}
        item={editing?.item ?? null}
        onClose={() => setEditing(null)}
      />
      <ReasonModal
        open={isUnpublishOpen}
        isDanger
        title={t('content.unpublishTitle', { title: unpublishTitle })}
        body={<Typography.Paragraph>{t('content.unpublishBody')}</Typography.Paragraph>}
        okText={t('content.unpublish')}
        onCancel={() => setUnpublishOpen(false)}
        onConfirm={async (reason) => {
          if (unpublishing === null) return;
          await adminApi.unpublishContent({ id: unpublishing.id, reason });
          void message.success(t('content.unpublishedDone', { title: unpublishTitle }));
          setUnpublishOpen(false);
          refresh();
        }}
      />
    </>
  );
}

function MessagesTab() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1, Number.MAX_SAFE_INTEGER);
  const limit = positiveInt(params.get('limit'), PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX);
  const userId = params.get('userId') ?? '';
  const [isSending, setSending] = useState(false);
  const query = { userId, page, limit };
  const sent = useQuery({
    queryKey: queryKeys.sentMessages(query),
    queryFn: () => adminApi.sentMessages(query),
    placeholderData: keepPreviousData,
  });
  const columns: TableColumnsType<AdminMessageView> = [
    { title: t('content.id'), dataIndex: 'id', width: 70 },
    {
      title: t('messages.to'),
      key: 'to',
      width: 200,
      render: (_value, m) => (
        <span>
          {m.account} <Typography.Text type="secondary">#{m.userId}</Typography.Text>
        </span>
      ),
    },
    { title: t('content.titles'), key: 'title', render: (_value, m) => <Titles en={m.titleEn} pt={m.titlePt} /> },
    {
      title: t('messages.sentBy'),
      dataIndex: 'sentBy',
      width: 120,
      render: (by: string | null) => by ?? t('content.seeded'),
    },
    {
      title: t('messages.sentAt'),
      dataIndex: 'createdAt',
      width: 190,
      render: (at: string) => formatDateTime(at, i18n.language),
    },
    {
      title: t('messages.read'),
      dataIndex: 'readAt',
      width: 190,
      render: (at: string | null) =>
        at === null ? <Tag>{t('messages.unread')}</Tag> : <Tag color="green">{formatDateTime(at, i18n.language)}</Tag>,
    },
  ];
  return (
    <>
      <Flex wrap gap={12} justify="space-between" style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary">{t('messages.hint')}</Typography.Text>
        <Button type="primary" icon={<MailOutlined />} onClick={() => setSending(true)} data-testid="messages-new">
          {t('messages.sendTitle')}
        </Button>
      </Flex>
      {sent.isError && <Alert type="error" showIcon title={sent.error.message} style={{ marginBottom: 16 }} />}
      <Table<AdminMessageView>
        data-testid="messages-table"
        rowKey={(m) => String(m.id)}
        size="middle"
        columns={columns}
        dataSource={sent.data?.items ?? []}
        loading={sent.isFetching}
        locale={{ emptyText: t('messages.empty') }}
        scroll={{ x: 900 }}
        pagination={{
          current: page,
          pageSize: limit,
          total: sent.data?.total ?? 0,
          showTotal: (total) => t('common.total', { count: total }),
          onChange: (nextPage) => setParams(withParams(params, { page: nextPage })),
        }}
      />
      <SendMessageModal open={isSending} onClose={() => setSending(false)} />
    </>
  );
}

export default function ContentPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: Tab = isTab(raw) ? raw : 'news';
  return (
    <>
      <PageTitle title={t('content.pageTitle')} />
      <Alert type="info" showIcon title={t('content.honesty')} style={{ marginBottom: 16 }} />
      <Card>
        <Tabs
          data-testid="content-tabs"
          activeKey={tab}
          onChange={(key) => setParams(new URLSearchParams(key === 'news' ? {} : { tab: key }))}
          items={TABS.map((key) => ({
            key,
            label: <span data-testid={`content-tab-${key}`}>{t(`content.tabs.${key}`)}</span>,
            children: key === 'messages' ? <MessagesTab /> : key === 'pages' ? <PagesTab /> : <ItemsTab kind={key} />,
          }))}
          destroyOnHidden
        />
      </Card>
    </>
  );
}
