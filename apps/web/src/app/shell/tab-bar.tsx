// The five-tab bar (SPEC §2, UI.md): 50 px plus the bottom safe area; the selected tab's icon is in
// the theme colour #1cd7c0 (its label in a darker shade of it, for 4.5:1 text contrast), others grey.
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { HomeIcon, MarketsIcon, RobotIcon, TradeIcon, UserIcon } from './icons.tsx';

const tabs = [
  { path: '/pages/tabbar/home', labelKey: 'tabs.home', Icon: HomeIcon },
  { path: '/pages/tabbar/markets', labelKey: 'tabs.markets', Icon: MarketsIcon },
  { path: '/pages/tabbar/trade', labelKey: 'tabs.trade', Icon: TradeIcon },
  { path: '/pages/robot/list', labelKey: 'tabs.mf', Icon: RobotIcon },
  { path: '/pages/tabbar/mine', labelKey: 'tabs.mine', Icon: UserIcon },
] as const;

export const tabPaths: readonly string[] = tabs.map((tab) => tab.path);

export function TabBar() {
  const { t } = useTranslation();
  return (
    <nav className="tab-bar" aria-label={t('tabs.home')}>
      {tabs.map(({ path, labelKey, Icon }) => (
        <NavLink
          key={path}
          to={path}
          replace
          className={({ isActive }) => (isActive ? 'tab-bar__item tab-bar__item--active' : 'tab-bar__item')}
        >
          <Icon size={24} />
          <span className="tab-bar__label">{t(labelKey)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
