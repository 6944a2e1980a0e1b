// The app's languages and the stored choice (localStorage `smcLanguage`, default en-US), without
// i18next: the boot script needs the language before the app's code has loaded.
import { readStorage, storageKeys } from '../app/storage-keys.ts';

export const languages = ['en-US', 'pt-BR'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'en-US';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

export function getStoredLanguage(): Language {
  const stored = readStorage(storageKeys.language);
  return isLanguage(stored) ? stored : defaultLanguage;
}
