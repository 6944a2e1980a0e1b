// The screen for unknown addresses (not found). It keeps the shell: the navigation bar with its back
// action and the paper badge.
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { homePath } from '../navigation.ts';
import { InfoIcon } from './icons.tsx';
import { Page } from './page.tsx';

export function NotFoundPage() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Page title={t('common.notFound')}>
      <section className="state-view" data-testid="not-found">
        <span className="state-view__icon">
          <InfoIcon size={40} />
        </span>
        <h2 className="state-view__title">{t('common.notFound')}</h2>
        <p className="state-view__hint break-anywhere">{t('common.notFoundHint', { path: location.pathname })}</p>
        <Link className="btn btn--primary" to={homePath} replace>
          {t('common.goHome')}
        </Link>
      </section>
    </Page>
  );
}
