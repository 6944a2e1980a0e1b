// Public screens of the "common" group: the start (landing) screen, the language choice, and the
// disclaimer and privacy policy linked from registration.
import { Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePlatformProps } from '../../app/api.ts';
import { homePath, loginPath } from '../../app/navigation.ts';
import { GlobeIcon, Logo } from '../../app/shell/icons.tsx';
import { Page } from '../../app/shell/page.tsx';
import { type Language, languages, setLanguage } from '../../i18n/index.ts';

export function StartPage() {
  const { t } = useTranslation();
  const props = usePlatformProps();
  const isLive = props.data?.mode === 'live';
  return (
    <Page title={t('titles.common.start')} left="none" right={<LanguageShortcut />}>
      <section className="start">
        <div className="start__brand">
          <Logo size={56} />
          <div>
            <div className="start__name">{props.data?.platformName || t('app.name')}</div>
            <div className="start__tagline">{t('app.tagline')}</div>
          </div>
        </div>
        <h2 className="start__headline">{t('start.headline')}</h2>
        <p className="start__intro">{t('start.intro')}</p>
        {props.data && (
          <div className={isLive ? 'notice-card notice-card--live' : 'notice-card'} data-testid="mode-card">
            <strong>{isLive ? t('start.liveTitle') : t('start.paperTitle')}</strong>
            <p>{isLive ? t('start.liveBody') : t('start.paperBody')}</p>
          </div>
        )}
        <ul className="start__points">
          <li>{t('start.point1')}</li>
          <li>{t('start.point2')}</li>
          <li>{t('start.point3')}</li>
        </ul>
        <div className="start__actions">
          <Link className="btn btn--primary btn--block" to={loginPath}>
            {t('start.signIn')}
          </Link>
          <Link className="btn btn--outline btn--block" to="/pages/account/reg">
            {t('start.register')}
          </Link>
          <Link className="btn btn--text btn--block" to={homePath}>
            {t('start.browse')}
          </Link>
        </div>
      </section>
    </Page>
  );
}

function LanguageShortcut() {
  const { t } = useTranslation();
  return (
    <Link className="icon-button" to="/pages/common/lang" aria-label={t('lang.title')}>
      <GlobeIcon size={22} />
    </Link>
  );
}

const languageLabelKeys: Record<Language, string> = { 'en-US': 'lang.enUS', 'pt-BR': 'lang.ptBR' };

export function LanguagePage() {
  const { t, i18n } = useTranslation();
  const choose = async (language: Language) => {
    await setLanguage(language);
    Toast.show({ content: t('lang.changed', { lng: language }) });
  };
  return (
    <Page title={t('lang.title')}>
      <p className="section-hint">{t('lang.hint')}</p>
      <fieldset className="list list--fieldset">
        <legend className="visually-hidden">{t('lang.title')}</legend>
        {languages.map((language) => (
          <label key={language} lang={language} className="list-row" data-testid={`lang-${language}`}>
            <span className="list-row__label">{t(languageLabelKeys[language])}</span>
            <input
              type="radio"
              name="language"
              className="radio-input"
              value={language}
              checked={i18n.language === language}
              onChange={() => void choose(language)}
            />
          </label>
        ))}
      </fieldset>
    </Page>
  );
}

function LegalPage({ section }: { section: 'disclaimer' | 'privacy' }) {
  const { t } = useTranslation();
  return (
    <Page title={t(`${section}.title`)}>
      <article className="prose">
        <p>{t(`${section}.p1`)}</p>
        <p>{t(`${section}.p2`)}</p>
        <p>{t(`${section}.p3`)}</p>
        <p>{t(`${section}.p4`)}</p>
      </article>
    </Page>
  );
}

export function DisclaimerPage() {
  return <LegalPage section="disclaimer" />;
}

export function PrivacyPolicyPage() {
  return <LegalPage section="privacy" />;
}
