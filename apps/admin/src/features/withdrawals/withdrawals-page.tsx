// The finance desk (withdrawals.review): withdrawals above the review threshold waiting for a decision,
// with what a reviewer weighs (customer, KYC state, account age, amount, fee, what arrives, destination);
// approve or reject, each with a written reason the server audits in the decision's transaction. Other
// tabs show withdrawals being paid, failed ones (funds returned) and finished ones.
import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import type { WithdrawalDeskItem } from '@bourse/contract';
import { useQuery } from '@tanstack/react-query';
import { App as AntApp, Button, Card, Descriptions, Flex, Segmented, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient, queryKeys, type WithdrawalDeskView } from '../../app/api.ts';
import { formatDateTime, formatDecimalText } from '../../app/format.ts';
import { QueueList, RefreshButton, useDecision } from '../../shared/decision-queue.tsx';
import { PageTitle } from '../../shared/page-title.tsx';
import { ReasonModal } from '../../shared/reason-modal.tsx';

const VIEWS: readonly WithdrawalDeskView[] = ['review', 'paying', 'failed', 'done'];
const DAY_MS = 86_400_000;

export default function WithdrawalsPage() {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const [view, setView] = useState<WithdrawalDeskView>('review');
  const list = useQuery({ queryKey: queryKeys.withdrawals(view), queryFn: () => adminApi.withdrawalDesk(view) });
  const { deciding, isDialogOpen, decide, close } = useDecision<WithdrawalDeskItem, 'approve' | 'reject'>();
  const items = list.data?.items ?? [];
  const reject = deciding?.decision === 'reject';

  return (
    <>
      <PageTitle title={t('withdrawalDesk.title')} extra={<RefreshButton query={list} />} />
      <Typography.Paragraph type="secondary">{t('withdrawalDesk.intro')}</Typography.Paragraph>
      <Segmented
        value={view}
        onChange={(value) => setView(value as WithdrawalDeskView)}
        options={VIEWS.map((v) => ({ value: v, label: t(`withdrawalDesk.views.${v}`) }))}
        style={{ marginBottom: 16 }}
        data-testid="withdrawal-views"
      />
      <QueueList
        query={list}
        items={items}
        emptyText={t(`withdrawalDesk.empty.${view}`)}
        emptyTestId="withdrawals-empty"
        render={(item) => <WithdrawalCard key={item.id} item={item} onDecide={(decision) => decide(item, decision)} />}
      />
      <ReasonModal
        open={isDialogOpen}
        isDanger={reject}
        title={t(reject ? 'withdrawalDesk.rejectTitle' : 'withdrawalDesk.approveTitle', {
          id: deciding?.item.id ?? '',
          amount: deciding ? `${formatDecimalText(deciding.item.amount, i18n.language)} ${deciding.item.asset}` : '',
        })}
        body={
          <Typography.Paragraph>
            {t(reject ? 'withdrawalDesk.rejectBody' : 'withdrawalDesk.approveBody')}
          </Typography.Paragraph>
        }
        okText={t(reject ? 'withdrawalDesk.reject' : 'withdrawalDesk.approve')}
        onCancel={close}
        onConfirm={async (reason) => {
          if (deciding === null) return;
          await adminApi.withdrawalDecide(deciding.item.id, { decision: deciding.decision, reason });
          void message.success(t(reject ? 'withdrawalDesk.rejected' : 'withdrawalDesk.approved'));
          close();
          void queryClient.invalidateQueries({ queryKey: ['withdrawals'] });
          void queryClient.invalidateQueries({ queryKey: ['audit'] });
        }}
      />
    </>
  );
}

function WithdrawalCard({ item, onDecide }: { item: WithdrawalDeskItem; onDecide: (d: 'approve' | 'reject') => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const money = (text: string) => `${formatDecimalText(text, lang)} ${item.asset}`;
  const ageDays = Math.max(0, Math.floor((item.createdAt - item.accountCreatedAt) / DAY_MS));
  return (
    <Card data-testid={`withdrawal-item-${item.id}`}>
      <Flex gap={24} wrap>
        <Descriptions column={1} size="small" style={{ minWidth: 300, flex: 1 }}>
          <Descriptions.Item label={t('withdrawalDesk.id')}>#{item.id}</Descriptions.Item>
          <Descriptions.Item label={t('withdrawalDesk.customer')}>
            {item.account} · {t('withdrawalDesk.userId', { id: item.userId })}
          </Descriptions.Item>
          <Descriptions.Item label={t('withdrawalDesk.kyc')}>
            <Tag color={item.kycStatus === 'succ' ? 'green' : 'orange'}>{t(`kyc.${item.kycStatus}`)}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('withdrawalDesk.accountAge')}>
            {t('withdrawalDesk.days', { count: ageDays })}
          </Descriptions.Item>
          <Descriptions.Item label={t('withdrawalDesk.rail')}>
            {t(`withdrawalDesk.rails.${item.rail}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('withdrawalDesk.destination')}>
            <Typography.Text copyable style={{ overflowWrap: 'anywhere' }} data-testid="withdrawal-payee">
              {item.payee}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
        <Descriptions column={1} size="small" style={{ minWidth: 260, flex: 1 }}>
          <Descriptions.Item label={t('withdrawalDesk.amount')}>
            <Typography.Text strong data-testid="withdrawal-amount">
              {money(item.amount)}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('withdrawalDesk.fee')}>{money(item.fee)}</Descriptions.Item>
          <Descriptions.Item label={t('withdrawalDesk.receive')}>{money(item.receive)}</Descriptions.Item>
          <Descriptions.Item label={t('withdrawalDesk.status')}>
            <Tag data-testid="withdrawal-status">{t(`withdrawalDesk.states.${item.status}`)}</Tag>
          </Descriptions.Item>
          {item.reason && item.status !== 'paid' && (
            <Descriptions.Item label={t('withdrawalDesk.reason')}>{item.reason}</Descriptions.Item>
          )}
          {item.payoutRef && (
            <Descriptions.Item label={t('withdrawalDesk.payoutRef')}>{item.payoutRef}</Descriptions.Item>
          )}
        </Descriptions>
        <Timeline
          style={{ minWidth: 220 }}
          items={item.history.map((step) => ({
            children: (
              <>
                <Typography.Text>{t(`withdrawalDesk.states.${step.status}`)}</Typography.Text>
                <br />
                <Typography.Text type="secondary">
                  {formatDateTime(new Date(step.at).toISOString(), lang)}
                </Typography.Text>
              </>
            ),
          }))}
        />
      </Flex>
      {item.status === 'reviewing' && (
        <Flex gap={8} justify="flex-end" style={{ marginTop: 16 }}>
          <Button danger icon={<CloseOutlined />} onClick={() => onDecide('reject')} data-testid="withdrawal-reject">
            {t('withdrawalDesk.reject')}
          </Button>
          <Button
            type="primary"
            icon={<CheckOutlined />}
            onClick={() => onDecide('approve')}
            data-testid="withdrawal-approve"
          >
            {t('withdrawalDesk.approve')}
          </Button>
        </Flex>
      )}
    </Card>
  );
}
