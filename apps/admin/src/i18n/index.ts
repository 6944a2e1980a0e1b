// i18next for the console: both languages bundled (they are small), the choice kept in
// localStorage `adminLanguage` and mirrored to <html lang> and to the `lang` header of API calls.
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { enUS } from './en-US.ts';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_STORAGE_KEY, type Language, resolveLanguage } from './language.ts';
import { ptBR } from './pt-BR.ts';

function storedLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

const initial = resolveLanguage(storedLanguage(), typeof navigator === 'undefined' ? [] : navigator.languages);

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { 'en-US': { translation: enUS }, 'pt-BR': { translation: ptBR } },
  lng: initial,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: ['en-US', 'pt-BR'],
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
  initAsync: false,
});
document.documentElement.lang = initial;

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

export async function changeLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // storage blocked: the choice lasts for this page only
  }
  document.documentElement.lang = language;
  await i18n.changeLanguage(language);
}
