// A row of a menu list that opens another page: icon, label, chevron (Mine, Profile, the wallet and
// exchange menus, "records" links under a form).
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronRightIcon } from './icons.tsx';

export function LinkRow({
  to,
  icon,
  label,
  testId,
  badge,
}: {
  to: string;
  icon: ReactNode;
  label: string;
  testId?: string;
  /** A count shown before the chevron (unread messages); nothing when 0. */
  badge?: number;
}) {
  return (
    <Link className="list-row" to={to} data-testid={testId}>
      <span className="menu-row__icon">{icon}</span>
      <span className="list-row__label">{label}</span>
      {badge ? (
        <span className="list-row__badge tabular" data-testid={testId ? `${testId}-badge` : undefined}>
          {badge > 99 ? '99+' : badge}
        </span>
      ) : null}
      <ChevronRightIcon size={18} />
    </Link>
  );
}
