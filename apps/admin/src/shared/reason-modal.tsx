// The confirmation dialog of every staff action that changes something for someone else (block a
// user, disable a staff member): it says what will happen and asks for a written reason, which
// the server stores in the audit log. A refusal from the server is shown inside the dialog. Its
// reason field also serves forms that ask for more than a reason (creating a staff member).
import { Alert, Form, Input, Modal } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../app/request.ts';

// The contract's reason(): 3 to 500 characters after trimming.
export const REASON_LENGTH_MIN = 3;
export const REASON_LENGTH_MAX = 500;

/** The reason's field, named `reason`, for this dialog and for forms whose action needs a reason too. */
export function ReasonField({ autoFocus = false }: { autoFocus?: boolean }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="reason"
      label={t('reason.label')}
      rules={[
        {
          validator: async (_rule, value: string | undefined) => {
            if ((value ?? '').trim().length < REASON_LENGTH_MIN) {
              throw new Error(t('reason.required', { min: REASON_LENGTH_MIN }));
            }
          },
        },
      ]}
    >
      <Input.TextArea
        data-testid="reason-input"
        autoFocus={autoFocus}
        rows={3}
        maxLength={REASON_LENGTH_MAX}
        showCount
        placeholder={t('reason.placeholder')}
      />
    </Form.Item>
  );
}

interface ReasonModalProps {
  open: boolean;
  title: string;
  body: ReactNode;
  okText: string;
  isDanger?: boolean;
  onCancel: () => void;
  /** Resolves when the server accepted; the caller then closes the dialog. */
  onConfirm: (reason: string) => Promise<unknown>;
}

export function ReasonModal({ open, title, body, okText, isDanger = false, onCancel, onConfirm }: ReasonModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const [isSubmitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    const { reason } = await form.validateFields();
    setSubmitting(true);
    setError(null);
    try {
      await onConfirm(reason.trim());
    } catch (failure) {
      if (!isApiError(failure)) throw failure;
      setError(failure.message);
      const fieldMessage = failure.fields.reason;
      if (fieldMessage !== undefined) form.setFields([{ name: 'reason', errors: [fieldMessage] }]);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: isDanger, loading: isSubmitting, 'data-testid': 'reason-confirm' }}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onCancel}
      destroyOnHidden
      maskClosable={false}
      afterClose={() => setError(null)}
    >
      <div style={{ marginBottom: 16 }}>{body}</div>
      <Form form={form} layout="vertical" requiredMark={false} preserve={false}>
        <ReasonField autoFocus />
      </Form>
      {error !== null && <Alert type="error" showIcon title={error} data-testid="reason-error" />}
    </Modal>
  );
}
