import { GlobalOutlined } from '@ant-design/icons';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../i18n/index.ts';
import { isLanguage, LANGUAGES } from '../i18n/language.ts';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <Select
      aria-label={t('language.label')}
      data-testid="language-switch"
      value={i18n.language}
      variant="borderless"
      prefix={<GlobalOutlined />}
      popupMatchSelectWidth={false}
      onChange={(value: string) => {
        if (isLanguage(value)) void changeLanguage(value);
      }}
      options={LANGUAGES.map((language) => ({ value: language, label: t(`language.${language}`) }))}
    />
  );
}
