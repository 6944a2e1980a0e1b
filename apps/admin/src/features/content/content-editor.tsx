// The editor of one news article, notice or banner: both languages side by side (a customer reading
// in a language with no text gets the other one), only the fields the kind uses, and the server's
// refusals shown under their fields. Saving never publishes unless "Save and publish" is chosen.

import { UploadOutlined } from '@ant-design/icons';
import type { AdminContentView, ContentFields, ContentKind } from '@bourse/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, App as AntApp, Button, Col, Drawer, Flex, Form, Input, Row, Typography, Upload } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient } from '../../app/api.ts';
import { isApiError } from '../../app/request.ts';

// The contract's CONTENT_LIMITS.
export const LIMITS = { title: 200, summary: 500, body: 20_000, source: 80, link: 500, imageBytes: 150_000 };

const EMPTY: ContentFields = {
  titleEn: '',
  titlePt: '',
  summaryEn: '',
  summaryPt: '',
  bodyEn: '',
  bodyPt: '',
  sourceEn: '',
  sourcePt: '',
  imageEn: '',
  imagePt: '',
  link: '',
};

const FIELDS_BY_KIND: Record<ContentKind, readonly ('summary' | 'body' | 'source' | 'image' | 'link')[]> = {
  news: ['summary', 'body', 'source'],
  notice: ['summary', 'body'],
  ad: ['image', 'link'],
};

type Suffix = 'En' | 'Pt';

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function ImageField({ suffix }: { suffix: Suffix }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const form = Form.useFormInstance<ContentFields>();
  const name = `image${suffix}` as const;
  const value = Form.useWatch(name, form) ?? '';
  return (
    <>
      <Form.Item name={name} label={t('content.image')} extra={t('content.imageHint')}>
        <Input.TextArea
          rows={2}
          data-testid={`content-image-${suffix.toLowerCase()}`}
          placeholder="data:image/svg+xml;utf8,… /icons/banner.png"
        />
      </Form.Item>
      <Flex gap={12} align="center" style={{ marginTop: -12, marginBottom: 16 }}>
        <Upload
          accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml"
          showUploadList={false}
          beforeUpload={(file) => {
            if (file.size > LIMITS.imageBytes) {
              void message.error(t('content.imageTooLarge', { kb: Math.round(LIMITS.imageBytes / 1000) }));
              return Upload.LIST_IGNORE;
            }
            void readAsDataUrl(file).then((url) => form.setFieldValue(name, url));
            return false;
          }}
        >
          <Button size="small" icon={<UploadOutlined />}>
            {t('content.chooseImage')}
          </Button>
        </Upload>
        {value !== '' && (
          <img
            src={value}
            alt={t('content.preview')}
            style={{ height: 60, maxWidth: 180, objectFit: 'cover', borderRadius: 6, border: '1px solid #f0f0f0' }}
          />
        )}
      </Flex>
    </>
  );
}

function LanguageColumn({ kind, suffix }: { kind: ContentKind; suffix: Suffix }) {
  const { t } = useTranslation();
  const fields = FIELDS_BY_KIND[kind];
  const id = suffix.toLowerCase();
  return (
    <Col xs={24} md={12}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t(suffix === 'En' ? 'language.en-US' : 'language.pt-BR')}
      </Typography.Title>
      <Form.Item name={`title${suffix}`} label={kind === 'ad' ? t('content.adTitle') : t('content.title')}>
        <Input maxLength={LIMITS.title} showCount data-testid={`content-title-${id}`} />
      </Form.Item>
      {fields.includes('summary') && (
        <Form.Item name={`summary${suffix}`} label={t('content.summary')}>
          <Input.TextArea rows={2} maxLength={LIMITS.summary} showCount data-testid={`content-summary-${id}`} />
        </Form.Item>
      )}
      {fields.includes('body') && (
        <Form.Item name={`body${suffix}`} label={t('content.body')} extra={t('content.bodyHint')}>
          <Input.TextArea rows={kind === 'news' ? 10 : 5} maxLength={LIMITS.body} data-testid={`content-body-${id}`} />
        </Form.Item>
      )}
      {fields.includes('source') && (
        <Form.Item name={`source${suffix}`} label={t('content.source')}>
          <Input maxLength={LIMITS.source} data-testid={`content-source-${id}`} />
        </Form.Item>
      )}
      {fields.includes('image') && <ImageField suffix={suffix} />}
    </Col>
  );
}

export function ContentEditor({
  open,
  kind,
  item,
  onClose,
}: {
  open: boolean;
  kind: ContentKind;
  /** null creates a new item of `kind`. */
  item: AdminContentView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<ContentFields>();
  const isNew = item === null;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(item === null ? EMPTY : pickFields(item));
  }, [open, item, form]);

  const save = useMutation({
    mutationFn: async ({ values, publish }: { values: ContentFields; publish: boolean }) => {
      const fields = { ...EMPTY, ...values };
      return isNew
        ? adminApi.createContent({ ...fields, kind, publish })
        : adminApi.updateContent({ ...fields, id: item.id });
    },
    onSuccess: (saved, { publish }) => {
      void queryClient.invalidateQueries({ queryKey: ['content'] });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      void message.success(t(publish ? 'content.publishedDone' : 'content.savedDone', { title: titleOf(saved) }));
      onClose();
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      form.setFields(
        Object.entries(error.fields).map(([name, text]) => ({ name: name as keyof ContentFields, errors: [text] })),
      );
    },
  });

  const submit = (publish: boolean) =>
    void form.validateFields().then(
      (values) => save.mutate({ values, publish }),
      () => undefined,
    );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size="min(960px, 100vw)"
      title={t(isNew ? `content.new.${kind}` : `content.edit.${kind}`)}
      destroyOnHidden
      maskClosable={false}
      afterOpenChange={(isOpen) => {
        if (!isOpen) save.reset();
      }}
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button onClick={() => submit(false)} loading={save.isPending} data-testid="content-save">
            {t(isNew ? 'content.saveDraft' : 'content.save')}
          </Button>
          {isNew && (
            <Button
              type="primary"
              onClick={() => submit(true)}
              loading={save.isPending}
              data-testid="content-save-publish"
            >
              {t('content.saveAndPublish')}
            </Button>
          )}
        </Flex>
      }
    >
      <Alert
        type="info"
        showIcon
        title={t('content.languagesHint')}
        description={item?.status === 'published' ? t('content.liveEditHint') : undefined}
        style={{ marginBottom: 16 }}
      />
      <Form<ContentFields> form={form} layout="vertical" requiredMark={false} data-testid="content-form">
        <Row gutter={24}>
          <LanguageColumn kind={kind} suffix="En" />
          <LanguageColumn kind={kind} suffix="Pt" />
        </Row>
        {FIELDS_BY_KIND[kind].includes('link') && (
          <Form.Item name="link" label={t('content.link')} extra={t('content.linkHint')}>
            <Input maxLength={LIMITS.link} placeholder="/pages/tabbar/markets" data-testid="content-link" />
          </Form.Item>
        )}
      </Form>
      {save.isError && <Alert type="error" showIcon title={save.error.message} data-testid="content-error" />}
    </Drawer>
  );
}

function pickFields(item: AdminContentView): ContentFields {
  const fields = { ...EMPTY };
  for (const key of Object.keys(EMPTY) as (keyof ContentFields)[]) fields[key] = item[key];
  return fields;
}

export function titleOf(item: { titleEn: string; titlePt: string }): string {
  return item.titleEn || item.titlePt;
}
