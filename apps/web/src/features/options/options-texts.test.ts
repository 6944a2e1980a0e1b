// Proves no options text, in either language, promises a return (PRODUCT.md's honesty rules): no
// "guaranteed"/"garantido", "risk-free return", "profit"/"lucro" promise, and no fixed daily or monthly
// percentage; and that both languages carry the risk notice and "the most you can lose is the premium".
import { describe, expect, it } from 'vitest';
import { optionsEnUS } from '../../i18n/options.en-US.ts';
import { optionsPtBR } from '../../i18n/options.pt-BR.ts';

function texts(value: unknown): string[] {
  return typeof value === 'string' ? [value] : Object.values(value as Record<string, unknown>).flatMap(texts);
}

const PROMISES = [
  /guarant/i,
  /garant/i,
  /assured|assegurad/i,
  /sure (profit|gain)|lucro certo/i,
  /\d+(\.\d+)?\s*%\s*(a|per|por|ao)\s*(day|dia|month|mês)/i,
  /daily (return|profit)|retorno diário/i,
];

describe('options texts', () => {
  for (const [lang, messages] of [
    ['en-US', optionsEnUS],
    ['pt-BR', optionsPtBR],
  ] as const) {
    it(`promise no return (${lang})`, () => {
      for (const text of texts(messages))
        for (const pattern of PROMISES) expect(text, `${lang}: ${text}`).not.toMatch(pattern);
    });
  }

  it('say the premium is the most one can lose, in both languages', () => {
    expect(optionsEnUS.options.rules.maxLoss).toMatch(/most you can lose .* premium/);
    expect(optionsPtBR.options.rules.maxLoss).toMatch(/máximo que você pode perder .* prêmio/);
    expect(optionsEnUS.options.riskNotice).toMatch(/lose their whole premium/);
    expect(optionsPtBR.options.riskNotice).toMatch(/perder todo o prêmio/);
  });
});
