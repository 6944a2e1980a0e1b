// Who is signed in: the token (from session.ts) and the server's answer to /admin/auth/me, shared
// with every page below the sign-in guard.
import type { StaffMeView } from '@bourse/contract';
import { createContext, useContext, useSyncExternalStore } from 'react';
import { getToken, subscribeToken } from './session.ts';

export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken, getToken);
}

export const CurrentStaffContext = createContext<StaffMeView | null>(null);

export function useCurrentStaff(): StaffMeView {
  const me = useContext(CurrentStaffContext);
  if (me === null) throw new Error('useCurrentStaff() used outside the signed-in routes');
  return me;
}
