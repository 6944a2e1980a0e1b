// Boot script: a small entry of its own in index.html that runs as soon as it has loaded, long before
// the app's code has downloaded on a slow link. It sends the calls of the first screen right away:
// the platform props (every screen's paper-mode badge), the login info when signed in, and on Home
// its feed, countries, index cards and hot list. The app picks the answers up through
// app/early-requests.ts when its queries make the same calls. It also starts fetching the texts of
// the stored language when that is not English (the app waits for them before its first render),
// and on Home uses the idle wait to create the number and date formatters Home will need.
import { sendEarly } from './app/early-requests.ts';
import { readStorage, storageKeys } from './app/storage-keys.ts';
import { homeCalls, readStoredCountry } from './features/markets/home-requests.ts';
import { warmHomeFormatters } from './features/markets/home-warmup.ts';
import { getStoredLanguage } from './i18n/languages.ts';

// The same import as i18n/index.ts's loader: one module, fetched once.
if (getStoredLanguage() === 'pt-BR') import('./i18n/pt-BR.ts').catch(() => undefined);

const homePath = '/pages/tabbar/home';

const props = sendEarly(homeCalls.props);
if (readStorage(storageKeys.token)) sendEarly({ path: '/user/login/info' });

if (window.location.pathname === homePath) {
  sendEarly(homeCalls.ads);
  sendEarly(homeCalls.notices);
  sendEarly(homeCalls.news);
  sendEarly(homeCalls.countries);
  // As prefetchHomeData: the stored country, else the deployment's, else IN.
  const stored = readStoredCountry();
  const country: Promise<string | null> = stored
    ? Promise.resolve(stored)
    : props
        .then((response) => response.clone().json())
        .then((body: { code?: number; data?: { stockCountry?: string } }) =>
          body.code === 0 ? (body.data?.stockCountry ?? 'IN') : null,
        );
  country.then(
    (code) => {
      if (!code) return;
      sendEarly(homeCalls.indices(code));
      sendEarly(homeCalls.hot(code));
    },
    () => undefined,
  );
  // After the calls have gone out; the app's code is still on its way.
  setTimeout(() => warmHomeFormatters(stored ?? 'IN'), 0);
}
