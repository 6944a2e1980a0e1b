// The guard of every console page: no token → sign-in page (remembering where to come back to);
// a token → ask the server who we are, then render the page with that answer in context.
import { useQuery } from '@tanstack/react-query';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoading } from '../shared/page-loading.tsx';
import { adminApi, queryKeys } from './api.ts';
import { CurrentStaffContext, useToken } from './current-staff.tsx';
import { isStaffRole } from './roles.ts';
import { lastSessionEnd } from './session.ts';

export function RequireSignIn() {
  const token = useToken();
  const location = useLocation();
  const { t } = useTranslation();
  const me = useQuery({ queryKey: queryKeys.me, queryFn: adminApi.me, enabled: token !== null });

  if (token === null) {
    // Come back here after signing in, unless this staff member chose to sign out: the next
    // person to sign in on this device starts from the dashboard.
    const from = lastSessionEnd() === 'user' ? undefined : `${location.pathname}${location.search}`;
    return <Navigate to="/sign-in" replace state={{ from }} />;
  }
  if (me.isPending) return <PageLoading />;
  if (me.isError || !isStaffRole(me.data.staff.role)) {
    return (
      <Result
        status="error"
        title={t('errors.loadFailed')}
        subTitle={me.error?.message}
        extra={
          <Button type="primary" onClick={() => void me.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  return (
    <CurrentStaffContext.Provider value={me.data}>
      <Outlet />
    </CurrentStaffContext.Provider>
  );
}
