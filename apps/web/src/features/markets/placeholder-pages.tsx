// The Home, Markets, Trade, Positions and MF tabs until market data arrives (a later issue): the
// shell, the tab bar and a clear "coming with market data" state.
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

export const HomePage = () => <MarketDataPlaceholder titleKey="titles.tabbar.home" />;
export const MarketsPage = () => <MarketDataPlaceholder titleKey="titles.tabbar.markets" />;
export const TradePage = () => <MarketDataPlaceholder titleKey="titles.tabbar.trade" />;
export const PositionPage = () => <MarketDataPlaceholder titleKey="titles.tabbar.position" />;
export const RobotListPage = () => (
  <MarketDataPlaceholder titleKey="titles.robot.list" messageKey="common.comingSoon" />
);
