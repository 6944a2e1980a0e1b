// The dialog around a desk's form that sends one call (create an IPO, propose an adjustment, mark a
// customer HNI…): OK checks the form and sends it, the button spins while the call runs, the server's
// refusal is shown under the form, and a reopened dialog starts clean. Closing on success is the
// mutation's own onSuccess, as is mapping a refusal's field messages onto the form.
import type { UseMutationResult } from '@tanstack/react-query';
import { Alert, type FormInstance, Modal } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function FormModal<V>({
  open,
  title,
  okText,
  submitTestId,
  width,
  form,
  mutation,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  okText: string;
  submitTestId?: string;
  width?: number;
  form: FormInstance<V>;
  mutation: UseMutationResult<unknown, Error, V>;
  onClose: () => void;
  /** The form (antd's Form bound to `form`) and whatever explains it. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      width={width}
      title={title}
      okText={okText}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: mutation.isPending, ...(submitTestId && { 'data-testid': submitTestId }) }}
      onOk={() =>
        void form.validateFields().then(
          (values) => mutation.mutate(values),
          () => undefined,
        )
      }
      onCancel={onClose}
      afterClose={() => mutation.reset()}
      destroyOnHidden
      maskClosable={false}
    >
      {children}
      {mutation.isError && <Alert type="error" showIcon title={mutation.error.message} />}
    </Modal>
  );
}
