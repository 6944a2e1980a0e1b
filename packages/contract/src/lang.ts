// The two languages the product speaks, and how a request's language is read.
// en-US is the default everywhere (SPEC §1, §9).

export const LANGS = ['en-US', 'pt-BR'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'en-US';

/** Reads the `lang` header first, then Accept-Language; anything unknown falls back to en-US. */
export function pickLang(langHeader: string | undefined, acceptLanguage?: string | undefined): Lang {
  for (const candidate of [langHeader, ...(acceptLanguage ?? '').split(',')]) {
    const tag = candidate?.split(';')[0]?.trim().toLowerCase();
    if (!tag) continue;
    if (tag === 'pt-br' || tag === 'pt') return 'pt-BR';
    if (tag === 'en-us' || tag === 'en') return 'en-US';
  }
  return DEFAULT_LANG;
}
