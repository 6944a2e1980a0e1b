// What the review desks (KYC, deposits, withdrawals…) share: the queue's refresh button, its error and
// empty states and list, and the decision being made while its reason dialog is open. Each desk keeps its
// own cards and its own call; the decision itself is always written with a reason (ReasonModal).
import { ReloadOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The page title's refresh button for a queue. */
export function RefreshButton({ query }: { query: UseQueryResult<unknown, Error> }) {
  const { t } = useTranslation();
  return (
    <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} loading={query.isFetching}>
      {t('common.refresh')}
    </Button>
  );
}

/** A queue's items as cards, with its load error and an empty state named by `emptyTestId`. */
export function QueueList<T>({
  query,
  items,
  emptyText,
  emptyTestId,
  render,
}: {
  query: UseQueryResult<unknown, Error>;
  items: readonly T[];
  emptyText: string;
  emptyTestId: string;
  render: (item: T) => ReactNode;
}) {
  return (
    <>
      {query.isError && <Alert type="error" showIcon title={query.error.message} style={{ marginBottom: 16 }} />}
      {query.isSuccess && items.length === 0 && (
        <Card>
          <Empty description={emptyText} data-testid={emptyTestId} />
        </Card>
      )}
      <Flex vertical gap={16}>
        {items.map(render)}
      </Flex>
    </>
  );
}

/**
 * The item and decision a desk is asking a reason for. The target outlives the dialog's closing
 * animation, so the dialog's title does not flip meanwhile.
 */
export function useDecision<T, D extends string>() {
  const [deciding, setDeciding] = useState<{ item: T; decision: D } | null>(null);
  const [isDialogOpen, setDialogOpen] = useState(false);
  return {
    deciding,
    isDialogOpen,
    decide: (item: T, decision: D) => {
      setDeciding({ item, decision });
      setDialogOpen(true);
    },
    close: () => setDialogOpen(false),
  };
}
