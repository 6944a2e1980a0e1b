// The Mine tab (account summary and links) and the About screen.
import { Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLoginInfo } from '../../app/api.ts';
import { loginPath } from '../../app/navigation.ts';
import { useSession } from '../../app/session.ts';
import { copyText } from '../../app/shell/copy.ts';
import {
  ChartIcon,
  ChevronRightIcon,
  CopyIcon,
  GlobeIcon,
  InfoIcon,
  InstallIcon,
  Logo,
  LogoutIcon,
  ShieldIcon,
  StarIcon,
  UserIcon,
  WalletIcon,
} from '../../app/shell/icons.tsx';
import { LinkRow } from '../../app/shell/link-row.tsx';
import { Page } from '../../app/shell/page.tsx';
import { useSignOut } from '../../app/shell/sign-out.ts';
import { VerificationBadge } from '../../app/shell/verification-badge.tsx';
import { MailIcon } from '../content/content-icons.tsx';
import { useChatUnread } from '../support-chat/chat-api.ts';

export const appVersion = '1.0.0';

export function MinePage() {
  const { t } = useTranslation();
  const session = useSession();
  const loginInfo = useLoginInfo();
  const signOut = useSignOut();
  const user = loginInfo.data?.user ?? session.user;
  const isSignedIn = Boolean(session.token);
  const chatUnread = useChatUnread();

  const copyId = async () => {
    if (!user) return;
    await copyText(String(user.id));
    Toast.show({ content: t('common.copied') });
  };

  return (
    <Page title={t('titles.tabbar.mine')} left="menu" hasTabBar>
      {isSignedIn && user ? (
        <section className="account-card" data-testid="account-card">
          <span className="account-card__avatar">
            <UserIcon size={28} />
          </span>
          <div className="account-card__body">
            <div className="account-card__name">{user.account}</div>
            <VerificationBadge idStatus={user.idStatus} />
            <button
              type="button"
              className="drawer__id"
              onClick={copyId}
              aria-label={`${t('drawer.idLabel', { id: user.id })}, ${t('common.copy')}`}
            >
              <span className="tabular">{t('drawer.idLabel', { id: user.id })}</span>
              <CopyIcon size={16} />
            </button>
          </div>
        </section>
      ) : (
        <section className="account-card account-card--guest" data-testid="guest-card">
          <Logo size={44} />
          <div className="account-card__body">
            <div className="account-card__name">{t('mine.guestTitle')}</div>
            <p className="account-card__hint">{t('mine.guestHint')}</p>
            <div className="row-gap">
              <Link className="btn btn--primary" to={loginPath}>
                {t('start.signIn')}
              </Link>
              <Link className="btn btn--outline" to="/pages/account/reg">
                {t('auth.register')}
              </Link>
            </div>
          </div>
        </section>
      )}
      <div className="list">
        {isSignedIn && <LinkRow to="/pages/user/assets" icon={<WalletIcon />} label={t('funds.profile.assets')} />}
        {isSignedIn && <LinkRow to="/pages/stock/vip" icon={<StarIcon />} label={t('vip.entry')} />}
        {isSignedIn && (
          <LinkRow to="/pages/user/creditScore" icon={<ChartIcon />} label={t('titles.user.creditScore')} />
        )}
        {isSignedIn && <LinkRow to="/pages/loan/list" icon={<WalletIcon />} label={t('titles.loan.list')} />}
        {isSignedIn && (
          <LinkRow to="/pages/stockBulk/bulkList" icon={<ChartIcon />} label={t('titles.stockBulk.bulkList')} />
        )}
        {isSignedIn && <LinkRow to="/pages/notice/list" icon={<MailIcon />} label={t('content.messages')} />}
        {isSignedIn && <LinkRow to="/pages/user/security" icon={<ShieldIcon />} label={t('mine.security')} />}
        <LinkRow
          to={isSignedIn ? '/pages/user/service' : '/pages/common/service'}
          icon={<MailIcon />}
          label={t('chat.entry')}
          badge={chatUnread}
          testId="mine-support"
        />
        <LinkRow to="/pages/common/lang" icon={<GlobeIcon />} label={t('mine.language')} />
        <LinkRow to="/pages/user/about" icon={<InfoIcon />} label={t('mine.about')} />
        <LinkRow to="/pages/common/download" icon={<InstallIcon />} label={t('titles.common.download')} />
        {isSignedIn && (
          <button
            type="button"
            className="list-row menu-row--danger"
            onClick={() => void signOut()}
            data-testid="mine-sign-out"
          >
            <span className="menu-row__icon">
              <LogoutIcon />
            </span>
            <span className="list-row__label">{t('mine.signOut')}</span>
          </button>
        )}
      </div>
    </Page>
  );
}

export function AboutPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('titles.user.about')}>
      <article className="prose">
        <div className="start__brand">
          <Logo size={48} />
          <div>
            <div className="start__name">{t('app.name')}</div>
            <div className="start__tagline">{t('about.version', { version: appVersion })}</div>
          </div>
        </div>
        <p>{t('about.body')}</p>
        <p>
          <Link to="/pages/common/companyIntroduction">{t('infoPage.about')}</Link> ·{' '}
          <Link to="/pages/common/loanService">{t('infoPage.loans')}</Link>
        </p>
        <p>
          <Link to="/pages/common/disclaimer">{t('disclaimer.title')}</Link> ·{' '}
          <Link to="/pages/common/privacyPolicy">{t('privacy.title')}</Link>
        </p>
      </article>
    </Page>
  );
}
