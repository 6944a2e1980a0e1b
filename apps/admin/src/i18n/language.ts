// The console's two languages and how the choice is made: a stored choice (localStorage
// `adminLanguage`) wins, then the browser's preferences, then en-US.

export const LANGUAGES = ['en-US', 'pt-BR'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_STORAGE_KEY = 'adminLanguage';
export const DEFAULT_LANGUAGE: Language = 'en-US';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function resolveLanguage(stored: string | null | undefined, preferred: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'pt') return 'pt-BR';
    if (base === 'en') return 'en-US';
  }
  return DEFAULT_LANGUAGE;
}
