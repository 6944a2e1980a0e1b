import type { UseMutationResult } from '@tanstack/react-query';
import type { FormInstance, ModalProps } from 'antd';
import { createElement, isValidElement, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FormModal } from './form-modal.tsx';

type Values = { name: string };

/** The antd Modal that FormModal renders, with its props (a modal's portal renders nothing on the server). */
function modalOf(props: Parameters<typeof FormModal<Values>>[0]): ReactElement<ModalProps & { children: ReactNode }> {
  let rendered: ReactNode = null;
  function Probe() {
    rendered = FormModal(props);
    return null;
  }
  renderToStaticMarkup(createElement(Probe));
  if (!isValidElement(rendered)) throw new Error('FormModal rendered no element');
  return rendered as ReactElement<ModalProps & { children: ReactNode }>;
}

function mutationState(state: Partial<UseMutationResult<unknown, Error, Values>>, calls: string[]) {
  return {
    isPending: false,
    isError: false,
    error: null,
    mutate: (values: Values) => calls.push(`mutate ${values.name}`),
    reset: () => calls.push('reset'),
    ...state,
  } as unknown as UseMutationResult<unknown, Error, Values>;
}

const formThat = (validation: Promise<Values>) => ({ validateFields: () => validation }) as FormInstance<Values>;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the form dialog', () => {
  it('sends the form only once it is valid, and resets the call when it has closed', async () => {
    const calls: string[] = [];
    const base = { open: true, title: 'New', okText: 'Create', onClose: () => calls.push('close'), children: 'form' };
    const valid = modalOf({
      ...base,
      submitTestId: 'x-submit',
      form: formThat(Promise.resolve({ name: 'A' })),
      mutation: mutationState({}, calls),
    });
    valid.props.onOk?.({} as never);
    await settle();
    expect(calls).toEqual(['mutate A']);

    const invalid = modalOf({
      ...base,
      form: formThat(Promise.reject(new Error('required'))),
      mutation: mutationState({}, calls),
    });
    invalid.props.onOk?.({} as never);
    await settle();
    expect(calls).toEqual(['mutate A']);

    valid.props.onCancel?.({} as never);
    valid.props.afterClose?.();
    expect(calls).toEqual(['mutate A', 'close', 'reset']);
    expect(valid.props).toMatchObject({ destroyOnHidden: true, maskClosable: false, cancelText: 'common.cancel' });
    expect(valid.props.okButtonProps).toEqual({ loading: false, 'data-testid': 'x-submit' });
    expect(invalid.props.okButtonProps).toEqual({ loading: false });
  });

  it('spins while the call runs and shows the server’s refusal under the form', () => {
    const calls: string[] = [];
    const base = {
      open: true,
      title: 'New',
      okText: 'Create',
      onClose: () => undefined,
      form: formThat(Promise.resolve({ name: 'A' })),
    };
    const pending = modalOf({ ...base, mutation: mutationState({ isPending: true }, calls), children: 'form' });
    expect(pending.props.okButtonProps).toMatchObject({ loading: true });
    const refused = modalOf({
      ...base,
      mutation: mutationState({ isError: true, error: new Error('The symbol is taken') }, calls),
      children: 'form',
    });
    const html = renderToStaticMarkup(createElement('div', null, refused.props.children));
    expect(html.indexOf('form')).toBeLessThan(html.indexOf('The symbol is taken'));
    expect(html).toContain('role="alert"');
    expect(renderToStaticMarkup(createElement('div', null, pending.props.children))).not.toContain('role="alert"');
  });
});
