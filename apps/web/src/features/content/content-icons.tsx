// Icons of the message centre (24×24 grid, currentColor, decorative: the link or button carries the label).
import { Icon, type IconProps } from '../../app/shell/icons.tsx';

export const BellIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15L6 16z" />
    <path d="M10 20.5a2 2 0 0 0 4 0" />
  </Icon>
);

export const MailIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3" y="5.5" width="18" height="13" rx="2" />
    <path d="M3.5 7l8.5 6 8.5-6" />
  </Icon>
);

export const AnnouncementIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 10v4h3l6 4V6L7 10H4z" />
    <path d="M16.5 9a4 4 0 0 1 0 6" />
    <path d="M19 6.5a7.5 7.5 0 0 1 0 11" />
  </Icon>
);
