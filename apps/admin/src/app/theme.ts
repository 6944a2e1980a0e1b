// The console's antd theme: brand teal #1cd7c0. The teal is light, so text drawn on it is dark
// (white on #1cd7c0 fails contrast), and teal text on white uses a darker shade of the same hue.
import type { ThemeConfig } from 'antd';

export const BRAND = '#1cd7c0';
const BRAND_INK = '#00332d';
const BRAND_DARK = '#0a7d70';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND,
    colorLink: BRAND_DARK,
    borderRadius: 6,
    fontFamily:
      "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', 'Noto Sans', 'Liberation Sans', Arial, sans-serif",
  },
  components: {
    Button: { primaryColor: BRAND_INK, primaryShadow: 'none' },
    Menu: { itemSelectedColor: BRAND_INK, itemSelectedBg: '#d6f8f3' },
    Layout: { headerBg: '#ffffff', siderBg: '#ffffff', headerPadding: '0 24px' },
    Pagination: { itemActiveColor: BRAND_DARK },
    Tabs: { itemSelectedColor: BRAND_DARK },
  },
};
