// Rule 6 of PRODUCT.md: virtual money is labelled on every screen. The console shows the server's
// mode in its header; live mode is marked just as visibly, in red.
import type { DeploymentMode } from '@bourse/contract';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

export function ModeBadge({ mode }: { mode: DeploymentMode }) {
  const { t } = useTranslation();
  const isPaper = mode === 'paper';
  return (
    <Tooltip title={t(isPaper ? 'mode.paperHint' : 'mode.liveHint')}>
      <Tag
        data-testid="mode-badge"
        color={isPaper ? 'gold' : 'red'}
        style={{ marginInlineEnd: 0, fontWeight: 600, whiteSpace: 'normal' }}
      >
        {t(isPaper ? 'mode.paper' : 'mode.live')}
      </Tag>
    </Tooltip>
  );
}
