// The console's sentiment vote desk (content.manage): the voting page addresses customers open from a
// stock's vote page (one for every stock, one per stock where it differs; each change audited with a
// reason), which hosts the app may frame (VOTE_FRAME_HOSTS, read-only here), and the recent tallies.
// The tallies are customers' opinion: nothing that sets prices reads them (decision 0037).

import type { StaffVoteTallyView, StaffVoteUrlView, VoteUrlSetBody } from '@bourse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App as AntApp, Button, Card, Form, Input, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient, queryKeys } from '../../app/api.ts';
import { formatDateTime } from '../../app/format.ts';
import { isApiError } from '../../app/request.ts';
import { PageTitle } from '../../shared/page-title.tsx';
import { ReasonField } from '../../shared/reason-modal.tsx';

type FormValues = { symbol?: string; url?: string; reason: string };

export default function VotesPage() {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<FormValues>();
  const overview = useQuery({ queryKey: queryKeys.votes, queryFn: adminApi.votes });
  const save = useMutation({
    mutationFn: (body: VoteUrlSetBody) => adminApi.setVoteUrl(body),
    onSuccess: (data) => {
      queryClient.setQueryData(queryKeys.votes, data);
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      void message.success(t('votes.saved'));
      form.resetFields();
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      const fields = Object.entries(error.fields);
      if (fields.length)
        form.setFields(fields.map(([name, text]) => ({ name: name as keyof FormValues, errors: [text] })));
      else void message.error(error.message);
    },
  });
  const hosts = overview.data?.frameHosts ?? [];
  return (
    <>
      <PageTitle title={t('votes.pageTitle')} />
      <Alert type="info" showIcon title={t('votes.honesty')} style={{ marginBottom: 16 }} />
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Card title={t('votes.urlsTitle')} data-testid="vote-urls">
          <Typography.Paragraph type="secondary">{t('votes.urlsHint')}</Typography.Paragraph>
          <Typography.Paragraph>
            {hosts.length ? t('votes.frameHosts', { hosts: hosts.join(', ') }) : t('votes.noFrameHosts')}
          </Typography.Paragraph>
          <Table<StaffVoteUrlView>
            rowKey="symbol"
            size="small"
            loading={overview.isPending}
            dataSource={overview.data?.urls ?? []}
            pagination={false}
            locale={{ emptyText: t('votes.noUrls') }}
            scroll={{ x: true }}
            columns={[
              { title: t('votes.scope'), key: 'symbol', render: (_v, r) => r.symbol || t('votes.allStocks') },
              {
                title: t('votes.url'),
                dataIndex: 'url',
                render: (url: string) => <Typography.Text copyable>{url}</Typography.Text>,
              },
              {
                title: t('votes.framed'),
                key: 'framed',
                render: (_v, r) => (
                  <Tag color={r.framable ? 'green' : 'default'}>{t(r.framable ? 'votes.inApp' : 'votes.outside')}</Tag>
                ),
              },
              {
                title: t('votes.updated'),
                key: 'updated',
                render: (_v, r) => `${formatDateTime(r.updatedAt, i18n.language)} · ${r.updatedBy ?? '—'}`,
              },
            ]}
          />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('votes.setTitle')}
          </Typography.Title>
          <Form<FormValues>
            form={form}
            layout="vertical"
            style={{ maxWidth: 560 }}
            onFinish={(values) =>
              save.mutate({ symbol: values.symbol ?? '', url: values.url ?? '', reason: values.reason })
            }
          >
            <Form.Item name="symbol" label={t('votes.symbol')}>
              <Input placeholder={t('votes.symbolPlaceholder')} data-testid="vote-url-symbol" maxLength={40} />
            </Form.Item>
            <Form.Item name="url" label={t('votes.url')} extra={t('votes.urlHint')}>
              <Input placeholder={t('votes.urlPlaceholder')} data-testid="vote-url-input" maxLength={500} />
            </Form.Item>
            <ReasonField />
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="vote-url-save">
              {t('votes.save')}
            </Button>
          </Form>
        </Card>
        <Card title={t('votes.talliesTitle')} data-testid="vote-tallies">
          <Table<StaffVoteTallyView>
            rowKey={(r) => `${r.symbol}-${r.day}`}
            size="small"
            loading={overview.isPending}
            dataSource={overview.data?.tallies ?? []}
            pagination={false}
            locale={{ emptyText: t('votes.noVotes') }}
            scroll={{ x: true }}
            columns={[
              { title: t('votes.scope'), key: 'symbol', render: (_v, r) => `${r.symbol} · ${r.name}` },
              { title: t('votes.day'), dataIndex: 'day' },
              { title: t('votes.bullish'), dataIndex: 'bullish', align: 'right' },
              { title: t('votes.bearish'), dataIndex: 'bearish', align: 'right' },
            ]}
          />
        </Card>
      </Space>
    </>
  );
}
