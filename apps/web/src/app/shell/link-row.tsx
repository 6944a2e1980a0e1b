// A row of a menu list that opens another page: icon, label, chevron (Mine, Profile, the wallet and
// exchange menus, "records" links under a form).
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronRightIcon } from './icons.tsx';

export function LinkRow({ to, icon, label, testId }: { to: string; icon: ReactNode; label: string; testId?: string }) {
  return (
    <Link className="list-row" to={to} data-testid={testId}>
      <span className="menu-row__icon">{icon}</span>
      <span className="list-row__label">{label}</span>
      <ChevronRightIcon size={18} />
    </Link>
  );
}
