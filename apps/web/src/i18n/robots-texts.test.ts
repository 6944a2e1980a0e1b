// No customer-facing text in either language promises a return (PRODUCT.md honesty rules; issue 27):
// no "guaranteed"/"garantido", no "risk-free"/"sem risco", no fixed daily or monthly percentage. Scans
// every text of the customer app and every error message of the contract, not only the robot screens.
import { ERRORS } from '@bourse/contract';
import { describe, expect, it } from 'vitest';
import { enUS } from './en-US.ts';
import { ptBR } from './pt-BR.ts';

function flatten(value: unknown, prefix = ''): [string, string][] {
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof child === 'string' ? [[path, child] as [string, string]] : flatten(child, path);
  });
}

const PROMISES = [
  /\bguarantee[ds]?\b/i,
  /\bgarantid[oa]s?\b/i,
  /\bgarantimos\b/i,
  /\brisk[- ]free\b/i,
  /\bsem risco\b/i,
  /\d[\d.,]*\s?%\s*(daily|a day|per day|each day|a month|per month|ao dia|por dia|diári|ao mês|por mês)/i,
  /\b(daily|diária|diário) (return|profit|rendimento|lucro) of \d/i,
];

describe('no text promises a return', () => {
  const texts = [
    ...flatten(enUS).map(([k, v]) => [`en-US ${k}`, v] as const),
    ...flatten(ptBR).map(([k, v]) => [`pt-BR ${k}`, v] as const),
    ...Object.entries(ERRORS).flatMap(([code, e]) => [
      [`error ${code}`, e.en] as const,
      [`erro ${code}`, e.pt] as const,
    ]),
  ];
  it('finds none of the promising words or fixed rates', () => {
    const found = texts.filter(([, text]) => PROMISES.some((p) => p.test(text)));
    expect(found).toEqual([]);
  });
  it('catches one when it is there', () => {
    for (const sample of ['Guaranteed 1.5% daily', 'Rendimento garantido', '2% ao dia', 'risk-free income'])
      expect(
        PROMISES.some((p) => p.test(sample)),
        sample,
      ).toBe(true);
  });
});
