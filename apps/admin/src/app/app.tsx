// Providers and routes of the staff console. Pages are code-split; the shell (layout, sign-in
// guard) loads first.
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUSLocale from 'antd/locale/en_US';
import ptBRLocale from 'antd/locale/pt_BR';
import { lazy, type ReactNode, Suspense } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { i18n } from '../i18n/index.ts';
import { PageLoading } from '../shared/page-loading.tsx';
import { queryClient } from './api.ts';
import { ConsoleLayout } from './console-layout.tsx';
import { RequireSignIn } from './require-sign-in.tsx';
import { SECTIONS } from './roles.ts';
import { theme } from './theme.ts';

const SignInPage = lazy(() => import('../features/staff/sign-in-page.tsx'));
const ChangePasswordPage = lazy(() => import('../features/staff/change-password-page.tsx'));
const DashboardPage = lazy(() => import('../features/dashboard/dashboard-page.tsx'));
const AuditLogPage = lazy(() => import('../features/staff/audit-log-page.tsx'));
const StaffPage = lazy(() => import('../features/staff/staff-page.tsx'));
const UsersPage = lazy(() => import('../features/accounts/users-page.tsx'));
const ContentPage = lazy(() => import('../features/content/content-page.tsx'));
const ReconciliationPage = lazy(() => import('../features/reconciliation/reconciliation-page.tsx'));
const LiquidityPage = lazy(() => import('../features/spot/liquidity-page.tsx'));
const PerpetualsDeskPage = lazy(() => import('../features/perpetuals/desk-page.tsx'));
const KycReviewPage = lazy(() => import('../features/kyc/kyc-review-page.tsx'));
const DepositDeskPage = lazy(() => import('../features/deposits/deposit-desk-page.tsx'));
const WithdrawalsPage = lazy(() => import('../features/withdrawals/withdrawals-page.tsx'));
const AdjustmentsPage = lazy(() => import('../features/adjustments/adjustments-page.tsx'));
const IpoDeskPage = lazy(() => import('../features/ipo/ipo-desk-page.tsx'));
const OptionsDeskPage = lazy(() => import('../features/options/options-desk-page.tsx'));
const ListingsPage = lazy(() => import('../features/listings/listings-page.tsx'));
const BlockTradesPage = lazy(() => import('../features/block-trades/block-desk-page.tsx'));
const VipDeskPage = lazy(() => import('../features/vip/vip-desk-page.tsx'));
const LoansDeskPage = lazy(() => import('../features/loans/loans-desk-page.tsx'));
const LaunchpadPage = lazy(() => import('../features/launchpad/launchpad-page.tsx'));
const RobotsDeskPage = lazy(() => import('../features/robots/robots-desk-page.tsx'));
const AiFundsDeskPage = lazy(() => import('../features/ai-funds/ai-funds-desk-page.tsx'));
const VotesPage = lazy(() => import('../features/votes/votes-page.tsx'));
const ChatDeskPage = lazy(() => import('../features/support-chat/chat-desk-page.tsx'));
const NotFoundPage = lazy(() => import('../features/not-found/not-found-page.tsx'));

function LocalizedProviders({ children }: { children: ReactNode }) {
  const { i18n: active } = useTranslation();
  return (
    <ConfigProvider locale={active.language === 'pt-BR' ? ptBRLocale : enUSLocale} theme={theme}>
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}

export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <LocalizedProviders>
          <BrowserRouter basename="/admin">
            <Suspense fallback={<PageLoading />}>
              <Routes>
                <Route path="/sign-in" element={<SignInPage />} />
                <Route element={<RequireSignIn />}>
                  <Route element={<ConsoleLayout />}>
                    <Route index element={<DashboardPage />} />
                    <Route path="users" element={<UsersPage />} />
                    <Route path="audit" element={<AuditLogPage />} />
                    <Route path="staff" element={<StaffPage />} />
                    <Route path="content" element={<ContentPage />} />
                    <Route path="votes" element={<VotesPage />} />
                    <Route path="reconciliation" element={<ReconciliationPage />} />
                    <Route path="liquidity" element={<LiquidityPage />} />
                    <Route path="perpetuals" element={<PerpetualsDeskPage />} />
                    <Route path="kyc" element={<KycReviewPage />} />
                    <Route path="chat" element={<ChatDeskPage />} />
                    <Route path="deposits" element={<DepositDeskPage />} />
                    <Route path="withdrawals" element={<WithdrawalsPage />} />
                    <Route path="adjustments" element={<AdjustmentsPage />} />
                    <Route path="ipo" element={<IpoDeskPage />} />
                    <Route path="options" element={<OptionsDeskPage />} />
                    <Route path="listings" element={<ListingsPage />} />
                    <Route path="block-trades" element={<BlockTradesPage />} />
                    <Route path="vip" element={<VipDeskPage />} />
                    <Route path="loans" element={<LoansDeskPage />} />
                    <Route path="launchpad" element={<LaunchpadPage />} />
                    <Route path="robots" element={<RobotsDeskPage />} />
                    <Route path="ai-funds" element={<AiFundsDeskPage />} />
                    <Route path="password" element={<ChangePasswordPage />} />
                    <Route path="dashboard" element={<Navigate to="/" replace />} />
                    <Route path="*" element={<NotFoundPage />} />
                  </Route>
                </Route>
              </Routes>
            </Suspense>
          </BrowserRouter>
        </LocalizedProviders>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
