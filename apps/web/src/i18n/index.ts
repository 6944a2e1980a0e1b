// i18next set-up. Owns: the list of languages, the stored choice (localStorage `smcLanguage`,
// default en-US), loading a language's texts and keeping <html lang> in step with it. English (the
// default and the fallback) is part of the first load; Portuguese is a separate chunk, fetched at
// start-up when it is the stored choice (the app renders once `languageReady` settles) or when the
// user switches to it.

import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { storageKeys } from '../app/storage-keys.ts';
import { enUS, type Messages } from './en-US.ts';
import { defaultLanguage, getStoredLanguage, isLanguage, type Language } from './languages.ts';

export { defaultLanguage, getStoredLanguage, isLanguage, type Language, languages } from './languages.ts';

export const i18n = i18next.createInstance();

const loaders: Record<Language, () => Promise<Messages>> = {
  'en-US': () => Promise.resolve(enUS),
  'pt-BR': () => import('./pt-BR.ts').then((module) => module.ptBR),
};

const loadedLanguages = new Map<Language, Promise<void>>([['en-US', Promise.resolve()]]);

/** Fetches a language's texts once (a failed fetch is tried again on the next call). */
export function loadLanguage(language: Language): Promise<void> {
  let loading = loadedLanguages.get(language);
  if (!loading) {
    loading = loaders[language]().then(
      (messages) => {
        i18n.addResourceBundle(language, 'translation', messages, true, true);
      },
      (error: unknown) => {
        loadedLanguages.delete(language);
        throw error;
      },
    );
    loadedLanguages.set(language, loading);
  }
  return loading;
}

void i18n.use(initReactI18next).init({
  resources: { 'en-US': { translation: enUS } },
  lng: getStoredLanguage(),
  fallbackLng: defaultLanguage,
  interpolation: { escapeValue: false },
  // Texts that arrive after the first render (a slow language chunk) re-render the screens.
  react: { bindI18nStore: 'added' },
  returnNull: false,
  initAsync: false,
});

function applyHtmlLang(language: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

applyHtmlLang(getStoredLanguage());

/** Settles when the stored language's texts are there; if they cannot be fetched, English is used. */
export const languageReady: Promise<void> = loadLanguage(getStoredLanguage()).catch(async () => {
  applyHtmlLang(defaultLanguage);
  await i18n.changeLanguage(defaultLanguage);
});

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : defaultLanguage;
}

export async function setLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(storageKeys.language, language);
  } catch {
    // storage unavailable: the choice lasts for this visit only
  }
  await loadLanguage(language);
  applyHtmlLang(language);
  await i18n.changeLanguage(language);
}
