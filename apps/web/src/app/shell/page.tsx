// The frame every screen uses: the navigation bar, the scrollable content and, on tab screens, the
// tab bar. Keeps the page title in the document title too.
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NavBar, type NavBarProps } from './nav-bar.tsx';
import { TabBar } from './tab-bar.tsx';

export interface PageProps extends NavBarProps {
  hasTabBar?: boolean;
  children: ReactNode;
  className?: string;
}

export function Page({ hasTabBar = false, children, className, ...navBar }: PageProps) {
  const { t } = useTranslation();
  useEffect(() => {
    const name = t('app.name');
    document.title = navBar.title === name ? name : `${navBar.title} · ${name}`;
  }, [navBar.title, t]);
  return (
    <div className={hasTabBar ? 'page page--with-tabs' : 'page'}>
      <NavBar {...navBar} />
      <main className={className ? `page__content ${className}` : 'page__content'}>{children}</main>
      {hasTabBar && <TabBar />}
    </div>
  );
}
