// The finance desk's deposits (deposits.confirm): bank and offline deposits waiting for a decision, each
// with its receipt photo; confirm or reject with a written reason the server keeps in the audit log in
// the same transaction. A confirmation credits the customer by one ledger transfer from the bank rail.
// Receipts are fetched with the staff token and shown from memory (object URLs), never from a public address.
import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import type { DepositReviewItem } from '@bourse/contract';
import { useQuery } from '@tanstack/react-query';
import { App as AntApp, Button, Card, Descriptions, Flex, Image, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient, queryKeys } from '../../app/api.ts';
import { formatDateTime, formatDecimalText } from '../../app/format.ts';
import { getToken } from '../../app/session.ts';
import { QueueList, RefreshButton, useDecision } from '../../shared/decision-queue.tsx';
import { PageTitle } from '../../shared/page-title.tsx';
import { ReasonModal } from '../../shared/reason-modal.tsx';

const amountOf = (item: DepositReviewItem, language: string) =>
  `${formatDecimalText(item.amount, language)} ${item.currency}`;

export default function DepositDeskPage() {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const list = useQuery({ queryKey: queryKeys.deposits, queryFn: adminApi.depositsPending });
  const { deciding, isDialogOpen, decide, close } = useDecision<DepositReviewItem, 'confirm' | 'reject'>();
  const items = list.data?.items ?? [];
  const isReject = deciding?.decision === 'reject';
  const amount = deciding ? amountOf(deciding.item, i18n.language) : '';

  return (
    <>
      <PageTitle title={t('depositDesk.title')} extra={<RefreshButton query={list} />} />
      <Typography.Paragraph type="secondary">{t('depositDesk.intro')}</Typography.Paragraph>
      <QueueList
        query={list}
        items={items}
        emptyText={t('depositDesk.empty')}
        emptyTestId="deposits-empty"
        render={(item) => <PendingDeposit key={item.id} item={item} onDecide={(decision) => decide(item, decision)} />}
      />
      <ReasonModal
        open={isDialogOpen}
        isDanger={isReject}
        title={t(isReject ? 'depositDesk.rejectTitle' : 'depositDesk.confirmTitle', { amount })}
        body={
          <Typography.Paragraph>
            {t(isReject ? 'depositDesk.rejectBody' : 'depositDesk.confirmBody')}
          </Typography.Paragraph>
        }
        okText={t(isReject ? 'depositDesk.reject' : 'depositDesk.confirm')}
        onCancel={close}
        onConfirm={async (reason) => {
          if (deciding === null) return;
          await adminApi.depositDecide(deciding.item.id, { decision: deciding.decision, reason });
          void message.success(t(isReject ? 'depositDesk.rejected' : 'depositDesk.confirmed'));
          close();
          void queryClient.invalidateQueries({ queryKey: queryKeys.deposits });
          void queryClient.invalidateQueries({ queryKey: ['audit'] });
        }}
      />
    </>
  );
}

function PendingDeposit({ item, onDecide }: { item: DepositReviewItem; onDecide: (d: 'confirm' | 'reject') => void }) {
  const { t, i18n } = useTranslation();
  return (
    <Card data-testid={`deposit-item-${item.id}`}>
      <Flex gap={24} wrap>
        <Descriptions column={1} size="small" style={{ minWidth: 280, flex: 1 }}>
          <Descriptions.Item label={t('depositDesk.amount')}>
            <Typography.Text strong data-testid="deposit-desk-amount">
              {amountOf(item, i18n.language)}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('depositDesk.rail')}>{t(`depositDesk.rails.${item.rail}`)}</Descriptions.Item>
          <Descriptions.Item label={t('depositDesk.reference')}>
            <Typography.Text copyable>{item.reference}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('depositDesk.user')}>{item.userId}</Descriptions.Item>
          <Descriptions.Item label={t('depositDesk.account')}>{item.account}</Descriptions.Item>
          <Descriptions.Item label={t('depositDesk.submittedAt')}>
            {formatDateTime(new Date(item.createdAt).toISOString(), i18n.language)}
          </Descriptions.Item>
        </Descriptions>
        {item.hasProof && <Receipt id={item.id} label={t('depositDesk.proof')} />}
      </Flex>
      <Flex gap={8} justify="flex-end" style={{ marginTop: 16 }}>
        <Button danger icon={<CloseOutlined />} onClick={() => onDecide('reject')} data-testid="deposit-reject">
          {t('depositDesk.reject')}
        </Button>
        <Button
          type="primary"
          icon={<CheckOutlined />}
          onClick={() => onDecide('confirm')}
          data-testid="deposit-confirm"
        >
          {t('depositDesk.confirm')}
        </Button>
      </Flex>
    </Card>
  );
}

function Receipt({ id, label }: { id: number; label: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    const token = getToken();
    void fetch(`/ipor-api/admin/deposits/${id}/proof`, { headers: token ? { token } : {} })
      .then((res) => (res.ok ? res.blob() : null))
      .then((blob) => {
        if (!live || blob === null) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      });
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id]);
  return (
    <Flex vertical align="center" gap={4}>
      {url ? (
        <Image
          src={url}
          width={180}
          height={120}
          style={{ objectFit: 'cover' }}
          alt={label}
          data-testid="deposit-proof"
        />
      ) : (
        <div style={{ width: 180, height: 120, background: '#f0f0f0' }} />
      )}
      <Typography.Text type="secondary">{label}</Typography.Text>
    </Flex>
  );
}
