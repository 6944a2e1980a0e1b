// The console's antd theme: brand teal #1cd7c0. The teal is light, so text drawn on it is dark
// (white on #1cd7c0 fails contrast), and teal text on white uses a darker shade of the same hue.
//
// Every text colour reaches WCAG AA (4.5:1) on white and on the layout's grey (checked by axe in
// e2e/admin-console.e2e.test.ts): antd's defaults do not. Its secondary text (45% black) is 3.3:1,
// its placeholders 25% black, its red 3.9:1, and a coloured tag writes shade 7 of its palette on
// shade 1 (gold 2.8:1, cyan 3.4:1, green 3.4:1).
import type { ThemeConfig } from 'antd';

export const BRAND = '#1cd7c0';
const BRAND_INK = '#00332d';
const BRAND_DARK = '#0a7d70';

/** Secondary text, descriptions, placeholders: 58% black, 5.2:1 on the layout grey (#f5f5f5). */
const TEXT_MUTED = 'rgba(0, 0, 0, 0.58)';

/**
 * The text of coloured tags (antd writes shade 7 on shade 1): the shade of the same hue that reaches
 * 4.5:1 on the tint. antd names each shade twice (gold7, gold-7), both becoming the one CSS variable
 * --ant-gold-7, where the dashed name wins: both are set.
 */
const TAG_TEXT = Object.fromEntries(
  Object.entries({
    volcano: '#ad2102',
    orange: '#ad4e00',
    gold: '#874d00',
    yellow: '#876800',
    lime: '#3f6600',
    green: '#237804',
    cyan: '#006d75',
  }).flatMap(([hue, shade]) => [
    [`${hue}7`, shade],
    [`${hue}-7`, shade],
  ]),
);

export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND,
    colorLink: BRAND_DARK,
    colorTextTertiary: TEXT_MUTED,
    colorTextDescription: TEXT_MUTED,
    colorTextPlaceholder: TEXT_MUTED,
    // Danger buttons and messages: red 7 (5.6:1 on white, white on it too).
    colorError: '#cf1322',
    colorErrorText: '#cf1322',
    colorSuccessText: '#237804',
    colorWarningText: '#874d00',
    ...TAG_TEXT,
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
    // An empty table's "No data" is drawn in the disabled grey; it is text to read, not a disabled control.
    Table: { colorTextDisabled: TEXT_MUTED },
  },
};
