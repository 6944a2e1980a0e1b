import type { UseQueryResult } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DeskHeader, DeskTable } from './desk-list.tsx';

// Rendered to markup without an i18n instance: the console's messages show as their keys.
function listState(state: Partial<UseQueryResult<unknown, Error>>) {
  return {
    isFetching: false,
    isError: false,
    isLoading: false,
    error: null,
    refetch: async () => undefined,
    ...state,
  } as unknown as UseQueryResult<unknown, Error>;
}

describe('the desk frame', () => {
  it('puts the refresh button, the desk’s own buttons and its new button in that order, then the intro', () => {
    const html = renderToStaticMarkup(
      createElement(
        DeskHeader,
        {
          title: 'Block trades',
          intro: 'What the desk is for',
          list: listState({}),
          create: { text: 'New offer', testId: 'block-new', onClick: () => undefined },
        },
        createElement('button', { type: 'button', 'data-testid': 'hni' }, 'Mark HNI'),
      ),
    );
    const order = [
      'Block trades',
      'common.refresh',
      'data-testid="hni"',
      'data-testid="block-new"',
      'What the desk is for',
    ];
    const at = order.map((needle) => html.indexOf(needle));
    expect(at.every((position) => position >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(html).toContain('New offer');
    expect(html).toContain('ant-btn-primary');
  });

  it('shows the list’s load error above its table, and the empty text when there is nothing', () => {
    const columns = [{ title: 'ID', dataIndex: 'id' }];
    const failed = renderToStaticMarkup(
      createElement(DeskTable<{ id: number }>, {
        list: listState({ isError: true, error: new Error('The server did not answer') }),
        items: [],
        columns,
        scrollX: 900,
        emptyText: 'No offers',
        testId: 'block-offers-table',
      }),
    );
    const alert = failed.indexOf('The server did not answer');
    expect(alert).toBeGreaterThanOrEqual(0);
    expect(failed.indexOf('data-testid="block-offers-table"')).toBeGreaterThan(alert);
    expect(failed).toContain('No offers');

    const listed = renderToStaticMarkup(
      createElement(DeskTable<{ id: number }>, {
        list: listState({}),
        items: [{ id: 41 }, { id: 42 }],
        columns,
        scrollX: 900,
        emptyText: 'No offers',
        testId: 'block-offers-table',
      }),
    );
    expect(listed).not.toContain('role="alert"');
    expect(listed).not.toContain('No offers');
    expect(listed).toContain('data-row-key="41"');
    expect(listed).toContain('data-row-key="42"');
  });
});
