// i18next set-up. Owns: the list of languages, the stored choice (localStorage `smcLanguage`,
// default en-US) and keeping <html lang> in step with it.

import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { enUS } from './en-US.ts';
import { ptBR } from './pt-BR.ts';

export const languages = ['en-US', 'pt-BR'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'en-US';
const languageStorageKey = 'smcLanguage';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

export function getStoredLanguage(): Language {
  try {
    const stored = localStorage.getItem(languageStorageKey);
    return isLanguage(stored) ? stored : defaultLanguage;
  } catch {
    return defaultLanguage;
  }
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { 'en-US': { translation: enUS }, 'pt-BR': { translation: ptBR } },
  lng: getStoredLanguage(),
  fallbackLng: defaultLanguage,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

function applyHtmlLang(language: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

applyHtmlLang(getStoredLanguage());

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : defaultLanguage;
}

export async function setLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(languageStorageKey, language);
  } catch {
    // storage unavailable: the choice lasts for this visit only
  }
  applyHtmlLang(language);
  await i18n.changeLanguage(language);
}
