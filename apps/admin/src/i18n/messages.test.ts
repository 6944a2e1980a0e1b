import { DISCREPANCY_KINDS, RECONCILIATION_TRIGGERS } from '@bourse/contract';
import { describe, expect, it } from 'vitest';
import { enUS } from './en-US.ts';
import { resolveLanguage } from './language.ts';
import { ptBR } from './pt-BR.ts';

function leaves(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (typeof child === 'string') out.set(path, child);
    else for (const [k, v] of leaves(child, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('console messages', () => {
  it('have the same keys and the same {{placeholders}} in both languages', () => {
    const en = leaves(enUS);
    const pt = leaves(ptBR);
    expect([...pt.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of en) expect(placeholders(pt.get(key) ?? ''), key).toEqual(placeholders(text));
  });

  it('name and explain every kind of discrepancy and every trigger of a reconciliation the server reports', () => {
    for (const messages of [enUS, ptBR]) {
      const kinds: Record<string, string> = messages.reconciliation.kinds;
      const explanations: Record<string, string> = messages.reconciliation.explanations;
      const triggers: Record<string, string> = messages.reconciliation.triggers;
      for (const kind of DISCREPANCY_KINDS) {
        expect(kinds[kind], kind).toBeTruthy();
        expect(explanations[kind], kind).toBeTruthy();
      }
      for (const trigger of RECONCILIATION_TRIGGERS) expect(triggers[trigger], trigger).toBeTruthy();
    }
  });

  it('leave no message empty', () => {
    for (const [key, text] of [...leaves(enUS), ...leaves(ptBR)]) expect(text.trim(), key).not.toBe('');
  });
});

describe('language choice', () => {
  it('prefers the stored choice, then the browser, then en-US', () => {
    expect(resolveLanguage('pt-BR', ['en-US'])).toBe('pt-BR');
    expect(resolveLanguage('fr-FR', ['pt-PT', 'en'])).toBe('pt-BR');
    expect(resolveLanguage(null, ['de-DE', 'en-GB'])).toBe('en-US');
    expect(resolveLanguage(undefined, [])).toBe('en-US');
  });
});
