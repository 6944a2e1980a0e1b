// Sign-out (SPEC §2): a cancellable confirmation, then the server session is ended, the local
// session cleared and the login page opened. Esc cancels the confirmation.
import { useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'antd-mobile';
import '../antd-mobile-react-19.ts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { request } from '../api.ts';
import { loginPath } from '../navigation.ts';
import { clearSession } from '../session.ts';

export function useSignOut(): () => Promise<boolean> {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') Dialog.clear();
    };
    window.addEventListener('keydown', onKeyDown);
    let isConfirmed = false;
    try {
      isConfirmed = await Dialog.confirm({
        title: t('drawer.signOutConfirmTitle'),
        content: t('drawer.signOutConfirm'),
        confirmText: t('drawer.signOut'),
        cancelText: t('common.cancel'),
        closeOnMaskClick: true,
      });
    } finally {
      window.removeEventListener('keydown', onKeyDown);
    }
    if (!isConfirmed) return false;
    try {
      await request('/user/logout', { method: 'POST', isSilent: true });
    } catch {
      // Offline: the local session is cleared anyway; the server session expires on its own.
    }
    clearSession();
    queryClient.removeQueries({ queryKey: ['user'] });
    navigate(loginPath, { replace: true });
    return true;
  }, [navigate, queryClient, t]);
}
