// KYC review (compliance): the pending submissions with their photos; approve or reject, each with a
// written reason the server keeps in the audit log. Photos are fetched with the staff token and
// shown from memory (object URLs), never from a public address.
import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import type { KycReviewItem } from '@bourse/contract';
import { useQuery } from '@tanstack/react-query';
import { App as AntApp, Button, Card, Descriptions, Flex, Image, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient, queryKeys } from '../../app/api.ts';
import { formatDateTime } from '../../app/format.ts';
import { getToken } from '../../app/session.ts';
import { QueueList, RefreshButton, useDecision } from '../../shared/decision-queue.tsx';
import { PageTitle } from '../../shared/page-title.tsx';
import { ReasonModal } from '../../shared/reason-modal.tsx';

export default function KycReviewPage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const list = useQuery({ queryKey: queryKeys.kyc, queryFn: adminApi.kycPending });
  const { deciding, isDialogOpen, decide, close } = useDecision<KycReviewItem, 'approve' | 'reject'>();
  const items = list.data?.items ?? [];

  return (
    <>
      <PageTitle title={t('kycReview.title')} extra={<RefreshButton query={list} />} />
      <Typography.Paragraph type="secondary">{t('kycReview.intro')}</Typography.Paragraph>
      <QueueList
        query={list}
        items={items}
        emptyText={t('kycReview.empty')}
        emptyTestId="kyc-empty"
        render={(item) => <Submission key={item.id} item={item} onDecide={(decision) => decide(item, decision)} />}
      />
      <ReasonModal
        open={isDialogOpen}
        isDanger={deciding?.decision === 'reject'}
        title={t(deciding?.decision === 'reject' ? 'kycReview.rejectTitle' : 'kycReview.approveTitle', {
          name: deciding?.item.fullName ?? '',
        })}
        body={
          <Typography.Paragraph>
            {t(deciding?.decision === 'reject' ? 'kycReview.rejectBody' : 'kycReview.approveBody')}
          </Typography.Paragraph>
        }
        okText={t(deciding?.decision === 'reject' ? 'kycReview.reject' : 'kycReview.approve')}
        onCancel={close}
        onConfirm={async (reason) => {
          if (deciding === null) return;
          await adminApi.kycDecide(deciding.item.id, { decision: deciding.decision, reason });
          void message.success(t(deciding.decision === 'reject' ? 'kycReview.rejected' : 'kycReview.approved'));
          close();
          void queryClient.invalidateQueries({ queryKey: queryKeys.kyc });
          void queryClient.invalidateQueries({ queryKey: ['audit'] });
        }}
      />
    </>
  );
}

function Submission({ item, onDecide }: { item: KycReviewItem; onDecide: (d: 'approve' | 'reject') => void }) {
  const { t, i18n } = useTranslation();
  return (
    <Card data-testid={`kyc-item-${item.id}`}>
      <Flex gap={24} wrap>
        <Descriptions column={1} size="small" style={{ minWidth: 280, flex: 1 }}>
          <Descriptions.Item label={t('kycReview.user')}>{item.userId}</Descriptions.Item>
          <Descriptions.Item label={t('kycReview.fullName')}>{item.fullName}</Descriptions.Item>
          <Descriptions.Item label={t('kycReview.docType')}>
            {t(`kycReview.docTypes.${item.docType}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('kycReview.docNumber')}>{item.docNumber}</Descriptions.Item>
          <Descriptions.Item label={t('kycReview.submittedAt')}>
            {formatDateTime(new Date(item.createdAt).toISOString(), i18n.language)}
          </Descriptions.Item>
        </Descriptions>
        <Flex gap={12}>
          <Photo id={item.id} side="front" label={t('kycReview.front')} />
          <Photo id={item.id} side="back" label={t('kycReview.back')} />
        </Flex>
      </Flex>
      <Flex gap={8} justify="flex-end" style={{ marginTop: 16 }}>
        <Button danger icon={<CloseOutlined />} onClick={() => onDecide('reject')} data-testid="kyc-reject">
          {t('kycReview.reject')}
        </Button>
        <Button type="primary" icon={<CheckOutlined />} onClick={() => onDecide('approve')} data-testid="kyc-approve">
          {t('kycReview.approve')}
        </Button>
      </Flex>
    </Card>
  );
}

function Photo({ id, side, label }: { id: number; side: 'front' | 'back'; label: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    const token = getToken();
    void fetch(`/ipor-api/admin/kyc/${id}/image/${side}`, { headers: token ? { token } : {} })
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
  }, [id, side]);
  return (
    <Flex vertical align="center" gap={4}>
      {url ? (
        <Image
          src={url}
          width={180}
          height={120}
          style={{ objectFit: 'cover' }}
          alt={label}
          data-testid={`kyc-photo-${side}`}
        />
      ) : (
        <div style={{ width: 180, height: 120, background: '#f0f0f0' }} />
      )}
      <Typography.Text type="secondary">{label}</Typography.Text>
    </Flex>
  );
}
