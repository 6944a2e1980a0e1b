// Who is signed in: the token (from session.ts) and the server's answer to /admin/auth/me, shared
// with every page below the sign-in guard.
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Me } from './api.ts';
import { getToken, subscribeToken } from './session.ts';

export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken, getToken);
}

export const CurrentStaffContext = createContext<Me | null>(null);

export function useCurrentStaff(): Me {
  const me = useContext(CurrentStaffContext);
  if (me === null) throw new Error('useCurrentStaff() used outside the signed-in routes');
  return me;
}
