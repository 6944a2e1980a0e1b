// The MF tab until robots arrive (a later issue): the shell, the tab bar and a clear "coming soon"
// state.
import { useTranslation } from 'react-i18next';
import { ChartIcon } from '../../app/shell/icons.tsx';
import { Page } from '../../app/shell/page.tsx';

function MarketDataPlaceholder({ titleKey, messageKey }: { titleKey: string; messageKey?: string }) {
  const { t } = useTranslation();
  return (
    <Page title={t(titleKey)} left="menu" hasTabBar>
      <section className="state-view" data-testid="market-placeholder">
        <span className="state-view__icon">
          <ChartIcon size={40} />
        </span>
        <h2 className="state-view__title">{t(messageKey ?? 'common.comingWithMarketData')}</h2>
        <p className="state-view__hint">
          {t(messageKey ? 'common.comingSoonHint' : 'common.comingWithMarketDataHint')}
        </p>
      </section>
    </Page>
  );
}

export const RobotListPage = () => (
  <MarketDataPlaceholder titleKey="titles.robot.list" messageKey="common.comingSoon" />
);
