// The side drawer (SPEC §2): logo, account, verification state, "ID " + user id (tap to copy),
// deposit and withdraw buttons, the menu entries with their public/login rule, the IPO
// auto-subscribe entry only when openAutoApply is 1, and sign-out. Closes on mask click and on Esc.
import { Popup, Toast } from 'antd-mobile';
import '../antd-mobile-react-19.ts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLoginInfo, usePlatformProps } from '../api.ts';
import { loginPath } from '../navigation.ts';
import { useSession } from '../session.ts';
import { copyText } from './copy.ts';
import {
  BankIcon,
  ChartIcon,
  ChevronRightIcon,
  ClockIcon,
  CopyIcon,
  InfoIcon,
  ListIcon,
  Logo,
  LogoutIcon,
  ShieldIcon,
  TradeIcon,
  UserIcon,
  WalletIcon,
} from './icons.tsx';
import { useSignOut } from './sign-out.ts';
import { useEscape } from './use-escape.ts';
import { VerificationBadge } from './verification-badge.tsx';

export const drawerWidthPx = 220;
export const menuDrawerWidthPx = 300;

interface MenuEntry {
  key: string;
  labelKey: string;
  path: string;
  isPublic: boolean;
  icon: ReactNode;
}

export function Drawer({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const loginInfo = useLoginInfo();
  const props = usePlatformProps();
  const signOut = useSignOut();
  useEscape(isOpen, onClose);

  const isSignedIn = Boolean(session.token);
  const user = loginInfo.data?.user ?? session.user;
  const openAutoApply = loginInfo.data?.openAutoApply ?? props.data?.openAutoApply ?? 0;

  const go = (path: string, isPublic: boolean) => {
    onClose();
    if (!isPublic && !isSignedIn) navigate(`${loginPath}?redirect=${encodeURIComponent(path)}`);
    else navigate(path);
  };

  const entries: MenuEntry[] = [
    isSignedIn
      ? {
          key: 'userInfo',
          labelKey: 'drawer.userInfo',
          path: '/pages/user/userInfo',
          isPublic: false,
          icon: <UserIcon />,
        }
      : { key: 'login', labelKey: 'drawer.loginRegister', path: loginPath, isPublic: true, icon: <UserIcon /> },
    {
      key: 'offlineRecharge',
      labelKey: 'drawer.offlineRecharge',
      path: '/pages/recharge/offlineRecharge',
      isPublic: false,
      icon: <WalletIcon />,
    },
    {
      key: 'bankWithdraw',
      labelKey: 'drawer.bankWithdraw',
      path: '/pages/withdraw/bankWithdraw',
      isPublic: false,
      icon: <BankIcon />,
    },
    {
      key: 'bankList',
      labelKey: 'drawer.bankList',
      path: '/pages/wallet/bankList?type=2',
      isPublic: false,
      icon: <BankIcon />,
    },
    {
      key: 'security',
      labelKey: 'drawer.security',
      path: '/pages/user/security',
      isPublic: false,
      icon: <ShieldIcon />,
    },
    {
      key: 'rechargeRecord',
      labelKey: 'drawer.rechargeRecord',
      path: '/pages/recharge/rechargeRecord',
      isPublic: false,
      icon: <ListIcon />,
    },
    {
      key: 'withdrawRecord',
      labelKey: 'drawer.withdrawRecord',
      path: '/pages/withdraw/withdrawRecord',
      isPublic: false,
      icon: <ListIcon />,
    },
    {
      key: 'stockFundsDetail',
      labelKey: 'drawer.stockFundsDetail',
      path: '/pages/fundsDetail/stockFundsDetail',
      isPublic: false,
      icon: <ClockIcon />,
    },
    {
      key: 'launchpad',
      labelKey: 'drawer.launchpad',
      path: '/pages/coinICO/icoList',
      isPublic: true,
      icon: <ChartIcon />,
    },
    { key: 'about', labelKey: 'drawer.about', path: '/pages/user/about', isPublic: true, icon: <InfoIcon /> },
  ];
  if (Number(openAutoApply) === 1) {
    entries.push({
      key: 'ipoSwitch',
      labelKey: 'drawer.ipoAutoApply',
      path: '/pages/user/ipoSwitch',
      isPublic: false,
      icon: <TradeIcon />,
    });
  }

  const copyId = async () => {
    if (!user) return;
    await copyText(String(user.id));
    Toast.show({ content: t('common.copied') });
  };

  return (
    <Popup
      visible={isOpen}
      position="left"
      onMaskClick={onClose}
      onClose={onClose}
      bodyClassName="drawer"
      bodyStyle={{ width: `${menuDrawerWidthPx}px` }}
      destroyOnClose
    >
      <div
        className="drawer__inner"
        role="dialog"
        aria-modal="true"
        aria-label={t('drawer.title')}
        data-testid="drawer"
      >
        <div className="drawer__head">
          <Logo size={44} />
          {isSignedIn && user ? (
            <div className="drawer__account">
              <div className="drawer__name">{user.account}</div>
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
          ) : (
            <div className="drawer__account">
              <div className="drawer__name">{t('drawer.notSignedIn')}</div>
              <div className="drawer__hint">{t('drawer.notSignedInHint')}</div>
            </div>
          )}
        </div>
        <div className="drawer__actions">
          <button type="button" className="btn btn--primary" onClick={() => go('/pages/recharge/recharge', false)}>
            {t('drawer.recharge')}
          </button>
          <button type="button" className="btn btn--outline" onClick={() => go('/pages/withdraw/withdraw', false)}>
            {t('drawer.withdraw')}
          </button>
        </div>
        <nav className="drawer__menu" aria-label={t('drawer.title')}>
          {entries.map((entry) => (
            <button key={entry.key} type="button" className="menu-row" onClick={() => go(entry.path, entry.isPublic)}>
              <span className="menu-row__icon">{entry.icon}</span>
              <span className="menu-row__label">{t(entry.labelKey)}</span>
              <ChevronRightIcon size={18} />
            </button>
          ))}
          {isSignedIn && (
            <button
              type="button"
              className="menu-row menu-row--danger"
              data-testid="drawer-sign-out"
              onClick={() => {
                onClose();
                void signOut();
              }}
            >
              <span className="menu-row__icon">
                <LogoutIcon />
              </span>
              <span className="menu-row__label">{t('drawer.signOut')}</span>
            </button>
          )}
        </nav>
      </div>
    </Popup>
  );
}
