// The shell around every signed-in page: a side menu built from the role matrix, a header with the paper/live badge, the language and the staff
// member's own menu (change password, sign out), and a role check before any page renders.
import {
  AuditOutlined,
  BankOutlined,
  BlockOutlined,
  CalculatorOutlined,
  CreditCardOutlined,
  CrownOutlined,
  DashboardOutlined,
  DiffOutlined,
  DownOutlined,
  FundOutlined,
  IdcardOutlined,
  KeyOutlined,
  LikeOutlined,
  LogoutOutlined,
  MessageOutlined,
  NotificationOutlined,
  RobotOutlined,
  RocketOutlined,
  SafetyOutlined,
  SwapOutlined,
  TeamOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import {
  App as AntApp,
  Button,
  Dropdown,
  Flex,
  Grid,
  Layout,
  Menu,
  type MenuProps,
  Result,
  Tag,
  Typography,
} from 'antd';
import { type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { PageLoading } from '../shared/page-loading.tsx';
import { adminApi, endSession } from './api.ts';
import { useCurrentStaff } from './current-staff.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { ModeBadge } from './mode-badge.tsx';
import { canOpenPath, sectionForPath, sectionsFor } from './roles.ts';
import { watchScrollRegions } from './scroll-regions.ts';

const SECTION_ICONS: Record<string, ReactNode> = {
  dashboard: <DashboardOutlined />,
  users: <UserOutlined />,
  kyc: <IdcardOutlined />,
  chat: <MessageOutlined />,
  deposits: <WalletOutlined />,
  withdrawals: <BankOutlined />,
  loans: <CreditCardOutlined />,
  reconciliation: <CalculatorOutlined />,
  liquidity: <SwapOutlined />,
  perpetuals: <SafetyOutlined />,
  adjustments: <DiffOutlined />,
  ipo: <FundOutlined />,
  options: <SafetyOutlined />,
  blockTrades: <BlockOutlined />,
  launchpad: <FundOutlined />,
  robots: <RobotOutlined />,
  aiFunds: <FundOutlined />,
  listings: <RocketOutlined />,
  content: <NotificationOutlined />,
  vip: <CrownOutlined />,
  votes: <LikeOutlined />,
  audit: <AuditOutlined />,
  staff: <TeamOutlined />,
};

export function ConsoleLayout() {
  const { t } = useTranslation();
  const { staff, mode } = useCurrentStaff();
  const location = useLocation();
  const navigate = useNavigate();
  const { message } = AntApp.useApp();
  const screens = Grid.useBreakpoint();
  const [isCollapsed, setCollapsed] = useState<boolean | null>(null);
  const collapsed = isCollapsed ?? !screens.lg;

  // Wide tables anywhere in the console (dialogs and drawers too) can be scrolled from the keyboard.
  const scrollLabel = t('common.scrollableTable');
  useEffect(() => watchScrollRegions(document.body, scrollLabel), [scrollLabel]);

  const signOut = useMutation({
    mutationFn: adminApi.logout,
    onSettled: () => {
      // The session is over on this device whatever the server answered.
      endSession('user');
      void navigate('/sign-in', { replace: true });
      void message.info(t('account.signedOut'));
    },
  });

  const menuItems: MenuProps['items'] = sectionsFor(staff.role).map((section) => ({
    key: section.key,
    icon: SECTION_ICONS[section.key],
    label: <Link to={section.path}>{t(`menu.${section.key}`)}</Link>,
  }));

  const accountItems: MenuProps['items'] = [
    { key: 'password', icon: <KeyOutlined />, label: <Link to="/password">{t('account.password')}</Link> },
    { type: 'divider' },
    {
      key: 'sign-out',
      icon: <LogoutOutlined />,
      danger: true,
      label: <span data-testid="sign-out">{t('account.signOut')}</span>,
      onClick: () => signOut.mutate(),
    },
  ];

  const selected = sectionForPath(location.pathname)?.key;
  const isAllowed = canOpenPath(staff.role, location.pathname);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        width={232}
        collapsedWidth={64}
        collapsible
        collapsed={collapsed}
        onCollapse={(value) => setCollapsed(value)}
        theme="light"
        style={{ borderInlineEnd: '1px solid #f0f0f0' }}
      >
        {/* Named by what it shows (WCAG 2.5.3): the brand and "Console", or the logo alone when collapsed. */}
        <Link to="/">
          <Flex align="center" gap={10} style={{ height: 64, paddingInline: collapsed ? 16 : 20 }}>
            <img
              src={`${import.meta.env.BASE_URL}favicon.svg`}
              alt={collapsed ? t('common.brand') : ''}
              width={32}
              height={32}
            />
            {!collapsed && (
              <Flex vertical style={{ lineHeight: 1.2 }}>
                <Typography.Text strong style={{ fontSize: 16 }}>
                  {t('common.brand')}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('common.console')}
                </Typography.Text>
              </Flex>
            )}
          </Flex>
        </Link>
        <Menu
          mode="inline"
          data-testid="side-menu"
          selectedKeys={selected === undefined ? [] : [selected]}
          items={menuItems}
          style={{ borderInlineEnd: 'none' }}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'flex-end',
            gap: 12,
            borderBottom: '1px solid #f0f0f0',
            position: 'sticky',
            top: 0,
            zIndex: 10,
          }}
        >
          <ModeBadge mode={mode} />
          <LanguageSwitch />
          <Dropdown menu={{ items: accountItems }} trigger={['click']}>
            <Button type="text" data-testid="account-menu">
              <UserOutlined />
              <span>{staff.username}</span>
              <Tag color="cyan" style={{ marginInline: 0 }}>
                {t(`roles.${staff.role}`)}
              </Tag>
              <DownOutlined style={{ fontSize: 10 }} />
            </Button>
          </Dropdown>
        </Layout.Header>
        <Layout.Content style={{ padding: screens.md ? 24 : 12 }}>
          <Suspense fallback={<PageLoading />}>
            {isAllowed ? (
              <Outlet />
            ) : (
              <Result
                status="403"
                title={t('errors.forbiddenTitle')}
                subTitle={t('errors.forbiddenBody', { role: t(`roles.${staff.role}`) })}
                extra={
                  <Link to="/">
                    <Button type="primary">{t('errors.backHome')}</Button>
                  </Link>
                }
              />
            )}
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
