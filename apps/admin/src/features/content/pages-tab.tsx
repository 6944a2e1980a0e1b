// The content desk's "Pages" tab: the app's pages of fixed text (SPEC common/companyIntroduction,
// common/loanService), each edited in both languages and saved as a whole (the server audits which
// fields changed). Until staff save one, the app shows its default text, loaded here to start from.

import type { AdminContentPageView, ContentPageSetInput } from '@bourse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App as AntApp, Button, Card, Form, Input, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient, queryKeys } from '../../app/api.ts';
import { formatDateTime } from '../../app/format.ts';
import { isApiError } from '../../app/request.ts';

type Fields = Omit<ContentPageSetInput, 'slug'>;

function PageEditor({ page }: { page: AdminContentPageView }) {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<Fields>();
  useEffect(() => {
    form.setFieldsValue({ titleEn: page.titleEn, titlePt: page.titlePt, bodyEn: page.bodyEn, bodyPt: page.bodyPt });
  }, [page, form]);
  const save = useMutation({
    mutationFn: (values: Fields) => adminApi.saveContentPage({ ...values, slug: page.slug }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.contentPages });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      void message.success(t('contentPages.saved'));
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      const fields = Object.entries(error.fields);
      if (fields.length) form.setFields(fields.map(([name, text]) => ({ name: name as keyof Fields, errors: [text] })));
      else void message.error(error.message);
    },
  });
  return (
    <Card size="small" title={t(`contentPages.names.${page.slug}`)} data-testid={`content-page-${page.slug}`}>
      <Typography.Paragraph type="secondary">
        {page.updatedAt
          ? t('contentPages.edited', { by: page.updatedBy ?? '—', at: formatDateTime(page.updatedAt, i18n.language) })
          : t('contentPages.defaultText')}
      </Typography.Paragraph>
      <Form<Fields> form={form} layout="vertical" onFinish={(values) => save.mutate(values)}>
        <Form.Item name="titleEn" label={t('contentPages.titleEn')} rules={[{ required: true }]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item
          name="bodyEn"
          label={t('contentPages.bodyEn')}
          extra={t('contentPages.bodyHint')}
          rules={[{ required: true }]}
        >
          <Input.TextArea rows={8} maxLength={20_000} />
        </Form.Item>
        <Form.Item name="titlePt" label={t('contentPages.titlePt')} rules={[{ required: true }]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item
          name="bodyPt"
          label={t('contentPages.bodyPt')}
          extra={t('contentPages.bodyHint')}
          rules={[{ required: true }]}
        >
          <Input.TextArea rows={8} maxLength={20_000} />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          loading={save.isPending}
          data-testid={`content-page-save-${page.slug}`}
        >
          {t('contentPages.save')}
        </Button>
      </Form>
    </Card>
  );
}

export function PagesTab() {
  const { t } = useTranslation();
  const pages = useQuery({ queryKey: queryKeys.contentPages, queryFn: adminApi.contentPages });
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Alert type="info" showIcon title={t('contentPages.hint')} />
      {pages.data?.items.map((page) => (
        <PageEditor key={page.slug} page={page} />
      ))}
    </Space>
  );
}
