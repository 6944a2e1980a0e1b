// The custom navigation bar (SPEC §2, UI.md): 44 px, light grey, back chevron on the left, centred
// title, the paper-mode badge and an optional action on the right. Back goes one page back when
// this visit has history, otherwise it switches to the home tab.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { homePath } from '../navigation.ts';
import { useDrawer } from './drawer-context.ts';
import { BackIcon, MenuIcon } from './icons.tsx';
import { PaperBadge } from './paper-badge.tsx';

export interface NavBarProps {
  title: string;
  /** 'back' (default), 'menu' opens the side drawer (tab pages), 'none' leaves the slot empty. */
  left?: 'back' | 'menu' | 'none';
  right?: ReactNode;
}

function hasHistory(): boolean {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

export function NavBar({ title, left = 'back', right }: NavBarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const drawer = useDrawer();
  const goBack = () => {
    if (hasHistory()) navigate(-1);
    else navigate(homePath, { replace: true });
  };
  return (
    <header className="nav-bar">
      <div className="nav-bar__side nav-bar__side--left">
        {left === 'back' && (
          <button type="button" className="icon-button" onClick={goBack} aria-label={t('common.back')}>
            <BackIcon />
          </button>
        )}
        {left === 'menu' && (
          <button
            type="button"
            className="icon-button"
            onClick={drawer.open}
            onPointerDown={drawer.preload}
            aria-label={t('common.menu')}
            aria-haspopup="dialog"
            data-testid="open-drawer"
          >
            <MenuIcon />
          </button>
        )}
      </div>
      <h1 className="nav-bar__title">{title}</h1>
      <div className="nav-bar__side nav-bar__side--right">
        {right}
        <PaperBadge />
      </div>
    </header>
  );
}
