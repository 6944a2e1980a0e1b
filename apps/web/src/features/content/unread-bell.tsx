// The bell on Home's navigation bar: opens the message centre and shows the signed-in user's unread
// count. Kept light (no antd-mobile) because Home is the first screen.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUnreadCounts } from './content-api.ts';
import { BellIcon } from './content-icons.tsx';
import './content.css';

export function UnreadBell() {
  const { t } = useTranslation();
  const unread = useUnreadCounts();
  const count = unread.data?.total ?? 0;
  return (
    <Link
      className="icon-button unread-bell"
      to="/pages/notice/list"
      aria-label={count > 0 ? t('content.openMessages', { count }) : t('content.openMessagesNone')}
      data-testid="unread-bell"
    >
      <BellIcon size={22} />
      {count > 0 && (
        <span className="unread-bell__count tabular" data-testid="unread-count" aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
