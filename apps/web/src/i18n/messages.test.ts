// Proves that both language files have exactly the same keys and no empty texts, so no screen can
// show a raw key in either language.
import { describe, expect, it } from 'vitest';
import { enUS } from './en-US.ts';
import { ptBR } from './pt-BR.ts';

function flatten(value: unknown, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof child === 'string') out[path] = child;
    else Object.assign(out, flatten(child, path));
  }
  return out;
}

describe('language files', () => {
  const en = flatten(enUS);
  const pt = flatten(ptBR);
  it('have the same keys', () => {
    expect(Object.keys(pt).sort()).toEqual(Object.keys(en).sort());
  });
  it('have no empty texts and the same placeholders', () => {
    for (const [key, text] of Object.entries(en)) {
      expect(text.trim(), key).not.toBe('');
      const placeholders = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
      expect(placeholders(pt[key] ?? ''), key).toEqual(placeholders(text));
    }
  });
});
