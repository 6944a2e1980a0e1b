import { expect, it } from 'vitest';
import { SUCCESS, successMessage } from './success.ts';

it('has SPEC §8 wording in English and a distinct Portuguese message for every success', () => {
  for (const [code, entry] of Object.entries(SUCCESS)) {
    expect(entry.en.length, code).toBeGreaterThan(3);
    expect(entry.pt, code).not.toBe(entry.en);
  }
  expect(successMessage('submitted', 'en-US')).toBe('Submitted');
  expect(successMessage('cancelled', 'pt-BR')).toBe('Cancelado');
});
