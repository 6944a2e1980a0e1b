// Pages of fixed text that staff edit in the console in both languages (SPEC common/companyIntroduction,
// common/loanService), from /index/page: the staff's text once saved, a plain default before.

import type { ContentPageSlug, ContentPageView } from '@bourse/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiGet } from '../../app/api.ts';
import { Page } from '../../app/shell/page.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { ErrorState, SkeletonRows } from '../markets/market-ui.tsx';
import './install.css';

function InfoPage({ slug, titleKey }: { slug: ContentPageSlug; titleKey: string }) {
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
        </article>
      )}
    </Page>
  );
}

export const CompanyIntroductionPage = () => (
  <InfoPage slug="companyIntroduction" titleKey="titles.common.companyIntroduction" />
);
export const LoanServicePage = () => <InfoPage slug="loanService" titleKey="titles.common.loanService" />;
