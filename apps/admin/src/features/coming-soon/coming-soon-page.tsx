import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

export default function ComingSoonPage({ section }: { section: string }) {
  const { t } = useTranslation();
  return (
    <Result status="info" title={`${t(`menu.${section}`)}: ${t('comingSoon.title')}`} subTitle={t('comingSoon.body')} />
  );
}
