// The app's configured request wrapper and the calls shared by many screens (props, login info).
// Server state lives in TanStack Query; query keys are listed here so invalidation stays in one place.

import type { DeploymentProps, LoginInfo } from '@bourse/contract';
import { useQuery } from '@tanstack/react-query';
import { homeCalls } from '../features/markets/home-requests.ts';
import { currentLanguage, i18n } from '../i18n/index.ts';
import { takeEarly } from './early-requests.ts';
import { loginPath, navigateTo } from './navigation.ts';
import { createRequest, type RequestData, type RequestOptions, unwrap } from './request.ts';
import { clearSession, getToken, saveUser, useSession } from './session.ts';
import { clearToast, showLoadingToast, showToast } from './toast.ts';

/**
 * SPEC §8's -1000 (the session ended: expired, signed out elsewhere, revoked, or the account blocked):
 * forget the stored token and user and open the sign-in page. Also the live stream's, when the server
 * ends the account channel for the same reasons.
 */
export function endSession(): void {
  clearSession();
  if (!window.location.pathname.startsWith(loginPath)) navigateTo(loginPath);
}

export const request = createRequest({
  // An answer the boot script already asked for (src/boot.ts), else the network.
  fetch: (input, init) => takeEarly(String(input), init) ?? fetch(input, init),
  getToken,
  getLanguage: currentLanguage,
  onSessionInvalid: endSession,
  showToast: (message, durationMs) => showToast(message, durationMs),
  showLoading: () => showLoadingToast(i18n.t('common.loading')),
  hideLoading: () => clearToast(),
  networkErrorMessage: () => i18n.t('common.networkError'),
});

/** GET returning `data`, rejecting with ApiError on any code other than 0. */
export function apiGet<T>(path: string, data?: RequestData, options: RequestOptions = {}): Promise<T> {
  return unwrap(request<T>(path, { ...options, method: 'GET', data }));
}

/** POST returning `data`, rejecting with ApiError on any code other than 0. */
export function apiPost<T>(path: string, data?: RequestData, options: RequestOptions = {}): Promise<T> {
  return unwrap(request<T>(path, { ...options, method: 'POST', data }));
}

export const queryKeys = {
  props: ['common', 'props'] as const,
  loginInfo: ['user', 'login-info'] as const,
  sessions: ['user', 'sessions'] as const,
};

export const platformPropsQuery = {
  queryKey: queryKeys.props,
  queryFn: () => apiGet<DeploymentProps>(homeCalls.props.path),
  staleTime: 5 * 60_000,
  retry: 1,
};

export function usePlatformProps() {
  return useQuery(platformPropsQuery);
}

/**
 * GET /user/login/info while a token is stored (SPEC §7): empty data clears the local token, a
 * blocked user (status 0) is signed out, a failure is ignored (the stored profile stays shown).
 */
export function useLoginInfo() {
  const session = useSession();
  return useQuery({
    queryKey: [...queryKeys.loginInfo, session.token],
    enabled: Boolean(session.token),
    staleTime: 30_000,
    retry: false,
    queryFn: async (): Promise<LoginInfo | null> => {
      const envelope = await request<LoginInfo | null>('/user/login/info', { isSilent: true });
      if (envelope.code !== 0) return null;
      const info = envelope.data;
      if (!info?.user) {
        clearSession();
        return null;
      }
      if (info.user.status === 0) {
        clearSession();
        navigateTo(loginPath);
        return null;
      }
      saveUser(info.user);
      return info;
    },
  });
}
