// The customer's profile (SPEC §2 user/userInfo) from POST /user/info: who they are, what is set up
// (verification, PINs, two-factor), links to security, KYC, bank accounts and assets, and the one field
// they change here, the nickname (POST /user/update). The server validates; this shows its messages.
import type { ProfileView, UpdateProfileInput } from '@bourse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, Input, Popup, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { apiPost, queryKeys } from '../../app/api.ts';
import { useSession } from '../../app/session.ts';
import { BankIcon, ChevronRightIcon, ListIcon, ShieldIcon, UserIcon, WalletIcon } from '../../app/shell/icons.tsx';
import { LinkRow } from '../../app/shell/link-row.tsx';
import { Page } from '../../app/shell/page.tsx';
import { useEscape } from '../../app/shell/use-escape.ts';
import { VerificationBadge } from '../../app/shell/verification-badge.tsx';
import { formatDate } from '../../lib/time.ts';
import { ErrorState, SkeletonRows } from '../markets/market-ui.tsx';
import { RequireLogin } from './security-page.tsx';
import { applyServerErrors } from './server-errors.ts';
import { ServerForm } from './server-form.tsx';

export const profileKey = ['user', 'info'] as const;
/** The contract's NICKNAME_MAX (the apps import only the contract's types); the server checks it. */
const nicknameMax = 30;

function InfoRow({ label, value, to, testId }: { label: string; value: ReactNode; to?: string; testId?: string }) {
  const body = (
    <>
      <span className="list-row__label">{label}</span>
      <span className="list-row__value" data-testid={testId}>
        {value}
      </span>
      {to && <ChevronRightIcon size={18} />}
    </>
  );
  return to ? (
    <Link className="list-row" to={to}>
      {body}
    </Link>
  ) : (
    <div className="list-row">{body}</div>
  );
}

function NicknameSheet({ profile, isOpen, onClose }: { profile: ProfileView; isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const [banner, setBanner] = useState<string | null>(null);
  useEscape(isOpen, onClose);
  const save = useMutation({
    mutationFn: (values: UpdateProfileInput) => apiPost<ProfileView>('/user/update', values, { isSilent: true }),
    onSuccess: (updated) => {
      queryClient.setQueryData(profileKey, updated);
      void queryClient.invalidateQueries({ queryKey: queryKeys.loginInfo });
      Toast.show({ content: t('funds.profile.nicknameSaved') });
      onClose();
    },
    onError: (error) => setBanner(applyServerErrors(form, error, ['nickname'])),
  });
  return (
    <Popup visible={isOpen} onMaskClick={onClose} onClose={onClose} destroyOnClose bodyClassName="sheet">
      <div role="dialog" aria-modal="true" aria-label={t('funds.profile.editNickname')}>
        <div className="sheet__head">
          <h2 className="sheet__title">{t('funds.profile.editNickname')}</h2>
          <button type="button" className="text-button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
        <div className="sheet__body">
          <ServerForm
            form={form}
            banner={banner}
            initialValues={{ nickname: profile.nickname }}
            onSubmit={(values: UpdateProfileInput) => {
              setBanner(null);
              save.mutate(values);
            }}
            isPending={save.isPending}
            submitText={t('common.save')}
            testId="nickname-form"
          >
            <Form.Item
              name="nickname"
              label={t('funds.profile.nickname')}
              help={t('funds.profile.nicknameHint')}
              rules={[{ required: true, whitespace: true, message: t('common.required') }]}
            >
              <Input maxLength={nicknameMax} clearable autoComplete="nickname" />
            </Form.Item>
          </ServerForm>
        </div>
      </div>
    </Popup>
  );
}

function Profile() {
  const { t } = useTranslation();
  const session = useSession();
  const [isEditing, setEditing] = useState(false);
  const query = useQuery({
    queryKey: profileKey,
    queryFn: () => apiPost<ProfileView>('/user/info', undefined, { isBackground: true }),
    enabled: Boolean(session.token),
  });
  if (query.isPending) return <SkeletonRows count={8} />;
  if (query.isError) return <ErrorState onRetry={() => void query.refetch()} />;
  const p = query.data;
  const isSet = (value: boolean) => (value ? t('funds.profile.isSet') : t('funds.profile.notSet'));
  return (
    <>
      <section className="account-card" data-testid="profile-card">
        <span className="account-card__avatar">
          <UserIcon size={28} />
        </span>
        <div className="account-card__body">
          <div className="account-card__name" data-testid="profile-name">
            {p.nickname || p.account}
          </div>
          <VerificationBadge idStatus={p.idStatus} />
          <p className="account-card__hint tabular">{t('drawer.idLabel', { id: p.id })}</p>
        </div>
      </section>
      <div className="list">
        <button type="button" className="list-row" onClick={() => setEditing(true)} data-testid="edit-nickname">
          <span className="list-row__label">{t('funds.profile.nickname')}</span>
          <span className="list-row__value" data-testid="profile-nickname">
            {p.nickname || t('funds.profile.notSet')}
          </span>
          <ChevronRightIcon size={18} />
        </button>
        <InfoRow label={t('funds.profile.account')} value={`+${p.areaCode} ${p.phone}`} testId="profile-phone" />
        <InfoRow
          label={t('funds.profile.email')}
          value={p.email ?? t('funds.profile.notSet')}
          to="/pages/user/security"
        />
        <InfoRow
          label={t('funds.profile.verification')}
          value={t(`idStatus.${p.idStatus}`)}
          to="/pages/user/kyc"
          testId="profile-kyc"
        />
        <InfoRow label={t('funds.profile.tradePassword')} value={isSet(p.hasTradePassword)} to="/pages/user/security" />
        <InfoRow
          label={t('funds.profile.withdrawPassword')}
          value={isSet(p.hasWithdrawPassword)}
          to="/pages/user/security"
        />
        <InfoRow
          label={t('funds.profile.totp')}
          value={p.totpEnabled ? t('funds.profile.on') : t('funds.profile.off')}
          to="/pages/user/security"
        />
        <InfoRow label={t('funds.profile.memberSince')} value={formatDate(p.createdAt)} />
      </div>
      <div className="list">
        <LinkRow to="/pages/user/assets" icon={<WalletIcon />} label={t('funds.profile.assets')} />
        <LinkRow to="/pages/fundsDetail/index" icon={<ListIcon />} label={t('funds.profile.fundsRecords')} />
        <LinkRow to="/pages/wallet/bankList" icon={<BankIcon />} label={t('funds.profile.bankAccounts')} />
        <LinkRow to="/pages/user/security" icon={<ShieldIcon />} label={t('funds.profile.security')} />
      </div>
      <NicknameSheet profile={p} isOpen={isEditing} onClose={() => setEditing(false)} />
    </>
  );
}

export function UserInfoPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Page title={t('titles.user.userInfo')}>
        <Profile />
      </Page>
    </RequireLogin>
  );
}
