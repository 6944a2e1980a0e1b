// The install pages (SPEC common/download, androidAPP, iosAPP). The app is a PWA: it is installed from
// the browser, never from an app store, so these pages give the real steps for each platform and, where
// the browser fires `beforeinstallprompt` (Chromium), its install dialog as a button. No store badges,
// no APK: there is nothing else to download.

import { Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isStandalone, promptInstall, useInstallOffer } from '../../app/install-prompt.ts';
import { ChevronRightIcon } from '../../app/shell/icons.tsx';
import { Page } from '../../app/shell/page.tsx';
import './install.css';

function InstallOffer() {
  const { t } = useTranslation();
  const offered = useInstallOffer();
  if (isStandalone())
    return (
      <div className="notice-card" data-testid="install-installed">
        <p>{t('install.installed')}</p>
      </div>
    );
  if (!offered)
    return (
      <p className="section-hint" data-testid="install-no-prompt">
        {t('install.noPrompt')}
      </p>
    );
  const install = async () => {
    const outcome = await promptInstall();
    if (outcome !== 'unavailable')
      Toast.show({ content: t(outcome === 'accepted' ? 'install.accepted' : 'install.dismissed') });
  };
  return (
    <div className="install-offer">
      <p className="section-hint">{t('install.buttonHint')}</p>
      <button
        type="button"
        className="btn btn--primary btn--block"
        onClick={() => void install()}
        data-testid="install-button"
      >
        {t('install.button')}
      </button>
    </div>
  );
}

function Steps({ platform }: { platform: 'android' | 'ios' }) {
  const { t } = useTranslation();
  const key = platform === 'android' ? 'androidSteps' : 'iosSteps';
  return (
    <section className="install-steps" data-testid={`install-steps-${platform}`}>
      <h2 className="install-steps__title">{t(`install.${platform}`)}</h2>
      <ol>
        {(['s1', 's2', 's3', 's4'] as const).map((s) => (
          <li key={s}>{t(`install.${key}.${s}`)}</li>
        ))}
      </ol>
      <p className="section-hint">{t(platform === 'android' ? 'install.androidNote' : 'install.iosNote')}</p>
    </section>
  );
}

/** iPhone, iPad (which may say "Macintosh" but has a touch screen) and iPod: Safari's steps come first. */
function looksLikeIos(): boolean {
  const ua = navigator.userAgent;
  return /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
}

export function DownloadPage() {
  const { t } = useTranslation();
  const platforms: ('android' | 'ios')[] = looksLikeIos() ? ['ios', 'android'] : ['android', 'ios'];
  return (
    <Page title={t('titles.common.download')}>
      <article className="prose install">
        <p>{t('install.intro')}</p>
        <InstallOffer />
      </article>
      <div className="list">
        {platforms.map((p) => (
          <Link
            key={p}
            className="list-row"
            to={p === 'android' ? '/pages/common/androidAPP' : '/pages/common/iosAPP'}
            data-testid={`install-link-${p}`}
          >
            <span className="list-row__label">{t(p === 'android' ? 'install.seeAndroid' : 'install.seeIos')}</span>
            <ChevronRightIcon size={18} />
          </Link>
        ))}
      </div>
      <p className="section-hint install__updates">{t('install.updates')}</p>
    </Page>
  );
}

export function AndroidAppPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('titles.common.androidAPP')}>
      <article className="prose install">
        <p>{t('install.intro')}</p>
        <InstallOffer />
        <Steps platform="android" />
        <p className="section-hint">{t('install.updates')}</p>
      </article>
    </Page>
  );
}

export function IosAppPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('titles.common.iosAPP')}>
      <article className="prose install">
        <p>{t('install.intro')}</p>
        <Steps platform="ios" />
        <p className="section-hint">{t('install.updates')}</p>
      </article>
    </Page>
  );
}
