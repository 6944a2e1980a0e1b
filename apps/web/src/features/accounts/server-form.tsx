// The form shape every account and security screen uses: the server's message above (FormBanner),
// a vertical antd-mobile Form, and one full-width submit button that shows the request in flight.
import { Button, Form } from 'antd-mobile';
import type { ComponentProps, ReactNode } from 'react';

export function FormBanner({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="form-banner" role="alert" data-testid="form-error">
      {message}
    </div>
  );
}

export function ServerForm({
  form,
  banner,
  onSubmit,
  submitText,
  isPending,
  color = 'primary',
  size,
  loadingText,
  initialValues,
  testId,
  children,
}: {
  form: ComponentProps<typeof Form>['form'];
  /** The server's message for the whole form (field messages go under their fields). */
  banner: string | null;
  /** Gets the form's values (typed by the caller: a `never` parameter accepts any handler). */
  onSubmit: (values: never) => void;
  submitText: string;
  isPending: boolean;
  color?: 'primary' | 'danger';
  size?: 'large';
  loadingText?: string;
  initialValues?: Record<string, unknown>;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <>
      <FormBanner message={banner} />
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => onSubmit(values as never)}
        {...(initialValues ? { initialValues } : {})}
        {...(testId ? { 'data-testid': testId } : {})}
        footer={
          <Button
            block
            type="submit"
            color={color}
            loading={isPending}
            {...(size ? { size } : {})}
            {...(loadingText ? { loadingText } : {})}
          >
            {submitText}
          </Button>
        }
      >
        {children}
      </Form>
    </>
  );
}
