// The "virtual money" badge (PRODUCT rule 6): shown on every screen while the server runs in paper mode.
import { useTranslation } from 'react-i18next';
import { usePlatformProps } from '../api.ts';

export function PaperBadge() {
  const { t } = useTranslation();
  const props = usePlatformProps();
  if (props.data?.mode !== 'paper') return null;
  return (
    <span className="paper-badge" title={t('app.virtualMoneyHint')} data-testid="paper-badge">
      {t('app.virtualMoney')}
      <span className="visually-hidden">. {t('app.virtualMoneyHint')}</span>
    </span>
  );
}
