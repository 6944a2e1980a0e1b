// The frame of the second-approval desks' pages (adjustments, IPO, block trades, launchpad, robots,
// AI funds): the title with the refresh button, the desk's own buttons and its "new" button last, the
// line saying what the desk is for, and the table of its items with the list's load error above it.
import { PlusOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Flex, Table, type TableColumnsType, type TableProps, Typography } from 'antd';
import type { ReactNode } from 'react';
import { RefreshButton } from './decision-queue.tsx';
import { PageTitle } from './page-title.tsx';

export function DeskHeader({
  title,
  intro,
  list,
  create,
  children,
}: {
  title: string;
  intro: string;
  list: UseQueryResult<unknown, Error>;
  /** The primary button that starts a new item for a second staff member to decide. */
  create: { text: string; testId: string; onClick: () => void };
  /** The desk's other buttons, between the refresh and the new one. */
  children?: ReactNode;
}) {
  return (
    <>
      <PageTitle
        title={title}
        extra={
          <Flex gap={8}>
            <RefreshButton query={list} />
            {children}
            <Button type="primary" icon={<PlusOutlined />} onClick={create.onClick} data-testid={create.testId}>
              {create.text}
            </Button>
          </Flex>
        }
      />
      <Typography.Paragraph type="secondary">{intro}</Typography.Paragraph>
    </>
  );
}

/** The desk's items by id, all on one page (the server sends them all), named by `testId`. */
export function DeskTable<T extends { id: number | string }>({
  list,
  items,
  columns,
  scrollX,
  emptyText,
  testId,
  expandable,
}: {
  list: UseQueryResult<unknown, Error>;
  items: readonly T[];
  columns: TableColumnsType<T>;
  scrollX: number;
  emptyText: string;
  testId: string;
  expandable?: TableProps<T>['expandable'];
}) {
  return (
    <>
      {list.isError && <Alert type="error" showIcon title={list.error.message} style={{ marginBottom: 16 }} />}
      <Table<T>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={items}
        loading={list.isLoading}
        pagination={false}
        scroll={{ x: scrollX }}
        expandable={expandable}
        locale={{ emptyText }}
        data-testid={testId}
      />
    </>
  );
}
