// Pages of fixed text that staff edit in the console in both languages (SPEC common/companyIntroduction,
// common/loanService), from /index/page: the staff's text once saved, a plain default before.

import type { ContentPageSlug, ContentPageView } from '@bourse/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { apiGet } from '../../app/api.ts';
import { Page } from '../../app/shell/page.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { ErrorState, SkeletonRows } from '../markets/market-ui.tsx';
import './install.css';

function InfoPage({ slug, titleKey, after }: { slug: ContentPageSlug; titleKey: string; after?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const page = useQuery({
    queryKey: ['content-page', slug, i18n.language],
    queryFn: () => apiGet<ContentPageView>('/index/page', { slug }),
  });
  return (
    <Page title={page.data?.title ?? t(titleKey)}>
      {page.isPending ? (
        <SkeletonRows count={4} height={64} />
      ) : page.isError ? (
        <ErrorState onRetry={() => void page.refetch()} />
      ) : (
        <article className="prose" data-testid={`info-page-${slug}`}>
          {page.data.body.split(/\n{2,}/).map((para, i) => (
            <p key={i}>{para}</p>
          ))}
          {page.data.updatedAt && (
            <p className="info-page__meta">
              {t('infoPage.updated', {
                date: new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium' }).format(
                  Date.parse(page.data.updatedAt),
                ),
              })}
            </p>
          )}
          {after}
        </article>
      )}
    </Page>
  );
}

export const CompanyIntroductionPage = () => (
  <InfoPage slug="companyIntroduction" titleKey="titles.common.companyIntroduction" />
);
/** The staff's text, then the way to the credit score and the terms (never behind a person). */
function LoanServiceLinks() {
  const { t } = useTranslation();
  return (
    <p className="info-page__links">
      <Link to="/pages/user/creditScore">{t('titles.user.creditScore')}</Link> ·{' '}
      <Link to="/pages/loan/apply">{t('titles.loan.apply')}</Link>
    </p>
  );
}

export const LoanServicePage = () => (
  <InfoPage slug="loanService" titleKey="titles.common.loanService" after={<LoanServiceLinks />} />
);
