// Sends a personal message to one customer, in one or both languages. It lands in that customer's
// message centre only; the server records who sent it to whom in the audit log.
import type { MessageSendInput } from '@bourse/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, App as AntApp, Col, Form, Input, InputNumber, Modal, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient } from '../../app/api.ts';
import { isApiError } from '../../app/request.ts';
import { LIMITS } from './content-editor.tsx';

export function SendMessageModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<MessageSendInput>();
  const send = useMutation({
    mutationFn: (values: MessageSendInput) =>
      adminApi.sendMessage({
        userId: values.userId,
        titleEn: values.titleEn ?? '',
        titlePt: values.titlePt ?? '',
        bodyEn: values.bodyEn ?? '',
        bodyPt: values.bodyPt ?? '',
      }),
    onSuccess: (_sent, values) => {
      void queryClient.invalidateQueries({ queryKey: ['messages'] });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      void message.success(t('messages.sentDone', { userId: values.userId }));
      onClose();
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      form.setFields(
        Object.entries(error.fields).map(([name, text]) => ({ name: name as keyof MessageSendInput, errors: [text] })),
      );
    },
  });

  const column = (suffix: 'En' | 'Pt') => (
    <Col xs={24} md={12}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t(suffix === 'En' ? 'language.en-US' : 'language.pt-BR')}
      </Typography.Title>
      <Form.Item name={`title${suffix}`} label={t('content.title')}>
        <Input maxLength={LIMITS.title} data-testid={`message-title-${suffix.toLowerCase()}`} />
      </Form.Item>
      <Form.Item name={`body${suffix}`} label={t('messages.body')}>
        <Input.TextArea rows={6} maxLength={LIMITS.body} data-testid={`message-body-${suffix.toLowerCase()}`} />
      </Form.Item>
    </Col>
  );

  return (
    <Modal
      open={open}
      width={880}
      title={t('messages.sendTitle')}
      okText={t('messages.send')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: send.isPending, 'data-testid': 'message-send' }}
      onOk={() =>
        void form.validateFields().then(
          (values) => send.mutate(values),
          () => undefined,
        )
      }
      onCancel={onClose}
      afterClose={() => send.reset()}
      destroyOnHidden
      maskClosable={false}
    >
      <Typography.Paragraph type="secondary">{t('messages.sendHint')}</Typography.Paragraph>
      <Form<MessageSendInput> form={form} layout="vertical" requiredMark={false} preserve={false}>
        <Form.Item
          name="userId"
          label={t('messages.userId')}
          rules={[{ required: true, message: t('messages.userIdRequired') }]}
        >
          <InputNumber min={1} precision={0} style={{ width: 200 }} data-testid="message-user" />
        </Form.Item>
        <Row gutter={24}>
          {column('En')}
          {column('Pt')}
        </Row>
      </Form>
      {send.isError && <Alert type="error" showIcon title={send.error.message} data-testid="message-error" />}
    </Modal>
  );
}
