// The loan desk (loans.review: finance, admin; decision 0039): the review queue with each loan's terms
// and the customer's score; approve or reject with a reason (above the threshold a DIFFERENT staff member
// gives the second approval, which pays the loan out); confirm a repayment under review. The reviewing
// staff member is named on the loan (SPEC's "dedicated customer service manager"). Every action is
// audited by the server.

import { ReloadOutlined } from '@ant-design/icons';
import type { LoanStatus, StaffLoanView } from '@bourse/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, App as AntApp, Button, Flex, Segmented, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient, queryKeys } from '../../app/api.ts';
import { useCurrentStaff } from '../../app/current-staff.tsx';
import { formatDateTime, formatDecimalText } from '../../app/format.ts';
import { PageTitle } from '../../shared/page-title.tsx';
import { ReasonModal } from '../../shared/reason-modal.tsx';
import { SecondApprovalButtons } from '../../shared/second-approval.tsx';

const STATUS_COLOURS: Record<LoanStatus, string> = {
  under_review: 'gold',
  in_progress: 'blue',
  repayment_review: 'orange',
  repaid: 'green',
  rejected: 'red',
};
type Filter = 'under_review' | 'repayment_review' | 'in_progress' | 'all';
type Acting = { item: StaffLoanView; action: 'approve' | 'reject' | 'confirm' };

export default function LoansDeskPage() {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const me = useCurrentStaff();
  const [filter, setFilter] = useState<Filter>('under_review');
  const [acting, setActing] = useState<Acting | null>(null);
  const list = useQuery({ queryKey: queryKeys.loans(filter), queryFn: () => adminApi.loans(filter) });
  const lang = i18n.language;
  const when = (ms: number | null) => (ms === null ? '—' : formatDateTime(new Date(ms).toISOString(), lang));
  const amount = (v: string, c: string) => `${formatDecimalText(v, lang)} ${c}`;

  const columns: TableColumnsType<StaffLoanView> = [
    { title: t('loans.id'), dataIndex: 'id', width: 60 },
    {
      title: t('loans.customer'),
      key: 'customer',
      width: 150,
      render: (_, l) => (
        <Flex vertical>
          <span>
            #{l.userId} · {l.phone}
          </span>
          <Typography.Text type="secondary">{t('loans.score', { score: l.score })}</Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('loans.terms'),
      key: 'terms',
      render: (_, l) => (
        <Flex vertical>
          <Typography.Text strong style={{ fontVariantNumeric: 'tabular-nums' }}>
            {amount(l.amount, l.currency)}
          </Typography.Text>
          <Typography.Text type="secondary">
            {t('loans.termLine', {
              days: l.days,
              rate: formatDecimalText(l.dailyRate, lang),
              overdue: formatDecimalText(l.overdueDailyRate, lang),
            })}
          </Typography.Text>
          <Typography.Text type="secondary">
            {t('loans.repayLine', { amount: amount(l.repaymentAmount, l.currency) })}
          </Typography.Text>
          <Typography.Text type="secondary">{when(l.appliedAt)}</Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('loans.state'),
      key: 'state',
      width: 260,
      render: (_, l) => (
        <Flex vertical align="flex-start" gap={2}>
          <Tag color={STATUS_COLOURS[l.status]} data-testid={`loan-status-${l.id}`}>
            {t(`loans.statuses.${l.status}`)}
            {l.late ? ` · ${t('loans.late')}` : ''}
          </Tag>
          {l.needsSecondApproval && l.status === 'under_review' && (
            <Typography.Text type="warning">
              {l.firstApprovedBy === null ? t('loans.needsTwo') : t('loans.firstApproved', { name: l.firstApprovedBy })}
            </Typography.Text>
          )}
          {l.manager !== null && (
            <Typography.Text type="secondary">{t('loans.manager', { name: l.manager })}</Typography.Text>
          )}
          {(l.status === 'in_progress' || l.status === 'repayment_review') && (
            <Typography.Text>
              {t('loans.outstanding', { amount: amount(l.outstanding, l.currency), days: l.accruedDays })}
            </Typography.Text>
          )}
          {l.dueAt !== null && (
            <Typography.Text type="secondary">{t('loans.due', { at: when(l.dueAt) })}</Typography.Text>
          )}
          {l.repaidAmount !== null && (
            <Typography.Text>{t('loans.paid', { amount: amount(l.repaidAmount, l.currency) })}</Typography.Text>
          )}
          {l.rejectReason !== null && <span style={{ overflowWrap: 'anywhere' }}>{l.rejectReason}</span>}
        </Flex>
      ),
    },
    {
      title: t('loans.actions'),
      key: 'actions',
      fixed: 'right',
      width: 210,
      render: (_, l) => {
        if (l.status === 'under_review')
          return (
            <SecondApprovalButtons
              isMine={l.firstApprovedById === me.staff.id}
              notYourOwn={t('loans.notYourOwn')}
              approveText={
                l.needsSecondApproval && l.firstApprovedBy !== null ? t('loans.approveSecond') : t('loans.approve')
              }
              rejectText={t('loans.reject')}
              onApprove={() => setActing({ item: l, action: 'approve' })}
              onReject={() => setActing({ item: l, action: 'reject' })}
              testIdPrefix="loan"
              testIdSuffix={l.id}
            />
          );
        if (l.status === 'repayment_review')
          return (
            <Button
              size="small"
              type="primary"
              onClick={() => setActing({ item: l, action: 'confirm' })}
              data-testid={`loan-confirm-${l.id}`}
            >
              {t('loans.confirm')}
            </Button>
          );
        return l.disbursementId ? <Typography.Text code>{l.disbursementId}</Typography.Text> : '—';
      },
    },
  ];

  return (
    <>
      <PageTitle
        title={t('loans.title')}
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} loading={list.isFetching}>
            {t('common.refresh')}
          </Button>
        }
      />
      <Typography.Paragraph type="secondary">{t('loans.intro')}</Typography.Paragraph>
      <Segmented<Filter>
        style={{ marginBottom: 16 }}
        value={filter}
        onChange={setFilter}
        options={[
          { value: 'under_review', label: t('loans.statuses.under_review') },
          { value: 'repayment_review', label: t('loans.statuses.repayment_review') },
          { value: 'in_progress', label: t('loans.statuses.in_progress') },
          { value: 'all', label: t('loans.all') },
        ]}
      />
      {list.isError && <Alert type="error" showIcon title={list.error.message} style={{ marginBottom: 16 }} />}
      <Table<StaffLoanView>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.items ?? []}
        loading={list.isLoading}
        pagination={false}
        scroll={{ x: 1000 }}
        locale={{ emptyText: t('loans.empty') }}
        data-testid="loans-table"
      />
      <ReasonModal
        open={acting !== null}
        isDanger={acting?.action === 'reject'}
        title={t(`loans.${acting?.action ?? 'approve'}Title`, { id: acting?.item.id ?? '' })}
        body={
          acting && (
            <Typography.Paragraph>
              {t(`loans.${acting.action}Body`, {
                amount: amount(acting.item.amount, acting.item.currency),
                owed: amount(acting.item.repaidAmount ?? acting.item.outstanding, acting.item.currency),
                user: acting.item.userId,
              })}
            </Typography.Paragraph>
          )
        }
        okText={t(`loans.${acting?.action ?? 'approve'}`)}
        onCancel={() => setActing(null)}
        onConfirm={async (reason) => {
          if (acting === null) return;
          if (acting.action === 'confirm') await adminApi.confirmLoanRepayment(acting.item.id, { reason });
          else await adminApi.decideLoan(acting.item.id, { decision: acting.action, reason });
          void message.success(t(`loans.done.${acting.action}`));
          setActing(null);
          void queryClient.invalidateQueries({ queryKey: ['loans'] });
          void queryClient.invalidateQueries({ queryKey: ['audit'] });
        }}
      />
    </>
  );
}
